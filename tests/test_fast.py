"""The internal speed module ``high_society._fast``: each trick does what the plain code it
replaces does. Its constructors build exactly what ``attrs.evolve`` builds, the cached highest
bid is always what the tables say, the fast legality test accepts exactly the plainly legal
actions (and nothing the ordered checks refuse), the shared values are equal to new ones,
and the layout check refuses a class the tricks would get wrong."""

import inspect
import pickle
import random
from collections.abc import Iterator

import attrs
import pytest

from high_society import (
    STANDARD,
    Bid,
    Discard,
    GameConfig,
    GameState,
    Pass,
    Phase,
    PlayerState,
    Reveal,
    StatusCard,
    _fast,
    apply,
    is_legal,
    legal_actions,
    new_game,
    rules,
    sort_cards,
    why_illegal,
)
from high_society._fast import (
    GAME_FIELDS,
    NO_MONEY,
    PLAYER_FIELDS,
    LayoutError,
    check_layout,
    evolve_player,
    evolve_state,
    money_set,
    next_turn,
    plainly_legal,
    randbelow,
    set_highest_bid,
    shared_pass,
    with_card,
)
from high_society.bots import RandomBot
from high_society.host import play
from tests.builders import FOUR_CARD_GAME, L, discard_due, play_actions, won


def played_states(seeds: range = range(6), players: int = 4) -> Iterator[GameState]:
    """Every state of a few games of random bots, the end included."""
    for seed in seeds:
        bots = [RandomBot(seed * 10 + i) for i in range(players)]
        for step in play(bots, seed=seed):
            yield step.before
        yield step.after


# --- The members by name -----------------------------------------------------------------


def test_the_members_by_name_are_the_members() -> None:
    assert tuple(Phase) == (_fast.REVEAL, _fast.AUCTION, _fast.DISCARD, _fast.OVER)
    for name in ("PRESTIGE", "FAUX_PAS", "PASSE", "SCANDALE"):
        assert getattr(_fast, name) is StatusCard[name]
    assert frozenset() == NO_MONEY
    assert type(NO_MONEY) is frozenset


# --- The common legal actions, recognised at once ----------------------------------------


def probes(state: GameState) -> list[object]:
    """Actions near the legal ones, and some that are not actions at all."""
    seats = range(-1, state.num_players + 1)
    found: list[object] = [Pass(seat) for seat in seats]
    found += [Bid(seat, frozenset({value})) for seat in seats for value in (1, 4, 25, 99)]
    found += [Reveal(card) for card in StatusCard]
    found += [Discard(state.turn, card) for card in StatusCard]
    found += [
        Bid(True, frozenset({1})),  # True == 1, but not a seat
        Pass(True),
        Bid(state.turn, frozenset({1.0})),  # type: ignore[arg-type]  # == 1, not a money card
        Bid(state.turn, frozenset()),
        Bid(state.turn, {1}),  # type: ignore[arg-type]  # a set, not a frozenset
        Bid(state.turn, frozenset(state.players[state.turn].table)),
        Reveal("prestige"),  # type: ignore[arg-type]
        "pass",
        None,
    ]
    return found


def test_plainly_legal_accepts_nothing_the_ordered_checks_refuse() -> None:
    for state in played_states():
        for action in probes(state):
            if plainly_legal(state, action):
                assert why_illegal(state, action) is None, (state, action)


def test_plainly_legal_accepts_every_legal_bid_pass_and_reveal() -> None:
    # What makes it save time: the legal actions a game plays all take the short way.
    seen = {Bid: 0, Pass: 0, Reveal: 0, Discard: 0}
    for state in played_states():
        legal = legal_actions(state)
        for action in (*legal[:40], *legal[-40:]):
            seen[type(action)] += 1
            assert plainly_legal(state, action) == (type(action) is not Discard), action
    assert all(seen.values()), seen


def test_plainly_legal_refuses_the_plain_illegal_actions_of_each_kind() -> None:
    state = play_actions(*won(L(3), 0, 2), Reveal(L(5)), Bid(0, frozenset({4})))
    assert plainly_legal(state, Bid(1, frozenset({6})))
    assert not plainly_legal(state, Bid(1, frozenset({3})))  # too low (R5)
    assert not plainly_legal(state, Bid(0, frozenset({6})))  # not its turn
    assert not plainly_legal(state, Bid(1, frozenset({2, 99})))  # no such money card
    assert not plainly_legal(state, Pass(2))  # not its turn
    assert not plainly_legal(state, Reveal(L(6)))  # no reveal is due (R4)
    assert not plainly_legal(discard_due(), Discard(0, L(3)))  # legal, but not plainly


def test_the_engine_asks_plainly_legal_first(monkeypatch: pytest.MonkeyPatch) -> None:
    # The hot path: apply, is_legal and `in legal_actions` put the very state and action to
    # the fast test before any ordered check.
    asked: list[tuple[GameState, object]] = []

    def spy(state: GameState, action: object) -> bool:
        asked.append((state, action))
        return plainly_legal(state, action)

    state = play_actions(Reveal(L(5)))
    action = Bid(0, frozenset({3}))
    monkeypatch.setattr(rules, "plainly_legal", spy)
    apply(state, action)
    assert is_legal(state, action)
    assert action in legal_actions(state)
    assert action in legal_actions(state).bids()
    assert asked == [(state, action)] * 4


def test_money_set_is_the_money_of_the_configuration_asked_about() -> None:
    for config in (STANDARD, FOUR_CARD_GAME, STANDARD, GameConfig(money=(2, 5)), STANDARD):
        assert money_set(config) == frozenset(config.money)
        assert money_set(config) is money_set(config)  # kept, not built again


# --- Shared values -----------------------------------------------------------------------


@pytest.mark.parametrize("seat", [-1, 0, 1, 2, 3, 4, 5, 99])
def test_shared_pass_is_pass_of_the_seat(seat: int) -> None:
    assert shared_pass(seat) == Pass(seat)
    assert type(shared_pass(seat)) is Pass
    if 0 <= seat < 5:
        assert shared_pass(seat) is shared_pass(seat)


# --- Building states ---------------------------------------------------------------------


def test_the_constructors_take_the_fields_in_their_declared_order() -> None:
    # So that even a call by position means what a call by keyword means.
    assert tuple(inspect.signature(evolve_player).parameters)[1:] == PLAYER_FIELDS
    assert tuple(inspect.signature(evolve_state).parameters)[1:] == GAME_FIELDS[1:]


def test_evolve_builds_the_same_values_as_attrs_evolve() -> None:
    state = apply(apply(new_game(3), Reveal(StatusCard.LUXURY_3)), Bid(0, frozenset({2, 4})))
    p = state.players[0]
    other = PlayerState(frozenset({1}), frozenset({3}), frozenset({2}), True, (StatusCard.PASSE,))
    for name in PLAYER_FIELDS:
        changes = {name: getattr(other, name)}
        fast, slow = evolve_player(p, **changes), attrs.evolve(p, **changes)
        assert type(fast) is PlayerState
        assert fast == slow
        assert hash(fast) == hash(slow)
        assert repr(fast) == repr(slow)
    assert evolve_player(p) == p
    ended = play_actions(*won(L(3), 0, 2))
    for name in GAME_FIELDS[1:]:
        changes = {name: getattr(ended, name)}
        fast_state = evolve_state(state, **changes)
        slow_state = attrs.evolve(state, **changes)
        assert type(fast_state) is GameState
        assert fast_state == slow_state
        assert hash(fast_state) == hash(slow_state)
        assert pickle.loads(pickle.dumps(fast_state)) == slow_state
    assert evolve_state(state) == state
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        evolve_state(state).turn = 2  # type: ignore[misc]


def test_next_turn_is_evolve_with_new_seats_and_turn() -> None:
    state = apply(apply(new_game(3), Reveal(StatusCard.LUXURY_3)), Bid(0, frozenset({2, 4})))
    players = apply(state, Bid(1, frozenset({8}))).players
    fast = next_turn(state, players, 2)
    slow = attrs.evolve(state, players=players, turn=2)
    assert type(fast) is GameState
    assert fast == slow
    assert hash(fast) == hash(slow)
    assert fast.highest_bid == slow.highest_bid == 8  # the cache starts empty


def test_the_named_shapes_are_the_attrs_fields_in_order() -> None:
    assert tuple(a.name for a in attrs.fields(PlayerState)) == PLAYER_FIELDS
    assert tuple(a.name for a in attrs.fields(GameState)) == GAME_FIELDS


def test_the_cached_highest_bid_is_what_the_tables_add_up_to_in_every_played_state() -> None:
    for seed in range(8):
        bots = [RandomBot(seed * 10 + i) for i in range(4)]
        for step in play(bots, seed=seed):
            tables = max(sum(p.table) for p in step.after.players)
            assert step.after.highest_bid == tables
            # The same state built by attrs computes it on first use.
            rebuilt = attrs.evolve(step.after)
            assert rebuilt.highest_bid == tables


def test_the_cache_takes_no_part_in_equality_hashing_repr_or_pickling() -> None:
    state = apply(apply(new_game(3), Reveal(StatusCard.LUXURY_3)), Bid(0, frozenset({2})))
    other = attrs.evolve(state)
    set_highest_bid(other, 99)  # a wrong value, only to see that nothing else reads it
    assert other == state
    assert hash(other) == hash(state)
    assert repr(other) == repr(state)
    assert pickle.loads(pickle.dumps(other)).highest_bid == 2


@pytest.mark.parametrize("n", [1, 2, 3, 7, 8, 9, 14, 63, 64, 65, 1000, 2047, 2048, 2**40 + 1])
def test_randbelow_draws_what_randrange_draws_from_the_same_stream(n: int) -> None:
    # The bots and the dealer draw with randbelow: the games a seed plays (pinned by tests
    # and docs) stay those of randrange only while the two agree, draw for draw.
    for seed in range(5):
        fast, plain = random.Random(seed), random.Random(seed)
        assert [randbelow(fast.getrandbits, n) for _ in range(200)] == [
            plain.randrange(n) for _ in range(200)
        ]
        assert fast.getstate() == plain.getstate()  # the same bits were used up


def test_randbelow_covers_every_value_below_n() -> None:
    getrandbits = random.Random(3).getrandbits
    assert {randbelow(getrandbits, 5) for _ in range(300)} == set(range(5))
    assert {randbelow(getrandbits, 1) for _ in range(20)} == {0}


@pytest.mark.parametrize("seed", range(20))
def test_with_card_is_sort_cards_for_a_sorted_hand(seed: int) -> None:
    rng = random.Random(seed)
    deck = list(new_game(3).deck)
    owned = sort_cards(rng.sample(deck, rng.randrange(0, 8)))
    card = rng.choice(deck)
    assert with_card(owned, card) == sort_cards((*owned, card))


def test_the_layout_of_the_real_classes_passes_the_check() -> None:
    check_layout(PlayerState, PLAYER_FIELDS)
    check_layout(GameState, GAME_FIELDS, cached=("highest_bid",))


def _positive(instance: object, attribute: object, value: int) -> None:
    if value < 0:
        raise ValueError(value)


@attrs.frozen
class WithValidator:
    x: int = attrs.field(validator=_positive)


@attrs.frozen
class WithConverter:
    x: int = attrs.field(converter=int)


@attrs.frozen
class WithPostInit:
    x: int

    def __attrs_post_init__(self) -> None:
        pass


@attrs.frozen
class WithPreInit:
    x: int

    def __attrs_pre_init__(self) -> None:
        pass


@attrs.define
class WithSetattrHook:
    x: int = attrs.field(on_setattr=attrs.setters.convert)


@attrs.frozen(slots=False)
class WithoutSlots:
    x: int


@attrs.frozen(init=False)
class WithOwnInit:
    x: int

    def __init__(self, x: int) -> None:
        self.__attrs_init__(abs(x))


@attrs.frozen
class WithPlainSlot:
    x: int
    highest: int = 0


SKIPS = "the fast constructor would skip it"


@pytest.mark.parametrize(
    ("cls", "message"),
    [
        (WithValidator, f"^WithValidator.x has a validator or converter: {SKIPS}$"),
        (WithConverter, f"^WithConverter.x has a validator or converter: {SKIPS}$"),
        (WithPostInit, "^WithPostInit has __attrs_post_init__: the fast constructor skips it$"),
        (WithPreInit, "^WithPreInit has __attrs_pre_init__: the fast constructor skips it$"),
        (WithOwnInit, "^WithOwnInit has __attrs_init__: the fast constructor skips it$"),
        (WithSetattrHook, "^WithSetattrHook.x has an on_setattr hook$"),
        (WithoutSlots, r"^WithoutSlots.x is not a slot \(attrs layout changed\)$"),
    ],
)
def test_the_check_refuses_a_class_the_fast_constructors_would_get_wrong(
    cls: type, message: str
) -> None:
    with pytest.raises(LayoutError, match=message):
        check_layout(cls, ("x",))


def test_the_check_refuses_fields_other_than_the_constructor_sets() -> None:
    with pytest.raises(LayoutError, match=r"^WithPostInit fields are \('x',\), expected \('y',\)$"):
        check_layout(WithPostInit, ("y",))


def test_the_check_refuses_a_cache_that_is_not_a_computed_slot() -> None:
    # A plain field is a slot, but nothing computes it on first use.
    with pytest.raises(LayoutError, match=r"^WithPlainSlot.highest is not computed on first use$"):
        check_layout(WithPlainSlot, ("x", "highest"), cached=("highest",))
    with pytest.raises(LayoutError, match=r"^PlayerState.bid is not a slot"):
        check_layout(PlayerState, PLAYER_FIELDS, cached=("bid",))

"""The internal speed module ``high_society._fast``: its constructors build exactly what the
public constructors build, the cached highest bid is always what the tables say, and the
layout check refuses a class the tricks would get wrong."""

import pickle
import random

import attrs
import pytest

from high_society import (
    Bid,
    GameState,
    PlayerState,
    Reveal,
    StatusCard,
    apply,
    new_game,
    sort_cards,
)
from high_society._fast import (
    GAME_FIELDS,
    PLAYER_FIELDS,
    LayoutError,
    check_layout,
    game_state,
    player_state,
    randbelow,
    set_highest_bid,
    with_card,
)
from high_society.bots import RandomBot
from high_society.host import play


def test_fast_constructors_build_the_same_values_as_attrs() -> None:
    state = apply(apply(new_game(3), Reveal(StatusCard.LUXURY_3)), Bid(0, frozenset({2, 4})))
    p = state.players[0]
    fields = {name: getattr(p, name) for name in PLAYER_FIELDS}
    fast_p, slow_p = player_state(**fields), PlayerState(**fields)
    assert type(fast_p) is PlayerState
    assert fast_p == slow_p
    assert hash(fast_p) == hash(slow_p)
    assert repr(fast_p) == repr(slow_p)
    values = {name: getattr(state, name) for name in GAME_FIELDS}
    fast = game_state(**values)
    assert type(fast) is GameState
    assert fast == GameState(**values) == state
    assert hash(fast) == hash(state)
    assert pickle.loads(pickle.dumps(fast)) == state
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        fast.turn = 2  # type: ignore[misc]


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

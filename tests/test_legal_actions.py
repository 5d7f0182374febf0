"""The lazy legal-action view: complete, deterministic, cheap, and in agreement with a
brute-force reference written from the rulebook (not from the engine's own checks)."""

import itertools
import random

import pytest

from high_society import (
    CHANCE,
    Action,
    Bid,
    Discard,
    GameState,
    OutOfRangeError,
    Pass,
    Phase,
    Reveal,
    StatusCard,
    apply,
    is_legal,
    legal_actions,
    min_bid_total,
    new_game,
    to_act,
)
from high_society.bots import HeuristicBot
from high_society.host import play
from tests.builders import FAUX_PAS, L, bid, play_actions, won


def brute_force(state: GameState) -> set[Action]:
    """Every action the rules allow, found the slow way: try every candidate."""
    seats = range(state.num_players)
    candidates: list[Action] = [Reveal(c) for c in set(state.config.deck)]
    candidates += [Pass(s) for s in seats]
    candidates += [Discard(s, c) for s in seats for c in set(state.config.deck)]
    money = state.config.money
    for size in range(1, len(money) + 1):
        for cards in itertools.combinations(money, size):
            candidates += [Bid(s, frozenset(cards)) for s in seats]
    highest = max(sum(p.table) for p in state.players)
    return {a for a in candidates if rules_allow(state, a, highest)}


def rules_allow(state: GameState, action: Action, highest: int) -> bool:
    """R4-R8 as the rulebook states them, independently of ``is_legal`` and its reasons:
    the state's phase and turn say who acts; the rest is read off the players' cards.
    ``highest`` is the highest face-up total on the table."""
    if state.phase is Phase.OVER:
        return False
    if state.phase is Phase.REVEAL:  # R4: chance reveals any card left
        return type(action) is Reveal and action.card in state.deck
    me = state.players[state.turn]
    if state.phase is Phase.DISCARD:  # R8: one of the taker's own luxury cards
        return (
            type(action) is Discard
            and action.seat == state.turn
            and action.card.is_luxury
            and action.card in me.status_cards
        )
    if type(action) is Pass:  # R6, R7: the player to act may always pass
        return action.seat == state.turn
    if type(action) is Bid:  # R5: add cards from the hand to beat every face-up total
        return (
            action.seat == state.turn
            and bool(action.cards)
            and action.cards <= me.hand
            and sum(me.table) + sum(action.cards) > highest
        )
    return False


def sample_states(games: int = 6) -> list[GameState]:
    states = []
    for g in range(games):
        bots = [HeuristicBot(g * 10 + i) for i in range(3)]
        states += [step.after for step in play(bots, seed=g)]
    return states


def test_a_full_hand_offers_every_one_of_its_2047_bids_and_a_pass() -> None:
    state = play_actions(Reveal(L(5)))
    legal = legal_actions(state)
    assert len(legal) == 2048
    assert legal[0] == Pass(0)
    assert len(set(legal)) == 2048
    assert all(isinstance(a, Bid) for a in legal[1:])


def test_the_view_matches_brute_force_enumeration() -> None:
    rng = random.Random(3)
    states = rng.sample(sample_states(), 40)
    for state in states:
        assert set(legal_actions(state)) == brute_force(state)


def test_the_order_is_deterministic_pass_then_bids_by_total() -> None:
    state = play_actions(Reveal(L(5)), bid(0, 10))
    legal = legal_actions(state)
    bids = [a for a in legal if isinstance(a, Bid)]
    assert legal[0] == Pass(1)
    totals = [b.total for b in bids]
    assert totals == sorted(totals)
    assert totals[0] == 11
    keys = [(b.total, sorted(b.cards)) for b in bids]
    assert keys == sorted(keys)
    assert list(legal_actions(state)) == list(legal)


def test_len_indexing_iteration_and_slices_agree() -> None:
    state = play_actions(Reveal(L(5)), bid(0, 20))
    legal = legal_actions(state)
    items = list(legal)
    assert len(items) == len(legal)
    assert [legal[i] for i in range(len(legal))] == items
    assert legal[-1] == items[-1]
    assert legal[-len(legal)] == items[0]
    assert list(legal[2:7]) == items[2:7]
    assert list(legal[::-5]) == items[::-5]
    # Every negative index names the same action as its positive twin, the first bid too.
    assert all(legal[i - len(legal)] == items[i] for i in range(len(legal)))
    with pytest.raises(OutOfRangeError, match=r"^legal action index out of range$"):
        legal[len(legal)]
    with pytest.raises(OutOfRangeError, match=r"^legal action index out of range$"):
        legal[-len(legal) - 1]


def test_in_agrees_with_is_legal_for_legal_and_illegal_actions() -> None:
    state = play_actions(Reveal(L(5)), bid(0, 8))
    legal = legal_actions(state)
    for action in [Pass(1), bid(1, 10), bid(1, 8), bid(1, 1, 8), bid(0, 10), Pass(2), "x"]:
        assert (action in legal) == is_legal(state, action)
    assert bid(1, 8) not in legal  # ties the highest
    assert bid(1, 1, 8) in legal


def test_every_listed_action_applies() -> None:
    for state in sample_states(2):
        legal = legal_actions(state)
        for i in range(0, len(legal), max(1, len(legal) // 20)):
            apply(state, legal[i])


def test_bids_excludes_pass() -> None:
    state = play_actions(Reveal(L(5)), bid(0, 24 + 1))
    bids = legal_actions(state).bids()
    assert all(isinstance(a, Bid) for a in bids)
    assert len(bids) == len(legal_actions(state)) - 1


def test_bids_is_the_same_lazy_view_in_every_phase_typed_as_bids() -> None:
    auction = play_actions(Reveal(L(5)))
    discard = play_actions(*won(L(3), 0, 1), Reveal(FAUX_PAS), Pass(0))
    views = [legal_actions(s).bids() for s in (new_game(3), auction, discard)]
    assert [len(v) for v in views] == [0, 2047, 0]
    assert len({type(v) for v in views}) == 1  # no list outside an auction
    assert not isinstance(views[1], list | tuple)  # the 2,047 bids are not built
    first: Bid = views[1][0]  # typed Sequence[Bid]: mypy --strict needs no isinstance
    assert first.total == 1


def test_reveal_choices_are_the_distinct_cards_left() -> None:
    legal = legal_actions(new_game(3))
    assert len(legal) == 14  # three prestige cards are one choice
    assert all(isinstance(a, Reveal) for a in legal)


def test_discard_choices_are_the_owners_luxury_cards() -> None:
    state = play_actions(*won(L(3), 0, 1), *won(L(9), 0, 2), Reveal(FAUX_PAS), Pass(0))
    assert list(legal_actions(state)) == [Discard(0, L(3)), Discard(0, L(9))]
    assert min_bid_total(state) is None
    bids = legal_actions(state).bids()
    assert len(bids) == 0
    assert list(bids) == []
    assert Bid(0, frozenset({1})) not in bids


def test_min_bid_total_is_one_more_than_the_highest() -> None:
    assert min_bid_total(new_game(3)) is None
    state = play_actions(Reveal(L(5)))
    assert min_bid_total(state) == 1
    state = apply(state, bid(0, 12))
    assert min_bid_total(state) == 13
    assert legal_actions(state).min_total == 13


def test_a_player_with_cards_face_up_needs_to_add_less() -> None:
    state = play_actions(Reveal(L(5)), bid(0, 10), bid(1, 12), Pass(2))
    legal = legal_actions(state)
    smallest = legal[1]
    assert isinstance(smallest, Bid)
    assert smallest.total == 3  # 10 face up + 3 = 13 > 12
    assert min_bid_total(state) == 13


def test_legal_actions_is_empty_exactly_when_nobody_acts() -> None:
    for state in sample_states(3):
        assert (len(legal_actions(state)) == 0) == (to_act(state) is None)
        if to_act(state) is CHANCE:
            assert all(isinstance(a, Reveal) for a in legal_actions(state))


def test_repr_says_how_many() -> None:
    assert repr(legal_actions(new_game(3))) == "<LegalActions: 14 actions>"


def test_the_bids_view_refuses_an_index_past_its_end() -> None:
    bids = legal_actions(apply(new_game(3), Reveal(StatusCard.LUXURY_5))).bids()
    assert len(bids) == 2047
    assert bids[-1] == bids[2046]
    for index in (2047, -2048):
        with pytest.raises(OutOfRangeError, match=r"^bid index out of range$"):
            bids[index]


def test_bids_view_is_the_legal_list_without_pass() -> None:
    state = apply(apply(new_game(3), Reveal(StatusCard.LUXURY_5)), Bid(0, frozenset({10})))
    legal = legal_actions(state)
    bids = legal.bids()
    everything = list(legal)
    assert everything[0] == Pass(1)
    assert list(bids) == everything[1:]
    assert len(bids) == len(legal) - 1
    assert (bids[0], bids[-1], bids[5:8]) == (everything[1], everything[-1], everything[6:9])
    assert Bid(1, frozenset({25})) in bids
    not_a_bid: object = Pass(1)
    assert not_a_bid not in bids
    assert Bid(1, frozenset({1})) not in bids  # too low
    with pytest.raises(IndexError):  # an OutOfRangeError is an IndexError, as a sequence's is
        bids[len(bids)]

"""Anything that is not a legal action is refused with the typed error, and nothing changes."""

import pickle
from collections.abc import Callable

import attrs
import pytest

from high_society import (
    Bid,
    Discard,
    GameState,
    IllegalActionError,
    Pass,
    Reason,
    Reveal,
    apply,
    is_legal,
    legal_actions,
    new_game,
    why_illegal,
)
from tests.builders import FAUX_PAS, L, auction, discard_due, play_actions, won

BAD: list[tuple[str, GameState, object, Reason]] = [
    ("a string", auction(), "bid 3", Reason.NOT_AN_ACTION),
    ("None", auction(), None, Reason.NOT_AN_ACTION),
    ("an action class, not an instance", auction(), Pass, Reason.NOT_AN_ACTION),
    ("a tuple", auction(), (0, 3), Reason.NOT_AN_ACTION),
    ("True as a seat", auction(), Pass(True), Reason.INVALID_SEAT),
    ("False as a seat", auction(), Pass(False), Reason.INVALID_SEAT),
    ("a float seat", auction(), Pass(0.0), Reason.INVALID_SEAT),  # type: ignore[arg-type]
    ("a string seat", auction(), Pass("0"), Reason.INVALID_SEAT),  # type: ignore[arg-type]
    ("a negative seat", auction(), Pass(-1), Reason.INVALID_SEAT),
    ("seat out of range", auction(), Bid(3, frozenset({1})), Reason.INVALID_SEAT),
    ("a huge seat", auction(), Pass(10**30), Reason.INVALID_SEAT),
    ("bid cards as a list", auction(), Bid(0, [1, 2]), Reason.INVALID_CARD),  # type: ignore[arg-type]
    ("bid cards as a set", auction(), Bid(0, {1, 2}), Reason.INVALID_CARD),  # type: ignore[arg-type]
    ("bid cards as a tuple", auction(), Bid(0, (1,)), Reason.INVALID_CARD),  # type: ignore[arg-type]
    ("a bid of one int", auction(), Bid(0, 3), Reason.INVALID_CARD),  # type: ignore[arg-type]
    ("True as a money card", auction(), Bid(0, frozenset({True})), Reason.INVALID_CARD),
    ("3.0 as a money card", auction(), Bid(0, frozenset({3.0})), Reason.INVALID_CARD),  # type: ignore[arg-type]
    ("an unknown money value", auction(), Bid(0, frozenset({5})), Reason.INVALID_CARD),
    ("zero", auction(), Bid(0, frozenset({0})), Reason.INVALID_CARD),
    ("a negative card", auction(), Bid(0, frozenset({-1})), Reason.INVALID_CARD),
    ("a string card", auction(), Bid(0, frozenset({"1"})), Reason.INVALID_CARD),  # type: ignore[arg-type]
    ("an empty bid", auction(), Bid(0, frozenset()), Reason.EMPTY_BID),
    ("reveal of a name", new_game(3), Reveal("prestige"), Reason.INVALID_CARD),  # type: ignore[arg-type]
    ("reveal of None", new_game(3), Reveal(None), Reason.INVALID_CARD),  # type: ignore[arg-type]
    ("discard of a name", discard_due(), Discard(0, "luxury-3"), Reason.INVALID_CARD),  # type: ignore[arg-type]
    ("discard of a money card", discard_due(), Discard(0, 3), Reason.INVALID_CARD),  # type: ignore[arg-type]
    ("discard of a non-luxury", discard_due(), Discard(0, FAUX_PAS), Reason.NOT_A_LUXURY_YOU_OWN),
    (
        "a card not in hand",
        play_actions(*won(L(3), 0, 1), Reveal(L(4))),
        Bid(0, frozenset({1})),
        Reason.CARD_NOT_IN_HAND,
    ),
]


@pytest.mark.parametrize(("what", "state", "action", "reason"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_refused_and_changes_nothing(
    what: str, state: GameState, action: object, reason: Reason
) -> None:
    before = pickle.dumps(state)
    with pytest.raises(IllegalActionError) as caught:
        apply(state, action)  # type: ignore[arg-type]
    assert caught.value.reason is reason, what
    assert caught.value.message  # a sentence for people
    assert pickle.dumps(state) == before
    assert not is_legal(state, action)
    assert action not in legal_actions(state)


def test_true_is_refused_even_where_1_would_be_legal() -> None:
    state = play_actions(Reveal(L(5)), Pass(0))  # seat 1 must act
    assert is_legal(state, Pass(1))
    assert not is_legal(state, Pass(True))
    assert is_legal(state, Bid(1, frozenset({1})))
    assert not is_legal(state, Bid(1, frozenset({True})))
    assert not is_legal(state, Bid(True, frozenset({1})))
    with pytest.raises(IllegalActionError) as caught:
        apply(state, Bid(True, frozenset({1})))
    assert caught.value.reason is Reason.INVALID_SEAT


def test_an_unhashable_action_is_refused_not_crashed() -> None:
    state = auction()
    error = why_illegal(state, Bid(0, [[1]]))  # type: ignore[arg-type]
    assert error is not None
    assert error.reason is Reason.INVALID_CARD


def test_braces_in_bad_input_do_not_break_the_message() -> None:
    error = why_illegal(auction(), "{0} {oops}")
    assert error is not None
    assert error.message == "'{0} {oops}' is not an action: expected Reveal, Bid, Pass or Discard"


def test_states_and_actions_are_immutable() -> None:
    state = auction()
    with pytest.raises(AttributeError):
        state.turn = 1  # type: ignore[misc]
    with pytest.raises(AttributeError):
        state.players[0].passed = True  # type: ignore[misc]
    action = Pass(0)
    with pytest.raises(AttributeError):
        action.seat = 1  # type: ignore[misc]
    assert isinstance(state.players, tuple)
    assert isinstance(state.players[0].hand, frozenset)


def test_apply_never_changes_its_input() -> None:
    state = auction()
    snapshot = pickle.dumps(state)
    after = apply(state, Bid(0, frozenset({3})))
    assert pickle.dumps(state) == snapshot
    assert after != state
    assert state.players[0].table == frozenset()


@pytest.mark.parametrize("action", [Bid(3, frozenset({1})), Pass(3)], ids=["bid", "pass"])
def test_an_action_by_a_turn_that_is_no_seat_is_refused_not_indexed(action: Bid | Pass) -> None:
    # A state built by hand whose turn is past the last seat: the fast path for common
    # bids and passes must check the seat before it reads that seat's cards.
    state = attrs.evolve(auction(), turn=3)
    with pytest.raises(IllegalActionError) as caught:
        apply(state, action)
    assert caught.value.reason is Reason.INVALID_SEAT


@pytest.mark.parametrize("turn", [3, -1])
@pytest.mark.parametrize("built", [auction, discard_due], ids=["auction", "discard"])
def test_a_turn_that_is_no_seat_has_no_legal_actions(
    turn: int, built: Callable[[], GameState]
) -> None:
    # A state built by hand whose turn is no seat: apply refuses every action there, so
    # legal_actions lists none (rather than reading past the last seat, or seat -1 as the
    # last one).
    state = attrs.evolve(built(), turn=turn)
    legal = legal_actions(state)
    assert len(legal) == 0
    assert list(legal) == []
    for action in [Pass(turn), Bid(turn, frozenset({1})), Discard(turn, L(3))]:
        assert action not in legal
        assert why_illegal(state, action) is not None

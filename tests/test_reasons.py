"""Every reason code: a situation that produces it, its message, and what a refusal leaves.

A refused action raises :class:`IllegalActionError` with the code, the untouched state and
the action; :func:`is_legal`, :func:`why_illegal` and ``in legal_actions(state)`` agree.
"""

import pickle
from collections.abc import Callable

import pytest

from high_society import (
    Bid,
    Discard,
    GameState,
    IllegalActionError,
    Pass,
    Reason,
    Reveal,
    StatusCard,
    apply,
    is_legal,
    legal_actions,
    new_game,
    why_illegal,
)
from tests.builders import PRESTIGE, SCANDALE, L, auction, bid, discard_due, play_actions, won

NAMES = ("Ada", "Ben", "Cy")


def over() -> GameState:
    return play_actions(
        *won(PRESTIGE, 0, 1), *won(PRESTIGE, 0, 2), *won(PRESTIGE, 0, 3), Reveal(SCANDALE)
    )


# (reason, situation, action, message with names)
CASES: list[tuple[Reason, Callable[[], GameState], object, str]] = [
    (
        Reason.NOT_AN_ACTION,
        lambda: new_game(3),
        "pass",
        "'pass' is not an action: expected Reveal, Bid, Pass or Discard",
    ),
    (
        Reason.INVALID_SEAT,
        auction,
        Pass(3),
        "cannot pass: 3 is not a seat (seats are 0 to 2)",
    ),
    (
        Reason.INVALID_CARD,
        auction,
        bid(0, 5),
        "Ada cannot bid 5: there is no such money card"
        " (the money cards are 1, 2, 3, 4, 6, 8, 10, 12, 15, 20, 25)",
    ),
    (Reason.EMPTY_BID, auction, bid(0), "Ada cannot bid nothing: a bid adds at least one card"),
    (Reason.GAME_OVER, over, Pass(1), "Ben cannot pass: the game is over"),
    (
        Reason.REVEAL_DUE,
        lambda: new_game(3),
        bid(0, 1),
        "Ada cannot bid: a status card must be revealed first",
    ),
    (
        Reason.REVEAL_NOT_DUE,
        auction,
        Reveal(L(1)),
        "cannot reveal Luxury 1: Ada must act first",
    ),
    (
        Reason.CARD_NOT_IN_DECK,
        lambda: play_actions(*won(L(5), 0, 1)),
        Reveal(L(5)),
        "cannot reveal Luxury 5: it is not in the deck",
    ),
    (
        Reason.NO_DISCARD_DUE,
        lambda: play_actions(*won(L(3), 0, 1), Reveal(L(5))),
        Discard(0, L(3)),
        "Ada cannot discard: no Faux Pas discard is due",
    ),
    (
        Reason.ALREADY_PASSED,
        lambda: play_actions(Reveal(L(5)), Pass(0)),
        bid(0, 25),
        "Ada cannot bid: they passed earlier in this auction",
    ),
    (Reason.NOT_YOUR_TURN, auction, bid(1, 3), "Ben cannot bid: it is Ada's turn"),
    (
        Reason.DISCARD_DUE,
        discard_due,
        Pass(0),
        "Ada cannot pass: they must first discard a luxury card for Faux Pas",
    ),
    (
        Reason.NOT_A_LUXURY_YOU_OWN,
        discard_due,
        Discard(0, L(9)),
        "Ada cannot discard Luxury 9: it is not a luxury card they own",
    ),
    (
        Reason.CARD_ALREADY_BID,
        lambda: play_actions(Reveal(L(5)), bid(0, 3), bid(1, 4), bid(2, 6)),
        bid(0, 3, 8),
        "Ada cannot bid 3 again: already face up this round (a bid only adds cards)",
    ),
    (
        Reason.CARD_NOT_IN_HAND,
        lambda: play_actions(*won(L(5), 0, 1), Reveal(L(6))),
        bid(0, 1, 2),
        "Ada cannot bid 1: not in their hand (spent earlier)",
    ),
    (
        Reason.BID_TOO_LOW,
        lambda: play_actions(Reveal(L(5)), bid(0, 1, 8)),
        bid(1, 3, 4),
        "Ben cannot bid 7: the highest bid is 9",
    ),
]


def test_every_reason_code_has_a_case() -> None:
    assert [case[0] for case in CASES] == list(Reason)


@pytest.mark.parametrize(
    ("reason", "situation", "action", "message"), CASES, ids=[c[0].value for c in CASES]
)
def test_reason(
    reason: Reason, situation: Callable[[], GameState], action: object, message: str
) -> None:
    state = situation()
    before = pickle.dumps(state)
    with pytest.raises(IllegalActionError) as caught:
        apply(state, action)  # type: ignore[arg-type]  # deliberately not always an Action
    error = caught.value
    assert error.reason is reason
    assert error.state is state
    assert error.action is action
    assert error.message_with_names(NAMES) == message
    assert str(error) == error.message
    assert "Seat" in error.message or not error.seats
    # The refusal changed nothing, and every way of asking agrees.
    assert pickle.dumps(state) == before
    assert not is_legal(state, action)
    assert action not in legal_actions(state)
    explained = why_illegal(state, action)
    assert explained is not None
    assert explained.reason is reason
    assert explained.message == error.message


def test_reason_codes_are_stable_strings() -> None:
    # Clients store and compare these; renaming one is a breaking change.
    assert {r.value for r in Reason} == {
        "NOT_AN_ACTION",
        "INVALID_SEAT",
        "INVALID_CARD",
        "EMPTY_BID",
        "GAME_OVER",
        "REVEAL_DUE",
        "REVEAL_NOT_DUE",
        "CARD_NOT_IN_DECK",
        "NO_DISCARD_DUE",
        "ALREADY_PASSED",
        "NOT_YOUR_TURN",
        "DISCARD_DUE",
        "NOT_A_LUXURY_YOU_OWN",
        "CARD_ALREADY_BID",
        "CARD_NOT_IN_HAND",
        "BID_TOO_LOW",
    }
    assert all(r == r.value for r in Reason)


def test_a_raise_names_what_was_already_face_up() -> None:
    state = play_actions(Reveal(L(5)), bid(0, 3), bid(1, 6), Pass(2))
    error = why_illegal(state, bid(0, 2))
    assert error is not None
    assert error.reason is Reason.BID_TOO_LOW
    assert error.message_with_names(NAMES) == (
        "Ada cannot bid 5 (adding 2 to 3): the highest bid is 6"
    )


def test_the_first_fault_is_reported_in_the_documented_order() -> None:
    state = over()
    # A bad seat is reported before the end of the game ...
    assert why_illegal(state, Pass(7)).reason is Reason.INVALID_SEAT  # type: ignore[union-attr]
    # ... an unknown card before whose turn it is ...
    problem = why_illegal(auction(), Bid(2, frozenset({7})))
    assert problem is not None
    assert problem.reason is Reason.INVALID_CARD
    # ... and whose turn it is before what the bid is worth.
    problem = why_illegal(auction(), bid(1, 1))
    assert problem is not None
    assert problem.reason is Reason.NOT_YOUR_TURN


def test_errors_pickle_with_their_data() -> None:
    state = auction()
    error = why_illegal(state, bid(1, 3))
    assert error is not None
    copy = pickle.loads(pickle.dumps(error))
    assert isinstance(copy, IllegalActionError)
    assert (copy.reason, copy.state, copy.action, copy.message) == (
        error.reason,
        error.state,
        error.action,
        error.message,
    )
    assert copy.message_with_names(NAMES) == "Ben cannot bid: it is Ada's turn"


def test_illegal_action_error_is_a_value_error_and_a_library_error() -> None:
    from high_society import HighSocietyError

    error = why_illegal(auction(), Pass(2))
    assert isinstance(error, HighSocietyError)
    assert isinstance(error, ValueError)


def test_refusals_name_every_offending_card() -> None:
    state = apply(new_game(3), Reveal(StatusCard.LUXURY_5))
    state = apply(state, Bid(0, frozenset({1, 2})))
    state = apply(state, Bid(1, frozenset({4})))
    state = apply(state, Bid(2, frozenset({20})))
    again = why_illegal(state, Bid(0, frozenset({1, 2, 25})))
    assert again is not None
    assert again.reason is Reason.CARD_ALREADY_BID
    assert "cannot bid 1, 2 again" in again.message
    low = why_illegal(state, Bid(0, frozenset({3, 4})))
    assert low is not None
    assert low.reason is Reason.BID_TOO_LOW
    assert low.message == "Seat 0 cannot bid 10 (adding 3, 4 to 3): the highest bid is 20"
    # Seat 0 wins an auction with 1 + 2 + 25: those cards are spent.
    state = apply(state, Bid(0, frozenset({25})))
    state = apply(state, Pass(1))
    state = apply(state, Pass(2))
    state = apply(state, Reveal(StatusCard.LUXURY_6))
    spent = why_illegal(state, Bid(0, frozenset({1, 2})))
    assert spent is not None
    assert spent.reason is Reason.CARD_NOT_IN_HAND
    assert "cannot bid 1, 2: not in their hand" in spent.message


def test_why_illegal_returns_the_error_apply_would_raise_with_the_action_in_it() -> None:
    action = Pass(2)
    error = why_illegal(new_game(3), action)
    assert error is not None
    assert error.action is action
    odd = why_illegal(new_game(3), Reveal("luxury-5"))  # type: ignore[arg-type]
    assert odd is not None
    assert odd.reason is Reason.INVALID_CARD
    assert odd.message == "cannot reveal 'luxury-5': not a status card"


def test_refusals_of_malformed_cards_show_what_was_given() -> None:
    state = apply(new_game(3), Reveal(StatusCard.LUXURY_5))
    bid = why_illegal(state, Bid(0, {1, 2}))  # type: ignore[arg-type]  # a set, not frozenset
    assert bid is not None
    assert bid.reason is Reason.INVALID_CARD
    assert bid.message == (
        "Seat 0 cannot bid {1, 2}: bid cards must be a frozenset of money values"
    )
    discard = why_illegal(state, Discard(0, "luxury-5"))  # type: ignore[arg-type]
    assert discard is not None
    assert discard.message == "Seat 0 cannot discard 'luxury-5': not a status card"

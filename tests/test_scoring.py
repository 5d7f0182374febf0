"""Scoring details beyond the rulings: the breakdown a client shows, and when it is asked."""

from fractions import Fraction

import attrs
import pytest

from high_society import (
    GameNotOverError,
    OutOfRangeError,
    Reveal,
    StatusCard,
    breakdown,
    new_game,
    result,
    status,
    status_of,
)
from tests.builders import FAUX_PAS, PASSE, PRESTIGE, SCANDALE, L, finished, play_actions, won


@pytest.mark.parametrize(
    ("cards", "text"),
    [
        ([], "no luxury = 0"),
        ([L(4)], "4"),
        ([L(4), L(9)], "4 + 9 = 13"),
        ([L(4), PASSE], "4, Passé - 5 = -1"),
        ([L(4), PRESTIGE, PRESTIGE, PRESTIGE], "4, 3 prestige x8 = 32"),
        ([L(3), SCANDALE], "3, Scandale / 2 = 1.5"),
        ([PASSE, L(2), SCANDALE], "2, Passé - 5 = -3, Scandale / 2 = -1.5"),
    ],
)
def test_explain_shows_each_step(cards: list[StatusCard], text: str) -> None:
    assert status_of(cards).explain() == text


def test_breakdown_fields() -> None:
    b = status_of([L(9), L(1), PASSE, PRESTIGE, SCANDALE, FAUX_PAS])
    assert b.luxury_cards == (L(1), L(9))
    assert b.luxury_sum == 10
    assert b.passe
    assert b.scandale
    assert b.holds_faux_pas
    assert b.prestige == 1
    assert b.prestige_factor == 2
    assert b.after_passe == 5
    assert b.status == Fraction(5)


def test_result_of_an_unfinished_game_is_refused() -> None:
    with pytest.raises(GameNotOverError, match="not over"):
        result(new_game(3))
    with pytest.raises(GameNotOverError):
        result(play_actions(Reveal(L(5))))


def test_status_and_breakdown_mid_game() -> None:
    state = play_actions(*won(L(6), 0, 1), Reveal(PASSE))
    assert status(state, 0) == 6
    assert breakdown(state, 0).luxury_cards == (L(6),)
    assert status(state, 2) == 0


@pytest.mark.parametrize("seat", [-1, 3, True, "0"])
def test_status_of_a_bad_seat_is_an_out_of_range_error(seat: object) -> None:
    with pytest.raises(OutOfRangeError, match="not a seat"):
        status(new_game(3), seat)  # type: ignore[arg-type]


def test_result_reports_money_left_and_breakdowns_in_seat_order() -> None:
    state = finished([[L(2)], [L(3), PRESTIGE], [SCANDALE]], [[1, 2], [25], [4, 6]])
    outcome = result(state)
    assert outcome.money == (3, 25, 10)
    assert outcome.scores == (Fraction(2), Fraction(6), Fraction(0))
    assert [b.status for b in outcome.breakdowns] == list(outcome.scores)
    assert outcome.cast_out == (0,)
    assert outcome.winners == (1,)


def test_result_counts_money_face_up_as_money_left() -> None:
    # No played game ends with money face up; a hand-built one still gets the documented
    # count (result's contract: money == sum(hand) + sum(table)), not a difference.
    state = finished([[L(2)], [L(3)], [L(4)]], [[1, 2], [25], [4, 6]])
    players = (attrs.evolve(state.players[0], hand=frozenset({1}), table=frozenset({2})),)
    state = attrs.evolve(state, players=players + state.players[1:])
    assert result(state).money == (3, 25, 10)


def test_status_of_a_seat_that_does_not_exist_names_the_seats() -> None:
    with pytest.raises(OutOfRangeError, match=r"^3 is not a seat \(seats are 0 to 2\)$"):
        status(new_game(3), 3)


def test_result_of_an_unfinished_game_says_so() -> None:
    with pytest.raises(GameNotOverError, match=r"^the game is not over: there is no result yet$"):
        result(new_game(3))

"""Mistakes other implementations of High Society make, each pinned so ours cannot."""

import itertools
import pickle

import pytest

from high_society import (
    STANDARD,
    Bid,
    Discard,
    IllegalActionError,
    Pass,
    Phase,
    Reason,
    Reveal,
    apply,
    is_legal,
    legal_actions,
    new_game,
    result,
    status,
    status_of,
    to_act,
)
from tests.builders import FAUX_PAS, PASSE, PRESTIGE, SCANDALE, L, bid, finished, play_actions, won


def test_three_prestige_cards_multiply_by_eight_not_six() -> None:  # R11
    assert status_of([L(2), PRESTIGE, PRESTIGE, PRESTIGE]).status == 16
    assert status_of([L(2), PRESTIGE, PRESTIGE, PRESTIGE]).prestige_factor == 8


def test_passe_is_subtracted_before_doubling_not_after() -> None:  # R11
    # (7 - 5) x 4 = 8; applying Passé after doubling would give 7 x 4 - 5 = 23.
    assert status_of([L(7), PASSE, PRESTIGE, PRESTIGE]).status == 8


def test_scandale_halves_last_after_passe_and_prestige() -> None:  # R11
    # ((6 - 5) x 2) / 2 = 1; halving first and then subtracting would give -2 x 2 ...
    assert status_of([L(6), PASSE, PRESTIGE, SCANDALE]).status == 1


def test_money_sums_to_106() -> None:  # R1
    assert sum(STANDARD.money) == 106
    assert all(p.money == 106 for p in new_game(5).players)


def test_a_passed_player_cannot_bid_again_in_the_same_round() -> None:  # R6
    state = play_actions(Reveal(L(9)), bid(0, 2), bid(1, 3), Pass(2), bid(0, 4), Pass(1))
    # Seat 1 has passed; seat 0 won at once, so no turn ever came back to seat 1.
    assert state.players[0].status_cards == (L(9),)
    state = play_actions(Reveal(L(9)), Pass(0), bid(1, 3), bid(2, 4))
    assert to_act(state) == 1  # seat 0 is skipped
    with pytest.raises(IllegalActionError) as caught:
        apply(state, bid(0, 25))
    assert caught.value.reason is Reason.ALREADY_PASSED
    assert all(a.seat != 0 for a in legal_actions(state) if isinstance(a, Bid))


def test_a_disgrace_bid_must_beat_the_highest_bid() -> None:  # R5, R7
    state = play_actions(Reveal(PASSE), bid(0, 2, 4))
    assert not is_legal(state, bid(1, 6))  # equal, not higher
    assert not is_legal(state, bid(1, 1))
    assert is_legal(state, bid(1, 8))
    assert min(b.total for b in legal_actions(state).bids()) == 7


def test_a_rejected_raise_keeps_the_cards_already_bid_on_the_table() -> None:  # R5
    state = play_actions(Reveal(L(4)), bid(0, 3), bid(1, 6), Pass(2))
    before = pickle.dumps(state)
    with pytest.raises(IllegalActionError):
        apply(state, bid(0, 1))  # 4 does not beat 6
    assert pickle.dumps(state) == before
    assert state.players[0].table == {3}
    assert 3 not in state.players[0].hand
    # A bid can never take a face-up card back into the hand.
    assert not is_legal(state, bid(0, 3, 8))


def test_an_outbid_player_keeps_their_cards_face_up_until_they_pass() -> None:  # R5, R6
    state = play_actions(Reveal(L(4)), bid(0, 3), bid(1, 6))
    assert state.players[0].table == {3}
    state = apply(apply(state, Pass(2)), Pass(0))
    assert state.players[0].table == frozenset()
    assert state.players[0].hand == set(STANDARD.money)


def test_a_faux_pas_still_pending_at_the_end_does_not_change_the_score() -> None:  # R8
    state = play_actions(
        Reveal(FAUX_PAS),
        Pass(0),  # seat 0 takes Faux Pas with no luxury: pending
        *won(PRESTIGE, 0, 1),
        *won(PRESTIGE, 0, 2),
        *won(PRESTIGE, 0, 3),
        Reveal(SCANDALE),
    )
    assert state.is_over
    assert state.players[0].faux_pas_waits_for_luxury
    outcome = result(state)
    assert outcome.scores[0] == 0  # 0 x 8, not reduced by the Faux Pas
    assert outcome.breakdowns[0].holds_faux_pas


def test_several_players_tied_for_poorest_are_all_cast_out() -> None:  # R10
    state = finished([[L(10)], [L(8)], [L(2)], [L(1)]], [[1, 2], [3], [12], [25]])
    assert result(state).cast_out == (0, 1)


def test_everyone_tied_for_poorest_produces_no_winner() -> None:  # R10
    state = finished([[L(10)], [L(8)], [L(2)]], [[1, 2], [3], [3]])
    outcome = result(state)
    assert outcome.cast_out == (0, 1, 2)
    assert outcome.winners == ()


def test_the_faux_pas_discard_is_the_players_choice_not_automatic() -> None:  # R8
    state = play_actions(*won(L(2), 0, 1), *won(L(9), 0, 2), Reveal(FAUX_PAS), Pass(0))
    # Nothing has been discarded yet: the player must act.
    assert state.phase is Phase.DISCARD
    assert state.players[0].luxury_cards == (L(2), L(9))
    keep_low = apply(state, Discard(0, L(9)))
    keep_high = apply(state, Discard(0, L(2)))
    assert keep_low.players[0].status_cards == (L(2),)
    assert keep_high.players[0].status_cards == (L(9),)


def test_a_single_luxury_card_is_still_discarded_by_the_players_own_action() -> None:  # R8
    state = play_actions(*won(L(2), 0, 1), Reveal(FAUX_PAS), Pass(0))
    assert state.phase is Phase.DISCARD
    assert list(legal_actions(state)) == [Discard(0, L(2))]


def test_scoring_does_not_depend_on_the_order_cards_were_won() -> None:  # R11
    cards = [L(3), L(8), PASSE, PRESTIGE, SCANDALE]
    statuses = {status_of(list(order)).status for order in itertools.permutations(cards)}
    assert len(statuses) == 1
    # The same cards won in two different orders give the same state value and status.
    first = play_actions(*won(L(3), 0, 1), *won(PRESTIGE, 0, 2))
    second = play_actions(*won(PRESTIGE, 0, 2), *won(L(3), 0, 1))
    assert first.players[0].status_cards == second.players[0].status_cards
    assert status(first, 0) == status(second, 0) == 6

"""One or more tests per ruling (R1-R12, stated in docs/rulings.md), named after it, and the
rulebook's worked example; docs/rules-as-code.md lists them by ruling. Each test would fail
if the rule it names were implemented wrongly."""

from collections import Counter
from fractions import Fraction

import pytest

from high_society import (
    CHANCE,
    DARK_GREEN,
    STANDARD,
    STANDARD_DECK,
    STANDARD_MONEY,
    Action,
    Bid,
    Discard,
    GameConfig,
    GameState,
    IllegalActionError,
    InvalidConfigError,
    Pass,
    Phase,
    Reason,
    Reveal,
    StatusCard,
    apply,
    chance_outcomes,
    is_legal,
    legal_actions,
    new_game,
    result,
    status,
    status_of,
    to_act,
    why_illegal,
)
from high_society.scoring import winners
from tests.builders import (
    FAUX_PAS,
    PASSE,
    PRESTIGE,
    SCANDALE,
    L,
    bid,
    finished,
    play_actions,
    then,
    won,
)

# --- Components -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_R1_every_player_holds_the_same_eleven_money_cards(players: int) -> None:
    state = new_game(players)
    assert STANDARD_MONEY == (1, 2, 3, 4, 6, 8, 10, 12, 15, 20, 25)
    for p in state.players:
        assert sorted(p.hand) == [1, 2, 3, 4, 6, 8, 10, 12, 15, 20, 25]
        assert sum(p.hand) == 106
        assert p.table == frozenset()
        assert p.spent == frozenset()
    assert STANDARD.total_money == 106


def test_R1_money_values_are_distinct_so_a_value_names_a_card() -> None:
    with pytest.raises(InvalidConfigError, match="distinct"):
        GameConfig(money=(1, 2, 2, 3))


def test_R2_status_deck_has_sixteen_cards() -> None:
    counts = Counter(STANDARD_DECK)
    assert len(STANDARD_DECK) == 16
    assert all(counts[L(v)] == 1 for v in range(1, 11))
    assert counts[PRESTIGE] == 3
    assert counts[FAUX_PAS] == counts[PASSE] == counts[SCANDALE] == 1
    assert new_game(3).deck == STANDARD_DECK


def test_R2_the_dark_green_cards_are_the_prestige_cards_and_scandale() -> None:
    assert sum(1 for c in STANDARD_DECK if c.is_dark_green) == 4
    assert {PRESTIGE, SCANDALE} == DARK_GREEN
    assert not FAUX_PAS.is_dark_green
    assert not PASSE.is_dark_green
    assert {c for c in STANDARD_DECK if c.is_disgrace} == {FAUX_PAS, PASSE, SCANDALE}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_R3_three_to_five_players(players: int) -> None:
    assert new_game(players).num_players == players


@pytest.mark.parametrize("players", [0, 1, 2, 6, 7, -3])
def test_R3_other_player_counts_are_refused(players: int) -> None:
    with pytest.raises(InvalidConfigError, match=rf"3 to 5 players, not {players} \(R3\)$"):
        new_game(players)


def test_R3_the_first_seat_starts_the_first_round() -> None:
    state = play_actions(Reveal(L(4)))
    assert to_act(state) == 0


def test_R3_the_player_to_the_left_is_the_next_seat_wrapping_round() -> None:
    # Seat 2 wins the first card for free, so starts the second round.
    state = play_actions(Reveal(L(1)), Pass(0), Pass(1))
    assert state.turn == 2
    state = then(state, Reveal(L(2)), bid(2, 3))
    assert to_act(state) == 0  # wrapped round
    state = then(state, bid(0, 4))
    assert to_act(state) == 1


# --- Rounds ---------------------------------------------------------------------------------


def test_R4_a_reveal_is_a_chance_action_without_a_player() -> None:
    state = new_game(3)
    assert to_act(state) is CHANCE
    assert not hasattr(Reveal(PRESTIGE), "seat")
    assert all(isinstance(a, Reveal) for a in legal_actions(state))


def test_R4_the_state_knows_which_cards_remain_never_their_order() -> None:
    state = play_actions(Reveal(PRESTIGE), Pass(0), Pass(1))
    assert Counter(state.deck) == Counter(STANDARD_DECK) - Counter([PRESTIGE])
    # The deck is a multiset in canonical order: the same cards, the same deck value.
    assert list(state.deck) == sorted(state.deck, key=list(type(PRESTIGE)).index)
    outcomes = dict(chance_outcomes(state))
    assert outcomes[Reveal(PRESTIGE)] == Fraction(2, 15)
    assert outcomes[Reveal(L(1))] == Fraction(1, 15)
    assert sum(outcomes.values()) == 1


def test_R5_a_bid_adds_cards_to_those_already_face_up() -> None:
    state = play_actions(Reveal(L(9)), bid(0, 3), bid(1, 4), bid(2, 6), bid(0, 8))
    assert state.players[0].table == {3, 8}
    assert state.players[0].bid == 11
    assert state.players[0].hand == set(STANDARD_MONEY) - {3, 8}


def test_R5_the_new_total_must_be_strictly_greater_than_the_highest() -> None:
    state = play_actions(Reveal(L(9)), bid(0, 3, 4))
    assert not is_legal(state, bid(1, 6, 1))  # 7 ties the highest total
    assert is_legal(state, bid(1, 8))
    with pytest.raises(IllegalActionError) as caught:
        apply(state, bid(1, 1, 6))
    assert caught.value.reason is Reason.BID_TOO_LOW


def test_R5_a_raise_counts_the_cards_already_face_up() -> None:
    # Seat 0 has 3 face up against 4: adding 2 makes 5, which beats 4, though 2 alone
    # does not (a reading that asks the cards added to beat the highest refuses it).
    state = play_actions(Reveal(L(9)), bid(0, 3), bid(1, 4), Pass(2))
    assert is_legal(state, bid(0, 2))
    assert apply(state, bid(0, 2)).players[0].table == {2, 3}


def test_R5_nobody_gives_change() -> None:
    # Seat 0 overpays with the 25 to beat 2; all 25 is spent when it wins.
    state = play_actions(Reveal(L(3)), bid(0, 2), bid(1, 3), Pass(2), bid(0, 25), Pass(1))
    assert state.players[0].spent == {2, 25}
    assert state.players[0].money == 106 - 27


def test_R5_a_player_who_cannot_beat_the_highest_may_only_pass() -> None:
    state = play_actions(Reveal(L(10)), bid(0, *STANDARD_MONEY))  # 106: nobody can beat it
    assert list(legal_actions(state)) == [Pass(1)]


def test_R6_a_passing_player_takes_their_cards_back_and_is_out_of_the_round() -> None:
    state = play_actions(Reveal(L(6)), bid(0, 2), bid(1, 3), bid(2, 4), Pass(0))
    assert state.players[0].table == frozenset()
    assert state.players[0].hand == set(STANDARD_MONEY)
    assert state.players[0].passed
    state = then(state, bid(1, 2))
    assert to_act(state) == 2  # seat 0 is skipped from now on
    state = then(state, bid(2, 2))
    assert to_act(state) == 1


def test_R6_the_last_player_in_wins_at_once_pays_takes_the_card_and_starts() -> None:
    state = play_actions(Reveal(L(6)), bid(0, 2), bid(1, 3), bid(2, 4), Pass(0), Pass(1))
    # Seat 2 wins without another turn.
    assert state.phase is Phase.REVEAL
    assert to_act(state) is CHANCE
    assert state.turn == 2
    winner = state.players[2]
    assert winner.status_cards == (L(6),)
    assert winner.spent == {4}
    assert winner.table == frozenset()
    assert state.players[1].hand == set(STANDARD_MONEY)  # took their 3 back
    assert state.highest_bid == 0


def test_R6_if_nobody_bid_the_last_remaining_player_gets_the_card_free() -> None:
    state = play_actions(Reveal(PRESTIGE), Pass(0), Pass(1))
    assert state.players[2].status_cards == (PRESTIGE,)
    assert all(p.money == 106 for p in state.players)
    assert state.turn == 2


def test_R6_prestige_cards_are_auctioned_normally() -> None:
    state = play_actions(Reveal(PRESTIGE), bid(0, 1), Pass(1))
    assert state.phase is Phase.AUCTION  # one pass does not end a normal auction
    state = then(state, Pass(2))
    assert state.players[0].status_cards == (PRESTIGE,)


@pytest.mark.parametrize("card", [FAUX_PAS, PASSE, SCANDALE])
def test_R7_the_first_pass_ends_a_disgrace_auction(card: StatusCard) -> None:
    state = play_actions(Reveal(card), bid(0, 3), bid(1, 4), Pass(2))
    assert state.phase is not Phase.AUCTION
    passer, others = state.players[2], state.players[:2]
    assert passer.status_cards == (card,)
    assert passer.hand == set(STANDARD_MONEY)
    assert [p.spent for p in others] == [{3}, {4}]  # everyone else's face-up cards are lost
    assert all(p.table == frozenset() for p in state.players)
    assert state.turn == 2  # the passer starts the next round


def test_R7_the_passer_takes_their_own_face_up_cards_back() -> None:
    state = play_actions(Reveal(PASSE), bid(0, 3), bid(1, 4), bid(2, 6), Pass(0))
    assert state.players[0].status_cards == (PASSE,)
    assert state.players[0].hand == set(STANDARD_MONEY)
    assert state.players[1].spent == {4}
    assert state.players[2].spent == {6}
    assert state.turn == 0


def test_R7_a_disgrace_bid_must_beat_the_highest_bid_as_in_any_auction() -> None:
    # R5 holds in a disgrace auction too: a bid that only raises the bidder's own face-up
    # total, below the highest on the table, is too low, bid first or as a raise.
    state = play_actions(Reveal(PASSE), bid(0, 3))
    error = why_illegal(state, bid(1, 1))
    assert error is not None
    assert error.reason is Reason.BID_TOO_LOW
    assert [type(a) for a in legal_actions(state)][:2] == [Pass, Bid]
    assert all(sum(a.cards) > 3 for a in legal_actions(state).bids())
    state = then(state, bid(1, 4), bid(2, 6))
    # Seat 0 has 3 face up: adding 1 or 2 raises its total but does not beat 6.
    assert not is_legal(state, bid(0, 1))
    assert not is_legal(state, bid(0, 2))
    assert is_legal(state, bid(0, 4))  # 7 beats 6


def test_R8_faux_pas_with_luxury_cards_asks_the_owner_to_choose_a_discard() -> None:
    state = play_actions(*won(L(3), 0, 1), *won(L(8), 0, 2), Reveal(FAUX_PAS), Pass(0))
    assert state.phase is Phase.DISCARD
    assert to_act(state) == 0
    assert list(legal_actions(state)) == [Discard(0, L(3)), Discard(0, L(8))]
    # The player chooses, and chooses the higher card: no automatic lowest-card discard.
    state = apply(state, Discard(0, L(8)))
    assert state.players[0].status_cards == (L(3),)
    assert sorted(c.value for c in state.removed) == ["faux-pas", "luxury-8"]
    assert state.phase is Phase.REVEAL
    assert state.turn == 0


def test_R8_a_faux_pas_taken_with_luxury_cards_is_held_but_waits_for_no_luxury_card() -> None:
    # The seat owns a luxury card and must choose one to discard now: the Faux Pas is held,
    # and it does not wait for a luxury card to come.
    state = play_actions(*won(L(3), 0, 1), Reveal(FAUX_PAS), Pass(0))
    assert state.phase is Phase.DISCARD
    seat = state.players[0]
    assert seat.holds_faux_pas
    assert not seat.faux_pas_waits_for_luxury
    assert status_of(seat.status_cards).holds_faux_pas
    state = apply(state, Discard(0, L(3)))
    assert not state.players[0].holds_faux_pas
    assert not state.players[0].faux_pas_waits_for_luxury


def test_R8_the_old_name_faux_pas_pending_still_answers_held_with_a_warning() -> None:
    discarding = play_actions(*won(L(3), 0, 1), Reveal(FAUX_PAS), Pass(0))
    waiting = play_actions(Reveal(FAUX_PAS), Pass(0))
    for state in (discarding, waiting):
        with pytest.warns(DeprecationWarning, match="holds_faux_pas"):
            assert state.players[0].faux_pas_pending
        with pytest.warns(DeprecationWarning, match="holds_faux_pas"):
            assert status_of(state.players[0].status_cards).faux_pas_pending
    with pytest.warns(DeprecationWarning, match="holds_faux_pas"):
        assert not new_game(3).players[0].faux_pas_pending


def test_R8_the_discard_comes_before_the_next_reveal() -> None:
    state = play_actions(*won(L(3), 0, 1), Reveal(FAUX_PAS), Pass(0))
    assert not is_legal(state, Reveal(L(5)))
    assert legal_actions(state)[0] == Discard(0, L(3))


def test_R8_without_luxury_cards_faux_pas_stays_pending_for_the_next_one() -> None:
    state = play_actions(Reveal(FAUX_PAS), Pass(0))
    assert state.phase is Phase.REVEAL  # nothing to discard yet
    assert state.players[0].holds_faux_pas
    assert state.players[0].faux_pas_waits_for_luxury
    state = then(state, *won(L(7), 0, 4))
    # The luxury card won is discarded at once, with the Faux Pas.
    assert state.players[0].status_cards == ()
    assert not state.players[0].holds_faux_pas
    assert not state.players[0].faux_pas_waits_for_luxury
    assert Counter(state.removed) == Counter([L(7), FAUX_PAS])
    assert state.players[0].spent == {4}  # the price is still paid


def test_R8_a_pending_faux_pas_does_not_take_a_prestige_card() -> None:
    state = play_actions(Reveal(FAUX_PAS), Pass(0), *won(PRESTIGE, 0, 1))
    assert state.players[0].status_cards == (PRESTIGE, FAUX_PAS)


def test_R8_a_faux_pas_still_pending_at_the_end_has_no_effect_on_the_score() -> None:
    without = finished([[L(4), PRESTIGE], [L(2)], []], [[1], [2], [3]])
    pending = finished([[L(4), PRESTIGE], [L(2)], [FAUX_PAS]], [[1], [2], [3]])
    scores = (Fraction(8), Fraction(2), Fraction(0))
    assert result(pending).scores == result(without).scores == scores
    assert result(pending).winners == result(without).winners == (1,)
    assert result(pending).breakdowns[2].holds_faux_pas


def assert_ends_unauctioned(state: GameState, card: StatusCard) -> None:
    """Revealing ``card`` in ``state`` ends the game at once: no auction, nobody gets it."""
    assert state.phase is Phase.REVEAL
    owned_before = [p.status_cards for p in state.players]
    end = apply(state, Reveal(card))
    assert end.is_over
    assert end.ending_card is card
    assert card not in end.deck
    assert [p.status_cards for p in end.players] == owned_before
    assert end.auction is None


def test_R9_the_fourth_dark_green_card_ends_the_game_and_goes_to_nobody() -> None:
    state = play_actions(
        *won(PRESTIGE, 0, 1),
        *won(PRESTIGE, 0, 2),
        *won(PRESTIGE, 0, 3),
    )
    assert_ends_unauctioned(state, SCANDALE)


def test_R9_the_fourth_dark_green_card_ends_the_game_when_it_is_a_prestige_card() -> None:
    # Scandale first, then the three prestige cards: the last of them is the fourth
    # dark-green card, and it ends the game as Scandale would.
    state = play_actions(Reveal(SCANDALE), Pass(0), *won(PRESTIGE, 0, 1), *won(PRESTIGE, 0, 2))
    assert_ends_unauctioned(state, PRESTIGE)


def test_R9_the_first_three_dark_green_cards_are_auctioned() -> None:
    state = play_actions(Reveal(SCANDALE))
    assert state.phase is Phase.AUCTION
    assert state.auction is SCANDALE
    state = then(state, Pass(0), Reveal(PRESTIGE), Pass(0), Pass(1))
    assert state.players[2].status_cards == (PRESTIGE,)
    state = then(state, Reveal(PRESTIGE))
    assert state.phase is Phase.AUCTION  # third dark-green card


def test_R9_after_the_end_no_action_is_legal() -> None:
    state = play_actions(*won(PRESTIGE, 0, 1), *won(PRESTIGE, 0, 2), *won(PRESTIGE, 0, 3))
    end = apply(state, Reveal(SCANDALE))
    assert to_act(end) is None
    assert len(legal_actions(end)) == 0
    assert list(legal_actions(end)) == []
    actions: list[Action] = [Reveal(L(1)), Pass(0), bid(1, 1), Discard(0, L(1))]
    for action in actions:
        with pytest.raises(IllegalActionError) as caught:
            apply(end, action)
        assert caught.value.reason is Reason.GAME_OVER


def test_R9_the_deck_cannot_run_out_before_the_end() -> None:
    # Reveal every light card first: the game still ends on the fourth dark-green card.
    light = [c for c in STANDARD_DECK if not c.is_dark_green]
    state = new_game(3)
    for card in light:
        state = apply(state, Reveal(card))
        while state.phase in (Phase.AUCTION, Phase.DISCARD):
            state = apply(state, legal_actions(state)[0])
    for card in (PRESTIGE, PRESTIGE, PRESTIGE):
        state = apply(state, Reveal(card))
        while state.phase in (Phase.AUCTION, Phase.DISCARD):
            state = apply(state, legal_actions(state)[0])
    assert state.deck == (SCANDALE,)
    assert apply(state, Reveal(SCANDALE)).is_over


# --- Scoring --------------------------------------------------------------------------------


def test_R10_the_player_with_least_money_is_cast_out_and_cannot_win() -> None:
    # Seat 0 has by far the best status but the least money.
    state = finished([[L(10), PRESTIGE], [L(1)], [L(2)]], [[1], [2, 3], [4, 6]])
    outcome = result(state)
    assert outcome.cast_out == (0,)
    assert outcome.winners == (2,)


def test_R10_every_player_tied_for_least_money_is_cast_out() -> None:
    state = finished([[L(10)], [L(9)], [L(1)], [L(2)]], [[4], [4], [12], [1, 3, 8]])
    outcome = result(state)
    assert outcome.cast_out == (0, 1)
    assert outcome.winners == (3,)


def test_R10_if_all_players_have_the_same_money_all_are_cast_out_and_nobody_wins() -> None:
    state = finished([[L(10)], [L(9)], [L(1)]], [[25], [25], [25]])
    outcome = result(state)
    assert outcome.cast_out == (0, 1, 2)
    assert outcome.winners == ()


def test_R11_status_is_luxury_sum_minus_passe_doubled_per_prestige_halved_with_scandale() -> None:
    assert status_of([L(3), L(4)]).status == 7
    assert status_of([L(3), L(4), PASSE]).status == 2
    assert status_of([L(3), L(4), PRESTIGE]).status == 14
    assert status_of([L(3), L(4), PRESTIGE, PRESTIGE]).status == 28
    assert status_of([L(3), L(4), PRESTIGE, PRESTIGE, PRESTIGE]).status == 56
    assert status_of([L(3), L(4), SCANDALE]).status == Fraction(7, 2)


def test_R11_passe_is_applied_before_doubling() -> None:
    # (10 - 5) x 2 = 10, not 10 x 2 - 5 = 15.
    assert status_of([L(10), PASSE, PRESTIGE]).status == 10


def test_R11_three_prestige_cards_multiply_by_eight() -> None:
    # x8, not x6 (prestige read as adding 2 each) nor x2 (read as doubling once).
    assert status_of([L(5), PRESTIGE, PRESTIGE, PRESTIGE]).status == 40


def test_R11_passe_below_zero_is_doubled_too() -> None:
    # (3 - 5) x 8 = -16: not 0 (a status floored at zero), not 3 x 8 - 5 = 19 (Passé after
    # doubling), not -12 (prestige added, x6).
    assert status_of([L(3), PASSE, PRESTIGE, PRESTIGE, PRESTIGE]).status == -16


def test_R11_half_points_are_kept_exactly() -> None:
    value = status_of([L(1), L(2), SCANDALE]).status
    assert value == Fraction(3, 2)
    assert isinstance(value, Fraction)


def test_R11_status_may_be_negative() -> None:
    assert status_of([PASSE]).status == -5
    assert status_of([PASSE, PRESTIGE]).status == -10
    assert status_of([L(1), PASSE, SCANDALE]).status == -2


def test_R11_cast_out_players_have_a_status_too() -> None:
    state = finished([[L(10), PRESTIGE], [L(1)], [L(2)]], [[1], [2, 3], [4, 6]])
    outcome = result(state)
    assert outcome.scores[0] == 20
    assert 0 in outcome.cast_out


def test_R11_worked_example_12_then_7_then_28_then_14() -> None:
    cards = [L(5), L(7), PASSE, PRESTIGE, PRESTIGE, SCANDALE]
    b = status_of(cards)
    assert b.luxury_sum == 12
    assert b.after_passe == 7
    assert b.after_passe * b.prestige_factor == 28
    assert b.status == 14
    assert b.explain() == "5 + 7 = 12, Passé - 5 = 7, 2 prestige x4 = 28, Scandale / 2 = 14"


def test_R11_status_can_be_asked_mid_game() -> None:
    state = play_actions(*won(L(6), 0, 1), *won(PRESTIGE, 0, 2))
    assert status(state, 0) == 12
    assert status(state, 1) == 0


def test_R12_highest_status_wins_among_players_not_cast_out() -> None:
    state = finished([[L(5)], [L(9)], [L(7)]], [[10], [1], [12]])
    assert result(state).winners == (2,)  # seat 1 is richer in status but cast out


def test_R12_a_tie_on_status_goes_to_the_most_money() -> None:
    state = finished([[L(6)], [L(2), L(4)], []], [[10, 20], [8, 20], [1]])
    outcome = result(state)
    assert outcome.scores[0] == outcome.scores[1] == 6
    assert outcome.winners == (0,)


def test_R12_money_decides_before_the_top_luxury_card() -> None:
    # Equal status (6); seat 0 has more money, seat 1 the higher luxury card: money first.
    state = finished([[L(2), L(4)], [L(6)], []], [[10, 20], [8, 20], [1]])
    outcome = result(state)
    assert outcome.scores[0] == outcome.scores[1] == 6
    assert outcome.money[0] > outcome.money[1]
    assert outcome.winners == (0,)


def test_R12_the_single_top_card_not_the_lowest_nor_the_sum() -> None:
    # Equal status (9) and money: seat 0's top card is 8 (its lowest 1), seat 1's is 5 (its
    # lowest 4), both sum to 9. The top card decides for seat 0; the lowest card would
    # pick seat 1, the sum would tie them.
    state = finished([[L(1), L(8)], [L(4), L(5)], []], [[10, 20], [12, 18], [1]])
    outcome = result(state)
    assert outcome.scores[0] == outcome.scores[1] == 9
    assert outcome.winners == (0,)


def test_R12_then_to_the_single_most_valuable_luxury_card() -> None:
    state = finished([[L(6)], [L(2), L(4)], []], [[10, 20], [12, 18], [1]])
    outcome = result(state)
    assert outcome.money[0] == outcome.money[1] == 30
    assert outcome.winners == (0,)  # 6 beats 4


def test_R12_no_luxury_card_counts_as_zero_in_the_last_tie_break() -> None:
    state = finished([[PASSE, L(5)], [], [PRESTIGE]], [[10, 20], [12, 18], [1]])
    outcome = result(state)
    assert outcome.scores[0] == outcome.scores[1] == 0
    assert outcome.winners == (0,)  # a 5 beats no luxury card at all


def test_R12_the_best_seat_not_cast_out_wins_when_every_status_left_is_negative() -> None:
    # R10 with R12: seat 0 is cast out (least money) with the best status of all; the seats
    # still in both have negative statuses. The better of them wins: the cast-out seat is
    # not compared with them, and does not leave the game without a winner.
    state = finished([[L(4)], [PASSE], [PASSE, PRESTIGE]], [[1], [2, 3], [4]])
    outcome = result(state)
    assert outcome.cast_out == (0,)
    assert outcome.scores == (Fraction(4), Fraction(-5), Fraction(-10))
    assert outcome.winners == (1,)


def test_R12_players_still_tied_share_the_win() -> None:
    # Same status (0), same money, and neither owns a luxury card.
    state = finished([[PRESTIGE], [], [L(9)]], [[10, 20], [12, 18], [1]])
    assert result(state).winners == (0, 1)


def test_R5_a_player_may_bid_their_whole_hand() -> None:
    state = apply(new_game(3), Reveal(StatusCard.LUXURY_5))
    everything = Bid(0, frozenset(state.players[0].hand))
    assert is_legal(state, everything)
    after = apply(state, everything)
    assert after.players[0].hand == frozenset()
    assert after.highest_bid == 106


def test_R5_the_auction_goes_on_after_an_all_in_bid() -> None:
    state = apply(new_game(3), Reveal(StatusCard.PASSE))
    state = apply(state, Bid(0, frozenset(state.players[0].hand)))
    assert state.phase is Phase.AUCTION
    assert state.turn == 1


def test_R5_a_whole_hand_that_cannot_beat_the_highest_bid_is_too_low() -> None:
    state = apply(new_game(3), Reveal(StatusCard.LUXURY_5))
    state = apply(state, Bid(0, frozenset(state.players[0].hand)))  # 106, all in
    everything = Bid(1, frozenset(state.players[1].hand))  # 106 does not beat 106
    error = why_illegal(state, everything)
    assert error is not None
    assert error.reason is Reason.BID_TOO_LOW
    assert [type(a) for a in legal_actions(state)] == [Pass]  # R5: may only pass


def test_R12_no_luxury_card_counts_as_zero_against_luxury_1() -> None:
    none, one = status_of([]), status_of([StatusCard.LUXURY_1])
    # Equal status and money (scores given directly): the luxury card decides.
    scores = (Fraction(0), Fraction(0), Fraction(0))
    assert winners(scores, (5, 5, 1), (none, one, none)) == (1,)

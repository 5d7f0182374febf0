"""Rule and API tests written for mutants that survived mutation testing (see
docs/verification.md): each pins a behaviour no other test pinned."""

from fractions import Fraction

import pytest

from high_society import (
    Bid,
    Discard,
    GameConfig,
    GameNotOverError,
    InvalidConfigError,
    Pass,
    Phase,
    Reason,
    Reveal,
    StatusCard,
    apply,
    describe_action,
    is_legal,
    legal_actions,
    new_game,
    result,
    status,
    status_of,
    why_illegal,
)
from high_society.bidtable import _subset
from high_society.scoring import winners

L = StatusCard


def test_r5_a_player_may_bid_their_whole_hand() -> None:
    state = apply(new_game(3), Reveal(L.LUXURY_5))
    everything = Bid(0, frozenset(state.players[0].hand))
    assert is_legal(state, everything)
    after = apply(state, everything)
    assert after.players[0].hand == frozenset()
    assert after.highest_bid == 106


def test_refusals_name_every_offending_card() -> None:
    state = apply(new_game(3), Reveal(L.LUXURY_5))
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
    state = apply(state, Reveal(L.LUXURY_6))
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


def test_the_bids_view_refuses_an_index_past_its_end() -> None:
    bids = legal_actions(apply(new_game(3), Reveal(L.LUXURY_5))).bids()
    assert len(bids) == 2047
    assert bids[-1] == bids[2046]
    for index in (2047, -2048):
        with pytest.raises(IndexError, match=r"^bid index out of range$"):
            bids[index]


def test_status_of_a_seat_that_does_not_exist_names_the_seats() -> None:
    with pytest.raises(IndexError, match=r"^3 is not a seat \(seats are 0 to 2\)$"):
        status(new_game(3), 3)


def test_result_of_an_unfinished_game_says_so() -> None:
    with pytest.raises(GameNotOverError, match=r"^the game is not over: there is no result yet$"):
        result(new_game(3))


def test_r12_no_luxury_card_counts_as_zero_against_luxury_1() -> None:
    none, one = status_of([]), status_of([L.LUXURY_1])
    # Equal status and money (scores given directly): the luxury card decides.
    scores = (Fraction(0), Fraction(0), Fraction(0))
    assert winners(scores, (5, 5, 1), (none, one, none)) == (1,)


@pytest.mark.parametrize(
    ("money", "deck", "message"),
    [
        ((), (L.PRESTIGE,), "money must be a non-empty tuple of card values"),
        ((1,), [L.PRESTIGE], "deck must be a tuple of StatusCard"),
        ((1,), (L.SCANDALE, L.PRESTIGE), "deck must be in canonical order"),
        ((1,), (L.LUXURY_1,), "the deck needs a dark-green card, or the game could not end"),
    ],
)
def test_invalid_configs_say_what_is_wrong(money: object, deck: object, message: str) -> None:
    with pytest.raises(InvalidConfigError, match=f"^{message}"):
        GameConfig(money=money, deck=deck)  # type: ignore[arg-type]


def test_describe_action_uses_the_players_names_for_every_kind() -> None:
    names = ("Ada", "Ben", "Cy")
    assert describe_action(Bid(2, frozenset({1, 3})), names) == "Cy bids 1 + 3"
    assert describe_action(Pass(1), names) == "Ben passes"
    assert describe_action(Discard(0, L.LUXURY_4), names) == "Ada discards Luxury 4"
    assert describe_action(Pass(1)) == "Seat 1 passes"


def test_a_bid_table_mask_stands_for_its_money_values() -> None:
    assert _subset(0b1010) == frozenset({1, 3})
    assert _subset(1 << 25 | 1 << 4) == frozenset({4, 25})


def test_the_phase_after_a_legal_all_in_bid_is_still_the_auction() -> None:
    state = apply(new_game(3), Reveal(L.PASSE))
    state = apply(state, Bid(0, frozenset(state.players[0].hand)))
    assert state.phase is Phase.AUCTION
    assert state.turn == 1


def test_refusals_of_malformed_cards_show_what_was_given() -> None:
    state = apply(new_game(3), Reveal(L.LUXURY_5))
    bid = why_illegal(state, Bid(0, {1, 2}))  # type: ignore[arg-type]  # a set, not frozenset
    assert bid is not None
    assert bid.reason is Reason.INVALID_CARD
    assert bid.message == (
        "Seat 0 cannot bid {1, 2}: bid cards must be a frozenset of money values"
    )
    discard = why_illegal(state, Discard(0, "luxury-5"))  # type: ignore[arg-type]
    assert discard is not None
    assert discard.message == "Seat 0 cannot discard 'luxury-5': not a status card"


def test_r5_a_whole_hand_that_cannot_beat_the_highest_bid_is_too_low() -> None:
    state = apply(new_game(3), Reveal(L.LUXURY_5))
    state = apply(state, Bid(0, frozenset(state.players[0].hand)))  # 106, all in
    everything = Bid(1, frozenset(state.players[1].hand))  # 106 does not beat 106
    error = why_illegal(state, everything)
    assert error is not None
    assert error.reason is Reason.BID_TOO_LOW
    assert [type(a) for a in legal_actions(state)] == [Pass]  # R5: may only pass

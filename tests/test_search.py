"""The search bot: its reduced action set, its budget and knobs, and that it searches.

Budgets here are tiny (tens of simulations): what the bot is worth against other bots is
measured by the tournament recorded in docs/bots.md, not in the test suite.
"""

import itertools
import random

import pytest

from high_society import (
    Action,
    Bid,
    Discard,
    GameConfig,
    GameNotOverError,
    GameState,
    InvalidConfigError,
    NoSeatToActError,
    Pass,
    Reveal,
    apply,
    is_legal,
    legal_actions,
    new_game,
    sort_cards,
)
from high_society.bots import ClassicHeuristicBot
from high_society.search import SearchBot, search_actions, win_share
from tests.builders import FAUX_PAS, SCANDALE, L, bid, finished, play_actions, won


def test_search_actions_are_pass_and_the_lowest_totals_with_their_extreme_card_sets() -> None:
    state = play_actions(Reveal(L(8)))
    assert search_actions(state) == (
        Pass(0),
        bid(0, 1),
        bid(0, 2),
        bid(0, 3),  # total 3 with the fewest cards...
        bid(0, 1, 2),  # ... and with the most
    )
    assert search_actions(state, bid_totals=2, cards_per_total=1) == (Pass(0), bid(0, 1), bid(0, 2))


def test_search_actions_start_from_the_lowest_total_that_beats_the_table() -> None:
    state = play_actions(Reveal(L(8)), bid(0, 10), bid(1, 12))
    actions = search_actions(state, bid_totals=3, cards_per_total=2)
    totals = sorted({a.total for a in actions if isinstance(a, Bid)})
    assert totals == [13, 14, 15]  # seat 2, nothing face up, must beat 12 (R5)
    assert all(is_legal(state, a) for a in actions)


def test_search_actions_per_total_are_the_fewest_and_the_most_cards() -> None:
    state = play_actions(Reveal(L(8)), bid(0, 20))
    for action in search_actions(state, bid_totals=6):
        if not isinstance(action, Bid):
            continue
        same = [b for b in legal_actions(state).bids() if b.total == action.total]
        sizes = {len(b.cards) for b in same}
        assert len(action.cards) in (min(sizes), max(sizes))


def test_search_actions_are_every_discard_in_a_discard() -> None:
    state = play_actions(*won(L(3), 0, 1), *won(L(5), 0, 2), *won(FAUX_PAS, 0, 3)[:1], Pass(0))
    assert state.phase.value == "discard"
    assert search_actions(state) == tuple(legal_actions(state))
    assert all(isinstance(a, Discard) for a in search_actions(state))


def test_search_actions_are_empty_where_no_seat_acts() -> None:
    assert search_actions(new_game(3)) == ()


@pytest.mark.parametrize("knob", ["bid_totals", "cards_per_total"])
@pytest.mark.parametrize("value", [0, -1, True, 1.5, "2"])
def test_search_actions_refuse_bad_knobs(knob: str, value: object) -> None:
    with pytest.raises(InvalidConfigError, match=knob):
        search_actions(play_actions(Reveal(L(8))), **{knob: value})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"simulations": 0}, "simulations"),
        ({"simulations": True}, "simulations"),
        ({"simulations": None}, "budget"),
        ({"seconds": 0.0}, "seconds"),
        ({"seconds": -1}, "seconds"),
        ({"seconds": float("inf")}, "seconds"),
        ({"seconds": True}, "seconds"),
        ({"exploration": -0.1}, "exploration"),
        ({"exploration": float("nan")}, "exploration"),
        ({"depth": 0}, "depth"),
        ({"bid_totals": 0}, "bid_totals"),
        ({"cards_per_total": 0}, "cards_per_total"),
    ],
)
def test_the_search_bot_refuses_bad_budgets_and_knobs(
    kwargs: dict[str, object], named: str
) -> None:
    with pytest.raises(InvalidConfigError, match=named):
        SearchBot(1, **kwargs)  # type: ignore[arg-type]


def test_the_search_bot_is_deterministic_for_a_seed() -> None:
    state = play_actions(Reveal(L(8)), bid(0, 3))
    choices = {SearchBot(seed=5, simulations=30).choose(state) for _ in range(2)}
    assert len(choices) == 1
    assert is_legal(state, choices.pop())


def test_the_search_bot_plays_legal_actions_through_a_game() -> None:
    bots = [SearchBot(seed=s, simulations=8) for s in range(3)]
    state = new_game(3)
    rng = random.Random(0)
    while not state.is_over:
        action: Action
        if state.phase.value == "reveal":
            action = Reveal(state.deck[rng.randrange(len(state.deck))])
        else:
            action = bots[state.turn].choose(state)
            assert is_legal(state, action)
        state = apply(state, action)


def test_the_search_bot_does_not_search_a_forced_action() -> None:
    state = play_actions(Reveal(L(8)), bid(0, 25, 20, 15, 12, 10, 8, 6, 4, 3, 2, 1))
    bot = SearchBot(seed=1, simulations=50)
    assert search_actions(state) == (Pass(1),)  # nothing beats 106 (R5)
    assert bot.choose(state) == Pass(1)
    assert bot.last_simulations == 0


def test_the_search_bot_runs_its_simulations() -> None:
    bot = SearchBot(seed=1, simulations=37)
    bot.choose(play_actions(Reveal(L(8))))
    assert bot.last_simulations == 37


def test_a_time_budget_stops_the_search_when_the_clock_runs_out() -> None:
    ticks = itertools.count()
    bot = SearchBot(seed=1, simulations=None, seconds=10.0, clock=lambda: float(next(ticks)))
    bot.choose(play_actions(Reveal(L(8))))
    # Tick 0 sets the deadline at 10; the checks at ticks 1..9 run, the one at tick 10 stops.
    assert bot.last_simulations == 9


def test_with_both_budgets_the_first_to_run_out_stops_the_search() -> None:
    bot = SearchBot(seed=1, simulations=4, seconds=1e9)
    bot.choose(play_actions(Reveal(L(8))))
    assert bot.last_simulations == 4


def test_the_search_bot_is_asked_only_when_a_seat_acts() -> None:
    # A library error, as the other bots raise (and a ValueError, as it was).
    with pytest.raises(NoSeatToActError, match="seat must act"):
        SearchBot(1, simulations=5).choose(new_game(3))


# A last auction whose outcome is known: the deck holds only Scandale after luxury 9, so the
# game ends right after it (R9). Seat 0 owns luxury 10 for 1 (105 left, the others 106).
ENDGAME = GameConfig(deck=sort_cards([L(9), L(10), SCANDALE]))


def last_auction() -> GameState:
    return play_actions(*won(L(10), 0, 1), Reveal(L(9)), config=ENDGAME)


def test_the_search_bot_stays_out_of_an_auction_whose_win_would_cast_it_out() -> None:
    state = last_auction()
    # Winning luxury 9 would leave seat 0 the poorest, cast out (R10): a sure loss. If it
    # passes, seats 1 and 2 bid for luxury 9; whoever pays 2 or more is the only one
    # poorer than seat 0 and seat 0 wins on status (10 against 0). The classic heuristic,
    # within its price, bids; the search passes.
    assert ClassicHeuristicBot(seed=1).choose(state) != Pass(0)
    assert SearchBot(seed=1, simulations=60).choose(state) == Pass(0)


def test_win_share_is_one_alone_a_share_when_tied_and_zero_otherwise() -> None:
    alone = finished([[L(5)], [L(3)], []], [[10], [8], [6]])
    assert [win_share(alone, s) for s in range(3)] == [1.0, 0.0, 0.0]
    shared = finished([[L(5)], [L(5)], []], [[10], [10], [6]])
    assert [win_share(shared, s) for s in range(3)] == [0.5, 0.5, 0.0]
    nobody = finished([[L(5)], [L(5)], []], [[6], [6], [6]])
    assert [win_share(nobody, s) for s in range(3)] == [0.0, 0.0, 0.0]


def test_win_share_needs_a_finished_game_and_a_seat() -> None:
    with pytest.raises(GameNotOverError):
        win_share(new_game(3), 0)
    with pytest.raises(IndexError):
        win_share(finished([[L(5)], [L(3)], []], [[10], [8], [6]]), 3)

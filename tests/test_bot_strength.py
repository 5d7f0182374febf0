"""What the built-in bots are measured to do, pinned with fixed seeds (so deterministic):
the heuristic bot is worth its bids (a seat that always passes, against three of it, wins
less often than a quarter, what the heuristic wins there by symmetry) and is not the weakest
seat among other budget bots. The long runs behind the figures are in docs/bots.md.
"""

import functools

from high_society.bots import CautiousBot, ClassicHeuristicBot, HeuristicBot, PassBot
from high_society.tournament import Entrant, tournament

HEURISTIC = Entrant("heuristic", HeuristicBot)


def test_always_passing_wins_less_than_the_heuristic_bot_in_its_seat() -> None:
    # By symmetry a heuristic bot in the first seat against three others wins a quarter
    # of the games (less the games nobody wins); a passing bot there wins clearly less:
    # the whole 95% interval lies below a quarter.
    table = tournament([Entrant("pass", PassBot), HEURISTIC, HEURISTIC, HEURISTIC], 1200, seed=7)
    low, high = table.rows[0].win_interval
    assert high < 0.25, (low, high)


def test_the_heuristic_bot_is_not_the_weakest_seat_among_budget_bots() -> None:
    lineup = [
        HEURISTIC,
        Entrant("cautious", CautiousBot),
        Entrant("classic", ClassicHeuristicBot),
        Entrant("classic,boldness=1.3", functools.partial(ClassicHeuristicBot, boldness=1.3)),
    ]
    table = tournament(lineup, 400, seed=7)
    mine = table.rows[0]
    weakest = min(table.rows[1:], key=lambda row: row.win_rate)
    # Beyond reasonable doubt: the intervals do not overlap.
    assert mine.win_interval[0] > weakest.win_interval[1]

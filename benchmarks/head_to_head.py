"""The learned bot against the search bot, head to head at mixed tables of strangers.

    nice -n 10 .venv/bin/python -m benchmarks.head_to_head --games 240 --jobs 1 [--seed 1]
        [--players 4] [--simulations 100]

Each game seats the learned bot, the search bot (``simulations`` per decision) and
strangers (:mod:`high_society.strangers`, styles neither bot was built against) drawn at
random, distinct, in the other seats; game ``i`` takes placement ``i mod P`` of the two bots
among the seats (every ordered pair of distinct seats in turn), so each sits in every seat
equally often and after the other as often as before it. The report gives each bot's wins
(a shared win counts, Wilson 95% interval), its CPU time per decision, and the paired
difference of their shares of the win per game (learned minus search, normal 95%
interval). Reproducible: every bot and deal is seeded from ``(seed, game)``. Not part of CI.
"""

import argparse
import itertools
import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from high_society.actions import Action
from high_society.bots import AnyBot, Bot
from high_society.host import play_game
from high_society.learned import LearnedBot
from high_society.parallel import game_seed
from high_society.scoring import result
from high_society.search import SearchBot
from high_society.state import GameState
from high_society.strangers import STRANGERS
from high_society.tournament import wilson_interval


def play_one(task: tuple[int, int, int, int]) -> tuple[float, float, float, float, int, int]:
    """Game ``index``: the two bots' shares of the win, their CPU seconds and decisions."""
    index, seed, players, simulations = task
    placements = list(itertools.permutations(range(players), 2))
    learned_seat, search_seat = placements[index % len(placements)]
    chooser = random.Random(game_seed(seed, index, 9))
    names = chooser.sample(sorted(STRANGERS), players - 2)
    timers = [
        _Timer(LearnedBot()),
        _Timer(SearchBot(game_seed(seed, index, 1), simulations=simulations)),
    ]
    bots: list[AnyBot] = []
    strangers = iter(names)
    for seat in range(players):
        if seat == learned_seat:
            bots.append(timers[0])
        elif seat == search_seat:
            bots.append(timers[1])
        else:
            bots.append(STRANGERS[next(strangers)](game_seed(seed, index, 2 + seat)))
    final, _ = play_game(bots, seed=game_seed(seed, index))
    winners = result(final).winners
    share = [1 / len(winners) if s in winners else 0.0 for s in (learned_seat, search_seat)]
    return share[0], share[1], timers[0].spent, timers[1].spent, timers[0].count, timers[1].count


class _Timer:
    """A bot whose decisions are timed in CPU time of the thread."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.spent = 0.0
        self.count = 0

    def choose(self, state: GameState) -> Action:
        start = time.thread_time()
        action = self.bot.choose(state)
        self.spent += time.thread_time() - start
        self.count += 1
        return action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=240)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    tasks = [(i, args.seed, args.players, args.simulations) for i in range(args.games)]
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(play_one, tasks, chunksize=4))
    print(
        f"{args.games} games, {args.players} players: learned, search "
        f"({args.simulations} simulations) and {args.players - 2} strangers drawn at random; "
        f"seed {args.seed}\n"
    )
    for k, name in enumerate(("learned", "search")):
        wins = sum(1 for r in rows if r[k] > 0)
        low, high = wilson_interval(wins, len(rows))
        ms = 1000 * sum(r[2 + k] for r in rows) / max(1, sum(r[4 + k] for r in rows))
        print(f"{name:8} wins {wins / len(rows):.1%} ({low:.1%}-{high:.1%}), {ms:.2f} ms/decision")
    diff = [r[0] - r[1] for r in rows]
    mean = statistics.fmean(diff)
    half = 1.96 * statistics.stdev(diff) / math.sqrt(len(diff))
    print(
        f"\nlearned minus search, share of the win per game: {mean:+.3f} "
        f"(95% interval {mean - half:+.3f} to {mean + half:+.3f})"
    )


if __name__ == "__main__":
    main()

"""Bots head to head at mixed tables of strangers: by default the learned bot against the
search bot.

    nice -n 10 .venv/bin/python -m benchmarks.head_to_head --games 240 --jobs 1 [--seed 1]
        [--players 4] [--simulations 100] [--bots lookahead learned search]

Each game seats the bots named (``learned``, ``search`` with ``simulations`` per decision,
``lookahead``) and strangers (:mod:`high_society.strangers`, styles none of them was built
against) drawn at random, distinct, in the other seats; game ``i`` takes placement
``i mod P`` of the bots among the seats (every ordered choice of distinct seats in turn),
so each sits in every seat equally often and after each other as often as before it. The
report gives each bot's wins (a shared win counts, Wilson 95% interval), its CPU time per
decision, and for each pair the paired difference of their shares of the win per game (the
first named minus the other, normal 95% interval). Reproducible: every bot and deal is
seeded from ``(seed, game)``. One thread (:mod:`benchmarks.one_thread`). Not part of CI.
"""

import argparse
import itertools
import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

import benchmarks.one_thread  # noqa: F401  (before numpy loads)
from high_society.actions import Action
from high_society.bots import AnyBot, Bot
from high_society.host import play_game
from high_society.learned import LearnedBot
from high_society.lookahead import LookaheadBot
from high_society.parallel import game_seed
from high_society.scoring import result
from high_society.search import SearchBot
from high_society.state import GameState
from high_society.strangers import STRANGERS
from high_society.tournament import wilson_interval

#: Each bot's random stream of a game (``game_seed``'s third argument); the strangers
#: take ``2 + seat``. The learned bot plays greedily: it needs none.
_STREAMS = {"learned": 0, "search": 1, "lookahead": 100}


def make(name: str, seed: int, index: int, simulations: int) -> Bot:
    """The bot ``name`` stands for, seeded for game ``index``."""
    if name not in _STREAMS:
        raise SystemExit(f"unknown bot {name!r}: one of {', '.join(_STREAMS)}")
    bot_seed = game_seed(seed, index, _STREAMS[name])
    if name == "search":
        return SearchBot(bot_seed, simulations=simulations)
    return LookaheadBot(bot_seed) if name == "lookahead" else LearnedBot()


def play_one(task: tuple[int, int, int, int, tuple[str, ...]]) -> list[tuple[float, float, int]]:
    """Game ``index``: each bot's share of the win, CPU seconds and decisions."""
    index, seed, players, simulations, names = task
    placements = list(itertools.permutations(range(players), len(names)))
    seats = placements[index % len(placements)]
    chooser = random.Random(game_seed(seed, index, 9))
    strangers = iter(chooser.sample(sorted(STRANGERS), players - len(names)))
    timers = [_Timer(make(name, seed, index, simulations)) for name in names]
    bots: list[AnyBot] = []
    for seat in range(players):
        if seat in seats:
            bots.append(timers[seats.index(seat)])
        else:
            bots.append(STRANGERS[next(strangers)](game_seed(seed, index, 2 + seat)))
    final, _ = play_game(bots, seed=game_seed(seed, index))
    winners = result(final).winners
    return [
        (1 / len(winners) if seat in winners else 0.0, timer.spent, timer.count)
        for seat, timer in zip(seats, timers, strict=True)
    ]


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
    parser.add_argument("--bots", nargs="+", default=["learned", "search"])
    args = parser.parse_args()
    names = tuple(args.bots)
    tasks = [(i, args.seed, args.players, args.simulations, names) for i in range(args.games)]
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(play_one, tasks, chunksize=4))
    shown = [f"search ({args.simulations} simulations)" if n == "search" else n for n in names]
    print(
        f"{args.games} games, {args.players} players: {', '.join(shown)} and "
        f"{args.players - len(names)} strangers drawn at random; seed {args.seed}\n"
    )
    for k, name in enumerate(names):
        wins = sum(1 for r in rows if r[k][0] > 0)
        low, high = wilson_interval(wins, len(rows))
        ms = 1000 * sum(r[k][1] for r in rows) / max(1, sum(r[k][2] for r in rows))
        print(f"{name:10} wins {wins / len(rows):.1%} ({low:.1%}-{high:.1%}), {ms:.2f} ms/decision")
    print()
    for a, b in itertools.combinations(range(len(names)), 2):
        diff = [r[a][0] - r[b][0] for r in rows]
        mean = statistics.fmean(diff)
        half = 1.96 * statistics.stdev(diff) / math.sqrt(len(diff))
        print(
            f"{names[a]} minus {names[b]}, share of the win per game: {mean:+.3f} "
            f"(95% interval {mean - half:+.3f} to {mean + half:+.3f})"
        )


if __name__ == "__main__":
    main()

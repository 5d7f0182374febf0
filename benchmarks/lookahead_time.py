"""How long the lookahead bot takes a decision, on one core: its mean, 99th percentile and
longest decision in whole games against strangers (docs/bots.md).

    nice -n 10 .venv/bin/python -m benchmarks.lookahead_time [--players 3 4 5] [--games 20]
        [--seed 1] [--rollouts 128]

One thread (:mod:`benchmarks.one_thread`), CPU time of the process
(:func:`time.process_time`, so that other jobs on the machine do not count, and every thread
of the process does). The bot's first decision of the run, which loads the engine's
compiled loops, is made before the clock starts. Each game seats the bot and strangers
(:mod:`high_society.strangers`) drawn at random, the bot's seat rotating. Not part of CI.
"""

import argparse
import random
import statistics
import time

import benchmarks.one_thread  # noqa: F401  (before numpy loads)
from high_society import Reveal, StatusCard, apply, new_game
from high_society.actions import Action
from high_society.bots import AnyBot
from high_society.host import play_game
from high_society.lookahead import LookaheadBot
from high_society.parallel import game_seed
from high_society.state import GameState
from high_society.strangers import STRANGERS


class _Clocked:
    """The bot, each decision timed in CPU time of the process, with its candidates."""

    def __init__(self, bot: LookaheadBot) -> None:
        self.bot = bot
        self.times: list[float] = []
        self.candidates = 0

    def choose(self, state: GameState) -> Action:
        start = time.process_time()
        action = self.bot.choose(state)
        self.times.append(time.process_time() - start)
        self.candidates = max(self.candidates, len(self.bot.last_values))
        return action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rollouts", type=int, default=128)
    args = parser.parse_args()
    print(f"lookahead, {args.rollouts} imagined games per candidate; CPU time, one thread\n")
    heads = ("players", "decisions", "mean ms", "99% ms", "max ms", "cands")
    print(" ".join(f"{h:>{w}}" for h, w in zip(heads, (7, 9, 8, 7, 7, 5), strict=True)))
    for players in args.players:
        warm = LookaheadBot(0, rollouts=args.rollouts)
        warm.choose(apply(new_game(players), Reveal(StatusCard.LUXURY_8)))
        clocked = _Clocked(warm)
        for index in range(args.games):
            clocked.bot = LookaheadBot(game_seed(args.seed, index, 1), rollouts=args.rollouts)
            names = random.Random(game_seed(args.seed, index, 9)).sample(sorted(STRANGERS), 4)
            others = iter(names)
            bots: list[AnyBot] = [
                clocked if seat == index % players else STRANGERS[next(others)](index)
                for seat in range(players)
            ]
            play_game(bots, seed=game_seed(args.seed, index))
        times = sorted(clocked.times)
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        print(
            f"{players:>7} {len(times):>9} {1000 * statistics.fmean(times):>8.1f} "
            f"{1000 * p99:>7.1f} {1000 * times[-1]:>7.1f} {clocked.candidates:>5}"
        )


if __name__ == "__main__":
    main()

"""``high-society simulate``: many games between bots, timed and summed up."""

import argparse
import json
import sys
from typing import TextIO

from high_society.cli._options import (
    add_games_option,
    add_jobs_option,
    add_players_option,
    add_seed_option,
    set_handler,
)
from high_society.errors import InvalidConfigError
from high_society.simulate import POLICIES, SimulationStats, simulate

__all__ = ["ENGINES", "format_stats", "register", "run"]

#: The engines ``--engine`` chooses from: the reducer, or ``high_society.batch``.
ENGINES = ("reducer", "batch")


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``simulate`` subcommand."""
    parser = subparsers.add_parser(
        "simulate",
        help="play many games between bots and report speed and statistics",
        description="Play many games between built-in bots and report how fast the engine "
        "plays them and what they looked like. With --policy uniform every decision picks "
        "uniformly among all legal actions: the standard workload for comparing engines. "
        "The statistics depend only on the arguments; the timing does not.",
    )
    add_players_option(parser, "players per game (3 to 5, default 4)")
    add_games_option(parser, 1000)
    add_seed_option(parser, 1, "seed for bots and deck (default 1)")
    parser.add_argument(
        "--policy",
        choices=POLICIES,
        default="uniform",
        help="uniformly random bots, the heuristic bot or the classic heuristic bot "
        "(default uniform)",
    )
    add_jobs_option(parser)
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument(
        "--engine",
        choices=ENGINES,
        default="reducer",
        help="the reducer (apply, default) or the vectorised batch engine (uniform policy "
        "only; needs the batch extra: pip install '.[batch]' in a clone of the project)",
    )
    set_handler(parser, run)


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run the simulation that ``args`` describe and print the report.

    Raises:
        InvalidConfigError: ``--engine batch`` with a policy other than ``uniform``, or
            without the batch extra (numpy and numba) installed.
    """
    stream = out if out is not None else sys.stdout
    if getattr(args, "engine", "reducer") == "batch":
        stats = _simulate_batch(args)
    else:
        stats = simulate(args.players, args.games, args.seed, args.policy, jobs=args.jobs)
    if args.json:
        print(json.dumps(stats.as_dict(), indent=2), file=stream)
    else:
        for line in format_stats(stats):
            print(line, file=stream)
    return 0


def _simulate_batch(args: argparse.Namespace) -> SimulationStats:
    """``simulate`` on the batch engine (imported here: numba loads only when asked for)."""
    if args.policy != "uniform":
        raise InvalidConfigError("the batch engine plays only the uniform policy")
    try:
        from high_society.batch import simulate as simulate_batch
    except ImportError as error:  # the batch extra is not installed
        raise InvalidConfigError(f"--engine batch: {error}") from error
    return simulate_batch(args.players, args.games, args.seed)


def _percent(part: float) -> str:
    return f"{100 * part:.1f}%"


def format_stats(stats: SimulationStats) -> list[str]:
    """The report for people, one line per figure."""
    wins = "  ".join(f"seat {seat}: {_percent(rate)}" for seat, rate in enumerate(stats.win_rates))
    status = stats.mean_winning_status
    return [
        f"{stats.games} games, {stats.players} players, {stats.policy} policy, seed {stats.seed}",
        f"  speed:          {stats.games_per_second:,.0f} games/s, "
        f"{stats.actions_per_second:,.0f} actions/s ({stats.seconds:.2f} s; "
        f"{stats.actions_per_game:.1f} actions per game, reveals included)",
        f"  auctions/game:  mean {stats.auctions_mean:.2f}, min {stats.auctions_min}, "
        f"max {stats.auctions_max}",
        f"  wins:           {wins}",
        f"                  shared {_percent(stats.shared_wins / stats.games)}, "
        f"no winner (all cast out) {_percent(stats.no_winner / stats.games)}",
        f"  cast out:       {_percent(stats.cast_out_rate)} of seats",
        "  winning status: "
        + (f"mean {status:.2f}" if status is not None else "none (no game had a winner)"),
    ]

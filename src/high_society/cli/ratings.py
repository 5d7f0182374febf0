"""``high-society ratings``: OpenSkill ratings and the cross-play matrix of bots, from
batch-engine games."""

import argparse
import json
import sys
from typing import TextIO

from high_society.cli._options import add_seed_option, bounded, one_numpy_thread, set_handler

__all__ = ["register", "run"]


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``ratings`` subcommand."""
    parser = subparsers.add_parser(
        "ratings",
        help="rate bots with OpenSkill from batch-engine games, and their cross-play matrix",
        description="Play GAMES batch-engine games for each player count, each seat drawn "
        "at random from the bots, and rate every bot with OpenSkill's Plackett-Luce model "
        "(winners ranked above the others); the interval is the 2.5% to 97.5% points over "
        "bootstrap resamples of the games. With --matrix N, also the cross-play matrix: "
        "the row bot alone against a table of the column bot, N games per cell, its mean "
        "share of the win. Bots: learned, heuristic, classic, cautious, pass, random, "
        "cheapest (heuristic,boldness=X too), a stranger (high_society.strangers; "
        "careful,counts_bids=true and keeper,counts_bids=true too), a "
        "network's .npz (learned and a .npz play greedily; append ',sampled' to sample "
        "their moves), lookahead, or another bot of the tournament's grammar (search, "
        "search@N, MODULE:NAME), played by the reducer at the speed of its decisions; by "
        "default every shipped bot the engine seats and every stranger. "
        "Needs the batch and ratings extras.",
    )
    parser.add_argument("bots", nargs="*", metavar="BOT", help="the bots (default: all)")
    parser.add_argument(
        "--players",
        type=bounded(3, 5, "players"),
        nargs="+",
        default=[3, 4, 5],
        metavar="{3,4,5}",
        help="player counts (default 3 4 5)",
    )
    parser.add_argument(
        "--games", type=bounded(10, 10_000_000, "--games"), default=20_000, help="games per count"
    )
    parser.add_argument(
        "--matrix",
        type=bounded(0, 1_000_000, "--matrix"),
        default=0,
        metavar="N",
        help="games per cell of the cross-play matrix (default 0: none)",
    )
    add_seed_option(parser, 1, "seed of the games (default 1)")
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the ratings as one JSON object (the form of high_society/data/ratings.json, "
        "which the levels of high_society.levels are read from); no matrix",
    )
    set_handler(parser, run, "batch", "ratings")


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Rate the bots ``args`` name and print the tables."""
    one_numpy_thread()
    import attrs
    import openskill  # noqa: F401 (the ratings extra: missing, said before any game is played)

    from high_society.batch.ratings import ROSTER, cross_play, rate, roster_entry

    stream = out if out is not None else sys.stdout
    names = args.bots or list(ROSTER)
    if getattr(args, "json", False):
        tables = {
            str(players): [
                attrs.asdict(r)
                for r in rate(
                    players, [roster_entry(n, players) for n in names], args.games, args.seed
                )
            ]
            for players in args.players
        }
        document = {"games": args.games, "seed": args.seed, "players": tables}
        print(json.dumps(document, indent=1), file=stream)
        return 0
    for players in args.players:
        roster = [roster_entry(name, players) for name in names]
        ratings = rate(players, roster, args.games, args.seed)
        print(f"{players} players, {args.games:,} games, seed {args.seed}", file=stream)
        print(f"{'bot':<18}{'mu':>7}  {'95% interval':<14}{'win share':>10}", file=stream)
        for r in ratings:
            interval = f"{r.low:.1f}-{r.high:.1f}"
            print(f"{r.name:<18}{r.mu:>7.1f}  {interval:<14}{r.win_share:>10.3f}", file=stream)
        if args.matrix:
            matrix = cross_play(players, roster, args.matrix, args.seed)
            short = [name[:7] for name in names]
            print(
                f"\ncross-play, {args.matrix:,} games per cell: row alone against the column",
                file=stream,
            )
            print(f"{'':<18}" + "".join(f"{s:>8}" for s in short), file=stream)
            for name, row in zip(names, matrix, strict=True):
                print(f"{name:<18}" + "".join(f"{v:>8.2f}" for v in row), file=stream)
        print(file=stream)
    return 0

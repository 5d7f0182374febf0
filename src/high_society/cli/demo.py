"""``high-society demo``: one complete game between built-in bots, told round by round."""

import argparse
from typing import TextIO

from high_society._files import check_target
from high_society.actions import Action
from high_society.bots import Bot, HeuristicBot, RandomBot
from high_society.cli._options import add_players_option, add_seed_option, set_handler
from high_society.host import Step, play
from high_society.record import GameRecord, write_record
from high_society.text import final_table, narrate

__all__ = ["NAMES", "make_bots", "register", "run"]

#: Default player names, in seat order.
NAMES = ("Ada", "Ben", "Cy", "Dee", "Eve")


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``demo`` subcommand."""
    parser = subparsers.add_parser(
        "demo",
        help="play one game between built-in bots and print it",
        description="Play one complete game between built-in bots and print it round by "
        "round, then the final table. The same seed always gives the same game.",
    )
    add_players_option(parser, "number of players (3 to 5, default 4)")
    add_seed_option(parser, 1, "seed for bots and deck (default 1)")
    parser.add_argument(
        "--bots",
        choices=("heuristic", "random", "mixed"),
        default="heuristic",
        help="heuristic bots, uniformly random bots, or both in turn (default heuristic)",
    )
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="also write the game to FILE as a recorded game (JSON, format v1); only a "
        "regular file is replaced (exit code 1 otherwise, nothing written)",
    )
    set_handler(parser, run)


def make_bots(kind: str, players: int, seed: int) -> list[Bot]:
    """The demo's bots: ``mixed`` seats heuristic bots at even seats, random ones at odd."""
    bots: list[Bot] = []
    for seat in range(players):
        bot_seed = seed * 100 + seat
        if kind == "heuristic" or (kind == "mixed" and seat % 2 == 0):
            bots.append(HeuristicBot(bot_seed))
        else:
            bots.append(RandomBot(bot_seed))
    return bots


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Play and print the game that ``args`` describe."""
    import sys

    stream = out if out is not None else sys.stdout
    names = NAMES[: args.players]
    path = getattr(args, "record", None)
    meta = {"generator": "high-society demo", "seed": args.seed, "bots": args.bots}
    if path is not None:
        # Checked before the game is played: a path that names a directory or something
        # other than a regular file, or a bad meta, fails now, with nothing printed.
        GameRecord(names, (), meta)
        check_target(path)
    bots = make_bots(args.bots, args.players, args.seed)
    kinds = ", ".join(f"{n} ({type(b).__name__})" for n, b in zip(names, bots, strict=True))
    print(f"High Society, {args.players} players, seed {args.seed}: {kinds}", file=stream)
    last: Step | None = None
    actions: list[Action] = []
    for line, step in narrate(play(bots, seed=args.seed), names):
        print(line, file=stream)
        if step is not last:  # a step may give several lines
            actions.append(step.action)
            last = step
    assert last is not None
    for line in final_table(last.after, names):
        print(line, file=stream)
    if path is not None:
        # All or nothing, and only a regular file is replaced: a FIFO, a device or a link
        # is refused with a RecordError, which the command line reports (exit code 1).
        write_record(path, GameRecord(names, actions, meta))
        print(f"Recorded the game in {path}", file=stream)
    return 0

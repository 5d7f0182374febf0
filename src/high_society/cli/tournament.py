"""``high-society tournament``: bots against each other, seats rotated, a table per bot."""

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import TextIO

from high_society.cli._options import (
    add_games_option,
    add_jobs_option,
    add_seed_option,
    set_handler,
)
from high_society.tournament import TournamentResult, parse_entrant, tournament

__all__ = ["format_table", "register", "run"]


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``tournament`` subcommand."""
    parser = subparsers.add_parser(
        "tournament",
        help="play bots against each other and report each bot's results",
        description="Play GAMES games between 3 to 5 bots, one per seat, rotating the seats "
        "from game to game, and report for each bot its win rate (with a 95% confidence "
        "interval), shared wins, cast-out rate and mean status. A bot is random, heuristic, "
        "classic, cautious, pass, learned, search (search@N: N simulations per decision, "
        "search@Xs: X seconds), or module:Class for any importable bot class that takes a "
        "seed; each may be followed by ,key=value options passed to the bot "
        "(heuristic,boldness=1.2). The same seed gives the same table whatever --jobs.",
    )
    parser.add_argument("bots", nargs="+", metavar="BOT", help="one bot per seat (3 to 5)")
    add_games_option(parser, 100)
    add_seed_option(parser, 1, "seed for bots and deck (default 1)")
    add_jobs_option(parser)
    parser.add_argument("--json", action="store_true", help="print the table as one JSON object")
    set_handler(parser, run)


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Play the tournament that ``args`` describe and print its table."""
    stream = out if out is not None else sys.stdout
    errors = err if err is not None else sys.stderr
    entrants = [parse_entrant(spec) for spec in args.bots]
    bar = _ProgressBar(args.games, errors) if errors.isatty() else None
    try:
        table = tournament(
            entrants,
            args.games,
            args.seed,
            jobs=args.jobs,
            progress=bar.advance if bar is not None else None,
        )
    finally:
        if bar is not None:
            bar.close()
    if args.json:
        print(json.dumps(table.as_dict(), indent=2), file=stream)
    else:
        for line in format_table(table):
            print(line, file=stream)
    return 0


class _ProgressBar:
    """A one-line bar on a terminal: games done, rate, time left."""

    def __init__(
        self, total: int, stream: TextIO, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._total, self._stream, self._clock = total, stream, clock
        self._done = 0
        self._start = clock()
        self._draw()

    def advance(self, games: int) -> None:
        self._done += games
        self._draw()

    def _draw(self) -> None:
        width = 30
        filled = width * self._done // self._total if self._total else width
        elapsed = self._clock() - self._start
        rate = self._done / elapsed if elapsed > 0 else 0.0
        left = f", {(self._total - self._done) / rate:.0f} s left" if rate else ""
        self._stream.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {self._done}/{self._total} games"
            f" ({rate:.1f}/s{left}) "
        )
        self._stream.flush()

    def close(self) -> None:
        self._stream.write("\r\033[K")
        self._stream.flush()


def _percent(part: float) -> str:
    return f"{100 * part:.1f}%"


def format_table(table: TournamentResult) -> list[str]:
    """The table for people: one line per bot, in the order they were named."""
    head = (
        f"{table.games} games, {table.players} players, seats rotated, seed {table.seed} "
        f"({table.seconds:.1f} s)"
    )
    width = max(len("bot"), *(len(row.name) for row in table.rows))
    columns = (
        f"{'bot':<{width}}  {'wins':>6}  {'95% interval':>13}  {'shared':>6}  "
        f"{'cast out':>8}  {'status':>6}  {'ms/move':>8}  {'max ms':>8}"
    )
    lines = [head, "", columns, "-" * len(columns)]
    for row in table.rows:
        low, high = row.win_interval
        lines.append(
            f"{row.name:<{width}}  {_percent(row.win_rate):>6}  "
            f"{_percent(low) + '-' + _percent(high):>13}  "
            f"{_percent(row.shared_wins / row.games if row.games else 0.0):>6}  "
            f"{_percent(row.cast_out_rate):>8}  {row.mean_status:>6.2f}  "
            f"{1000 * row.seconds_per_decision:>8.1f}  {1000 * row.max_seconds:>8.1f}"
        )
    nobody = _percent(table.no_winner / table.games if table.games else 0.0)
    lines.append("")
    lines.append(
        "wins: games won (a shared win counts for each winner); 95% interval: Wilson; "
        "ms/move, max ms: CPU time per decision, mean and longest; "
        f"no winner (all cast out) in {nobody} of games"
    )
    return lines

"""``high-society validate [--json] FILE...``: check recorded games (format v1).

Exit code 0 when every file is a valid record (finished or not), 1 when any is not (a
missing, unreadable or non-JSON file counts as not valid), 2 on wrong usage (no FILE, an
unknown option). Nothing is written but the report
on standard output, one line per file in the order given; what comes from a file or its name
is escaped, so a line never holds a control character.
"""

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from high_society._text import terminal_safe
from high_society.record import Validation, validate_file
from high_society.serial import score_to_json

__all__ = ["describe", "register", "run"]


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``validate`` subcommand."""
    parser = subparsers.add_parser(
        "validate",
        help="check recorded games (JSON, format v1)",
        description="Check that each FILE is a recorded game in format v1 whose every action "
        "is legal in turn, and print one line per file: valid (finished or not, and who won) "
        "or where and why it fails. Exit code 0 when every file is valid, 1 otherwise, 2 on "
        "wrong usage.",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object per file and line instead of a sentence",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="a recorded game")
    parser.set_defaults(handler=run)


def _names(seats: Sequence[int], players: Sequence[str]) -> str:
    names = [players[seat] for seat in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def describe(file: str, validation: Validation) -> str:
    """The readable line for one file.

    >>> from high_society.record import validate_record
    >>> describe("g.json", validate_record("[]"))
    'g.json: INVALID at $: BAD_TOP_LEVEL: a record must be a JSON object, not a list'
    """
    error = validation.error
    if error is not None:
        where = f"action {error.index} ({error.path})" if error.index is not None else error.path
        return f"{file}: INVALID at {where}: {error.code}: {error.message}"
    outcome = validation.result
    if outcome is None:
        return f"{file}: valid, not finished ({validation.action_count} actions so far)"
    assert validation.record is not None
    players = validation.record.players
    head = f"{file}: valid, finished after {validation.action_count} actions"
    if not outcome.winners:
        return f"{head}: nobody wins (everyone is cast out)"
    best = outcome.winners[0]
    verb = "wins" if len(outcome.winners) == 1 else "share the win"
    return (
        f"{head}: {_names(outcome.winners, players)} {verb}"
        f" (status {score_to_json(outcome.scores[best])}, money {outcome.money[best]})"
    )


def _emit(line: str, stream: TextIO) -> None:
    """Write one line whatever it holds: characters the stream cannot encode are escaped."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    safe = line.encode(encoding, "backslashreplace").decode(encoding, "replace")
    stream.write(safe + "\n")


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Validate every file of ``args.files``; return 0 when all are valid, else 1."""
    stream = out if out is not None else sys.stdout
    code = 0
    for file in args.files:
        validation = validate_file(file)
        if not validation.valid:
            code = 1
        if args.json:
            _emit(json.dumps(validation.to_json(file)), stream)
        else:
            # File names and players' names come from outside: control characters
            # (newlines, ANSI escapes ...) are escaped, so they cannot forge a report line
            # or reach the terminal. The JSON lines are ASCII with escapes already.
            _emit(terminal_safe(describe(file, validation)), stream)
    stream.flush()
    return code

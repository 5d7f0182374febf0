"""The ``high-society`` command line.

Each subcommand lives in a module of this package that provides ``register(subparsers)``;
the registered handler returns the exit code. No traceback reaches the user: the library's
own errors, OS errors and a missing optional extra become one line on standard error and
exit code 1.
"""

import argparse
import os
import sys
from collections.abc import Sequence

from high_society._version import __version__
from high_society.cli import (
    demo,
    exploitability,
    play,
    ratings,
    serve,
    simulate,
    tournament,
    validate,
)
from high_society.cli._options import missing_extra
from high_society.errors import HighSocietyError

__all__ = ["main"]

_SUBCOMMANDS = (demo, play, validate, simulate, tournament, ratings, exploitability, serve)


def build_parser() -> argparse.ArgumentParser:
    """The parser for every subcommand."""
    parser = argparse.ArgumentParser(
        prog="high-society",
        description="Reiner Knizia's High Society: play, check and study games.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.set_defaults(extras=())  # what a subcommand needs beyond the engine (set_handler)
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in _SUBCOMMANDS:
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit code.

    Wrong usage exits with code 2 (argparse's convention).
    """
    _open_closed_streams()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 2
    try:
        code: int = args.handler(args)
    except HighSocietyError as error:
        print(f"high-society: {error}", file=sys.stderr)
        return 1
    except ImportError as error:  # an optional extra is not installed
        print(f"high-society: {missing_extra(args.command, args.extras, error)}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # the reader of our output went away (| head): stop quietly
        _discard_output()
        return 1
    except OSError as error:
        print(f"high-society: {error.strerror or error}: {error.filename or ''}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("high-society: interrupted", file=sys.stderr)
        return 130
    return code


def _open_closed_streams() -> None:
    """A standard stream that was closed when the program started is ``None`` in ``sys``:
    read from or write to the null device instead (end of input, output discarded), as a
    shell's ``<&-`` or ``>&-`` asked."""
    for name, mode in (("stdin", "r"), ("stdout", "w"), ("stderr", "w")):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, mode, encoding="utf-8"))  # noqa: SIM115


def _discard_output() -> None:
    """After a broken pipe: what is still buffered for standard output goes to the null
    device, so that Python's flush at exit does not fail a second time."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):  # not a real file: nothing to flush
        pass

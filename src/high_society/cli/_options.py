"""Options that several subcommands share, declared once."""

import argparse
import os
from collections.abc import Callable, Sequence

from high_society._text import install_hint
from high_society.cards import MAX_PLAYERS, MIN_PLAYERS
from high_society.parallel import MAX_JOBS


def set_handler(
    parser: argparse.ArgumentParser,
    handler: Callable[[argparse.Namespace], int],
    *extras: str,
) -> None:
    """The subcommand's handler, and the optional extras it needs (named in the one-line
    message :func:`missing_extra` makes when one of their modules cannot be imported)."""
    parser.set_defaults(handler=handler, extras=extras)


def missing_extra(command: str, extras: Sequence[str], error: ImportError) -> str:
    """What the command line says, in one line, when ``command`` needs a module that is not
    installed: which extras to install, and how.

    >>> error = ModuleNotFoundError(name="openskill")
    >>> missing_extra("ratings", ("batch", "ratings"), error).split(": pip")[0]
    'ratings needs the batch and ratings extras (openskill is missing)'
    """
    name = error.name or getattr(error.__cause__, "name", None)
    missing = f"{name.partition('.')[0]} is missing" if name else "a module is missing"
    if not extras:
        return f"{command}: {missing}: {error}"
    plural = "s" if len(extras) > 1 else ""
    return f"{command} needs the {' and '.join(extras)} extra{plural} ({missing}): " + install_hint(
        ",".join(extras)
    )


def add_players_option(parser: argparse.ArgumentParser, help: str) -> None:
    """``--players K``: 3 to 5 (R3), default 4; anything else is wrong usage (exit 2)."""
    parser.add_argument(
        "--players",
        type=bounded(MIN_PLAYERS, MAX_PLAYERS, "players"),
        metavar="{3,4,5}",
        default=4,
        help=help,
    )


#: The largest ``--games``, ``--seed`` and other counts: the 64-bit range of the batch
#: engine's counters and of a record's integers (``2**63 - 1``).
MAX_COUNT = 2**63 - 1


def bounded(low: int, high: int, name: str) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``. Anything else is wrong
    usage (exit code 2) with a one-line message that gives the bounds."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {_short(text)!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"must be from {low:,} to {high:,}, not {_short(str(value))}"
            )
        return value

    parse.__name__ = name  # argparse names the type in some messages
    return parse


def _short(text: str) -> str:
    return text if len(text) <= 24 else f"{text[:10]}...{text[-10:]} ({len(text):,} characters)"


def add_jobs_option(parser: argparse.ArgumentParser) -> None:
    """``--jobs N``: play the games in N local processes (0: one per CPU), never more than
    there are games; the results do not depend on it."""
    parser.add_argument(
        "--jobs",
        type=bounded(0, MAX_JOBS, "--jobs"),
        metavar="N",
        default=1,
        help=f"processes to play the games in, 0 to {MAX_JOBS} (0: one per CPU; default 1; "
        "never more than there are games); the results are the same whatever N",
    )


def add_seed_option(parser: argparse.ArgumentParser, default: int | None, help: str) -> None:
    """``--seed S``: 0 to ``2**63 - 1``, which every engine, bot and record can hold."""
    parser.add_argument("--seed", type=bounded(0, MAX_COUNT, "--seed"), default=default, help=help)


def add_games_option(parser: argparse.ArgumentParser, default: int) -> None:
    """``--games N``: how many games to play, 1 to ``2**63 - 1``."""
    parser.add_argument(
        "--games",
        type=bounded(1, MAX_COUNT, "--games"),
        default=default,
        help=f"number of games (default {default})",
    )


def one_numpy_thread() -> None:
    """Numpy's BLAS on one thread, for commands that multiply small matrices: on many
    threads it costs many times the CPU for nothing. Effective only before numpy is first
    imported, as it is in the command line (a variable already set is left alone)."""
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")

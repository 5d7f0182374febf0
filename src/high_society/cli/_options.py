"""Options that several subcommands share, declared once."""

import argparse

from high_society.cards import MAX_PLAYERS, MIN_PLAYERS


def add_players_option(parser: argparse.ArgumentParser, help: str) -> None:
    """``--players K``: 3 to 5 (R3), default 4; anything else is wrong usage (exit 2)."""
    parser.add_argument(
        "--players",
        type=int,
        choices=range(MIN_PLAYERS, MAX_PLAYERS + 1),
        default=4,
        help=help,
    )


def add_jobs_option(parser: argparse.ArgumentParser) -> None:
    """``--jobs N``: play the games in N local processes (0: one per CPU); the results do
    not depend on it."""
    parser.add_argument(
        "--jobs",
        type=int,
        choices=range(1025),
        metavar="N",
        default=1,
        help="processes to play the games in (0: one per CPU; default 1); the results are "
        "the same whatever N",
    )


def count(text: str) -> int:
    """A whole number >= 1, for argparse (which turns the ValueError into exit code 2 and
    names this function in its message: "invalid count value")."""
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


def add_games_option(parser: argparse.ArgumentParser, default: int) -> None:
    """``--games N``: how many games to play, at least 1."""
    parser.add_argument(
        "--games", type=count, default=default, help=f"number of games (default {default})"
    )

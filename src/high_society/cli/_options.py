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

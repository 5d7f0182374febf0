"""The server's bots: which labels a seat may have, and the bot that plays a seat of a
stored table, the same in every process.

A bot seat's decision is made by a new bot seeded from the table's bot seed and the
action's number, told only what its seat knows: whichever process computes it, and however
often (a restart, a lost race), the action is the same.
"""

import functools
import hashlib
from collections.abc import Callable

from high_society.actions import Action
from high_society.bots import AnyBot, Bot, SeatBot, SeatOnly, Seen
from high_society.errors import InvalidConfigError
from high_society.levels import LEVELS, level_of
from high_society.tournament import parse_entrant

__all__ = ["BOTS", "TableBot", "make_bot"]

#: The bots a seat can have, by label, easiest first: every level of
#: :data:`high_society.levels.LEVELS`.
BOTS = tuple(level.name for level in LEVELS)


@functools.cache
def _factory(label: str) -> Callable[[int], AnyBot]:
    """The factory of a label, looked up once (each decision makes a bot)."""
    return parse_entrant(level_of(label).entrant).factory


def make_bot(label: str, seed: int) -> SeatBot:
    """The bot for one decision of a seat whose label is ``label`` (one of :data:`BOTS`),
    told only what its seat knows (:class:`~high_society.bots.SeatOnly`).

    Raises:
        InvalidConfigError: ``label`` is not one of :data:`BOTS`.
    """
    if label not in BOTS:
        raise InvalidConfigError(f"unknown bot {label!r}: one of {', '.join(BOTS)}")
    bot = _factory(label)(seed)
    return SeatOnly(bot) if isinstance(bot, Bot) else bot


class TableBot:
    """The bot of one seat of a stored table (a :class:`~high_society.bots.SeatBot`): each
    decision is :func:`make_bot`'s, seeded from ``bot_seed`` and the action's number."""

    def __init__(self, label: str, bot_seed: int) -> None:
        self.label = label
        self.bot_seed = bot_seed

    def choose_seen(self, seen: Seen) -> Action:
        """The action of a bot seeded for this table and this action."""
        number = len(seen.history)
        digest = hashlib.sha256(f"{self.bot_seed}:{number}".encode()).digest()
        return make_bot(self.label, int.from_bytes(digest[:8], "big")).choose_seen(seen)

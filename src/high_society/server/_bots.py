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
from high_society.tournament import parse_entrant

__all__ = ["BOTS", "BOT_DESCRIPTIONS", "TableBot", "make_bot"]

#: What each bot a seat can have plays like, by label, in the order a page offers them:
#: every built-in bot of the library (:data:`high_society.tournament.BUILT_IN`).
BOT_DESCRIPTIONS = {
    "heuristic": "A frugal budget player: bids the cheapest amount within its price for "
    "the card, and keeps its money above the poorest opponent's.",
    "learned": "A neural network trained in a league of bots (3, 4 or 5 players).",
    "search": "Plays out many imagined games before each move (100 per decision): the "
    "strongest, and the slowest to think.",
    "cautious": "A careful player: spends at most 40% of its money and never falls to "
    "the poorest opponent's money.",
    "classic": "The package's first heuristic player, a plain bidder.",
    "random": "Picks any legal move at random: the easiest opponent.",
    "pass": "Always passes: keeps all its money and takes every disgrace offered.",
}
#: The bots a seat can have, by label.
BOTS = tuple(BOT_DESCRIPTIONS)


@functools.cache
def _factory(label: str) -> Callable[[int], AnyBot]:
    """The factory of a label, looked up once (each decision makes a bot)."""
    return parse_entrant(label).factory


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

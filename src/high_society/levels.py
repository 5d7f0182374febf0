"""Levels for people: the built-in bots ordered from easy to expert by measured rating.

A person choosing an opponent wants to know which bot is easy and which is strong, not
its name. :data:`LEVELS` lists every built-in bot once, easiest first, each with its
level (1 the easiest), a word for it (:data:`TIERS`), its OpenSkill ratings at 3, 4 and 5
players with their 95% intervals, and a line on how it plays. The ratings are read from
``high_society/data/ratings.json``, the output of :data:`RATINGS_COMMAND` (``high-society
ratings ... --json``), and the order is theirs: by the mean of the three ratings, the
lowest first. A test ties this module to that file, so that the order cannot drift from
what was measured. Standard library only: a server reads it without the extras that
measured it.

>>> [level.name for level in LEVELS][:2]
['random', 'pass']
>>> level_of("lookahead").tier
'expert'
"""

import json
from importlib import resources

import attrs

from high_society.errors import InvalidConfigError

__all__ = ["LEVELS", "RATINGS_COMMAND", "RATINGS_FILE", "TIERS", "Level", "LevelRating", "level_of"]

#: The command whose output ``high_society/data/ratings.json`` is (run from a clone with
#: the ``batch`` and ``ratings`` extras; not part of CI).
RATINGS_COMMAND = (
    "high-society ratings random pass cautious heuristic classic search learned lookahead "
    "--players 3 4 5 --games 300 --seed 1 --json"
)
#: The ratings' file, in the package's ``data`` folder.
RATINGS_FILE = "ratings.json"
#: The words for levels, easiest first; a level's word never comes before an easier one's.
TIERS = ("beginner", "easy", "medium", "hard", "expert")

#: Each built-in bot: its word, the bot of the tournament's grammar that plays it
#: (:func:`~high_society.tournament.parse_entrant`), and a line on how it plays.
_BOTS: dict[str, tuple[str, str, str]] = {
    "random": (
        "beginner",
        "random",
        "Picks any legal move at random: it spends its money on anything.",
    ),
    "pass": (
        "beginner",
        "pass",
        "Never bids: keeps all its money and takes every disgrace card offered.",
    ),
    "cautious": (
        "medium",
        "cautious",
        "Spends at most 40% of its money and never bids to become the poorest.",
    ),
    "heuristic": (
        "easy",
        "heuristic",
        "Prices each card and bids the cheapest amount within that price, keeping its "
        "money above the poorest opponent's.",
    ),
    "classic": (
        "easy",
        "classic",
        "The package's first budget player: bids for cards it values, by a fixed table.",
    ),
    "search": (
        "hard",
        "search",
        "Imagines a hundred games before each move, the others played by the budget "
        "player; a tenth of a second a move.",
    ),
    "learned": (
        "hard",
        "learned",
        "A neural network trained in a league of bots and against players trained to "
        "beat it; answers at once.",
    ),
    "lookahead": (
        "expert",
        "high_society.lookahead:LookaheadBot",
        "Tries each move and imagines 128 games to the end for each, played by the neural "
        "network and the bots it trained against: the strongest.",
    ),
}


@attrs.frozen
class LevelRating:
    """A bot's OpenSkill rating at one player count: ``mu`` with its 95% interval
    (``low``, ``high``), from :data:`RATINGS_COMMAND`."""

    players: int
    mu: float
    low: float
    high: float


@attrs.frozen
class Level:
    """One built-in bot as a level a person can choose.

    Attributes:
        level: 1 for the easiest, up to the number of bots.
        tier: its word, one of :data:`TIERS`.
        name: the bot's name (as ``high-society ratings`` rated it).
        entrant: the bot of the tournament's grammar that plays it
            (:func:`~high_society.tournament.parse_entrant`).
        plays: a line on how it plays.
        ratings: its ratings at 3, 4 and 5 players.
    """

    level: int
    tier: str
    name: str
    entrant: str
    plays: str
    ratings: tuple[LevelRating, ...]

    @property
    def rating(self) -> float:
        """The mean of its ratings over the player counts: the key of the order."""
        return sum(r.mu for r in self.ratings) / len(self.ratings)

    def rating_at(self, players: int) -> LevelRating:
        """Its rating at ``players`` seats.

        Raises:
            InvalidConfigError: no rating for that count.
        """
        for rating in self.ratings:
            if rating.players == players:
                return rating
        raise InvalidConfigError(f"no rating of {self.name!r} at {players!r} players")


def _levels(document: object) -> tuple[Level, ...]:
    """The levels of a ratings document (the form ``high-society ratings --json`` prints)."""
    assert isinstance(document, dict)
    measured: dict[str, list[LevelRating]] = {name: [] for name in _BOTS}
    for count, rows in sorted(document["players"].items()):
        for row in rows:
            if row["name"] in measured:
                rating = LevelRating(int(count), row["mu"], row["low"], row["high"])
                measured[row["name"]].append(rating)
    ordered = sorted(measured, key=lambda name: sum(r.mu for r in measured[name]))
    return tuple(
        Level(rank, *_BOTS[name][:1], name, *_BOTS[name][1:], tuple(measured[name]))
        for rank, name in enumerate(ordered, start=1)
    )


def _read() -> object:
    text = resources.files("high_society").joinpath("data", RATINGS_FILE).read_text("utf-8")
    return json.loads(text)


#: Every built-in bot as a level, easiest first.
LEVELS: tuple[Level, ...] = _levels(_read())


def level_of(name: str) -> Level:
    """The level of the built-in bot ``name`` (``"heuristic"``, ``"lookahead"`` ...).

    Raises:
        InvalidConfigError: no built-in bot has that name.
    """
    for level in LEVELS:
        if level.name == name:
            return level
    raise InvalidConfigError(
        f"no level for {name!r}: the levels are {', '.join(level.name for level in LEVELS)}"
    )

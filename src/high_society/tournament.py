"""Tournaments: many games between bots, seats rotated, summed up per bot.

:func:`tournament` plays ``games`` games between 3 to 5 :class:`Entrant` s, one per seat.
Game ``i`` rotates the seats by ``i``: entrant ``k`` sits at seat ``(k + i) % players``, so
over a multiple of ``players`` games every entrant sits in every seat equally often. Each
game deals fresh bots, seeded (like the reveals) from ``(seed, i)`` alone
(:func:`~high_society.parallel.game_seed`): the games, and the table, are the same whether
they are played here, in ``jobs`` processes or on a cluster (any
:class:`concurrent.futures.Executor`).

>>> from high_society.bots import HeuristicBot, RandomBot
>>> lineup = [Entrant("random", RandomBot), Entrant("heuristic", HeuristicBot),
...           Entrant("heuristic", HeuristicBot)]
>>> table = tournament(lineup, games=30, seed=1)
>>> [row.games for row in table.rows], table == tournament(lineup, games=30, seed=1, jobs=2)
([30, 30, 30], True)
"""

import functools
import importlib
import inspect
import math
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from fractions import Fraction
from typing import cast

import attrs

from high_society._text import short_repr
from high_society.actions import Action
from high_society.bots import (
    AnyBot,
    Bot,
    CautiousBot,
    ClassicHeuristicBot,
    GameStart,
    HeuristicBot,
    PassBot,
    RandomBot,
    SeatBot,
    Seen,
)
from high_society.cards import MAX_PLAYERS, MIN_PLAYERS, STANDARD, GameConfig
from high_society.errors import InvalidConfigError
from high_society.host import play_game
from high_society.parallel import game_seed, run_chunks
from high_society.scoring import GameResult, result
from high_society.search import SearchBot
from high_society.state import GameState

__all__ = [
    "BUILT_IN",
    "BotFactory",
    "BotRow",
    "Entrant",
    "TournamentResult",
    "parse_entrant",
    "tournament",
    "wilson_interval",
]

#: Makes a bot from a seed: a bot class such as ``HeuristicBot`` is one. To play in other
#: processes it must be picklable (a module-level class or function, or a
#: :func:`functools.partial` of one).
BotFactory = Callable[[int], AnyBot]

#: The bots :func:`parse_entrant` knows by name.
BUILT_IN = ("random", "heuristic", "classic", "cautious", "pass", "learned", "search")


@attrs.frozen
class Entrant:
    """A bot in a tournament: its name in the table and how to make it for one game."""

    name: str
    factory: BotFactory = attrs.field(eq=False)


@attrs.frozen
class BotRow:
    """One entrant's games, summed up. Equal for two runs with the same arguments: the
    timing takes no part in comparisons.

    Attributes:
        name: the entrant's name.
        games: games played.
        wins: games won, alone or sharing the win (R12).
        shared_wins: games won together with another seat.
        cast_out: games in which the entrant was cast out (R10).
        status_total: the entrant's status (R11) summed over all games, exact.
        decisions: actions it chose (reveals are not its own).
        seconds: CPU time spent in its ``choose`` (:func:`time.thread_time`), in all.
        max_seconds: the longest single ``choose``, in CPU time.
    """

    name: str
    games: int
    wins: int
    shared_wins: int
    cast_out: int
    status_total: Fraction
    decisions: int
    seconds: float = attrs.field(eq=False)
    max_seconds: float = attrs.field(eq=False)

    @property
    def win_rate(self) -> float:
        """Wins per game (a shared win counts as a win)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        """The 95% confidence interval of the win rate (Wilson score interval)."""
        return wilson_interval(self.wins, self.games)

    @property
    def cast_out_rate(self) -> float:
        """Games cast out per game."""
        return self.cast_out / self.games if self.games else 0.0

    @property
    def mean_status(self) -> float:
        """The entrant's mean status (R11), cast out or not."""
        return float(self.status_total / self.games) if self.games else 0.0

    @property
    def seconds_per_decision(self) -> float:
        """Mean CPU time per decision."""
        return self.seconds / self.decisions if self.decisions else 0.0

    def merged(self, other: "BotRow") -> "BotRow":
        """The sum of two parts of one entrant's games."""
        return BotRow(
            name=self.name,
            games=self.games + other.games,
            wins=self.wins + other.wins,
            shared_wins=self.shared_wins + other.shared_wins,
            cast_out=self.cast_out + other.cast_out,
            status_total=self.status_total + other.status_total,
            decisions=self.decisions + other.decisions,
            seconds=self.seconds + other.seconds,
            max_seconds=max(self.max_seconds, other.max_seconds),
        )

    def as_dict(self) -> dict[str, object]:
        """The row as plain JSON values."""
        low, high = self.win_interval
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "win_rate_95": [low, high],
            "shared_wins": self.shared_wins,
            "cast_out": self.cast_out,
            "cast_out_rate": self.cast_out_rate,
            "mean_status": self.mean_status,
            "decisions": self.decisions,
            "seconds_per_decision": self.seconds_per_decision,
            "max_seconds_per_decision": self.max_seconds,
        }


@attrs.frozen
class TournamentResult:
    """What :func:`tournament` found: one :class:`BotRow` per entrant, in lineup order.

    Attributes:
        players: seats per game (the number of entrants).
        games: games played.
        seed: the seed the games were derived from.
        no_winner: games in which every seat was cast out (R10).
        rows: per entrant, its figures.
        seconds: wall-clock time of the whole tournament.
    """

    players: int
    games: int
    seed: int
    no_winner: int
    rows: tuple[BotRow, ...]
    seconds: float = attrs.field(eq=False)

    def as_dict(self) -> dict[str, object]:
        """The table as plain JSON values (what ``tournament --json`` prints)."""
        return {
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "no_winner": self.no_winner,
            "seconds": self.seconds,
            "bots": [row.as_dict() for row in self.rows],
        }


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for the default ``z``); ``(0, 1)``
    when there are no trials.

    >>> [round(x, 3) for x in wilson_interval(40, 100)]
    [0.309, 0.498]
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    # At 0 or all successes the interval touches 0 or 1 exactly (not 1 - 1e-16).
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return (low, high)


def parse_entrant(spec: str) -> Entrant:
    """An entrant from its command-line name. The grammar::

        ENTRANT := BOT ("," OPTION)*
        BOT     := "random" | "heuristic" | "classic" | "cautious" | "pass" | "learned"
                 | "search" | "search@" N | "search@" X "s"
                 | MODULE ":" NAME
        OPTION  := KEY "=" VALUE

    - ``random``, ``heuristic``, ``classic``, ``cautious``, ``pass``, ``learned``: the
      built-in bots (:data:`BUILT_IN`);
    - ``search`` (100 simulations per decision), ``search@N`` (``N`` simulations) or
      ``search@Xs`` (``X`` seconds per decision): :class:`~high_society.search.SearchBot`;
    - ``package.module:Name``: any importable callable that makes a bot from a seed,
      typically a class whose ``__init__`` takes the seed and that follows the
      :class:`~high_society.bots.Bot` or :class:`~high_society.bots.SeatBot` protocol;
    - each ``KEY=VALUE`` is passed to the factory as a keyword argument, after the seed.
      A ``VALUE`` is an int (``200``), a float (``1.2``, ``1e-3``), ``true``/``false``,
      ``none``, or else the text itself (``style=aggressive``). A key must be a Python
      identifier, given once, and one the factory takes (a factory with ``**kwargs``
      takes any).

    >>> parse_entrant("search@50").name
    'search@50'
    >>> parse_entrant("heuristic,boldness=1.2").factory.keywords
    {'boldness': 1.2}

    Every factory is tried once, with seed 0 and the options, to check that it makes a
    bot: a bad option is refused here, with its name, not in the middle of a run.

    Raises:
        InvalidConfigError: the name is none of these; an option is malformed, repeated,
            unknown to the factory or refused by it; the import fails (whatever it
            raises, ``SystemExit`` included); or the factory, tried, raises anything or
            does not make an object with a ``choose`` or ``choose_seen`` method.
    """
    bot, *parts = spec.split(",")
    options = _options(spec, parts)
    name, _, budget = bot.partition("@")
    factory: Callable[..., AnyBot]
    if name == "search":
        factory = _search_factory(budget)
    elif budget:
        raise _unknown(spec)
    elif name in _BUILT_IN_FACTORIES:
        factory = _BUILT_IN_FACTORIES[name]()
    else:
        factory = _load(spec, bot)
    _check_keywords(spec, factory, options)
    made: BotFactory = functools.partial(factory, **options) if options else factory
    # Make one bot now, so that a factory that takes no seed or makes no bot is refused
    # here with its name, not in the middle of a run (in another process). Whatever it
    # raises is refused: SystemExit from ``sys:exit`` must not end the program quietly.
    try:
        sample = made(0)
    except BaseException as error:  # any failure of foreign code is a refusal
        raise InvalidConfigError(
            f"bot {short_repr(spec)} cannot be made from a seed: {_described(error)}"
        ) from None
    if not isinstance(sample, Bot | SeatBot):
        raise InvalidConfigError(
            f"bot {short_repr(spec)} makes objects without a choose or choose_seen method"
        )
    return Entrant(spec, made)


def _learned_factory() -> Callable[..., AnyBot]:
    try:
        from high_society.learned import LearnedBot  # needs numpy: only when named
    except ImportError as error:
        raise InvalidConfigError(f"bot 'learned' cannot be loaded: {error}") from None
    return LearnedBot


#: The built-in names, each with how to get its factory.
_BUILT_IN_FACTORIES: dict[str, Callable[[], Callable[..., AnyBot]]] = {
    "random": lambda: RandomBot,
    "heuristic": lambda: HeuristicBot,
    "classic": lambda: ClassicHeuristicBot,
    "cautious": lambda: CautiousBot,
    "pass": lambda: PassBot,
    "learned": _learned_factory,
}


def _unknown(spec: str) -> InvalidConfigError:
    known = ", ".join(BUILT_IN)
    return InvalidConfigError(
        f"unknown bot {short_repr(spec)}: expected one of "
        f"{known}, search@N, search@Xs or module:Class, each optionally followed by "
        ",key=value options"
    )


def _described(error: BaseException) -> str:
    """A failure of a bot's factory in a line: the library's own refusals (their values
    made safe already) whole, anything else's message cut short and made safe."""
    text = str(error)
    if isinstance(error, InvalidConfigError):
        return text
    return type(error).__name__ + (f": {short_repr(text)[1:-1]}" if text else "")


def _options(spec: str, parts: list[str]) -> dict[str, object]:
    """The ``key=value`` options of ``spec``, values typed (see :func:`parse_entrant`)."""
    options: dict[str, object] = {}
    for part in parts:
        key, equals, text = part.partition("=")
        if not equals or not key.isidentifier() or key.startswith("_"):
            raise InvalidConfigError(
                f"bad option {short_repr(part)} in bot {short_repr(spec)}: expected key=value, "
                "the key a name (letters, digits, underscores, not starting with one)"
            )
        if key in options:
            raise InvalidConfigError(f"option {key!r} given twice in bot {short_repr(spec)}")
        options[key] = _value(text)
    return options


def _value(text: str) -> object:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered == "none":
        return None
    try:
        return int(text)
    except ValueError:
        pass
    try:
        number = float(text)
    except ValueError:
        return text
    return number if math.isfinite(number) else text


def _load(spec: str, bot: str) -> Callable[..., AnyBot]:
    module, colon, attribute = bot.partition(":")
    if not (colon and module and attribute):
        raise _unknown(spec)
    try:
        target: object = importlib.import_module(module)
        for part in attribute.split("."):
            target = getattr(target, part)
    # Importing runs the module's code: whatever it raises (an error, SystemExit) is a
    # refusal of this name, not a crash of the program that named it.
    except BaseException as error:
        raise InvalidConfigError(
            f"cannot load bot {short_repr(spec)}: {_described(error)}"
        ) from None
    if not callable(target):
        raise InvalidConfigError(f"bot {short_repr(spec)} is not a class or function")
    return cast("Callable[..., AnyBot]", target)


def _check_keywords(spec: str, factory: Callable[..., AnyBot], options: dict[str, object]) -> None:
    """Refuse, by name, an option the factory does not take (when its signature says)."""
    if not options:
        return
    target = factory.func if isinstance(factory, functools.partial) else factory
    try:
        parameters = inspect.signature(target).parameters
    except (TypeError, ValueError):
        return  # no signature to read (a builtin): the trial call decides
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return
    names = [
        name
        for name, p in parameters.items()
        if p.kind in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    ]
    # The seed comes first, by position: it is no option.
    taken = names[1:] if _seed_first(parameters) else names
    fixed = factory.keywords if isinstance(factory, functools.partial) else {}
    for key in options:
        if key not in taken or key in fixed or key == "clock":
            allowed = ", ".join(k for k in taken if k not in fixed and k != "clock") or "none"
            raise InvalidConfigError(
                f"bot {short_repr(spec)} has no option {key!r} (its options: {allowed})"
            )


def _seed_first(parameters: Mapping[str, inspect.Parameter]) -> bool:
    first = next(iter(parameters.values()), None)
    return first is not None and first.kind in (
        inspect.Parameter.POSITIONAL_ONLY,
        inspect.Parameter.POSITIONAL_OR_KEYWORD,
    )


def _search_factory(budget: str) -> Callable[..., AnyBot]:
    try:
        if not budget:
            return SearchBot
        if budget.endswith("s"):
            seconds = float(budget[:-1])
            if not 0 < seconds < math.inf:
                raise ValueError(budget)
            return functools.partial(SearchBot, simulations=None, seconds=seconds)
        simulations = int(budget)
        if simulations < 1:
            raise ValueError(budget)
        return functools.partial(SearchBot, simulations=simulations)
    except ValueError:
        raise InvalidConfigError(
            f"bad search budget {short_repr(budget)}: expected simulations (search@200) or seconds "
            "(search@0.5s), more than 0"
        ) from None


def tournament(
    entrants: Sequence[Entrant],
    games: int,
    seed: int,
    *,
    jobs: int = 1,
    executor: Executor | None = None,
    workers: int | None = None,
    config: GameConfig = STANDARD,
    progress: Callable[[int], None] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> TournamentResult:
    """Play ``games`` games between ``entrants`` (one per seat, seats rotated) and sum
    them up per entrant.

    ``jobs``, ``executor``, ``workers`` and ``progress`` are those of
    :func:`~high_society.parallel.run_chunks`; none of them changes the result.

    Raises:
        InvalidConfigError: not 3 to 5 entrants, ``games`` negative, or ``seed``, ``jobs``
            or ``workers`` not valid.
        IllegalActionError: a bot chose an illegal action.
    """
    players = len(entrants)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidConfigError(
            f"a tournament needs {MIN_PLAYERS} to {MAX_PLAYERS} bots, not {players} (R3)"
        )
    if type(games) is not int or games < 0:
        raise InvalidConfigError(
            f"the number of games must be an int >= 0, not {short_repr(games)}"
        )
    if type(seed) is not int:
        raise InvalidConfigError(f"the seed must be an int, not {short_repr(seed)}")
    task = functools.partial(_play_games, tuple(entrants), seed, config)
    start = clock()
    parts = run_chunks(
        task, games, jobs=jobs, executor=executor, workers=workers, progress=progress
    )
    seconds = clock() - start
    rows = tuple(_empty_row(entrant.name) for entrant in entrants)
    no_winner = 0
    for part_rows, part_no_winner in parts:
        rows = tuple(a.merged(b) for a, b in zip(rows, part_rows, strict=True))
        no_winner += part_no_winner
    return TournamentResult(
        players=players, games=games, seed=seed, no_winner=no_winner, rows=rows, seconds=seconds
    )


def _empty_row(name: str) -> BotRow:
    return BotRow(name, 0, 0, 0, 0, Fraction(0), 0, 0.0, 0.0)


class _Timed:
    """Wraps a bot to count its decisions and time them in CPU time of the thread that
    runs them, so that waiting for a busy core does not count (nor other threads' work).
    Its hooks are passed on."""

    __slots__ = ("bot", "decisions", "longest", "seconds")

    def __init__(self, bot: AnyBot) -> None:
        self.bot = bot
        self.decisions = 0
        self.seconds = 0.0
        self.longest = 0.0

    def _count(self, started: float) -> None:
        spent = time.thread_time() - started
        self.decisions += 1
        self.seconds += spent
        self.longest = max(self.longest, spent)

    def start(self, game: GameStart) -> None:
        hook = getattr(self.bot, "start", None)
        if hook is not None:
            hook(game)

    def end(self, outcome: GameResult) -> None:
        hook = getattr(self.bot, "end", None)
        if hook is not None:
            hook(outcome)


class _TimedBot(_Timed):
    """A timed :class:`~high_society.bots.Bot`."""

    __slots__ = ("_choose",)

    def __init__(self, bot: Bot) -> None:
        super().__init__(bot)
        self._choose = bot.choose

    def choose(self, state: GameState) -> Action:
        started = time.thread_time()
        action = self._choose(state)
        self._count(started)
        return action


class _TimedSeatBot(_Timed):
    """A timed :class:`~high_society.bots.SeatBot`: still told only what its seat knows."""

    __slots__ = ("_choose_seen",)

    def __init__(self, bot: SeatBot) -> None:
        super().__init__(bot)
        self._choose_seen = bot.choose_seen

    def choose_seen(self, seen: Seen) -> Action:
        started = time.thread_time()
        action = self._choose_seen(seen)
        self._count(started)
        return action


def _timed(bot: AnyBot) -> _TimedBot | _TimedSeatBot:
    """``bot`` timed, asked as it asks to be asked (a bot with ``choose`` is given the state)."""
    if isinstance(bot, Bot):
        return _TimedBot(bot)
    return _TimedSeatBot(bot)


def _play_games(
    entrants: tuple[Entrant, ...], seed: int, config: GameConfig, indexes: range
) -> tuple[tuple[BotRow, ...], int]:
    """Games ``indexes`` of a tournament: per entrant, its row over these games; and the
    number of games nobody won."""
    players = len(entrants)
    rows = [_empty_row(entrant.name) for entrant in entrants]
    no_winner = 0
    for index in indexes:
        # Entrant k sits at seat (k + index) % players.
        seats = [(k + index) % players for k in range(players)]
        by_seat: list[_TimedBot | _TimedSeatBot | None] = [None] * players
        for k, entrant in enumerate(entrants):
            by_seat[seats[k]] = _timed(entrant.factory(game_seed(seed, index, 1 + k)))
        bots = [bot for bot in by_seat if bot is not None]
        state, _ = play_game(bots, seed=game_seed(seed, index), config=config)
        outcome = result(state)
        no_winner += not outcome.winners
        for k in range(players):
            seat, bot = seats[k], bots[seats[k]]
            won = seat in outcome.winners
            rows[k] = rows[k].merged(
                BotRow(
                    name=entrants[k].name,
                    games=1,
                    wins=int(won),
                    shared_wins=int(won and len(outcome.winners) > 1),
                    cast_out=int(seat in outcome.cast_out),
                    status_total=outcome.scores[seat],
                    decisions=bot.decisions,
                    seconds=bot.seconds,
                    max_seconds=bot.longest,
                )
            )
    return tuple(rows), no_winner

"""The bot protocol, and the built-in opponents: a uniformly random player and a simple
heuristic one.

A bot is anything with ``choose(state) -> Action`` that returns a legal action for the seat
that must act (:class:`Bot`). A bot that wants to be told only what its own seat knows
implements ``choose_seen(seen) -> Action`` instead (:class:`SeatBot`): it gets the seat's
view of the table (R13) and the public history, never the state. Either kind may also
implement two optional hooks, which :func:`~high_society.host.play` calls when present:

- ``start(game: GameStart) -> None`` before the game's first action: the bot's seat, the
  number of players and the game's parameters;
- ``end(result: GameResult) -> None`` once the game is over: the scores with their
  breakdowns, the money left, the cast-out seats and the winners.

:func:`decide` asks a bot of either kind for its action (:func:`chooser` looks the method
up once, for a host's game loop); :func:`start_bots` and :func:`end_bots` call the hooks.
:class:`SeatOnly` plays any state bot from what its seat knows. Both built-in bots are
deterministic for a given seed.
"""

import random
from collections.abc import Callable, Sequence
from typing import Protocol, assert_never, runtime_checkable

import attrs

from high_society._fast import randbelow
from high_society._immutable import copy_self, deepcopy_self
from high_society._text import short_repr
from high_society.actions import Action, Pass
from high_society.cards import CardKind, GameConfig, StatusCard
from high_society.errors import InvalidConfigError, NoSeatToActError
from high_society.observation import SeatView, view
from high_society.rules import LegalActions, apply, legal_actions, new_game
from high_society.scoring import GameResult, result, status_of
from high_society.state import GameState, Phase

__all__ = [
    "AnyBot",
    "Bot",
    "GameStart",
    "HeuristicBot",
    "RandomBot",
    "SeatBot",
    "SeatOnly",
    "Seen",
    "chooser",
    "decide",
    "end_bots",
    "start_bots",
]


@runtime_checkable
class Bot(Protocol):
    """A player program: given a state where a seat must act, it returns that seat's action.

    The state holds every hand: with perfect recall a seat can deduce them all from the
    public history (R14), so a bot that reads them knows no more than a seat that
    remembers. A bot that wants only its seat's view implements :class:`SeatBot` instead.
    """

    def choose(self, state: GameState) -> Action:
        """A legal action for ``to_act(state)``, which is a seat."""
        ...


@attrs.frozen
class Seen:
    """What one seat knows when it must act: what it sees now and what everyone saw happen.

    Attributes:
        view: the seat's view of the table (R13): its own hand, never another's, nor
            anyone's spent cards.
        history: every action of the game so far, reveals included, oldest first. All of
            it happened face up, so every seat saw it (R14).
    """

    view: SeatView
    history: tuple[Action, ...]

    __copy__ = copy_self
    __deepcopy__ = deepcopy_self

    @property
    def seat(self) -> int:
        """The seat that must act."""
        return self.view.seat

    def deduced_state(self) -> GameState:
        """The whole state, as a seat with perfect recall deduces it from the history (R14):
        the public history replayed from the deal. Equal to the true state.

        >>> from high_society import Reveal, StatusCard, apply, new_game
        >>> from high_society.observation import view
        >>> state = apply(new_game(3), Reveal(StatusCard.LUXURY_3))
        >>> Seen(view(state, 0), (Reveal(StatusCard.LUXURY_3),)).deduced_state() == state
        True
        """
        state = new_game(len(self.view.players), self.view.config)
        for action in self.history:
            state = apply(state, action)
        return state


@runtime_checkable
class SeatBot(Protocol):
    """A player program told only what its seat knows (:class:`Seen`), never the state."""

    def choose_seen(self, seen: Seen) -> Action:
        """A legal action for ``seen.seat``, which must act."""
        ...


#: A bot of either kind: what every host of the package accepts.
AnyBot = Bot | SeatBot


@attrs.frozen
class GameStart:
    """What a bot is told as a game starts (its optional ``start`` hook).

    Attributes:
        seat: the bot's seat.
        players: how many seats the game has.
        config: the game's parameters.
    """

    seat: int
    players: int
    config: GameConfig


def decide(bot: AnyBot, state: GameState, history: Sequence[Action]) -> Action:
    """Ask ``bot`` for the action of the seat that must act in ``state``.

    A :class:`SeatBot` is given that seat's :class:`Seen` (its view and ``history``, the
    game's actions so far); any other bot is given the state. A bot with both methods is
    asked through ``choose``.

    Raises:
        NoSeatToActError: no seat must act in ``state``.
        InvalidConfigError: ``bot`` has neither a ``choose`` nor a ``choose_seen`` method.
    """
    return chooser(bot, _seat(state), history)(state)


def chooser(bot: AnyBot, seat: int, history: Sequence[Action]) -> Callable[[GameState], Action]:
    """What a host calls for the action of ``bot``, playing ``seat``: its ``choose``, or for
    a :class:`SeatBot` a function that tells it the seat's view and ``history``. A host
    looks it up once per game and keeps ``history`` (a list it appends each action to) up
    to date.

    Raises:
        InvalidConfigError: ``bot`` has neither a ``choose`` nor a ``choose_seen`` method.
    """
    choose: Callable[[GameState], Action] | None = getattr(bot, "choose", None)
    if choose is not None:
        return choose
    choose_seen: Callable[[Seen], Action] | None = getattr(bot, "choose_seen", None)
    if choose_seen is None:
        raise InvalidConfigError(
            f"the bot of seat {seat} ({short_repr(type(bot).__name__)}) has no choose or "
            "choose_seen method"
        )

    def told_only_seat(state: GameState) -> Action:
        return choose_seen(Seen(view(state, seat), tuple(history)))

    return told_only_seat


def start_bots(bots: Sequence[AnyBot], state: GameState) -> None:
    """Call the ``start`` hook of each bot that has one, with its seat (the bot's index in
    ``bots``), the number of players and the config of ``state``."""
    players = len(state.players)
    for seat, bot in enumerate(bots):
        hook = getattr(bot, "start", None)
        if hook is not None:
            hook(GameStart(seat, players, state.config))


def end_bots(bots: Sequence[AnyBot], final: GameState) -> None:
    """Call the ``end`` hook of each bot that has one, with the result of ``final``.

    Raises:
        GameNotOverError: ``final`` is not over.
    """
    hooks = [hook for bot in bots if (hook := getattr(bot, "end", None)) is not None]
    if hooks:
        outcome = result(final)
        for hook in hooks:
            hook(outcome)


class SeatOnly:
    """Plays a state bot from what its seat knows: each decision, the state is deduced from
    the public history (R14, :meth:`Seen.deduced_state`) and handed to ``bot``. Its hooks
    are passed on.

    >>> from high_society import Reveal, StatusCard, apply, new_game
    >>> from high_society.observation import view
    >>> state = apply(new_game(3), Reveal(StatusCard.LUXURY_3))
    >>> seen = Seen(view(state, 0), (Reveal(StatusCard.LUXURY_3),))
    >>> SeatOnly(RandomBot(seed=1)).choose_seen(seen) == RandomBot(seed=1).choose(state)
    True
    """

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def choose_seen(self, seen: Seen) -> Action:
        """The wrapped bot's action in the state the seat deduces."""
        return self.bot.choose(seen.deduced_state())

    def start(self, game: GameStart) -> None:
        """Passes the ``start`` hook on to the wrapped bot, if it has one."""
        hook = getattr(self.bot, "start", None)
        if hook is not None:
            hook(game)

    def end(self, result: GameResult) -> None:
        """Passes the ``end`` hook on to the wrapped bot, if it has one."""
        hook = getattr(self.bot, "end", None)
        if hook is not None:
            hook(result)


_AUCTION = Phase.AUCTION
_DISCARD = Phase.DISCARD


def _seat(state: GameState) -> int:
    phase = state.phase
    if phase is not _AUCTION and phase is not _DISCARD:
        raise NoSeatToActError(
            f"a bot is asked to act only when a seat must act, not in the {phase.value} phase"
        )
    return state.turn


class RandomBot:
    """Picks uniformly among *all* legal actions: every distinct bid counts once, as does
    ``Pass``. The standard workload for comparing engines, and the simplest opponent.

    >>> from high_society import apply, new_game, Reveal, StatusCard
    >>> state = apply(new_game(3), Reveal(StatusCard.LUXURY_4))
    >>> RandomBot(seed=1).choose(state) in legal_actions(state)
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self._getrandbits = random.Random(seed).getrandbits

    def choose(self, state: GameState) -> Action:
        """A uniformly random legal action.

        Raises:
            NoSeatToActError: no seat must act in ``state``.
        """
        # The standard workload of the benchmarks: _seat, legal_actions and randrange, inlined.
        phase = state.phase
        if phase is not _AUCTION and phase is not _DISCARD:
            _seat(state)
        legal = LegalActions(state)
        return legal[randbelow(self._getrandbits, len(legal))]


class HeuristicBot:
    """A plain, sensible player: it prices the card up for auction, bids the cheapest legal
    amount while that stays within its price, and keeps clear of being the poorest.

    - Luxury cards are worth about twice their face, prestige cards grow with the luxury
      it already owns; avoiding a disgrace card is worth what the card would cost it.
    - While a Faux Pas of its own waits for a luxury card (R8), it bids nothing for luxury:
      the card would be lost at once.
    - It keeps clear of being the poorest (R10), with some slack early on, since the others
      will spend too: a bid may leave it at most 30 below the poorest opponent's money
      while four or more dark-green cards are still in the deck, 24 with three left, 14
      with two and 6 with one.
    - For Faux Pas it discards its lowest luxury card.

    A little seeded noise keeps two of them from playing identically.
    """

    def __init__(self, seed: int | None = None, *, boldness: float = 1.0) -> None:
        self._rng = random.Random(seed)
        self._boldness = boldness

    def choose(self, state: GameState) -> Action:
        """This bot's action for the seat that must act.

        Raises:
            NoSeatToActError: no seat must act in ``state``.
        """
        seat = _seat(state)
        legal = legal_actions(state)
        if state.phase is Phase.DISCARD:
            return legal[0]  # the lowest luxury card comes first
        bids = legal.bids()
        if not bids:
            return Pass(seat)
        cheapest = bids[0]
        me = state.players[seat]
        new_total = me.bid + cheapest.total
        if new_total <= self._price(state, seat) and self._can_afford(state, seat, new_total):
            return cheapest
        return Pass(seat)

    def _price(self, state: GameState, seat: int) -> float:
        """The most this seat would have face up to take (or avoid) the card."""
        card = state.auction
        assert card is not None
        mine = status_of(state.players[seat].status_cards)
        noise = self._rng.uniform(0.8, 1.2) * self._boldness
        kind = card.kind
        match kind:
            case CardKind.LUXURY:
                if mine.faux_pas_pending:
                    return 0.0
                return (2.0 * card.luxury_value + 2.0) * noise
            case CardKind.PRESTIGE:
                return (14.0 + 1.2 * mine.luxury_sum) * noise
            case CardKind.DISGRACE:
                if card is StatusCard.PASSE:
                    return 6.0 * noise
                if card is StatusCard.FAUX_PAS:
                    lowest = min((c.luxury_value for c in mine.luxury_cards), default=2)
                    return (2.0 + lowest) * noise
                return (4.0 + 0.5 * mine.luxury_sum * mine.prestige_factor) * noise
            case _:
                assert_never(kind)

    @staticmethod
    def _can_afford(state: GameState, seat: int, new_total: int) -> bool:
        """Paying ``new_total`` keeps this seat clear of being the poorest (R10).

        Early on it may fall a little behind the poorest opponent (they will spend too);
        the closer the end, the less slack it allows.
        """
        mine = state.players[seat]
        poorest = min(p.money for i, p in enumerate(state.players) if i != seat)
        ends_left = sum(1 for c in state.deck if c.is_dark_green)
        slack = (0, 6, 14, 24, 30)[min(ends_left, 4)]
        return mine.money - new_total >= poorest - slack

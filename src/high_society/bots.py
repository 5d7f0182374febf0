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

import itertools
import math
import random
from collections.abc import Callable, Sequence
from typing import Protocol, assert_never, runtime_checkable

import attrs

from high_society._fast import randbelow
from high_society._immutable import copy_self, deepcopy_self
from high_society._text import short_repr
from high_society.actions import Action, Bid, Pass
from high_society.cards import CardKind, GameConfig, StatusCard
from high_society.encoding import action_id
from high_society.errors import InvalidConfigError, NoSeatToActError
from high_society.observation import SeatView, view
from high_society.rules import LegalActions, apply, legal_actions, new_game
from high_society.scoring import GameResult, result, status_of
from high_society.state import GameState, Phase

__all__ = [
    "AnyBot",
    "Bot",
    "CautiousBot",
    "ClassicHeuristicBot",
    "GameStart",
    "HeuristicBot",
    "PassBot",
    "RandomBot",
    "SeatBot",
    "SeatOnly",
    "Seen",
    "cheapest_bid",
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


def _bids_or_forced(state: GameState) -> tuple[int, Sequence[Bid], Action | None]:
    """The seat to act, its legal bids (cheapest first), and the action it plays without
    a choice to make, if any: for Faux Pas its lowest luxury card, ``Pass`` when no bid
    is legal.

    Raises:
        NoSeatToActError: no seat must act in ``state``.
    """
    seat = _seat(state)
    legal = legal_actions(state)
    if state.phase is Phase.DISCARD:
        return seat, (), legal[0]  # the lowest luxury card comes first
    bids = legal.bids()
    return seat, bids, None if bids else Pass(seat)


def _choose_drawing(
    state: GameState, draw: Callable[[], float], choose_with: Callable[[GameState, float], Action]
) -> Action:
    """``choose_with(state, draw())``, drawing only when the seat has a choice, so that a
    seeded bot's draws follow its decisions, not its forced moves.

    Raises:
        NoSeatToActError: no seat must act in ``state``.
    """
    _, _, forced = _bids_or_forced(state)
    if forced is not None:
        return forced
    return choose_with(state, draw())


def cheapest_bid(state: GameState) -> Bid | None:
    """The cheapest legal bid of the seat to act, ``None`` when it has none (or no
    auction runs): of the lowest legal total, the bid of the largest action id (its
    largest cards, usually the fewest). The bid :class:`HeuristicBot` makes.

    >>> from high_society import Reveal, StatusCard, apply, new_game
    >>> cheapest_bid(apply(new_game(3), Reveal(StatusCard.LUXURY_2)))
    Bid(seat=0, cards=frozenset({1}))
    """
    if state.phase is not Phase.AUCTION:
        return None
    bids = legal_actions(state).bids()
    return _cheapest(bids, state.config) if bids else None


def _cheapest(bids: Sequence[Bid], config: GameConfig) -> Bid:
    total = bids[0].total
    if len(bids) == 1 or bids[1].total != total:
        return bids[0]
    return max(
        itertools.takewhile(lambda b: b.total == total, bids), key=lambda b: action_id(b, config)
    )


def _boldness(value: object) -> float:
    """``value`` as a boldness: a finite number > 0 that scales a bot's prices."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < math.inf:
        raise InvalidConfigError(f"boldness must be a number > 0, not {short_repr(value)}")
    return float(value)


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
    """A frugal budget player: it prices the card up for auction in status points, bids
    the cheapest legal amount while that stays within its price, and keeps its money above
    what it expects the poorest opponent to end with.

    - **Price.** With ``m`` the factor its status cards give (2 per prestige card, halved
      with Scandale) and ``L`` its luxury sum (minus 5 with Passé): a luxury card of value
      ``v`` is worth ``1.4 * v * m + 1``, nothing while a Faux Pas of its own waits for it
      (R8: the card would be lost at once); a prestige card ``10 + max(L, 0) * m``;
      avoiding Passé ``5 * m + 1``, Faux Pas ``lowest luxury * m + 1``, Scandale
      ``max(L, 0) * m / 2 + 1``. Each price is scaled by ``boldness`` and by a seeded draw
      within 10% either way.
    - **Budget.** A bid is made only if, paying it, the bot keeps strictly more money than
      the lowest of the opponents' expected final money (R10: ties at the bottom are cast
      out together). An opponent is expected to go on spending at its rate so far (with
      10 of prior spending) over the auctions expected before the last dark-green card,
      but never by more than 34, 26, 16 or 8 while 4 or more, 3, 2 or 1 dark-green cards
      are left, and by nothing once none is: a frugal opponent is expected to stay
      frugal.
    - **Bid.** The cheapest legal total; among bids of that total, the one of the largest
      action id (its largest cards, usually the fewest). For Faux Pas it discards its
      lowest luxury card.

    How it fares against a seat that always passes, three classic bots and a mixed table:
    the tournaments of docs/bots.md, each with its command. :meth:`choose_with` is the
    decision for a given draw (the batch engine's compiled copy is tied to it by a
    differential test).

    Raises:
        InvalidConfigError: ``boldness`` is not a finite number > 0.
    """

    #: Largest expected further spending of an opponent, by dark-green cards left (0 to 4+).
    SLACK = (0.0, 8.0, 16.0, 26.0, 34.0)
    #: Status points to money, for luxury cards.
    LUXURY_RATE = 1.4
    #: The spending an opponent is assumed to have made before the first auction.
    PRIOR_SPENDING = 10.0
    #: How far either way the seeded draw moves a price.
    NOISE = 0.1

    def __init__(self, seed: int | None = None, *, boldness: float = 1.0) -> None:
        self._random = random.Random(seed).random
        self._boldness = _boldness(boldness)

    def choose(self, state: GameState) -> Action:
        """This bot's action for the seat that must act.

        Raises:
            NoSeatToActError: no seat must act in ``state``.
        """
        _seat(state)
        if state.phase is Phase.AUCTION and state.players[state.turn].hand:
            return self.choose_with(state, self._random())
        return self.choose_with(state, 0.5)

    def choose_with(self, state: GameState, draw: float) -> Action:
        """The action for the seat that must act, with ``draw`` (in ``[0, 1)``) as the
        random draw that scales the price (``0.5`` leaves it as it is).

        Raises:
            NoSeatToActError: no seat must act in ``state``.
        """
        seat, bids, forced = _bids_or_forced(state)
        if forced is not None:
            return forced
        total = bids[0].total
        new_total = state.players[seat].bid + total
        price = self.price(state, seat) * (1.0 + self.NOISE * (2.0 * draw - 1.0))
        if new_total > price or not self.affordable(state, seat, new_total):
            return Pass(seat)
        return _cheapest(bids, state.config)

    def price(self, state: GameState, seat: int) -> float:
        """The most ``seat`` would have face up to take (or avoid) the card on auction,
        before the draw."""
        card = state.auction
        assert card is not None
        mine = status_of(state.players[seat].status_cards)
        factor = 2.0**mine.prestige * (0.5 if mine.scandale else 1.0)
        luxury = float(max(mine.luxury_sum - 5 * mine.passe, 0))
        kind = card.kind
        match kind:
            case CardKind.LUXURY:
                if mine.holds_faux_pas:
                    return 0.0
                worth = self.LUXURY_RATE * card.luxury_value * factor + 1.0
            case CardKind.PRESTIGE:
                worth = 10.0 + luxury * factor
            case CardKind.DISGRACE:
                if card is StatusCard.PASSE:
                    worth = 5.0 * factor + 1.0
                elif card is StatusCard.FAUX_PAS:
                    lowest = min((c.luxury_value for c in mine.luxury_cards), default=0)
                    worth = lowest * factor + 1.0
                else:
                    worth = luxury * factor / 2.0 + 1.0
            case _:
                assert_never(kind)
        return worth * self._boldness

    def affordable(self, state: GameState, seat: int, new_total: int) -> bool:
        """Paying ``new_total``, ``seat`` keeps more money than the lowest expected final
        money of its opponents (see the class)."""
        ends = sum(1 for c in state.deck if c.is_dark_green)
        cards = len(state.deck)
        slack = self.SLACK[min(ends, 4)]
        # Expected auctions before the last dark-green card: its expected position among
        # the cards left is ends * (cards + 1) / (ends + 1).
        left = ends * (cards + 1) / (ends + 1) - 1.0 if ends else 0.0
        start = sum(state.config.money)
        auctions = state.auctions_started + 1
        lowest = math.inf
        for other, player in enumerate(state.players):
            if other != seat:
                money = player.money
                rate = (start - money + self.PRIOR_SPENDING) / auctions
                lowest = min(lowest, money - min(slack, rate * left))
        return state.players[seat].money - new_total > lowest


class CautiousBot:
    """A careful budget player, for tables that test other bots: it spends at most 40% of
    its starting money in a game and never bids to fall to (or below) the money of its
    poorest opponent. It pays up to 1.2 per luxury point, ``8 + 0.8 * L`` for a prestige
    card (``L`` its luxury sum), up to 3 to avoid a disgrace card, nothing for a luxury
    card a waiting Faux Pas would take (R8); each price moves within 10% either way by a
    seeded draw. It bids the cheapest legal bid; for Faux Pas it discards its lowest
    luxury card.

    Since it never becomes the poorest by its own bid, tables of it alone end with
    everyone tied and cast out (R10): it is an opponent, not a model of good play.
    """

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed).random

    def choose(self, state: GameState) -> Action:
        """The cheapest bid within its price and budget, else ``Pass`` (see the class).

        Raises:
            NoSeatToActError: no seat must act in ``state``.
        """
        return _choose_drawing(state, self._random, self.choose_with)

    def choose_with(self, state: GameState, draw: float) -> Action:
        """The action for the seat that must act, with ``draw`` (in ``[0, 1)``) as the
        random draw that moves the price.

        Raises:
            NoSeatToActError: no seat must act in ``state``.
        """
        seat, bids, forced = _bids_or_forced(state)
        if forced is not None:
            return forced
        me = state.players[seat]
        new_total = me.bid + bids[0].total
        card = state.auction
        assert card is not None
        mine = status_of(me.status_cards)
        if card.kind is CardKind.LUXURY:
            price = 0.0 if mine.holds_faux_pas else 1.2 * card.luxury_value
        elif card.kind is CardKind.PRESTIGE:
            price = 8.0 + 0.8 * mine.luxury_sum
        else:
            price = 3.0
        price *= 0.9 + 0.2 * draw
        poorest = min(p.money for i, p in enumerate(state.players) if i != seat)
        after = me.money - new_total
        if new_total > price or after < 0.6 * sum(state.config.money) or after <= poorest:
            return Pass(seat)
        return bids[0]


class PassBot:
    """Always passes, and discards its lowest luxury card for Faux Pas: the baseline a
    bot must beat to be worth its bids (it keeps all its money, so it is never cast out
    unless everyone ties)."""

    def __init__(self, seed: int | None = None) -> None:
        del seed  # made from a seed like every bot; it has no randomness

    def choose(self, state: GameState) -> Action:
        """``Pass``, or the discard of the lowest luxury card.

        Raises:
            NoSeatToActError: no seat must act in ``state``.
        """
        seat = _seat(state)
        if state.phase is Phase.DISCARD:
            return legal_actions(state)[0]
        return Pass(seat)


class ClassicHeuristicBot:
    """The first heuristic bot of the package, kept for the games that refer to it (the
    ``classic`` entrant). Always passing beats it: in a seat against three of it, a bot
    that always passes wins more often than it does (docs/bots.md).

    A plain player: it prices the card up for auction, bids the cheapest legal
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

    Raises:
        InvalidConfigError: ``boldness`` is not a finite number > 0.
    """

    def __init__(self, seed: int | None = None, *, boldness: float = 1.0) -> None:
        self._rng = random.Random(seed)
        self._boldness = _boldness(boldness)

    def choose(self, state: GameState) -> Action:
        """This bot's action for the seat that must act.

        Raises:
            NoSeatToActError: no seat must act in ``state``.
        """
        return _choose_drawing(state, self._rng.random, self.choose_with)

    def choose_with(self, state: GameState, draw: float) -> Action:
        """The action for the seat that must act, with ``draw`` (in ``[0, 1)``) as the
        random draw that scales the price (``random.uniform(0.8, 1.2)`` made of it, as
        :meth:`choose` draws it).

        Raises:
            NoSeatToActError: no seat must act in ``state``.
        """
        seat, bids, forced = _bids_or_forced(state)
        if forced is not None:
            return forced
        cheapest = bids[0]
        me = state.players[seat]
        new_total = me.bid + cheapest.total
        price = self._price(state, seat, draw)
        if new_total <= price and self._can_afford(state, seat, new_total):
            return cheapest
        return Pass(seat)

    def _price(self, state: GameState, seat: int, draw: float) -> float:
        """The most this seat would have face up to take (or avoid) the card."""
        card = state.auction
        assert card is not None
        mine = status_of(state.players[seat].status_cards)
        # random.uniform(0.8, 1.2), as the bot always drew it.
        noise = (0.8 + (1.2 - 0.8) * draw) * self._boldness
        kind = card.kind
        match kind:
            case CardKind.LUXURY:
                if mine.holds_faux_pas:  # in an auction, it waits for a luxury card
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

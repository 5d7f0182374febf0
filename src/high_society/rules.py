"""The reducer and the questions a client asks of a state.

``apply(state, action) -> state`` is the centre: it never changes its input, and it raises
:class:`~high_society.IllegalActionError` on anything that is not legal. Everything else
here answers a question about one state: who acts (:func:`to_act`), what they may do
(:func:`legal_actions`, :func:`is_legal`, :func:`why_illegal`, :func:`min_bid_total`) and
what chance may reveal (:func:`chance_outcomes`).
"""

import enum
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Final, assert_never, overload

from high_society._bidtable import TABLES, BidTable, bid_table
from high_society._fast import game_state, player_state, set_highest_bid, with_card
from high_society._text import short_repr
from high_society.actions import Action, Bid, Discard, Pass, Reveal
from high_society.cards import (
    LUXURY,
    MAX_PLAYERS,
    MIN_PLAYERS,  # noqa: F401 (the CrossHair contracts)
    STANDARD,
    GameConfig,
    StatusCard,
    check_players,
    sort_cards,
)
from high_society.errors import IllegalActionError, InvalidConfigError, OutOfRangeError, Reason
from high_society.invariants import cards_in_place  # noqa: F401 (the CrossHair contracts)
from high_society.state import GameState, Phase, PlayerState

__all__ = [
    "CHANCE",
    "Chance",
    "LegalActions",
    "apply",
    "chance_outcomes",
    "is_legal",
    "legal_actions",
    "min_bid_total",
    "new_game",
    "to_act",
    "why_illegal",
]

_FAUX_PAS = StatusCard.FAUX_PAS
_PASSE = StatusCard.PASSE
_LUXURY = LUXURY
_NOTHING: frozenset[int] = frozenset()
_PRESTIGE = StatusCard.PRESTIGE
_SCANDALE = StatusCard.SCANDALE
_REVEAL = Phase.REVEAL
_AUCTION = Phase.AUCTION
_DISCARD = Phase.DISCARD
_OVER = Phase.OVER


class Chance(enum.Enum):
    """The type of :data:`CHANCE`, the actor that reveals status cards (R4)."""

    CHANCE = "chance"


#: Returned by :func:`to_act` when a status card must be revealed.
CHANCE: Final = Chance.CHANCE


def new_game(players: int, config: GameConfig = STANDARD) -> GameState:
    """The state before the first reveal: every seat holds all its money, seat 0 starts (R3).

    >>> state = new_game(4)
    >>> state.num_players, sorted(state.players[0].hand) == list(STANDARD.money)
    (4, True)
    >>> to_act(state)
    <Chance.CHANCE: 'chance'>

    Raises:
        InvalidConfigError: ``players`` is not an int from 3 to 5 (R3), or ``config`` is
            not a :class:`~high_society.GameConfig` (``None`` included).
    """
    check_players(players)
    if not isinstance(config, GameConfig):
        raise InvalidConfigError(f"config must be a GameConfig, not {short_repr(config)}")
    seat = PlayerState(hand=frozenset(config.money))
    return GameState(config=config, players=(seat,) * players, deck=config.deck)


def to_act(state: GameState) -> int | Chance | None:
    """Who acts next: a seat, :data:`CHANCE` when a card must be revealed, ``None`` at the end.

    >>> state = apply(new_game(3), Reveal(StatusCard.LUXURY_5))
    >>> to_act(state)
    0
    """
    phase = state.phase
    if phase is _AUCTION or phase is _DISCARD:
        return state.turn
    if phase is _REVEAL:
        return CHANCE
    return None


def min_bid_total(state: GameState) -> int | None:
    """The lowest face-up total that a bid must reach now (R5), or ``None`` outside an auction.

    A bid is legal when the bidder's face-up cards plus the cards added reach this total.

    >>> min_bid_total(apply(new_game(3), Reveal(StatusCard.PASSE)))
    1
    """
    if state.phase is not _AUCTION:
        return None
    return state.highest_bid + 1


def chance_outcomes(state: GameState) -> tuple[tuple[Reveal, Fraction], ...]:
    """The cards chance may reveal, each with its probability (cards left are equally likely).

    Empty unless a reveal is due. The three prestige cards are one outcome of weight 3/n.

    >>> outcomes = chance_outcomes(new_game(3))
    >>> len(outcomes), dict(outcomes)[Reveal(StatusCard.PRESTIGE)]
    (14, Fraction(3, 16))
    """
    if state.phase is not _REVEAL:
        return ()
    deck = state.deck
    n = len(deck)
    return tuple((Reveal(card), Fraction(deck.count(card), n)) for card in _distinct(deck))


def _distinct(cards: tuple[StatusCard, ...]) -> tuple[StatusCard, ...]:
    return tuple(dict.fromkeys(cards))


_PASSES = tuple(Pass(seat) for seat in range(MAX_PLAYERS))


class LegalActions(Sequence[Action]):
    """Every legal action in one state, as a lazy, read-only sequence.

    Nothing is built until asked for: ``len``, ``in``, indexing and iteration are cheap
    even when a full hand gives 2,047 legal bids. The order is deterministic: in an
    auction ``Pass`` first, then the bids by the total they add, lowest first (ties by
    their cards in ascending order); in a discard the luxury cards lowest first; for a
    reveal, the distinct cards of the deck in canonical order. Empty once the game is over.
    An index past either end raises :class:`~high_society.OutOfRangeError` (an
    :class:`IndexError`, as a sequence should).

    ``action in legal`` agrees with :func:`is_legal` for any object.

    >>> state = apply(new_game(3), Reveal(StatusCard.LUXURY_5))
    >>> legal = legal_actions(state)
    >>> len(legal), legal[0], legal[1], legal.min_total
    (2048, Pass(seat=0), Bid(seat=0, cards=frozenset({1})), 1)
    """

    __slots__ = (
        "_fixed",
        "_nfixed",
        "_seat",
        "_size",
        "_start",
        "_state",
        "_table",
        "min_total",
    )

    def __init__(self, state: GameState) -> None:
        self._state = state
        seat = self._seat = state.turn
        phase = state.phase
        if phase is _AUCTION:
            # The hot path of every search: one cached table, one bisection, nothing built.
            players = state.players
            player = players[seat]
            try:
                table = TABLES[player.hand]
            except KeyError:
                table = bid_table(player.hand)
            self._table: BidTable | None = table
            highest = state.highest_bid
            #: The lowest face-up total a bid must reach now (see :func:`min_bid_total`).
            self.min_total: int | None = highest + 1
            above = highest - sum(player.table)
            starts = table.starts
            start = self._start = (
                starts[above] if 0 <= above < len(starts) else bisect_right(table.totals, above)
            )
            self._fixed: tuple[Action, ...] | None = None  # (Pass(seat),), built when asked
            self._nfixed = 1
            self._size = 1 + len(table.totals) - start
            return
        self._table = None
        self._start = 0
        self.min_total = None
        if phase is _REVEAL:
            fixed: tuple[Action, ...] = tuple(Reveal(card) for card in _distinct(state.deck))
        elif phase is _DISCARD:
            owner = state.players[seat]
            fixed = tuple(Discard(seat, card) for card in owner.luxury_cards)
        else:
            fixed = ()
        self._fixed = fixed
        self._size = self._nfixed = len(fixed)

    def _fixed_actions(self) -> tuple[Action, ...]:
        fixed = self._fixed
        if fixed is None:
            seat = self._seat
            # Actions are values: one shared Pass per seat serves every auction.
            fixed = self._fixed = (_PASSES[seat] if 0 <= seat < MAX_PLAYERS else Pass(seat),)
        return fixed

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        nfixed = self._nfixed
        if type(index) is int and 0 <= index < self._size:  # the common case, first
            if index >= nfixed:
                table = self._table
                assert table is not None
                return Bid(self._seat, table.cards_at(self._start + index - nfixed))
            fixed = self._fixed
            return (fixed if fixed is not None else self._fixed_actions())[index]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._size))]
        index = _in_range(index, self._size, "legal action")
        if index < nfixed:
            return self._fixed_actions()[index]
        assert self._table is not None
        return Bid(self._seat, self._table.cards_at(self._start + index - nfixed))

    def __iter__(self) -> Iterator[Action]:
        yield from self._fixed_actions()
        yield from self.bids()

    def __contains__(self, action: object) -> bool:
        return _check(self._state, action) is None

    def bids(self) -> Sequence[Bid]:
        """The bids alone (no ``Pass``), in the same order: a lazy view like this one,
        empty outside an auction."""
        return _Bids(self._state, self._seat, self._table, self._start)

    def __repr__(self) -> str:
        return f"<LegalActions: {len(self)} actions>"


def _in_range(index: int, size: int, what: str) -> int:
    """``index`` of a sequence of ``size``, negative ones counted from the end.

    Raises:
        OutOfRangeError: the index is past either end.
    """
    if index < 0:
        index += size
    if not 0 <= index < size:
        raise OutOfRangeError(f"{what} index out of range")
    return index


class _Bids(Sequence[Bid]):
    """The bids of a :class:`LegalActions`, read from its bid table without building them
    (see ``bids()``): the entries of ``table`` from ``start`` on."""

    __slots__ = ("_seat", "_size", "_start", "_state", "_table")

    def __init__(self, state: GameState, seat: int, table: BidTable | None, start: int) -> None:
        self._state = state
        self._seat = seat
        self._table = table
        self._start = start
        self._size = len(table.totals) - start if table is not None else 0

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, index: int) -> Bid: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Bid]: ...

    def __getitem__(self, index: int | slice) -> Bid | Sequence[Bid]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._size))]
        index = _in_range(index, self._size, "bid")
        assert self._table is not None  # else the size is 0
        return Bid(self._seat, self._table.cards_at(self._start + index))

    def __iter__(self) -> Iterator[Bid]:
        table = self._table
        if table is not None:
            seat = self._seat
            for i in range(self._start, len(table.totals)):
                yield Bid(seat, table.cards_at(i))

    def __contains__(self, action: object) -> bool:
        return type(action) is Bid and _check(self._state, action) is None

    def __repr__(self) -> str:
        return f"<bids: {self._size} actions>"


def legal_actions(state: GameState) -> LegalActions:
    """Every legal action now, as a lazy sequence (see :class:`LegalActions`).

    >>> len(legal_actions(new_game(3)))  # 14 distinct cards may be revealed
    14
    """
    return LegalActions(state)


def is_legal(state: GameState, action: object) -> bool:
    """Whether ``apply(state, action)`` would succeed. Accepts any object; never raises.

    >>> is_legal(new_game(3), Reveal(StatusCard.PRESTIGE)), is_legal(new_game(3), "bid")
    (True, False)
    """
    return _check(state, action) is None


def why_illegal(state: GameState, action: object) -> IllegalActionError | None:
    """The error ``apply(state, action)`` would raise, or ``None`` if the action is legal.

    >>> why_illegal(new_game(3), Pass(5)).reason
    <Reason.INVALID_SEAT: 'INVALID_SEAT'>
    """
    problem = _check(state, action)
    if problem is None:
        return None
    reason, template, seats = problem
    return IllegalActionError(reason, state, action, template, seats)


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``. ``state`` itself is never changed.

    >>> state = apply(new_game(3), Reveal(StatusCard.LUXURY_5))
    >>> state = apply(state, Bid(0, frozenset({3})))
    >>> state.players[0].table, to_act(state)
    (frozenset({3}), 1)

    Raises:
        IllegalActionError: the action is not legal here; its ``reason`` says why.
    """
    problem = _check(state, action)
    if problem is not None:
        reason, template, seats = problem
        raise IllegalActionError(reason, state, action, template, seats)
    return _apply_legal(state, action)


# --- Legality -------------------------------------------------------------------------------

_Problem = tuple[Reason, str, tuple[int, ...]]


def _esc(text: object) -> str:
    """Text for a message template: seats are ``{0}``, ``{1}`` ..., so braces are doubled."""
    return str(text).replace("{", "{{").replace("}", "}}")


def _check(state: GameState, action: object) -> _Problem | None:
    """The first reason ``action`` is illegal in ``state`` (see :class:`Reason`), or None."""
    # Fast paths: the common legal bids, passes and reveals are recognised with a few
    # tests. Anything they do not accept goes through the full checks below, which find
    # the first reason in the fixed order.
    if type(action) is Bid:
        seat = action.seat
        players = state.players
        # Types first: comparing a hostile object may run its own __eq__.
        if (
            type(seat) is int
            and state.phase is _AUCTION
            and seat == state.turn
            and 0 <= seat < len(players)
        ):
            player = players[seat]
            cards = action.cards
            if not player.passed and type(cards) is frozenset and cards:
                for card in cards:
                    if type(card) is not int:  # True == 1 and 2.0 == 2 pass the set tests
                        break
                else:
                    if (
                        cards <= player.hand
                        and cards <= _money_set(state.config)
                        and sum(player.table) + sum(cards) > state.highest_bid
                    ):
                        return None
    elif type(action) is Pass:
        seat = action.seat
        players = state.players
        if (
            type(seat) is int
            and state.phase is _AUCTION
            and seat == state.turn
            and 0 <= seat < len(players)
            and not players[seat].passed
        ):
            return None
    elif (
        type(action) is Reveal
        and state.phase is _REVEAL
        and type(action.card) is StatusCard
        and action.card in state.deck
    ):
        return None
    kind = type(action)
    if kind is Bid or kind is Pass or kind is Discard:
        assert isinstance(action, Bid | Pass | Discard)
        return _check_player_action(state, action)
    if kind is Reveal:
        assert isinstance(action, Reveal)
        return _check_reveal(state, action)
    return (
        Reason.NOT_AN_ACTION,
        f"{_esc(short_repr(action))} is not an action: expected Reveal, Bid, Pass or Discard",
        (),
    )


def _check_reveal(state: GameState, action: Reveal) -> _Problem | None:
    card: object = action.card  # actions are built unchecked: the type is not yet known
    if not isinstance(card, StatusCard):
        return (
            Reason.INVALID_CARD,
            f"cannot reveal {_esc(short_repr(card))}: not a status card",
            (),
        )
    if state.phase is _OVER:
        return (Reason.GAME_OVER, f"cannot reveal {card.label}: the game is over", ())
    if state.phase is not _REVEAL:
        return (
            Reason.REVEAL_NOT_DUE,
            f"cannot reveal {card.label}: {{0}} must act first",
            (state.turn,),
        )
    if card not in state.deck:
        return (
            Reason.CARD_NOT_IN_DECK,
            f"cannot reveal {card.label}: it is not in the deck",
            (),
        )
    return None


_VERB = {Bid: "bid", Pass: "pass", Discard: "discard"}
#: The configuration asked about last, with its money as a set. One tuple, replaced whole,
#: so no reader pairs one configuration with another's money; compared by identity, since
#: hashing a GameConfig is a Python-level call.
_LAST_MONEY: tuple[GameConfig | None, frozenset[int]] = (None, frozenset())


def _money_set(config: GameConfig) -> frozenset[int]:
    """``frozenset(config.money)``, kept for the configuration asked about last."""
    global _LAST_MONEY
    last = _LAST_MONEY
    if last[0] is config:
        return last[1]
    money = frozenset(config.money)
    _LAST_MONEY = (config, money)
    return money


def _check_player_action(state: GameState, action: Bid | Pass | Discard) -> _Problem | None:
    seat = action.seat
    verb = _VERB[type(action)]
    n = len(state.players)
    if type(seat) is not int or not 0 <= seat < n:
        return (
            Reason.INVALID_SEAT,
            f"cannot {verb}: {_esc(short_repr(seat))} is not a seat (seats are 0 to {n - 1})",
            (),
        )
    problem = _check_shape(state, action)
    if problem is not None:
        return problem
    phase = state.phase
    if phase is _OVER:
        return (Reason.GAME_OVER, f"{{0}} cannot {verb}: the game is over", (seat,))
    if phase is _REVEAL:
        return (
            Reason.REVEAL_DUE,
            f"{{0}} cannot {verb}: a status card must be revealed first",
            (seat,),
        )
    discarding = type(action) is Discard
    if phase is _AUCTION:
        if discarding:
            return (
                Reason.NO_DISCARD_DUE,
                "{0} cannot discard: no Faux Pas discard is due",
                (seat,),
            )
        if state.players[seat].passed:
            return (
                Reason.ALREADY_PASSED,
                f"{{0}} cannot {verb}: they passed earlier in this auction",
                (seat,),
            )
    if seat != state.turn:
        return (
            Reason.NOT_YOUR_TURN,
            f"{{0}} cannot {verb}: it is {{1}}'s turn",
            (seat, state.turn),
        )
    if phase is _DISCARD and not discarding:
        return (
            Reason.DISCARD_DUE,
            f"{{0}} cannot {verb}: they must first discard a luxury card for Faux Pas",
            (seat,),
        )
    if type(action) is Bid:
        return _check_bid(state, action)
    if type(action) is Discard and action.card not in state.players[seat].luxury_cards:
        return (
            Reason.NOT_A_LUXURY_YOU_OWN,
            f"{{0}} cannot discard {action.card.label}: it is not a luxury card they own",
            (seat,),
        )
    return None


def _check_shape(state: GameState, action: Bid | Pass | Discard) -> _Problem | None:
    """What is wrong with the action's cards whatever the state: types and known values."""
    if type(action) is Discard:
        card: object = action.card
        if not isinstance(card, StatusCard):
            return (
                Reason.INVALID_CARD,
                f"{{0}} cannot discard {_esc(short_repr(card))}: not a status card",
                (action.seat,),
            )
    elif type(action) is Bid:
        cards = action.cards
        if type(cards) is not frozenset:
            return (
                Reason.INVALID_CARD,
                f"{{0}} cannot bid {_esc(short_repr(cards))}: bid cards must be a frozenset of"
                " money values",
                (action.seat,),
            )
        money = state.config.money
        for card in cards:
            if type(card) is not int or card not in money:
                return (
                    Reason.INVALID_CARD,
                    f"{{0}} cannot bid {_esc(short_repr(card))}: there is no such money card"
                    f" (the money cards are {', '.join(map(str, money))})",
                    (action.seat,),
                )
        if not cards:
            return (
                Reason.EMPTY_BID,
                "{0} cannot bid nothing: a bid adds at least one card",
                (action.seat,),
            )
    return None


def _check_bid(state: GameState, action: Bid) -> _Problem | None:
    """R5 for a bid whose seat, turn and cards are already known to be valid.

    pre: MIN_PLAYERS <= len(state.players) <= MAX_PLAYERS
    pre: 0 <= action.seat < len(state.players)
    pre: cards_in_place(state)
    post: (__return__ is None) == (action.cards <= state.players[action.seat].hand and action.cards.isdisjoint(state.players[action.seat].table) and sum(state.players[action.seat].table) + sum(action.cards) > state.highest_bid)
    """  # noqa: E501 (a PEP 316 condition is one line)
    seat = action.seat
    cards = action.cards
    player = state.players[seat]
    if not cards.isdisjoint(player.table):
        again = ", ".join(map(str, sorted(cards & player.table)))
        return (
            Reason.CARD_ALREADY_BID,
            f"{{0}} cannot bid {again} again: already face up this round (a bid only adds cards)",
            (seat,),
        )
    if not cards <= player.hand:
        missing = ", ".join(map(str, sorted(cards - player.hand)))
        return (
            Reason.CARD_NOT_IN_HAND,
            f"{{0}} cannot bid {missing}: not in their hand (spent earlier)",
            (seat,),
        )
    new_total = sum(player.table) + sum(cards)
    highest = state.highest_bid
    if new_total <= highest:
        shown = ", ".join(map(str, sorted(cards)))
        raise_ = f" (adding {shown} to {sum(player.table)})" if player.table else ""
        return (
            Reason.BID_TOO_LOW,
            f"{{0}} cannot bid {new_total}{raise_}: the highest bid is {highest}",
            (seat,),
        )
    return None


# --- Transitions ----------------------------------------------------------------------------


def _apply_legal(state: GameState, action: Action) -> GameState:
    # Class patterns without sub-patterns, most frequent first: binding fields through
    # ``__match_args__`` costs more than the transition itself.
    match action:
        case Pass():
            return _pass(state, action.seat)
        case Bid():
            return _bid(state, action.seat, action.cards)
        case Reveal():
            return _reveal(state, action.card)
        case Discard():
            return _discard(state, action.seat, action.card)
        case _:
            assert_never(action)


def _reveal(state: GameState, card: StatusCard) -> GameState:
    """R4, R9: turn ``card`` face up. Contracts checked by CrossHair (docs/verification.md):

    pre: MIN_PLAYERS <= len(state.players) <= MAX_PLAYERS
    pre: state.phase is Phase.REVEAL and card in state.deck
    pre: state.deck == sort_cards(state.deck)
    pre: cards_in_place(state)
    post: sort_cards((*__return__.deck, card)) == state.deck
    post: __return__.players == state.players and __return__.removed == state.removed
    post: (__return__.phase is Phase.OVER) == (card.is_dark_green and not any(c.is_dark_green for c in __return__.deck))
    post: __return__.phase is Phase.OVER or (__return__.auction is card and __return__.turn == state.turn)
    """  # noqa: E501 (a PEP 316 condition is one line)
    deck = state.deck
    i = deck.index(card)
    deck = deck[:i] + deck[i + 1 :]
    if (card is _PRESTIGE or card is _SCANDALE) and _PRESTIGE not in deck and _SCANDALE not in deck:
        # R9: the last dark-green card ends the game at once and goes to nobody.
        return game_state(
            config=state.config,
            players=state.players,
            deck=deck,
            phase=_OVER,
            turn=state.turn,
            auction=None,
            removed=state.removed,
            ending_card=card,
        )
    new = game_state(
        config=state.config,
        players=state.players,
        deck=deck,
        phase=_AUCTION,
        turn=state.turn,
        auction=card,
        removed=state.removed,
        ending_card=None,
    )
    set_highest_bid(new, state.highest_bid)  # the same tables
    return new


def _bid(state: GameState, seat: int, cards: frozenset[int]) -> GameState:
    """R5: ``seat`` adds ``cards`` to their face-up cards. Contracts checked by CrossHair
    (the preconditions restate what ``_check`` accepts, in terms CrossHair can solve):

    pre: MIN_PLAYERS <= len(state.players) <= MAX_PLAYERS
    pre: state.phase is Phase.AUCTION and 0 <= seat < len(state.players) and seat == state.turn
    pre: not state.players[seat].passed
    pre: cards and cards <= state.players[seat].hand
    pre: state.players[seat].hand.isdisjoint(state.players[seat].table)
    pre: sum(state.players[seat].table) + sum(cards) > state.highest_bid
    pre: cards_in_place(state)
    post: __return__.highest_bid > state.highest_bid
    post: __return__.players[seat].table == state.players[seat].table | cards
    post: __return__.players[seat].hand.isdisjoint(__return__.players[seat].table)
    post: all(p.hand | p.table | p.spent == q.hand | q.table | q.spent for p, q in zip(state.players, __return__.players))
    post: all(p == q for i, (p, q) in enumerate(zip(state.players, __return__.players)) if i != seat)
    post: __return__.phase is Phase.AUCTION and not __return__.players[__return__.turn].passed
    """  # noqa: E501 (a PEP 316 condition is one line)
    players = state.players
    p = players[seat]
    table = p.table | cards
    bidder = player_state(
        hand=p.hand - cards, table=table, spent=p.spent, passed=False, status_cards=p.status_cards
    )
    seats = list(players)
    seats[seat] = bidder
    players = tuple(seats)
    # Only the bidder's total changed, and it only grew.
    highest = max(state.highest_bid, sum(table))
    return _auction_goes_on(state, players, _next_seat_in(players, seat), highest)


def _pass(state: GameState, seat: int) -> GameState:
    """R6, R7: ``seat`` passes. Contracts checked by CrossHair:

    pre: MIN_PLAYERS <= len(state.players) <= MAX_PLAYERS
    pre: state.phase is Phase.AUCTION and 0 <= seat < len(state.players) and seat == state.turn
    pre: state.auction is not None and not state.players[seat].passed
    pre: sum(not p.passed for p in state.players) >= 2
    pre: cards_in_place(state)
    post: all(p.hand | p.table | p.spent == q.hand | q.table | q.spent for p, q in zip(state.players, __return__.players))
    post: all(p.spent <= q.spent for p, q in zip(state.players, __return__.players))
    post: sort_cards([c for p in __return__.players for c in p.status_cards] + [*__return__.removed]) == sort_cards([c for p in state.players for c in p.status_cards] + [*state.removed, state.auction])  or __return__.phase is Phase.AUCTION
    post: not state.auction.is_disgrace or __return__.phase is not Phase.AUCTION
    post: __return__.phase is not Phase.AUCTION or (__return__.players[seat].passed and not __return__.players[seat].table)
    post: __return__.phase is not Phase.AUCTION or __return__.highest_bid <= state.highest_bid
    """  # noqa: E501 (a PEP 316 condition is one line)
    card = state.auction
    assert card is not None
    if card is _PASSE or card is _SCANDALE or card is _FAUX_PAS:  # R7 (not a set: no hashing)
        return _end_disgrace_auction(state, seat, card)
    p = state.players[seat]
    hand = p.hand | p.table if p.table else p.hand
    passer = player_state(
        hand=hand, table=_NOTHING, spent=p.spent, passed=True, status_cards=p.status_cards
    )
    seats = list(state.players)
    seats[seat] = passer
    players = tuple(seats)
    nxt = _next_seat_in(players, seat)
    if _next_seat_in(players, nxt) == nxt:  # R6: the last player in takes the card
        return _end_normal_auction(state, players, nxt, card)
    highest = state.highest_bid
    if p.table and sum(p.table) >= highest:  # the passer held the highest bid: work it out
        return _auction_goes_on(state, players, nxt, None)
    return _auction_goes_on(state, players, nxt, highest)


def _next_seat_in(players: tuple[PlayerState, ...], seat: int) -> int:
    """The first seat after ``seat`` that has not passed (``seat`` itself if all others have)."""
    n = len(players)
    nxt = (seat + 1) % n
    while players[nxt].passed:  # only a normal auction has passed players (R6)
        nxt = (nxt + 1) % n
    return nxt


def _auction_goes_on(
    state: GameState, players: tuple[PlayerState, ...], turn: int, highest: int | None
) -> GameState:
    """The auction of ``state`` with ``players``, ``turn`` to act; ``highest`` is the new
    highest bid when the caller knows it (``None``: worked out on first use)."""
    new = game_state(
        config=state.config,
        players=players,
        deck=state.deck,
        phase=_AUCTION,
        turn=turn,
        auction=state.auction,
        removed=state.removed,
        ending_card=None,
    )
    if highest is not None:
        set_highest_bid(new, highest)
    return new


def _end_normal_auction(
    state: GameState, players: tuple[PlayerState, ...], winner: int, card: StatusCard
) -> GameState:
    """R6: the last player in pays with their face-up cards and takes the card."""
    removed = state.removed
    new_players = []
    face_up = False
    for i, p in enumerate(players):
        if i != winner:
            face_up = face_up or bool(p.table)
            new_players.append(
                player_state(
                    hand=p.hand,
                    table=p.table,
                    spent=p.spent,
                    passed=False,
                    status_cards=p.status_cards,
                )
            )
            continue
        owned = p.status_cards
        if _FAUX_PAS in owned and card in _LUXURY:
            # R8: a pending Faux Pas takes this luxury card at once, and both leave the game.
            owned = tuple(c for c in owned if c is not _FAUX_PAS)
            removed = sort_cards((*removed, _FAUX_PAS, card))
        else:
            owned = with_card(owned, card)
        new_players.append(
            player_state(
                hand=p.hand,
                table=_NOTHING,
                spent=p.spent | p.table,
                passed=False,
                status_cards=owned,
            )
        )
    new = game_state(
        config=state.config,
        players=tuple(new_players),
        deck=state.deck,
        phase=_REVEAL,
        turn=winner,
        auction=None,
        removed=removed,
        ending_card=None,
    )
    if not face_up:  # always so: the others passed and took their cards back
        set_highest_bid(new, 0)
    return new


def _end_disgrace_auction(state: GameState, passer: int, card: StatusCard) -> GameState:
    """R7: the first pass ends it; the passer takes their cards back and the disgrace card."""
    new_players = []
    for i, p in enumerate(state.players):
        if i == passer:
            owned = with_card(p.status_cards, card)
            new_players.append(
                player_state(
                    hand=p.hand | p.table,
                    table=_NOTHING,
                    spent=p.spent,
                    passed=False,
                    status_cards=owned,
                )
            )
        elif p.table or p.passed:
            new_players.append(
                player_state(
                    hand=p.hand,
                    table=_NOTHING,
                    spent=p.spent | p.table,
                    passed=False,
                    status_cards=p.status_cards,
                )
            )
        else:  # nothing face up, not passed: the seat is unchanged
            new_players.append(p)
    # R8: with luxury cards to lose, the discard is the player's own next action.
    taker = new_players[passer]
    phase = _DISCARD if card is _FAUX_PAS and taker.luxury_cards else _REVEAL
    new = game_state(
        config=state.config,
        players=tuple(new_players),
        deck=state.deck,
        phase=phase,
        turn=passer,
        auction=None,
        removed=state.removed,
        ending_card=None,
    )
    set_highest_bid(new, 0)  # every seat's face-up cards are gone
    return new


def _discard(state: GameState, seat: int, card: StatusCard) -> GameState:
    """R8: ``seat`` discards ``card`` for Faux Pas. Contracts checked by CrossHair:

    pre: MIN_PLAYERS <= len(state.players) <= MAX_PLAYERS
    pre: state.phase is Phase.DISCARD and 0 <= seat < len(state.players) and seat == state.turn
    pre: StatusCard.FAUX_PAS in state.players[seat].status_cards
    pre: card.is_luxury and card in state.players[seat].status_cards
    pre: cards_in_place(state)
    post: sort_cards([c for p in __return__.players for c in p.status_cards] + [*__return__.removed]) == sort_cards([c for p in state.players for c in p.status_cards] + [*state.removed])
    post: card not in __return__.players[seat].status_cards and StatusCard.FAUX_PAS not in __return__.players[seat].status_cards
    post: __return__.phase is Phase.REVEAL and __return__.turn == seat
    """  # noqa: E501 (a PEP 316 condition is one line)
    players = state.players
    p = players[seat]
    owned = list(p.status_cards)
    owned.remove(card)  # one of each, whatever else the seat holds
    owned.remove(_FAUX_PAS)
    player = player_state(
        hand=p.hand, table=p.table, spent=p.spent, passed=p.passed, status_cards=tuple(owned)
    )
    return game_state(
        config=state.config,
        players=(*players[:seat], player, *players[seat + 1 :]),
        deck=state.deck,
        phase=_REVEAL,
        turn=seat,
        auction=None,
        removed=sort_cards((*state.removed, _FAUX_PAS, card)),
        ending_card=None,
    )

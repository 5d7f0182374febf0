"""The rules: the reducer and the questions a client asks of a state.

``apply(state, action) -> state`` is the centre: it never changes its input, and it raises
:class:`~high_society.IllegalActionError` on anything that is not legal. Everything else
here answers a question about one state: who acts (:func:`to_act`), what they may do
(:func:`legal_actions`, :func:`is_legal`, :func:`why_illegal`, :func:`min_bid_total`) and
what chance may reveal (:func:`chance_outcomes`).

The module reads in the order of the rules: the start of a game, then legality as the
checks in their fixed order, then one transition per action (:class:`Reveal` R4 and R9,
:class:`Bid` R5, :class:`Pass` R6 and R7, :class:`Discard` R8), then the legal actions
listed. The rulings R1-R14 are stated in docs/rulings.md. Each transition carries its
contract, one line per condition, naming a predicate of ``high_society._contracts``; the
speed tricks are named helpers of ``high_society._fast``.
"""

import enum
import operator
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Final, assert_never, overload

from high_society._bidtable import TABLES, BidTable, bid_table
from high_society._contracts import (
    adds_to_table,
    bid_follows_r5,
    bid_is_legal,
    bid_to_check,
    card_goes_to_taker,
    conserves_money,
    conserves_status_cards,
    discard_is_legal,
    discards_one_with_faux_pas,
    discards_only_the_card,
    disgrace_ends_at_first_pass,
    ended_auction_gives_its_card,
    ends_on_last_dark_green,
    hand_and_table_apart,
    highest_bid_not_raised,
    keeps_seats_and_removed,
    next_round_starts_right,
    next_seat_after,
    next_seat_is_in,
    opens_auction_unless_over,
    others_unchanged,
    pass_is_legal,
    passer_is_out,
    pays_as_r6_r7,
    raises_highest_bid,
    reveal_due_from,
    reveal_is_legal,
    spent_stays_spent,
    takes_from_deck,
    waiting_faux_pas_takes_a_luxury_card,
)
from high_society._fast import (
    AUCTION,
    DISCARD,
    FAUX_PAS,
    NO_MONEY,
    OVER,
    PASSE,
    PRESTIGE,
    REVEAL,
    SCANDALE,
    evolve_player,
    evolve_state,
    next_turn,
    plainly_legal,
    set_highest_bid,
    shared_pass,
    with_card,
)
from high_society._text import short_repr
from high_society.actions import Action, Bid, Discard, Pass, Reveal
from high_society.cards import STANDARD, GameConfig, StatusCard, check_players, sort_cards
from high_society.errors import IllegalActionError, InvalidConfigError, OutOfRangeError, Reason
from high_society.state import GameState, PlayerState

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


class Chance(enum.Enum):
    """The type of :data:`CHANCE`, the actor that reveals status cards (R4)."""

    CHANCE = "chance"


#: Returned by :func:`to_act` when a status card must be revealed.
CHANCE: Final = Chance.CHANCE


# --- The start, and who acts -----------------------------------------------------------------


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
    if phase is AUCTION or phase is DISCARD:
        return state.turn
    if phase is REVEAL:
        return CHANCE
    return None


def min_bid_total(state: GameState) -> int | None:
    """The lowest face-up total that a bid must reach now (R5), or ``None`` outside an auction.

    A bid is legal when the bidder's face-up cards plus the cards added reach this total.

    >>> min_bid_total(apply(new_game(3), Reveal(StatusCard.PASSE)))
    1
    """
    if state.phase is not AUCTION:
        return None
    return state.highest_bid + 1


def chance_outcomes(state: GameState) -> tuple[tuple[Reveal, Fraction], ...]:
    """The cards chance may reveal, each with its probability (cards left are equally likely).

    Empty unless a reveal is due. The three prestige cards are one outcome of weight 3/n.

    >>> outcomes = chance_outcomes(new_game(3))
    >>> len(outcomes), dict(outcomes)[Reveal(StatusCard.PRESTIGE)]
    (14, Fraction(3, 16))
    """
    if state.phase is not REVEAL:
        return ()
    deck = state.deck
    n = len(deck)
    return tuple((Reveal(card), Fraction(deck.count(card), n)) for card in _distinct(deck))


def _distinct(cards: tuple[StatusCard, ...]) -> tuple[StatusCard, ...]:
    return tuple(dict.fromkeys(cards))


# --- Applying an action ----------------------------------------------------------------------


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``. ``state`` itself is never changed.

    >>> state = apply(new_game(3), Reveal(StatusCard.LUXURY_5))
    >>> state = apply(state, Bid(0, frozenset({3})))
    >>> state.players[0].table, to_act(state)
    (frozenset({3}), 1)

    Raises:
        IllegalActionError: the action is not legal here; its ``reason`` says why.
    """
    if not plainly_legal(state, action):  # most legal actions skip the ordered checks
        problem = _check(state, action)
        if problem is not None:
            reason, template, seats = problem
            raise IllegalActionError(reason, state, action, template, seats)
    # The transitions below, one per action. Class patterns only, most frequent first:
    # binding fields through ``__match_args__`` costs more than the transition itself.
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


def is_legal(state: GameState, action: object) -> bool:
    """Whether ``apply(state, action)`` would succeed. Accepts any object; never raises.

    >>> is_legal(new_game(3), Reveal(StatusCard.PRESTIGE)), is_legal(new_game(3), "bid")
    (True, False)
    """
    return plainly_legal(state, action) or _check(state, action) is None


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


# --- Legality: the checks, in their fixed order ----------------------------------------------

#: A refusal: the reason, a message template (``{0}``, ``{1}`` ... stand for seats), the seats.
_Problem = tuple[Reason, str, tuple[int, ...]]
_VERB = {Bid: "bid", Pass: "pass", Discard: "discard"}


def _esc(text: object) -> str:
    """Text for a message template: seats are ``{0}``, ``{1}`` ..., so braces are doubled."""
    return str(text).replace("{", "{{").replace("}", "}}")


def _check(state: GameState, action: object) -> _Problem | None:
    """The first reason ``action`` is illegal in ``state``, or ``None``: in the order of
    :class:`Reason`, what the action is (type, seat, cards), then whether anyone may act,
    then whose turn it is, then what the action asks for."""
    if type(action) is Reveal:
        return _check_reveal(state, action)
    if type(action) is Bid or type(action) is Pass or type(action) is Discard:
        return _check_player_action(state, action)
    return (
        Reason.NOT_AN_ACTION,
        f"{_esc(short_repr(action))} is not an action: expected Reveal, Bid, Pass or Discard",
        (),
    )


def _check_reveal(state: GameState, action: Reveal) -> _Problem | None:
    """R4: chance reveals a card of the deck when no seat must act; R9: never after the end."""
    card: object = action.card  # actions are built unchecked: the type is not yet known
    if not isinstance(card, StatusCard):
        return (
            Reason.INVALID_CARD,
            f"cannot reveal {_esc(short_repr(card))}: not a status card",
            (),
        )
    if state.phase is OVER:
        return (Reason.GAME_OVER, f"cannot reveal {card.label}: the game is over", ())
    if state.phase is not REVEAL:
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


def _check_player_action(state: GameState, action: Bid | Pass | Discard) -> _Problem | None:
    """A seat's action: its seat and cards; no reveal due and the game not over (R4, R9);
    the seat still in the auction (R6) or owing a discard (R8); its turn; then the bid (R5)
    or the card discarded (R8)."""
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
    if phase is OVER:
        return (Reason.GAME_OVER, f"{{0}} cannot {verb}: the game is over", (seat,))
    if phase is REVEAL:
        return (
            Reason.REVEAL_DUE,
            f"{{0}} cannot {verb}: a status card must be revealed first",
            (seat,),
        )
    discarding = type(action) is Discard
    if phase is AUCTION:
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
    if phase is DISCARD and not discarding:
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
    """R5 for a bid whose seat, turn and cards are already known to be valid: cards from the
    hand, none already face up, and a new face-up total above the highest.

    pre: bid_to_check(state, action.seat)
    post: (__return__ is None) == bid_follows_r5(state, action.seat, action.cards)
    """
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


# --- The transitions, one per action ---------------------------------------------------------


def _reveal(state: GameState, card: StatusCard) -> GameState:
    """R4: chance turns ``card`` face up and it is auctioned, the round's starter first. R9:
    the last dark-green card ends the game at once instead, and goes to nobody.

    pre: reveal_is_legal(state, card)
    post: takes_from_deck(state, card, __return__)
    post: keeps_seats_and_removed(state, __return__)
    post: ends_on_last_dark_green(card, __return__)
    post: opens_auction_unless_over(state, card, __return__)
    """
    deck = state.deck
    i = deck.index(card)
    deck = deck[:i] + deck[i + 1 :]
    if (card is PRESTIGE or card is SCANDALE) and PRESTIGE not in deck and SCANDALE not in deck:
        return evolve_state(state, deck=deck, phase=OVER, auction=None, ending_card=card)
    auction = evolve_state(state, deck=deck, phase=AUCTION, auction=card)
    set_highest_bid(auction, state.highest_bid)  # no money moved
    return auction


def _bid(state: GameState, seat: int, cards: frozenset[int]) -> GameState:
    """R5: ``seat`` adds ``cards`` from their hand to their face-up cards; then the next
    seat still in acts (R3, R6).

    pre: bid_is_legal(state, seat, cards)
    post: raises_highest_bid(state, __return__)
    post: adds_to_table(state, seat, cards, __return__)
    post: hand_and_table_apart(seat, __return__)
    post: conserves_money(state, __return__)
    post: others_unchanged(state, seat, __return__)
    post: next_seat_is_in(__return__)
    post: next_seat_after(seat, __return__)
    """
    p = state.players[seat]
    table = p.table | cards
    seats = list(state.players)
    seats[seat] = evolve_player(p, hand=p.hand - cards, table=table)
    players = tuple(seats)
    # Only the bidder's total changed, and it only grew.
    highest = max(state.highest_bid, sum(table))
    return _auction_goes_on(state, players, _next_seat_in(players, seat), highest)


def _pass(state: GameState, seat: int) -> GameState:
    """R6: ``seat`` takes their face-up cards back and is out of this auction; when one
    seat is left in, it wins. R7: in a disgrace auction the first pass ends it.

    pre: pass_is_legal(state, seat)
    post: conserves_money(state, __return__)
    post: spent_stays_spent(state, __return__)
    post: ended_auction_gives_its_card(state, __return__)
    post: disgrace_ends_at_first_pass(state, __return__)
    post: passer_is_out(seat, __return__)
    post: highest_bid_not_raised(state, __return__)
    post: pays_as_r6_r7(state, seat, __return__)
    post: card_goes_to_taker(state, seat, __return__)
    post: waiting_faux_pas_takes_a_luxury_card(state, seat, __return__)
    post: next_round_starts_right(state, seat, __return__)
    """
    card = state.auction
    assert card is not None
    if card is FAUX_PAS or card is PASSE or card is SCANDALE:
        return _end_disgrace_auction(state, seat, card)
    p = state.players[seat]
    seats = list(state.players)
    if p.table:  # the passer takes their face-up cards back
        seats[seat] = evolve_player(p, hand=p.hand | p.table, table=NO_MONEY, passed=True)
    else:
        seats[seat] = evolve_player(p, passed=True)
    players = tuple(seats)
    nxt = _next_seat_in(players, seat)
    if _next_seat_in(players, nxt) == nxt:  # the last seat in
        return _end_normal_auction(state, players, nxt, card)
    # The highest bid stands: it is never the bid of the seat to act, which was outbid.
    return _auction_goes_on(state, players, nxt, state.highest_bid)


def _next_seat_in(players: tuple[PlayerState, ...], seat: int) -> int:
    """R3: the first seat after ``seat`` that has not passed (``seat`` if all others have)."""
    n = len(players)
    nxt = (seat + 1) % n
    while players[nxt].passed:  # only a normal auction has passed players (R6)
        nxt = (nxt + 1) % n
    return nxt


def _auction_goes_on(
    state: GameState, players: tuple[PlayerState, ...], turn: int, highest: int
) -> GameState:
    """The auction of ``state`` with ``players``, ``turn`` to act and ``highest`` the highest
    face-up total."""
    new = next_turn(state, players, turn)
    set_highest_bid(new, highest)
    return new


def _end_normal_auction(
    state: GameState, players: tuple[PlayerState, ...], winner: int, card: StatusCard
) -> GameState:
    """R6: the last seat in pays with their face-up cards, takes ``card`` and starts the next
    round, which everyone plays again. R8: a Faux Pas waiting for a luxury card takes this
    one at once, and both leave the game."""
    w = players[winner]
    removed = state.removed
    owned: tuple[StatusCard, ...]
    if FAUX_PAS in w.status_cards and card.is_luxury:  # in an auction, it waits (R8)
        owned = tuple(c for c in w.status_cards if c is not FAUX_PAS)
        removed = sort_cards((*removed, FAUX_PAS, card))
    else:
        owned = with_card(w.status_cards, card)
    paid = evolve_player(w, table=NO_MONEY, spent=w.spent | w.table, status_cards=owned)
    seats = []
    for i, p in enumerate(players):  # everyone is in the next round
        seats.append(paid if i == winner else evolve_player(p, passed=False))
    new = evolve_state(
        state, players=tuple(seats), phase=REVEAL, turn=winner, auction=None, removed=removed
    )
    set_highest_bid(new, 0)  # the winner paid, and the others took their cards back
    return new


def _end_disgrace_auction(state: GameState, passer: int, card: StatusCard) -> GameState:
    """R7: the passer takes their face-up cards back and ``card``, and starts the next round;
    everyone else's face-up cards are spent. R8: a seat that takes Faux Pas while owning a
    luxury card must discard one first."""
    seats = list(state.players)
    for i, p in enumerate(seats):
        if i == passer:
            owned = with_card(p.status_cards, card)
            seats[i] = evolve_player(p, hand=p.hand | p.table, table=NO_MONEY, status_cards=owned)
        elif p.table:
            seats[i] = evolve_player(p, table=NO_MONEY, spent=p.spent | p.table)
    phase = DISCARD if card is FAUX_PAS and seats[passer].luxury_cards else REVEAL  # R8
    # The passer, whose turn it was, starts the next round.
    new = evolve_state(state, players=tuple(seats), phase=phase, auction=None)
    set_highest_bid(new, 0)  # every seat's face-up cards are gone
    return new


def _discard(state: GameState, seat: int, card: StatusCard) -> GameState:
    """R8: ``seat`` discards ``card``, a luxury card of theirs, and it leaves the game with
    their Faux Pas; then the next card is revealed.

    pre: discard_is_legal(state, seat, card)
    post: conserves_status_cards(state, __return__)
    post: discards_one_with_faux_pas(seat, card, __return__)
    post: discards_only_the_card(state, seat, card, __return__)
    post: reveal_due_from(seat, __return__)
    """
    p = state.players[seat]
    owned = list(p.status_cards)
    owned.remove(card)  # one of each, whatever else the seat holds
    owned.remove(FAUX_PAS)
    seats = list(state.players)
    seats[seat] = evolve_player(p, status_cards=tuple(owned))
    players = tuple(seats)
    removed = sort_cards((*state.removed, FAUX_PAS, card))
    return evolve_state(state, players=players, phase=REVEAL, removed=removed)


# --- The legal actions, listed ---------------------------------------------------------------


class LegalActions(Sequence[Action]):
    """Every legal action in one state, as a lazy, read-only sequence.

    Nothing is built until asked for: ``len``, ``in``, indexing and iteration are cheap
    even when a full hand gives 2,047 legal bids. The order is deterministic: in an
    auction ``Pass`` first, then the bids by the total they add, lowest first (ties by
    their cards in ascending order); in a discard the luxury cards lowest first; for a
    reveal, the distinct cards of the deck in canonical order. Empty once the game is over,
    and in a state built by hand whose turn is no seat (where :func:`apply` refuses every
    action with ``INVALID_SEAT``).
    An index past either end raises :class:`~high_society.OutOfRangeError` (an
    :class:`IndexError`, as a sequence should).

    ``action in legal`` agrees with :func:`is_legal` for any object.

    >>> state = apply(new_game(3), Reveal(StatusCard.LUXURY_5))
    >>> legal = legal_actions(state)
    >>> len(legal), legal[0], legal[1], legal.min_total
    (2048, Pass(seat=0), Bid(seat=0, cards=frozenset({1})), 1)
    """

    __slots__ = ("_first", "_nfirst", "_seat", "_size", "_start", "_state", "_table", "min_total")

    def __init__(self, state: GameState) -> None:
        self._state = state
        seat = self._seat = state.turn
        phase = state.phase
        if not 0 <= seat < len(state.players) and phase is not REVEAL:
            # A hand-built turn that is no seat: apply refuses every action (INVALID_SEAT).
            phase = OVER
        if phase is AUCTION:
            # Pass, then the bids that beat the highest (R5): a suffix of the hand's table,
            # found without building anything.
            player = state.players[seat]
            try:
                table = TABLES[player.hand]  # the cache itself: saves a call per auction turn
            except KeyError:
                table = bid_table(player.hand)
            self._table: BidTable | None = table
            highest = state.highest_bid
            #: The lowest face-up total a bid must reach now (see :func:`min_bid_total`).
            self.min_total: int | None = highest + 1
            above = highest - sum(player.table)  # what the bid must add more than
            starts = table.starts
            start = self._start = (
                starts[above] if 0 <= above < len(starts) else bisect_right(table.totals, above)
            )
            #: The actions listed before the bids; ``None`` for the auction's ``Pass`` alone.
            self._first: tuple[Action, ...] | None = None
            self._nfirst = 1
            self._size = 1 + len(table.totals) - start
            return
        self._table = None
        self._start = 0
        self.min_total = None
        if phase is REVEAL:
            first: tuple[Action, ...] = tuple(Reveal(card) for card in _distinct(state.deck))
        elif phase is DISCARD:
            first = tuple(Discard(seat, card) for card in state.players[seat].luxury_cards)
        else:
            first = ()
        self._first = first
        self._size = self._nfirst = len(first)

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        if type(index) is not int:  # a slice, or an integer of another type (bool, numpy)
            if isinstance(index, slice):
                return [self[i] for i in range(*index.indices(self._size))]
            index = operator.index(index)
        if index < 0:
            index += self._size
        if not 0 <= index < self._size:
            raise OutOfRangeError("legal action index out of range")
        nfirst = self._nfirst
        if index < nfirst:
            first = self._first
            return shared_pass(self._seat) if first is None else first[index]
        table = self._table
        assert table is not None  # only an auction lists bids
        return Bid(self._seat, table.cards_at(self._start + index - nfirst))

    def __iter__(self) -> Iterator[Action]:
        first = self._first
        yield from (shared_pass(self._seat),) if first is None else first
        yield from self.bids()

    def __contains__(self, action: object) -> bool:
        return is_legal(self._state, action)

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
        TypeError: the index is not an integer.
    """
    index = operator.index(index)
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
        return type(action) is Bid and is_legal(self._state, action)

    def __repr__(self) -> str:
        return f"<bids: {self._size} actions>"


def legal_actions(state: GameState) -> LegalActions:
    """Every legal action now, as a lazy sequence (see :class:`LegalActions`).

    >>> len(legal_actions(new_game(3)))  # 14 distinct cards may be revealed
    14
    """
    return LegalActions(state)

"""Actions as integers, for search and learning code: stable ids, legal-id lists and masks.

For a :class:`~high_society.GameConfig` with ``m = len(config.money)`` money values there
are ``num_actions(config) = 1 + (2**m - 1) + 10`` player action ids (2,058 in the standard
game):

- ``0`` is :class:`~high_society.Pass`;
- ``1 .. 2**m - 1`` are the bids: the id of ``Bid(seat, cards)`` is the bitmask of the
  positions, in ``config.money`` (ascending), of the cards the bid adds (bit ``i`` stands
  for ``config.money[i]``);
- ``2**m + (v - 1)``, for ``v`` from 1 to 10, is the discard of the luxury card worth ``v``.

The seat is not part of an id: it is the seat to act in the state an id is decoded for.
Chance outcomes have their own ids: the index of the revealed card in ``list(StatusCard)``
(0 to 13), with float probabilities (:func:`~high_society.chance_outcomes` has them exact).

>>> from high_society import Bid, StatusCard, Reveal, apply, new_game
>>> num_actions()
2058
>>> action_id(Bid(0, frozenset({1, 3})))  # 1 and 3 are money[0] and money[2]
5
>>> state = apply(new_game(3), Reveal(StatusCard.LUXURY_5))
>>> action_from_id(state, 5)
Bid(seat=0, cards=frozenset({1, 3}))
>>> ids = legal_action_ids(state)
>>> len(ids), ids[:4]
(2048, (0, 1, 2, 3))
>>> mask = bytearray(num_actions())
>>> legal_action_mask(state, mask)
>>> sum(mask)
2048
"""

from bisect import bisect_left
from itertools import compress
from typing import Final, assert_never

from high_society._buffers import write_values
from high_society._text import short_repr
from high_society.actions import Action, Bid, Discard, Pass, Reveal
from high_society.cards import STANDARD, GameConfig, StatusCard
from high_society.errors import EncodingError
from high_society.rules import CHANCE, chance_outcomes, legal_actions, min_bid_total, to_act
from high_society.state import GameState, Phase

__all__ = [
    "NUM_CHANCE_OUTCOMES",
    "NUM_DISCARD_IDS",
    "PASS_ID",
    "EncodingError",
    "action_feature_names",
    "action_features",
    "action_from_id",
    "action_id",
    "card_from_chance_id",
    "chance_id",
    "chance_outcome_ids",
    "discard_id",
    "first_discard_id",
    "legal_action_bytes",
    "legal_action_ids",
    "legal_action_mask",
    "num_actions",
    "player_action",
]

#: The id of :class:`~high_society.Pass`.
PASS_ID: Final = 0
#: How many discard ids there are: one per luxury value, 1 to 10.
NUM_DISCARD_IDS: Final = 10
#: How many chance outcome ids there are: one per kind of status card.
NUM_CHANCE_OUTCOMES: Final = len(StatusCard)

_CARDS: tuple[StatusCard, ...] = tuple(StatusCard)
_CHANCE_ID = {card: i for i, card in enumerate(_CARDS)}
_AUCTION = Phase.AUCTION
_DISCARD = Phase.DISCARD
_REVEAL = Phase.REVEAL


def num_actions(config: GameConfig = STANDARD) -> int:
    """How many player action ids ``config`` has: ``1 + (2**m - 1) + 10`` for ``m`` money
    values (2,058 in the standard game)."""
    return (1 << len(config.money)) + NUM_DISCARD_IDS


def first_discard_id(config: GameConfig = STANDARD) -> int:
    """The id of the discard of luxury 1: ``2**m`` (2,048 in the standard game)."""
    return 1 << len(config.money)


def discard_id(value: int, config: GameConfig = STANDARD) -> int:
    """The id of the discard of the luxury card worth ``value``.

    >>> discard_id(10)
    2057

    Raises:
        EncodingError: ``value`` is not a luxury value (an int from 1 to 10).
    """
    if type(value) is not int or not 1 <= value <= NUM_DISCARD_IDS:
        raise EncodingError(f"{short_repr(value)} is not a luxury value (1 to 10)")
    return (1 << len(config.money)) + value - 1


def chance_id(card: StatusCard) -> int:
    """The chance outcome id of revealing ``card``: its index in ``list(StatusCard)``.

    >>> chance_id(StatusCard.PRESTIGE)
    10

    Raises:
        EncodingError: ``card`` is not a :class:`~high_society.StatusCard`.
    """
    try:
        return _CHANCE_ID[card]
    except (KeyError, TypeError):
        raise EncodingError(f"{short_repr(card)} is not a status card") from None


def card_from_chance_id(outcome: int) -> StatusCard:
    """The card a chance outcome id reveals.

    >>> card_from_chance_id(13)
    <StatusCard.SCANDALE: 'scandale'>

    Raises:
        EncodingError: ``outcome`` is not an int from 0 to 13.
    """
    if type(outcome) is not int or not 0 <= outcome < NUM_CHANCE_OUTCOMES:
        raise EncodingError(
            f"{short_repr(outcome)} is not a chance outcome id (0 to {NUM_CHANCE_OUTCOMES - 1})"
        )
    return _CARDS[outcome]


def chance_outcome_ids(state: GameState) -> tuple[tuple[int, float], ...]:
    """The chance outcomes of ``state`` as ``(id, probability)``, ascending by id; empty
    unless a reveal is due.

    >>> from high_society import new_game
    >>> dict(chance_outcome_ids(new_game(3)))[10]  # 3 prestige cards of 16
    0.1875
    """
    if state.phase is not _REVEAL:
        return ()
    deck = state.deck
    try:
        return _OUTCOMES[deck]
    except KeyError:
        pass
    outcomes = tuple(
        sorted((_CHANCE_ID[reveal.card], float(p)) for reveal, p in chance_outcomes(state))
    )
    if len(_OUTCOMES) >= _OUTCOMES_LIMIT:
        _OUTCOMES.clear()
    _OUTCOMES[deck] = outcomes
    return outcomes


#: Chance outcome ids by deck: the outcomes depend on the deck's contents alone (R4), and
#: a look-up is cheaper than building the exact fractions again.
_OUTCOMES: dict[tuple[StatusCard, ...], tuple[tuple[int, float], ...]] = {}
_OUTCOMES_LIMIT = 1 << 15


def action_id(action: Action, config: GameConfig = STANDARD) -> int:
    """The id of ``action`` in ``config``: a player action id for ``Pass``, ``Bid`` and
    ``Discard``, the chance outcome id for ``Reveal`` (see the module documentation).

    The id does not depend on the seat, and the action need not be legal anywhere.

    >>> action_id(Pass(2)), action_id(Discard(1, StatusCard.LUXURY_1))
    (0, 2048)

    Raises:
        EncodingError: a bid that adds no card, holds a card that is not a money value of
            ``config`` or whose cards are not a ``frozenset``; a discard of a card that is
            not a luxury card; a reveal of something that is not a status card; or an
            object that is not an action.
    """
    if not isinstance(action, Pass | Bid | Discard | Reveal):
        raise EncodingError(f"cannot encode {short_repr(action)}: not an action")
    match action:
        case Pass():
            return PASS_ID
        case Bid():
            return _bid_id(action.cards, config)
        case Discard():
            value = action.card.luxury_value if isinstance(action.card, StatusCard) else 0
            if not value:
                raise EncodingError(
                    f"cannot encode a discard of {short_repr(action.card)}: not luxury"
                )
            return (1 << len(config.money)) + value - 1
        case Reveal():
            return chance_id(action.card)
        case _:
            assert_never(action)


def _bid_id(cards: frozenset[int], config: GameConfig) -> int:
    if type(cards) is not frozenset or not cards:
        raise EncodingError(
            f"cannot encode a bid of {short_repr(cards)}: not a non-empty frozenset"
        )
    positions = _positions(config.money)
    total = 0
    for card in cards:
        bit = positions.get(card) if type(card) is int else None  # True, 2.0 hash like ints
        if bit is None:
            raise EncodingError(
                f"cannot encode a bid of {short_repr(card)}: "
                f"the money values are {list(config.money)}"
            )
        total |= bit
    return total


_POSITIONS: dict[tuple[int, ...], dict[int, int]] = {}


def _positions(money: tuple[int, ...]) -> dict[int, int]:
    """``{value: 1 << position}`` for one set of money values."""
    try:
        return _POSITIONS[money]
    except KeyError:
        if len(_POSITIONS) >= 64:
            _POSITIONS.clear()
        positions = _POSITIONS[money] = {v: 1 << i for i, v in enumerate(money)}
        return positions


def action_from_id(state: GameState, action: int) -> Action:
    """The action that id ``action`` stands for in ``state``, for whoever acts there: a
    player action id for the seat to act, a chance outcome id when a card must be revealed.

    Legality is not checked (:func:`~high_society.apply` does that), but every legal action
    comes back from its id: ``action_from_id(state, action_id(a, state.config)) == a``.

    Raises:
        EncodingError: the game is over, or ``action`` is not an id of the space in use
            (an int from 0 to ``num_actions(config) - 1``, or 0 to 13 for chance).
    """
    actor = to_act(state)
    if actor is None:
        raise EncodingError("the game is over: no id stands for an action")
    if actor is CHANCE:
        return Reveal(card_from_chance_id(action))
    return player_action(action, actor, state.config)


def player_action(action: int, seat: int, config: GameConfig = STANDARD) -> Bid | Pass | Discard:
    """The action of ``seat`` that player action id ``action`` stands for in ``config``.

    >>> player_action(5, 2)
    Bid(seat=2, cards=frozenset({1, 3}))

    Raises:
        EncodingError: ``action`` is not an int from 0 to ``num_actions(config) - 1``.
    """
    size = num_actions(config)
    if type(action) is not int or not 0 <= action < size:
        raise EncodingError(f"{short_repr(action)} is not an action id (0 to {size - 1})")
    if action == PASS_ID:
        return Pass(seat)
    first_discard = 1 << len(config.money)
    if action >= first_discard:
        return Discard(seat, StatusCard.luxury(action - first_discard + 1))
    return Bid(seat, frozenset(v for i, v in enumerate(config.money) if action >> i & 1))


def action_feature_names(config: GameConfig = STANDARD) -> tuple[str, ...]:
    """The columns of :func:`action_features`: ``pass``, ``bid`` and ``discard`` (which
    kind of action, 0 or 1), ``total`` (what a bid adds to the table), ``cards`` (how many
    money cards it adds), ``luxury`` (the value of the luxury card a discard gives up),
    then ``money_V`` for each money value ``V`` of ``config`` (1 when the bid adds it).

    >>> action_feature_names()[:7]
    ('pass', 'bid', 'discard', 'total', 'cards', 'luxury', 'money_1')
    """
    return (
        "pass",
        "bid",
        "discard",
        "total",
        "cards",
        "luxury",
        *tuple(f"money_{value}" for value in config.money),
    )


def action_features(config: GameConfig = STANDARD) -> tuple[tuple[int, ...], ...]:
    """One row per player action id, ``num_actions(config)`` rows, describing the action:
    the columns of :func:`action_feature_names`. A learner can embed an id by its row
    (``numpy.array(action_features())`` is a ``(2058, 17)`` table in the standard game).

    >>> rows = action_features()
    >>> rows[0][:6], rows[5][:6], rows[2048 + 2][:6]  # Pass, a bid of 1 and 3, discard 3
    ((1, 0, 0, 0, 0, 0), (0, 1, 0, 4, 2, 0), (0, 0, 1, 0, 0, 3))
    """
    money = config.money
    m = len(money)
    rows: list[tuple[int, ...]] = [(1, 0, 0, 0, 0, 0) + (0,) * m]
    for bid in range(1, 1 << m):
        bits = tuple(bid >> i & 1 for i in range(m))
        total = sum(v for v, bit in zip(money, bits, strict=True) if bit)
        rows.append((0, 1, 0, total, sum(bits), 0, *bits))
    rows += [(0, 0, 1, 0, 0, v) + (0,) * m for v in range(1, NUM_DISCARD_IDS + 1)]
    return tuple(rows)


# --- Bid ids, precomputed per hand ----------------------------------------------------
# For one hand, the ids of every non-empty subset in ascending order, with the total each
# adds as a one-byte *level* (its rank among the hand's distinct totals), and the same
# levels laid out by id over the whole action space. Which bids are legal is not decided
# here: min_bid_total gives the cheapest legal total, and since R5 depends on a bid's total
# alone, the legal bids are the subsets whose total reaches it. Selecting them is then one
# bytes.translate through a threshold table and one itertools.compress, both in C: no Bid
# is built.

#: Entries per run of ids (see ``_HandIds.chunks``): the subsets of the six lowest cards.
_CHUNK = 64

#: Levels 1.._MAX_LEVELS rank a hand's distinct totals; 0 marks "not a bid of this hand" and
#: 255 is kept for Pass, which is legal whenever a bid could be.
_MAX_LEVELS = 254
_PASS_LEVEL = 255

#: ``_THRESHOLD[r]`` translates a level byte to 1 when the level is above ``r``, else to 0.
_THRESHOLD: tuple[bytes, ...] = tuple(
    bytes(1 if level > r else 0 for level in range(256)) for r in range(256)
)


class _HandIds:
    """The bids of one hand as action ids.

    Attributes:
        ids: the ids of every non-empty subset of the hand, ascending.
        every: Pass (id 0) and then ``ids``: the legal ids when every bid is legal.
        totals: the distinct totals those subsets add, ascending.
        levels: one byte per entry of ``ids``: 1 + the index of its total in ``totals``;
            ``None`` when the hand has more than ``_MAX_LEVELS`` distinct totals (then
            ``sums`` serves instead).
        sums: the total each entry of ``ids`` adds.
        by_id: the levels laid out over the whole action space (Pass at 255, every id that
            is not a bid of this hand at 0), for masks; ``None`` with ``levels``.
        chunks: ``ids`` cut into runs of ``_CHUNK`` entries, each as ``(start, end,
            lowest level, highest level)``. A run shares its high cards and differs only in
            its low ones, so its levels span a narrow range: for most thresholds a run is
            wholly legal or wholly not, and only the few in between are looked at id by id.
    """

    __slots__ = ("by_id", "chunks", "every", "ids", "levels", "sums", "totals")

    def __init__(self, money: tuple[int, ...], hand: frozenset[int], size: int) -> None:
        ids = [0]
        sums = [0]
        # Doubling over positions in ascending order keeps the ids ascending: each new half
        # has a higher bit set than everything before it.
        for position, value in enumerate(money):
            if value in hand:
                bit = 1 << position
                ids += [i | bit for i in ids]
                sums += [s + value for s in sums]
        del ids[0], sums[0]  # the empty subset is not a bid
        self.ids: tuple[int, ...] = tuple(ids)
        self.every: tuple[int, ...] = (0, *ids)
        self.sums: tuple[int, ...] = tuple(sums)
        self.totals: tuple[int, ...] = tuple(sorted(set(sums)))
        self.chunks: tuple[tuple[int, int, int, int], ...] = ()
        if len(self.totals) > _MAX_LEVELS:
            self.levels: bytes | None = None
            self.by_id: bytes | None = None
            return
        rank = {total: level for level, total in enumerate(self.totals, 1)}
        self.levels = levels = bytes(rank[s] for s in sums)
        self.chunks = tuple(
            (start, min(start + _CHUNK, len(ids)), min(part), max(part))
            for start in range(0, len(ids), _CHUNK)
            for part in [levels[start : start + _CHUNK]]
        )
        by_id = bytearray(size)
        by_id[0] = _PASS_LEVEL
        for i, level in zip(ids, self.levels, strict=True):
            by_id[i] = level
        self.by_id = bytes(by_id)

    def select(self, r: int) -> tuple[int, ...]:
        """Pass (id 0) and the ids whose level is above ``r``, ascending.

        Raises:
            AssertionError: the hand has no levels (see ``levels``).
        """
        levels = self.levels
        assert levels is not None
        ids = self.ids
        table = _THRESHOLD[r]
        chosen = [0]
        for start, end, low, high in self.chunks:
            if low > r:
                chosen += ids[start:end]
            elif high > r:
                chosen += compress(ids[start:end], levels[start:end].translate(table))
        return tuple(chosen)

    def cut(self, cheapest: int | None) -> int:
        """The threshold index for the least total a legal bid adds (any int, not only a
        total of this hand): bids whose level is above it are legal; ``len(totals)``
        (nothing legal) when no total reaches it or ``cheapest`` is ``None``."""
        if cheapest is None:
            return len(self.totals)
        return bisect_left(self.totals, cheapest)


class _MoneyIds:
    """The bid ids of every hand of one set of money values, built when first asked for."""

    __slots__ = ("hands", "money", "size")

    def __init__(self, money: tuple[int, ...]) -> None:
        self.money = money
        #: Ids 0 .. 2**m - 1: Pass and the bids (discards lie above, never in a hand table).
        self.size = 1 << len(money)
        self.hands: dict[frozenset[int], _HandIds] = {}

    def hand(self, hand: frozenset[int]) -> _HandIds:
        """The (cached) table of ``hand``."""
        try:
            return self.hands[hand]
        except KeyError:
            if len(self.hands) >= _HANDS_LIMIT:
                self.hands.clear()
            table = self.hands[hand] = _HandIds(self.money, hand, self.size)
            return table


#: Every hand of the standard game (2**11) fits.
_HANDS_LIMIT = 4096
_BY_MONEY: dict[tuple[int, ...], _MoneyIds] = {}
_MONEY_LIMIT = 16


def _money_ids(money: tuple[int, ...]) -> _MoneyIds:
    """The (cached) tables for the money values ``money``."""
    try:
        return _BY_MONEY[money]
    except KeyError:
        if len(_BY_MONEY) >= _MONEY_LIMIT:
            _BY_MONEY.clear()
        tables = _BY_MONEY[money] = _MoneyIds(money)
        return tables


def legal_action_ids(state: GameState) -> tuple[int, ...]:
    """The ids of :func:`~high_society.legal_actions` in ascending order: player action ids
    when a seat acts, chance outcome ids when a card must be revealed, ``()`` at the end.

    No action object is built for the bids: the ids come from tables precomputed per hand.

    >>> from high_society import new_game
    >>> legal_action_ids(new_game(3))[-3:]  # Faux Pas, Passé, Scandale may be revealed
    (11, 12, 13)
    """
    phase = state.phase
    if phase is _AUCTION:
        hand = _money_ids(state.config.money).hand(state.players[state.turn].hand)
        r = hand.cut(_least_added(state))
        if r == 0:
            return hand.every
        key = (hand, r)
        try:
            return _IDS_CACHE[key]
        except KeyError:
            pass
        ids = _select(hand, r)
        global _cached
        if _cached + len(ids) > _CACHE_LIMIT:
            _IDS_CACHE.clear()
            _cached = 0
        _IDS_CACHE[key] = ids
        _cached += len(ids)
        return ids
    if phase is _REVEAL:
        return tuple(i for i, _ in chance_outcome_ids(state))
    if phase is _DISCARD:
        config = state.config
        return tuple(sorted(action_id(a, config) for a in legal_actions(state)))
    return ()


def _least_added(state: GameState) -> int:
    """The least total a legal bid of the seat to act may add now (auctions only): R5 as
    the reducer states it, :func:`~high_society.min_bid_total` less the bidder's face-up
    total.

    R5 depends on the total a bid adds alone, so the legal bids are exactly the subsets of
    the hand whose total reaches this one (none, if no subset does): no second copy of the
    rule is needed here, and no ``Bid`` is built.
    """
    least = min_bid_total(state)
    assert least is not None  # an auction
    return least - sum(state.players[state.turn].table)


#: Legal ids by (hand table, threshold): a game revisits the same hands and thresholds
#: often, and a hit costs a dictionary look-up instead of a pass over up to 2,047 subsets.
#: Bounded by the ids held (2**20 references, 8 MiB), then emptied.
_IDS_CACHE: dict[tuple[_HandIds, int], tuple[int, ...]] = {}
_CACHE_LIMIT = 1 << 20
_cached = 0


def _select(hand: _HandIds, r: int) -> tuple[int, ...]:
    """Pass and the bids of ``hand`` whose level is above ``r``, ascending."""
    if hand.levels is not None:
        return hand.select(r)
    # More distinct totals than a byte can rank (configs with many or large values).
    if r >= len(hand.totals):
        return (PASS_ID,)
    least = hand.totals[r]
    return (PASS_ID, *(i for i, s in zip(hand.ids, hand.sums, strict=True) if s >= least))


def legal_action_mask(state: GameState, out: object) -> None:
    """Write the legal player actions of ``state`` into ``out``: 1 at each legal id, 0
    elsewhere; all 0 when no seat acts (a reveal is due, or the game is over).

    ``out`` is any writable, C-contiguous, one-dimensional buffer of exactly
    ``num_actions(state.config)`` items: a ``bytearray``, an ``array.array``, a
    ``memoryview``, or a numpy array (through the buffer protocol; no numpy is imported
    here). Its items may be bytes or booleans (formats ``B``, ``b``, ``?``), wider integers
    (``h``, ``H``, ``i``, ``I``, ``l``, ``L``, ``q``, ``Q``, ``n``, ``N``) or floats
    (``e``, ``f``, ``d``), in native byte order.

    >>> from array import array
    >>> from high_society import new_game
    >>> mask = array("f", bytes(4 * num_actions()))
    >>> legal_action_mask(new_game(3), mask)  # chance acts: no seat has a legal action
    >>> max(mask)
    0.0

    Raises:
        EncodingError: ``out`` is not such a buffer (not a buffer, read-only, not
            contiguous, of another length or item format). Nothing is written then.
    """
    write_values(_mask_bytes(state, num_actions(state.config)), out, "a mask")


def legal_action_bytes(state: GameState) -> bytes:
    """The mask :func:`legal_action_mask` writes, as a new ``bytes`` object of
    ``num_actions(state.config)`` bytes (1 at each legal id, 0 elsewhere): immutable, so it
    may be shared, and numpy can read it without a copy (``np.frombuffer(mask, np.int8)``
    gives a read-only array).

    >>> from high_society import new_game
    >>> legal_action_bytes(new_game(3)) == bytes(num_actions())  # chance acts
    True
    """
    return _mask_bytes(state, num_actions(state.config))


def _mask_bytes(state: GameState, size: int) -> bytes:
    phase = state.phase
    if phase is _AUCTION:
        hand = _money_ids(state.config.money).hand(state.players[state.turn].hand)
        by_id = hand.by_id
        if by_id is not None:
            r = hand.cut(_least_added(state))
            return by_id.translate(_THRESHOLD[r]) + bytes(NUM_DISCARD_IDS)
    if phase is _AUCTION or phase is _DISCARD:
        mask = bytearray(size)
        for i in legal_action_ids(state):
            mask[i] = 1
        return bytes(mask)
    return bytes(size)

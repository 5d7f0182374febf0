"""What a seat sees and what it gets: table views (R13), observations (R14), returns, bounds.

Two rulings settle what a seat may know. **R13**: at the table a seat sees its own hand and,
of every player, the money cards face up, whether they passed, how many money cards they
hold and their status cards; the card up for auction, the deck's contents (not its order)
and the cards out of the game; never another player's hand or anyone's spent cards.
**R14**: every money card ever paid was face up first and everyone starts with the same
money, so a seat with perfect recall can deduce every hand: the game is one of perfect
information with chance.

- :func:`view` is the R13 view, for front ends (:func:`view_to_json` for a browser).
- :func:`observation_tensor` and :func:`observation_string` follow R14, for search and
  learning code: everything but the deck's order, seats rotated so the observer comes first.
  The layout is on the "AI and learning" page.
- :func:`returns` is the reward convention: the winners share 1 (R12).
- :func:`max_game_length` and :func:`max_chance_nodes` bound a game's length.

>>> from high_society import Bid, Reveal, StatusCard, apply, new_game
>>> state = apply(apply(new_game(3), Reveal(StatusCard.LUXURY_5)), Bid(0, frozenset({3})))
>>> seen = view(state, 1)
>>> sorted(seen.hand)[:3], seen.players[0].table, seen.players[0].hand_size
([1, 2, 3], frozenset({3}), 10)
>>> len(observation_tensor(state, 1)) == observation_size(3)
True
"""

from array import array
from collections.abc import Callable, Iterable
from fractions import Fraction
from operator import itemgetter
from typing import Final

import attrs

from high_society._buffers import check_buffer, write_values
from high_society._immutable import copy_self, deepcopy_self
from high_society._json import JSON, JSONObject
from high_society._text import short_repr
from high_society.cards import (
    MAX_PLAYERS,
    STANDARD,
    GameConfig,
    StatusCard,
    check_players,
)
from high_society.errors import EncodingError, InvalidConfigError, InvalidSeatError
from high_society.scoring import result
from high_society.state import GameState, Phase, PlayerState

__all__ = [
    "GLOBAL_SIZE",
    "NUM_KINDS",
    "ObservationWriter",
    "PublicPlayer",
    "SeatView",
    "max_chance_nodes",
    "max_game_length",
    "observation_scale",
    "observation_size",
    "observation_string",
    "observation_tensor",
    "returns",
    "returns_exact",
    "seat_size",
    "view",
    "view_to_json",
    "write_observation",
]

#: One slot per kind of status card, in ``StatusCard`` order (the chance outcome ids).
NUM_KINDS: Final = len(StatusCard)
#: The floats before the first seat block: phase (4), auction card, deck and cards out of
#: the game (14 each), highest bid (1).
GLOBAL_SIZE: Final = 4 + 3 * NUM_KINDS + 1

#: Kind index by the card's value string (a str hash is kept; an Enum member's is not).
_KIND = {card._value_: i for i, card in enumerate(StatusCard)}
_PHASE = {phase: i for i, phase in enumerate(Phase)}
_AUCTION_AT = 4
_DECK_AT = _AUCTION_AT + NUM_KINDS
_REMOVED_AT = _DECK_AT + NUM_KINDS
_HIGHEST_AT = _REMOVED_AT + NUM_KINDS


@attrs.frozen
class PublicPlayer:
    """What everyone at the table sees of one player (R13).

    Attributes:
        table: the money cards face up in front of the player this round.
        passed: the player has passed in the current auction.
        hand_size: how many money cards the player holds in hand (face-up cards aside).
        status_cards: the status cards in front of the player, in canonical order. A Faux
            Pas here is held until a luxury card of the player's leaves the game with it
            (R8): the player is choosing one to discard, or owns none and waits to win one.
    """

    table: frozenset[int]
    passed: bool
    hand_size: int
    status_cards: tuple[StatusCard, ...]

    __copy__ = copy_self
    __deepcopy__ = deepcopy_self

    @property
    def bid(self) -> int:
        """The player's face-up total this round."""
        return sum(self.table)


@attrs.frozen
class SeatView:
    """What one seat sees at the table (R13), and nothing more.

    Attributes:
        seat: the seat whose view this is.
        config: the game's parameters (public: everyone knows the game).
        hand: the seat's own money cards in hand.
        players: what everyone sees of each player, in seat order (the seat itself too).
        phase: what the game waits for.
        turn: the seat to act in an auction or discard (the round's starter during a reveal).
        auction: the card up for auction, or ``None``.
        deck: the cards left in the deck, in canonical order: their order is unknown.
        removed: the cards out of the game.
        ending_card: the card whose reveal ended the game, or ``None``.
    """

    seat: int
    config: GameConfig
    hand: frozenset[int]
    players: tuple[PublicPlayer, ...]
    phase: Phase
    turn: int
    auction: StatusCard | None
    deck: tuple[StatusCard, ...]
    removed: tuple[StatusCard, ...]
    ending_card: StatusCard | None

    __copy__ = copy_self
    __deepcopy__ = deepcopy_self

    @property
    def highest_bid(self) -> int:
        """The highest face-up total on the table this round."""
        return max(p.bid for p in self.players)

    def __str__(self) -> str:
        hand = " ".join(map(str, sorted(self.hand))) or "-"
        return f"Seat {self.seat} sees: hand {hand}; {_table_line(self)}"


def _table_line(v: SeatView) -> str:
    if v.phase is Phase.AUCTION:
        assert v.auction is not None
        doing = f"auction of {v.auction.label}, Seat {v.turn} to act, highest {v.highest_bid}"
    elif v.phase is Phase.DISCARD:
        doing = f"Seat {v.turn} must discard for Faux Pas"
    elif v.phase is Phase.REVEAL:
        doing = f"reveal due, Seat {v.turn} starts"
    else:
        doing = "game over"
    return f"{doing}; {len(v.deck)} cards in the deck"


def _seat(state: GameState, seat: int) -> int:
    if type(seat) is not int or not 0 <= seat < len(state.players):
        raise InvalidSeatError(
            f"{short_repr(seat)} is not a seat (seats are 0 to {len(state.players) - 1})"
        )
    return seat


def view(state: GameState, seat: int) -> SeatView:
    """What ``seat`` sees of ``state`` (R13): its own hand, no other hand, no spent cards.

    Raises:
        InvalidSeatError: ``seat`` is not a seat of this game.
    """
    _seat(state, seat)
    return SeatView(
        seat=seat,
        config=state.config,
        hand=state.players[seat].hand,
        players=tuple(
            PublicPlayer(p.table, p.passed, len(p.hand), p.status_cards) for p in state.players
        ),
        phase=state.phase,
        turn=state.turn,
        auction=state.auction,
        deck=state.deck,
        removed=state.removed,
        ending_card=state.ending_card,
    )


def view_to_json(seen: SeatView) -> JSONObject:
    """A view as a JSON object for a front end: money cards ascending, status cards by name
    (their recorded-game names), the phase by its value.

    (Enum members' values are read as ``_value_``, the attribute Enum documents, not with
    ``.value``, a descriptor seven times slower: a server builds this for every seat and
    action.)

    >>> from high_society import new_game
    >>> data = view_to_json(view(new_game(3), 2))
    >>> data["seat"], data["phase"], data["players"][0]
    (2, 'reveal', {'table': [], 'passed': False, 'hand_size': 11, 'status_cards': []})
    """
    return {
        "seat": seen.seat,
        "config": {
            "money": _ints(seen.config.money),
            "deck": [c._value_ for c in seen.config.deck],
        },
        "hand": _ints(seen.hand),
        "players": [
            {
                "table": _ints(p.table),
                "passed": p.passed,
                "hand_size": p.hand_size,
                "status_cards": [c._value_ for c in p.status_cards],
            }
            for p in seen.players
        ],
        "phase": seen.phase._value_,
        "turn": seen.turn,
        "auction": None if seen.auction is None else seen.auction._value_,
        "highest_bid": seen.highest_bid,
        "deck": [c._value_ for c in seen.deck],
        "removed": [c._value_ for c in seen.removed],
        "ending_card": None if seen.ending_card is None else seen.ending_card._value_,
    }


def _ints(values: Iterable[int]) -> list[JSON]:
    ints: list[JSON] = []
    ints.extend(sorted(values))
    return ints


# --- Observations (R14) ---------------------------------------------------------------------


def seat_size(config: GameConfig = STANDARD) -> int:
    """The floats of one seat block: hand and face-up cards (``m`` each), passed, turn, and
    the status cards by kind: ``2 * m + 16`` (38 in the standard game)."""
    return 2 * len(config.money) + 2 + NUM_KINDS


def observation_size(players: int, config: GameConfig = STANDARD) -> int:
    """The length of :func:`observation_tensor` for a game of ``players`` seats:
    ``47 + players * (2 * m + 16)`` (161, 199 and 237 for 3, 4 and 5 standard players).

    Raises:
        InvalidConfigError: ``players`` is not an int from 3 to 5.
    """
    _players(players)
    return GLOBAL_SIZE + players * seat_size(config)


def observation_scale(players: int, config: GameConfig = STANDARD) -> tuple[float, ...]:
    """Factors that bring every float of :func:`observation_tensor` into ``[0, 1]``, one per
    float: the counts of status cards (deck, out of the game, owned) are divided by how
    many cards of that kind the deck holds, the highest bid by all the money of a seat;
    the one-hot and 0/1 floats are kept as they are. Multiply an observation by them for
    a normalised one (the adapters' ``normalize=True`` option does).

    >>> scale = observation_scale(4)
    >>> len(scale) == observation_size(4), scale[18 + 10]  # the deck's prestige cards: of 3
    (True, 0.3333333333333333)

    Raises:
        InvalidConfigError: ``players`` is not an int from 3 to 5.
    """
    _players(players)
    counts = [max(1, config.deck.count(card)) for card in StatusCard]
    per_kind = [1.0 / c for c in counts]
    m = len(config.money)
    head = [1.0] * (4 + NUM_KINDS) + per_kind + per_kind + [1.0 / sum(config.money)]
    block = [1.0] * (2 * m + 2) + per_kind
    return tuple(head + block * players)


def _players(players: int) -> None:
    check_players(players)


#: Bits of money sets, by money values and then by set: ``bits[i]`` is 1 when
#: ``money[i]`` is in the set. Hands and face-up sets repeat from state to state, and a
#: frozenset's hash is kept, so a look-up replaces a loop over the cards.
_BITS: dict[tuple[int, ...], dict[frozenset[int], bytes]] = {}
_BITS_LIMIT = 1 << 14


def _bits(money: tuple[int, ...], cards: frozenset[int]) -> bytes:
    try:
        by_set = _BITS[money]
    except KeyError:
        if len(_BITS) >= 16:
            _BITS.clear()
        by_set = _BITS[money] = {}
    try:
        return by_set[cards]
    except KeyError:
        if len(by_set) >= _BITS_LIMIT:
            by_set.clear()
        bits = by_set[cards] = bytes(1 if v in cards else 0 for v in money)
        return bits


def _observation(state: GameState, seat: int) -> bytearray | list[int]:
    """The observation of ``seat`` as whole numbers: a ``bytearray`` when every value fits
    in a byte (a player's money adds up to at most 255), else a list."""
    _seat(state, seat)
    config = state.config
    money = config.money
    m = len(money)
    players = state.players
    n = len(players)
    block = 2 * m + 2 + NUM_KINDS
    size = GLOBAL_SIZE + n * block
    out: bytearray | list[int] = bytearray(size) if config.total_money < 256 else [0] * size
    out[_PHASE[state.phase]] = 1
    if state.auction is not None:
        out[_AUCTION_AT + _KIND[state.auction._value_]] = 1
    for card in state.deck:
        out[_DECK_AT + _KIND[card._value_]] += 1
    for card in state.removed:
        out[_REMOVED_AT + _KIND[card._value_]] += 1
    out[_HIGHEST_AT] = state.highest_bid
    turn = state.turn
    base = GLOBAL_SIZE
    for k in range(n):
        who = (seat + k) % n
        p = players[who]
        out[base : base + m] = _bits(money, p.hand)
        if p.table:
            out[base + m : base + 2 * m] = _bits(money, p.table)
        if p.passed:
            out[base + 2 * m] = 1
        if turn == who:
            out[base + 2 * m + 1] = 1
        kinds = base + 2 * m + 2
        for card in p.status_cards:
            out[kinds + _KIND[card._value_]] += 1
        base += block
    return out


def observation_tensor(state: GameState, seat: int) -> list[float]:
    """Everything ``seat`` knows with perfect recall (R14) as flat floats, seats rotated so
    that ``seat`` comes first. Every value is a small whole number (exact in float32).

    Layout (``m = len(config.money)``; kinds in ``StatusCard`` order): phase one-hot (4),
    card up for auction one-hot (14), deck contents by kind (14), cards out of the game by
    kind (14), highest bid (1); then for each seat ``(seat + k) % n``, ``k = 0 .. n - 1``:
    hand (``m`` flags, bit ``i`` for ``config.money[i]``), face-up cards (``m``), passed
    (1), turn (1: ``state.turn`` is this seat), status cards by kind (14).

    >>> from high_society import new_game
    >>> tensor = observation_tensor(new_game(3), 0)
    >>> tensor[:4], tensor[18:32].count(1.0), tensor[28]  # reveal; 13 single cards, 3 prestige
    ([1.0, 0.0, 0.0, 0.0], 13, 3.0)

    Raises:
        InvalidSeatError: ``seat`` is not a seat of this game.
    """
    return list(map(float, _observation(state, seat)))


def write_observation(state: GameState, seat: int, out: object) -> None:
    """Write :func:`observation_tensor` into ``out``, a buffer of ``observation_size``
    items, as :func:`~high_society.encoding.legal_action_mask` writes masks (``bytearray``,
    ``array.array``, ``memoryview`` or numpy array; integer or float items, not booleans).
    Faster than building the list: no float object is made.

    >>> from array import array
    >>> from high_society import new_game
    >>> out = array("f", bytes(4 * observation_size(3)))
    >>> write_observation(new_game(3), 0, out)
    >>> list(out) == observation_tensor(new_game(3), 0)
    True

    Raises:
        InvalidSeatError: ``seat`` is not a seat of this game.
        EncodingError: ``out`` is not such a buffer, or its items cannot hold the values
            (booleans; signed bytes when a value exceeds 127). Nothing is written then.
    """
    values = _observation(state, seat)
    if isinstance(values, bytearray):
        write_values(bytes(values), out, "an observation")
        return
    with check_buffer(out, len(values), "an observation") as view:
        fmt = view.format.lstrip("@")
        if fmt not in "hHiIlLqQnNfd":  # wide values: only wide items hold them
            raise EncodingError(
                f"an observation of this game needs wider items than {short_repr(fmt)}"
            )
        view[:] = array(fmt, values)


#: The seats in an observation's order, by player count and observer.
_ORDERS = {
    n: tuple(tuple((seat + k) % n for k in range(n)) for seat in range(n))
    for n in range(1, MAX_PLAYERS + 1)
}


class ObservationWriter:
    """:func:`observation_tensor` as bytes, for code that observes every state of a game,
    such as an environment: each call remakes only the parts whose objects the last action
    replaced.

    ``item_format`` is how each value is written: ``"B"``, one byte (an unsigned int); or
    ``"f"``, a float32 in native byte order (4 bytes: what numpy reads, without a copy,
    with ``np.frombuffer(values, np.float32)``, and ``array("f")`` with ``frombytes``).

    A state shares with the one before it every part an action leaves alone (the deck's
    tuple, the cards out of the game, each untouched seat's ``PlayerState``), so the writer
    keeps each part's bytes with the object they were made from and tests identity, not
    equality. Any state of any game of ``config`` may be passed, in any order: a replaced
    object is simply remade. Not safe to share between threads.

    >>> from high_society import new_game
    >>> writer = ObservationWriter()
    >>> list(writer.values(new_game(3), 1)) == observation_tensor(new_game(3), 1)
    True
    >>> from array import array
    >>> floats = array("f")
    >>> floats.frombytes(ObservationWriter(item_format="f").values(new_game(3), 1))
    >>> list(floats) == observation_tensor(new_game(3), 1)
    True

    Raises:
        InvalidConfigError: ``config`` is not a :class:`~high_society.GameConfig`, a value of
            its observations may not fit in a byte (its money adds up to more than 255), or
            ``item_format`` is not ``"B"`` or ``"f"``.
    """

    __slots__ = (
        "_config",
        "_deck",
        "_fronts",
        "_kinds",
        "_parts",
        "_players",
        "_removed",
        "_tables",
        "item_format",
    )

    def __init__(self, config: GameConfig = STANDARD, item_format: str = "B") -> None:
        if not isinstance(config, GameConfig):
            raise InvalidConfigError(f"config must be a GameConfig, not {short_repr(config)}")
        if config.total_money > 255:
            raise InvalidConfigError(
                f"observations of a game with {config.total_money} in money do not fit in bytes"
            )
        if type(item_format) is not str or item_format not in _FORMATS:  # a list: unhashable
            raise InvalidConfigError(
                f"item_format must be 'B' or 'f', not {short_repr(item_format)}"
            )
        #: How each value is written: ``"B"`` (a byte) or ``"f"`` (a native float32).
        self.item_format: Final = item_format
        self._config = config
        self._tables = _FORMATS[item_format]
        # The parts an observation is joined from (see _PICK): the phase, the auction, the
        # deck, the cards out of the game, the highest bid, then each seat's block without
        # and with the turn flag.
        self._parts: list[bytes] = [b""] * (_FIRST_BLOCK + 2 * MAX_PLAYERS)
        # Per seat: the PlayerState its blocks were made from; its status cards and their
        # counts (a bid or a pass keeps the same tuple). The deck and the cards out of the
        # game their parts were made from.
        self._players: list[object] = [None] * MAX_PLAYERS
        self._kinds: list[tuple[object, bytes]] = [(None, b"")] * MAX_PLAYERS
        self._deck: object = None
        self._removed: object = None
        # A block's front (hand bits, face-up bits, passed) by those three: hands and
        # face-up sets recur across seats, states and games.
        self._fronts: dict[tuple[frozenset[int], frozenset[int], bool], bytes] = {}

    def values(self, state: GameState, seat: int) -> bytes:
        """``observation_tensor(state, seat)``, one item per value in the writer's
        ``item_format``.

        Raises:
            InvalidSeatError: ``seat`` is not a seat of this game.
            EncodingError: ``state`` is a game of another config.
        """
        players = state.players
        n = len(players)
        if type(seat) is not int or not 0 <= seat < n:
            _seat(state, seat)  # raises
        config = state.config
        if config is not self._config and config != self._config:
            raise EncodingError("this writer was made for another game config")
        phases, auctions, numbers, widen = self._tables
        parts = self._parts
        if state.deck is not self._deck:
            self._deck = state.deck
            parts[2] = widen(_kind_counts(state.deck))
        if state.removed is not self._removed:
            self._removed = state.removed
            parts[3] = widen(_kind_counts(state.removed))
        auction = state.auction
        parts[0] = phases[state.phase._value_]
        parts[1] = auctions[None if auction is None else auction._value_]
        parts[4] = numbers[state.highest_bid]
        seen = self._players
        for who, p in enumerate(players):
            if p is not seen[who]:
                self._remake(who, p)
        # One C call picks the parts in the observer's order, the turn's block flagged.
        turn = state.turn
        return b"".join(_PICK[n][seat][turn if 0 <= turn < n else n](parts))

    def _remake(self, who: int, p: PlayerState) -> None:
        widen = self._tables[3]
        status, kinds = self._kinds[who]
        if p.status_cards is not status:
            kinds = widen(_kind_counts(p.status_cards))
            self._kinds[who] = (p.status_cards, kinds)
        key = (p.hand, p.table, p.passed)
        front = self._fronts.get(key)
        if front is None:
            money = self._config.money
            front = widen(_bits(money, p.hand) + _bits(money, p.table) + _BYTE[p.passed])
            if len(self._fronts) >= _FRONTS_LIMIT:
                self._fronts.clear()
            self._fronts[key] = front
        numbers = self._tables[2]
        at = _FIRST_BLOCK + 2 * who
        self._parts[at] = front + numbers[0] + kinds
        self._parts[at + 1] = front + numbers[1] + kinds
        self._players[who] = p


#: Where the seat blocks start in ObservationWriter's parts.
_FIRST_BLOCK = 5
#: By player count, observer and ``state.turn``: the getter of an observation's parts, in
#: order, the block of the seat ``turn`` names flagged (index ``n``: none flagged).
_PICK = {
    n: tuple(
        tuple(
            itemgetter(
                *range(_FIRST_BLOCK),
                *(_FIRST_BLOCK + 2 * who + (who == turn) for who in _ORDERS[n][seat]),
            )
            for turn in range(n + 1)
        )
        for seat in range(n)
    )
    for n in range(1, MAX_PLAYERS + 1)
}


#: Fronts an ObservationWriter keeps (each 23 or 92 bytes in the standard game).
_FRONTS_LIMIT = 1 << 14


def _kind_counts(cards: tuple[StatusCard, ...]) -> bytes:
    counts = bytearray(NUM_KINDS)
    for card in cards:
        counts[_KIND[card._value_]] += 1
    return bytes(counts)


_BYTE = tuple(bytes((i,)) for i in range(256))
_PHASE_BYTES = {
    phase._value_: bytes(i == _PHASE[phase] for i in range(len(Phase))) for phase in Phase
}
_AUCTION_BYTES: dict[str | None, bytes] = {
    None: bytes(NUM_KINDS),
    **{
        card._value_: bytes(i == _KIND[card._value_] for i in range(NUM_KINDS))
        for card in StatusCard
    },
}


def _same(values: bytes) -> bytes:
    return values


def _float32(values: bytes) -> bytes:
    """Byte values as native float32s (kept: the same counts recur all game long)."""
    wide = _WIDE.get(values)
    if wide is None:
        wide = array("f", list(values)).tobytes()
        if len(_WIDE) >= _WIDE_LIMIT:
            _WIDE.clear()
        _WIDE[values] = wide
    return wide


#: Float32 forms of byte values, by value (14 to 23 bytes each, in the standard game).
_WIDE: dict[bytes, bytes] = {}
_WIDE_LIMIT = 1 << 14


_Tables = tuple[
    dict[str, bytes], dict[str | None, bytes], tuple[bytes, ...], Callable[[bytes], bytes]
]
#: By item format: the phase and auction slots by value, each number 0..255, and how to
#: widen byte values to the format.
_FORMATS: dict[str, _Tables] = {
    "B": (_PHASE_BYTES, _AUCTION_BYTES, _BYTE, _same),
    "f": (
        {k: _float32(v) for k, v in _PHASE_BYTES.items()},
        {k: _float32(v) for k, v in _AUCTION_BYTES.items()},
        tuple(map(_float32, _BYTE)),
        _float32,
    ),
}


def observation_string(state: GameState, seat: int) -> str:
    """The same knowledge as :func:`observation_tensor` (R14), as one compact line for logs:
    the phase, the auction, then each seat from ``seat`` on (``+0`` is ``seat``), then the
    deck's contents and the cards out of the game.

    >>> from high_society import new_game
    >>> print(observation_string(new_game(3), 1))  # doctest: +NORMALIZE_WHITESPACE
    reveal turn=+2 | +0 hand=1,2,3,4,6,8,10,12,15,20,25 | +1 hand=1,2,3,4,6,8,10,12,15,20,25
    | +2 hand=1,2,3,4,6,8,10,12,15,20,25 | deck=L1,L2,L3,L4,L5,L6,L7,L8,L9,L10,P,P,P,F,Pa,S
    | out=-

    Raises:
        InvalidSeatError: ``seat`` is not a seat of this game.
    """
    _seat(state, seat)
    n = len(state.players)
    head = [state.phase.value]
    if state.auction is not None:
        head.append(_SHORT[state.auction])
        head.append(f"high={state.highest_bid}")
    head.append(f"turn=+{(state.turn - seat) % n}")
    if state.ending_card is not None:
        head.append(f"ended={_SHORT[state.ending_card]}")
    parts = [" ".join(head)]
    for k in range(n):
        p = state.players[(seat + k) % n]
        fields = [f"+{k}", "hand=" + (",".join(map(str, sorted(p.hand))) or "-")]
        if p.table:
            fields.append("up=" + ",".join(map(str, sorted(p.table))))
        if p.passed:
            fields.append("passed")
        if p.status_cards:
            fields.append("cards=" + ",".join(_SHORT[c] for c in p.status_cards))
        parts.append(" ".join(fields))
    parts.append("deck=" + (",".join(_SHORT[c] for c in state.deck) or "-"))
    parts.append("out=" + (",".join(_SHORT[c] for c in state.removed) or "-"))
    return " | ".join(parts)


_SHORT = {
    **{c: f"L{c.luxury_value}" for c in StatusCard if c.is_luxury},
    StatusCard.PRESTIGE: "P",
    StatusCard.FAUX_PAS: "F",
    StatusCard.PASSE: "Pa",
    StatusCard.SCANDALE: "S",
}


# --- Returns and bounds ---------------------------------------------------------------------


def returns(state: GameState) -> tuple[float, ...]:
    """Each seat's reward: the winners (R12) share 1 (each of ``k`` winners gets ``1/k``),
    every other seat gets 0; all 0 before the end, and when everyone is cast out (R10).

    Why: the rules decide who wins, not by how much, so the reward is the win; sharing it
    among tied winners keeps a game's total at 1 (or 0 when nobody wins: the game is not
    zero-sum, and a seat cannot gain by another's loss alone). The exact shares are
    :func:`returns_exact`.

    >>> from high_society import new_game
    >>> returns(new_game(4))
    (0.0, 0.0, 0.0, 0.0)
    """
    return tuple(float(r) for r in returns_exact(state))


def returns_exact(state: GameState) -> tuple[Fraction, ...]:
    """:func:`returns` as exact fractions."""
    n = len(state.players)
    if not state.is_over:
        return (Fraction(0),) * n
    winners = result(state).winners
    share = Fraction(1, len(winners)) if winners else Fraction(0)
    return tuple(share if i in winners else Fraction(0) for i in range(n))


def max_game_length(players: int, config: GameConfig = STANDARD) -> int:
    """An upper bound on the player decisions (bids, passes, discards; reveals aside) in
    one game: ``(len(deck) - 1) * (players * m + players - 1)``, plus 1 when the deck holds
    Faux Pas (526, 706 and 886 for 3, 4 and 5 standard players).

    Why it holds: the card that ends the game is not auctioned, so there are at most
    ``len(deck) - 1`` auctions; in one auction each seat bids at most ``m`` times (a bid adds
    at least one card of its hand to its face-up cards, which only grow until it passes);
    at most ``players - 1`` seats pass; a Faux Pas causes at most one discard.

    Raises:
        InvalidConfigError: ``players`` is not an int from 3 to 5.
    """
    _players(players)
    auctions = len(config.deck) - 1
    per_auction = players * len(config.money) + players - 1
    return auctions * per_auction + (StatusCard.FAUX_PAS in config.deck)


def max_chance_nodes(config: GameConfig = STANDARD) -> int:
    """The most reveals a game can have: one per card of the deck (16 in the standard game)."""
    return len(config.deck)

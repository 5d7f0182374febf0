"""The engine's speed tricks, in one place, each with the check that keeps it honest.

Internal: ``rules`` uses these, and the bots and the dealer use :func:`randbelow`. Each does
what plain code would do, faster, and ``tests/test_fast.py`` holds it to that plain code:

- The members ``rules`` tests on every action, by name (:data:`AUCTION`, :data:`PASSE` ...):
  reading a member off its ``Enum`` class costs about 80 ns on CPython 3.11, a global 5.
- :func:`plainly_legal` recognises the common legal bids, passes and reveals with a few
  tests, so that ``apply`` runs the ordered checks of ``rules`` only for the rest.
- :func:`evolve_player` and :func:`evolve_state` are ``attrs.evolve`` for the two state
  classes: they fill each slot through its descriptor instead of running attrs'
  ``__init__`` and evolve's field loop; :func:`next_turn` is ``evolve_state`` for the most
  frequent new state, an auction going on. :func:`set_highest_bid` fills the cache of
  ``GameState.highest_bid`` when a transition knows its value.
- :func:`with_card` inserts a status card in canonical order, :func:`shared_pass` hands out
  one ``Pass`` per seat, :func:`money_set` keeps the configuration's money as a set, and
  :func:`randbelow` draws what ``random.Random.randrange(n)`` draws.

The state tricks rest on how attrs lays out a frozen slotted class. :func:`check_layout` states
those assumptions and runs when this module is imported, so a validator, converter or
post-init added to a bypassed class, a renamed field or an attrs release that stores cached
properties differently stops the import with :class:`LayoutError` instead of silently
building states the public constructor would not build. ``attrs`` is bounded in
``pyproject.toml`` to the releases this check has passed on.
"""

import types
from collections.abc import Callable
from typing import Final

import attrs

from high_society.actions import Bid, Pass, Reveal
from high_society.cards import MAX_PLAYERS, GameConfig, StatusCard
from high_society.errors import HighSocietyError
from high_society.state import GameState, Phase, PlayerState

__all__ = [
    "AUCTION",
    "DISCARD",
    "FAUX_PAS",
    "GAME_FIELDS",
    "NO_MONEY",
    "OVER",
    "PASSE",
    "PLAYER_FIELDS",
    "PRESTIGE",
    "RANK",
    "REVEAL",
    "SCANDALE",
    "LayoutError",
    "check_layout",
    "evolve_player",
    "evolve_state",
    "money_set",
    "next_turn",
    "plainly_legal",
    "randbelow",
    "set_highest_bid",
    "shared_pass",
    "with_card",
]

# --- Members by name: a global costs 5 ns to read, a member off its Enum class 80 (3.11) -----

REVEAL: Final = Phase.REVEAL
AUCTION: Final = Phase.AUCTION
DISCARD: Final = Phase.DISCARD
OVER: Final = Phase.OVER
PRESTIGE: Final = StatusCard.PRESTIGE
FAUX_PAS: Final = StatusCard.FAUX_PAS
PASSE: Final = StatusCard.PASSE
SCANDALE: Final = StatusCard.SCANDALE
#: The empty set of money cards, shared: saves building one whenever a seat's table clears.
NO_MONEY: Final[frozenset[int]] = frozenset()


# --- The common legal actions, recognised at once --------------------------------------------

#: The configuration asked about last, with its money as a set. One tuple, replaced whole,
#: so no reader pairs one configuration with another's money; compared by identity, since
#: hashing a GameConfig is a Python-level call.
_last_money: tuple[GameConfig | None, frozenset[int]] = (None, frozenset())


def money_set(config: GameConfig) -> frozenset[int]:
    """``frozenset(config.money)``, kept for the configuration asked about last (saves
    building the set for every bid)."""
    global _last_money
    last = _last_money
    if last[0] is config:
        return last[1]
    money = frozenset(config.money)
    _last_money = (config, money)
    return money


def plainly_legal(state: GameState, action: object) -> bool:
    """True for a legal ``Bid``, ``Pass`` or ``Reveal`` whose fields have their exact types
    (a seat that is an ``int``, bid cards a ``frozenset`` of ``int``, a ``StatusCard``), in a
    state whose seats' hands and face-up cards are apart; False for anything else, legal or
    not, which the ordered checks of ``rules`` then decide. Saves a third of the legality
    work on nearly every action a game plays (a bid: 7,500 instructions instead of 11,400).
    """
    if type(action) is Bid:
        seat = action.seat
        players = state.players
        # Types first: comparing a hostile object may run its own __eq__.
        if type(seat) is not int or state.phase is not AUCTION or seat != state.turn:
            return False
        if not 0 <= seat < len(players):
            return False
        player = players[seat]
        cards = action.cards
        if player.passed or type(cards) is not frozenset or not cards:
            return False
        for card in cards:
            if type(card) is not int:  # True == 1 and 2.0 == 2 pass the set tests
                return False
        return (
            cards <= player.hand
            and cards <= money_set(state.config)
            and sum(player.table) + sum(cards) > state.highest_bid
        )
    if type(action) is Pass:
        seat = action.seat
        players = state.players
        return (
            type(seat) is int
            and state.phase is AUCTION
            and seat == state.turn
            and 0 <= seat < len(players)
            and not players[seat].passed
        )
    if type(action) is Reveal:
        revealed = action.card
        return state.phase is REVEAL and type(revealed) is StatusCard and revealed in state.deck
    return False


#: One Pass per seat of a game (actions are values).
_PASSES: Final = {seat: Pass(seat) for seat in range(MAX_PLAYERS)}


def shared_pass(seat: int) -> Pass:
    """``Pass(seat)``, one shared value per seat of a game (saves building one for every
    auction turn listed)."""
    shared = _PASSES.get(seat)
    return shared if shared is not None else Pass(seat)


# --- Building states: each slot set through its descriptor -----------------------------------

#: The fields :func:`evolve_player` sets, in the order attrs declares them.
PLAYER_FIELDS = ("hand", "table", "spent", "passed", "status_cards")
#: The fields :func:`evolve_state` sets, in the order attrs declares them.
GAME_FIELDS = ("config", "players", "deck", "phase", "turn", "auction", "removed", "ending_card")


class LayoutError(HighSocietyError, RuntimeError):
    """A bypassed attrs class no longer has the layout the fast paths were written for."""


def _slot_setter(cls: type, name: str) -> Callable[[object, object], None]:
    descriptor = cls.__dict__.get(name)
    if not isinstance(descriptor, types.MemberDescriptorType):
        raise LayoutError(f"{cls.__name__}.{name} is not a slot (attrs layout changed)")
    setter: Callable[[object, object], None] = descriptor.__set__
    return setter


def check_layout(cls: type, fields: tuple[str, ...], cached: tuple[str, ...] = ()) -> None:
    """Fail loudly unless ``cls`` is what a fast constructor setting ``fields`` assumes.

    Its attrs fields are exactly ``fields``, in that order, each stored in a slot; no field
    has a validator, converter or ``on_setattr`` hook; the class has no
    ``__attrs_pre_init__``, ``__attrs_post_init__`` or ``__attrs_init__`` (a hand-written
    ``__init__`` beside attrs'); and each name of ``cached`` is a cached property that attrs
    keeps in a slot of its own and computes on first use. Run at import for
    :class:`PlayerState` and :class:`GameState` (with its ``highest_bid``).

    Raises:
        LayoutError: an assumption no longer holds; the message says which.
    """
    names = tuple(a.name for a in attrs.fields(cls))
    if names != fields:
        raise LayoutError(f"{cls.__name__} fields are {names}, expected {fields}")
    for a in attrs.fields(cls):
        if a.validator is not None or a.converter is not None:
            raise LayoutError(
                f"{cls.__name__}.{a.name} has a validator or converter: the fast "
                "constructor would skip it"
            )
        if a.on_setattr not in (None, attrs.setters.NO_OP):
            raise LayoutError(f"{cls.__name__}.{a.name} has an on_setattr hook")
        _slot_setter(cls, a.name)
    for hook in ("__attrs_pre_init__", "__attrs_post_init__", "__attrs_init__"):
        if hasattr(cls, hook):
            raise LayoutError(f"{cls.__name__} has {hook}: the fast constructor skips it")
    for name in cached:
        _slot_setter(cls, name)
        # attrs computes a cached property of a slotted class through __getattr__.
        if "__getattr__" not in cls.__dict__:
            raise LayoutError(f"{cls.__name__}.{name} is not computed on first use")


check_layout(PlayerState, PLAYER_FIELDS)
check_layout(GameState, GAME_FIELDS, cached=("highest_bid",))

_new = object.__new__
_set_hand, _set_table, _set_spent, _set_passed, _set_status_cards = (
    _slot_setter(PlayerState, name) for name in PLAYER_FIELDS
)
(
    _set_config,
    _set_players,
    _set_deck,
    _set_phase,
    _set_turn,
    _set_auction,
    _set_removed,
    _set_ending_card,
) = (_slot_setter(GameState, name) for name in GAME_FIELDS)
#: ``set_highest_bid(state, highest)`` fills ``state.highest_bid`` with ``highest``, which
#: the caller knows to be what the players' face-up totals give (a cache: equality, hashing
#: and pickling ignore it). The slot's own setter, not a wrapper: it runs on every action.
set_highest_bid: Callable[[GameState, int], None] = _slot_setter(GameState, "highest_bid")


class _Keep:
    """The default of :func:`evolve_state` for the fields that may be ``None``: keep it."""


_KEEP: Final = _Keep()


def evolve_player(
    p: PlayerState,
    hand: frozenset[int] | None = None,
    table: frozenset[int] | None = None,
    spent: frozenset[int] | None = None,
    passed: bool | None = None,
    status_cards: tuple[StatusCard, ...] | None = None,
) -> PlayerState:
    """``attrs.evolve(p, ...)``: ``p`` with the fields given (by keyword) replaced. (No field
    of a player is ever ``None``, so ``None`` keeps a field: a cheaper test than ``_KEEP``.)"""
    q: PlayerState = _new(PlayerState)
    _set_hand(q, p.hand if hand is None else hand)
    _set_table(q, p.table if table is None else table)
    _set_spent(q, p.spent if spent is None else spent)
    _set_passed(q, p.passed if passed is None else passed)
    _set_status_cards(q, p.status_cards if status_cards is None else status_cards)
    return q


def evolve_state(
    s: GameState,
    players: tuple[PlayerState, ...] | None = None,
    deck: tuple[StatusCard, ...] | None = None,
    phase: Phase | None = None,
    turn: int | None = None,
    auction: StatusCard | _Keep | None = _KEEP,
    removed: tuple[StatusCard, ...] | None = None,
    ending_card: StatusCard | _Keep | None = _KEEP,
) -> GameState:
    """``attrs.evolve(s, ...)``: ``s`` with the fields given (by keyword) replaced; the
    configuration is kept. The cached highest bid starts empty, as in any new state. (``None``
    keeps a field that is never ``None``: a cheaper test than ``_KEEP``.)"""
    q: GameState = _new(GameState)
    _set_config(q, s.config)
    _set_players(q, s.players if players is None else players)
    _set_deck(q, s.deck if deck is None else deck)
    _set_phase(q, s.phase if phase is None else phase)
    _set_turn(q, s.turn if turn is None else turn)
    _set_auction(q, s.auction if auction is _KEEP else auction)
    _set_removed(q, s.removed if removed is None else removed)
    _set_ending_card(q, s.ending_card if ending_card is _KEEP else ending_card)
    return q


def next_turn(s: GameState, players: tuple[PlayerState, ...], turn: int) -> GameState:
    """``evolve_state(s, players=players, turn=turn)``, for the most frequent new state, an
    auction going on (saves the keyword handling: about 1,000 instructions, 3% of a bid)."""
    q: GameState = _new(GameState)
    _set_config(q, s.config)
    _set_players(q, players)
    _set_deck(q, s.deck)
    _set_phase(q, s.phase)
    _set_turn(q, turn)
    _set_auction(q, s.auction)
    _set_removed(q, s.removed)
    _set_ending_card(q, s.ending_card)
    return q


# --- Small things ----------------------------------------------------------------------------

#: Canonical rank of each status card, keyed by its value string.
RANK = {card._value_: rank for rank, card in enumerate(StatusCard)}
if len(RANK) != len(StatusCard):
    raise LayoutError("two status cards share a value: ranks by value would collide")


def with_card(cards: tuple[StatusCard, ...], card: StatusCard) -> tuple[StatusCard, ...]:
    """``sort_cards((*cards, card))`` for ``cards`` already in canonical order, ranking cards
    by their value string (saves hashing each member in Python, as ``sort_cards`` does)."""
    rank = RANK[card._value_]
    for i, c in enumerate(cards):
        if RANK[c._value_] > rank:
            return (*cards[:i], card, *cards[i:])
    return (*cards, card)


def randbelow(getrandbits: Callable[[int], int], n: int) -> int:
    """``Random.randrange(n)`` for an int ``n >= 1``, with ``getrandbits`` the same
    generator's: a draw of ``n.bit_length()`` bits, repeated while it is ``n`` or more, as
    CPython's ``Random._randbelow`` does (3.11 to 3.13), so the same seed gives the same
    numbers (saves ``randrange``'s two Python-level calls, about 0.1 µs a draw)."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r

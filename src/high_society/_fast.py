"""The engine's speed tricks, in one place, each with the check that keeps it honest.

Internal: ``rules`` uses these, and the bots and the dealer use :func:`randbelow`. They do
what the plain, public code does, faster:

- :func:`player_state` and :func:`game_state` build a state without the attrs
  ``__init__``, setting each slot through its descriptor (about twice as fast, at a few
  states per action). Keyword arguments only, every field named: the shape is explicit.
- :func:`set_highest_bid` fills the cache of ``GameState.highest_bid`` when a transition
  knows the value for certain, so that it is never recomputed from the tables.
- :func:`with_card` inserts a status card in canonical order, ranking cards by their value
  string (hashing an ``Enum`` member is a Python-level call; hashing a ``str`` is not).
- :func:`randbelow` draws what ``random.Random.randrange(n)`` draws, from the same stream,
  without its two Python-level calls (about 0.1 µs saved on each of a game's draws).

The state tricks rest on how attrs lays out a frozen slotted class. :func:`check_layout` states
those assumptions and runs when this module is imported, so a validator, converter or
post-init added to a bypassed class, a renamed field or an attrs release that stores cached
properties differently stops the import with :class:`LayoutError` instead of silently
building states the public constructor would not build. ``attrs`` is bounded in
``pyproject.toml`` to the releases this check has passed on.
"""

import types
from collections.abc import Callable

import attrs

from high_society.cards import GameConfig, StatusCard
from high_society.errors import HighSocietyError
from high_society.state import GameState, Phase, PlayerState

__all__ = [
    "GAME_FIELDS",
    "PLAYER_FIELDS",
    "RANK",
    "LayoutError",
    "check_layout",
    "game_state",
    "player_state",
    "randbelow",
    "set_highest_bid",
    "with_card",
]

#: The fields :func:`player_state` sets, in the order attrs declares them.
PLAYER_FIELDS = ("hand", "table", "spent", "passed", "status_cards")
#: The fields :func:`game_state` sets, in the order attrs declares them.
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


def player_state(
    *,
    hand: frozenset[int],
    table: frozenset[int],
    spent: frozenset[int],
    passed: bool,
    status_cards: tuple[StatusCard, ...],
) -> PlayerState:
    """``PlayerState(hand=..., table=..., ...)`` with every field given, built faster."""
    p: PlayerState = _new(PlayerState)
    _set_hand(p, hand)
    _set_table(p, table)
    _set_spent(p, spent)
    _set_passed(p, passed)
    _set_status_cards(p, status_cards)
    return p


def game_state(
    *,
    config: GameConfig,
    players: tuple[PlayerState, ...],
    deck: tuple[StatusCard, ...],
    phase: Phase,
    turn: int,
    auction: StatusCard | None,
    removed: tuple[StatusCard, ...],
    ending_card: StatusCard | None,
) -> GameState:
    """``GameState(config=..., players=..., ...)`` with every field given, built faster."""
    s: GameState = _new(GameState)
    _set_config(s, config)
    _set_players(s, players)
    _set_deck(s, deck)
    _set_phase(s, phase)
    _set_turn(s, turn)
    _set_auction(s, auction)
    _set_removed(s, removed)
    _set_ending_card(s, ending_card)
    return s


#: Canonical rank of each status card, keyed by its value string.
RANK = {card._value_: rank for rank, card in enumerate(StatusCard)}
if len(RANK) != len(StatusCard):
    raise LayoutError("two status cards share a value: ranks by value would collide")


def with_card(cards: tuple[StatusCard, ...], card: StatusCard) -> tuple[StatusCard, ...]:
    """``sort_cards((*cards, card))`` for ``cards`` already in canonical order."""
    rank = RANK[card._value_]
    for i, c in enumerate(cards):
        if RANK[c._value_] > rank:
            return (*cards[:i], card, *cards[i:])
    return (*cards, card)


def randbelow(getrandbits: Callable[[int], int], n: int) -> int:
    """``Random.randrange(n)`` for an int ``n >= 1``, with ``getrandbits`` the same
    generator's: a draw of ``n.bit_length()`` bits, repeated while it is ``n`` or more, as
    CPython's ``Random._randbelow`` does (3.11 to 3.13), so the same seed gives the same
    numbers (tests/test_fast.py compares them)."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r

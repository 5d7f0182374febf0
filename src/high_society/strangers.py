"""Strangers: opponent styles that no learned bot trained against, for measuring them.

A learned bot is measured against opponents kept out of its training (docs/bots.md). These
styles are written apart from the training league (:mod:`high_society.batch.league`,
which never imports this module: ``tests/test_league.py`` checks it) and apart from the
package's other bots: each prices the card up for auction with its own table, from what
the seat sees, and bids the cheapest legal bid while the highest bid on the table is below
its price and its money stays above its own floor. None of them plays like the heuristic,
classic or cautious bots.

Each is a :class:`~high_society.batch.policies.BatchPolicy` (it decides for many games at
once with numpy, from raw observations) and, through :class:`StrangerBot`, a bot of the
reducer (``high-society tournament high_society.strangers:thrifty ...``). Faux Pas: the
lowest luxury card goes.

>>> from high_society import Reveal, StatusCard, apply, is_legal, new_game
>>> state = apply(new_game(4), Reveal(StatusCard.LUXURY_8))
>>> is_legal(state, thrifty(1).choose(state))
True
"""

import attrs
import numpy as np
import numpy.typing as npt

from high_society._text import short_repr
from high_society.actions import Action
from high_society.cards import STANDARD
from high_society.errors import InvalidConfigError
from high_society.learned import reduced_choice
from high_society.state import GameState

__all__ = [
    "STRANGERS",
    "Stranger",
    "StrangerBot",
    "careful",
    "collector",
    "dodger",
    "keeper",
    "late_spender",
    "noisy",
    "prestige_hunter",
    "thrifty",
    "value_bidder",
]

F32 = npt.NDArray[np.float32]
_MONEY = np.array(STANDARD.money, dtype=np.float32)
_M = len(STANDARD.money)
_START = float(_MONEY.sum())
_AUCTION, _DECK, _HIGHEST, _GLOBAL = 4, 18, 46, 47
_PRESTIGE, _FAUX_PAS, _PASSE, _SCANDALE = 10, 11, 12, 13
_LUXURY = np.arange(1, 11, dtype=np.float32)
_MAX_SIZE = _GLOBAL + 5 * (2 * _M + 16)  # the observation of 5 players


@attrs.frozen
class Stranger:
    """A pricing style: the most it lets the table's highest bid reach before it passes.

    Prices: a luxury card of value ``v`` is worth ``luxury_rate * v + luxury_base``; a
    prestige card ``prestige_base + prestige_rate * L`` (``L`` its luxury sum); avoiding
    Passé, Faux Pas or Scandale ``passe``, ``faux_pas``, ``scandale + scandale_rate * L``.
    Each price is multiplied by ``early`` while three or four of the dark-green cards are
    still in the deck, else by ``late``, and by a draw in ``[1 - noise, 1 + noise]``: a
    hash of the observation, keyed by ``seed``, so that a stranger is a pure function of
    what it sees (the same in any order of games, in any process).
    It bids only while its money after the bid stays at least ``floor`` of its starting
    money, and (with ``margin`` not ``None``) more than ``margin`` above the money of the
    poorest other seat: the money in that seat's hand, or with ``counts_bids`` its hand and
    its bid face up on the table (which comes back to every seat but the auction's winner).
    Every stranger of :data:`STRANGERS` counts hands only. Its name says what it is.
    """

    name: str
    luxury_rate: float = 1.5
    luxury_base: float = 2.0
    prestige_base: float = 12.0
    prestige_rate: float = 0.5
    passe: float = 4.0
    faux_pas: float = 3.0
    scandale: float = 6.0
    scandale_rate: float = 0.3
    early: float = 1.0
    late: float = 1.0
    floor: float = 0.3
    margin: float | None = None
    counts_bids: bool = False
    noise: float = 0.0
    seed: int = 0
    _key: npt.NDArray[np.int64] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        key = np.random.default_rng(self.seed).integers(1, 2**20, size=_MAX_SIZE)
        key.flags.writeable = False
        object.__setattr__(self, "_key", key)

    def prices(self, observations: F32) -> F32:
        """``(k,)``: its price for the card up for auction in each raw observation."""
        mine = observations[:, _GLOBAL + 2 * _M + 2 : _GLOBAL + 2 * _M + 16]
        luxury_sum = mine[:, :10] @ _LUXURY
        auction = observations[:, _AUCTION : _AUCTION + 14].argmax(axis=1)
        value = np.where(auction < 10, auction + 1, 0).astype(np.float32)
        price = np.select(
            [
                auction < 10,
                auction == _PRESTIGE,
                auction == _FAUX_PAS,
                auction == _PASSE,
            ],
            [
                self.luxury_rate * value + self.luxury_base,
                self.prestige_base + self.prestige_rate * luxury_sum,
                np.full_like(value, self.faux_pas),
                np.full_like(value, self.passe),
            ],
            self.scandale + self.scandale_rate * luxury_sum,
        )
        # A luxury card a Faux Pas of its own waits for would be lost at once (R8).
        price = np.where((auction < 10) & (mine[:, _FAUX_PAS] > 0), 0.0, price)
        dark_left = observations[:, _DECK + _PRESTIGE] + observations[:, _DECK + _SCANDALE]
        price = price * np.where(dark_left >= 3, self.early, self.late)
        if self.noise:
            # Whole numbers throughout, so that one row or many give the same draw.
            keyed = observations.astype(np.int64) @ self._key[: observations.shape[1]]
            mixed = keyed.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)  # wraps: a hash
            uniform = (mixed >> np.uint64(11)).astype(np.float64) / 2.0**53
            price = price * (1 - self.noise + 2 * self.noise * uniform)
        out: F32 = price.astype(np.float32)
        return out

    def bids(self, observations: F32) -> npt.NDArray[np.bool_]:
        """``(k,)``: whether to make the cheapest bid, for raw observations of seats that
        may (see the class)."""
        money = observations[:, _GLOBAL : _GLOBAL + _M] @ _MONEY
        face_up = observations[:, _GLOBAL + _M : _GLOBAL + 2 * _M] @ _MONEY
        highest = observations[:, _HIGHEST]
        # Beating the highest bid costs at least one more than it, less what is face up.
        after = money - (highest + 1 - face_up)
        chosen: npt.NDArray[np.bool_] = (highest < self.prices(observations)) & (
            after >= self.floor * _START
        )
        if self.margin is not None:
            chosen &= after > _poorest_other(observations, self.counts_bids) + self.margin
        return chosen

    def __call__(self, seed: int, counts_bids: bool | None = None) -> "StrangerBot":
        """A bot of this style for the reducer, its draws seeded with ``seed``; with
        ``counts_bids`` given, counting the other seats' bids or not
        (``high_society.strangers:keeper,counts_bids=true`` in a tournament)."""
        style = self if counts_bids is None else self.counting(counts_bids)
        return StrangerBot(attrs.evolve(style, seed=seed))

    def counting(self, counts_bids: bool) -> "Stranger":
        """This style, counting the other seats' bids face up on the table as their money
        or not (see the class).

        Raises:
            InvalidConfigError: ``counts_bids`` is not a bool, or the style has no
                ``margin`` (the count changes nothing then).
        """
        if not isinstance(counts_bids, bool):
            raise InvalidConfigError(
                f"counts_bids must be true or false, not {short_repr(counts_bids)}"
            )
        if self.margin is None:
            raise InvalidConfigError(
                f"{self.name} keeps no margin above the poorest seat: counts_bids changes "
                "nothing (careful and keeper keep one)"
            )
        return attrs.evolve(self, counts_bids=counts_bids)


def _poorest_other(observations: F32, counts_bids: bool) -> F32:
    """``(k,)``: the least money among the other seats, their hands and, with
    ``counts_bids``, their bids face up (R14: every hand is known)."""
    block = 2 * _M + 16  # a seat's hand, its cards face up, its status cards
    players = (observations.shape[1] - _GLOBAL) // block
    held = []
    for k in range(1, players):
        start = _GLOBAL + k * block
        money = observations[:, start : start + _M] @ _MONEY
        if counts_bids:
            money = money + observations[:, start + _M : start + 2 * _M] @ _MONEY
        held.append(money)
    least: F32 = np.min(held, axis=0)
    return least


class StrangerBot:
    """Plays a :class:`Stranger` in the reducer: the cheapest bid or Pass as the style
    decides on the seat's observation; the lowest luxury card for a Faux Pas."""

    def __init__(self, style: Stranger) -> None:
        self.style = style

    def choose(self, state: GameState) -> Action:
        """The style's action for the seat to act.

        Raises:
            NoSeatToActError: no seat must act in ``state``.
        """
        return reduced_choice(state, self.style.bids)


#: Bids for what it likes at a fair price, keeps 30% of its money.
value_bidder = Stranger("value_bidder")
#: Low prices, keeps half its money: a careful player that still buys.
thrifty = Stranger(
    "thrifty", luxury_rate=1.0, luxury_base=1.0, prestige_base=9.0, scandale=3.0, floor=0.5
)
#: Prestige at almost any price, luxury cheap.
prestige_hunter = Stranger(
    "prestige_hunter", luxury_rate=0.8, luxury_base=0.0, prestige_base=24.0, floor=0.2
)
#: Luxury dear, prestige cheap.
collector = Stranger("collector", luxury_rate=2.4, luxury_base=1.0, prestige_base=6.0)
#: Pays much to keep away from disgrace cards.
dodger = Stranger("dodger", passe=10.0, faux_pas=8.0, scandale=12.0, scandale_rate=0.6)
#: Cheap while the end is far, dear once two dark-green cards are out.
late_spender = Stranger("late_spender", early=0.5, late=1.8, floor=0.15)
#: A value bidder whose prices swing by half either way, at random.
noisy = Stranger("noisy", noise=0.5)
#: Moderate prices; never bids to become the poorest seat (R10), the others' money counted
#: in hand only, nor under a third of its money.
careful = Stranger(
    "careful", luxury_rate=1.2, luxury_base=1.0, prestige_base=10.0, scandale=4.0, margin=0.0
)
#: Fair prices; keeps 8 clear of the poorest other seat's hand.
keeper = Stranger("keeper", floor=0.2, margin=8.0)

#: Every stranger, by name.
STRANGERS: dict[str, Stranger] = {
    s.name: s
    for s in (
        value_bidder,
        thrifty,
        prestige_hunter,
        collector,
        dodger,
        late_spender,
        noisy,
        careful,
        keeper,
    )
}

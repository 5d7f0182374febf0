"""The training league of the shipped learned bots: which opponents they learned against.

:func:`training_pool` is the fixed part of the league for a player count: the engine's
compiled bots at boldness values from hoarders to spenders (always passing, the cautious
and classic bots, the heuristic one from half to twice its prices, the cheapest bid
always), each with its weight, and, when asked, the :data:`WATCHERS`: thrifty styles that
keep their money level with the poorest seat's, at whose tables a bot that buys the most
status is cast out. :func:`~high_society.batch.training.train` adds frozen copies of the
learner as it goes. The opponents a bot is *measured* against, styles that no training
saw, live apart in :mod:`high_society.strangers`, which nothing here imports
(``tests/test_league.py`` checks it), and in the benchmarks' outsiders.
"""

import math
from collections.abc import Callable, Sequence

import attrs
import numpy as np
import numpy.typing as npt

from high_society._text import short_repr
from high_society.batch._engine import BatchError
from high_society.batch.policies import Compiled, Opponent
from high_society.cards import STANDARD
from high_society.observation import GLOBAL_SIZE, NUM_KINDS

__all__ = ["TRAINING_STYLES", "WATCHERS", "Watcher", "training_pool"]

#: The compiled opponents of the league, with their weights (of a seat's draw).
TRAINING_STYLES: tuple[tuple[Compiled, float], ...] = (
    (Compiled("pass"), 0.5),
    (Compiled("cautious"), 0.5),
    (Compiled("classic", 0.8), 0.5),
    (Compiled("classic", 1.2), 0.5),
    (Compiled("heuristic", 0.5), 0.75),
    (Compiled("heuristic", 0.7), 1.0),
    (Compiled("heuristic", 1.0), 2.0),
    (Compiled("heuristic", 1.4), 1.0),
    (Compiled("heuristic", 2.0), 0.75),
    (Compiled("cheapest"), 0.25),
    (Compiled("uniform"), 0.25),
)

_MONEY = np.array(STANDARD.money * 2, dtype=np.float32)  # a seat's hand, then its bid
_SEAT = len(_MONEY) + 2 + NUM_KINDS  # money flags, passed, turn, status cards by kind
_STATUS = GLOBAL_SIZE + len(_MONEY) + 2  # the observer's status cards
_LUXURY = np.arange(1, 11, dtype=np.float32)
_PRESTIGE, _FAUX_PAS, _PASSE = 10, 11, 12  # kinds in StatusCard order; 13 is Scandale


def _finite(*, above_zero: bool) -> Callable[[object, "attrs.Attribute[float]", float], None]:
    """A validator: a finite number (above 0 when ``above_zero``), else a ``BatchError``."""

    def check(instance: object, attribute: "attrs.Attribute[float]", value: object) -> None:
        del instance
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
            or (above_zero and value <= 0)
        ):
            wanted = "a finite number above 0" if above_zero else "a finite number"
            raise BatchError(
                f"a watcher's {attribute.name} must be {wanted}, not {short_repr(value)}"
            )

    return check


@attrs.frozen
class Watcher:
    """A thrifty style that watches the poorest seat (a
    :class:`~high_society.batch.policies.BatchPolicy`): it makes the cheapest bid only
    while both hold, from the seat's raw observation (R14: every hand is known).

    - **Price**: the total it would have on the table, at least the highest bid plus one,
      is at most ``rate`` times the card's worth: a luxury card's value; for Prestige the
      luxury points it holds, at least 8; for a Faux Pas (bidding to avoid it) its lowest
      luxury card, 3 if none; 5 for Passé; for Scandale 4 plus half its luxury points.
    - **Money**: its money (hand and bid face up) less that total stays at least
      ``margin`` above the least money of another seat (hand and bid face up). With
      ``margin >= 0`` it never bids first while every seat's money is level: at a table of
      them alone nobody pays and nobody wins (R10).

    Raises:
        BatchError: ``rate`` not a finite number above 0, or ``margin`` not a finite number.
    """

    rate: float = attrs.field(validator=_finite(above_zero=True))
    margin: float = attrs.field(validator=_finite(above_zero=False))

    def bids(self, observations: npt.NDArray[np.float32]) -> npt.NDArray[np.bool_]:
        """``(k,)``: whether to make the cheapest bid, for raw observations of seats that
        may (see the class)."""
        players = (observations.shape[1] - GLOBAL_SIZE) // _SEAT
        money = [
            observations[:, start : start + len(_MONEY)] @ _MONEY
            for start in range(GLOBAL_SIZE, GLOBAL_SIZE + players * _SEAT, _SEAT)
        ]
        total = observations[:, GLOBAL_SIZE - 1] + 1  # the highest bid is the last global
        chosen: npt.NDArray[np.bool_] = (total <= self.rate * _worth(observations)) & (
            money[0] - total >= np.min(money[1:], axis=0) + self.margin
        )
        return chosen


def _worth(observations: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """``(k,)``: the card up for auction's worth to the observer (see :class:`Watcher`)."""
    status = observations[:, _STATUS : _STATUS + NUM_KINDS]
    luxury = status[:, :10] @ _LUXURY
    owned = status[:, :10] > 0
    lowest = np.where(owned.any(axis=1), owned.argmax(axis=1) + 1.0, 3.0)
    card = observations[:, 4 : 4 + NUM_KINDS].argmax(axis=1)  # after the phase's 4 flags
    worth: npt.NDArray[np.float32] = np.select(
        [card < 10, card == _PRESTIGE, card == _FAUX_PAS, card == _PASSE],
        [card + 1.0, np.maximum(luxury, 8.0), lowest, np.full_like(luxury, 5.0)],
        4.0 + luxury / 2,
    ).astype(np.float32)
    return worth


#: The watchers of the league: prices from 0.8 to 1.8 times a card's worth, each keeping
#: its money 8 below, level with, or 6 above the poorest seat's.
WATCHERS: tuple[Watcher, ...] = tuple(
    Watcher(rate, margin) for rate in (0.8, 1.2, 1.8) for margin in (-8.0, 0.0, 6.0)
)


def training_pool(
    extra: Sequence[Opponent] = (), extra_weight: float = 1.0, watchers: float = 0.0
) -> tuple[list[Opponent], list[float]]:
    """The league's fixed opponents and their weights: :data:`TRAINING_STYLES`, then
    ``extra`` opponents (a former learned bot, say) with ``extra_weight`` each, then, if
    ``watchers`` is above 0, the :data:`WATCHERS` with that weight each."""
    opponents: list[Opponent] = [style for style, _ in TRAINING_STYLES]
    weights = [weight for _, weight in TRAINING_STYLES]
    opponents += list(extra)
    weights += [extra_weight] * len(extra)
    if watchers > 0:
        opponents += list(WATCHERS)
        weights += [watchers] * len(WATCHERS)
    return opponents, weights

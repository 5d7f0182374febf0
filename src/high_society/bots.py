"""Built-in opponents: a uniformly random player and a simple heuristic one.

A bot is anything with ``choose(state) -> Action`` that returns a legal action for the seat
that must act (see :class:`Bot`). Both bots here are deterministic for a given seed.
"""

import random
from typing import Protocol, assert_never

from high_society._fast import randbelow
from high_society.actions import Action, Pass
from high_society.cards import CardKind, StatusCard
from high_society.errors import NoSeatToActError
from high_society.rules import LegalActions, legal_actions
from high_society.scoring import status_of
from high_society.state import GameState, Phase

__all__ = ["Bot", "HeuristicBot", "RandomBot"]


class Bot(Protocol):
    """A player program: given a state where a seat must act, it returns that seat's action."""

    def choose(self, state: GameState) -> Action:
        """A legal action for ``to_act(state)``, which is a seat."""
        ...


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

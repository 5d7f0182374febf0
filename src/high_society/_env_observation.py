"""An agent's observation as the environments give it (the PettingZoo environments of
:mod:`high_society.pettingzoo` and the Gymnasium one of :mod:`high_society.gymnasium_env`):
its type, its Gymnasium space, and the legal-action masks they keep.

The masks follow the package's one mask convention (docs/ai.md): int8 0/1, one entry per
action id. :func:`legal_mask` hands out a read-only array, kept for the auction states
that share it; each environment copies it into the agent's own array.
"""

from typing import Final, TypedDict

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from high_society.cards import STANDARD
from high_society.encoding import legal_action_bytes, num_actions
from high_society.observation import observation_size
from high_society.state import GameState, Phase

__all__ = ["MASK_CACHE_SIZE", "Observation", "legal_mask", "observation_space"]

_AUCTION = Phase.AUCTION
# A dtype object, not the scalar type: numpy skips a conversion per call.
_INT8 = np.dtype(np.int8)


class Observation(TypedDict):
    """One agent's observation, as PettingZoo's classic games give it."""

    #: The R14 observation tensor, the observer's seat first.
    observation: NDArray[np.float32]
    #: 1 at each legal action id, 0 elsewhere (all 0 when it is not the agent's turn).
    action_mask: NDArray[np.int8]


def observation_space(players: int, *, normalize: bool = False) -> spaces.Dict:
    """The space of an :class:`Observation` in a game of ``players`` seats: the tensor
    within 0 and the largest value it holds (a money total, the highest bid), or within
    ``[0, 1]`` if ``normalize``; the mask of the standard game's action ids."""
    high = 1.0 if normalize else float(max(STANDARD.total_money, 3))
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, high, (observation_size(players),), np.float32),
            "action_mask": spaces.Box(0, 1, (num_actions(STANDARD),), np.int8),
        }
    )


def legal_mask(state: GameState) -> NDArray[np.int8]:
    """The legal-action mask of ``state`` as a read-only array, from
    :func:`~high_society.encoding.legal_action_bytes`; in an auction, one array is kept and
    handed out for every state that shares its key.

    The key is what an auction's legal actions depend on (R5: Pass, and the bids that lift
    the bidder's face-up total above the highest one): the bidder's hand and the amount its
    bid must add more than (the highest bid less its face-up total), as
    :func:`~high_society.legal_actions` itself reads them. The key only says which states
    share a mask; every mask is the encoding's own. The masks are kept by hand, then by
    amount: a dict of ints and arrays holds nothing the garbage collector must visit, and
    a frozenset keeps its hash.
    """
    if state.phase is _AUCTION:
        player = state.players[state.turn]
        amount = state.highest_bid - sum(player.table)
        by_amount = _MASKS.get(player.hand)
        if by_amount is not None:
            mask = by_amount.get(amount)
            if mask is not None:
                return mask
        return _keep_mask(state, player.hand, amount)
    return np.frombuffer(legal_action_bytes(state), _INT8)


def _keep_mask(state: GameState, hand: frozenset[int], amount: int) -> NDArray[np.int8]:
    global _kept
    mask = np.frombuffer(legal_action_bytes(state), _INT8)  # read-only: bytes
    while _kept >= MASK_CACHE_SIZE:  # the hand kept longest goes first, with its masks
        _kept -= len(_MASKS.pop(next(iter(_MASKS))))
    by_amount = _MASKS.get(hand)
    if by_amount is None:
        by_amount = _MASKS[hand] = {}
    by_amount[amount] = mask
    _kept += 1
    return mask


#: How many auction masks are kept: the bound documented as
#: :data:`high_society.pettingzoo.MASK_CACHE_SIZE`, read here at each new mask.
MASK_CACHE_SIZE: Final = 8192
_MASKS: dict[frozenset[int], dict[int, NDArray[np.int8]]] = {}
_kept = 0

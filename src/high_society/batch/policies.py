"""Opponents for the vector environments: compiled policies with their boldness, and
policies played with numpy over many games at once.

A :class:`BatchPolicy` decides between passing and the cheapest legal bid (the
*pass-or-cheapest* action reduction, :data:`ACTION_SETS`) from the raw observations of the
seats to act (rows of :func:`~high_society.observation.observation_tensor`), for every game
that waits for it at once; its Faux Pas discards (the lowest luxury card) and its passes
where no bid is legal are played for it. A :class:`~high_society.learned.PolicyNetwork` is
one (a network of the full action space plays its best legal id instead).
:func:`act_in_batch` plays one in a :class:`~high_society.batch.GameBatch`.
"""

from collections.abc import Callable
from typing import Protocol, runtime_checkable

import attrs
import numpy as np
import numpy.typing as npt

from high_society._text import short_repr
from high_society.batch._engine import POLICIES, BatchError, GameBatch
from high_society.bots import Bot

__all__ = ["ACTION_SETS", "BatchPolicy", "Compiled", "Opponent", "act_in_batch"]

#: The learner's action sets: every action id, or Pass and the cheapest legal bid.
ACTION_SETS = ("full", "pass-cheapest")


@runtime_checkable
class BatchPolicy(Protocol):
    """A policy over many games at once: whether to make the cheapest legal bid."""

    def bids(self, observations: npt.NDArray[np.float32]) -> npt.NDArray[np.bool_]:
        """``(k,)``: for ``k`` raw observations of seats that may pass or make the cheapest
        bid, whether each bids."""
        ...


def _policy_name(instance: object, attribute: object, value: str) -> None:
    del instance, attribute
    if not isinstance(value, str) or value not in POLICIES[1:]:
        raise BatchError(
            f"a compiled policy is one of {', '.join(POLICIES[1:])}, not {short_repr(value)}"
            + (" (the learner is the caller)" if value == "caller" else "")
        )


def _positive(instance: object, attribute: object, value: float) -> None:
    del instance, attribute
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < np.inf:
        raise BatchError(f"boldness must be a number > 0, not {short_repr(value)}")


@attrs.frozen
class Compiled:
    """A compiled policy of the engine (:data:`~high_society.batch.POLICIES`, not
    ``"caller"``) with the boldness its prices are scaled by (the heuristic and classic
    ones; the others ignore it).

    Raises:
        BatchError: an unknown name, or a boldness that is not a number > 0.
    """

    name: str = attrs.field(validator=_policy_name)
    boldness: float = attrs.field(default=1.0, validator=_positive)

    @property
    def code(self) -> int:
        """Its index in :data:`~high_society.batch.POLICIES`."""
        return POLICIES.index(self.name)


#: An opponent in :class:`~high_society.batch.learner.LearnerVectorEnv`: a compiled
#: policy (its name, or :class:`Compiled`), a :class:`BatchPolicy`, or a factory of
#: :class:`~high_society.bots.Bot` called with a seed for every game.
Opponent = str | Compiled | BatchPolicy | Callable[[int], Bot]


def act_in_batch(
    policy: BatchPolicy,
    batch: GameBatch,
    games: npt.NDArray[np.bool_],
    plain: npt.NDArray[np.int64] | None = None,
    cheapest: npt.NDArray[np.int64] | None = None,
) -> npt.NDArray[np.int64]:
    """``(N,)``: the action ids ``policy`` plays for the seats to act in ``games`` (other
    rows: 0). ``plain`` and ``cheapest`` are the engine's ``"pass"`` and ``"cheapest"``
    actions, when the caller has them already."""
    if plain is None:
        plain = batch.policy_actions("pass")  # the lowest discard, else Pass
    if cheapest is None:
        cheapest = batch.policy_actions("cheapest")
    ids = np.where(games, plain, 0)
    choice = games & (plain == 0) & (cheapest != 0)
    if not choice.any():
        return ids
    observations = batch.observations(where=choice)[choice]
    if getattr(policy, "full_actions", False):
        evaluate: Callable[[npt.NDArray[np.float32]], npt.NDArray[np.float32]]
        evaluate = policy.evaluate  # type: ignore[attr-defined]
        logits = evaluate(observations)
        legal = batch.legal_action_mask()[choice] != 0
        ids[choice] = np.where(legal, logits, -np.inf).argmax(axis=1)
    else:
        ids[choice] = np.where(policy.bids(observations), cheapest[choice], 0)
    return ids

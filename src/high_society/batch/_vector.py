"""``VectorEnv``: the batch engine behind a Gymnasium-style vector interface (self-play)."""

from collections.abc import Mapping
from typing import Any, TypedDict

import numpy as np
import numpy.typing as npt

from high_society._text import short_repr
from high_society.batch._engine import BatchError, GameBatch, Seed
from high_society.cards import STANDARD, GameConfig

__all__ = ["StepInfo", "VectorEnv"]


class StepInfo(TypedDict):
    """The ``infos`` of :meth:`VectorEnv.reset` and :meth:`VectorEnv.step`.

    ``action_mask``: ``(N, num_actions)`` int8 0/1, the legal action ids of the seat to act
    (the mask a masked policy needs); ``to_act``: ``(N,)`` the seat each observation is
    for.
    """

    action_mask: npt.NDArray[np.int8]
    to_act: npt.NDArray[np.int64]


class VectorEnv:
    """``num_envs`` games for self-play: one policy acts for whichever seat is to act.

    Shaped like a Gymnasium vector environment (``reset`` gives ``(observations, infos)``,
    ``step`` gives ``(observations, rewards, terminations, truncations, infos)``) without
    depending on Gymnasium, with two differences that a multi-seat game needs:

    - ``rewards`` is ``(N, players)``: every seat's reward, not only the actor's. It is 0
      until a game ends; then each winner gets its share of 1 (``GameBatch.returns``).
    - ``observations`` are for the seat to act, given in ``infos["to_act"]``, with its
      legal actions in ``infos["action_mask"]``.

    A game that ends is reset in the same step (Gymnasium's "same-step" autoreset): its
    row of ``terminations`` and ``rewards`` is about the game that ended, its observation
    and mask already about the next game. ``truncations`` is always ``False``: every game
    ends by the rules (R9).

    >>> env = VectorEnv(8, players=4, seed=3)
    >>> observations, infos = env.reset()
    >>> observations.shape, infos["action_mask"].shape
    ((8, 199), (8, 2058))
    >>> actions = env.batch.sample_actions()  # a uniform policy; use your own
    >>> observations, rewards, terminations, truncations, infos = env.step(actions)
    >>> rewards.shape
    (8, 4)

    Raises:
        InvalidConfigError: ``players`` is not 3 to 5, or the config is too large for
            the batch engine.
        BatchError: ``num_envs`` is not an int >= 1, or a bad ``seed``.
    """

    __slots__ = ("_batch",)

    def __init__(
        self, num_envs: int, players: int, *, config: GameConfig = STANDARD, seed: Seed = 0
    ) -> None:
        self._batch = GameBatch(num_envs, players, config=config, seed=seed)

    @property
    def batch(self) -> GameBatch:
        """The :class:`GameBatch` underneath (to convert a game, sample actions, ...)."""
        return self._batch

    @property
    def num_envs(self) -> int:
        """How many games run at once."""
        return self._batch.num_games

    @property
    def num_players(self) -> int:
        """Seats per game."""
        return self._batch.num_players

    @property
    def num_actions(self) -> int:
        """The number of action ids (standard 2,058)."""
        return self._batch.num_actions

    @property
    def observation_size(self) -> int:
        """Floats per observation."""
        return self._batch.observation_size

    def reset(
        self, *, seed: Seed | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], StepInfo]:
        """Start every game afresh (with new random streams when ``seed`` is given; numpy's
        integers are taken too), or with ``options={"reset_mask": mask}`` only the games
        that ``mask`` selects, as Gymnasium's vector environments take it.

        Returns fresh arrays: the observations for the seats to act, and the infos.

        Raises:
            BatchError: a bad ``seed`` (see :meth:`GameBatch.reset`), or ``options`` with
                another key or a mask that is not ``num_envs`` bools.
        """
        which = None
        for key, value in (options or {}).items():
            if key != "reset_mask":
                raise BatchError(f"unknown reset option {short_repr(key)}: only 'reset_mask'")
            which = np.asarray(value)
            if which.dtype != np.bool_ or which.shape != (self.num_envs,):
                raise BatchError(f"reset_mask must be a bool array of shape ({self.num_envs},)")
        if isinstance(seed, np.integer):  # numpy's integers, which mypy's Seed does not list
            seed = int(seed)  # type: ignore[unreachable]
        if which is None or seed is not None:
            self._batch.reset(seed)
        else:
            self._batch.reset_games(which)
        return self._view()

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        StepInfo,
    ]:
        """Apply one action id per game; reset the games that end (see the class).

        Raises:
            IllegalActionIdError: an id is not legal in its game; nothing happened.
            BatchError: ``actions`` is not ``num_envs`` integers.
        """
        batch = self._batch
        terminations = batch.step(actions)
        rewards = np.zeros((self.num_envs, self.num_players), dtype=np.float64)
        if terminations.any():
            rewards[terminations] = batch.returns()[terminations]
            batch.reset_games(terminations)
        truncations = np.zeros(self.num_envs, dtype=np.bool_)
        observations, infos = self._view()
        return observations, rewards, terminations, truncations, infos

    def close(self) -> None:
        """Nothing to release; here for the Gymnasium shape."""

    def _view(self) -> tuple[npt.NDArray[np.float32], StepInfo]:
        # Fresh arrays each time: a caller may keep them (a replay buffer, a rollout).
        batch = self._batch
        mask = batch.legal_action_mask()
        return batch.observations(), StepInfo(action_mask=mask, to_act=batch.to_act)

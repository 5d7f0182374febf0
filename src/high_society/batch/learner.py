"""``LearnerVectorEnv``: a Gymnasium vector environment for a learner against compiled bots.

``N`` games on the batch engine (:class:`~high_society.batch.GameBatch`); in each, the
learner plays one seat (drawn anew for every game, or fixed, or a chosen set of seats) and
compiled policies (:data:`~high_society.batch.POLICIES`: by default
:class:`~high_society.bots.HeuristicBot`) play the others, inside the engine's compiled
loop (:meth:`GameBatch.advance <high_society.batch.GameBatch.advance>`). Needs the
``batch`` and ``pettingzoo`` extras (numpy, numba and Gymnasium).

>>> env = LearnerVectorEnv(8, players=4, seed=3)
>>> observations, infos = env.reset(seed=3)
>>> observations["observation"].shape, observations["action_mask"].dtype
((8, 199), dtype('int8'))
>>> actions = env.sample_legal()  # a uniform policy; use your own
>>> observations, rewards, terminations, truncations, infos = env.step(actions)
>>> rewards.shape, env.metadata["autoreset_mode"].value
((8,), 'NextStep')
"""

import operator
from collections.abc import Mapping, Sequence
from typing import Any, SupportsIndex

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from high_society._text import short_repr
from high_society.batch._engine import POLICIES, BatchError, GameBatch
from high_society.cards import STANDARD, GameConfig
from high_society.observation import observation_scale

__all__ = ["LearnerObservation", "LearnerVectorEnv"]

#: An observation of :class:`LearnerVectorEnv`: ``"observation"``, ``(N, size)`` float32,
#: and ``"action_mask"``, ``(N, num_actions)`` int8 (the package's mask convention).
LearnerObservation = dict[str, npt.NDArray[Any]]

_CALLER = POLICIES.index("caller")


class LearnerVectorEnv(
    gymnasium.vector.VectorEnv[LearnerObservation, npt.NDArray[np.int64], npt.NDArray[Any]]
):
    """``num_envs`` games: a learner against compiled opponents, as a Gymnasium vector env.

    - **Seats.** ``seats=None`` (the default) draws the learner's seat uniformly for every
      game (from the env's random generator, seeded by ``reset(seed=...)``); an int fixes
      it; a sequence of seats has the learner play all of them (one policy for a team:
      each observation is for whichever of them must act). ``infos["seat"]`` is the seat
      each observation is for.
    - **Opponents.** ``opponents`` is one name of :data:`~high_society.batch.POLICIES`
      for every other seat, or one per seat (the learner's seats' entries are ignored);
      ``boldness`` scales the heuristic's prices.
    - **Observations** are dicts, as in :mod:`high_society.pettingzoo`: ``"observation"``,
      the R14 tensor of the seat to act (float32; with ``normalize=True`` times
      :func:`~high_society.observation.observation_scale`, so within ``[0, 1]``) and
      ``"action_mask"``, its legal ids (int8 0/1, writable, new at each call: the
      package's one mask convention). :meth:`action_masks` gives the same masks as bool
      for sb3-contrib.
    - **Rewards** are ``(N,)``: 0 until a game ends, then the learner's share of the win
      (the sum over its seats). An illegal action ends that game at once with reward -1
      (``infos["illegal"]``), as in PettingZoo's classic games.
    - **Autoreset**, declared in ``metadata["autoreset_mode"]`` and chosen with
      ``autoreset_mode``: Gymnasium's default ``NEXT_STEP`` (a game that ends gives its
      last observation, with ``terminations`` true; the next ``step`` ignores its action
      and starts a new game there, reward 0), ``SAME_STEP`` (a game that ends is reset in
      the step that ended it: its row of ``terminations`` and ``rewards`` is about the game
      that ended, its observation about the next, and ``infos["final_obs"]``, with
      ``infos["_final_obs"]``, holds the learner's last observation of the game that
      ended), or ``DISABLED`` (an ended game waits for ``reset(options={"reset_mask":
      ...})``). A game waiting for its reset offers only id 0 in its mask (its action is
      ignored), so that a masked sampler always has a choice. Gymnasium's
      ``RecordEpisodeStatistics`` reads the mode and counts episode returns and lengths
      (a length is the learner's steps); its observation wrappers take the env in the
      ``NEXT_STEP`` and ``DISABLED`` modes, as they take any. ``truncations`` are always
      ``False``: every game ends by the rules (R9).
    - ``reset(seed=..., options=...)`` as Gymnasium specifies: ``seed`` an int (numpy's
      too) or ``None``; ``options`` may hold ``"reset_mask"``, the games to reset (the
      others are left as they are).

    Raises:
        InvalidConfigError: ``players`` is not 3 to 5, or the config is too large.
        BatchError: a bad ``num_envs``, ``seed``, ``seats``, ``opponents`` or ``boldness``.
    """

    metadata: dict[str, Any]

    def __init__(
        self,
        num_envs: int,
        players: int = 4,
        *,
        seats: int | Sequence[int] | None = None,
        opponents: str | Sequence[str] = "heuristic",
        boldness: float = 1.0,
        normalize: bool = False,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        config: GameConfig = STANDARD,
        seed: int = 0,
    ) -> None:
        try:
            self._mode = AutoresetMode(autoreset_mode)
        except ValueError:
            modes = ", ".join(repr(m.value) for m in AutoresetMode)
            raise BatchError(
                f"autoreset_mode must be one of {modes}, not {short_repr(autoreset_mode)}"
            ) from None
        self.metadata = {"autoreset_mode": self._mode}
        self._batch = batch = GameBatch(num_envs, players, config=config, seed=_seed(seed))
        self._rng = np.random.default_rng(_seed(seed))
        self._fixed = _seats(seats, players)
        self._opponents = self._opponent_codes(opponents)
        self._boldness = float(boldness)
        self._codes = np.empty((num_envs, players), dtype=np.int8)
        self._learner = np.zeros((num_envs, players), dtype=np.bool_)
        #: Games that ended and wait for their reset (next-step or disabled autoreset).
        self._done = np.zeros(num_envs, dtype=np.bool_)
        size = batch.observation_size
        scale = np.array(observation_scale(players, config), dtype=np.float32)
        self._scale = scale if normalize else None
        high = np.ones(size, np.float32) if normalize else (1.0 / scale).astype(np.float32)
        self.num_envs = num_envs
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, high, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (batch.num_actions,), np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(batch.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._new_seats(np.ones(num_envs, dtype=np.bool_))
        batch.advance(self._codes, boldness=self._boldness)

    @property
    def batch(self) -> GameBatch:
        """The :class:`~high_society.batch.GameBatch` underneath."""
        return self._batch

    @property
    def learner_seats(self) -> npt.NDArray[np.bool_]:
        """``(N, players)``: the seats the learner plays in each game (a fresh array)."""
        return self._learner.copy()

    def _opponent_codes(self, opponents: str | Sequence[str]) -> npt.NDArray[np.int8]:
        players = self._batch.num_players
        names = [opponents] * players if isinstance(opponents, str) else list(opponents)
        codes: npt.NDArray[np.int8] = self._batch.policy_codes(names)[0].copy()
        if (codes == _CALLER).any():
            raise BatchError("the opponents are compiled policies; the learner is the caller")
        return codes

    def _new_seats(self, games: npt.NDArray[np.bool_]) -> None:
        """Draw (or set) the learner's seats of ``games``; their codes follow."""
        n, players = self._batch.num_games, self._batch.num_players
        chosen = np.zeros((n, players), dtype=np.bool_)
        if self._fixed is None:
            chosen[np.arange(n), self._rng.integers(0, players, n)] = True
        else:
            chosen[:, list(self._fixed)] = True
        self._learner[games] = chosen[games]
        self._codes[games] = np.where(chosen[games], _CALLER, self._opponents[None, :])

    def reset(
        self, *, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[LearnerObservation, dict[str, Any]]:
        """New games: all of them, or those of ``options["reset_mask"]``; with ``seed`` the
        random streams (reveals, opponents, the learner's seats) start afresh.

        Raises:
            BatchError: a bad ``seed`` or ``options``.
        """
        n = self.num_envs
        which = np.ones(n, dtype=np.bool_)
        for key, value in (options or {}).items():
            if key != "reset_mask":
                raise BatchError(f"unknown reset option {short_repr(key)}: only 'reset_mask'")
            which = np.asarray(value)
            if which.dtype != np.bool_ or which.shape != (n,):
                raise BatchError(f"reset_mask must be a bool array of shape ({n},)")
        if seed is not None:
            self._rng = np.random.default_rng(_seed(seed))
            self._batch.reset(_seed(seed))
            which = np.ones(n, dtype=np.bool_)
        self._restart(which)
        observations = self._observe()
        return observations, {"seat": self._seat_shown()}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        LearnerObservation,
        npt.NDArray[Any],
        npt.NDArray[Any],
        npt.NDArray[Any],
        dict[str, Any],
    ]:
        """The learner plays one action id per game; the opponents play until the learner
        must act again; finished games are reset as the autoreset mode says (see the
        class). The action of a game waiting for its reset is ignored.

        Raises:
            BatchError: ``actions`` is not ``num_envs`` integers.
        """
        batch, n = self._batch, self.num_envs
        ids = np.asarray(actions)
        if ids.shape != (n,) or not np.issubdtype(ids.dtype, np.integer) or ids.dtype == np.bool_:
            raise BatchError(f"expected {n} integer action ids, not an array of shape {ids.shape}")
        ids = ids.astype(np.int64)
        if self._mode is AutoresetMode.NEXT_STEP and self._done.any():
            waiting = self._done.copy()
            self._restart(waiting)
            active = ~waiting
        else:
            active = ~self._done
        mask = batch.legal_action_mask()
        inside = (ids >= 0) & (ids < batch.num_actions)
        legal = np.zeros(n, dtype=np.bool_)
        legal[inside] = mask[np.flatnonzero(inside), ids[inside]] != 0
        illegal = active & ~legal
        # Only the legal actions of games in play are played: a game with an illegal one
        # ends here, and games waiting for their reset ignore theirs.
        batch.step(np.where(legal, ids, 0), where=active & legal)
        rewards = np.zeros(n, dtype=np.float64)
        rewards[illegal] = -1.0
        self._freeze(illegal)
        batch.advance(self._codes, boldness=self._boldness)
        over = active & (illegal | batch.is_over)
        by_rules = over & ~illegal
        if by_rules.any():
            share = (batch.returns() * self._learner).sum(axis=1)
            rewards[by_rules] = share[by_rules]
        infos: dict[str, Any] = {"illegal": illegal, "_illegal": illegal}
        if self._mode is AutoresetMode.SAME_STEP:
            if over.any():
                infos["final_obs"] = self._observe(self._learner_seat())
                infos["_final_obs"] = over
                self._restart(over)
        else:
            self._done |= over
            self._freeze(self._done)
        observations = self._observe()
        infos["seat"] = self._seat_shown()
        return observations, rewards, over, np.zeros(n, dtype=np.bool_), infos

    def _restart(self, games: npt.NDArray[np.bool_]) -> None:
        """New games where ``games``, played by the opponents up to the learner's turn."""
        self._batch.reset_games(games)
        self._done &= ~games
        self._new_seats(games)
        self._batch.advance(self._codes, boldness=self._boldness)

    def _freeze(self, games: npt.NDArray[np.bool_]) -> None:
        """Nobody plays in ``games`` (ended, waiting for their reset): every seat the
        caller's, so ``advance`` leaves them."""
        self._codes[games] = _CALLER

    def _learner_seat(self) -> npt.NDArray[np.int64]:
        """The learner's (first) seat in each game."""
        seats: npt.NDArray[np.int64] = self._learner.argmax(axis=1).astype(np.int64)
        return seats

    def _seat_shown(self) -> npt.NDArray[np.int64]:
        """The seat each observation is for: the seat to act, the learner's in a game
        waiting for its reset."""
        return np.where(self._done | self._batch.is_over, self._learner_seat(), self._batch.to_act)

    def _observe(self, seats: npt.NDArray[np.int64] | None = None) -> LearnerObservation:
        batch = self._batch
        waiting = self._done | batch.is_over
        if seats is None and waiting.any():
            seats = self._seat_shown()
        tensor = batch.observations(seats)
        if self._scale is not None:
            tensor *= self._scale
        return {"observation": tensor, "action_mask": self._masks()}

    def _masks(self) -> npt.NDArray[np.int8]:
        """The legal ids; a game waiting for its reset offers only 0 (ignored when played),
        so that a masked sampler always has a choice."""
        mask = self._batch.legal_action_mask()
        waiting = self._done | self._batch.is_over
        if waiting.any():
            mask[waiting] = 0
            mask[waiting, 0] = 1
        return mask

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """``(N, num_actions)`` bool: the legal ids of each game now, the masks of the last
        observations (what sb3-contrib's ``MaskablePPO`` asks a masked env for)."""
        masks: npt.NDArray[np.bool_] = self._masks() != 0
        return masks

    def sample_legal(self) -> npt.NDArray[np.int64]:
        """``(N,)``: a uniformly random legal action id per game (from the engine's policy
        streams): a baseline learner, and what a check needs to step the env."""
        return self._batch.sample_actions()

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""


def _seed(seed: object) -> int:
    """An int seed from an int or a numpy integer (not a bool)."""
    if isinstance(seed, bool) or not isinstance(seed, SupportsIndex):
        raise BatchError(f"a seed is an int from 0 to 2**64 - 1, not {short_repr(seed)}")
    return operator.index(seed)


def _seats(seats: int | Sequence[int] | None, players: int) -> tuple[int, ...] | None:
    if seats is None:
        return None
    chosen = (seats,) if isinstance(seats, int | np.integer) else tuple(seats)
    if (
        not chosen
        or len(set(chosen)) != len(chosen)
        or len(chosen) >= players
        or not all(
            isinstance(s, int | np.integer) and not isinstance(s, bool) and 0 <= s < players
            for s in chosen
        )
    ):
        raise BatchError(
            f"seats must be None, a seat from 0 to {players - 1} or a set of them that "
            f"leaves an opponent, not {short_repr(seats)}"
        )
    return tuple(int(s) for s in chosen)

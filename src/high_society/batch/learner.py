"""``LearnerVectorEnv``: a Gymnasium vector environment for a learner against any opponents.

``N`` games on the batch engine (:class:`~high_society.batch.GameBatch`); in each, the
learner plays one seat (drawn anew for every game, or fixed, or a chosen set of seats) and
opponents play the others: compiled policies (:data:`~high_society.batch.POLICIES`, by
default :class:`~high_society.bots.HeuristicBot`) inside the engine's compiled loop,
frozen numpy policies (a :class:`~high_society.learned.PolicyNetwork`, a snapshot of the
learner, or any :class:`~high_society.batch.policies.BatchPolicy`) batched over the games
that wait for them, and Python bots (a factory of :class:`~high_society.bots.Bot`) game by
game. Needs the ``batch`` and ``pettingzoo`` extras (numpy, numba and Gymnasium).

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
from collections.abc import Callable, Mapping, Sequence
from typing import Any, SupportsIndex

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from high_society._text import short_repr
from high_society.batch._engine import POLICIES, BatchError, GameBatch
from high_society.batch.policies import (
    ACTION_SETS,
    BatchPolicy,
    Compiled,
    Opponent,
    act_in_batch,
)
from high_society.bots import Bot
from high_society.cards import STANDARD, GameConfig
from high_society.encoding import action_id
from high_society.observation import observation_scale

__all__ = ["LearnerObservation", "LearnerVectorEnv"]

#: An observation of :class:`LearnerVectorEnv`: ``"observation"``, ``(N, size)`` float32,
#: and ``"action_mask"``, ``(N, num_actions)`` int8 (the package's mask convention).
LearnerObservation = dict[str, npt.NDArray[Any]]

_CALLER = POLICIES.index("caller")
_SEED_LIMIT = 2**64
_LEARNER = -1  # in the table of who plays each seat


class LearnerVectorEnv(
    gymnasium.vector.VectorEnv[LearnerObservation, npt.NDArray[np.int64], npt.NDArray[Any]]
):
    """``num_envs`` games: a learner against opponents of any kind, as a Gymnasium vector env.

    - **Seats.** ``seats=None`` (the default) draws the learner's seat uniformly for every
      game (from the env's random generator, seeded by ``reset(seed=...)``); an int fixes
      it; a sequence of seats has the learner play all of them (one policy for a team:
      each observation is for whichever of them must act). ``infos["seat"]`` is the seat
      each observation is for.
    - **Opponents** (:data:`~high_society.batch.policies.Opponent`): a name of
      :data:`~high_society.batch.POLICIES` or a :class:`~high_society.batch.policies.Compiled`
      (a compiled policy with its boldness), played inside the engine; a
      :class:`~high_society.batch.policies.BatchPolicy` such as a
      :class:`~high_society.learned.PolicyNetwork` (a frozen network: the learned bot, a
      snapshot of the learner), played with numpy over every game waiting for it at once;
      or a factory of :class:`~high_society.bots.Bot` (called with a seed for each game;
      it is given the state, game by game: slow, but any bot). ``opponents`` is one of
      them for every other seat, or one per seat (the learner's seats' entries are
      ignored); or with ``pool``, each opponent seat of each new game is drawn from
      ``pool`` (with ``pool_weights``, by default uniform): a league; in a share
      ``same_table`` of the games, one draw plays every opponent seat (a table of three of
      the same in 4 players), in the others each seat is drawn apart. ``boldness`` is the
      boldness of the compiled heuristic and classic opponents named by their name.
    - **Actions**, chosen with ``actions``: ``"full"`` (the default), every action id of
      :mod:`high_society.encoding` (``Discrete(2058)``); or ``"pass-cheapest"``, the action
      reduction the learned bot plays: ``Discrete(2)``, 0 passes and 1 makes the cheapest
      legal bid (:func:`~high_society.bots.cheapest_bid`). With the reduction the learner
      is asked only where it has that choice: its Faux Pas discards (the lowest luxury
      card) and its passes where no bid is legal are played for it.
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
      ended; only the games that ended are observed twice), or ``DISABLED`` (an ended
      game waits for ``reset(options={"reset_mask": ...})``). A game waiting for its reset
      offers only id 0 in its mask (its action is ignored), so that a masked sampler
      always has a choice. Gymnasium's ``RecordEpisodeStatistics`` reads the mode and
      counts episode returns and lengths (a length is the learner's steps); its
      observation wrappers take the env in the ``NEXT_STEP`` and ``DISABLED`` modes, as
      they take any. ``truncations`` are always ``False``: every game ends by the rules
      (R9).
    - ``reset(seed=..., options=...)`` as Gymnasium specifies: ``seed`` an int from 0 to
      ``2**64 - 1`` (numpy's too) or ``None``; ``options`` a mapping that may hold
      ``"reset_mask"``, the games to reset (the others are left as they are).

    Raises:
        InvalidConfigError: ``players`` is not 3 to 5, or the config is too large.
        BatchError: a bad ``num_envs``, ``seed``, ``seats``, ``opponents``, ``pool``,
            ``pool_weights``, ``same_table``, ``boldness``, ``actions``, ``normalize`` or
            ``autoreset_mode``. Nothing else is raised for a bad argument.
    """

    metadata: dict[str, Any]

    def __init__(
        self,
        num_envs: int,
        players: int = 4,
        *,
        seats: int | Sequence[int] | None = None,
        opponents: Opponent | Sequence[Opponent] = "heuristic",
        pool: Sequence[Opponent] | None = None,
        pool_weights: Sequence[float] | None = None,
        same_table: float = 0.0,
        boldness: float = 1.0,
        actions: str = "full",
        normalize: bool = False,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        config: GameConfig = STANDARD,
        seed: int = 0,
    ) -> None:
        self._mode = _autoreset_mode(autoreset_mode)
        if actions not in ACTION_SETS:
            raise BatchError(f"actions must be one of {ACTION_SETS}, not {short_repr(actions)}")
        if not isinstance(normalize, bool):
            raise BatchError(f"normalize must be True or False, not {short_repr(normalize)}")
        self._reduced = actions == "pass-cheapest"
        self.metadata = {"autoreset_mode": self._mode}
        self._batch = batch = GameBatch(num_envs, players, config=config, seed=_seed(seed))
        self._rng = np.random.default_rng(_seed(seed))
        # The Python bots' seeds come from a stream of their own, so that seating them
        # changes no other draw.
        self._bot_rng = np.random.default_rng([_seed(seed), 1])
        self._fixed = _seats(seats, players)
        self._bold0 = _boldness(boldness)
        if (
            isinstance(same_table, bool)
            or not isinstance(same_table, int | float)
            or not 0 <= same_table <= 1
        ):
            raise BatchError(
                f"same_table must be a share from 0 to 1, not {short_repr(same_table)}"
            )
        self._same_table = float(same_table)
        self._entries, self._per_seat, self._weights = _lineup(
            opponents, pool, pool_weights, players, self._bold0
        )
        #: Who plays each seat: an index of self._entries, or _LEARNER.
        self._assign = np.zeros((num_envs, players), dtype=np.int64)
        self._codes = np.empty((num_envs, players), dtype=np.int8)
        self._bold = np.ones((num_envs, players), dtype=np.float64)
        self._bots: dict[tuple[int, int], Bot] = {}
        self._learner = np.zeros((num_envs, players), dtype=np.bool_)
        #: Games that ended and wait for their reset (next-step or disabled autoreset).
        self._done = np.zeros(num_envs, dtype=np.bool_)
        size = batch.observation_size
        scale = np.array(observation_scale(players, config), dtype=np.float32)
        self._scale = scale if normalize else None
        high = np.ones(size, np.float32) if normalize else (1.0 / scale).astype(np.float32)
        self.num_envs = num_envs
        width = 2 if self._reduced else batch.num_actions
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, high, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (width,), np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(width)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._restart(np.ones(num_envs, dtype=np.bool_))

    @property
    def batch(self) -> GameBatch:
        """The :class:`~high_society.batch.GameBatch` underneath."""
        return self._batch

    @property
    def learner_seats(self) -> npt.NDArray[np.bool_]:
        """``(N, players)``: the seats the learner plays in each game (a fresh array)."""
        return self._learner.copy()

    @property
    def opponents(self) -> npt.NDArray[np.int64]:
        """``(N, players)``: who plays each seat of each game now, as an index of the
        opponents (of ``pool`` when given, else of the per-seat ``opponents``); -1 for the
        learner's seats (a fresh array)."""
        return self._assign.copy()

    def set_pool(self, pool: Sequence[Opponent], weights: Sequence[float] | None = None) -> None:
        """From now on, each opponent seat of each new game is drawn from ``pool`` (with
        ``weights``, by default uniform): a league that grows. Games in play keep their
        players.

        Raises:
            BatchError: a bad ``pool`` or ``weights`` (see the class); nothing changed.
        """
        entries, _, probabilities = _lineup(
            None, pool, weights, self._batch.num_players, self._bold0
        )
        assert probabilities is not None
        # The entries only grow, so that the games in play keep the indexes of theirs.
        known = {_key(e): k for k, e in enumerate(self._entries)}
        full = np.zeros(len(self._entries) + len(entries))
        for entry, probability in zip(entries, probabilities, strict=True):
            k = known.setdefault(_key(entry), len(self._entries))
            if k == len(self._entries):
                self._entries.append(entry)
            full[k] += probability
        self._weights = full[: len(self._entries)]

    def _new_seats(self, games: npt.NDArray[np.bool_]) -> None:
        """Draw (or set) the learner's seats and the opponents of ``games``."""
        n, players = self._batch.num_games, self._batch.num_players
        chosen = np.zeros((n, players), dtype=np.bool_)
        if self._fixed is None:
            chosen[np.arange(n), self._rng.integers(0, players, n)] = True
        else:
            chosen[:, list(self._fixed)] = True
        if self._weights is None:
            drawn = np.broadcast_to(np.array(self._per_seat), (n, players))
        else:
            drawn = self._rng.choice(len(self._entries), size=(n, players), p=self._weights)
            # A share of the games seat one opponent in every other seat ("three of X").
            alike = self._rng.random(n) < self._same_table
            drawn[alike] = drawn[alike, :1]
        assign = np.where(chosen, _LEARNER, drawn)
        self._learner[games] = chosen[games]
        self._assign[games] = assign[games]
        for k, entry in enumerate(self._entries):
            where = games[:, None] & (assign == k)
            compiled = entry if isinstance(entry, Compiled) else None
            self._codes[where] = compiled.code if compiled else _CALLER
            self._bold[where] = compiled.boldness if compiled else 1.0
            if callable(entry) and not isinstance(entry, Compiled | BatchPolicy):
                for g, seat in zip(*np.nonzero(where), strict=True):
                    seed = int(self._bot_rng.integers(2**63))
                    self._bots[int(g), int(seat)] = entry(seed)
        mine = games[:, None] & chosen
        self._codes[mine] = _CALLER
        self._bold[mine] = 1.0

    def reset(
        self, *, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[LearnerObservation, dict[str, Any]]:
        """New games: all of them, or those of ``options["reset_mask"]``; with ``seed`` the
        random streams (reveals, opponents, the learner's seats) start afresh.

        Raises:
            BatchError: a bad ``seed`` or ``options``; nothing changed then.
        """
        n = self.num_envs
        which = np.ones(n, dtype=np.bool_)
        if options is not None and not isinstance(options, Mapping):
            raise BatchError(f"options must be a mapping or None, not {short_repr(options)}")
        for key, value in (options or {}).items():
            if key != "reset_mask":
                raise BatchError(f"unknown reset option {short_repr(key)}: only 'reset_mask'")
            which = np.asarray(value)
            if which.dtype != np.bool_ or which.shape != (n,):
                raise BatchError(f"reset_mask must be a bool array of shape ({n},)")
        if seed is not None:
            seed = _seed(seed)
            self._rng = np.random.default_rng(seed)
            self._bot_rng = np.random.default_rng([seed, 1])
            self._batch.reset(seed)
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
        """The learner plays one action per game; the opponents play until the learner
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
        if self._reduced:
            cheapest = batch.policy_actions("cheapest")
            legal = (ids == 0) | ((ids == 1) & (cheapest != 0))
            ids = np.where(ids == 1, cheapest, 0)
        else:
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
        self._settle(active & ~illegal)
        over = active & (illegal | batch.is_over)
        by_rules = over & ~illegal
        if by_rules.any():
            share = (batch.returns() * self._learner).sum(axis=1)
            rewards[by_rules] = share[by_rules]
        infos: dict[str, Any] = {"illegal": illegal, "_illegal": illegal}
        if self._mode is AutoresetMode.SAME_STEP:
            if over.any():
                infos["final_obs"] = self._final_observations(over)
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
        for key in [k for k in self._bots if games[k[0]]]:
            del self._bots[key]
        self._new_seats(games)
        self._settle(games)

    def _settle(self, games: npt.NDArray[np.bool_]) -> None:
        """Let the opponents of ``games`` play until the learner must choose or the game is
        over: the compiled ones in the engine, the others here, all waiting games of one
        opponent at once; with the action reduction, the learner's forced moves too."""
        batch = self._batch
        rows = np.arange(self.num_envs)
        while True:
            batch.advance(self._codes, boldness=self._bold)
            waiting = games & ~batch.is_over
            to_act = batch.to_act
            who = self._assign[rows, to_act]
            theirs = waiting & (who != _LEARNER)
            if not theirs.any() and not self._reduced:
                return
            plain = batch.policy_actions("pass")  # the lowest discard, else Pass
            cheapest = batch.policy_actions("cheapest")
            forced = np.zeros_like(theirs)
            if self._reduced:  # a discard, or an auction without a legal bid
                forced = waiting & (who == _LEARNER) & ((plain != 0) | (cheapest == 0))
            if not (theirs.any() or forced.any()):
                return
            ids = np.zeros(self.num_envs, dtype=np.int64)
            ids[forced] = plain[forced]
            for k in np.unique(who[theirs]):
                mine = theirs & (who == k)
                ids[mine] = self._opponent_actions(int(k), mine, plain, cheapest)
            batch.step(ids, where=theirs | forced)

    def _opponent_actions(
        self,
        k: int,
        games: npt.NDArray[np.bool_],
        plain: npt.NDArray[np.int64],
        cheapest: npt.NDArray[np.int64],
    ) -> npt.NDArray[np.int64]:
        """The actions of opponent ``k`` in ``games`` (where it must act)."""
        entry = self._entries[k]
        batch = self._batch
        if isinstance(entry, BatchPolicy):
            return act_in_batch(entry, batch, games, plain, cheapest)[games]
        seats = batch.to_act
        chosen = [
            action_id(self._bots[int(g), int(seats[g])].choose(batch.to_state(int(g))))
            for g in np.flatnonzero(games)
        ]
        return np.array(chosen, dtype=np.int64)

    def _freeze(self, games: npt.NDArray[np.bool_]) -> None:
        """Nobody plays in ``games`` (ended, waiting for their reset): every seat the
        caller's, and nobody's in the table of who plays, so ``advance`` leaves them."""
        self._codes[games] = _CALLER
        self._assign[games] = np.where(self._learner[games], _LEARNER, self._assign[games])

    def _learner_seat(self) -> npt.NDArray[np.int64]:
        """The learner's (first) seat in each game."""
        seats: npt.NDArray[np.int64] = self._learner.argmax(axis=1).astype(np.int64)
        return seats

    def _seat_shown(self) -> npt.NDArray[np.int64]:
        """The seat each observation is for: the seat to act, the learner's in a game
        waiting for its reset."""
        return np.where(self._done | self._batch.is_over, self._learner_seat(), self._batch.to_act)

    def _observe(self) -> LearnerObservation:
        tensor = self._batch.observations(self._seat_shown())
        if self._scale is not None:
            tensor *= self._scale
        return {"observation": tensor, "action_mask": self._masks()}

    def _final_observations(self, over: npt.NDArray[np.bool_]) -> LearnerObservation:
        """The learner's last observation of the games ``over`` (their rows only are
        written; a finished game's mask offers only id 0)."""
        tensor = np.zeros((self.num_envs, self._batch.observation_size), dtype=np.float32)
        self._batch.observations(self._learner_seat(), tensor, where=over)
        if self._scale is not None:
            tensor *= self._scale
        masks = np.zeros((self.num_envs, 2 if self._reduced else self._batch.num_actions), np.int8)
        masks[over, 0] = 1
        return {"observation": tensor, "action_mask": masks}

    def _masks(self) -> npt.NDArray[np.int8]:
        """The legal ids (or, reduced, whether Pass and the cheapest bid are legal); a
        game waiting for its reset offers only 0 (ignored when played), so that a masked
        sampler always has a choice."""
        waiting = self._done | self._batch.is_over
        if self._reduced:
            mask = np.ones((self.num_envs, 2), dtype=np.int8)
            mask[:, 1] = self._batch.policy_actions("cheapest") != 0
        else:
            mask = self._batch.legal_action_mask()
        if waiting.any():
            mask[waiting] = 0
            mask[waiting, 0] = 1
        return mask

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """``(N, width)`` bool: the legal actions of each game now, the masks of the last
        observations (what sb3-contrib's ``MaskablePPO`` asks a masked env for)."""
        masks: npt.NDArray[np.bool_] = self._masks() != 0
        return masks

    def sample_legal(self) -> npt.NDArray[np.int64]:
        """``(N,)``: a uniformly random legal action per game (from the engine's policy
        streams; with the action reduction, Pass or the cheapest bid as the engine's
        uniform choice is a pass or a bid): a baseline learner, and what a check needs to
        step the env."""
        ids = self._batch.sample_actions()
        if self._reduced:
            ids = (ids != 0).astype(np.int64)
        return ids

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""


def _autoreset_mode(mode: object) -> AutoresetMode:
    try:
        return AutoresetMode(mode)
    except (ValueError, TypeError):
        modes = ", ".join(repr(m.value) for m in AutoresetMode)
        raise BatchError(f"autoreset_mode must be one of {modes}, not {short_repr(mode)}") from None


def _seed(seed: object) -> int:
    """An int seed from 0 to 2**64 - 1, from an int or a numpy integer (not a bool)."""
    if isinstance(seed, bool) or not isinstance(seed, SupportsIndex):
        raise BatchError(f"a seed is an int from 0 to 2**64 - 1, not {short_repr(seed)}")
    value = operator.index(seed)
    if not 0 <= value < _SEED_LIMIT:
        raise BatchError(f"a seed is an int from 0 to 2**64 - 1, not {short_repr(seed)}")
    return value


def _boldness(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < np.inf:
        raise BatchError(f"boldness must be a number > 0, not {short_repr(value)}")
    return float(value)


def _seats(seats: object, players: int) -> tuple[int, ...] | None:
    if seats is None:
        return None
    chosen = (
        (seats,)
        if isinstance(seats, int | np.integer)
        else tuple(seats)
        if isinstance(seats, Sequence) and not isinstance(seats, str | bytes)
        else None
    )
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


Entry = Compiled | BatchPolicy | Callable[[int], Bot]


def _lineup(
    opponents: object, pool: object, weights: object, players: int, boldness: float
) -> tuple[list[Entry], list[int], npt.NDArray[np.float64] | None]:
    """The opponents as entries; the entry of each seat (without a pool); the pool's
    probabilities (with one)."""
    if pool is not None:
        if not isinstance(pool, Sequence) or isinstance(pool, str) or not pool:
            raise BatchError(
                f"pool must be a non-empty sequence of opponents, not {short_repr(pool)}"
            )
        entries = [_entry(o, boldness) for o in pool]
        if weights is None:
            probabilities = np.full(len(entries), 1.0 / len(entries))
        else:
            given = np.asarray(weights) if isinstance(weights, Sequence) else np.empty(0)
            if (
                given.shape != (len(entries),)
                or given.dtype.kind not in "iuf"
                or not (np.isfinite(given) & (given >= 0)).all()
                or given.sum() <= 0
            ):
                raise BatchError(
                    f"pool_weights must be {len(entries)} numbers >= 0, not all 0, "
                    f"not {short_repr(weights)}"
                )
            probabilities = given.astype(np.float64) / given.sum()
        return entries, [], probabilities
    if weights is not None:
        raise BatchError("pool_weights need a pool")
    if isinstance(opponents, Sequence) and not isinstance(opponents, str):
        if len(opponents) != players:
            raise BatchError(
                f"opponents must be one for every seat or {players}, not {len(opponents)}"
            )
        entries = [_entry(o, boldness) for o in opponents]
        return entries, list(range(players)), None
    return [_entry(opponents, boldness)], [0] * players, None


def _key(entry: Entry) -> object:
    """Compiled opponents are values; the others are themselves."""
    return entry if isinstance(entry, Compiled) else id(entry)


def _entry(opponent: object, boldness: float) -> Entry:
    if isinstance(opponent, str):
        return Compiled(opponent, boldness)
    if isinstance(opponent, Compiled | BatchPolicy):
        return opponent
    if callable(opponent):
        factory: Callable[[int], Bot] = opponent
        return factory
    raise BatchError(
        "an opponent is a compiled policy's name, a Compiled, a BatchPolicy (a network) or "
        f"a bot factory, not {short_repr(opponent)}"
    )

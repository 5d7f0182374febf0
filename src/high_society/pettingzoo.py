"""High Society as a PettingZoo AEC environment (optional extra: ``pip install '.[pettingzoo]'``
in a clone). The Gymnasium environment of one learner against the built-in bots,
:class:`~high_society.gymnasium_env.SoloEnv`, has its own module,
:mod:`high_society.gymnasium_env`; ``high_society.pettingzoo.SoloEnv`` still gives it, with a
``DeprecationWarning``.

:func:`env` builds the environment PettingZoo's classic games give: :class:`ClassicEnv`
behaves as the raw :class:`HighSocietyEnv` inside PettingZoo's ``TerminateIllegalWrapper``
(an illegal action ends the game, the offender gets -1 and everyone else 0),
``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``, with those checks built in
rather than wrapped around it (a wrapper forwards every attribute read, which cost more
than the game).

- Agents are ``"player_0"`` .. ``"player_{n-1}"``, one per seat.
- Actions are the player action ids of :mod:`high_society.encoding` (``Discrete(2058)``).
- Each observation is a dict, as in the classic games: ``"observation"``, the R14 tensor of
  :func:`high_society.observation.observation_tensor` (float32, the observer first), and
  ``"action_mask"`` (int8, 1 for each legal id; all 0 for an agent whose turn it is not).
- Chance (the reveals) is played inside the environment by the library's one game loop,
  :func:`~high_society.host.turns` (with no bot at any seat), from a
  :class:`~high_society.host.Dealer` seeded by ``reset(seed=...)``: two environments reset
  with the same seed and given the same actions play the same game.
- The observation tensor is read-only (``flags.writeable`` is false; writing raises
  ``ValueError``): it is read in place from the bytes of an
  :class:`~high_society.observation.ObservationWriter`, and nothing the environment does
  later changes it, so an agent may keep it. The mask follows the package's one mask
  convention (docs/ai.md): int8 0/1, in a new writable array that is the agent's own
  (copied from masks kept per bidder's hand and amount to beat, at most
  :data:`MASK_CACHE_SIZE` of them). :class:`~high_society.gymnasium_env.SoloEnv`, a
  Gymnasium environment, gives new writable arrays for both.
- A random agent finds the legal ids fastest through a boolean view of the mask:
  ``np.flatnonzero(observation["action_mask"].view(np.bool_))`` (no copy; less than half
  the time ``np.flatnonzero`` takes on the ``int8`` mask).
- Rewards come at the end: :func:`high_society.observation.returns` (the winners share 1).
- ``state()`` is the observation tensor seen from seat 0.

>>> environment = env(players=3)
>>> environment.reset(seed=7)
>>> observation, reward, termination, truncation, info = environment.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum()) > 1
((161,), True)
>>> observation["action_mask"].flags.writeable, observation["action_mask"].dtype
(True, dtype('int8'))
"""

import operator
import warnings
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Final, Literal, SupportsIndex, overload

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger

from high_society import _env_observation
from high_society._env_observation import Observation, legal_mask, observation_space
from high_society._text import short_repr
from high_society.actions import Action
from high_society.cards import MAX_PLAYERS, STANDARD, check_players
from high_society.encoding import action_from_id, num_actions
from high_society.errors import EncodingError, IllegalActionError, InvalidConfigError
from high_society.host import Dealer, turns
from high_society.observation import ObservationWriter, observation_size, returns
from high_society.rules import apply, new_game
from high_society.state import GameState, Phase

if TYPE_CHECKING:  # the old home of SoloEnv, for the type checker (see __getattr__)
    from high_society.gymnasium_env import SoloEnv as SoloEnv

_REVEAL = Phase.REVEAL
_AUCTION = Phase.AUCTION
_DISCARD = Phase.DISCARD
_OVER = Phase.OVER
# A dtype object, not the scalar type: numpy skips a conversion per call.
_FLOAT32 = np.dtype(np.float32)

__all__ = [
    "ENV_NAME",
    "MASK_CACHE_SIZE",
    "ClassicEnv",
    "HighSocietyEnv",
    "Observation",
    "env",
    "raw_env",
]

#: The environment's name in its metadata (versioned like PettingZoo's own).
ENV_NAME: Final = "high_society_v0"

#: How many auction masks the environments keep (all environments of the process share
#: them, :class:`~high_society.gymnasium_env.SoloEnv` too): at most 8,192 masks of 2,058
#: bytes, about 18 MiB with their array headers and dicts. When it is full, the masks of
#: the hand kept longest make room.
MASK_CACHE_SIZE: Final = _env_observation.MASK_CACHE_SIZE


def __getattr__(name: str) -> object:
    # SoloEnv, a Gymnasium environment, lives in its own module now.
    if name == "SoloEnv":
        warnings.warn(
            "high_society.pettingzoo.SoloEnv is deprecated: import SoloEnv from "
            "high_society.gymnasium_env",
            DeprecationWarning,
            stacklevel=2,
        )
        from high_society.gymnasium_env import SoloEnv

        return SoloEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def env(players: int = 4, render_mode: str | None = None) -> "ClassicEnv":
    """The environment for ``players`` seats, as PettingZoo's classic games give theirs
    (see :class:`ClassicEnv`).

    Raises:
        InvalidConfigError: ``players`` is not an int from 3 to 5, or ``render_mode`` is not
            ``None``, ``"human"`` or ``"ansi"``.
    """
    return ClassicEnv(players, render_mode)


def _check(players: int, render_mode: str | None) -> None:
    check_players(players)
    if render_mode not in (None, "human", "ansi"):
        raise InvalidConfigError(
            f"render_mode must be None, 'human' or 'ansi', not {short_repr(render_mode)}"
        )


#: The standard game's actions by seat and id, decoded when first played (at most 2,058 a
#: seat, each a ``Pass``, a ``Discard`` or a ``Bid`` of an 11-card frozenset at most; a
#: few MiB in all).
_DECODED: tuple[dict[int, Action], ...] = tuple({} for _ in range(MAX_PLAYERS))


class HighSocietyEnv(AECEnv):  # type: ignore[misc]  # PettingZoo has no type hints
    """The raw AEC environment (no wrappers; see :func:`env`). An illegal action raises
    :class:`~high_society.IllegalActionError` here, before anything changes.

    Raises:
        InvalidConfigError: ``players`` is not an int from 3 to 5, or ``render_mode`` is not
            ``None``, ``"human"`` or ``"ansi"``.
    """

    metadata: dict[str, object] = {  # noqa: RUF012 (PettingZoo's protocol: a class attribute)
        "render_modes": ["human", "ansi"],
        "name": ENV_NAME,
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, players: int = 4, render_mode: str | None = None) -> None:
        _check(players, render_mode)
        super().__init__()
        self.players = players
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents = self.possible_agents[:]
        self._size = observation_size(players)
        self._num_actions = num_actions(STANDARD)
        self.observation_spaces = {
            agent: observation_space(players) for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(self._num_actions) for agent in self.possible_agents
        }
        #: The global state: the observation of seat 0.
        self.state_space = observation_space(players)["observation"]
        self.game: GameState = new_game(players, STANDARD)
        self._dealer = Dealer()
        self._no_bots = (None,) * players  # chance plays in the loop, every seat is an agent
        self._writer = ObservationWriter(STANDARD, item_format="f")
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._agents_by_seat = tuple(self.possible_agents)
        # Every agent not to act sees this mask: nothing is legal for it.
        self._no_mask = np.zeros(self._num_actions, np.int8)
        self._no_mask.flags.writeable = False
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, object]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[0]

    def observation_space(self, agent: str) -> spaces.Dict:
        """The space of ``agent``'s observations."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The space of ``agent``'s actions: the action ids."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` seeds the reveals (without one, the reveals go on from the
        last seed's stream)."""
        if seed is not None:
            self._dealer = Dealer(seed)
        self.game = self._reveal(new_game(self.players, STANDARD))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game.turn]

    def play(self, action: Action) -> GameState:
        """The game after ``action`` and the reveals that follow it (the environment's
        bookkeeping of agents and rewards is left to :meth:`step`).

        Raises:
            IllegalActionError: ``action`` is not legal now.
        """
        return self._reveal(apply(self.game, action))

    def _reveal(self, state: GameState) -> GameState:
        """Play chance until a seat must act or the game is over: the library's one loop,
        :func:`~high_society.host.turns`, with no bot at any seat."""
        for step in turns(state, self._no_bots, self._dealer.draw):
            state = step.after
        return state

    #: False until the first reset in :class:`ClassicEnv` (the raw environment has an
    #: episode from the start); read here so that ``observe`` needs no override.
    _has_reset = True

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation: the R14 tensor (a read-only array of its own) and the
        action mask (int8 0/1, a new writable array).

        Raises:
            AssertionError: :class:`ClassicEnv` only, before the first reset.
        """
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        seat = self._seat[agent]
        game = self.game
        phase = game.phase
        acts = (phase is _AUCTION or phase is _DISCARD) and game.turn == seat  # to_act(game)
        # The package's mask convention: int8 0/1 in a new writable array, the agent's own
        # (torch.from_numpy warns on a read-only one); the kept masks are copied.
        return {
            "observation": self._tensor(seat),
            "action_mask": (legal_mask(game) if acts else self._no_mask).copy(),
        }

    @overload
    def last(
        self, observe: Literal[True] = True
    ) -> tuple[Observation, float, bool, bool, dict[str, object]]: ...

    @overload
    def last(
        self, observe: Literal[False]
    ) -> tuple[None, float, bool, bool, dict[str, object]]: ...

    @overload
    def last(
        self, observe: bool
    ) -> tuple[Observation | None, float, bool, bool, dict[str, object]]: ...

    def last(
        self, observe: bool = True
    ) -> tuple[Observation | None, float, bool, bool, dict[str, object]]:
        """The selected agent's observation (``None`` if not ``observe``), cumulative reward,
        termination, truncation and info, as PettingZoo's ``AECEnv.last``.

        Raises:
            AttributeError: :class:`ClassicEnv` only, before the first reset.
        """
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def _tensor(self, seat: int) -> NDArray[np.float32]:
        # Float32 bytes from the writer (only what the last action changed is remade),
        # read in place by numpy: read-only, as the bytes are.
        return np.frombuffer(self._writer.values(self.game, seat), _FLOAT32)

    def state(self) -> NDArray[np.float32]:
        """The global state: the observation tensor of seat 0."""
        return self._tensor(0)

    def step(self, action: SupportsIndex | None) -> None:
        """The selected agent plays action id ``action`` (``None`` once it is done).

        Raises:
            IllegalActionError: the action is not legal (:class:`ClassicEnv` ends the game
                instead, as PettingZoo's classic games do). Nothing changes then.
            EncodingError: ``action`` is not an action id (``None`` and bools included).
            ValueError: ``action`` is not ``None`` for an agent that is done (PettingZoo's
                own check).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) is not int:  # numpy integers, as the action space samples them
            if isinstance(action, bool | np.bool_) or not isinstance(action, SupportsIndex):
                raise EncodingError(f"{short_repr(action)} is not an action id")
            action = operator.index(action)
        self._play_id(action)

    def _play_id(self, action: int) -> None:
        """The selected agent, still playing, plays action id ``action``; then the reveals,
        and the next agent or the end.

        Raises:
            IllegalActionError: the action is not legal; nothing changes then.
            EncodingError: ``action`` is not an action id.
        """
        game = self.game
        # Decoded actions are immutable values: each (seat, id) is decoded once a process.
        decoded = _DECODED[game.turn]
        move = decoded.get(action)
        if move is None:
            move = decoded[action] = action_from_id(game, action)
        state = apply(game, move)
        if state.phase is _REVEAL:  # else the loop would stop at once: a seat must act
            state = self._reveal(state)
        self.game = state
        if state.phase is _OVER:
            # Rewards come at the end alone: until then every reward, cumulative reward,
            # termination and truncation stays as reset made it (0 and False).
            rewards = self.rewards
            for a, r in zip(self.agents, returns(state), strict=True):
                rewards[a] = r
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        else:
            self.agent_selection = self._agents_by_seat[state.turn]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """``"ansi"``: the game as text; ``"human"``: printed, returns ``None``."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        text = "\n".join(
            [str(self.game)]
            + [
                f"  {agent}: hand {sorted(p.hand)}, up {sorted(p.table)}, "
                f"cards {[c.label for c in p.status_cards]}"
                for agent, p in zip(self.possible_agents, self.game.players, strict=True)
            ]
        )
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release."""


#: The PettingZoo spelling of the raw environment's constructor.
raw_env = HighSocietyEnv


class ClassicEnv(HighSocietyEnv):
    """The environment :func:`env` gives: :class:`HighSocietyEnv` with the checks of the
    wrappers PettingZoo's classic games put around theirs, built in, with their behaviour:

    - as ``TerminateIllegalWrapper(illegal_reward=-1)``: an illegal action ends the game
      (PettingZoo's "illegal move" warning is logged), the offender's reward is -1 and
      everyone else's 0, every agent is terminated and truncated; the game itself stays as
      it was before the action;
    - as ``AssertOutOfBoundsWrapper``: an action outside the action space (or ``None`` for an
      agent still playing) raises ``AssertionError``;
    - as ``OrderEnforcingWrapper``: ``agents``, ``agent_selection``, ``rewards``,
      ``terminations``, ``truncations``, ``infos`` and ``num_agents`` raise
      ``AttributeError`` before the first :meth:`reset`; ``step``, ``observe``, ``state``,
      ``render`` and ``agent_iter`` raise ``AssertionError``; a ``step`` once every agent
      is done only logs a warning; a loop over ``agent_iter`` that does not step raises
      ``AssertionError``.

    Raises:
        InvalidConfigError: ``players`` is not an int from 3 to 5, or ``render_mode`` is not
            ``None``, ``"human"`` or ``"ansi"``.
    """

    def __init__(self, players: int = 4, render_mode: str | None = None) -> None:
        super().__init__(players, render_mode)
        # Nothing of an episode exists before the first reset (OrderEnforcingWrapper).
        del self.agents, self.agent_selection, self.rewards, self.terminations
        del self.truncations, self.infos, self._cumulative_rewards
        self._has_reset = False
        self._has_updated = False

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` seeds the reveals (without one, the reveals go on from the
        last seed's stream)."""
        self._has_reset = True
        self._has_updated = True
        super().reset(seed=seed, options=options)

    def step(self, action: SupportsIndex | None) -> None:
        """The selected agent plays action id ``action`` (``None`` once it is done); an
        illegal action ends the game (see the class).

        Raises:
            AssertionError: before the first reset, or ``action`` is outside the action
                space (``None`` included, for an agent still playing).
            ValueError: ``action`` is not ``None`` for an agent that is done (PettingZoo's
                own check).
        """
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        if not self.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
            return
        self._has_updated = True
        agent = self.agent_selection
        done = self.terminations[agent] or self.truncations[agent]
        if type(action) is not int or not 0 <= action < self._num_actions:
            # The common case (a Python int in range) is settled above; the rest as
            # AssertOutOfBoundsWrapper settles it, then numpy integers become ints.
            if not ((action is None and done) or self.action_spaces[agent].contains(action)):
                raise AssertionError("action is not in action space")
            if done:
                self._was_dead_step(action)
                return
            action = operator.index(action)  # type: ignore[arg-type]  # not None: not done
        elif done:
            self._was_dead_step(action)
            return
        try:
            self._play_id(action)
        except IllegalActionError:
            self._end_for_illegal(agent)

    def _end_for_illegal(self, offender: str) -> None:
        # What TerminateIllegalWrapper does, in its order.
        EnvLogger.warn_on_illegal_move()
        self._cumulative_rewards[offender] = 0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.truncations, 0)
        self.rewards[offender] = -1.0
        self._accumulate_rewards()
        self._deads_step_first()

    def state(self) -> NDArray[np.float32]:
        """The global state: the observation tensor of seat 0.

        Raises:
            AssertionError: before the first reset.
        """
        if not self._has_reset:
            EnvLogger.error_state_before_reset()
        return super().state()

    def render(self) -> str | None:
        """As :meth:`HighSocietyEnv.render`.

        Raises:
            AssertionError: before the first reset.
        """
        if not self._has_reset:
            EnvLogger.error_render_before_reset()
        return super().render()

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """The agent to act, again and again until every agent is done (or ``max_iter``);
        each turn of the loop must step.

        Raises:
            AssertionError: before the first reset; and from the iterator, when the loop
                did not step (or reset) since the last agent it gave.
        """
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentLoop(self, max_iter)


class _AgentLoop(Iterator[str]):
    """``agent_iter``'s iterator, with OrderEnforcingWrapper's check that the loop steps."""

    __slots__ = ("_env", "_left")

    def __init__(self, environment: ClassicEnv, max_iter: int) -> None:
        self._env = environment
        self._left = max_iter

    def __next__(self) -> str:
        environment = self._env
        if not environment.agents or self._left <= 0:
            raise StopIteration
        self._left -= 1
        if not environment._has_updated:
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
        environment._has_updated = False
        agent: str = environment.agent_selection
        return agent

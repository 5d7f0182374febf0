"""High Society as a PettingZoo AEC environment, and a Gymnasium environment for one learner
against the built-in bots (optional extra: ``pip install high-society[pettingzoo]``).

:func:`env` builds the environment as PettingZoo's classic games are built: the raw
:class:`HighSocietyEnv` inside ``TerminateIllegalWrapper`` (an illegal action ends the game,
the offender gets -1 and everyone else 0), ``AssertOutOfBoundsWrapper`` and
``OrderEnforcingWrapper``.

- Agents are ``"player_0"`` .. ``"player_{n-1}"``, one per seat.
- Actions are the player action ids of :mod:`high_society.encoding` (``Discrete(2058)``).
- Each observation is a dict, as in the classic games: ``"observation"``, the R14 tensor of
  :func:`high_society.observation.observation_tensor` (float32, the observer first), and
  ``"action_mask"`` (int8, 1 for each legal id; all 0 for an agent whose turn it is not).
- Chance (the reveals) is played inside the environment, with the generator seeded by
  ``reset(seed=...)``: two environments reset with the same seed and given the same actions
  play the same game.
- Rewards come at the end: :func:`high_society.observation.returns` (the winners share 1).
- ``state()`` is the observation tensor seen from seat 0.

>>> environment = env(players=3)
>>> environment.reset(seed=7)
>>> observation, reward, termination, truncation, info = environment.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum()) > 1
((161,), True)
"""

from collections.abc import Callable
from typing import Any, Final, TypedDict, cast

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from numpy.typing import NDArray
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from high_society.actions import Action
from high_society.bots import Bot, HeuristicBot
from high_society.cards import MAX_PLAYERS, MIN_PLAYERS, STANDARD
from high_society.encoding import (
    action_from_id,
    chance_outcome_ids,
    legal_action_mask,
    num_actions,
)
from high_society.errors import InvalidConfigError
from high_society.observation import observation_size, returns, write_observation
from high_society.rules import apply, new_game, to_act
from high_society.state import GameState, Phase

__all__ = ["ENV_NAME", "HighSocietyEnv", "Observation", "SoloEnv", "env", "raw_env"]

#: The environment's name in its metadata (versioned like PettingZoo's own).
ENV_NAME: Final = "high_society_v0"


class Observation(TypedDict):
    """One agent's observation, as PettingZoo's classic games give it."""

    #: The R14 observation tensor, the observer's seat first.
    observation: NDArray[np.float32]
    #: 1 at each legal action id, 0 elsewhere (all 0 when it is not the agent's turn).
    action_mask: NDArray[np.int8]


def env(players: int = 4, render_mode: str | None = None) -> AECEnv:
    """The environment for ``players`` seats, wrapped as PettingZoo's classic games are.

    Raises:
        InvalidConfigError: ``players`` is not an int from 3 to 5, or ``render_mode`` is not
            ``None``, ``"human"`` or ``"ansi"``.
    """
    environment = HighSocietyEnv(players, render_mode)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return wrappers.OrderEnforcingWrapper(environment)


def _space_high() -> float:
    # The largest value in an observation: a money total (the highest bid).
    return float(max(STANDARD.total_money, 3))


def _check(players: int, render_mode: str | None) -> None:
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidConfigError(
            f"High Society is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players!r}"
        )
    if render_mode not in (None, "human", "ansi"):
        raise InvalidConfigError(
            f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}"
        )


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
        self._size = size = observation_size(players)
        self._num_actions = num_actions(STANDARD)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, _space_high(), (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (self._num_actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(self._num_actions) for agent in self.possible_agents
        }
        #: The global state: the observation of seat 0.
        self.state_space = spaces.Box(0.0, _space_high(), (size,), np.float32)
        self.game: GameState = new_game(players, STANDARD)
        self.np_random, _ = seeding.np_random(None)
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, object]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The space of ``agent``'s observations."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The space of ``agent``'s actions: the action ids."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` seeds the reveals."""
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
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
        """Play chance until a seat must act or the game is over."""
        while state.phase is Phase.REVEAL:
            outcomes = chance_outcome_ids(state)
            pick = self.np_random.random()
            chosen = outcomes[-1][0]
            for outcome, p in outcomes:
                pick -= p
                if pick < 0:
                    chosen = outcome
                    break
            state = apply(state, action_from_id(state, chosen))
        return state

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation: the R14 tensor and its action mask."""
        seat = self._seat[agent]
        mask = np.zeros(self._num_actions, np.int8)
        if to_act(self.game) == seat:
            legal_action_mask(self.game, mask)
        return {"observation": self._tensor(seat), "action_mask": mask}

    def _tensor(self, seat: int) -> NDArray[np.float32]:
        # Written as bytes (the fast path: every value of the standard game fits in one),
        # then widened by numpy in one call.
        values = np.empty(self._size, np.uint8)
        write_observation(self.game, seat, values)
        return values.astype(np.float32)

    def state(self) -> NDArray[np.float32]:
        """The global state: the observation tensor of seat 0."""
        return self._tensor(0)

    def step(self, action: int | None) -> None:
        """The selected agent plays action id ``action`` (``None`` once it is done).

        Raises:
            IllegalActionError: the action is not legal (the wrapped :func:`env` ends the
                game instead, as PettingZoo's classic games do).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None
        self._cumulative_rewards[agent] = 0.0
        self.game = state = self.play(action_from_id(self.game, int(action)))
        if state.is_over:
            for a, r in zip(self.agents, returns(state), strict=True):
                self.rewards[a] = r
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            actor = to_act(state)
            assert isinstance(actor, int)
            self.agent_selection = self.possible_agents[actor]
        self._accumulate_rewards()
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


class SoloEnv(gymnasium.Env[Observation, np.int64]):
    """One learner against built-in bots, as a single-agent Gymnasium environment.

    The learner plays seat ``seat``; every other seat is played by a bot made by
    ``opponent(seed)`` at each reset (by default :class:`~high_society.HeuristicBot`; the
    seeds come from the reset's seed). Observations and actions are those of
    :class:`HighSocietyEnv`; the reward is the learner's return at the end (the winners
    share 1); an illegal action ends the episode with reward -1, as in the classic games.

    Raises:
        InvalidConfigError: ``players`` is not an int from 3 to 5, ``seat`` is not one of
            its seats, or ``render_mode`` is not ``None`` or ``"ansi"``.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 (Gymnasium's own type)

    def __init__(
        self,
        players: int = 4,
        seat: int = 0,
        opponent: Callable[[int | None], Bot] = HeuristicBot,
        render_mode: str | None = None,
    ) -> None:
        _check(players, None)
        if render_mode not in (None, "ansi"):
            raise InvalidConfigError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if type(seat) is not int or not 0 <= seat < players:
            raise InvalidConfigError(f"seat must be 0 to {players - 1}, not {seat!r}")
        self._inner = HighSocietyEnv(players, None)
        self._opponent = opponent
        self._bots: list[Bot] = [opponent(None) for _ in range(players)]
        self.seat = seat
        self.render_mode = render_mode
        agent = self._inner.possible_agents[seat]
        self.observation_space = cast(
            "spaces.Space[Observation]", self._inner.observation_spaces[agent]
        )
        self.action_space = cast("spaces.Space[np.int64]", self._inner.action_spaces[agent])

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new game, played by the bots until the learner must act."""
        super().reset(seed=seed)
        self._inner.reset(seed=seed)
        if seed is not None:
            self._bots = [self._opponent(seed * 8 + 1 + i) for i in range(self._inner.players)]
        self._play_bots()
        return self._observe(), {}

    @property
    def game(self) -> GameState:
        """The game now."""
        return self._inner.game

    def _play_bots(self) -> None:
        inner = self._inner
        while not inner.game.is_over and inner.game.turn != self.seat:
            bot = self._bots[inner.game.turn]
            inner.game = inner.play(bot.choose(inner.game))

    def _observe(self) -> Observation:
        return self._inner.observe(self._inner.possible_agents[self.seat])

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """The learner plays action id ``action``, then the bots play until its next turn
        or the end."""
        inner = self._inner
        if inner.game.is_over:  # the bots ended the game before the learner's turn
            return self._observe(), returns(inner.game)[self.seat], True, False, {}
        mask = self._observe()["action_mask"]
        if not 0 <= int(action) < len(mask) or not mask[int(action)]:
            return self._observe(), -1.0, True, False, {"illegal_action": int(action)}
        inner.game = inner.play(action_from_id(inner.game, int(action)))
        self._play_bots()
        done = inner.game.is_over
        reward = returns(inner.game)[self.seat] if done else 0.0
        return self._observe(), reward, done, False, {}

    def render(self) -> str | None:
        """The game as text (``render_mode="ansi"``), else ``None``."""
        if self.render_mode != "ansi":
            return None
        return str(self._inner.game)

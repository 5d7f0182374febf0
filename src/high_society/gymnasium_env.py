"""High Society as a single-agent Gymnasium environment: one learner against the built-in bots
(optional extra: ``pip install '.[pettingzoo]'`` in a clone, which installs Gymnasium; the
environment needs Gymnasium and numpy, not PettingZoo).

:class:`SoloEnv` seats the learner at one seat and a bot at every other. Its reveals and its
bots' turns are played by the library's one game loop, :func:`high_society.host.turns`,
from a :class:`~high_society.host.Dealer` seeded by ``reset(seed=...)``. Observations and
actions are those of the PettingZoo environments (:mod:`high_society.pettingzoo`): the R14
tensor, the ``int8`` mask, the action ids of :mod:`high_society.encoding`.

>>> from high_society.gymnasium_env import SoloEnv
>>> env = SoloEnv(players=3, seat=0)
>>> observation, info = env.reset(seed=7)
>>> observation["observation"].shape, observation["action_mask"].dtype
((161,), dtype('int8'))
"""

from collections.abc import Callable, Iterator
from typing import Any, cast

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from high_society._env_observation import Observation, legal_mask, observation_space
from high_society._text import short_repr
from high_society.actions import Action
from high_society.bots import AnyBot, GameStart, HeuristicBot, end_bots
from high_society.cards import STANDARD, check_players
from high_society.encoding import action_from_id, num_actions
from high_society.errors import EncodingError, InvalidConfigError
from high_society.host import Dealer, Step, turns
from high_society.observation import ObservationWriter, observation_scale, returns
from high_society.rules import apply, new_game
from high_society.state import GameState, Phase

__all__ = ["SoloEnv"]

_AUCTION = Phase.AUCTION
_DISCARD = Phase.DISCARD
_FLOAT32 = np.dtype(np.float32)


class SoloEnv(gymnasium.Env[Observation, np.int64]):
    """One learner against built-in bots, as a single-agent Gymnasium environment.

    The learner plays seat ``seat``; every other seat is played by a bot made by
    ``opponent(seed)`` at each reset (by default :class:`~high_society.bots.HeuristicBot`; the
    seeds come from the reset's seed). A bot of either protocol plays
    (:class:`~high_society.bots.SeatBot` s are told their seat's view and the public
    history), and its optional ``start`` and ``end`` hooks are called as
    :func:`~high_society.host.play` calls them. Observations and actions are those of
    :class:`~high_society.pettingzoo.HighSocietyEnv`, but each observation's arrays are new
    and writable (Gymnasium's convention; the mask int8 0/1, the package's convention); with
    ``normalize=True`` the tensor is multiplied by
    :func:`~high_society.observation.observation_scale` (within ``[0, 1]``). The reward is
    the learner's return at the end (the winners share 1); an illegal action ends the
    episode with reward -1, as in the classic games. :meth:`action_masks` gives the legal
    ids as bool, where sb3-contrib's ``MaskablePPO`` looks for them.

    Raises:
        InvalidConfigError: ``players`` is not an int from 3 to 5, ``seat`` is not one of
            its seats, or ``render_mode`` is not ``None`` or ``"ansi"``.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 (Gymnasium's own type)

    def __init__(
        self,
        players: int = 4,
        seat: int = 0,
        opponent: Callable[[int | None], AnyBot] = HeuristicBot,
        render_mode: str | None = None,
        *,
        normalize: bool = False,
    ) -> None:
        check_players(players)
        if render_mode not in (None, "ansi"):
            raise InvalidConfigError(
                f"render_mode must be None or 'ansi', not {short_repr(render_mode)}"
            )
        if type(seat) is not int or not 0 <= seat < players:
            raise InvalidConfigError(f"seat must be 0 to {players - 1}, not {short_repr(seat)}")
        self._players = players
        self.seat = seat
        self.render_mode = render_mode
        self._opponent = opponent
        self._bots: list[AnyBot] = [opponent(None) for _ in range(players)]
        # The bots at their seats, as the loop takes them: none at the learner's.
        self._seated: list[AnyBot | None] = []
        self._history: list[Action] = []  # the game's actions, for the seat bots
        self._ended = False
        self._dealer = Dealer()
        self._game = new_game(players, STANDARD)
        self._writer = ObservationWriter(STANDARD, item_format="f")
        self._num_actions = num_actions(STANDARD)
        self._no_mask = np.zeros(self._num_actions, np.int8)
        self._no_mask.flags.writeable = False
        self._scale = np.array(observation_scale(players), dtype=np.float32) if normalize else None
        self.observation_space = cast(
            "spaces.Space[Observation]", observation_space(players, normalize=normalize)
        )
        self.action_space = cast("spaces.Space[np.int64]", spaces.Discrete(self._num_actions))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new game, played by the bots until the learner must act. A seed seeds the
        reveals and makes new bots; without one, the reveals go on from the last seed's
        stream and the same bots play on."""
        super().reset(seed=seed)
        if seed is not None:
            self._dealer = Dealer(seed)
            self._bots = [self._opponent(seed * 8 + 1 + i) for i in range(self._players)]
        self._seated = [None if i == self.seat else bot for i, bot in enumerate(self._bots)]
        self._history = []
        self._ended = False
        state = new_game(self._players, STANDARD)
        steps = self._turns(state)  # checks the bots before their hooks are called
        for seat, bot in enumerate(self._seated):
            hook = getattr(bot, "start", None)
            if hook is not None:
                hook(GameStart(seat, self._players, state.config))
        self._play(state, steps)
        return self._observe(), {}

    @property
    def game(self) -> GameState:
        """The game now."""
        return self._game

    def _turns(self, state: GameState) -> Iterator[Step]:
        """The reveals and the bots' turns from ``state`` until the learner must act or the
        game is over: the library's one loop, told the game's history.

        Raises:
            InvalidConfigError: a bot has neither ``choose`` nor ``choose_seen``.
        """
        return turns(state, self._seated, self._dealer.draw, self._history)

    def _play(self, state: GameState, steps: Iterator[Step]) -> None:
        """Play ``steps`` from ``state``, keeping the game and its history step by step (a
        bot that fails leaves the game as its last step made it); at the end, the bots'
        ``end`` hooks."""
        self._game = state
        history = self._history
        for step in steps:
            history.append(step.action)
            self._game = step.after
        if self._game.is_over and not self._ended:
            self._ended = True
            end_bots([bot for bot in self._seated if bot is not None], self._game)

    def _mask(self) -> NDArray[np.int8]:
        """The learner's legal-action mask now (read-only; all 0 when it is not to act)."""
        game = self._game
        phase = game.phase
        acts = (phase is _AUCTION or phase is _DISCARD) and game.turn == self.seat
        return legal_mask(game) if acts else self._no_mask

    def _observe(self) -> Observation:
        # Float32 bytes from the writer, copied: Gymnasium's way is every observation new,
        # writable, the agent's own.
        tensor = np.frombuffer(self._writer.values(self._game, self.seat), _FLOAT32).copy()
        if self._scale is not None:
            tensor *= self._scale
        return {"observation": tensor, "action_mask": self._mask().copy()}

    def action_masks(self) -> NDArray[np.bool_]:
        """The learner's legal action ids now, as bool (all ``False`` once the game is
        over): what sb3-contrib's ``MaskablePPO`` asks an env for."""
        game = self._game
        masks: NDArray[np.bool_] = np.zeros(self._num_actions, dtype=np.bool_)
        if game.phase is _AUCTION or game.phase is _DISCARD:
            masks[:] = legal_mask(game)
        return masks

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """The learner plays action id ``action``, then the bots play until its next turn
        or the end. An id that is not legal now (out of range included) ends the episode
        with reward -1.

        Raises:
            EncodingError: ``action`` is not an integer (a Python or numpy int): a float
                such as ``5.7`` or ``nan``, a string, ``None``, a bool ... Nothing changes.
        """
        # int(5.7) and int("5") would play id 5: only integers are ids.
        if type(action) is not int:
            if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
                raise EncodingError(f"{short_repr(action)} is not an action id (an integer)")
            action = int(action)
        game = self._game
        if game.is_over:  # the bots ended the game before the learner's turn
            return self._observe(), returns(game)[self.seat], True, False, {}
        mask = self._mask()
        if not 0 <= action < len(mask) or not mask[action]:
            return self._observe(), -1.0, True, False, {"illegal_action": action}
        move = action_from_id(game, action)
        after = apply(game, move)
        self._history.append(move)
        self._play(after, self._turns(after))
        done = self._game.is_over
        reward = returns(self._game)[self.seat] if done else 0.0
        return self._observe(), reward, done, False, {}

    def render(self) -> str | None:
        """The game as text (``render_mode="ansi"``), else ``None``."""
        if self.render_mode != "ansi":
            return None
        return str(self._game)

"""High Society as an OpenSpiel game (optional extra: ``pip install '.[openspiel]'`` in a clone).

Importing this module registers the game with ``pyspiel`` under the short name
:data:`SHORT_NAME` (``"high_society"``), with one parameter, ``players`` (3 to 5, default 4)::

    import pyspiel
    import high_society.openspiel  # registers the game
    game = pyspiel.load_game("high_society", {"players": 3})

The game is the library's own: every state holds a :class:`~high_society.GameState` and
every move goes through :func:`~high_society.apply`, so the rules are not copied here.

- Actions are the ids of :mod:`high_society.encoding` (2,058 in the standard game); chance
  outcomes are its chance ids (the revealed card's index in ``StatusCard``).
- The game is declared one of perfect information with explicit chance: by R14 a seat with
  perfect recall knows every hand. Observation tensors and strings are those of
  :mod:`high_society.observation` (seats rotated, the observer first); the information state
  string is the public history of moves.
- Returns follow :func:`high_society.observation.returns`: the winners share 1, so the game
  is general-sum with utilities from 0 to 1.
- A state is serialised as the library's JSON state form
  (:func:`~high_society.serial.state_to_json`), never as a pickle: ``state.serialize()``
  gives that text, ``game.deserialize_state(text)`` reads it with every check of
  :func:`~high_society.serial.state_from_json` and raises a
  :class:`~high_society.RecordError` for anything else, and ``pickle`` of a state carries
  the same text. OpenSpiel's generic form (``pyspiel.serialize_game_and_state``) keeps the moves
  and wraps the Python part of any Python game's state in a pickle that
  ``pyspiel.deserialize_game_and_state`` loads before the game sees it: give that function
  only text you wrote yourself (the state inside is then checked as above).
"""

import json
from typing import Final

import numpy as np
import pyspiel
from numpy.typing import NDArray

from high_society.actions import describe_action
from high_society.cards import MAX_PLAYERS, MIN_PLAYERS, STANDARD, check_players
from high_society.encoding import (
    NUM_CHANCE_OUTCOMES,
    action_from_id,
    card_from_chance_id,
    chance_outcome_ids,
    legal_action_ids,
    num_actions,
    player_action,
)
from high_society.errors import InvalidConfigError, RecordCode, RecordError
from high_society.observation import (
    max_game_length,
    observation_size,
    observation_string,
    returns,
    write_observation,
)
from high_society.rules import CHANCE, apply, new_game, to_act
from high_society.serial import parse_json, state_from_json, state_to_json
from high_society.state import GameState

__all__ = [
    "DEFAULT_PLAYERS",
    "GAME_TYPE",
    "SHORT_NAME",
    "HighSocietyGame",
    "HighSocietyObserver",
    "HighSocietyState",
    "HistoryObserver",
    "action_mask",
    "game_state",
]

#: The name the game is registered under.
SHORT_NAME: Final = "high_society"
#: The number of players when the ``players`` parameter is not given.
DEFAULT_PLAYERS: Final = 4

#: What OpenSpiel is told about the game (the same for every player count).
GAME_TYPE: Final = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="High Society (Reiner Knizia)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": DEFAULT_PLAYERS},
)


_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)


def _game_info(players: int) -> pyspiel.GameInfo:
    return pyspiel.GameInfo(
        num_distinct_actions=num_actions(STANDARD),
        max_chance_outcomes=NUM_CHANCE_OUTCOMES,
        num_players=players,
        min_utility=0.0,
        max_utility=1.0,
        max_game_length=max_game_length(players, STANDARD),
    )


class HighSocietyGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type hints
    """The standard game for ``players`` seats (the parameter, 3 to 5).

    Raises:
        InvalidConfigError: ``players`` is not an int from 3 to 5.
    """

    def __init__(self, params: dict[str, object] | None = None) -> None:
        players = check_players((params or {}).get("players", DEFAULT_PLAYERS))
        super().__init__(GAME_TYPE, _game_info(players), params or {})
        self.players = players

    def new_initial_state(self) -> "HighSocietyState":
        """The state before the first reveal."""
        return HighSocietyState(self)

    def deserialize_state(self, text: str) -> "HighSocietyState":
        """The state that ``text`` (from :meth:`HighSocietyState.serialize`) describes, with
        every check of :func:`~high_society.serial.state_from_json`; nothing is unpickled.
        Its OpenSpiel history starts empty (the library's state form holds no moves).

        Raises:
            RecordError: ``text`` is not JSON text within the reader's limits, not a state,
                a state that no game reaches, or a state of another number of players.
        """
        state = HighSocietyState(self)
        state._move_to(_state_from_text(text, self.players))
        return state

    def make_py_observer(
        self,
        iig_obs_type: pyspiel.IIGObservationType | None = None,
        params: dict[str, object] | None = None,
    ) -> "HighSocietyObserver | HistoryObserver":
        """The observer OpenSpiel asks for: the R14 observation, or for an information state
        (perfect recall) the public history of moves.

        Raises:
            InvalidConfigError: ``params`` is not empty: the observation has none.
        """
        if params:
            raise InvalidConfigError(f"the observation takes no parameters, not {params}")
        if iig_obs_type is None or not iig_obs_type.perfect_recall:
            return HighSocietyObserver(self.players)
        return HistoryObserver()


class HighSocietyState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type hints
    """One OpenSpiel state: a :class:`~high_society.GameState` and the moves so far.

    Copies are cheap: the game state is immutable and shared.
    """

    def __init__(self, game: HighSocietyGame) -> None:
        super().__init__(game)
        self._move_to(new_game(game.players, STANDARD))

    # The instance's only attribute is ``_held``: OpenSpiel's C++ side copies (clone) and
    # pickles (serialize_game_and_state) a Python state's attributes, and a _Held copies as
    # itself and pickles as its JSON text, read back with every check.

    def _move_to(self, state: GameState) -> None:
        self._held = _Held(state)

    @property
    def _state(self) -> GameState:
        return self._held.state

    @property
    def _player(self) -> int:
        return self._held.player

    @property
    def state(self) -> GameState:
        """The library's game state."""
        return self._held.state

    def serialize(self) -> str:
        """The state as JSON text: the library's state form
        (:func:`~high_society.serial.state_to_json`), which
        :meth:`HighSocietyGame.deserialize_state` reads back."""
        return _state_text(self._held.state)

    def __reduce__(self) -> tuple[object, ...]:
        # pickle carries the JSON text and the player count, never pyspiel's own form (whose
        # Python part is itself a pickle).
        return (_unpickle_state, (self._held.state.num_players, self.serialize()))

    def __copy__(self) -> "HighSocietyState":
        copy: HighSocietyState = self.clone()  # the moves too
        return copy

    def __deepcopy__(self, memo: dict[int, object]) -> "HighSocietyState":
        return self.__copy__()

    def current_player(self) -> int:
        """The seat to act, ``PlayerId.CHANCE`` for a reveal, ``PlayerId.TERMINAL`` at the end."""
        return self._player

    def _legal_actions(self, player: int) -> tuple[int, ...]:
        """The legal action ids of ``player``, ascending (for OpenSpiel's C++ side): empty
        unless ``player`` is the seat to act."""
        return legal_action_ids(self._state) if player == self._player else ()

    # Python callers (rl_environment, Python MCTS, a loop of your own) reach these two
    # directly instead of through OpenSpiel's C++ core, whose conversion of a long list of
    # ids costs far more than computing it. Same answers as the C++ methods (tested).

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal action ids, ascending: at a chance node the chance outcome ids (for any
        ``player``, as OpenSpiel answers); empty at the end and for a seat not to act."""
        here = self._player
        if here == _TERMINAL or (player is not None and player != here and here != _CHANCE):
            return []
        return list(legal_action_ids(self._state))

    def is_chance_node(self) -> bool:
        """True when a card must be revealed."""
        return self._player == _CHANCE

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards that may be revealed, as (chance id, probability)."""
        return list(chance_outcome_ids(self.state))

    def _apply_action(self, action: int) -> None:
        """Decode the id for whoever acts and apply it (the reducer checks legality)."""
        self._move_to(apply(self._state, action_from_id(self._state, action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Reveal {card_from_chance_id(action).label}"
        return describe_action(player_action(action, player, STANDARD))

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self._player == _TERMINAL

    def returns(self) -> list[float]:
        """Each seat's return: the winners share 1 (all 0 before the end)."""
        return list(returns(self.state))

    def __str__(self) -> str:
        return f"{self.state}\n{observation_string(self.state, 0)}"


class HighSocietyObserver:
    """The observation of :func:`high_society.observation.observation_tensor` (R14) in a
    float32 array, and :func:`~high_society.observation.observation_string`."""

    def __init__(self, players: int) -> None:
        self.tensor: NDArray[np.float32] = np.zeros(observation_size(players), np.float32)
        self.dict: dict[str, NDArray[np.float32]] = {"observation": self.tensor}

    def set_from(self, state: HighSocietyState, player: int) -> None:
        """Fill ``tensor`` with what ``player`` observes in ``state``."""
        write_observation(state.state, player, self.tensor)

    def string_from(self, state: HighSocietyState, player: int) -> str:
        """What ``player`` observes in ``state``, as one line."""
        return observation_string(state.state, player)


class HistoryObserver:
    """The observer of information states: with perfect recall (R14), the history of moves
    as a string; no tensor."""

    def __init__(self) -> None:
        self.tensor = None
        self.dict: dict[str, NDArray[np.float32]] = {}

    def set_from(self, state: HighSocietyState, player: int) -> None:
        """Nothing to fill: this observer has no tensor."""

    def string_from(self, state: HighSocietyState, player: int) -> str:
        """The moves so far, as OpenSpiel writes a history."""
        return str(state.history_str())


class _Held:
    """A state of the game and who acts in it, never changed once made (a move makes a new
    one), so a copy is itself; pickled as the JSON state form, unpickled through
    :func:`state_from_json`'s checks."""

    __slots__ = ("player", "state")

    state: GameState
    player: int

    def __init__(self, state: GameState) -> None:
        # OpenSpiel asks who acts several times per move: worked out once per state.
        actor = to_act(state)
        self.state = state
        self.player = _TERMINAL if actor is None else _CHANCE if actor is CHANCE else actor

    def __copy__(self) -> "_Held":
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> "_Held":
        return self

    def __reduce__(self) -> tuple[object, ...]:
        return (_held_from_text, (_state_text(self.state),))


def _state_text(state: GameState) -> str:
    return json.dumps(state_to_json(state), separators=(",", ":"))


def _state_from_text(text: object, players: int | None) -> GameState:
    """The checked state of a text; ``players`` seats when it is given.

    Raises:
        RecordError: see :meth:`HighSocietyGame.deserialize_state`.
    """
    if not isinstance(text, str):
        raise RecordError(
            RecordCode.WRONG_TYPE, f"a state must be JSON text, not {type(text).__name__}"
        )
    state = state_from_json(parse_json(text))
    if state.config != STANDARD:
        raise RecordError(RecordCode.BAD_STATE, "the OpenSpiel game is the standard game")
    if players is not None and state.num_players != players:
        raise RecordError(
            RecordCode.BAD_STATE,
            f"a state of {state.num_players} players, not of this game's {players}",
            path="$.players",
        )
    return state


def _held_from_text(text: str) -> _Held:
    return _Held(_state_from_text(text, None))


def _unpickle_state(players: int, text: str) -> HighSocietyState:
    game = pyspiel.load_game(SHORT_NAME, {"players": players})
    state: HighSocietyState = game.deserialize_state(text)
    return state


def game_state(state: pyspiel.State) -> GameState:
    """The library's :class:`~high_society.GameState` inside an OpenSpiel state of this game
    (to score, describe or check it with the library).

    Raises:
        TypeError: ``state`` is not a state of this game.
    """
    if not isinstance(state, HighSocietyState):
        raise TypeError(f"not a High Society state: {type(state).__name__}")
    return state.state


def action_mask(state: pyspiel.State, player: int | None = None) -> NDArray[np.int8]:
    """``state.legal_actions_mask(player)`` in the package's one mask convention: an int8
    0/1 array of ``num_distinct_actions()`` player actions, new and writable (OpenSpiel's
    own method returns a list; at a chance node its mask is of chance outcomes, here all
    0). ``player`` defaults to the seat to act.

    Raises:
        TypeError: ``state`` is not a state of this game.
    """
    inner = game_state(state)
    mask = np.zeros(num_actions(inner.config), dtype=np.int8)
    seat = state.current_player()
    if seat >= 0 and (player is None or player == seat):
        mask[list(legal_action_ids(inner))] = 1
    return mask


pyspiel.register_game(GAME_TYPE, HighSocietyGame)

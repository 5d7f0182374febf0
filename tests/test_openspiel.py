"""The OpenSpiel game (high_society.openspiel): OpenSpiel's own random simulation test with
and without serialisation for 3, 4 and 5 players, a game through its RL environment, and
the adapter tied to the library move by move."""

import importlib.util
import random
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment

from high_society import apply, describe_action, legal_actions, new_game, result
from high_society.encoding import action_id, legal_action_ids, num_actions
from high_society.errors import InvalidConfigError
from high_society.observation import (
    max_game_length,
    observation_size,
    observation_string,
    observation_tensor,
    returns,
)
from high_society.openspiel import SHORT_NAME, HighSocietyState, game_state


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("serialize", [False, True])
def test_openspiel_random_sim_test_passes(players: int, serialize: bool) -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": players})
    pyspiel.random_sim_test(game, num_sims=2, serialize=serialize, verbose=False)


def test_the_game_as_openspiel_describes_it() -> None:
    game = pyspiel.load_game("high_society(players=3)")
    kind = game.get_type()
    assert kind.short_name == "high_society"
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION  # R14
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert game.num_players() == 3
    assert game.num_distinct_actions() == num_actions() == 2058
    assert game.max_chance_outcomes() == 14
    assert game.min_utility() == 0.0
    assert game.max_utility() == 1.0
    assert game.max_game_length() == max_game_length(3)
    assert game.observation_tensor_shape() == [observation_size(3)]
    assert pyspiel.load_game(SHORT_NAME).num_players() == 4  # the default


@pytest.mark.parametrize("players", [2, 6])
def test_other_player_counts_are_refused(players: int) -> None:
    with pytest.raises(InvalidConfigError):
        pyspiel.load_game(SHORT_NAME, {"players": players})


def test_an_observation_with_parameters_is_refused() -> None:
    game = pyspiel.load_game(SHORT_NAME)
    with pytest.raises(InvalidConfigError):
        game.make_py_observer(None, {"x": 1})


def test_every_move_of_a_game_agrees_with_the_library() -> None:
    rng = random.Random(5)
    game = pyspiel.load_game(SHORT_NAME, {"players": 4})
    spiel = game.new_initial_state()
    state = new_game(4)
    moves = 0
    while not spiel.is_terminal():
        assert game_state(spiel) == state
        if spiel.is_chance_node():
            outcomes = spiel.chance_outcomes()
            assert [i for i, _ in outcomes] == list(legal_action_ids(state))
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            move = rng.choice(outcomes)[0]
        else:
            seat = spiel.current_player()
            assert seat == state.turn
            legal = spiel.legal_actions()
            assert legal == sorted(action_id(a) for a in legal_actions(state))
            assert spiel.observation_tensor(seat) == pytest.approx(observation_tensor(state, seat))
            assert spiel.observation_string(seat) == observation_string(state, seat)
            move = legal[0] if rng.random() < 0.5 else rng.choice(legal)
        action = next(a for a in legal_actions(state) if action_id(a) == move)
        assert spiel.action_to_string(spiel.current_player(), move) == describe_action(action)
        spiel.apply_action(move)
        state = apply(state, action)
        moves += 1
    assert game_state(spiel) == state
    assert spiel.returns() == list(returns(state))
    winners = result(state).winners
    assert sum(spiel.returns()) == (1.0 if winners else 0.0)
    assert moves > 20


def test_the_python_shortcuts_answer_as_openspiels_own_methods() -> None:
    # legal_actions and is_chance_node are overridden in Python for speed; OpenSpiel's C++
    # methods (reached through pyspiel.State) must give the same answers everywhere.
    rng = random.Random(8)
    game = pyspiel.load_game(SHORT_NAME, {"players": 3})
    state = game.new_initial_state()
    while True:
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        # OpenSpiel refuses to list actions for chance (-1) at a seat's turn: not asked.
        players = (-1, 0, 1, 2) if state.is_chance_node() else (0, 1, 2)
        for player in players:
            assert state.legal_actions(player) == pyspiel.State.legal_actions(state, player)
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[0] if rng.random() < 0.6 else rng.choice(legal))
    assert state.legal_actions() == []


def test_a_clone_goes_its_own_way() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 3})
    state = game.new_initial_state()
    state.apply_action(4)  # reveal luxury 5
    clone = state.clone()
    clone.apply_action(0)  # seat 0 passes in the clone only
    assert game_state(state).players[0].passed is False
    assert game_state(clone).players[0].passed is True
    assert isinstance(clone, HighSocietyState)


def test_a_serialised_state_comes_back_equal() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 5})
    state = game.new_initial_state()
    for move in (10, 3, 0, 2047):  # prestige; seat 0 bids 1 + 2; seat 1 passes; seat 2 all
        state.apply_action(move)
    text = pyspiel.serialize_game_and_state(game, state)
    _, again = pyspiel.deserialize_game_and_state(text)
    assert game_state(again) == game_state(state)
    assert again.history() == [10, 3, 0, 2047]


def test_action_strings_name_the_move() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 3})
    state = game.new_initial_state()
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 10) == "Reveal Prestige"
    state.apply_action(10)
    assert state.action_to_string(0, 5) == "Seat 0 bids 1 + 3"
    assert state.action_to_string(0, 0) == "Seat 0 passes"
    assert state.action_to_string(1, 2057) == "Seat 1 discards Luxury 10"


def test_the_information_state_is_the_history() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 3})
    state = game.new_initial_state()
    state.apply_action(10)
    state.apply_action(3)
    assert state.information_state_string(1) == "10, 3"


def test_game_state_refuses_another_games_state() -> None:
    other = pyspiel.load_game("tic_tac_toe").new_initial_state()
    with pytest.raises(TypeError):
        game_state(other)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_game_through_the_rl_environment(players: int) -> None:
    env = rl_environment.Environment(
        SHORT_NAME,
        players=players,
        chance_event_sampler=rl_environment.ChanceEventSampler(seed=players),
    )
    assert env.action_spec()["num_actions"] == 2058
    assert env.observation_spec()["info_state"] == (observation_size(players),)
    rng = np.random.default_rng(players)
    step = env.reset()
    steps = 0
    while not step.last():
        seat = step.observations["current_player"]
        legal = step.observations["legal_actions"][seat]
        assert legal == sorted(legal)
        assert len(step.observations["info_state"][seat]) == observation_size(players)
        step = env.step([int(rng.choice(legal))])
        steps += 1
    assert 0 < steps <= max_game_length(players)
    assert sum(step.rewards) in (0.0, 1.0)


@pytest.mark.parametrize("evaluator", ["heuristic", "random"])
def test_the_mcts_example_plays_and_reports(
    evaluator: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = Path(__file__).resolve().parent.parent / "examples" / "openspiel_mcts.py"
    spec = importlib.util.spec_from_file_location("openspiel_mcts", path)
    assert spec is not None
    assert spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    args = ["--games", "1", "--simulations", "4", "--evaluator", evaluator, "--seed", "3"]
    mean = example.main(args)
    assert 0.0 <= mean <= 1.0
    assert f"MCTSBot ({evaluator} rollouts, 4 simulations a move)" in capsys.readouterr().out

"""The PettingZoo environment and the Gymnasium wrapper (high_society.pettingzoo):
PettingZoo's own api_test, seed_test, render_test and state_test for 3, 4 and 5 players,
Gymnasium's env checker, and the environments tied to the library move by move."""

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test, state_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from high_society import IllegalActionError, Phase, StatusCard, apply, legal_actions
from high_society.bots import RandomBot
from high_society.encoding import action_id, legal_action_ids, num_actions
from high_society.errors import InvalidConfigError
from high_society.observation import observation_size, observation_tensor, returns
from high_society.pettingzoo import ENV_NAME, HighSocietyEnv, SoloEnv, env, raw_env


@pytest.mark.parametrize("players", [3, 4, 5])
def test_pettingzoo_api_test_passes(players: int) -> None:
    # The test warns about dictionary observations, which the classic games use too.
    with pytest.warns(UserWarning, match="Observation"):
        api_test(env(players=players), num_cycles=200)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_pettingzoo_seed_test_passes(players: int) -> None:
    seed_test(lambda: env(players=players), num_cycles=100)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_pettingzoo_render_test_passes(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode=None: env(players=players, render_mode=render_mode))
    assert "players; " in capsys.readouterr().out  # "human" prints the table


@pytest.mark.parametrize("players", [3, 4, 5])
def test_pettingzoo_state_test_passes(players: int) -> None:
    state_test(env(players=players), turn_based_aec_to_parallel(env(players=players)), 30)


def test_the_environment_as_pettingzoo_sees_it() -> None:
    environment = env(players=5)
    environment.reset(seed=1)
    assert environment.metadata["name"] == ENV_NAME == "high_society_v0"
    assert environment.possible_agents == [f"player_{i}" for i in range(5)]
    assert environment.action_space("player_0").n == num_actions() == 2058
    space = environment.observation_space("player_3")
    assert space["observation"].shape == (observation_size(5),)
    assert space["action_mask"].shape == (2058,)
    assert environment.state().shape == (observation_size(5),)


def test_every_step_agrees_with_the_library() -> None:
    environment = raw_env(4)
    environment.reset(seed=11)
    rng = np.random.default_rng(11)
    steps = 0
    for agent in environment.agent_iter():
        observation, reward, termination, _, _ = environment.last()
        game = environment.game
        if termination:
            assert reward == returns(game)[int(agent.removeprefix("player_"))]
            environment.step(None)
            continue
        seat = int(agent.removeprefix("player_"))
        assert game.turn == seat
        assert legal_action_ids(game) == tuple(np.flatnonzero(observation["action_mask"]))
        assert observation["observation"].tolist() == observation_tensor(game, seat)
        assert observation["observation"].dtype == np.float32
        others = [a for a in environment.agents if a != agent]
        assert not environment.observe(others[0])["action_mask"].any()
        move = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        action = next(a for a in legal_actions(game) if action_id(a) == move)
        environment.step(move)
        expected, after = apply(game, action), environment.game
        # Only chance may have moved since: at most one reveal, which changes no seat.
        assert after.players == expected.players
        assert after.removed == expected.removed
        assert len(expected.deck) - len(after.deck) == (expected.phase is Phase.REVEAL)
        steps += 1
    assert environment.game.is_over
    assert environment.agents == []
    assert steps > 10


def _auction_cards(seed: int) -> list[StatusCard | None]:
    """The cards auctioned in a game where every seat plays its first legal id (Pass, or
    the cheapest discard), for one seed."""
    environment = raw_env(3)
    environment.reset(seed=seed)
    cards = [environment.game.auction]
    while not environment.game.is_over:
        environment.step(legal_action_ids(environment.game)[0])
        cards.append(environment.game.auction)
    return cards


def test_the_same_seed_reveals_the_same_cards_and_other_seeds_others() -> None:
    assert _auction_cards(5) == _auction_cards(5)
    assert len({tuple(_auction_cards(seed)) for seed in range(8)}) > 1


def test_a_raw_environment_refuses_an_illegal_action_and_changes_nothing() -> None:
    environment = raw_env(3)
    environment.reset(seed=2)
    before = environment.game
    with pytest.raises(IllegalActionError):
        environment.step(2057)  # a discard, during an auction
    assert environment.game == before


def test_the_wrapped_environment_ends_the_game_on_an_illegal_action() -> None:
    environment = env(players=3)
    environment.reset(seed=2)
    offender = environment.agent_selection
    environment.step(2057)
    assert all(environment.terminations.values())
    assert environment.rewards[offender] == -1
    assert sorted(environment.rewards.values()) == [-1, 0, 0]


@pytest.mark.parametrize(("players", "mode"), [(2, None), (6, None), (3, "rgb_array")])
def test_bad_environment_settings_are_refused(players: int, mode: str | None) -> None:
    with pytest.raises(InvalidConfigError):
        HighSocietyEnv(players, mode)


def test_render_without_a_mode_warns_and_returns_nothing() -> None:
    environment = raw_env(3)
    environment.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert environment.render() is None
    ansi = raw_env(3, render_mode="ansi")
    ansi.reset(seed=0)
    text = ansi.render()
    assert isinstance(text, str)
    assert text.startswith("3 players; auction of ")


# --- The Gymnasium wrapper ------------------------------------------------------------------


def test_gymnasiums_env_checker_passes() -> None:
    check_env(SoloEnv(players=3, seat=1), skip_render_check=True)


def test_a_solo_episode_against_random_bots() -> None:
    solo = SoloEnv(players=4, seat=2, opponent=RandomBot, render_mode="ansi")
    observation, _ = solo.reset(seed=4)
    rng = np.random.default_rng(4)
    reward, done, steps = 0.0, False, 0
    while not done:
        assert solo.game.turn == 2
        move = rng.choice(np.flatnonzero(observation["action_mask"]))
        observation, reward, done, truncated, _ = solo.step(move)
        assert not truncated
        steps += 1
    game = solo.game
    assert game.is_over
    assert reward == returns(game)[2]
    assert isinstance(solo.render(), str)
    again, _ = SoloEnv(players=4, seat=2, opponent=RandomBot).reset(seed=4)
    first, _ = solo.reset(seed=4)
    assert (again["observation"] == first["observation"]).all()


def test_a_solo_illegal_action_ends_the_episode_with_minus_1() -> None:
    solo = SoloEnv(players=3)
    observation, _ = solo.reset(seed=0)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, done, _, info = solo.step(illegal)
    assert (reward, done, info) == (-1.0, True, {"illegal_action": illegal})


@pytest.mark.parametrize(
    ("players", "seat", "mode"), [(3, 3, None), (3, -1, None), (6, 0, None), (3, 0, "human")]
)
def test_bad_solo_settings_are_refused(players: int, seat: int, mode: str | None) -> None:
    with pytest.raises(InvalidConfigError):
        SoloEnv(players=players, seat=seat, render_mode=mode)

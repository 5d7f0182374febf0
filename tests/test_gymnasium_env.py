"""The Gymnasium environment of one learner against the built-in bots
(high_society.gymnasium_env): Gymnasium's env checker, episodes, its opponents' protocols and
hooks, its arrays, every reveal and every bot's turn played by the library's one loop
(host.turns), that it needs no PettingZoo, and its old name in high_society.pettingzoo."""

import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import ClassVar

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import high_society.gymnasium_env
import high_society.pettingzoo
from high_society import (
    Action,
    GameResult,
    GameState,
    Reveal,
    apply,
    legal_actions,
    new_game,
    result,
)
from high_society.bots import AnyBot, GameStart, RandomBot, SeatOnly, Seen
from high_society.encoding import action_from_id
from high_society.errors import InvalidConfigError
from high_society.gymnasium_env import SoloEnv
from high_society.host import Step, turns
from high_society.observation import returns


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


def test_solo_observations_are_the_agents_own() -> None:
    # Gymnasium's convention: new, writable arrays at every step.
    solo = SoloEnv(players=3)
    first, _ = solo.reset(seed=1)
    first["observation"][:] = 0
    first["action_mask"][:] = 0
    again, _, _, _, _ = solo.step(0)  # Pass
    assert again["observation"].any()
    assert again["action_mask"].any()
    assert again["action_mask"].flags.writeable


class _Hooked:
    """A seat bot that records its hooks and plays Pass (or the lowest discard)."""

    log: ClassVar[list[tuple[str, object]]] = []

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def start(self, game: GameStart) -> None:
        self.log.append(("start", game.seat))

    def end(self, outcome: GameResult) -> None:
        self.log.append(("end", outcome.winners))

    def choose_seen(self, seen: Seen) -> Action:
        assert seen.deduced_state().turn == seen.seat  # the history given is the game's
        return legal_actions(seen.deduced_state())[0]


def test_solo_opponents_may_be_seat_bots_and_are_told_start_and_end() -> None:
    _Hooked.log = []
    solo = SoloEnv(players=3, seat=1, opponent=_Hooked)
    observation, _ = solo.reset(seed=5)
    assert sorted(_Hooked.log) == [("start", 0), ("start", 2)]
    done = False
    while not done:
        legal = np.flatnonzero(observation["action_mask"])
        observation, _, done, _, _ = solo.step(int(legal[0]))
    winners = result(solo.game).winners
    assert _Hooked.log[2:] == [("end", winners), ("end", winners)]


def test_solo_action_masks_and_normalized_observations() -> None:
    solo = SoloEnv(players=4, seat=0, normalize=True)
    observation, _ = solo.reset(seed=2)
    assert solo.action_masks().dtype == np.bool_
    assert (solo.action_masks() == (observation["action_mask"] != 0)).all()
    assert solo.observation_space.contains(observation)
    assert observation["observation"].min() >= 0.0
    assert observation["observation"].max() <= 1.0
    check_env(SoloEnv(players=3, seat=2, normalize=True), skip_render_check=True)


def test_the_old_name_in_pettingzoo_still_works_and_warns() -> None:
    with pytest.warns(DeprecationWarning, match=r"high_society\.gymnasium_env"):
        old = high_society.pettingzoo.SoloEnv
    assert old is SoloEnv
    with pytest.warns(DeprecationWarning, match="SoloEnv is deprecated"):
        from high_society.pettingzoo import SoloEnv as imported
    assert imported is SoloEnv
    assert "SoloEnv" not in high_society.pettingzoo.__all__
    with pytest.raises(AttributeError, match="no attribute 'SoloEnvs'"):
        _ = high_society.pettingzoo.SoloEnvs


def _counted(monkeypatch: pytest.MonkeyPatch, module: object, played: list[Action]) -> None:
    """Make ``module`` call a ``turns`` that records each action the loop plays."""

    def counting(
        state: GameState,
        bots: Sequence[AnyBot | None],
        draw: Callable[[GameState], Reveal],
        history: Sequence[Action] = (),
    ) -> Iterator[Step]:
        for step in turns(state, bots, draw, history):
            played.append(step.action)
            yield step

    monkeypatch.setattr(module, "turns", counting)


@pytest.mark.parametrize("opponent", [RandomBot, lambda seed: SeatOnly(RandomBot(seed))])
def test_every_reveal_and_every_bot_turn_is_played_by_the_one_loop(
    monkeypatch: pytest.MonkeyPatch, opponent: Callable[[int | None], AnyBot]
) -> None:
    # The learner's actions and the loop's, in the order played, are the whole game: the
    # environment plays nothing else.
    from_loop: list[Action] = []
    _counted(monkeypatch, high_society.gymnasium_env, from_loop)
    solo = SoloEnv(players=4, seat=1, opponent=opponent)
    rng = np.random.default_rng(3)
    for seed in (3, None):
        from_loop.clear()
        observation, _ = solo.reset(seed=seed)
        game = from_loop[:]
        done = False
        while not done:
            from_loop.clear()
            before = solo.game
            move = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            observation, _, done, _, _ = solo.step(move)
            game += [action_from_id(before, move), *from_loop]
        assert solo.game.is_over
        assert replayed(4, game) == solo.game


def replayed(players: int, actions: list[Action]) -> GameState:
    state = new_game(players)
    for action in actions:
        state = apply(state, action)
    return state


def test_the_pettingzoo_environments_reveal_through_the_one_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from_loop: list[Action] = []
    _counted(monkeypatch, high_society.pettingzoo, from_loop)
    environment = high_society.pettingzoo.env(players=3)
    rng = np.random.default_rng(4)
    environment.reset(seed=4)
    game: list[Action] = [*from_loop]
    from_loop.clear()
    for _ in environment.agent_iter():
        observation, _, termination, truncation, _ = environment.last()
        if termination or truncation:
            environment.step(None)
            continue
        before = environment.game
        move = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        environment.step(move)
        game += [action_from_id(before, move), *from_loop]
        from_loop.clear()
    assert environment.game.is_over
    assert replayed(3, game) == environment.game
    assert sum(isinstance(action, Reveal) for action in game) > 10


def test_the_gymnasium_environment_needs_no_pettingzoo() -> None:
    # A process where PettingZoo cannot be imported plays a whole episode.
    code = (
        "import sys; sys.modules['pettingzoo'] = None\n"
        "import numpy as np\n"
        "from high_society.gymnasium_env import SoloEnv\n"
        "env = SoloEnv(players=3)\n"
        "observation, _ = env.reset(seed=1)\n"
        "done = False\n"
        "while not done:\n"
        "    legal = np.flatnonzero(observation['action_mask'])\n"
        "    observation, reward, done, _, _ = env.step(int(legal[0]))\n"
        "assert 'pettingzoo' not in {m.split('.')[0] for m in sys.modules if sys.modules[m]}\n"
        "print(env.game.is_over)\n"
    )
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout == "True\n"

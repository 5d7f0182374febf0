"""The Gymnasium vector environment of a learner against compiled opponents.

Gymnasium has no checker for vector environments; what applies is checked here: the
spaces hold every observation and action, ``reset`` takes ``seed`` (numpy's integers too)
and ``options`` as Gymnasium specifies, the same seed gives the same data
(``gymnasium.utils.env_checker.data_equivalence``), Gymnasium's own vector wrappers
(``RecordEpisodeStatistics``, which reads the declared autoreset mode,
``DictInfoToList``, ``FlattenObservation``) and its ``benchmark_vector_step`` run on it, and
random actions from the action space (mostly illegal) are answered, not raised. The
opponents are tied to the reducer's bots: a learner that always passes wins as often
here as ``PassBot`` does against three ``HeuristicBot`` in a tournament.
"""

from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import data_equivalence  # noqa: E402
from gymnasium.utils.performance import benchmark_vector_step  # noqa: E402
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402
from gymnasium.wrappers.vector import (  # noqa: E402
    DictInfoToList,
    FlattenObservation,
    RecordEpisodeStatistics,
)

from high_society.batch import BatchError  # noqa: E402
from high_society.batch.learner import LearnerVectorEnv  # noqa: E402
from high_society.bots import HeuristicBot, PassBot  # noqa: E402
from high_society.tournament import Entrant, tournament  # noqa: E402


def passing(env: LearnerVectorEnv) -> np.ndarray:
    """Pass where it is legal, else the lowest legal id (a discard)."""
    masks = env.action_masks()
    return np.where(masks[:, 0], 0, masks.argmax(axis=1))


def run(env: LearnerVectorEnv, steps: int, seed: int) -> list[Any]:
    out: list[Any] = [env.reset(seed=seed)]
    for _ in range(steps):
        out.append(env.step(env.sample_legal()))
    return out


def test_it_is_a_gymnasium_vector_env_with_single_and_batched_spaces() -> None:
    env = LearnerVectorEnv(6, players=3, seed=1)
    assert isinstance(env, VectorEnv)
    assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert env.single_action_space == gymnasium.spaces.Discrete(2058)
    assert env.action_space.shape == (6,)
    batched = env.observation_space
    assert isinstance(batched, gymnasium.spaces.Dict)
    assert batched["observation"].shape == (6, 161)
    assert batched["action_mask"].dtype == np.int8
    observations, infos = env.reset(seed=1)
    assert env.observation_space.contains(observations)
    for _ in range(60):
        observations, rewards, terminations, truncations, infos = env.step(env.sample_legal())
        assert env.observation_space.contains(observations)
        assert rewards.shape == terminations.shape == truncations.shape == (6,)
        assert not truncations.any()
        assert observations["action_mask"].flags.writeable
        # Every observation is for a learner seat, at its decision.
        assert env.learner_seats[np.arange(6), infos["seat"]].all()
        assert observations["action_mask"].any(axis=1).all()


def test_the_same_seed_gives_the_same_data_and_numpy_seeds_are_taken() -> None:
    first = run(LearnerVectorEnv(8, seed=5), 80, seed=11)
    second = run(LearnerVectorEnv(8, seed=9), 80, seed=np.int64(11))  # type: ignore[arg-type]
    assert data_equivalence(first, second, exact=True)
    other = run(LearnerVectorEnv(8, seed=5), 80, seed=12)
    assert not data_equivalence(first, other)


def test_reset_takes_gymnasiums_options() -> None:
    env = LearnerVectorEnv(4, seed=2)
    _before, _ = env.reset(seed=2)
    env.step(env.sample_legal())
    stepped = env.batch.to_state(1)
    mask = np.array([True, False, True, False])
    _after, _infos = env.reset(options={"reset_mask": mask})
    assert env.batch.to_state(1) == stepped  # left as it was
    assert env.batch.to_state(0).auctions_started <= 1  # a new game
    with pytest.raises(BatchError, match="unknown reset option"):
        env.reset(options={"reset_mask": mask, "players": 5})
    with pytest.raises(BatchError, match="reset_mask must be"):
        env.reset(options={"reset_mask": [1, 0, 1, 0]})
    with pytest.raises(BatchError, match="a seed is an int"):
        env.reset(seed=True)


@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_illegal_actions_end_their_games_with_minus_one(mode: AutoresetMode) -> None:
    env = LearnerVectorEnv(16, seed=3, autoreset_mode=mode)
    env.reset(seed=3)
    actions = env.sample_legal()
    actions[::2] = 2057  # a discard of luxury 10: never legal in an auction
    actions[1] = -3
    legal = env.action_masks()[np.arange(16), actions.clip(0)] & (actions >= 0)
    assert legal.sum() < 16
    observations, rewards, terminations, _, infos = env.step(actions)
    assert (rewards[~legal] == -1).all()
    assert terminations[~legal].all()
    assert (infos["illegal"] == ~legal).all()
    if mode is AutoresetMode.SAME_STEP:
        assert infos["_final_obs"][~legal].all()
        assert env.batch.to_state(0).auctions_started <= 1  # already a new game
    else:
        # The game waits for its reset: only id 0 offered, and it is ignored.
        assert (observations["action_mask"][0] == np.eye(1, 2058, 0, dtype=np.int8)[0]).all()
        frozen = env.batch.to_state(0)  # nobody plays in it any more
        _, rewards, terminations, _, _ = env.step(np.zeros(16, dtype=np.int64))
        assert rewards[0] == 0
        if mode is AutoresetMode.NEXT_STEP:
            assert not terminations[0]
            assert env.batch.to_state(0).auctions_started <= 1
        else:
            assert env.batch.to_state(0) == frozen


def test_the_modes_are_declared_and_bad_ones_refused() -> None:
    for mode in AutoresetMode:
        assert LearnerVectorEnv(2, autoreset_mode=mode).metadata["autoreset_mode"] is mode
    assert LearnerVectorEnv(2, autoreset_mode="SameStep").metadata["autoreset_mode"] is (
        AutoresetMode.SAME_STEP
    )
    with pytest.raises(BatchError, match="autoreset_mode must be one of"):
        LearnerVectorEnv(2, autoreset_mode="sometimes")


@pytest.mark.parametrize("mode", [AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP])
def test_gymnasiums_vector_wrappers_and_benchmark_run_on_it(mode: AutoresetMode) -> None:
    env = RecordEpisodeStatistics(LearnerVectorEnv(32, seed=4, autoreset_mode=mode))
    env.reset(seed=4)
    episodes: list[float] = []
    total = 0.0
    for _ in range(400):
        _, rewards, terminations, _, infos = env.step(env.unwrapped.sample_legal())  # type: ignore[attr-defined]
        total += float(rewards.sum())
        if "episode" in infos:
            done = infos["_episode"]
            assert (done == terminations).all()
            episodes += infos["episode"]["r"][done].tolist()
            assert (infos["episode"]["r"][done] == rewards[done]).all()  # rewards come last
    assert len(episodes) > 100
    assert set(np.round(episodes, 6)) <= {0.0, 0.5, 1 / 3, 1.0}
    listed = DictInfoToList(LearnerVectorEnv(4, seed=1))
    _, infos_list = listed.reset(seed=1)
    assert len(infos_list) == 4
    assert "seat" in infos_list[0]
    flat = FlattenObservation(LearnerVectorEnv(4, seed=1))
    observations, _ = flat.reset(seed=1)
    assert observations.shape == (4, 199 + 2058)
    assert benchmark_vector_step(LearnerVectorEnv(8, seed=1), target_duration=0, seed=1) > 0


def test_seats_rotate_or_stay_fixed_or_form_a_team() -> None:
    rotating = LearnerVectorEnv(400, seed=6)
    _, infos = rotating.reset(seed=6)
    assert np.bincount(rotating.learner_seats.argmax(axis=1), minlength=4).min() > 60
    fixed = LearnerVectorEnv(50, seats=2, seed=6)
    _, infos = fixed.reset(seed=6)
    assert (infos["seat"] == 2).all()
    team = LearnerVectorEnv(50, seats=(0, 2), seed=6)
    _, infos = team.reset(seed=6)
    assert set(infos["seat"].tolist()) <= {0, 2}
    for seats in (4, (1, 1), (0, 1, 2, 3), (), -1, True):
        with pytest.raises(BatchError, match="seats must be"):
            LearnerVectorEnv(2, seats=seats)
    with pytest.raises(BatchError, match="the learner is the caller"):
        LearnerVectorEnv(2, opponents="caller")


def test_normalized_observations_stay_within_zero_and_one() -> None:
    env = LearnerVectorEnv(64, normalize=True, seed=7)
    observations, _ = env.reset(seed=7)
    for _ in range(40):
        assert observations["observation"].min() >= 0.0
        assert observations["observation"].max() <= 1.0
        observations, *_ = env.step(env.sample_legal())
    assert env.observation_space.contains(observations)


def test_a_passing_learner_wins_here_as_passbot_does_against_the_reducers_heuristics() -> None:
    # The compiled opponents in distribution: 6,000 games here, 1,200 in a tournament of
    # the reducer's bots; the two win shares agree within four standard errors (seeded).
    env = LearnerVectorEnv(1000, seed=8)
    env.reset(seed=8)
    finished: list[float] = []
    while len(finished) < 6000:
        _, rewards, terminations, _, _ = env.step(passing(env))
        finished += rewards[terminations].tolist()
    here = float(np.mean(finished))
    table = tournament(
        [Entrant("pass", PassBot)] + [Entrant("heuristic", HeuristicBot)] * 3, 1200, seed=8
    )
    there = table.rows[0].win_rate
    error = np.sqrt(here * (1 - here) / len(finished) + there * (1 - there) / 1200)
    assert abs(here - there) < 4 * error, (here, there)

"""One mask convention across the package: every adapter gives legal-action masks as an
int8 array of 0 and 1, one entry per action id, new at each call and writable (docs/ai.md).
Each is checked against the encoding's own mask of the same state.
"""

from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import pytest

from high_society import GameState, StatusCard
from high_society.encoding import legal_action_mask, num_actions

pytest.importorskip("numba")
pyspiel = pytest.importorskip("pyspiel")

import high_society.openspiel  # noqa: E402
from high_society.batch import GameBatch, VectorEnv  # noqa: E402
from high_society.batch.learner import LearnerVectorEnv  # noqa: E402
from high_society.gymnasium_env import SoloEnv  # noqa: E402
from high_society.pettingzoo import raw_env  # noqa: E402


def expected(state: GameState) -> npt.NDArray[np.int8]:
    mask = np.zeros(num_actions(), dtype=np.int8)
    legal_action_mask(state, mask)
    return mask


def batch_mask() -> tuple[npt.NDArray[np.int8], GameState]:
    batch = GameBatch(2, players=4, seed=1)
    return batch.legal_action_mask()[0], batch.to_state(0)


def vector_mask() -> tuple[npt.NDArray[np.int8], GameState]:
    env = VectorEnv(2, players=4, seed=1)
    _, infos = env.reset()
    return infos["action_mask"][0], env.batch.to_state(0)


def learner_mask() -> tuple[npt.NDArray[np.int8], GameState]:
    env = LearnerVectorEnv(2, players=4, seed=1)
    observations, _ = env.reset(seed=1)
    return observations["action_mask"][0], env.batch.to_state(0)


def pettingzoo_mask() -> tuple[npt.NDArray[np.int8], GameState]:
    environment = raw_env(4)
    environment.reset(seed=1)
    mask = environment.observe(environment.agent_selection)["action_mask"]
    return mask, environment.game


def solo_mask() -> tuple[npt.NDArray[np.int8], GameState]:
    solo = SoloEnv(players=4, seat=0)
    observation, _ = solo.reset(seed=1)
    return observation["action_mask"], solo.game


def openspiel_mask() -> tuple[npt.NDArray[np.int8], GameState]:
    game = pyspiel.load_game("high_society", {"players": 4})
    state = game.new_initial_state()
    state.apply_action(StatusCard.LUXURY_6.luxury_value - 1)  # reveal luxury 6
    return high_society.openspiel.action_mask(state), high_society.openspiel.game_state(state)


@pytest.mark.parametrize(
    "make",
    [batch_mask, vector_mask, learner_mask, pettingzoo_mask, solo_mask, openspiel_mask],
)
def test_every_adapter_gives_a_new_writable_int8_mask(
    make: Callable[[], tuple[npt.NDArray[np.int8], GameState]],
) -> None:
    mask, state = make()
    again, _ = make()
    assert mask.dtype == np.int8
    assert mask.shape == (num_actions(),)
    assert mask.flags.writeable
    assert not np.shares_memory(mask, again)
    assert (mask == expected(state)).all()
    assert set(np.unique(mask).tolist()) == {0, 1}


def test_the_sb3_masks_are_the_same_ids_as_bool() -> None:
    solo = SoloEnv(players=3, seat=0)
    observation, _ = solo.reset(seed=2)
    assert (solo.action_masks() == observation["action_mask"].view(np.bool_)).all()
    env = LearnerVectorEnv(3, players=3, seed=2)
    observations, _ = env.reset(seed=2)
    assert (env.action_masks() == (observations["action_mask"] != 0)).all()


def test_openspiel_masks_are_empty_at_chance_and_for_other_players() -> None:
    game = pyspiel.load_game("high_society", {"players": 3})
    state = game.new_initial_state()
    assert not high_society.openspiel.action_mask(state).any()  # chance acts
    state.apply_action(4)
    assert not high_society.openspiel.action_mask(state, player=1).any()
    assert high_society.openspiel.action_mask(state, player=0).sum() == 2048

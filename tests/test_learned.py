"""The learned bot: its shipped weights load, play only legal actions, deterministically,
and the network sees in a played game what it saw in training (the batch engine's
observations).
"""

from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from high_society import Phase, is_legal, learned
from high_society.bots import AnyBot, HeuristicBot, RandomBot, cheapest_bid
from high_society.encoding import action_id
from high_society.errors import InvalidConfigError
from high_society.host import play
from high_society.learned import WEIGHTS_FILE, LearnedBot, load_network
from high_society.observation import observation_scale
from high_society.tournament import Entrant, tournament


def test_the_shipped_weights_load_and_are_small() -> None:
    network = load_network()
    assert network.players == 4
    assert network.inputs == 199
    size = resources.files("high_society").joinpath("data", WEIGHTS_FILE).read_bytes()
    assert len(size) < 300_000
    assert all(w.dtype == np.float32 for w, _ in network.layers)


def test_the_old_name_of_the_weights_file_still_works_and_warns() -> None:
    with pytest.warns(DeprecationWarning, match="WEIGHTS_FILE"):
        assert learned.WEIGHTS == WEIGHTS_FILE
    with pytest.raises(AttributeError, match="no attribute 'WEIGHT'"):
        _ = learned.WEIGHT


@pytest.mark.parametrize("players", [3, 4, 5])
def test_it_plays_only_legal_actions(players: int) -> None:
    decisions = 0
    for seed in range(8):
        bots = [LearnedBot(seed)] + [
            (HeuristicBot if i % 2 else RandomBot)(seed * 10 + i) for i in range(1, players)
        ]
        for step in play(bots, seed=seed):
            if step.before.turn == 0 and step.before.phase in (Phase.AUCTION, Phase.DISCARD):
                assert is_legal(step.before, step.action)
                decisions += 1
    assert decisions > 40


def test_it_is_deterministic() -> None:
    lineup = [Entrant("learned", LearnedBot)] + [Entrant("heuristic", HeuristicBot)] * 3
    first = tournament(lineup, 40, seed=3)
    assert first == tournament(lineup, 40, seed=3, jobs=2)
    states = [s.before for s in play([LearnedBot(), *(HeuristicBot(i) for i in range(3))], seed=1)]
    states = [s for s in states if s.phase is Phase.AUCTION]
    assert [LearnedBot(1).choose(s) for s in states] == [LearnedBot(2).choose(s) for s in states]


def test_it_decides_on_the_observations_it_was_trained_on() -> None:
    # Training reads the batch engine's observations; play reads the reducer's. The same
    # network on both gives the same decision on every auction state of played games.
    pytest.importorskip("numba")
    from high_society.batch import GameBatch

    network = load_network()
    scale = np.array(observation_scale(4), dtype=np.float32)
    states = []
    for seed in range(6):
        bots: list[AnyBot] = [LearnedBot(), HeuristicBot(seed), HeuristicBot(seed + 1)]
        bots.append(RandomBot(seed))
        states += [s.before for s in play(bots, seed=seed) if cheapest_bid(s.before) is not None]
    batch = GameBatch.from_states(states)
    outputs = network(batch.observations() * scale)
    cheapest = batch.policy_actions("cheapest")
    for k, state in enumerate(states):
        played = action_id(LearnedBot().choose(state))
        assert played == (int(cheapest[k]) if outputs[k, 1] > outputs[k, 0] else 0)


def test_weights_that_are_not_a_policy_are_refused(tmp_path: Path) -> None:
    missing = tmp_path / "absent.npz"
    with pytest.raises(InvalidConfigError, match="cannot read"):
        load_network(str(missing))
    text = tmp_path / "text.npz"
    text.write_text("not numpy")
    with pytest.raises(InvalidConfigError, match="cannot read"):
        load_network(str(text))
    bad = tmp_path / "bad.npz"
    np.savez(
        bad, w0=np.zeros((3, 4)), b0=np.zeros(4), w1=np.zeros((5, 2)), b1=np.zeros(2), players=4
    )
    with pytest.raises(InvalidConfigError, match="layer 1 does not fit"):
        load_network(str(bad))
    three = tmp_path / "three.npz"
    np.savez(three, w0=np.zeros((3, 3)), b0=np.zeros(3), players=4)
    with pytest.raises(InvalidConfigError, match="not a two-output policy"):
        load_network(str(three))
    good = tmp_path / "good.npz"
    rng = np.random.default_rng(1)
    np.savez(
        good,
        w0=rng.normal(size=(199, 8)),
        b0=np.zeros(8),
        w1=rng.normal(size=(8, 2)),
        b1=np.zeros(2),
        players=4,
    )
    bot = LearnedBot(network=load_network(str(good)))
    final = None
    for step in play([bot, *(HeuristicBot(i) for i in range(3))], seed=2):
        final = step.after
    assert final is not None
    assert final.is_over

"""Expert iteration (high_society.batch.expert): the labels are the lookahead bot's values
of the states the network reaches, the same for a seed in any process; the fit moves the
network towards sure labels only and keeps nothing that does not agree better on held-out
games; every bad setting is refused."""

import os
import subprocess
import sys

import numpy as np
import pytest

from high_society import InvalidConfigError
from high_society.batch.expert import ExpertConfig, Labels, fit, iterate, label, style_bot
from high_society.batch.league import TRAINING_STYLES
from high_society.bots import HeuristicBot, PassBot
from high_society.host import play
from high_society.learned import PolicyNetwork, shipped_network
from high_society.observation import observation_size
from high_society.state import Phase

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _same(a: Labels, b: Labels) -> bool:
    return all(
        np.array_equal(x, y)
        for x, y in (
            (a.observations, b.observations),
            (a.pass_values, b.pass_values),
            (a.bid_values, b.bid_values),
            (a.games, b.games),
        )
    )


def test_labels_are_the_lookahead_values_of_states_with_a_legal_bid() -> None:
    network = shipped_network(3)
    labels = label(network, games=3, seed=5, rollouts=4)
    assert len(labels.games) > 0
    assert labels.observations.shape == (len(labels.games), network.inputs)
    assert set(labels.games.tolist()) <= {0, 1, 2}
    # Mean shares of the win over four imagined games: multiples of a share's parts.
    for values in (labels.pass_values, labels.bid_values):
        assert ((values >= 0) & (values <= 1)).all()
    assert _same(labels, label(network, games=3, seed=5, rollouts=4))
    assert not _same(labels, label(network, games=3, seed=6, rollouts=4))


def test_labels_are_the_same_in_another_process_with_another_hash_seed() -> None:
    # Every seat is seeded: nothing draws from the OS or from the order of a set.
    code = (
        "import numpy as np, sys\n"
        "from high_society.batch.expert import label\n"
        "from high_society.learned import shipped_network\n"
        "l = label(shipped_network(3), games=4, seed=7, rollouts=4)\n"
        "np.save(sys.argv[1], np.concatenate([l.pass_values, l.bid_values, l.games]))\n"
    )
    out = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"expert-labels-{os.getpid()}.npy")
    env = dict(os.environ, PYTHONHASHSEED="12345")
    subprocess.run([sys.executable, "-c", code, out], check=True, env=env, cwd=ROOT)
    try:
        there = np.load(out)
    finally:
        os.remove(out)
    here = label(shipped_network(3), games=4, seed=7, rollouts=4)
    assert np.array_equal(there, np.concatenate([here.pass_values, here.bid_values, here.games]))


def _labels(network: PolicyNetwork, gain: float, count: int = 2000) -> Labels:
    """Observations of real states, with the bid worth ``gain`` more than Pass in each."""
    states = label(network, games=4, seed=1, rollouts=2).observations
    rows = np.resize(np.arange(len(states)), count)
    x = states[rows]
    return Labels(x, np.full(count, 0.5), np.full(count, 0.5 + gain), np.arange(count) // 3)


def test_a_fit_learns_sure_labels_and_keeps_what_agrees_better_on_held_out_games() -> None:
    network = shipped_network(3)
    labels = _labels(network, gain=0.2)  # the bid is surely better everywhere
    fitted = fit(network, labels, ExpertConfig(epochs=3, learning_rates=(1e-2,)))
    before = network.bid_probabilities(labels.observations)
    after = fitted.network.bid_probabilities(labels.observations)
    assert fitted.start_accuracy < 1.0
    assert fitted.accuracy > fitted.start_accuracy
    assert fitted.kept is not None
    assert fitted.kept[0] == 1e-2
    assert after.mean() > before.mean()


def test_a_fit_with_nothing_better_to_learn_keeps_the_start() -> None:
    network = shipped_network(3)
    x = _labels(network, gain=0.0).observations
    # The expert agrees with the network everywhere, surely: no fit can agree better.
    gain = np.where(network.bid_probabilities(x) > 0.5, 0.2, -0.2)
    labels = Labels(x, np.full(len(x), 0.5), 0.5 + gain, np.arange(len(x)) // 3)
    fitted = fit(network, labels, ExpertConfig(epochs=2))
    assert fitted.start_accuracy == 1.0
    assert fitted.network is network
    assert fitted.kept is None


def test_unsure_labels_pull_towards_the_network_s_own_choice() -> None:
    network = shipped_network(3)
    labels = _labels(network, gain=0.2)
    # Only the held-out games are sure: the training states are all unsure, so their
    # targets are the network's own probabilities and nothing moves it far.
    train = labels.games % 10 != 0
    gain = np.where(train, 0.01, 0.2)
    unsure = Labels(labels.observations, labels.pass_values, 0.5 + gain, labels.games)
    # The config's largest rate: Adam scales even a rounding-sized gradient up to a step of
    # the rate's size, so at far larger rates the weights wander without any pull.
    config = ExpertConfig(epochs=3, learning_rates=(1e-3,))
    moved = fit(network, labels, config).network.bid_probabilities(labels.observations)
    stayed = fit(network, unsure, config).network.bid_probabilities(labels.observations)
    start = network.bid_probabilities(labels.observations)
    assert np.abs(stayed - start).mean() < np.abs(moved - start).mean() / 4


def test_a_fit_refuses_what_it_cannot_judge_or_read() -> None:
    network = shipped_network(3)
    labels = _labels(network, gain=0.01)  # nothing sure among the held-out games
    with pytest.raises(InvalidConfigError, match="nothing to choose on"):
        fit(network, labels)
    with pytest.raises(InvalidConfigError, match="two-output"):
        fit(shipped_network(4), _labels(network, gain=0.2))
    full = [
        (np.zeros((observation_size(3), 4), np.float32), np.zeros(4, np.float32)),
        (np.zeros((4, 2058), np.float32), np.zeros(2058, np.float32)),
    ]
    with pytest.raises(InvalidConfigError, match="two-output"):
        fit(PolicyNetwork(full, 3), _labels(network, gain=0.2))


def test_iterate_reports_each_iteration_and_the_same_for_any_jobs() -> None:
    config = ExpertConfig(games=2, chunks=2, rollouts=2, epochs=1, sure=0.0, seed=3)
    seen: list[tuple[int, int]] = []

    def report(iteration: int, labels: Labels, fitted: object) -> None:
        seen.append((iteration, len(labels.games)))

    one = iterate(shipped_network(3), 2, config, report=report)
    two = iterate(shipped_network(3), 2, config, jobs=2)
    assert [i for i, _ in seen] == [1, 2]
    assert all(n > 0 for _, n in seen)
    for (w1, b1), (w2, b2) in zip(one.layers, two.layers, strict=True):
        assert np.array_equal(w1, w2)
        assert np.array_equal(b1, b2)
    assert config.chunk_seed(1, 0) != config.chunk_seed(1, 1) != config.chunk_seed(2, 0)


@pytest.mark.parametrize(
    "settings",
    [
        {"games": 0},
        {"chunks": 10},
        {"rollouts": 0},
        {"rollouts": 1025},
        {"epochs": 1.0},
        {"minibatch": True},
        {"seed": -1},
        {"sure": -0.1},
        {"l2": "0"},
        {"learning_rates": ()},
        {"learning_rates": (1e-3, 2.0)},
        {"learning_rates": [1e-3]},
    ],
)
def test_bad_settings_are_refused(settings: dict[str, object]) -> None:
    with pytest.raises(InvalidConfigError):
        ExpertConfig(**settings)  # type: ignore[arg-type]


@pytest.mark.parametrize("iterations", [0, 100, 1.0, True])
def test_bad_iteration_counts_are_refused(iterations: object) -> None:
    with pytest.raises(InvalidConfigError, match="iterations"):
        iterate(shipped_network(3), iterations, ExpertConfig(games=1))  # type: ignore[arg-type]


def test_every_seat_of_a_labelling_game_is_a_pure_function_of_its_seed() -> None:
    # A bot drawing from the OS (an unseeded CautiousBot, say) would make the labels, and
    # so the shipped weights, differ from run to run.
    states = [
        step.before
        for game in range(20)
        for step in play([HeuristicBot(game), PassBot(), HeuristicBot(game + 1)], seed=game)
        if step.before.phase in (Phase.AUCTION, Phase.DISCARD)
    ]
    for style, _ in TRAINING_STYLES:
        first, second = style_bot(style, 17), style_bot(style, 17)
        assert [first.choose(s) for s in states] == [second.choose(s) for s in states], style

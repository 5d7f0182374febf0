"""The learned bot: its shipped weights load, play only legal actions, deterministically,
and the network sees in a played game what it saw in training (the batch engine's
observations).
"""

import io
import os
import zipfile
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from high_society import (
    GameState,
    Phase,
    Reveal,
    StatusCard,
    apply,
    is_legal,
    learned,
    new_game,
)
from high_society.bots import AnyBot, HeuristicBot, RandomBot, cheapest_bid
from high_society.encoding import action_id
from high_society.errors import InvalidConfigError
from high_society.host import play
from high_society.learned import (
    WEIGHTS_FILE,
    WEIGHTS_FILES,
    LearnedBot,
    PolicyNetwork,
    SampledPolicy,
    decision_draws,
    load_network,
    save_network,
    shipped_network,
)
from high_society.observation import observation_scale, observation_size, observation_tensor
from high_society.tournament import Entrant, tournament
from tests.pages import WORDS, docs_page


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_shipped_weights_load_and_are_small(players: int) -> None:
    network = shipped_network(players)
    assert network.players == players
    assert network.inputs == observation_size(players)
    data = resources.files("high_society").joinpath("data", WEIGHTS_FILES[players]).read_bytes()
    assert len(data) < 300_000
    assert all(w.dtype == np.float32 for w, _ in network.layers)
    assert load_network().players == 4  # the default file: WEIGHTS_FILE, for 4 players
    assert WEIGHTS_FILES[4] == WEIGHTS_FILE


def test_the_old_name_of_the_weights_file_still_works_and_warns() -> None:
    with pytest.warns(DeprecationWarning, match="WEIGHTS_FILE"):
        assert learned.WEIGHTS == WEIGHTS_FILE
    with pytest.raises(AttributeError, match="no attribute 'WEIGHT'"):
        _ = learned.WEIGHT


@pytest.mark.parametrize("players", [3, 4, 5])
def test_it_plays_only_legal_actions(players: int) -> None:
    decisions = 0
    for seed in range(8):
        bots = [LearnedBot(seed, sampled=seed % 2 == 1)] + [
            (HeuristicBot if i % 2 else RandomBot)(seed * 10 + i) for i in range(1, players)
        ]
        for step in play(bots, seed=seed):
            if step.before.turn == 0 and step.before.phase in (Phase.AUCTION, Phase.DISCARD):
                assert is_legal(step.before, step.action)
                decisions += 1
    assert decisions > 40


@pytest.mark.parametrize("players", [3, 4, 5])
def test_it_is_deterministic(players: int) -> None:
    lineup = [Entrant("learned", LearnedBot)] + [Entrant("heuristic", HeuristicBot)] * (players - 1)
    first = tournament(lineup, 20, seed=3)
    assert first == tournament(lineup, 20, seed=3, jobs=2)
    bots: list[AnyBot] = [LearnedBot(), *(HeuristicBot(i) for i in range(players - 1))]
    states = [s.before for s in play(bots, seed=1) if s.before.phase is Phase.AUCTION]
    # The same seed, the same moves; another seed draws others where the network hesitates.
    assert [LearnedBot(1).choose(s) for s in states] == [LearnedBot(2).choose(s) for s in states]
    with pytest.raises(InvalidConfigError, match="no learned weights ship for 6 players"):
        shipped_network(6)


def _full_network(players: int) -> PolicyNetwork:
    # A network of the full action space (an output per action id), random weights.
    rng = np.random.default_rng(players)
    size = observation_size(players)
    return PolicyNetwork(
        [
            (rng.normal(size=(size, 8)).astype(np.float32), np.zeros(8, np.float32)),
            (rng.normal(size=(8, 2058)).astype(np.float32), np.zeros(2058, np.float32)),
        ],
        players,
    )


def _auction_states(games: int) -> list[GameState]:
    states = []
    for seed in range(games):
        bots: list[AnyBot] = [LearnedBot(seed, sampled=True), HeuristicBot(seed)]
        bots.append(HeuristicBot(seed + 1))
        bots.append(RandomBot(seed))
        states += [
            s.before
            for s in play(bots, seed=seed)
            if s.before.phase is Phase.AUCTION and cheapest_bid(s.before) is not None
        ]
    return states


def test_the_sampled_bot_is_the_same_for_a_seed_and_differs_across_seeds() -> None:
    states = _auction_states(4)
    observations = np.array([observation_tensor(s, s.turn) for s in states], np.float32)
    moves = {seed: [LearnedBot(seed, sampled=True).choose(s) for s in states] for seed in range(6)}
    assert moves[3] == [LearnedBot(3, sampled=True).choose(s) for s in states]
    assert len({tuple(m) for m in moves.values()}) == 6  # every seed plays its own way
    policy = SampledPolicy(shipped_network(4), 3)
    assert [action_id(m) != 0 for m in moves[3]] == policy.bids(observations).tolist()
    assert policy.reseeded(4).bids(observations).tolist() == [action_id(m) != 0 for m in moves[4]]
    # One row at a time draws what the whole batch draws: a pure function of a row.
    draws = decision_draws(observations, 3)
    assert [decision_draws(observations[k : k + 1], 3)[0] for k in range(9)] == list(draws[:9])
    assert not np.array_equal(draws, decision_draws(observations, 4))
    assert np.array_equal(draws, decision_draws(observations, 3 + 2**64))  # seed mod 2**64
    # Greedy play is one fixed policy: the more likely move, whatever the seed.
    greedy = [LearnedBot(1).choose(s) for s in states]
    assert greedy == [LearnedBot(2).choose(s) for s in states]
    probabilities = shipped_network(4).bid_probabilities(observations)
    assert [action_id(m) != 0 for m in greedy] == (probabilities > 0.5).tolist()
    with pytest.raises(InvalidConfigError, match="two-output"):
        SampledPolicy(_full_network(4))


def test_the_bid_frequency_over_seeds_is_the_networks_probability() -> None:
    # Deterministic: 400 seeds' draws at every auction state of 12 played games. At each
    # state where the network hesitates, the share of seeds that bid is within 4 binomial
    # standard deviations of the network's probability, and the squared z-scores average
    # about 1, as independent draws of that probability give.
    states = _auction_states(12)
    observations = np.array([observation_tensor(s, s.turn) for s in states], np.float32)
    probabilities = shipped_network(4).bid_probabilities(observations)
    outputs = shipped_network(4).evaluate(observations)
    soft = np.exp(outputs) / np.exp(outputs).sum(axis=1, keepdims=True)
    assert np.allclose(probabilities, soft[:, 1], atol=1e-6)
    hesitant = (probabilities > 0.1) & (probabilities < 0.9)
    assert hesitant.sum() >= 30
    seeds = 400
    policy = SampledPolicy(shipped_network(4))
    bids = np.array([policy.reseeded(seed).bids(observations) for seed in range(seeds)])
    share, p = bids.mean(axis=0)[hesitant], probabilities[hesitant]
    z = (share - p) / np.sqrt(p * (1 - p) / seeds)
    assert np.abs(z).max() < 4
    assert 0.5 < (z**2).mean() < 1.6
    # Sure states are played as the network is sure.
    assert (bids.mean(axis=0)[probabilities > 0.999] > 0.99).all()
    assert (bids.mean(axis=0)[probabilities < 0.001] < 0.01).all()
    # The draws are uniform: a tenth of them in each tenth of [0, 1).
    many = np.concatenate([decision_draws(observations, seed) for seed in range(50)])
    counts = np.histogram(many, bins=10, range=(0, 1))[0] / len(many)
    assert np.abs(counts - 0.1).max() < 0.01


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
    with pytest.raises(InvalidConfigError, match="not a numpy archive"):
        load_network(str(text))
    bad = tmp_path / "bad.npz"
    np.savez(
        bad, w0=np.zeros((199, 4)), b0=np.zeros(4), w1=np.zeros((5, 2)), b1=np.zeros(2), players=4
    )
    with pytest.raises(InvalidConfigError, match="layer 1 takes 5 inputs, not 4"):
        load_network(str(bad))
    three = tmp_path / "three.npz"
    np.savez(three, w0=np.zeros((199, 3)), b0=np.zeros(3), players=4)
    with pytest.raises(InvalidConfigError, match="2 or 2058 outputs, not 3"):
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


def _npz(path: Path, **arrays: Any) -> Path:
    np.savez(path, **arrays)
    return path


def _layers(inputs: int = 199, outputs: int = 2) -> dict[str, Any]:
    return {
        "w0": np.zeros((inputs, 4), np.float32),
        "b0": np.zeros(4, np.float32),
        "w1": np.zeros((4, outputs), np.float32),
        "b1": np.zeros(outputs, np.float32),
    }


def test_hostile_weights_files_are_one_documented_error(tmp_path: Path) -> None:
    # A bad file, a huge declared shape, a zip bomb, a FIFO: each is an InvalidConfigError,
    # nothing else, and nothing is allocated or waited on first.
    cases: dict[str, tuple[Path, str]] = {}
    zipped = tmp_path / "notnpy.npz"
    with zipfile.ZipFile(zipped, "w") as archive:
        archive.writestr("w0.npy", b"garbage")
    cases["not npy"] = (zipped, "not an .npy array")
    cases["wrong inputs"] = (_npz(tmp_path / "in.npz", players=4, **_layers(10)), "not 199")
    cases["inputs of 4 at 3"] = (_npz(tmp_path / "p.npz", players=3, **_layers(199)), "not 161")
    cases["players"] = (_npz(tmp_path / "pl.npz", players=np.float32(4), **_layers()), "integer")
    cases["no players"] = (_npz(tmp_path / "np.npz", **_layers()), "policy format")
    cases["nan"] = (
        _npz(tmp_path / "nan.npz", players=4, **{**_layers(), "b1": np.full(2, np.nan)}),
        "NaN",
    )
    cases["ints"] = (
        _npz(tmp_path / "int.npz", players=4, **{**_layers(), "w1": np.zeros((4, 2), int)}),
        "not float",
    )
    cases["no bias"] = (
        _npz(tmp_path / "nb.npz", players=4, w0=np.zeros((199, 2), np.float32)),
        "no bias",
    )
    cases["other member"] = (_npz(tmp_path / "om.npz", players=4, x=1, **_layers()), "format")
    cases["version"] = (_npz(tmp_path / "v.npz", players=4, format=2, **_layers()), "format 2")
    # A header that declares 40,000 x 40,000 float64 in a file of a few bytes.
    huge = tmp_path / "huge.npz"
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        header, {"descr": "<f8", "fortran_order": False, "shape": (40_000, 40_000)}
    )
    with zipfile.ZipFile(huge, "w") as archive:
        archive.writestr("w0.npy", header.getvalue() + bytes(80))
    cases["huge shape"] = (huge, "more than")
    # A zip of zeros: small on disk, declaring more than the limit once inflated.
    bomb = tmp_path / "bomb.npz"
    with zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("w0.npy", _npy_bytes(np.zeros((3000, 3000), np.float32)))
    assert bomb.stat().st_size < 200_000
    cases["zip bomb"] = (bomb, "more than")
    # A header that does not match the member's size.
    short = tmp_path / "short.npz"
    with zipfile.ZipFile(short, "w") as archive:
        archive.writestr("w0.npy", _npy_bytes(np.zeros((199, 4), np.float32))[:-8])
    cases["truncated"] = (short, "does not match")
    cases["directory"] = (tmp_path, "directory")
    fifo = tmp_path / "fifo.npz"
    os.mkfifo(fifo)
    cases["fifo"] = (fifo, "not a regular file")
    for name, (path, message) in cases.items():
        with pytest.raises(InvalidConfigError, match=message):
            load_network(path)
        assert name
    for path_like in (3, None.__class__, b"\0"):
        with pytest.raises(InvalidConfigError):
            load_network(path_like)  # type: ignore[arg-type]


def _npy_bytes(array: npt.NDArray[np.float32]) -> bytes:
    out = io.BytesIO()
    np.save(out, array)
    return out.getvalue()


def test_a_network_saved_is_the_network_loaded(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    for players, outputs in ((3, 2), (5, 2058)):
        size = observation_size(players)
        layers = [
            (
                rng.normal(size=(size, 16)).astype(np.float32),
                rng.normal(size=16).astype(np.float32),
            ),
            (rng.normal(size=(16, outputs)).astype(np.float32), np.zeros(outputs, np.float32)),
        ]
        network = PolicyNetwork(layers, players)
        save_network(network, tmp_path / f"n{players}.npz")
        loaded = load_network(tmp_path / f"n{players}.npz")
        assert (loaded.players, loaded.outputs) == (players, outputs)
        for (w, b), (w2, b2) in zip(network.layers, loaded.layers, strict=True):
            assert np.array_equal(w, w2)
            assert np.array_equal(b, b2)
        bot = LearnedBot(network=loaded)
        for step in play([bot, *(HeuristicBot(i) for i in range(players - 1))], seed=players):
            if step.before.turn == 0 and step.before.phase is Phase.AUCTION:
                assert is_legal(step.before, step.action)
        with pytest.raises(InvalidConfigError, match=f"plays {players} players, not 4"):
            bot.choose(apply(new_game(4), Reveal(StatusCard.LUXURY_2)))


def test_a_network_that_does_not_fit_is_refused_when_made() -> None:
    with pytest.raises(InvalidConfigError, match="not 199"):
        PolicyNetwork([(np.zeros((10, 2), np.float32), np.zeros(2, np.float32))], 4)
    with pytest.raises(InvalidConfigError, match="players must be 3 to 5"):
        PolicyNetwork([(np.zeros((199, 2), np.float32), np.zeros(2, np.float32))], 6)


_ARRAYS = st.sampled_from(
    [
        np.zeros((199, 4), np.float32),
        np.zeros(4, np.float32),
        np.zeros((4, 2), np.float32),
        np.int64(4),
        np.zeros((2, 2, 2)),
        np.array(["x"]),
        np.zeros(0),
    ]
)


@settings(max_examples=60, deadline=None)
@given(
    raw=st.binary(max_size=400),
    members=st.dictionaries(
        st.sampled_from(["players", "w0", "b0", "w1", "b1", "format", "x"]), _ARRAYS, max_size=6
    ),
    cut=st.integers(0, 4000),
)
def test_any_bytes_or_archive_is_a_network_or_an_invalid_config_error(
    tmp_path_factory: pytest.TempPathFactory, raw: bytes, members: dict[str, Any], cut: int
) -> None:
    folder = tmp_path_factory.mktemp("fuzz")
    buffer = io.BytesIO()
    np.savez(buffer, **members)
    archive = buffer.getvalue()
    for data in (raw, archive, archive[:cut], archive[:cut] + raw):
        path = folder / "n.npz"
        path.write_bytes(data)
        try:
            network = load_network(path)
        except InvalidConfigError:
            continue
        assert network.inputs == observation_size(network.players)


_ROOT = Path(__file__).resolve().parent.parent


def _listed(numbers: list[int]) -> str:
    """``numbers`` as the pages list them: ``1, 2 and 3``."""
    return ", ".join(f"{n:,}" for n in numbers[:-1]) + f" and {numbers[-1]:,}"


def test_the_ai_page_tells_the_policy_format_and_its_bounds() -> None:
    from high_society.encoding import num_actions
    from high_society.learned import FORMAT_VERSION, MAX_LAYERS, MAX_WEIGHTS_BYTES

    told = docs_page("ai.md")
    assert f"an `.npz` of `format` ({FORMAT_VERSION}), `players`, `observation_size`" in told
    assert MAX_WEIGHTS_BYTES % (1 << 20) == 0
    assert f"a regular file of at most {MAX_WEIGHTS_BYTES >> 20} MiB" in told
    assert f"at most {MAX_LAYERS} layers" in told
    assert f"or one per action id ({num_actions():,}: the full action space" in told


def test_the_pages_tell_the_shape_of_the_shipped_networks() -> None:
    from high_society.batch.training import TrainingConfig

    hidden = TrainingConfig().hidden
    for players in WEIGHTS_FILES:
        layers = shipped_network(players).layers
        assert [w.shape[1] for w, _ in layers[:-1]] == [hidden] * (len(layers) - 1)
        assert layers[-1][0].shape[1] == 2
        told = docs_page("ai.md")
        assert (
            f"policy and value networks of {WORDS[len(layers) - 1]} hidden layers of "
            f"{hidden} `tanh` units" in told
        )
        # One matrix product a layer.
        assert f"the observation tensor and {WORDS[len(layers)]} small matrix products" in (
            docs_page("bots.md")
        )


def test_the_ai_page_tells_the_settings_the_shipped_networks_were_trained_with() -> None:
    import re

    from high_society.batch.hardening import RoundShares
    from high_society.batch.league import TRAINING_STYLES
    from high_society.batch.training import TrainingConfig

    told = docs_page("ai.md")
    config = TrainingConfig()
    mantissa, exponent = f"{config.lr:e}".split("e")
    lr = f"{float(mantissa):g}e{int(exponent)}"
    assert (
        f'{config.games:,} games, one learner seat drawn per game, `actions="pass-cheapest"`'
        in told
    )
    assert (
        f"{config.steps} steps per game per update; {config.epochs} epochs of minibatches of "
        f"{config.minibatch:,}; Adam {lr}, gradient norm clipped to 0.5; clipping "
        f"{config.clip:g}; entropy bonus {config.entropy:g}; GAE λ {config.gae_lambda:g}"
    ) in told
    # The league: the compiled styles, and what `python3 tasks.py train` adds to them.
    script = (_ROOT / "examples" / "train_league.py").read_text(encoding="utf-8")
    defaults = dict(re.findall(r'"--([\w-]+)", type=\w+, default=([\d.]+)', script))
    league = told[told.index("| league |") : told.index("| PPO, numpy |")]
    assert float(defaults["same-table"]) == 0.5
    assert "in half the games one draw takes every other seat" in league
    assert config.snapshot_share == 0.5
    assert (
        f"every {defaults['snapshot-every']} updates a frozen copy of the learner joins (the "
        f"last {config.snapshots} kept, together half the seats)" in league
    )
    names = {"pass": "always pass", "cheapest": "cheapest bid", "uniform": "uniform random"}
    for style, _ in TRAINING_STYLES:
        assert names.get(style.name, style.name) in league, style
    for name, words in (("classic", "classic at boldness"), ("heuristic", "heuristic at")):
        found = re.search(rf"{words} (\d[\d.]*(?:, \d[\d.]*)* and \d[\d.]*)", league)
        assert found is not None, name
        boldness = [float(n) for n in re.findall(r"\d+(?:\.\d+)?", found[1])]
        assert boldness == [s.boldness for s, _ in TRAINING_STYLES if s.name == name]
    shares = RoundShares()
    assert defaults["response-updates"] == defaults["bot-updates"]
    assert f"`--bot-updates` ({defaults['bot-updates']} each)" in told
    assert (
        f"default {shares.responses:g}, {shares.styles:g} and {shares.bot:g} of the seats" in told
    )


def test_the_ai_page_tells_the_sizes_and_bounds_of_the_game() -> None:
    from high_society.encoding import NUM_CHANCE_OUTCOMES, num_actions
    from high_society.observation import max_chance_nodes, max_game_length

    told = docs_page("ai.md")
    sizes = [observation_size(n) for n in (3, 4, 5)]
    assert f"{_listed(sizes)} floats for 3, 4 and 5 players" in told
    lengths = [max_game_length(n) for n in (3, 4, 5)]
    assert f"{_listed(lengths)} for 3, 4 and 5 players" in told
    assert f"({max_chance_nodes()} reveals)" in told
    assert f"`encoding.NUM_CHANCE_OUTCOMES` ({NUM_CHANCE_OUTCOMES})" in told
    assert f"`1 + (2**m - 1) + 10` player action ids, {num_actions():,} in the standard" in told
    assert f"one entry per action id ({num_actions():,} in the standard game)" in told
    pettingzoo = pytest.importorskip("high_society.pettingzoo")
    assert f"({pettingzoo.MASK_CACHE_SIZE:,}) masks" in told


def test_the_ai_page_names_the_versions_the_extras_pin() -> None:
    import tomllib

    extras = tomllib.loads((_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    pinned = dict(req.split("==") for req in extras["openspiel"] + extras["pettingzoo"])
    told = docs_page("ai.md")
    assert f"(OpenSpiel {pinned['open_spiel']}, a manylinux wheel" in told
    assert f"(PettingZoo {pinned['pettingzoo']}, Gymnasium {pinned['gymnasium']})" in told

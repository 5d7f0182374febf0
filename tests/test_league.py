"""Opponents of any kind in the vector environment, the action reduction, the numpy PPO,
the league, the strangers and the ratings, and every bad argument of the vector
environment refused with ``BatchError``.

Each second implementation is tied to its reference: a numpy policy batched in the engine
decides as the reducer's bot playing the same network or style, on every decision state of
played games; Python bots seated in the batch play as the compiled copy of the same bot;
the reduced action set plays the same games as the full one for the same choices; the
hand-written gradients agree with finite differences. Small and seeded: nothing here
depends on timing.
"""

import argparse
import ast
import io
import subprocess
import sys
from pathlib import Path

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")
pytest.importorskip("gymnasium")

from high_society import Phase, StatusCard
from high_society.actions import Action, Pass
from high_society.batch import BatchError, GameBatch
from high_society.batch.league import TRAINING_STYLES, WATCHERS, Watcher, training_pool
from high_society.batch.learner import LearnerVectorEnv
from high_society.batch.policies import BatchPolicy, Compiled, act_in_batch
from high_society.batch.ratings import cross_play, play_tables, rate, roster_entry
from high_society.batch.training import (
    Mlp,
    TrainingConfig,
    evaluate,
    policy_gradient,
    train,
)
from high_society.bots import AnyBot, Bot, HeuristicBot, PassBot, RandomBot
from high_society.encoding import action_id
from high_society.errors import InvalidConfigError
from high_society.host import play
from high_society.learned import (
    LearnedBot,
    PolicyNetwork,
    SampledPolicy,
    load_network,
    reduced_choice,
    save_network,
    shipped_network,
)
from high_society.observation import observation_size
from high_society.state import GameState
from high_society.strangers import STRANGERS, StrangerBot
from high_society.tournament import parse_entrant

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"seed": -1}, "a seed is an int"),
        ({"seed": 2**64}, "a seed is an int"),
        ({"boldness": "abc"}, "boldness must be"),
        ({"boldness": float("nan")}, "boldness must be"),
        ({"opponents": None}, "an opponent is"),
        ({"opponents": ["heuristic"] * 3}, "opponents must be one for every seat or 4"),
        ({"seats": 3.0}, "seats must be"),
        ({"seats": "0"}, "seats must be"),
        ({"pool": []}, "pool must be"),
        ({"pool": ["heuristic"], "pool_weights": [-1]}, "pool_weights must be"),
        ({"pool": ["heuristic"], "pool_weights": "1"}, "pool_weights must be"),
        ({"pool_weights": [1.0]}, "pool_weights need a pool"),
        ({"pool": ["heuristic"], "same_table": 1.5}, "same_table must be"),
        ({"actions": "some"}, "actions must be one of"),
        ({"normalize": "yes"}, "normalize must be"),
        ({"autoreset_mode": 3}, "autoreset_mode must be"),
        ({"opponents": Compiled("heuristic")} | {"boldness": 0}, "boldness must be"),
    ],
)
def test_every_bad_argument_is_a_batch_error(arguments: dict[str, object], message: str) -> None:
    with pytest.raises(BatchError, match=message):
        LearnerVectorEnv(2, **arguments)  # type: ignore[arg-type]


def test_bad_resets_are_batch_errors_and_change_nothing() -> None:
    env = LearnerVectorEnv(4, seed=1)
    before, _ = env.reset(seed=1)
    for seed in (-1, 2**64, 1.5, "3"):
        with pytest.raises(BatchError, match="a seed is an int"):
            env.reset(seed=seed)  # type: ignore[arg-type]
    for options in ("x", 3, ["reset_mask"]):
        with pytest.raises(BatchError, match="options must be a mapping"):
            env.reset(options=options)  # type: ignore[arg-type]
    after, _ = env.reset(options={"reset_mask": np.zeros(4, bool)})
    assert (before["observation"] == after["observation"]).all()
    with pytest.raises(BatchError, match="a compiled policy is one of"):
        Compiled("search")


def _first_rewards(env: LearnerVectorEnv) -> list[float]:
    """The reward of each game's first game, for a learner that passes (or discards its
    lowest luxury card)."""
    env.reset(seed=5)
    first = np.full(env.num_envs, np.nan)
    while np.isnan(first).any():
        masks = env.action_masks()
        _, reward, done, _, _ = env.step(np.where(masks[:, 0], 0, masks.argmax(axis=1)))
        first = np.where(np.isnan(first) & done, reward, first)
    return first.tolist()


def test_the_reduced_actions_play_the_games_the_full_ones_do() -> None:
    # A passing learner: with the reduction its discards are played for it, and it is
    # asked only where it may bid; the games, and so the rewards, are the same.
    full = LearnerVectorEnv(300, seed=5)
    reduced = LearnerVectorEnv(300, seed=5, actions="pass-cheapest")
    assert reduced.single_action_space.n == 2  # type: ignore[attr-defined]
    rewards = _first_rewards(reduced)
    assert rewards == _first_rewards(full)
    assert 30 < sum(rewards) < 120
    observations, _ = reduced.reset(seed=2)
    done = np.zeros(300, dtype=np.bool_)
    for _ in range(30):
        assert observations["action_mask"].shape == (300, 2)
        # Asked only where both are legal (a game that ended waits, offering 0 alone).
        assert observations["action_mask"][~done].all()
        observations, _, done, _, _ = reduced.step(np.ones(300, dtype=np.int64))


def test_python_bots_at_the_table_play_as_their_compiled_copies() -> None:
    compiled = LearnerVectorEnv(40, opponents="pass", seed=5)
    python = LearnerVectorEnv(40, opponents=PassBot, seed=5)
    assert _first_rewards(compiled) == _first_rewards(python)


def _decision_states(players: int, games: int) -> list:  # type: ignore[type-arg]
    states = []
    for seed in range(games):
        bots: list[AnyBot] = [HeuristicBot(seed + k) for k in range(players - 1)]
        bots.append(RandomBot(seed))
        states += [
            s.before
            for s in play(bots, seed=seed)
            if s.before.phase in (Phase.AUCTION, Phase.DISCARD)
        ]
    return states


@pytest.mark.parametrize("players", [3, 5])
def test_numpy_policies_in_the_batch_decide_as_the_reducers_bots(players: int) -> None:
    states = _decision_states(players, 5)
    batch = GameBatch.from_states(states)
    everyone = np.ones(len(states), dtype=np.bool_)
    rng = np.random.default_rng(players)
    size = observation_size(players)
    full = PolicyNetwork(
        [
            (rng.normal(size=(size, 8)).astype(np.float32), np.zeros(8, np.float32)),
            (rng.normal(size=(8, 2058)).astype(np.float32), np.zeros(2058, np.float32)),
        ],
        players,
    )
    policies: list[tuple[BatchPolicy, Bot]] = [
        (shipped_network(players), LearnedBot()),
        (SampledPolicy(shipped_network(players), 11), LearnedBot(11, sampled=True)),
        (full, LearnedBot(network=full)),
    ]
    policies += [
        (STRANGERS[name], StrangerBot(STRANGERS[name])) for name in ("careful", "dodger", "noisy")
    ]
    for policy, bot in policies:
        ids = act_in_batch(policy, batch, everyone)
        assert [action_id(bot.choose(s)) for s in states] == ids.tolist()


@pytest.mark.parametrize("name", ["careful", "keeper"])
def test_a_stranger_counting_bids_bids_only_where_one_counting_hands_would(name: str) -> None:
    # A seat's bid face up comes back to it unless it wins: counted, that seat is richer,
    # so a style keeping a margin above the poorest seat bids less, never more.
    # Beside three of it and the learned bot, where seats have bids face up below its price.
    bots: list[AnyBot] = [LearnedBot(), *(StrangerBot(STRANGERS[name]) for _ in range(3))]
    states = [
        s.before
        for seed in range(6)
        for s in play(bots, seed=seed)
        if s.before.phase in (Phase.AUCTION, Phase.DISCARD)
    ]
    batch = GameBatch.from_states(states)
    everyone = np.ones(len(states), dtype=np.bool_)
    hands, bids = STRANGERS[name], STRANGERS[name].counting(True)
    plain, counted = act_in_batch(hands, batch, everyone), act_in_batch(bids, batch, everyone)
    passes = np.array([action_id(Pass(s.turn)) for s in states])
    assert ((counted == passes) | (counted == plain)).all()
    assert ((counted == passes) & (plain != passes)).any()
    assert hands.counting(False) == hands
    # The reducer plays the variant as the batch does, named in a tournament.
    bot = parse_entrant(f"high_society.strangers:{name},counts_bids=true").factory(0)
    assert isinstance(bot, StrangerBot)
    assert bot.style.counts_bids
    assert [action_id(bot.choose(s)) for s in states] == counted.tolist()


@attrs.frozen
class _WatcherBot:
    style: Watcher

    def choose(self, state: GameState) -> Action:
        return reduced_choice(state, self.style.bids)


def _watcher_reading(style: Watcher, state: GameState) -> bool:
    """A watcher's rule read on the state, a card and a seat at a time (the reference)."""
    seat = state.players[state.turn]
    money = [sum(p.hand) + sum(p.table) for p in state.players]  # R14: every hand is known
    total = state.highest_bid + 1
    luxury = [c.luxury_value for c in seat.status_cards if c.is_luxury]
    card = state.auction
    assert card is not None
    if card.is_luxury:
        worth = float(card.luxury_value)
    else:
        worth = {
            StatusCard.PRESTIGE: max(sum(luxury), 8),
            StatusCard.FAUX_PAS: min(luxury, default=3),
            StatusCard.PASSE: 5,
            StatusCard.SCANDALE: 4 + sum(luxury) / 2,
        }[card]
    poorest = min(m for i, m in enumerate(money) if i != state.turn)
    return total <= style.rate * worth and money[state.turn] - total >= poorest + style.margin


@pytest.mark.parametrize("players", [3, 5])
def test_a_watcher_bids_where_its_rule_read_on_the_state_says(players: int) -> None:
    # The league's thrifty styles are a second reading of a rule, so a scalar reading of it
    # on the state decides every choice first; the batch must agree on each. Played beside
    # a spender (the heuristic bot at twice its prices), so that money, bids and cards vary.
    bots: list[AnyBot] = [HeuristicBot(seed, boldness=2.0) for seed in range(players - 1)]
    states = [
        s.before
        for seed in range(8)
        for s in play([*bots, _WatcherBot(WATCHERS[4])], seed=seed)
        if s.before.phase is Phase.AUCTION
    ]
    batch = GameBatch.from_states(states)
    everyone = np.ones(len(states), dtype=np.bool_)
    cheapest = batch.policy_actions("cheapest")
    choosing = [i for i, s in enumerate(states) if cheapest[i] != 0]
    for style in (*WATCHERS, Watcher(3.0, -30.0)):
        ids = act_in_batch(style, batch, everyone)
        expected = [_watcher_reading(style, states[i]) for i in choosing]
        assert [bool(ids[i] == cheapest[i]) for i in choosing] == expected, style
    both = {_watcher_reading(style, states[i]) for style in WATCHERS for i in choosing}
    assert both == {True, False}


@pytest.mark.parametrize(
    ("rate", "margin", "message"),
    [
        (0.0, 0.0, "rate must be a finite number above 0, not 0.0"),
        (-1, 0.0, "rate must be a finite number above 0"),
        (float("inf"), 0.0, "rate must be"),
        ("1", 0.0, "rate must be"),
        (True, 0.0, "rate must be"),
        (1.0, float("nan"), "margin must be a finite number, not nan"),
        (1.0, None, "margin must be"),
    ],
)
def test_a_watcher_of_a_bad_rate_or_margin_is_a_batch_error(
    rate: object, margin: object, message: str
) -> None:
    with pytest.raises(BatchError, match=message):
        Watcher(rate, margin)  # type: ignore[arg-type]


def test_the_watchers_join_the_league_only_when_asked() -> None:
    plain, weights = training_pool(["classic"], 2.0)
    assert plain[-1] == "classic"
    assert weights[-1] == 2.0
    watched, watched_weights = training_pool(["classic"], 2.0, watchers=1.5)
    assert watched == [*plain, *WATCHERS]
    assert watched_weights == [*weights, *[1.5] * len(WATCHERS)]
    assert len(set(WATCHERS)) == 9


def test_counting_bids_is_refused_where_it_changes_nothing_or_is_no_bool() -> None:
    assert roster_entry("keeper,counts_bids=true", 4)[1] == STRANGERS["keeper"].counting(True)
    assert roster_entry("careful,counts_bids=False", 3)[1] == STRANGERS["careful"]
    for bad in ("value_bidder,counts_bids=true", "keeper,counts_bids=yes", "keeper,counts_bids="):
        with pytest.raises(InvalidConfigError, match="counts_bids"):
            roster_entry(bad, 4)
    with pytest.raises(InvalidConfigError, match="true or false, not 'true'"):
        STRANGERS["keeper"].counting("true")  # type: ignore[arg-type]
    with pytest.raises(InvalidConfigError, match="counts_bids"):
        parse_entrant("high_society.strangers:noisy,counts_bids=true")


def test_a_network_opponent_plays_in_the_env_as_the_learned_bot_in_a_tournament() -> None:
    network = shipped_network(4)
    env = LearnerVectorEnv(200, pool=[network], actions="pass-cheapest", seed=3)
    assert (env.opponents[env.learner_seats] == -1).all()
    assert (env.opponents[~env.learner_seats] == 0).all()
    env.set_pool(["heuristic", network], [1.0, 0.0])
    env.reset(options={"reset_mask": np.ones(200, bool)})
    kinds = env.opponents[~env.learner_seats]
    assert set(kinds.tolist()) == {1}  # the new entry; the network keeps its index 0
    alike = LearnerVectorEnv(300, pool=["heuristic", "classic", "pass"], same_table=1.0, seed=3)
    tables = alike.opponents[~alike.learner_seats].reshape(300, 3)
    assert (tables == tables[:, :1]).all()
    assert len(set(tables[:, 0].tolist())) == 3


def test_the_gradients_agree_with_finite_differences() -> None:
    rng = np.random.default_rng(0)
    mlp = Mlp([5, 7, 7, 2], rng, 1.0)
    x = rng.normal(size=(9, 5)).astype(np.float32)
    masks = np.ones((9, 2), bool)
    masks[3, 1] = False
    actions = rng.integers(0, 2, 9)
    actions[3] = 0
    old = rng.normal(size=9).astype(np.float32) * 0.1 - 0.7
    advantages = rng.normal(size=9).astype(np.float32)

    def loss() -> float:
        logits = mlp.forward(x)[0].astype(np.float64)
        logits = np.where(masks, logits, -1e9)
        log_p = (
            logits
            - np.log(np.exp(logits - logits.max(1, keepdims=True)).sum(1, keepdims=True))
            - logits.max(1, keepdims=True)
        )
        ratio = np.exp(log_p[np.arange(9), actions] - old)
        surrogate = np.minimum(ratio * advantages, np.clip(ratio, 0.8, 1.2) * advantages)
        p = np.exp(log_p)
        entropy = -np.where(masks, p * log_p, 0).sum(1)
        return float(-surrogate.mean() - 0.01 * entropy.mean())

    grads = policy_gradient(mlp, x, masks, actions, old, advantages, 0.2, 0.01)
    for grad, param in zip(grads, mlp.weights + mlp.biases, strict=True):
        for _ in range(3):
            index = tuple(int(rng.integers(0, n)) for n in param.shape)
            keep = float(param[index])
            param[index] = keep + 1e-3
            up = loss()
            param[index] = keep - 1e-3
            down = loss()
            param[index] = keep
            assert grad[index] == pytest.approx((up - down) / 2e-3, rel=0.02, abs=1e-4)


def test_training_is_seeded_and_gives_a_network_of_the_format(tmp_path: Path) -> None:
    config = TrainingConfig(games=16, steps=4, hidden=8, minibatch=32, snapshot_every=1)
    opponents, weights = training_pool()
    first = train(3, opponents, weights=weights, updates=2, seed=4, config=config)
    second = train(3, opponents, weights=weights, updates=2, seed=4, config=config)
    assert all(
        np.array_equal(a, b)
        for (w1, b1), (w2, b2) in zip(first.layers, second.layers, strict=True)
        for a, b in ((w1, w2), (b1, b2))
    )
    assert (first.players, first.outputs) == (3, 2)
    # Snapshots that play sampled make another league, so other weights.
    greedy = train(3, opponents, weights=weights, updates=6, seed=4, config=config)
    sampled = attrs.evolve(config, sampled_snapshots=True)
    third = train(3, opponents, weights=weights, updates=6, seed=4, config=sampled)
    assert not all(
        np.array_equal(w1, w2) for (w1, _), (w2, _) in zip(greedy.layers, third.layers, strict=True)
    )
    judged = evaluate(first, ["heuristic"], games=30, seed=1, batch_size=16)
    assert judged.games == 30
    assert 0 <= judged.wins <= 30


def test_the_league_never_sees_the_strangers() -> None:
    # The strangers measure what training never saw: no training module imports them.
    for module in ("league", "training", "policies", "learner", "hardening", "expert"):
        tree = ast.parse((ROOT / "src/high_society/batch" / f"{module}.py").read_text())
        names = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)} | {
            a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
        }
        assert not any("strangers" in name for name in names), module
    assert "strangers" not in (ROOT / "examples/train_league.py").read_text().split('"""')[2]
    assert all(style.name != "caller" for style, _ in TRAINING_STYLES)


def test_ratings_and_cross_play_from_batch_games() -> None:
    roster = [roster_entry(n, 3) for n in ("learned", "heuristic", "pass", "thrifty")]
    lineups = np.array([[0, 1, 2], [3, 3, 3], [2, 2, 2]])
    shares = play_tables(3, roster, lineups, seed=1)
    assert shares.shape == (3, 3)
    assert (shares.sum(axis=1) <= 1 + 1e-9).all()
    assert shares[2].sum() == 0  # three passers tie and are all cast out (R10)
    matrix = cross_play(3, roster, games=6, seed=1)
    assert matrix.shape == (4, 4)
    ratings = rate(3, roster, games=60, seed=1, resamples=3)
    assert {r.name for r in ratings} == {"learned", "heuristic", "pass", "thrifty"}
    assert all(r.low <= r.mu <= r.high for r in ratings)
    for bad in ("nobody", "heuristic,boldness=x", "pass,boldness=2", "missing.npz"):
        with pytest.raises(InvalidConfigError):
            roster_entry(bad, 4)


def test_bots_of_the_reducer_take_their_seats_in_batch_games() -> None:
    # PassBot played by the reducer plays the games the compiled "pass" plays.
    roster = [roster_entry(n, 4) for n in ("pass", "high_society.bots:PassBot", "heuristic")]
    assert roster[1][0] == "high_society.bots:PassBot"
    assert callable(roster[1][1])
    lineups = np.array([[0, 2, 2, 2], [2, 0, 2, 0], [0, 0, 0, 0], [2, 2, 2, 2]] * 3)
    compiled = play_tables(4, roster, lineups, seed=5)
    played = play_tables(4, roster, np.where(lineups == 0, 1, lineups), seed=5)
    assert np.array_equal(compiled, played)
    # The search bots, seeded per game and seat: the same seed, the same games.
    search = [roster_entry("search@3", 3), roster_entry("lookahead", 3), roster_entry("learned", 3)]
    tables = np.array([[0, 1, 2], [2, 1, 0]])
    assert np.array_equal(play_tables(3, search, tables, 2), play_tables(3, search, tables, 2))
    with pytest.raises(InvalidConfigError, match="told only its seat's view"):
        roster_entry("high_society.bots:SeatOnly", 4)


def test_a_network_in_the_roster_plays_greedily_unless_sampled(tmp_path: Path) -> None:
    name, greedy = roster_entry("learned", 5)
    assert name == "learned"
    assert isinstance(greedy, PolicyNetwork)
    assert greedy.players == 5
    name, sampled = roster_entry("learned,sampled", 4, seed=9)
    assert name == "learned,sampled"
    assert isinstance(sampled, SampledPolicy)
    assert sampled.seed == 9
    assert sampled.network.players == 4
    assert roster_entry("learned,sampled", 4)[1].seed == 0  # type: ignore[union-attr]
    path = tmp_path / "net.npz"
    save_network(shipped_network(3), path)
    assert isinstance(roster_entry(str(path), 3, seed=2)[1], PolicyNetwork)
    assert isinstance(roster_entry(f"{path},sampled", 3)[1], SampledPolicy)
    bad_names = ("heuristic,sampled", "careful,sampled", "learned,sampled,sampled")
    for bad in (*bad_names, "learned,greedy", f"{path},sampled"):
        with pytest.raises(InvalidConfigError):
            roster_entry(bad, 4)
    # Sampled tables differ from greedy ones, and with the seed; the same seed, the same.
    lineups = np.zeros((40, 4), dtype=np.int64)
    lineups[:, 0] = 1
    heuristic = roster_entry("heuristic", 4)
    first = play_tables(4, [roster_entry("learned,sampled", 4, 1), heuristic], lineups, seed=3)
    again = play_tables(4, [roster_entry("learned,sampled", 4, 1), heuristic], lineups, seed=3)
    other = play_tables(4, [roster_entry("learned,sampled", 4, 2), heuristic], lineups, seed=3)
    plain = play_tables(4, [roster_entry("learned", 4, 1), heuristic], lineups, seed=3)
    assert np.array_equal(first, again)
    assert not np.array_equal(first, other)
    assert not np.array_equal(first, plain)
    assert np.array_equal(
        plain, play_tables(4, [roster_entry("learned", 4, 2), heuristic], lineups, seed=3)
    )


def test_the_commands_print_their_tables() -> None:
    from high_society.cli import exploitability, ratings

    out = io.StringIO()
    ratings.run(
        argparse.Namespace(
            bots=["heuristic", "pass", "careful"], players=[3], games=30, matrix=4, seed=1
        ),
        out,
    )
    assert "3 players, 30 games" in out.getvalue()
    assert "cross-play" in out.getvalue()
    out = io.StringIO()
    exploitability.run(
        argparse.Namespace(bot="thrifty", players=3, updates=1, games=20, envs=8, seed=1), out
    )
    assert "best response (1 updates, seed 1) against 2 thrifty" in out.getvalue()
    assert "thrifty itself in that seat" in out.getvalue()
    out = io.StringIO()
    exploitability.run(
        argparse.Namespace(bot="learned,sampled", players=3, updates=1, games=20, envs=8, seed=1),
        out,
    )
    assert "against 2 learned,sampled" in out.getvalue()
    assert "learned,sampled itself in that seat" in out.getvalue()
    with pytest.raises(InvalidConfigError, match="played by the reducer"):
        exploitability.run(
            argparse.Namespace(bot="search", players=3, updates=1, games=20, envs=8, seed=1), out
        )


_ODD = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**65), 2**65),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=5),
    st.lists(st.integers(-2, 6), max_size=5),
    st.sampled_from(["heuristic", "caller", "pass-cheapest", "SameStep", Compiled("pass")]),
)


@settings(max_examples=80, deadline=None)
@given(
    name=st.sampled_from(
        [
            "seed",
            "seats",
            "opponents",
            "pool",
            "pool_weights",
            "same_table",
            "boldness",
            "actions",
            "normalize",
            "autoreset_mode",
        ]
    ),
    value=_ODD,
)
def test_any_argument_is_taken_or_refused_with_a_batch_error(name: str, value: object) -> None:
    try:
        env = LearnerVectorEnv(3, **{name: value})  # type: ignore[arg-type]
    except BatchError:
        return
    env.reset(seed=1)
    env.step(env.sample_legal())


def test_a_run_that_trains_nothing_leaves_an_earlier_curve_alone(tmp_path: Path) -> None:
    # `--updates 0` from `--start` (hardening or expert iteration alone) writes no curve: the
    # learning curve an earlier training run left in the same place survives it.
    curve = tmp_path / "curve.csv"
    curve.write_text("players,update\n4,600\n")
    script = Path(__file__).parents[1] / "examples" / "train_league.py"
    args = ["--players", "3", "--start", "learned", "--updates", "0"]
    args += ["--out-dir", str(tmp_path), "--curve", str(curve)]
    subprocess.run([sys.executable, str(script), *args], check=True, capture_output=True)
    assert curve.read_text() == "players,update\n4,600\n"
    assert (tmp_path / "learned-3p.npz").is_file()


def test_the_training_script_seats_the_watchers_when_asked(tmp_path: Path) -> None:
    # `--watchers WEIGHT` must reach the league: the same tiny run with and without them
    # meets other opponents, so it learns other weights; with them twice, the same ones.
    script = Path(__file__).parents[1] / "examples" / "train_league.py"
    tiny = ["--players", "3", "--updates", "2", "--games", "16", "--steps", "4"]
    tiny += ["--hidden", "8", "--snapshot-every", "0", "--same-table", "1"]

    def trained(name: str, *extra: str) -> bytes:
        """The saved network's file: the same weights save to the same bytes."""
        out = tmp_path / name
        args = [*tiny, *extra, "--out-dir", str(out), "--curve", str(out / "curve.csv")]
        out.mkdir()
        subprocess.run([sys.executable, str(script), *args], check=True, capture_output=True)
        load_network(out / "learned-3p.npz")  # a network of the format
        return (out / "learned-3p.npz").read_bytes()

    plain, watched = trained("plain"), trained("watched", "--watchers", "50")
    assert trained("again", "--watchers", "50") == watched
    assert plain != watched

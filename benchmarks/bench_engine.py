"""The engine's benchmark suite (pytest-benchmark). Not part of the tests: run it with

    python3 tasks.py bench

which also prints the throughput report (benchmarks/report.py). Each benchmark times one
operation on a fixed state, so runs compare across commits; see docs/performance.md.
"""

import pickle
import random

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from benchmarks.scenarios import facing_bid, hand_of, mid_game, one_of_each_kind, random_game
from high_society import Action, apply, legal_actions, new_game, result, status_of
from high_society.bots import RandomBot
from high_society.simulate import simulate

KINDS = one_of_each_kind()


@pytest.mark.parametrize("kind", list(KINDS))
def test_apply(benchmark: BenchmarkFixture, kind: str) -> None:
    """``apply`` (legality checked) of one action of each kind."""
    state, action = KINDS[kind]
    benchmark(apply, state, action)


@pytest.mark.parametrize("size", [1, 3, 5, 7, 9, 11])
def test_legal_actions_by_hand_size(benchmark: BenchmarkFixture, size: int) -> None:
    """``legal_actions`` with ``size`` cards in hand: 2**size - 1 legal bids, plus Pass."""
    state = hand_of(size)
    legal = benchmark(legal_actions, state)
    benchmark.extra_info["legal_actions"] = len(legal)


@pytest.mark.parametrize(
    "bid",
    [(1,), (25,), (10, 12, 15, 20), (1, 2, 3, 4, 6, 8, 10, 12, 15, 20), tuple(range(2, 26))],
    ids=["1", "25", "57", "81", "105"],
)
def test_legal_actions_by_number_of_bids(benchmark: BenchmarkFixture, bid: tuple[int, ...]) -> None:
    """``legal_actions`` for a full hand facing a higher and higher bid: from 2,047 legal
    bids down to 1. The cost should not change."""
    money = (1, 2, 3, 4, 6, 8, 10, 12, 15, 20, 25)
    state = facing_bid(tuple(c for c in bid if c in money))
    legal = benchmark(legal_actions, state)
    benchmark.extra_info["legal_actions"] = len(legal)


def test_legal_actions_and_draw_one(benchmark: BenchmarkFixture) -> None:
    """List the legal actions of a full hand and draw one uniformly (what RandomBot does)."""
    state = hand_of(11)
    rng = random.Random(1)

    def draw() -> Action:
        legal = legal_actions(state)
        return legal[rng.randrange(len(legal))]

    benchmark(draw)


def test_random_bot_choose(benchmark: BenchmarkFixture) -> None:
    benchmark(RandomBot(1).choose, mid_game())


def test_iterate_all_legal_actions(benchmark: BenchmarkFixture) -> None:
    """Build every one of the 2,048 legal actions of a full hand (the lazy list, forced)."""
    state = hand_of(11)
    benchmark(lambda: list(legal_actions(state)))


def test_result(benchmark: BenchmarkFixture) -> None:
    """Score a finished game: status with breakdowns, cast out, winners (R10-R12)."""
    actions = random_game(4, 7)
    state = new_game(4)
    for action in actions:
        state = apply(state, action)
    benchmark(result, state)


def test_status_of(benchmark: BenchmarkFixture) -> None:
    state = mid_game()
    cards = max((p.status_cards for p in state.players), key=len)
    benchmark(status_of, cards)


def _replay(actions: tuple[Action, ...], players: int) -> None:
    state = new_game(players)
    for action in actions:
        state = apply(state, action)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_replay_recorded_game(benchmark: BenchmarkFixture, players: int) -> None:
    """Fold ``apply`` over the actions of one recorded uniform game."""
    actions = random_game(players, 3)
    benchmark(_replay, actions, players)
    benchmark.extra_info["actions"] = len(actions)


def test_record_replay(benchmark: BenchmarkFixture) -> None:
    """``high_society.record.replay`` of the same game, from a record and from its JSON."""
    record = pytest.importorskip("high_society.record")
    actions = random_game(4, 3)
    game = record.GameRecord(["A", "B", "C", "D"], list(actions))
    text = record.dumps_record(game)
    benchmark(lambda: record.replay(record.loads_record(text)))
    benchmark.extra_info["actions"] = len(actions)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_uniform_games(benchmark: BenchmarkFixture, players: int) -> None:
    """Ten whole uniform-random games, played and scored (``simulate``), warm caches."""
    simulate(players, 300, seed=0)  # most hands' bid tables are built once per process

    benchmark(simulate, players, 10, seed=1)


def test_pickled_size_of_a_mid_game_state(benchmark: BenchmarkFixture) -> None:
    """Pickle a mid-game state; its size in bytes goes to extra_info."""
    state = mid_game()
    data = benchmark(pickle.dumps, state, pickle.HIGHEST_PROTOCOL)
    benchmark.extra_info["pickled_bytes"] = len(data)
    assert pickle.loads(data) == state

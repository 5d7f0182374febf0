"""The batch engine's own behaviour: seeds, resets, bad input, conversions, sampling, the
statistics of its games, the vector interface and ``simulate --engine batch``.

That it plays the reducer's game is ``test_batch_differential.py``.
"""

import importlib
import json
import re
import sys
from fractions import Fraction
from math import comb

import attrs
import numpy as np
import numpy.typing as npt
import pytest

from high_society import (
    STANDARD,
    Bid,
    GameConfig,
    InvalidConfigError,
    Pass,
    Phase,
    Reason,
    Reveal,
    StatusCard,
    apply,
    cards,
    legal_actions,
    new_game,
    sort_cards,
)
from high_society._text import install_hint
from high_society.batch import (
    MAX_MONEY_CARDS,
    BatchError,
    GameBatch,
    IllegalActionIdError,
    VectorEnv,
    simulate,
)
from high_society.cli import main
from high_society.encoding import action_id
from tests.pages import docs_page

FULL = (1 << len(STANDARD.money)) - 1
FIRST_DISCARD = 1 << len(STANDARD.money)


def _snapshot(batch: GameBatch) -> list[object]:
    return [batch.to_state(g) for g in range(batch.num_games)]


def _play_out(batch: GameBatch) -> None:
    while not batch.is_over.all():
        batch.step(batch.sample_actions())


# --- Construction and seeds --------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 6, True, 4.0])
def test_R3_a_batch_has_3_to_5_seats(players: object) -> None:
    with pytest.raises(InvalidConfigError, match="3 to 5 players"):
        GameBatch(2, players)  # type: ignore[arg-type]


@pytest.mark.parametrize("games", [0, -1, 2.0, True])
def test_a_batch_has_at_least_one_game(games: object) -> None:
    with pytest.raises(BatchError, match="number of games"):
        GameBatch(games, 3)  # type: ignore[arg-type]


def test_configs_beyond_the_bid_tables_are_refused() -> None:
    # GameConfig itself refuses more money cards than the batch engine's tables hold
    # (high_society.cards.MAX_MONEY_CARDS), so no such config reaches a batch.
    assert MAX_MONEY_CARDS == cards.MAX_MONEY_CARDS
    with pytest.raises(InvalidConfigError, match=f"at most {MAX_MONEY_CARDS}"):
        GameBatch(1, 3, config=GameConfig(money=tuple(range(1, MAX_MONEY_CARDS + 2))))


@pytest.mark.parametrize("seed", [-1, 1 << 64, "7", 1.5, [1, 2, 3], [1, -2], [1, True]])
def test_bad_seeds_are_refused(seed: object) -> None:
    with pytest.raises(BatchError, match="seed"):
        GameBatch(2, 3, seed=seed)  # type: ignore[arg-type]


def test_the_same_seed_plays_the_same_games() -> None:
    one, two = GameBatch(20, 4, seed=5), GameBatch(20, 4, seed=5)
    while not one.is_over.all():
        actions = one.sample_actions()
        assert (two.sample_actions() == actions).all()
        assert (one.step(actions) == two.step(actions)).all()
    assert _snapshot(one) == _snapshot(two)
    assert _snapshot(GameBatch(20, 4, seed=6)) != _snapshot(GameBatch(20, 4, seed=5))


def test_a_game_with_its_own_seed_plays_the_same_in_any_batch() -> None:
    alone = GameBatch(1, 3, seed=[99])
    among = GameBatch(3, 3, seed=[1, 99, 2])
    while not alone.is_over.all():
        action = alone.sample_actions()[0]
        actions = among.sample_actions()
        assert actions[1] == action
        alone.step(np.array([action]))
        among.step(actions)
        assert alone.to_state(0) == among.to_state(1)


def test_reset_without_a_seed_goes_on_with_the_streams() -> None:
    batch = GameBatch(10, 3, seed=1)
    first = _snapshot(batch)
    batch.reset()
    assert _snapshot(batch) != first
    batch.reset(seed=1)
    assert _snapshot(batch) == first


def test_every_game_starts_as_new_game_after_one_reveal() -> None:
    batch = GameBatch(30, 5, seed=2)
    for g in range(30):
        state = batch.to_state(g)
        card = state.auction if state.auction is not None else state.ending_card
        assert card is not None
        assert state == apply(new_game(5), Reveal(card))


# --- Reset of chosen games ---------------------------------------------------------------------


def test_reset_games_restarts_only_the_chosen_games() -> None:
    batch = GameBatch(4, 3, seed=3)
    _play_out(batch)
    batch.reset_games(np.array([1, 3]))
    assert batch.is_over.tolist() == [True, False, True, False]
    batch.reset_games(np.array([True, False, False, False]))
    assert batch.is_over.tolist() == [False, False, True, False]
    assert batch.auctions_started.tolist()[0] == 1


@pytest.mark.parametrize(
    "games",
    [np.array([4]), np.array([-1]), np.array([True, False]), np.array([[0]]), np.array([0.5])],
)
def test_reset_games_refuses_what_selects_no_games(games: npt.NDArray[np.generic]) -> None:
    batch = GameBatch(4, 3)
    before = _snapshot(batch)
    with pytest.raises(BatchError):
        batch.reset_games(games)
    assert _snapshot(batch) == before


# --- Step --------------------------------------------------------------------------------------


def test_an_illegal_id_changes_no_game_and_names_the_reducers_reason() -> None:
    batch = GameBatch(3, 3, seed=4)
    batch.step(np.array([1, 1, 1]))  # seat 0 bids the 1 in every game
    before = _snapshot(batch)
    # Game 2: seat 1 adds the 1 too, which only ties the highest bid (R5).
    with pytest.raises(IllegalActionIdError) as caught:
        batch.step(np.array([2, 0, 1]))
    assert (caught.value.game, caught.value.action_id) == (2, 1)
    assert caught.value.reason is Reason.BID_TOO_LOW
    assert _snapshot(batch) == before


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (FIRST_DISCARD, Reason.NO_DISCARD_DUE),
        (FIRST_DISCARD + 10, None),
        (-1, None),
        (1 << 40, None),
    ],
)
def test_ids_that_are_no_legal_action_are_refused(action: int, reason: Reason | None) -> None:
    batch = GameBatch(1, 4, seed=4)
    before = _snapshot(batch)
    with pytest.raises(IllegalActionIdError) as caught:
        batch.step(np.array([action]))
    assert caught.value.reason is reason
    assert _snapshot(batch) == before


def test_a_card_spent_earlier_cannot_be_bid() -> None:
    state = new_game(3)
    state = apply(state, Reveal(StatusCard.LUXURY_3))
    for action in (Bid(0, frozenset({25})), Pass(1), Pass(2)):
        state = apply(state, action)
    state = apply(state, Reveal(StatusCard.LUXURY_4))
    batch = GameBatch.from_states([state])
    with pytest.raises(IllegalActionIdError) as caught:
        batch.step(np.array([action_id(Bid(0, frozenset({25})), STANDARD)]))
    assert caught.value.reason is Reason.CARD_NOT_IN_HAND


@pytest.mark.parametrize(
    "actions", [np.zeros(3, dtype=np.int64), np.zeros((2, 1), dtype=np.int64), np.zeros(2)]
)
def test_step_wants_one_integer_id_per_game(actions: npt.NDArray[np.generic]) -> None:
    batch = GameBatch(2, 3)
    with pytest.raises(BatchError, match="integer action ids"):
        batch.step(actions)


def test_a_finished_game_ignores_its_id_until_it_is_reset() -> None:
    batch = GameBatch(5, 3, seed=8)
    _play_out(batch)
    before = _snapshot(batch)
    ended = batch.step(np.full(5, 12345))
    assert not ended.any()
    assert _snapshot(batch) == before
    assert not batch.legal_action_mask().any()
    assert batch.to_act.tolist() == [-1] * 5


def test_step_reports_the_games_that_ended_in_that_step() -> None:
    batch = GameBatch(200, 3, seed=9)
    seen = np.zeros(200, dtype=np.int64)
    while not batch.is_over.all():
        was_over = batch.is_over
        ended = batch.step(batch.sample_actions())
        assert (ended == (batch.is_over & ~was_over)).all()
        seen += ended
    assert (seen == 1).all()


# --- Masks, sampling, observations, results -----------------------------------------------------


def test_the_mask_of_a_fresh_game_is_pass_and_every_bid() -> None:
    mask = GameBatch(1, 3).legal_action_mask()
    assert mask[0, :FIRST_DISCARD].all()
    assert not mask[0, FIRST_DISCARD:].any()


def test_out_buffers_are_written_and_returned() -> None:
    batch = GameBatch(3, 4, seed=1)
    mask = np.ones((3, batch.num_actions), dtype=np.int8)
    assert batch.legal_action_mask(out=mask) is mask
    assert (mask == batch.legal_action_mask()).all()
    observations = np.full((3, batch.observation_size), 7, dtype=np.float32)
    assert batch.observations(out=observations) is observations
    assert (observations == batch.observations()).all()
    actions = np.empty(3, dtype=np.int64)
    assert batch.sample_actions(out=actions) is actions


@pytest.mark.parametrize(
    "out",
    [
        np.zeros((3, 2058), dtype=np.uint8),
        np.zeros((3, 2058), dtype=np.bool_),
        np.zeros((3, 2057), dtype=np.int8),
        np.zeros((2058, 3), dtype=np.int8).T,
    ],
)
def test_a_mask_buffer_of_the_wrong_kind_is_refused(out: npt.NDArray[np.int8]) -> None:
    with pytest.raises(BatchError, match="out must be"):
        GameBatch(3, 4).legal_action_mask(out=out)


@pytest.mark.parametrize("seat", [-1, 3, [0, 1], 1.0, True])
def test_observations_want_seats_of_the_game(seat: object) -> None:
    with pytest.raises(BatchError, match="seat"):
        GameBatch(3, 3).observations(seat)  # type: ignore[arg-type]


def test_observations_rotate_so_the_observer_comes_first() -> None:
    batch = GameBatch(1, 3, seed=1)
    batch.step(np.array([1 << 10]))  # seat 0 bids 25
    seat_block = 2 * len(STANDARD.money) + 16
    table_25 = 47 + len(STANDARD.money) + 10  # face up: the 25, in the first seat block
    observations = batch.observations(np.array([0]))
    assert observations[0, table_25] == 1
    assert batch.observations(2)[0, table_25 + seat_block] == 1  # seat 0 is seat 2's next
    assert batch.observations()[0, 46] == 25  # the highest bid; seat 1 is to act


def test_sampling_is_uniform_over_the_legal_actions() -> None:
    """In a fresh TINY game seat 0 has Pass and 7 bids: 8,000 draws, about 1,000 each.

    The chi-square statistic has 7 degrees of freedom; it exceeds 40 with probability
    below 1e-5 when the draws are uniform (fixed seed: the test is deterministic).
    """
    tiny = GameConfig(
        money=(1, 2, 4),
        deck=sort_cards([StatusCard.LUXURY_2, StatusCard.PRESTIGE, StatusCard.SCANDALE]),
    )
    state = apply(new_game(3, tiny), Reveal(StatusCard.LUXURY_2))
    batch = GameBatch.from_states([state] * 8000, seed=11)
    counts = np.bincount(batch.sample_actions(), minlength=8)
    assert len(counts) == 8 == len(legal_actions(state))
    chi2 = float((((counts - 1000) ** 2) / 1000).sum())
    assert chi2 < 40


def test_results_and_returns_of_finished_games_only() -> None:
    batch = GameBatch(50, 4, seed=12)
    batch.step(batch.sample_actions())
    assert not batch.results().winners.any()
    assert not batch.returns().any()
    _play_out(batch)
    returns = batch.returns()
    won = batch.results().winners.any(axis=1)
    assert np.allclose(returns.sum(axis=1), won)
    assert not (batch.results().winners & batch.results().cast_out).any()


# --- Statistics --------------------------------------------------------------------------------

#: Auctions per game: the 4 dark-green cards lie at random among the 16; the game ends at
#: the last of them, so P(a auctions) = C(a, 3) / C(16, 4) for a = 3..15, mean 63/5 = 12.6,
#: variance 136/25.
EXPECTED = {a: Fraction(comb(a, 3), comb(16, 4)) for a in range(3, 16)}


def test_auctions_per_game_have_the_exact_distribution() -> None:
    """50,000 games of a batch (fixed seed): the mean's standard error is
    sqrt(5.44 / 50,000) = 0.0104, so the tolerance 0.06 is 5.8 errors (a wrong engine with
    a fair deck would have to be off by less than that to pass). The chi-square statistic
    over the 13 counts (12 degrees of freedom) exceeds 55 with probability 1.8e-7."""
    assert sum(EXPECTED.values()) == 1
    assert sum(a * p for a, p in EXPECTED.items()) == Fraction(63, 5)
    batch = GameBatch(50_000, 4, seed=2026)
    _play_out(batch)
    auctions = batch.auctions_started
    assert auctions.min() >= 3
    assert auctions.max() <= 15
    assert abs(auctions.mean() - 12.6) < 0.06
    counts = np.bincount(auctions, minlength=16)
    expected = {a: 50_000 * float(p) for a, p in EXPECTED.items()}
    chi2 = sum((counts[a] - e) ** 2 / e for a, e in expected.items())
    assert chi2 < 55


def test_simulate_on_the_batch_engine_has_the_same_distribution() -> None:
    """20,000 games: the mean's standard error is 0.0165; 0.1 is six of them."""
    stats = simulate(4, 20_000, seed=7)
    assert stats.games == 20_000
    assert stats.policy == "uniform"
    assert 3 <= stats.auctions_min <= stats.auctions_max <= 15
    assert abs(stats.auctions_mean - 12.6) < 0.1
    assert sum(stats.auction_histogram) == 20_000
    assert sum(stats.wins) >= 20_000 - stats.no_winner
    assert stats == simulate(4, 20_000, seed=7)  # timing aside, the same games
    assert stats != simulate(4, 20_000, seed=8)
    # Each game: a reveal per auction, the ending reveal, and a decision or more per auction.
    assert stats.actions >= 20_000 * (2 * stats.auctions_mean + 1)


@pytest.mark.parametrize(
    ("players", "games", "seed", "error"),
    [
        (2, 1, 1, InvalidConfigError),
        (3, -1, 1, InvalidConfigError),
        (3, 1, -1, BatchError),
        (3, 1, 1 << 64, BatchError),
        (3, 1, [1], BatchError),
    ],
)
def test_simulate_refuses_bad_arguments(
    players: int, games: int, seed: object, error: type[Exception]
) -> None:
    with pytest.raises(error):
        simulate(players, games, seed)  # type: ignore[arg-type]


def test_simulate_of_no_games() -> None:
    stats = simulate(3, 0, seed=1)
    assert (stats.games, stats.actions, stats.auction_histogram) == (0, 0, (0,))


# --- Conversion --------------------------------------------------------------------------------


def test_set_state_refuses_invalid_or_foreign_states() -> None:
    batch = GameBatch(2, 3)
    broken = attrs.evolve(apply(new_game(3), Reveal(StatusCard.PASSE)), turn=7)
    with pytest.raises(BatchError, match="not a valid state"):
        batch.set_state(0, broken)
    with pytest.raises(BatchError, match="the batch plays 3 seats"):
        batch.set_state(0, apply(new_game(4), Reveal(StatusCard.PASSE)))
    with pytest.raises(BatchError, match="is not a game of this batch"):
        batch.set_state(2, new_game(3))
    with pytest.raises(BatchError, match="is not a game of this batch"):
        batch.to_state(True)
    with pytest.raises(BatchError, match="at least one state"):
        GameBatch.from_states([])


def test_a_state_due_for_a_reveal_gets_it_at_once() -> None:
    batch = GameBatch.from_states([new_game(4), new_game(4)], seed=1)
    for g in range(2):
        state = batch.to_state(g)
        assert state.phase is Phase.AUCTION
        assert state.auction is not None
        assert state == apply(new_game(4), Reveal(state.auction))


# --- Vector interface ---------------------------------------------------------------------------


def test_vector_env_resets_finished_games_in_the_same_step() -> None:
    env = VectorEnv(64, players=3, seed=5)
    observations, infos = env.reset(seed=5)
    assert observations.shape == (64, env.observation_size)
    ended = 0
    for _ in range(200):
        actions = env.batch.sample_actions()
        observations, rewards, terminations, truncations, infos = env.step(actions)
        assert not truncations.any()
        assert not rewards[~terminations].any()
        assert np.isin(rewards[terminations].sum(axis=1), [0.0, 1.0]).all()
        assert not env.batch.is_over.any()  # reset at once
        assert (infos["action_mask"] == env.batch.legal_action_mask()).all()
        assert (infos["to_act"] == env.batch.to_act).all()
        assert (observations == env.batch.observations()).all()
        ended += int(terminations.sum())
        fresh = env.batch.auctions_started[terminations]
        assert (fresh == 1).all()
    assert ended > 64
    env.close()


def test_vector_env_reset_with_a_seed_replays_the_same_games() -> None:
    def run(env: VectorEnv) -> list[npt.NDArray[np.float32]]:
        observations, _ = env.reset(seed=21)
        seen = [observations]
        for _ in range(80):
            seen.append(env.step(env.batch.sample_actions())[0])
        return seen

    one, two = VectorEnv(16, players=5, seed=1), VectorEnv(16, players=5, seed=2)
    assert all((a == b).all() for a, b in zip(run(one), run(two), strict=True))
    assert one.num_envs == 16
    assert one.num_players == 5
    assert one.num_actions == 2058
    assert one.observation_size == 47 + 5 * 38


# --- The command line ----------------------------------------------------------------------------


def test_cli_simulate_runs_on_the_batch_engine(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--engine", "batch", "--games", "300", "--seed", "3", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    expected = simulate(4, 300, seed=3).as_dict()
    timing = {"seconds", "games_per_second", "actions_per_second"}
    assert {k: v for k, v in figures.items() if k not in timing} == {
        k: v for k, v in expected.items() if k not in timing
    }


def test_cli_simulate_batch_plays_only_the_uniform_policy(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["simulate", "--engine", "batch", "--policy", "heuristic", "--games", "3"]
    assert main(argv) == 1
    assert "only the uniform policy" in capsys.readouterr().err


def test_cli_simulate_batch_without_the_extra_says_what_to_install(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "high_society.batch", None)  # as if numba were missing
    assert main(["simulate", "--engine", "batch", "--games", "3"]) == 1
    assert "--engine batch" in capsys.readouterr().err


def test_without_numba_the_import_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numba", None)
    monkeypatch.delitem(sys.modules, "high_society.batch")
    with pytest.raises(ImportError, match=re.escape(install_hint("batch"))):
        importlib.import_module("high_society.batch")


def test_the_batch_page_names_every_compiled_policy() -> None:
    from high_society.batch import POLICIES

    told = docs_page("batch.md")
    start = told.index("Compiled policies of {py:data}`~high_society.batch.POLICIES`")
    paragraph = told[start : told.index("`advance(policies)`", start)]
    assert sorted(re.findall(r'`"(\w+)"`', paragraph)) == sorted(POLICIES)


def test_the_batch_page_counts_the_arrays_of_a_batch() -> None:
    from high_society.batch._kernels import Games

    words = dict(enumerate(("ten", "eleven", "twelve", "thirteen", "fourteen"), start=10))
    assert f"a named tuple of {words[len(Games._fields)]} arrays" in docs_page("batch.md")

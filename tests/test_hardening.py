"""Hardening a learned bot (:mod:`high_society.batch.hardening`): rounds of a best response
and retraining, on tiny budgets. Seeded: the same arguments give the same networks; every
bad setting is refused with ``InvalidConfigError`` before anything trains. Nothing here
depends on timing.
"""

import attrs
import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("gymnasium")

from high_society.batch.hardening import HardeningConfig, RoundShares, harden, round_pool
from high_society.batch.league import TRAINING_STYLES, WATCHERS
from high_society.batch.training import TrainingConfig, train
from high_society.errors import InvalidConfigError
from high_society.learned import PolicyNetwork, SampledPolicy, shipped_network

_SMALL = TrainingConfig(games=16, steps=4, hidden=8, minibatch=32)
_BOT = TrainingConfig(
    games=16, steps=4, hidden=8, minibatch=32, snapshot_every=1, snapshots=2, value_warmup=1
)
_CONFIG = HardeningConfig(
    rounds=2, response_updates=1, bot_updates=2, response=_SMALL, bot=_BOT, first_round=3
)


def _same(a: PolicyNetwork, b: PolicyNetwork) -> bool:
    return all(
        np.array_equal(x, y)
        for (w1, b1), (w2, b2) in zip(a.layers, b.layers, strict=True)
        for x, y in ((w1, w2), (b1, b2))
    )


@pytest.fixture(scope="module")
def start() -> PolicyNetwork:
    """A small two-output network for 3 players (8 units a layer), trained a little."""
    return train(3, ["heuristic"], updates=1, seed=2, config=_SMALL)


_Report = tuple[int, PolicyNetwork, PolicyNetwork]


@pytest.fixture(scope="module")
def two_rounds(start: PolicyNetwork) -> tuple[PolicyNetwork, list[_Report]]:
    """``_CONFIG``'s run from ``start`` at seed 5: the bot, and each round's report."""
    reports: list[_Report] = []
    bot = harden(
        start, seed=5, config=_CONFIG, report=lambda r, resp, b: reports.append((r, resp, b))
    )
    return bot, reports


def test_it_runs_its_rounds_and_is_seeded(
    start: PolicyNetwork, two_rounds: tuple[PolicyNetwork, list[_Report]]
) -> None:
    bot, reports = two_rounds
    assert [r for r, _, _ in reports] == [3, 4]  # numbered from first_round
    assert _same(reports[-1][2], bot)
    for _, response, each in reports:
        assert (response.players, response.outputs, each.players, each.outputs) == (3, 2, 3, 2)
        assert not response.full_actions
    assert not _same(bot, start)  # the bot trained on
    assert not _same(reports[0][2], bot)  # and again in the second round
    assert not _same(reports[0][1], reports[1][1])  # a new best response each round
    again = harden(start, seed=5, config=_CONFIG)
    assert _same(again, bot)
    assert not _same(harden(start, seed=6, config=_CONFIG), bot)
    # Responses found before join the mix: the run differs from one without them.
    continued = harden(start, seed=5, config=_CONFIG, responses=(start,))
    assert not _same(continued, bot)
    # A bot hardened as it plays sampled meets other tables than a greedy one.
    sampled = harden(start, seed=5, config=attrs.evolve(_CONFIG, sampled=True))
    assert not _same(sampled, bot)
    # Watchers among the styles make another mix, so another bot.
    assert not _same(harden(start, seed=5, config=attrs.evolve(_CONFIG, watchers=50.0)), bot)


def test_a_continued_run_gives_the_weights_a_single_run_would(
    two_rounds: tuple[PolicyNetwork, list[_Report]],
) -> None:
    # docs/ai.md: `--response PATH` and `--first-round` continue a run. Round 4 continued from
    # round 3's bot, with round 3's best response, is the two-round run's round 4.
    whole, ((_, response3, bot3), _) = two_rounds
    round4 = attrs.evolve(_CONFIG, rounds=1, first_round=4)
    assert _same(harden(bot3, seed=5, config=round4, responses=(response3,)), whole)
    # Without round 3's response in the mix the continuation is another run.
    assert not _same(harden(bot3, seed=5, config=round4), whole)


def test_the_policy_starts_where_it_is_told_and_waits_for_the_value_network(
    start: PolicyNetwork,
) -> None:
    waiting = TrainingConfig(games=16, steps=4, hidden=8, minibatch=32, value_warmup=2)
    kept = train(3, ["heuristic"], updates=2, seed=1, config=waiting, initial=start)
    assert _same(kept, start)  # two updates of the value network alone
    moved = train(3, ["heuristic"], updates=3, seed=1, config=waiting, initial=start)
    assert not _same(moved, start)
    anew = train(3, ["heuristic"], updates=0, seed=1, config=_SMALL)
    assert not _same(anew, start)
    with pytest.raises(InvalidConfigError, match="initial network"):
        train(4, ["heuristic"], updates=1, seed=1, config=_SMALL, initial=start)
    with pytest.raises(InvalidConfigError, match="initial network"):
        train(3, ["heuristic"], updates=1, seed=1, config=TrainingConfig(hidden=4), initial=start)


def test_the_round_pool_gives_each_kind_its_share(start: PolicyNetwork) -> None:
    responses = [start, start]
    target = SampledPolicy(start, 1)
    opponents, weights = round_pool(responses, target, RoundShares(0.5, 0.2, 0.3))
    styles = len(TRAINING_STYLES)
    assert len(opponents) == len(weights) == styles + 3
    assert opponents[-1] is target
    assert opponents[styles:-1] == responses
    assert opponents[:styles] == [style for style, _ in TRAINING_STYLES]
    assert sum(weights[:styles]) == pytest.approx(0.2)
    _, weight = TRAINING_STYLES[0]
    assert weights[0] == pytest.approx(0.2 * weight / sum(w for _, w in TRAINING_STYLES))
    assert weights[styles:] == pytest.approx([0.25, 0.25, 0.3])
    # Shares that do not sum to 1 are taken relative to their sum.
    _, scaled = round_pool(responses, target, RoundShares(1.0, 0.4, 0.6))
    assert scaled == pytest.approx(weights)
    _, alone = round_pool(responses[:1], target, RoundShares(1.0, 0.0, 0.0))
    assert alone == pytest.approx([0.0] * styles + [1.0, 0.0])
    with pytest.raises(InvalidConfigError, match="at least one best response"):
        round_pool([], target, RoundShares())
    # The watchers join the styles' share, beside them by their weight; the rest is as before.
    watched, watched_weights = round_pool(responses, target, RoundShares(0.5, 0.2, 0.3), 2.0)
    every = styles + len(WATCHERS)
    assert watched[:every] == [*opponents[:styles], *WATCHERS]
    assert sum(watched_weights[:every]) == pytest.approx(0.2)
    total = sum(w for _, w in TRAINING_STYLES) + 2.0 * len(WATCHERS)
    assert watched_weights[styles] == pytest.approx(0.2 * 2.0 / total)
    assert watched_weights[every:] == pytest.approx(weights[styles:])


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: HardeningConfig(rounds=0), "rounds must be an int >= 1"),
        (lambda: HardeningConfig(rounds=True), "rounds must be an int >= 1"),
        (lambda: HardeningConfig(response_updates=0), "response_updates"),
        (
            lambda: HardeningConfig(bot_updates=1.5),  # type: ignore[arg-type]
            "bot_updates",
        ),
        (lambda: HardeningConfig(first_round=0), "first_round"),
        (lambda: HardeningConfig(sampled=1), "sampled must be a bool"),  # type: ignore[arg-type]
        (lambda: HardeningConfig(watchers=-1.0), "watchers must be a number >= 0"),
        (
            lambda: HardeningConfig(bot="fast"),  # type: ignore[arg-type]
            "bot",
        ),
        (
            lambda: HardeningConfig(shares=(0.4, 0.3, 0.3)),  # type: ignore[arg-type]
            "shares",
        ),
        (lambda: RoundShares(-0.1, 0.5, 0.5), "responses must be a number >= 0"),
        (lambda: RoundShares(0.4, float("nan"), 0.3), "styles"),
        (lambda: RoundShares(0.4, 0.3, float("inf")), "bot"),
        (lambda: RoundShares(0.0, 0.5, 0.5), "share must be above 0"),
    ],
)
def test_bad_settings_are_refused(make: object, message: str) -> None:
    with pytest.raises(InvalidConfigError, match=message):
        make()  # type: ignore[operator]


def test_bad_networks_are_refused_before_anything_trains(start: PolicyNetwork) -> None:
    rng = np.random.default_rng(1)
    full = PolicyNetwork(
        [(rng.normal(size=(start.inputs, 2058)).astype(np.float32), np.zeros(2058, np.float32))],
        3,
    )
    with pytest.raises(InvalidConfigError, match="two-output"):
        harden(full, seed=1, config=_CONFIG)
    with pytest.raises(InvalidConfigError, match="two-output"):
        harden(start, seed=1, config=_CONFIG, responses=(full,))
    with pytest.raises(InvalidConfigError, match="of 4 players, for a bot of 3"):
        harden(start, seed=1, config=_CONFIG, responses=(shipped_network(4),))
    with pytest.raises(InvalidConfigError, match="HardeningConfig"):
        harden(start, seed=1, config=_SMALL)  # type: ignore[arg-type]

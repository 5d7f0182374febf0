"""The batch engine plays exactly the reducer's game (issue 13), checked step by step.

Each test plays games through :class:`~high_society.batch.GameBatch` and the reducer with
the same choices and reveals, comparing at every step the legal-action ids, the
observation, the converted state and, at the end, the results and returns
(``tests/batch_differential.py``). The long run is ``python3 tasks.py batch-diff``.
"""

import numpy as np
import numpy.typing as npt
import pytest

from high_society import GameConfig, StatusCard, sort_cards
from high_society.batch import GameBatch
from tests import batch_differential as differential
from tests.batch_differential import Mismatch, play_both, quick_legal_check

L = StatusCard
#: Reduced games, so that every corner comes up in a few games: few money cards, a short
#: deck with every kind of card (the same shapes as property_tests/strategies.py).
SMALL = GameConfig(
    money=(1, 3, 5, 8),
    deck=sort_cards(
        [
            L.LUXURY_1,
            L.LUXURY_3,
            L.LUXURY_4,
            L.PRESTIGE,
            L.PRESTIGE,
            L.FAUX_PAS,
            L.PASSE,
            L.SCANDALE,
        ]
    ),
)
TINY = GameConfig(
    money=(1, 2, 4),
    deck=sort_cards([L.LUXURY_2, L.LUXURY_5, L.PRESTIGE, L.FAUX_PAS, L.PASSE, L.SCANDALE]),
)
ONE_COIN = GameConfig(
    money=(1,), deck=sort_cards([L.LUXURY_5, L.PRESTIGE, L.FAUX_PAS, L.PASSE, L.SCANDALE])
)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_standard_games_match_the_reducer_at_every_step(players: int) -> None:
    tally = play_both(players, games=12, seed=100 + players)
    # The steered policy reaches every kind of action (so every transition was compared).
    assert tally.bids
    assert tally.passes
    assert tally.discards
    assert tally.states_compared == tally.steps > 12 * 20


@pytest.mark.parametrize("players", [3, 4, 5])
def test_uniform_play_matches_the_reducer_at_every_step(players: int) -> None:
    tally = play_both(players, games=6, seed=200 + players, uniform=True)
    assert tally.bids
    assert tally.passes


@pytest.mark.parametrize("config", [SMALL, TINY, ONE_COIN], ids=["small", "tiny", "one-coin"])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_reduced_configs_match_the_reducer_at_every_step(players: int, config: GameConfig) -> None:
    tally = play_both(players, games=60, seed=300 + players, config=config)
    assert tally.passes
    assert tally.steps > 60


def test_a_difference_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison bites: a batch game changed behind the reducer's back is reported."""

    class Broken(GameBatch):
        def step(self, action_ids: npt.ArrayLike) -> npt.NDArray[np.bool_]:
            ended = super().step(action_ids)
            self._hand[0, 0] ^= 1  # seat 0 of game 0 finds or loses the smallest card
            return ended

    monkeypatch.setattr(differential, "GameBatch", Broken)
    with pytest.raises(Mismatch, match="game 0"):
        play_both(3, games=2, seed=1)


def test_the_quick_legal_check_of_the_long_run_agrees_and_bites() -> None:
    """``python3 tasks.py batch-diff`` compares legal ids with ``quick_legal_check``: it
    accepts the batch's masks where the full comparison does, and refuses a changed mask."""
    tally = play_both(4, games=4, seed=400, quick=True)
    assert tally.steps > 100
    batch = GameBatch(8, 4, seed=401)
    for _ in range(6):
        batch.step(batch.sample_actions())
    mask = batch.legal_action_mask()
    for g in np.flatnonzero(~batch.is_over).tolist():
        state = batch.to_state(g)
        assert quick_legal_check(state, mask[g])
        for flip in (0, 1, int(np.flatnonzero(mask[g])[-1]), mask.shape[1] - 1):
            changed = mask[g].copy()
            changed[flip] = not changed[flip]
            assert not quick_legal_check(state, changed)

"""The batch engine plays exactly the reducer's game, checked step by step.

Each test plays games through :class:`~high_society.batch.GameBatch` and the reducer with
the same choices and reveals, comparing at every step the legal-action ids, the
observation, the converted state and, at the end, the results and returns
(``tests/batch_differential.py``). The long run is ``python3 tasks.py batch-diff``.
"""

import numpy as np
import numpy.typing as npt
import pytest

from high_society import GameConfig
from high_society.batch import BatchResults, GameBatch
from property_tests.strategies import ONE_COIN, SMALL, TINY
from tests import batch_differential as differential
from tests.batch_differential import Mismatch, play_both


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
        def step(
            self, action_ids: npt.ArrayLike, *, where: npt.ArrayLike | None = None
        ) -> npt.NDArray[np.bool_]:
            ended = super().step(action_ids, where=where)
            self._games.hand[0, 0] ^= 1  # seat 0 of game 0 finds or loses the smallest card
            return ended

    monkeypatch.setattr(differential, "GameBatch", Broken)
    with pytest.raises(Mismatch, match="game 0"):
        play_both(3, games=2, seed=1)


def _swap_a_legal_id(mask: npt.NDArray[np.int8]) -> None:
    """Game 0 offers its first illegal id instead of its first legal one: as many ids, not
    the same (in an auction the discard ids are illegal, in a discard Pass is)."""
    legal, illegal = int(np.flatnonzero(mask[0])[0]), int(np.flatnonzero(mask[0] == 0)[0])
    mask[0, legal], mask[0, illegal] = 0, 1


class WrongMask(GameBatch):
    def legal_action_mask(self, out: npt.NDArray[np.int8] | None = None) -> npt.NDArray[np.int8]:
        mask = super().legal_action_mask(out)
        if not self.is_over[0]:
            _swap_a_legal_id(mask)
        return mask


class WrongObservation(GameBatch):
    def observations(
        self,
        seat: int | npt.ArrayLike | None = None,
        out: npt.NDArray[np.float32] | None = None,
        *,
        where: npt.ArrayLike | None = None,
    ) -> npt.NDArray[np.float32]:
        observed = super().observations(seat, out, where=where)
        observed[0, -1] += 1  # one more status card of the last kind for the last seat
        return observed


class WrongEnd(GameBatch):
    def step(
        self, action_ids: npt.ArrayLike, *, where: npt.ArrayLike | None = None
    ) -> npt.NDArray[np.bool_]:
        ended = super().step(action_ids, where=where)
        ended[0] = False  # game 0 never reports its end
        return ended


class WrongMoney(GameBatch):
    def results(self) -> BatchResults:
        outcome = super().results()
        outcome.money[0, 0] += 1
        return outcome


class WrongReturns(GameBatch):
    def returns(self) -> npt.NDArray[np.float64]:
        shares = super().returns()
        shares[0] = 1 - shares[0]  # the winners' shares go to the others
        return shares


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (WrongMask, "game 0: legal ids"),
        (WrongObservation, "game 0: observation for seat"),
        (WrongEnd, "game 0: ended False but reducer over True"),
        (WrongMoney, "game 0: results differ"),
        (WrongReturns, "game 0: results differ"),
    ],
)
def test_every_comparison_bites(
    monkeypatch: pytest.MonkeyPatch, broken: type[GameBatch], message: str
) -> None:
    """Each thing compared (the legal ids against ``legal_action_ids``, the observation
    against ``observation_tensor``, the end, the results against ``result``, the returns
    against ``observation.returns``) is reported when the batch gets it wrong."""
    monkeypatch.setattr(differential, "GameBatch", broken)
    with pytest.raises(Mismatch, match=message):
        play_both(3, games=2, seed=2)

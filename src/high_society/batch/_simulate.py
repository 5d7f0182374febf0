"""Uniform-random games on the batch engine's compiled rules, summed up as
``high_society.simulate.simulate`` sums up the reducer's (``simulate --engine batch``)."""

import time
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from high_society._text import short_repr
from high_society.batch import _kernels
from high_society.batch._engine import BatchError, game_seeds
from high_society.batch._layout import tables
from high_society.cards import STANDARD, GameConfig, check_players
from high_society.errors import InvalidConfigError
from high_society.simulate import SimulationStats

__all__ = ["simulate"]

MAX_COUNT = 2**63 - 1


def simulate(
    players: int,
    games: int,
    seed: int,
    *,
    config: GameConfig = STANDARD,
    clock: Callable[[], float] = time.perf_counter,
) -> SimulationStats:
    """Play ``games`` uniform-random games of ``players`` seats on the batch engine.

    The ``uniform`` policy of ``high_society.simulate.simulate``: every decision is
    uniform among all legal actions, every reveal uniform over the cards left. The games
    are played one after the other inside one compiled loop, with the same per-game rules
    as :meth:`GameBatch.step` and :meth:`GameBatch.sample_actions` (the games of a
    one-game batch seeded with ``seed``). The figures (timing aside) depend only on the
    arguments; they are not the reducer's games for the same seed (the random streams
    differ), but games of the same distribution.

    >>> stats = simulate(players=4, games=500, seed=1)
    >>> stats.games, 3 <= stats.auctions_min <= stats.auctions_max <= 15
    (500, True)

    Raises:
        InvalidConfigError: ``players`` is not 3 to 5, ``games`` is not from 0 to
            ``2**63 - 1``, or the
            config has more money cards than the batch engine plays.
        BatchError: ``seed`` is not an int from 0 to ``2**64 - 1``.
    """
    check_players(players)
    if type(games) is not int or not 0 <= games <= MAX_COUNT:
        # The compiled loop counts in 64 bits: a larger count would wrap around.
        raise InvalidConfigError(
            f"the number of games must be an int from 0 to 2**63 - 1, not {short_repr(games)}"
        )
    if type(seed) is not int:  # game_seeds takes a sequence too, and checks the range
        raise BatchError(f"a seed is an int from 0 to 2**64 - 1, not {short_repr(seed)}")
    rules = tables(config).rules
    state = _kernels.new_arrays(1, players)
    policy_rng = np.zeros(1, dtype=np.uint64)
    _kernels.seed_streams(state.rng, policy_rng, game_seeds(seed, 1))
    summary = _kernels.Summary(
        histogram=np.zeros(len(config.deck) + 1, dtype=np.int64),
        wins=np.zeros(players, dtype=np.int64),
        cast_out=np.zeros(players, dtype=np.int64),
        counts=np.zeros(4, dtype=np.int64),
        status_total=np.zeros(1, dtype=np.float64),  # sums of halves of small ints: exact
    )
    outcome = _kernels.new_outcome(1, players)
    start = clock()
    _kernels.play_uniform(games, rules, state, policy_rng, outcome, summary)
    seconds = clock() - start
    hist = summary.histogram.tolist()
    while len(hist) > 1 and not hist[-1]:
        hist.pop()
    decisions, reveals, shared_wins, no_winner = (int(x) for x in summary.counts)
    return SimulationStats(
        players=players,
        games=games,
        seed=seed,
        policy="uniform",
        actions=decisions + reveals,
        auction_histogram=tuple(hist),
        wins=tuple(int(w) for w in summary.wins),
        shared_wins=shared_wins,
        no_winner=no_winner,
        cast_out=tuple(int(x) for x in summary.cast_out),
        winning_status_total=Fraction(float(summary.status_total[0])),
        seconds=seconds,
    )

"""Many games between bots, summed up: how fast the engine plays and what the games look like.

:func:`simulate` plays ``games`` games between built-in bots and returns a
:class:`SimulationStats`: throughput (games and actions per second) and the shape of the
games (auctions per game, wins by seat, cast-out rate, winning status). Everything but the
timing depends only on the arguments, so two runs with the same seed report the same games.

With the ``uniform`` policy every decision picks uniformly among *all* legal actions (each
distinct bid once, plus ``Pass``, plus discards) and every reveal is uniform over the cards
left: the standard workload for comparing engines.

>>> stats = simulate(players=3, games=20, seed=1)
>>> stats.games, 3 <= stats.auctions_min <= stats.auctions_max <= 15
(20, True)
>>> stats == simulate(players=3, games=20, seed=1)  # timing aside, the same games
True
"""

import functools
import random
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor
from fractions import Fraction

import attrs

from high_society._text import short_repr
from high_society.bots import Bot, ClassicHeuristicBot, HeuristicBot, RandomBot
from high_society.cards import STANDARD, GameConfig, check_players
from high_society.errors import InvalidConfigError
from high_society.host import Dealer, play
from high_society.parallel import game_seed, run_chunks
from high_society.scoring import result

__all__ = ["POLICIES", "SimulationStats", "simulate"]

#: The bot policies :func:`simulate` knows: uniformly random, the built-in heuristic, or
#: the classic heuristic (:class:`~high_society.bots.ClassicHeuristicBot`).
POLICIES = ("uniform", "heuristic", "classic")


@attrs.frozen
class SimulationStats:
    """What :func:`simulate` measured. Equal for two runs with the same arguments: the
    timing (``seconds``) takes no part in comparisons.

    Attributes:
        players: seats per game.
        games: games played.
        seed: the seed the run was derived from.
        policy: ``"uniform"``, ``"heuristic"`` or ``"classic"``.
        actions: actions applied in all games, reveals included.
        auction_histogram: entry ``n`` counts the games with ``n`` auctions.
        wins: per seat, the games that seat won (alone or sharing the win, R12).
        shared_wins: games won by more than one seat.
        no_winner: games in which every seat was cast out (R10).
        cast_out: per seat, the games in which that seat was cast out (R10).
        winning_status_total: the winning status (R11) summed over games with a winner.
        seconds: wall-clock time to play and score the games.
    """

    players: int
    games: int
    seed: int
    policy: str
    actions: int
    auction_histogram: tuple[int, ...]
    wins: tuple[int, ...]
    shared_wins: int
    no_winner: int
    cast_out: tuple[int, ...]
    winning_status_total: Fraction
    seconds: float = attrs.field(eq=False)

    @property
    def games_per_second(self) -> float:
        """Games played and scored per second of wall-clock time."""
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def actions_per_second(self) -> float:
        """Actions (reveals included) chosen and applied per second of wall-clock time."""
        return self.actions / self.seconds if self.seconds > 0 else 0.0

    @property
    def actions_per_game(self) -> float:
        """Mean number of actions in a game, reveals included."""
        return self.actions / self.games if self.games else 0.0

    @property
    def auctions_mean(self) -> float:
        """Mean number of auctions per game (12.6 for the standard deck, whatever the play)."""
        total = sum(n * count for n, count in enumerate(self.auction_histogram))
        return total / self.games if self.games else 0.0

    @property
    def auctions_min(self) -> int:
        """Fewest auctions in one game (0 when no game was played)."""
        return next((n for n, count in enumerate(self.auction_histogram) if count), 0)

    @property
    def auctions_max(self) -> int:
        """Most auctions in one game (0 when no game was played)."""
        return max((n for n, count in enumerate(self.auction_histogram) if count), default=0)

    @property
    def win_rates(self) -> tuple[float, ...]:
        """Per seat, the fraction of games that seat won (shared wins count for each)."""
        return tuple(w / self.games if self.games else 0.0 for w in self.wins)

    @property
    def cast_out_rate(self) -> float:
        """The fraction of seats cast out, over all games (R10)."""
        seats = self.games * self.players
        return sum(self.cast_out) / seats if seats else 0.0

    @property
    def mean_winning_status(self) -> float | None:
        """The winners' status (R11) averaged over the games that had a winner, or ``None``."""
        won = self.games - self.no_winner
        return float(self.winning_status_total / won) if won else None

    def as_dict(self) -> dict[str, object]:
        """The figures as plain JSON values (what ``simulate --json`` prints)."""
        return {
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "policy": self.policy,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "actions": self.actions,
            "actions_per_second": self.actions_per_second,
            "actions_per_game": self.actions_per_game,
            "auctions": {
                "mean": self.auctions_mean,
                "min": self.auctions_min,
                "max": self.auctions_max,
                "histogram": list(self.auction_histogram),
            },
            "wins": list(self.wins),
            "win_rates": list(self.win_rates),
            "shared_wins": self.shared_wins,
            "no_winner": self.no_winner,
            "cast_out": list(self.cast_out),
            "cast_out_rate": self.cast_out_rate,
            "mean_winning_status": self.mean_winning_status,
        }


def _bots(policy: str, players: int, rng: random.Random) -> list[Bot]:
    if policy == "uniform":
        return [RandomBot(rng.getrandbits(64)) for _ in range(players)]
    if policy == "classic":
        return [ClassicHeuristicBot(rng.getrandbits(64)) for _ in range(players)]
    return [HeuristicBot(rng.getrandbits(64)) for _ in range(players)]


def simulate(
    players: int,
    games: int,
    seed: int,
    policy: str = "uniform",
    *,
    config: GameConfig = STANDARD,
    clock: Callable[[], float] = time.perf_counter,
    jobs: int = 1,
    executor: Executor | None = None,
    workers: int | None = None,
) -> SimulationStats:
    """Play ``games`` games of ``players`` seats between ``policy`` bots; sum them up.

    Game ``i`` deals its own bots and :class:`~high_society.host.Dealer`, seeded from ``(seed,
    i)`` alone (:func:`~high_society.parallel.game_seed`), so the figures (timing aside)
    depend only on the arguments, not on ``jobs`` (local processes) or ``executor`` (any
    :class:`concurrent.futures.Executor`, ``workers`` its size; see
    :func:`~high_society.parallel.run_chunks`). Each game is played with
    :func:`~high_society.host.play` (legality checked) and scored with
    :func:`~high_society.result`; both count in the timing.

    Raises:
        InvalidConfigError: ``players`` is not 3 to 5, ``games`` is negative, ``policy``
            is not one of :data:`POLICIES`, ``jobs`` is not an int >= 0, or ``workers`` is
            not an int >= 1 or ``None``.
    """
    check_players(players)
    if type(games) is not int or games < 0:
        raise InvalidConfigError(
            f"the number of games must be an int >= 0, not {short_repr(games)}"
        )
    if policy not in POLICIES:
        raise InvalidConfigError(f"unknown policy {short_repr(policy)}: expected one of {POLICIES}")
    task = functools.partial(_play_games, players, seed, policy, config)
    start = clock()
    parts = run_chunks(task, games, jobs=jobs, executor=executor, workers=workers)
    seconds = clock() - start
    histogram = [0] * (len(config.deck) + 1)
    for part in parts:
        for n, count in enumerate(part.auction_histogram):
            histogram[n] += count
    while len(histogram) > 1 and not histogram[-1]:
        histogram.pop()
    return SimulationStats(
        players=players,
        games=games,
        seed=seed,
        policy=policy,
        actions=sum(part.actions for part in parts),
        auction_histogram=tuple(histogram),
        wins=tuple(map(sum, zip(*(part.wins for part in parts), strict=True)))
        if parts
        else (0,) * players,
        shared_wins=sum(part.shared_wins for part in parts),
        no_winner=sum(part.no_winner for part in parts),
        cast_out=tuple(map(sum, zip(*(part.cast_out for part in parts), strict=True)))
        if parts
        else (0,) * players,
        winning_status_total=sum((part.winning_status_total for part in parts), Fraction(0)),
        seconds=seconds,
    )


def _play_games(
    players: int, seed: int, policy: str, config: GameConfig, indexes: range
) -> SimulationStats:
    """Games ``indexes`` of a run, summed up (``seconds`` is 0: the caller times the run)."""
    histogram = [0] * (len(config.deck) + 1)
    wins = [0] * players
    cast_out = [0] * players
    shared_wins = no_winner = actions = 0
    winning_status = Fraction(0)
    for index in indexes:
        rng = random.Random(game_seed(seed, index))
        bots = _bots(policy, players, rng)
        dealer = Dealer(rng.getrandbits(64))
        # Only the count and the last step are kept: enumerate and deque run the loop in C.
        played, last = deque(enumerate(play(bots, dealer=dealer, config=config), 1), maxlen=1)[0]
        actions += played
        state = last.after
        histogram[state.auctions_started] += 1
        outcome = result(state)
        for seat in outcome.cast_out:
            cast_out[seat] += 1
        if outcome.winners:
            for seat in outcome.winners:
                wins[seat] += 1
            shared_wins += len(outcome.winners) > 1
            winning_status += outcome.scores[outcome.winners[0]]
        else:
            no_winner += 1
    return SimulationStats(
        players=players,
        games=len(indexes),
        seed=seed,
        policy=policy,
        actions=actions,
        auction_histogram=tuple(histogram),
        wins=tuple(wins),
        shared_wins=shared_wins,
        no_winner=no_winner,
        cast_out=tuple(cast_out),
        winning_status_total=winning_status,
        seconds=0.0,
    )

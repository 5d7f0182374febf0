"""The search bot against OpenSpiel's ``MCTSBot`` at equal CPU time per decision.

    nice -n 10 python -m benchmarks.search_vs_mcts --games 240 --seconds 0.07 --jobs 2

Four players: :class:`~high_society.search.SearchBot`, OpenSpiel's ``MCTSBot`` and two
:class:`~high_society.bots.ClassicHeuristicBot` s (the heuristic bot of the package when
the run in docs/bots.md was recorded; the search bot rolls out with it too). The game is the
OpenSpiel one
(:mod:`high_society.openspiel`), so ``MCTSBot`` searches it as any OpenSpiel game; the
library's bots choose on the library's state inside it.

**Equal time.** Each searcher gets the same budget of CPU time per decision, ``--seconds``,
measured by :func:`time.thread_time` (the CPU time of the thread that searches, which a busy
machine does not inflate): the search bot through its own knobs (``simulations=None``,
``seconds``, ``clock=time.thread_time``); ``MCTSBot``, which only knows a number of
simulations, by a subclass that ends its search once the budget is spent (below). Both stop
at the first simulation that ends past the budget. The report gives both bots' measured
CPU time per decision. The search bot plays a decision with a single candidate (only Pass)
at once; ``MCTSBot`` spends its budget there too: the budget is the same, what each makes of
it is its own.

**Seating.** Every game has one of the 12 placements of the two searchers among the four
seats (the heuristic bots take the other two), in turn, so over a multiple of 12 games
each searcher sits in every seat equally often and after the other as often as before it
(the seat just after a strong bot is measurably worse, docs/bots.md). The report uses the
whole blocks of 12 that finished.

**MCTSBot's configuration.** ``--evaluator heuristic`` (the default) is the strongest one
the documentation shows (examples/openspiel_mcts.py): PUCT with a prior on Pass, the
cheapest bids and the heuristic's choice, and rollouts by the heuristic bot on the
library's state. ``--evaluator random`` is plain UCT with random rollouts, OpenSpiel's
generic setting (uct_c 2).

The win rate counts a shared win (R12) for each winner, as ``high-society tournament`` does,
with a Wilson 95% interval; the paired difference (search bot's share of the win minus
MCTSBot's, per game) has a normal 95% interval. Results are written one game a line to
``--out`` as they finish, so a run cut short keeps its games (``--report-only`` reads them).
The budgets are CPU time, so a run is not reproducible to the move (the clock decides when a
search stops); the seating, deals and seeds are.

Needs the extra: ``pip install '.[openspiel]'`` in a clone of the project. Not part of CI.
"""

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from examples.openspiel_mcts import HeuristicEvaluator
from high_society.bots import ClassicHeuristicBot
from high_society.encoding import action_id
from high_society.openspiel import SHORT_NAME, game_state
from high_society.parallel import game_seed
from high_society.search import SearchBot
from high_society.tournament import wilson_interval

PLAYERS = 4
#: (search bot's seat, MCTSBot's seat) of game ``i`` is ``PLACEMENTS[i % 12]``.
PLACEMENTS = tuple((s, m) for s in range(PLAYERS) for m in range(PLAYERS) if s != m)
#: More simulations than any budget here allows: the CPU budget ends every search.
SIMULATION_CAP = 10**7


class TimedMCTSBot(mcts.MCTSBot):  # type: ignore[misc]  # OpenSpiel has no type hints
    """OpenSpiel's ``MCTSBot`` with a CPU-time budget per decision instead of a count.

    ``MCTSBot.mcts_search`` runs ``max_simulations`` simulations and stops early once the
    root has an ``outcome`` (a solved root). Each simulation starts with
    ``_apply_tree_policy(root, state)``; once the budget is spent, this marks the root as
    solved there, so the search ends after that simulation. With ``solve=False`` nothing
    else reads the root's outcome: the move is still the most visited child
    (``best_child``). Written against open_spiel 2.0.
    """

    def __init__(self, game: pyspiel.Game, seconds: float, **kwargs: object) -> None:
        super().__init__(game, max_simulations=SIMULATION_CAP, solve=False, **kwargs)
        self.seconds = seconds
        self.deadline = 0.0
        self.last_simulations = 0

    def step_with_policy(self, state: pyspiel.State) -> tuple[list[tuple[int, float]], int]:
        self.deadline = time.thread_time() + self.seconds
        self.last_simulations = 0
        return super().step_with_policy(state)  # type: ignore[no-any-return]

    def _apply_tree_policy(
        self, root: mcts.SearchNode, state: pyspiel.State
    ) -> tuple[list[mcts.SearchNode], pyspiel.State]:
        self.last_simulations += 1
        if time.thread_time() >= self.deadline:
            root.outcome = [0.0] * PLAYERS  # ends the loop after this simulation
        return super()._apply_tree_policy(root, state)  # type: ignore[no-any-return]


def make_mcts(game: pyspiel.Game, seconds: float, evaluator: str, seed: int) -> TimedMCTSBot:
    """MCTSBot as examples/openspiel_mcts.py configures it, with a CPU budget."""
    if evaluator == "heuristic":
        chosen: mcts.Evaluator = HeuristicEvaluator(seed)
        select = mcts.SearchNode.puct_value
    else:
        chosen = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed % 2**32))
        select = mcts.SearchNode.uct_value
    return TimedMCTSBot(
        game,
        seconds,
        uct_c=2.0,
        evaluator=chosen,
        random_state=np.random.RandomState(seed % 2**32),
        child_selection_fn=select,
    )


@dataclass(frozen=True)
class Played:
    """One game of the run: where the searchers sat, the returns, and for each searcher
    (``"search"``, ``"mcts"``) its CPU seconds and simulations per decision."""

    index: int
    search_seat: int
    mcts_seat: int
    returns: list[float]
    seconds: dict[str, list[float]]
    simulations: dict[str, list[int]]

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, line: str) -> "Played":
        return cls(**json.loads(line))


def play_game(index: int, seed: int, seconds: float, evaluator: str) -> Played:
    """Game ``index`` of the run: placement ``index % 12``, seeds from ``(seed, index)``."""
    search_seat, mcts_seat = PLACEMENTS[index % len(PLACEMENTS)]
    game = pyspiel.load_game(SHORT_NAME, {"players": PLAYERS})
    search = SearchBot(
        game_seed(seed, index, 1),
        simulations=None,
        seconds=seconds,
        rollout="classic",
        clock=time.thread_time,
    )
    searcher = make_mcts(game, seconds, evaluator, game_seed(seed, index, 2))
    heuristic = {
        seat: ClassicHeuristicBot(game_seed(seed, index, 3 + seat))
        for seat in range(PLAYERS)
        if seat not in (search_seat, mcts_seat)
    }
    dealer = random.Random(game_seed(seed, index, 0))
    times: dict[str, list[float]] = {"search": [], "mcts": []}
    simulations: dict[str, list[int]] = {"search": [], "mcts": []}
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(dealer.choices(outcomes, weights)[0])
            continue
        seat = state.current_player()
        if seat in heuristic:
            state.apply_action(action_id(heuristic[seat].choose(game_state(state))))
            continue
        start = time.thread_time()
        if seat == search_seat:
            action = action_id(search.choose(game_state(state)))
            name, runs = "search", search.last_simulations
        else:
            action = searcher.step(state)
            name, runs = "mcts", searcher.last_simulations
        times[name].append(time.thread_time() - start)
        simulations[name].append(runs)
        state.apply_action(action)
    returns = [float(r) for r in state.returns()]
    return Played(index, search_seat, mcts_seat, returns, times, simulations)


def _play(task: tuple[int, int, float, str]) -> str:
    return play_game(*task).to_json()


def run(games: int, seed: int, seconds: float, evaluator: str, jobs: int) -> Iterator[str]:
    """The games' result lines (JSON), in game order, played by ``jobs`` processes."""
    tasks = [(i, seed, seconds, evaluator) for i in range(games)]
    if jobs == 1:
        yield from map(_play, tasks)
        return
    with ProcessPoolExecutor(jobs) as pool:
        yield from pool.map(_play, tasks)


def report(lines: Sequence[str], seconds: float, evaluator: str) -> str:
    """The table of the whole blocks of 12 games in ``lines``."""
    games = [Played.from_json(line) for line in lines]
    games = games[: len(games) - len(games) % len(PLACEMENTS)]
    n = len(games)
    if n == 0:
        return "no whole block of 12 games yet"
    out = [
        f"{n} games, 4 players (search bot, MCTSBot with {evaluator} rollouts, 2 heuristic "
        f"bots; all 12 placements in turn), {seconds * 1000:.0f} ms CPU per decision each",
        "",
        f"{'bot':<11}{'wins':>7}{'95% interval':>16}{'share':>8}"
        f"{'ms/move':>9}{'max ms':>8}{'sims/move':>11}",
        "-" * 70,
    ]
    for name, key in (("search", "search"), ("MCTSBot", "mcts")):
        shares = [g.returns[g.search_seat if key == "search" else g.mcts_seat] for g in games]
        wins = sum(share > 0 for share in shares)
        low, high = wilson_interval(wins, n)
        taken = [t for g in games for t in g.seconds[key]]
        sims = [s for g in games for s in g.simulations[key]]
        out.append(
            f"{name:<11}{wins / n:>7.1%}{f'{low:.1%}-{high:.1%}':>16}"
            f"{statistics.fmean(shares):>8.3f}{1000 * statistics.fmean(taken):>9.1f}"
            f"{1000 * max(taken):>8.1f}{statistics.fmean(sims):>11.0f}"
        )
    others = [r for g in games for seat, r in enumerate(g.returns) if seat not in _searchers(g)]
    wins = sum(r > 0 for r in others)
    low, high = wilson_interval(wins, len(others))
    out.append(
        f"{'heuristic':<11}{wins / len(others):>7.1%}{f'{low:.1%}-{high:.1%}':>16}"
        f"{statistics.fmean(others):>8.3f}  (the two heuristic seats together)"
    )
    differences = [g.returns[g.search_seat] - g.returns[g.mcts_seat] for g in games]
    mean = statistics.fmean(differences)
    half = 1.959964 * statistics.stdev(differences) / math.sqrt(n)
    nobody = sum(sum(g.returns) == 0 for g in games)
    out += [
        "",
        f"search bot minus MCTSBot, share of the win per game: {mean:+.3f} "
        f"(95% interval {mean - half:+.3f} to {mean + half:+.3f})",
        f"no winner (all cast out) in {nobody} games; wins: a shared win counts for each "
        "winner (Wilson interval); share: mean return; ms/move: CPU per decision",
    ]
    return "\n".join(out)


def _searchers(game: Played) -> tuple[int, int]:
    return (game.search_seat, game.mcts_seat)


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=240)
    parser.add_argument("--seconds", type=float, default=0.07, help="CPU s per decision")
    parser.add_argument("--evaluator", choices=["heuristic", "random"], default="heuristic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("search_vs_mcts.jsonl"))
    parser.add_argument("--report-only", action="store_true", help="report --out's games")
    args = parser.parse_args(argv)
    if not args.report_only:
        start = time.perf_counter()
        with args.out.open("w", encoding="utf-8") as out:
            for done, line in enumerate(
                run(args.games, args.seed, args.seconds, args.evaluator, args.jobs), 1
            ):
                out.write(line + "\n")
                out.flush()
                if done % 12 == 0:
                    wall = time.perf_counter() - start
                    print(f"{done} games, {wall:.0f} s", file=sys.stderr, flush=True)
    lines = args.out.read_text(encoding="utf-8").splitlines()
    print(report(lines, args.seconds, args.evaluator))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Throughput report: the figures of docs/performance.md, as Markdown.

    python3 tasks.py bench            # the pytest-benchmark suite, then this report
    .venv/bin/python -m benchmarks.report [--quick] [--figures docs/figures/engine.json]

Every figure is measured several times in this one process, in CPU time of the process
(``time.process_time``), so that time spent waiting for a core shared with other work is
not counted; the report gives the best and the median. The best is the one to compare
across machines (other processes only ever slow a run down); the median shows how loaded
the machine was.
"""

import argparse
import gc
import pickle
import platform
import statistics
import sys
import time
import timeit
from collections.abc import Callable
from functools import partial

from benchmarks.figures import Recorder, table
from benchmarks.scenarios import facing_bid, hand_of, mid_game, random_game
from high_society import Action, GameState, Phase, apply, legal_actions, new_game
from high_society.bots import RandomBot
from high_society.host import Dealer
from high_society.simulate import simulate

CLOCK = time.process_time


def best_and_median(samples: list[float]) -> str:
    return f"{max(samples):,.0f} | {statistics.median(samples):,.0f}"


def repeat(rate: Callable[[], float], times: int) -> list[float]:
    return [rate() for _ in range(times)]


def play_only(players: int, games: int, seed: int) -> float:
    """Games per second without scoring: bots choose, ``apply`` checks and applies."""
    bots = [RandomBot(seed * 10 + i) for i in range(players)]
    draw = Dealer(seed).draw
    start = CLOCK()
    for _ in range(games):
        state = new_game(players)
        while (phase := state.phase) is not Phase.OVER:
            action = draw(state) if phase is Phase.REVEAL else bots[state.turn].choose(state)
            state = apply(state, action)
    return games / (CLOCK() - start)


def scored_rate(players: int, games: int) -> float:
    """Games per second through :func:`simulate`: played, scored and summed up."""
    return simulate(players, games, seed=7, clock=CLOCK).games_per_second


def replay_rate(games: list[tuple[Action, ...]], players: int) -> float:
    """Actions per second folding ``apply`` over recorded games."""
    count = sum(map(len, games))
    start = CLOCK()
    for actions in games:
        state = new_game(players)
        for action in actions:
            state = apply(state, action)
    return count / (CLOCK() - start)


def record_replay_rate(games: list[tuple[Action, ...]]) -> float | None:
    """Actions per second through ``high_society.record.replay`` (records built first)."""
    try:
        from high_society import record
    except ImportError:  # the records module is optional for this report
        return None
    records = [record.GameRecord(["A", "B", "C", "D"], list(a)) for a in games]
    count = sum(map(len, games))
    start = CLOCK()
    for rec in records:
        record.replay(rec)
    return count / (CLOCK() - start)


def draw_middle(state: GameState) -> Action:
    legal = legal_actions(state)
    return legal[len(legal) // 2]


def micro(func: Callable[[], object], number: int = 2000, times: int = 7) -> float:
    """Best time of one call, in microseconds."""
    return min(timeit.repeat(func, number=number, repeat=times)) / number * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats (a smoke run)")
    parser.add_argument("--figures", metavar="PATH", help="also write the figures to PATH (JSON)")
    args = parser.parse_args(argv)
    shown = " ".join(sys.argv[1:] if argv is None else argv)
    record = Recorder(args.figures, f"python -m benchmarks.report {shown}".strip())
    rows: list[list[int | float | str]] = []
    times, games = (3, 100) if args.quick else (15, 200)
    print(f"Python {platform.python_version()} on {platform.machine()}, ", end="")
    print(f"{times} runs each (best | median), CPU time; GC on, as in real use\n")

    start = CLOCK()
    cold = simulate(4, 1000, seed=12345, clock=CLOCK)
    record["cold_start_cpu_s"] = round(CLOCK() - start, 2)
    print(
        f"Cold start (fresh process, bid tables built on the way): 1,000 four-player "
        f"uniform games in {CLOCK() - start:.2f} s of CPU time "
        f"({cold.games_per_second:,.0f} games/s)\n"
    )
    for players in (3, 4, 5):
        simulate(players, 3000 if not args.quick else 300, seed=99)  # warm every bid table

    print("| workload | best | median |")
    print("| --- | ---: | ---: |")
    for players in (3, 4, 5):
        rates = repeat(partial(scored_rate, players, games), times)
        row(rows, f"{players}-player uniform games/s, played and scored", rates)
    for players in (3, 4, 5):
        rates = repeat(partial(play_only, players, games, 7), times)
        row(rows, f"{players}-player uniform games/s, played only", rates)
    stats = simulate(4, games, seed=7)
    rates = repeat(lambda: simulate(4, games, seed=7, clock=CLOCK).actions_per_second, times)
    row(rows, "4-player uniform actions/s, played and scored", rates)
    recorded = [random_game(4, seed) for seed in range(games // 2)]
    rates = repeat(lambda: replay_rate(recorded, 4), times)
    row(rows, "replay, `apply` over recorded 4-player games, actions/s", rates)
    first = record_replay_rate(recorded)
    if first is not None:
        rates = [first] + [record_replay_rate(recorded) or 0.0 for _ in range(times - 1)]
        row(rows, "`record.replay` of the same games, actions/s", rates)
    record["throughput"] = table(["workload", "best", "median"], rows)
    record["actions_per_game"] = round(stats.actions_per_game, 1)
    print(f"\n{stats.actions_per_game:.1f} actions per 4-player uniform game, reveals included.")

    print("\nPickled size (protocol 5) of a state:\n")
    print("| state | bytes |")
    print("| --- | ---: |")
    final = new_game(4)
    for action in random_game(4, 1):
        final = apply(final, action)
    sizes: list[list[int | float | str]] = []
    for name, state in (
        ("new 4-player game", new_game(4)),
        ("mid-game", mid_game()),
        ("finished game", final),
    ):
        size = len(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
        sizes.append([name, size])
        print(f"| {name} | {size:,} |")
    record["pickled"] = table(["state", "bytes"], sizes)

    print("\n`legal_actions(state)` by the size of the hand (nothing bid yet):\n")
    print("| cards in hand | legal actions | µs per call | + draw one (µs) |")
    print("| ---: | ---: | ---: | ---: |")
    hands: list[list[int | float | str]] = []
    for size in (1, 3, 5, 7, 9, 11):
        state = hand_of(size)
        n = len(legal_actions(state))
        call = micro(partial(legal_actions, state))
        draw = micro(partial(draw_middle, state))
        hands.append([size, n, round(call, 2), round(draw, 2)])
        print(f"| {size} | {n:,} | {call:.2f} | {draw:.2f} |")
    heads = ["cards in hand", "legal actions", "µs per call", "+ draw one (µs)"]
    record["legal_by_hand"] = table(heads, hands)
    print("\n`legal_actions(state)` for a full hand facing a higher and higher bid:\n")
    print("| bid to beat | legal actions | µs per call |")
    print("| ---: | ---: | ---: |")
    facing: list[list[int | float | str]] = []
    for cards in ((1,), (25,), (10, 12, 15, 20), (1, 2, 3, 4, 6, 8, 10, 12, 15, 20)):
        state = facing_bid(cards)
        n = len(legal_actions(state))
        call = micro(partial(legal_actions, state))
        facing.append([sum(cards), n, round(call, 2)])
        print(f"| {sum(cards)} | {n:,} | {call:.2f} |")
    record["legal_facing_bid"] = table(["bid to beat", "legal actions", "µs per call"], facing)
    record.write(
        title="The reducer's throughput",
        notes=f"CPU time of the process; best and median of {times} runs each, caches warm "
        "but for the cold start (1,000 four-player games in a fresh process); `legal_actions` "
        "timings best of 7 `timeit` runs.",
    )
    gc.collect()
    return 0


def row(rows: list[list[int | float | str]], name: str, rates: list[float]) -> None:
    """Print a workload's best and median, and keep them as a row of the table."""
    rows.append([name, round(max(rates)), round(statistics.median(rates))])
    print(f"| {name} | {best_and_median(rates)} |")


if __name__ == "__main__":
    sys.exit(main())

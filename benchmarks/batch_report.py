"""Throughput of the batch engine beside the reducer, in one run: the figures of
docs/batch.md, as Markdown.

    python3 tasks.py bench-batch        # or: .venv/bin/python -m benchmarks.batch_report
    python3 tasks.py bench-batch --figures docs/figures/batch.json   # also the figure file

Each round measures every workload once, one after the other in this process, so that
both engines see the same load; rates are in CPU time of the process
(``time.process_time``). The report gives, per workload, the best and the median over the
rounds and the median of the per-round ratios to the reducer. The cold start (numba
compiling every kernel into an empty cache) is measured in a fresh process.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

import numpy as np

from benchmarks.figures import Recorder, table
from high_society.batch import GameBatch, VectorEnv
from high_society.batch import simulate as batch_simulate
from high_society.simulate import simulate

CLOCK = time.process_time
PLAYERS = 4


def reducer_games(games: int, seed: int) -> float:
    """``high_society.simulate.simulate``: uniform games played and scored by the reducer."""
    return simulate(PLAYERS, games, seed, clock=CLOCK).games_per_second


def reducer_decisions(games: int, seed: int) -> float:
    """The same, counted in decisions (bids, passes, discards; reveals left out) per second."""
    stats = simulate(PLAYERS, games, seed, clock=CLOCK)
    reveals = sum((n + 1) * count for n, count in enumerate(stats.auction_histogram))
    return (stats.actions - reveals) / stats.seconds


def fused_games(games: int, seed: int) -> float:
    """``high_society.batch.simulate``: the whole loop compiled (the engine's ceiling)."""
    return batch_simulate(PLAYERS, games, seed, clock=CLOCK).games_per_second


def lockstep_games(games: int, seed: int, size: int = 2048) -> float:
    """Uniform games through ``GameBatch.step`` from Python, ``size`` at a time, finished
    games reset at once, and scored (``results``) when they end."""
    batch = GameBatch(size, PLAYERS, seed=seed)
    actions = np.empty(size, dtype=np.int64)
    start = CLOCK()
    started, finished = size, 0
    while finished < games:
        ended = batch.step(batch.sample_actions(out=actions))
        if ended.any():
            batch.results()
            finished += int(ended.sum())
            again = np.flatnonzero(ended)[: max(0, games - started)]
            started += len(again)
            batch.reset_games(again)
    return finished / (CLOCK() - start)


def masked_steps(steps: int, seed: int, size: int = 1024) -> float:
    """Decisions per second through ``legal_action_mask`` + ``sample_actions`` + ``step``
    (+ ``reset_games``): the RL loop with masks, reusing the mask buffer."""
    batch = GameBatch(size, PLAYERS, seed=seed)
    mask = np.empty((size, batch.num_actions), dtype=np.int8)
    actions = np.empty(size, dtype=np.int64)
    done = 0
    start = CLOCK()
    while done < steps:
        batch.legal_action_mask(out=mask)
        ended = batch.step(batch.sample_actions(out=actions))
        done += size
        batch.reset_games(ended)
    return done / (CLOCK() - start)


def vector_env_steps(steps: int, seed: int, size: int = 1024) -> float:
    """Decisions per second through ``VectorEnv.step``: fresh observation and mask arrays
    every step, returns of finished games, same-step reset."""
    env = VectorEnv(size, PLAYERS, seed=seed)
    env.reset()
    done = 0
    start = CLOCK()
    while done < steps:
        env.step(env.batch.sample_actions())
        done += size
    return done / (CLOCK() - start)


def kernel_costs(size: int = 50_000, steps: int = 60) -> dict[str, float]:
    """CPU nanoseconds per game for each call of ``GameBatch`` that runs a kernel, over
    ``steps`` steps of uniform play in one batch of ``size`` games (finished games reset)."""
    batch = GameBatch(size, PLAYERS, seed=1)
    mask = np.empty((size, batch.num_actions), dtype=np.int8)
    actions = np.empty(size, dtype=np.int64)
    calls: dict[str, Callable[[], object]] = {
        "legal_action_mask": lambda: batch.legal_action_mask(out=mask),
        "sample_actions": lambda: batch.sample_actions(out=actions),
        "step": lambda: batch.step(actions),
        "results": batch.results,
        "observations": batch.observations,
    }
    seconds = dict.fromkeys(calls, 0.0)
    for _ in range(steps):
        for name, call in calls.items():
            start = CLOCK()
            call()
            seconds[name] += CLOCK() - start
        batch.reset_games(batch.is_over)
    return {name: total / steps / size * 1e9 for name, total in seconds.items()}


COLD = """
import time
start = time.process_time()
from high_society.batch import GameBatch, VectorEnv, simulate
env = VectorEnv(4, 4)
env.step(env.batch.sample_actions())
env.batch.results()
simulate(4, 10, 1)
print(time.process_time() - start)
"""


def cold_start() -> tuple[float, float]:
    """CPU seconds to import and run every kernel once: with an empty numba cache (a
    fresh clone), then again with the cache that run wrote."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        runs = [
            float(
                subprocess.run(
                    [sys.executable, "-c", COLD],
                    env=env,
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout
            )
            for _ in range(2)
        ]
    return runs[0], runs[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="small workloads (a smoke run)")
    parser.add_argument("--figures", metavar="PATH", help="also write the figures to PATH (JSON)")
    args = parser.parse_args(argv)
    shown = " ".join(sys.argv[1:] if argv is None else argv)
    record = Recorder(args.figures, f"python3 tasks.py bench-batch {shown}".strip())
    scale = 10 if args.quick else 1
    workloads: dict[str, tuple[str, Callable[[int], float]]] = {
        "reducer": ("reducer: `simulate`, games/s", lambda s: reducer_games(1500 // scale, s)),
        "reducer-decisions": (
            "reducer: `simulate`, decisions/s",
            lambda s: reducer_decisions(1500 // scale, s),
        ),
        "fused": (
            "batch: `batch.simulate` (compiled loop), games/s",
            lambda s: fused_games(200_000 // scale, s),
        ),
        "lockstep": (
            "batch: `GameBatch.step` from Python, 2,048 at a time, games/s",
            lambda s: lockstep_games(50_000 // scale, s),
        ),
        "masked": (
            "batch: mask + sample + `step`, 1,024 at a time, decisions/s",
            lambda s: masked_steps(1_000_000 // scale, s),
        ),
        "vector": (
            "batch: `VectorEnv.step` (observations + masks), decisions/s",
            lambda s: vector_env_steps(500_000 // scale, s),
        ),
    }
    for _, run in workloads.values():  # compile or load every kernel before timing
        run(1)
    load = os.getloadavg()[0]
    rates: dict[str, list[float]] = {name: [] for name in workloads}
    for round_ in range(args.rounds):
        for name, (_, run) in workloads.items():
            rates[name].append(run(100 + round_))
    after = os.getloadavg()[0]
    print(f"load average: {load:.1f} before, {after:.1f} after; {args.rounds} rounds\n")
    print("| workload | best | median | x the reducer (median of per-round ratios) |")
    print("| --- | ---: | ---: | ---: |")
    rows: list[list[int | float | str]] = []
    for name, (label, _) in workloads.items():
        # Games against the reducer's games, decisions against its decisions.
        base = rates["reducer" if label.endswith("games/s") else "reducer-decisions"]
        ratios = [r / b for r, b in zip(rates[name], base, strict=True)]
        print(
            f"| {label} | {max(rates[name]):,.0f} | {statistics.median(rates[name]):,.0f} "
            f"| {statistics.median(ratios):,.1f} |"
        )
        ratio = round(statistics.median(ratios), 1)
        rows.append([label, round(max(rates[name])), round(statistics.median(rates[name])), ratio])
    heads = ["workload", "best", "median", "x the reducer"]
    record["throughput"] = table(heads, rows)
    costs = kernel_costs(size=50_000 // scale)
    print("\n| call (4 players, 50,000 games) | CPU ns a game |\n| --- | ---: |")
    for name, ns in costs.items():
        print(f"| `{name}` | {ns:,.0f} |")
    calls: list[list[int | float | str]] = [[f"`{n}`", round(ns)] for n, ns in costs.items()]
    record["kernel_ns"] = table(["call (4 players, 50,000 games)", "CPU ns a game"], calls)
    cold, warm = cold_start()
    print(f"\ncold start (empty numba cache): {cold:.1f} CPU s; with the cache: {warm:.1f} CPU s")
    record["cold_start_cpu_s"] = round(cold, 1)
    record["warm_start_cpu_s"] = round(warm, 1)
    record.write(
        title="The batch engine beside the reducer",
        notes=f"Four players, uniform play, {args.rounds} rounds in one process, CPU time; x "
        "the reducer: the median of the per-round ratios (games against the reducer's games, "
        "decisions against its decisions). Cold start: every kernel compiled into an empty "
        "numba cache, in a fresh process; then again with that cache.",
        distributions=("numpy", "numba"),
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

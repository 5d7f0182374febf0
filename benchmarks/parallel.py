"""Parallel speed-up and the Dask executor's overhead: the figures of docs/performance.md.

    .venv/bin/python -m benchmarks.parallel [--games 10000] [--rounds 3]

Wall-clock time (parallelism is about wall time), measured in rounds that alternate the
variants, so that a change in the machine's load hits them alike; the report gives the
best and the median round of each, and the load average before and after.
"""

import argparse
import os
import resource
import statistics
import time
from concurrent.futures import Executor

from high_society.simulate import SimulationStats, simulate


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(
    games: int, jobs: int = 1, executor: Executor | None = None, workers: int | None = None
) -> tuple[float, SimulationStats]:
    """Wall seconds to simulate ``games`` four-player uniform games (seed 1), and the stats."""
    start = time.perf_counter()
    stats = simulate(4, games, seed=1, jobs=jobs, executor=executor, workers=workers)
    return time.perf_counter() - start, stats


def cpu_of(games: int, jobs: int) -> tuple[float, float]:
    """CPU seconds of this process and of its (finished) child processes for one run."""
    here, children = time.process_time(), children_cpu()
    simulate(4, games, seed=1, jobs=jobs)
    return time.process_time() - here, children_cpu() - children


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--dask-games", type=int, default=2_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}, {os.cpu_count()} CPUs")

    # --jobs 1 against --jobs 2, the same games (checked).
    one, two = [], []
    for _ in range(args.rounds):
        seconds_one, stats_one = timed(args.games)
        seconds_two, stats_two = timed(args.games, jobs=2)
        assert stats_one == stats_two
        one.append(seconds_one)
        two.append(seconds_two)
    print(f"{args.games} four-player uniform games, wall seconds, best | median of {args.rounds}")
    print(f"  jobs 1: {min(one):.2f} | {statistics.median(one):.2f}")
    print(f"  jobs 2: {min(two):.2f} | {statistics.median(two):.2f}")
    print(
        f"  speed-up: best {min(one) / min(two):.2f}x, "
        f"median {statistics.median(one) / statistics.median(two):.2f}x"
    )
    # The same runs in CPU time, which a busy machine does not inflate: with two free cores
    # the two workers run side by side, so the wall time would be about parent + children/2.
    alone, _ = cpu_of(args.games, 1)
    parent, children = cpu_of(args.games, 2)
    print(
        f"  CPU seconds: jobs 1 {alone:.2f}; jobs 2 {parent:.2f} here + {children:.2f} in the "
        f"workers; speed-up on two free cores about {alone / (parent + children / 2):.2f}x"
    )

    from distributed import Client, LocalCluster

    games = args.dask_games
    for workers in (1, 2):
        with (
            LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0"
            ) as cluster,
            Client(cluster) as client,  # type: ignore[no-untyped-call]
        ):
            executor = client.get_executor()
            simulate(4, 20, seed=1, executor=executor, workers=workers)  # warm the workers
            local, dask = [], []
            for _ in range(args.rounds):
                seconds_local, stats_local = timed(games, jobs=workers)
                seconds_dask, stats_dask = timed(games, executor=executor, workers=workers)
                assert stats_local == stats_dask
                local.append(seconds_local)
                dask.append(seconds_dask)
        extra = (statistics.median(dask) - statistics.median(local)) / games
        print(
            f"{games} games, {workers} Dask worker process(es) against --jobs {workers}: "
            f"local {min(local):.2f} | {statistics.median(local):.2f} s, "
            f"Dask {min(dask):.2f} | {statistics.median(dask):.2f} s; "
            f"overhead per game (medians) {1e6 * extra:.0f} µs, "
            f"per chunk {1e3 * extra * games / (8 * workers):.1f} ms"
        )
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()

"""Games spread over processes and clusters give the same results as games played here.

The Dask test starts a small local cluster (``distributed.LocalCluster``, in this process,
loopback only) and plays through ``Client.get_executor()``: the same executor a real
cluster gives (docs/bots.md).
"""

import functools
import json
from collections.abc import Iterator
from concurrent.futures import Executor, ThreadPoolExecutor

import pytest

from high_society import InvalidConfigError
from high_society.bots import HeuristicBot, RandomBot
from high_society.cli import main
from high_society.parallel import check_jobs, game_seed, run_chunks, split
from high_society.search import SearchBot
from high_society.simulate import SimulationStats, simulate
from high_society.tournament import Entrant, TournamentResult, tournament

LINEUP = (
    Entrant("search@3", functools.partial(SearchBot, simulations=3)),
    Entrant("heuristic", HeuristicBot),
    Entrant("random", RandomBot),
    Entrant("heuristic", HeuristicBot),
)
GAMES = 8


@pytest.fixture(scope="module")
def one_job() -> TournamentResult:
    return tournament(LINEUP, GAMES, seed=9)


def test_two_jobs_give_the_same_table_as_one(one_job: TournamentResult) -> None:
    assert tournament(LINEUP, GAMES, seed=9, jobs=2) == one_job


def test_any_executor_gives_the_same_table(one_job: TournamentResult) -> None:
    with ThreadPoolExecutor(3) as pool:
        assert tournament(LINEUP, GAMES, seed=9, executor=pool, workers=3) == one_job


@pytest.fixture(scope="module")
def simulated_here() -> SimulationStats:
    return simulate(4, 60, seed=3, policy="heuristic")


def test_simulate_gives_the_same_figures_with_two_jobs(simulated_here: SimulationStats) -> None:
    assert simulate(4, 60, seed=3, policy="heuristic", jobs=2) == simulated_here


def test_the_commands_print_the_same_figures_with_two_jobs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    timing = {"seconds", "games_per_second", "actions_per_second"}
    printed = []
    for jobs in ("1", "2"):
        assert main(["simulate", "--games", "20", "--jobs", jobs, "--json"]) == 0
        figures = json.loads(capsys.readouterr().out)
        printed.append({k: v for k, v in figures.items() if k not in timing})
    assert printed[0] == printed[1]
    tables = []
    for jobs in ("1", "2"):
        argv = ["tournament", "random", "heuristic", "search@2", "--games", "6", "--json"]
        assert main([*argv, "--jobs", jobs]) == 0
        table = json.loads(capsys.readouterr().out)
        del table["seconds"]
        for row in table["bots"]:
            del row["seconds_per_decision"], row["max_seconds_per_decision"]
        tables.append(table)
    assert tables[0] == tables[1]


# The local processes above are forked before the cluster below starts its threads.
@pytest.fixture(scope="module")
def dask_executor() -> Iterator[Executor]:
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=False,
            # Any free port: with None the scheduler's HTTP server still asks for 8787, and
            # on a machine where that is taken it warns (an error here) and the test fails.
            dashboard_address=":0",
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client.get_executor()


def test_a_dask_cluster_gives_the_same_table(
    one_job: TournamentResult, dask_executor: Executor
) -> None:
    assert tournament(LINEUP, GAMES, seed=9, executor=dask_executor, workers=2) == one_job


def test_simulate_gives_the_same_figures_on_a_dask_cluster(
    simulated_here: SimulationStats, dask_executor: Executor
) -> None:
    assert simulate(4, 60, seed=3, policy="heuristic", executor=dask_executor) == simulated_here


def test_the_chunking_does_not_change_the_games() -> None:
    parts = [simulate(3, n, seed=5) for n in (0, 1, 7)]
    assert [p.games for p in parts] == [0, 1, 7]
    # A run's first games are the games of a shorter run with the same seed.
    longer = run_chunks(functools.partial(_seeds, 5), 7, jobs=1)
    assert [s for chunk in longer for s in chunk] == [game_seed(5, i) for i in range(7)]


def _seeds(seed: int, indexes: range) -> list[int]:
    return [game_seed(seed, i) for i in indexes]


def test_game_seeds_differ_by_seed_index_and_stream() -> None:
    seeds = {game_seed(s, i, k) for s in range(3) for i in range(3) for k in range(3)}
    assert len(seeds) == 27
    assert all(0 <= s < 2**64 for s in seeds)
    # SHA-256 of a fixed text: the same in every process, on every machine, in every run.
    assert game_seed(1, 2, 3) == 0xD3FD4F36F793E0DE


@pytest.mark.parametrize("value", [1.0, "1", None])
def test_game_seed_refuses_what_is_not_an_int(value: object) -> None:
    with pytest.raises(InvalidConfigError):
        game_seed(value, 0)  # type: ignore[arg-type]


@pytest.mark.parametrize(("count", "pieces"), [(0, 4), (1, 4), (10, 3), (10, 10), (10, 20), (7, 1)])
def test_split_covers_the_range_in_order_with_balanced_chunks(count: int, pieces: int) -> None:
    chunks = split(count, pieces)
    assert [i for chunk in chunks for i in chunk] == list(range(count))
    assert all(len(chunk) > 0 for chunk in chunks)
    assert len(chunks) <= max(1, pieces)
    if chunks:
        assert max(map(len, chunks)) - min(map(len, chunks)) <= 1


def test_run_chunks_reports_progress_and_keeps_chunk_order() -> None:
    done: list[int] = []
    with ThreadPoolExecutor(2) as pool:
        results = run_chunks(list, 30, executor=pool, workers=2, progress=done.append)
    assert [i for chunk in results for i in chunk] == list(range(30))
    assert sum(done) == 30


def test_run_chunks_raises_the_first_failure() -> None:
    with ThreadPoolExecutor(2) as pool, pytest.raises(ZeroDivisionError):
        run_chunks(_fail, 10, executor=pool)


def _fail(indexes: range) -> None:
    raise ZeroDivisionError(indexes)


@pytest.mark.parametrize("jobs", [-1, 1.5, "2", True])
def test_bad_job_counts_are_refused(jobs: object) -> None:
    with pytest.raises(InvalidConfigError, match="jobs"):
        check_jobs(jobs)
    with pytest.raises(InvalidConfigError, match="jobs"):
        simulate(3, 1, seed=1, jobs=jobs)  # type: ignore[arg-type]


def test_zero_jobs_means_one_per_cpu() -> None:
    assert check_jobs(0) >= 1
    assert check_jobs(3) == 3


def test_run_chunks_refuses_a_negative_count() -> None:
    with pytest.raises(InvalidConfigError, match="count"):
        run_chunks(list, -1)


@pytest.mark.parametrize("workers", [0, -2, 1.0, True])
def test_run_chunks_refuses_a_bad_number_of_workers(workers: object) -> None:
    with ThreadPoolExecutor(1) as pool, pytest.raises(InvalidConfigError, match="workers"):
        run_chunks(list, 5, executor=pool, workers=workers)  # type: ignore[arg-type]

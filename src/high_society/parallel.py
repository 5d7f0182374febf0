"""Spreading many games over processes or a cluster, with results that do not depend on how.

Tournaments (:mod:`high_society.tournament`) and :func:`~high_society.simulate.simulate`
split their games into chunks of consecutive game indexes and hand the chunks to an
executor: none (this process), ``jobs`` local processes, or any
:class:`concurrent.futures.Executor` -- for instance a Dask cluster's
``Client.get_executor()``. Every random choice of game ``i`` is seeded from
:func:`game_seed` ``(seed, i, ...)``, never from a worker's state, so the games, and every
figure summed from them, are the same whatever the executor and the chunking.

>>> game_seed(1, 0) == game_seed(1, 0) != game_seed(1, 1)
True
>>> [len(r) for r in split(10, 3)]
[4, 3, 3]
>>> run_chunks(len, 10)  # the sizes of the chunks, here: 8 chunks for one worker
[2, 2, 1, 1, 1, 1, 1, 1]
>>> sum(run_chunks(sum, 10))
45
"""

import hashlib
import os
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from typing import TypeVar

from high_society._text import short_repr
from high_society.errors import InvalidConfigError

__all__ = ["CHUNKS_PER_WORKER", "MAX_JOBS", "check_jobs", "game_seed", "run_chunks", "split"]

T = TypeVar("T")

#: Chunks handed to each worker: several, so a slow chunk does not hold the others up and a
#: progress bar moves, few, so that the per-chunk overhead stays small.
CHUNKS_PER_WORKER = 8


def game_seed(seed: int, index: int, stream: int = 0) -> int:
    """A 64-bit seed for random stream ``stream`` of game ``index`` of a run seeded
    ``seed``: the same on every machine and in every process (SHA-256, not ``hash``).

    Raises:
        InvalidConfigError: an argument is not an int.
    """
    for name, value in (("seed", seed), ("index", index), ("stream", stream)):
        if type(value) is not int:
            raise InvalidConfigError(f"{name} must be an int, not {short_repr(value)}")
    digest = hashlib.sha256(f"high-society/{seed}/{index}/{stream}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def split(count: int, pieces: int) -> list[range]:
    """``range(count)`` cut into at most ``pieces`` consecutive, non-empty ranges whose
    sizes differ by at most one (the first ones are the larger)."""
    pieces = max(1, min(pieces, count))
    size, extra = divmod(count, pieces)
    chunks = []
    start = 0
    for k in range(pieces):
        stop = start + size + (k < extra)
        if stop > start:
            chunks.append(range(start, stop))
        start = stop
    return chunks


#: The most local processes ``jobs`` may ask for.
MAX_JOBS = 1024


def check_jobs(jobs: object) -> int:
    """``jobs`` if it is an int from 1 to :data:`MAX_JOBS`; ``0`` means one job per CPU of
    this machine.

    Raises:
        InvalidConfigError: anything else.
    """
    if type(jobs) is not int or not 0 <= jobs <= MAX_JOBS:
        raise InvalidConfigError(
            f"jobs must be an int from 0 to {MAX_JOBS} (0: one per CPU), not {short_repr(jobs)}"
        )
    return jobs or os.cpu_count() or 1


def run_chunks(
    task: Callable[[range], T],
    count: int,
    *,
    jobs: int = 1,
    executor: Executor | None = None,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[T]:
    """``task(chunk)`` for every chunk of ``range(count)``, in chunk order.

    With ``executor`` the chunks go to it (``jobs`` is then ignored, and ``workers`` says
    how many workers it has, for the chunking: default 1). Otherwise ``jobs=1`` runs them
    here, one after the other, and ``jobs > 1`` in that many new local processes, but never
    more than ``count`` (``task``
    must then be picklable: a module-level function or a :func:`functools.partial` of one).
    ``progress(n)`` is called in this process each time a chunk of ``n`` items is done.

    Raises:
        InvalidConfigError: ``count`` is negative, or ``jobs`` or ``workers`` is invalid.
        Exception: whatever ``task`` raised, for the first chunk that failed.
    """
    if type(count) is not int or count < 0:
        raise InvalidConfigError(f"the count must be an int >= 0, not {short_repr(count)}")
    if workers is not None and (type(workers) is not int or workers < 1):
        raise InvalidConfigError(f"workers must be an int >= 1 or None, not {short_repr(workers)}")
    # Never more processes than items: each would start, import and sit idle.
    jobs = min(check_jobs(jobs), max(count, 1))
    if executor is None and jobs == 1:
        results = []
        for chunk in split(count, CHUNKS_PER_WORKER):
            results.append(task(chunk))
            if progress is not None:
                progress(len(chunk))
        return results
    if executor is not None:
        return _on(executor, task, split(count, CHUNKS_PER_WORKER * (workers or 1)), progress)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return _on(pool, task, split(count, CHUNKS_PER_WORKER * jobs), progress)


def _on(
    executor: Executor,
    task: Callable[[range], T],
    chunks: list[range],
    progress: Callable[[int], None] | None,
) -> list[T]:
    futures: dict[Future[T], int] = {
        executor.submit(task, chunk): k for k, chunk in enumerate(chunks)
    }
    try:
        for future in as_completed(futures):
            future.result()  # the first failure stops the run
            if progress is not None:
                progress(len(chunks[futures[future]]))
    finally:
        for future in futures:
            future.cancel()
    ordered = sorted(futures.items(), key=lambda item: item[1])
    return [future.result() for future, _ in ordered]

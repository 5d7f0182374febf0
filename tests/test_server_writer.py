"""SQLite's writer thread (``high_society.server._sqlite_writer``) on a real SQLite file:
the jobs queued while it commits are committed together, in one transaction; a job that
fails undoes its own writes and nobody else's, whether it fails first, in the middle or
last of its group; a lone job's failure writes nothing; every caller learns its own job's
value or error.

The writer is held inside a first job (waiting on an event) while the others are queued,
so that they make one group, whatever the machine's speed.
"""

import sqlite3
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from pathlib import Path

import pytest

from high_society.server._sqlite_writer import Writer


class _Cursor:
    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    def plain(self, text: str) -> None:
        self.connection.execute(text)

    def add(self, name: str) -> None:
        self.connection.execute("INSERT INTO rows VALUES (?)", (name,))


class _Database:
    """A SQLite file with one table of names, and the writer's transactions on it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.connection.execute("CREATE TABLE rows (name TEXT PRIMARY KEY)")
        self.transactions = 0

    @contextmanager
    def begin(self) -> Iterator[_Cursor]:
        self.transactions += 1
        self.connection.execute("BEGIN IMMEDIATE")
        try:
            yield _Cursor(self.connection)
        except BaseException:
            self.connection.execute("ROLLBACK")
            raise
        self.connection.execute("COMMIT")

    def names(self) -> set[str]:
        with sqlite3.connect(self.path) as reader:  # what another connection sees
            return {name for (name,) in reader.execute("SELECT name FROM rows")}


class _Refused(Exception):
    pass


def _adds(name: str) -> Callable[[_Cursor], str]:
    def job(cursor: _Cursor) -> str:
        cursor.add(name)
        return name

    return job


def _adds_then_fails(name: str) -> Callable[[_Cursor], str]:
    def job(cursor: _Cursor) -> str:
        cursor.add(name)  # written, then undone by the failure
        raise _Refused(name)

    return job


def _group(database: _Database, jobs: list[Callable[[_Cursor], str]]) -> list["Future[str]"]:
    """``jobs`` queued while the writer is held in a job of its own: they make one group."""
    writer = Writer(database.begin)
    holding, release = threading.Event(), threading.Event()

    def hold(cursor: _Cursor) -> str:
        holding.set()
        release.wait(timeout=60)
        return "held"

    held = writer.submit(hold)
    assert holding.wait(timeout=60)
    futures = [writer.submit(job) for job in jobs]
    release.set()
    assert held.result(timeout=60) == "held"
    for future in futures:
        future.exception(timeout=60)  # settled
    writer.close()
    return futures


def test_jobs_queued_together_are_committed_in_one_transaction(tmp_path: Path) -> None:
    database = _Database(tmp_path / "rows.sqlite")
    futures = _group(database, [_adds("a"), _adds("b"), _adds("c")])
    assert [future.result() for future in futures] == ["a", "b", "c"]
    assert database.names() == {"a", "b", "c"}
    assert database.transactions == 2  # the holding job's, then the group's


@pytest.mark.parametrize("failing", [0, 1, 2])
def test_a_failing_job_undoes_its_own_writes_only(tmp_path: Path, failing: int) -> None:
    database = _Database(tmp_path / "rows.sqlite")
    names = ["a", "b", "c"]
    jobs = [_adds_then_fails(name) if i == failing else _adds(name) for i, name in enumerate(names)]
    futures = _group(database, jobs)
    for i, (name, future) in enumerate(zip(names, futures, strict=True)):
        if i == failing:
            error = future.exception()
            assert isinstance(error, _Refused)
            assert error.args == (name,)
        else:
            assert future.result() == name
    assert database.names() == {name for i, name in enumerate(names) if i != failing}


def test_every_job_of_a_group_may_fail(tmp_path: Path) -> None:
    database = _Database(tmp_path / "rows.sqlite")
    futures = _group(database, [_adds_then_fails("a"), _adds_then_fails("b")])
    assert [type(future.exception()) for future in futures] == [_Refused, _Refused]
    assert database.names() == set()


def test_a_lone_failing_job_writes_nothing(tmp_path: Path) -> None:
    database = _Database(tmp_path / "rows.sqlite")
    writer = Writer(database.begin)
    with pytest.raises(_Refused):
        writer.submit(_adds_then_fails("a")).result(timeout=60)
    assert writer.submit(_adds("b")).result(timeout=60) == "b"
    writer.close()
    assert database.names() == {"b"}


def test_a_closed_writer_takes_no_job(tmp_path: Path) -> None:
    database = _Database(tmp_path / "rows.sqlite")
    writer = Writer(database.begin)
    writer.close()
    with pytest.raises(RuntimeError, match="closed"):
        writer.submit(_adds("a"))
    assert database.names() == set()

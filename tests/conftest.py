"""The server's stores for the tests: SQLite in a temporary folder, and a new database on
the throwaway PostgreSQL server that ``tasks.py`` starts for the test run
(services/pg_cluster.py). Run outside ``tasks.py``, the session starts its own PostgreSQL
server when the binaries are installed; without them the PostgreSQL cases are skipped,
except under CI (``CI`` set), where they fail."""

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from high_society.server import create_app
from services.pg_cluster import Cluster, find_binaries, from_environment

#: The stores every server test runs on.
STORES = ("sqlite", "postgresql")


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """The test run's PostgreSQL server."""
    cluster = from_environment()
    if cluster is not None:
        yield cluster
        return
    binaries = find_binaries()
    if binaries is None:
        message = "PostgreSQL is not installed (python3 tasks.py test installs it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    with Cluster.started(binaries) as made:
        yield made


@pytest.fixture
def postgres_url(postgres: Cluster) -> str:
    """A new, empty database on the test run's PostgreSQL server. It is left there: the
    whole server goes at the end of the run, and dropping a database waits for the
    connections a test closed to end (about a second each)."""
    return postgres.create_database(f"hs_test_{secrets.token_hex(6)}")


@pytest.fixture(params=STORES)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a new, empty database of each store."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/tables.sqlite3"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    """An ASGI test client of the table server on each store (bots swept every 0.2 s)."""
    with TestClient(create_app(database, sweep_seconds=0.2)) as made:
        yield made

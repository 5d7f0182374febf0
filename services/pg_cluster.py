"""A throwaway PostgreSQL server for the tests and the server benchmark (standard library only:
``tasks.py`` runs it before any virtual environment exists).

:class:`Cluster` runs Debian's (or any) PostgreSQL binaries on a new cluster made by
``initdb`` in a temporary directory. It listens on a Unix socket in that directory and on no
TCP address at all, trusts only local connections, and runs as an unprivileged user when
started by root (PostgreSQL refuses to run as root): ``postgres`` where that user exists,
else ``nobody``, the directory handed to that user. It never reads or touches a system
cluster. :meth:`Cluster.stop` stops the server and removes the directory; ``with
Cluster.started() as cluster`` does so even on failure.

``tasks.py`` starts one for the test run and names it to the tests in the environment
variable :data:`ENVIRONMENT` (:meth:`Cluster.to_json`); the tests that restart the database
under a running server do it through :meth:`Cluster.restart`.
"""

import contextlib
import glob
import json
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

__all__ = ["ENVIRONMENT", "Cluster", "find_binaries", "from_environment"]

#: The environment variable that names the test run's cluster (JSON, see Cluster.to_json).
ENVIRONMENT = "HIGH_SOCIETY_TEST_POSTGRES"
#: The port number in the socket's name (no TCP port is opened).
PORT = 5432
#: The database superuser the cluster is made with (a role name, not a system user).
ROLE = "hs"


def find_binaries() -> Path | None:
    """The folder of ``initdb``, ``pg_ctl`` and ``postgres``: Debian's newest
    ``/usr/lib/postgresql/N/bin``, else where ``PATH`` finds ``initdb``; ``None`` if none."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda path: (
            int(Path(path).parent.parent.name) if Path(path).parent.parent.name.isdigit() else 0
        ),
    )
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path else None


def _run_as() -> str | None:
    """The user to run PostgreSQL as: ``None`` (ourselves) unless we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    raise RuntimeError("running as root, and no unprivileged user (postgres, nobody) exists")


class Cluster:
    """A PostgreSQL server on a new cluster in ``root`` (see the module's description)."""

    def __init__(self, binaries: Path, root: Path, user: str | None, *, durable: bool) -> None:
        self.binaries = binaries
        self.root = root
        self.user = user
        self.durable = durable

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def socket_dir(self) -> Path:
        return self.root / "socket"

    def url(self, database: str = "postgres") -> str:
        """The SQLAlchemy URL of ``database`` on this server (over the Unix socket)."""
        return f"postgresql+psycopg://{ROLE}@/{database}?host={self.socket_dir}&port={PORT}"

    def to_json(self) -> str:
        return json.dumps(
            {
                "binaries": str(self.binaries),
                "root": str(self.root),
                "user": self.user,
                "durable": self.durable,
            }
        )

    @classmethod
    def from_json(cls, text: str) -> "Cluster":
        data = json.loads(text)
        return cls(
            Path(data["binaries"]), Path(data["root"]), data["user"], durable=data["durable"]
        )

    # --- Life ---------------------------------------------------------------------------------

    @classmethod
    def make(cls, binaries: Path, *, durable: bool = False) -> "Cluster":
        """``initdb`` a new cluster in a new temporary directory, and start it.

        ``durable``: PostgreSQL's defaults (fsync on), as a site would run it; otherwise
        fsync and synchronous commits are off, which a test database can afford.
        """
        root = Path(tempfile.mkdtemp(prefix="hs-postgres-"))
        cluster = cls(binaries, root, _run_as(), durable=durable)
        try:
            cluster.socket_dir.mkdir()
            if cluster.user is not None:
                entry = pwd.getpwnam(cluster.user)
                for path in (root, cluster.socket_dir):
                    os.chown(path, entry.pw_uid, entry.pw_gid)
            cluster._command(
                "initdb",
                "--pgdata",
                str(cluster.data),
                "--username",
                ROLE,
                "--auth",
                "trust",
                "--encoding",
                "UTF8",
                "--locale",
                "C",
                "--no-sync",
            )
            cluster.start()
        except BaseException:
            cluster.stop()
            raise
        return cluster

    @classmethod
    @contextlib.contextmanager
    def started(cls, binaries: Path, *, durable: bool = False) -> Iterator["Cluster"]:
        """A new cluster for the ``with`` block, stopped and removed after it."""
        cluster = cls.make(binaries, durable=durable)
        try:
            yield cluster
        finally:
            cluster.stop()

    def start(self) -> None:
        """Start the server and wait until it takes connections."""
        settings = [
            "listen_addresses=''",  # no TCP at all: the Unix socket only
            f"unix_socket_directories='{self.socket_dir}'",
            f"port={PORT}",
            "max_connections=200",
        ]
        if not self.durable:
            settings += ["fsync=off", "synchronous_commit=off", "full_page_writes=off"]
        self._command(
            "pg_ctl",
            "start",
            "--pgdata",
            str(self.data),
            "--wait",
            "--timeout",
            "120",
            "--log",
            str(self.root / "server.log"),
            "-o",
            " ".join(f"-c {s}" for s in settings),
        )

    def halt(self) -> None:
        """Stop the server (fast shutdown: open sessions are ended), keeping the cluster."""
        if (self.data / "postmaster.pid").exists():
            self._command("pg_ctl", "stop", "--pgdata", str(self.data), "--mode", "fast", "--wait")

    def restart(self) -> None:
        """Stop the server and start it again on the same cluster."""
        self.halt()
        self.start()

    def stop(self) -> None:
        """Stop the server (if it runs) and remove its directory."""
        try:
            if self.data.exists():
                self.halt()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    # --- Databases ----------------------------------------------------------------------------

    def create_database(self, name: str) -> str:
        """Make a new, empty database; return its URL."""
        self.psql(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def psql(self, sql: str) -> str:
        """Run one SQL command as the superuser; return its output."""
        return self._command(
            "psql",
            "--no-psqlrc",
            "--quiet",
            "--tuples-only",
            "--host",
            str(self.socket_dir),
            "--port",
            str(PORT),
            "--username",
            ROLE,
            "--dbname",
            "postgres",
            "--set",
            "ON_ERROR_STOP=1",
            "--command",
            sql,
        )

    def _command(self, program: str, *args: str) -> str:
        command = [str(self.binaries / program), *args]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            cwd=self.root,
            env={**os.environ, "LC_ALL": "C"},
            stdin=subprocess.DEVNULL,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(
                f"{program} failed ({done.returncode}): {done.stderr.strip() or done.stdout}"
            )
        return done.stdout


def from_environment() -> Cluster | None:
    """The test run's cluster, when ``tasks.py`` started one (:data:`ENVIRONMENT`)."""
    text = os.environ.get(ENVIRONMENT)
    return Cluster.from_json(text) if text else None

"""Table servers in processes of their own, for the live tests: ``high-society serve`` (or
uvicorn running :func:`high_society.server.create_app` with options the command line does
not have) on a free port of 127.0.0.1, its output in a log file.

Each process is started in a session of its own and stopped by its process group id, never
by name; :func:`running` stops it even on failure. Waits are on conditions, with generous
bounds; nothing here measures time.
"""

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = [
    "Server",
    "app_command",
    "free_port",
    "random_move",
    "running",
    "serve_command",
    "wait_for",
]

#: The JSON of an answer, or its text when it is not JSON.
Body = object


def wait_for(check: Callable[[], bool], what: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened within {seconds} s: {what}")
        time.sleep(0.05)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def serve_command(
    port: int,
    *,
    database: str | None = None,
    data_dir: Path | None = None,
    bot_delay: float = 0,
    send_seconds: float | None = None,
    options: Sequence[str] = (),
) -> list[str]:
    """``high-society serve`` on ``port``, on ``database`` or in ``data_dir`` (its own
    ``--send-seconds`` unless given: the benchmark's baseline may predate the option),
    with ``options`` besides."""
    command = [sys.executable, "-m", "high_society", "serve", "--port", str(port), *options]
    command += ["--bot-delay", str(bot_delay)]
    if send_seconds is not None:
        command += ["--send-seconds", str(send_seconds)]
    if database is not None:
        command += ["--database", database]
    if data_dir is not None:
        command += ["--data-dir", str(data_dir)]
    return command


def app_command(
    port: int,
    database: str,
    *,
    send_buffer: int = 0,
    limits: dict[str, float] | None = None,
    **options: float,
) -> list[str]:
    """uvicorn serving ``create_app(database, limits=Limits(**limits), **options)`` on
    ``port`` with the protocol ``high-society serve`` runs (its bounds those limits); with
    ``send_buffer``, each connection buffers that few bytes on the server's side, in the
    kernel (SO_SNDBUF) and in the event loop (the transport's high-water mark, 64 KiB by
    default), so that a client that does not read stops the server's writes within a few
    kilobytes, however the server groups them."""
    script = (
        "import json, socket, sys, uvicorn\n"
        "from high_society.server import Limits, create_app\n"
        "from high_society.server._http import protocol_for\n"
        "limits = Limits(**json.loads(sys.argv[5]))\n"
        "Base = protocol_for(limits)\n"
        "limit = int(sys.argv[4])\n"
        "class Protocol(Base):\n"
        "    def connection_made(self, transport):\n"
        "        super().connection_made(transport)\n"
        "        if limit:\n"
        "            transport.set_write_buffer_limits(high=limit)\n"
        "app = create_app(sys.argv[1], limits=limits, **json.loads(sys.argv[2]))\n"
        "listener = socket.socket()\n"
        "listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n"
        "if limit:\n"
        "    listener.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, limit)\n"
        "listener.bind(('127.0.0.1', int(sys.argv[3])))\n"
        "listener.listen(128)\n"
        "config = uvicorn.Config(app, http=Protocol, log_level='info',\n"
        "    timeout_keep_alive=max(1, round(limits.idle_seconds)))\n"
        "uvicorn.Server(config).run(sockets=[listener])\n"
    )
    return [
        sys.executable,
        "-c",
        script,
        database,
        json.dumps(options),
        str(port),
        str(send_buffer),
        json.dumps(limits or {}),
    ]


class Server:
    """A server process on 127.0.0.1 (see the module's description)."""

    def __init__(
        self,
        command: Callable[[int], Sequence[str]],
        log: Path,
        env: dict[str, str] | None = None,
        port: int | None = None,
    ) -> None:
        """``port``: a port of 127.0.0.1 to listen on (a server started again where its
        clients know it), else a free one."""
        self.port = free_port() if port is None else port
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = log
        self._log = open(log, "ab")  # noqa: SIM115 (closed in stop and kill)
        self.process = subprocess.Popen(
            list(command(self.port)),
            stdout=self._log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            env=None if env is None else {**os.environ, **env},
        )
        try:
            wait_for(self.up, "the server answers")
        except BaseException:
            self.stop()
            raise

    def up(self) -> bool:
        assert self.process.poll() is None, f"the server stopped:\n{self.log_text()}"
        try:
            return self.call("GET", "/api/health")[0] == 200
        except OSError:
            return False

    def call(
        self, method: str, path: str, body: object = None, token: str | None = None
    ) -> tuple[int, Body]:
        """``(status, JSON or text)`` of one request."""
        status, answer, _ = self.request(method, path, body, token)
        return status, answer

    def request(
        self, method: str, path: str, body: object = None, token: str | None = None
    ) -> tuple[int, Body, dict[str, str]]:
        """``(status, JSON or text, headers)`` of one request (30 s at most)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                text = answer.read()
                status = answer.status
                headers = dict(answer.headers)
        except urllib.error.HTTPError as error:
            text, status, headers = error.read(), error.code, dict(error.headers)
        parsed = json.loads(text) if text.strip().startswith((b"{", b"[")) else text
        return status, parsed, {k.lower(): v for k, v in headers.items()}

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL, as a crash would."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(30)
        self._log.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(30)
        self._log.close()


@contextmanager
def running(command: Callable[[int], Sequence[str]], log: Path) -> Iterator[Server]:
    """A server for the ``with`` block, stopped after it even on failure."""
    server = Server(command, log)
    try:
        yield server
    finally:
        server.stop()


def random_move(seen: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """What a random client sends for the seat to act: a numbered move chosen among its
    payload's legal actions (a bid about a third of the time it may pass)."""
    legal = seen["legal"]
    if legal["discards"]:
        action = rng.choice(legal["discards"])
    elif legal["bids"] and (legal["pass"] is None or rng.random() < 0.35):
        action = rng.choice(legal["bids"])["action"]
    else:
        action = legal["pass"]
    return {"action": action, "number": seen["number"]}

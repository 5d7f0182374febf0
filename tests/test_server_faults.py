"""The table server under faults, as people run it: real server processes (uvicorn) on
127.0.0.1, a real PostgreSQL server (the test run's, tests/conftest.py) or a SQLite file.

- one of two server processes killed with SIGKILL while clients and bots play many tables
  through it: every acknowledged action is in the database at its number, the tables
  finish through the other process, and every record validates;
- the database restarted under a running server: requests fail with a 503, a Retry-After
  and a JSON refusal (no traceback reaches the client), an open event stream goes on, and
  the server recovers without a restart of its own;
- the same move sent twice at once to two processes: applied once;
- a client that goes away mid-stream, and one that never reads: their streams are
  released (the never-reading one's connection dropped), and the table plays on to its end;
- ``high-society serve``'s connections: one whose client leaves an answer unread is
  dropped by the kernel after ``--send-seconds`` (TCP_USER_TIMEOUT, Linux);
- the servers' logs hold no token.

Each test is bounded in moves; waits are on conditions with generous bounds, and every
process is stopped (by its own process group, never by name) even on failure.
"""

import errno
import http.client
import json
import random
import signal
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from high_society.record import validate_record
from services.pg_cluster import Cluster
from services.server_processes import (
    Server,
    app_command,
    random_move,
    running,
    serve_command,
    wait_for,
)

THREE_PEOPLE = {
    "seats": [
        {"kind": "person", "name": "Ada"},
        {"kind": "person", "name": "Ben"},
        {"kind": "person", "name": "Cy"},
    ]
}
TWO_PEOPLE_AND_A_BOT = {
    "seats": [
        {"kind": "person", "name": "Ada"},
        {"kind": "bot", "bot": "heuristic"},
        {"kind": "person", "name": "Ben"},
    ]
}
FIVE_PEOPLE = {
    "seats": [{"kind": "person", "name": name} for name in ("Ada", "Ben", "Cy", "Dee", "Eve")]
}
ONE_PERSON = {
    "seats": [
        {"kind": "person", "name": "Ada"},
        {"kind": "bot", "bot": "heuristic"},
        {"kind": "bot", "bot": "random"},
    ]
}


def make_table(server: Server, body: object) -> tuple[str, dict[int, str]]:
    """A new table: its id and the tokens of its people by seat."""
    status, made = server.call("POST", "/api/tables", body)
    assert status == 201, made
    assert isinstance(made, dict)
    return made["table"], {s["seat"]: s["token"] for s in made["seats"]}


def payload(server: Server, table: str, token: str) -> dict[str, Any]:
    status, seen = server.call("GET", f"/api/tables/{table}/payload", token=token)
    assert status == 200, seen
    assert isinstance(seen, dict)
    return seen


def turn(server: Server, table: str, tokens: dict[int, str]) -> dict[str, Any]:
    """The payload once one of ``tokens``' seats must act or the game is over."""
    seen: dict[str, Any] = {}

    def ready() -> bool:
        seen.update(payload(server, table, next(iter(tokens.values()))))
        return seen["to_act"] is None or seen["to_act"] in tokens

    wait_for(ready, f"table {table}: a person's turn or the end")
    return seen


def play_to_end(
    server: Server, table: str, tokens: dict[int, str], rng: random.Random, moves: int = 400
) -> None:
    """Play the table's people until the game is over (the server plays its bots)."""
    for _ in range(moves):
        seen = turn(server, table, tokens)
        if seen["to_act"] is None:
            return
        mine = payload(server, table, tokens[seen["to_act"]])
        status, answer = server.call(
            "POST", f"/api/tables/{table}/actions", random_move(mine, rng), tokens[seen["to_act"]]
        )
        assert status == 200, answer
    raise AssertionError(f"table {table} did not end within {moves} moves")


def finished_record(server: Server, table: str) -> dict[str, Any]:
    status, record = server.call("GET", f"/api/tables/{table}/record")
    assert status == 200, record
    assert isinstance(record, dict)
    validation = validate_record(json.dumps(record))
    assert validation.valid, validation
    assert validation.finished
    return record


def assert_no_token_logged(servers: list[Server], tokens: list[str]) -> None:
    for server in servers:
        text = server.log_text()
        assert "GET /api/tables" in text or "POST /api/tables" in text  # the log is there
        for token in tokens:
            assert token not in text, "a token is in the server's log"


def test_a_server_killed_while_tables_play_through_it_loses_no_acknowledged_action(
    postgres_url: str, tmp_path: Path
) -> None:
    def serve(port: int) -> list[str]:
        return serve_command(port, database=postgres_url.replace("+psycopg", ""))

    doomed = Server(serve, tmp_path / "doomed.log")
    try:
        with running(serve, tmp_path / "survivor.log") as survivor:
            tables = [
                make_table(doomed, TWO_PEOPLE_AND_A_BOT if i % 2 else THREE_PEOPLE)
                for i in range(6)
            ]
            acknowledged: dict[str, dict[int, object]] = {table: {} for table, _ in tables}
            count = threading.Semaphore(0)
            failures: list[BaseException] = []
            killed = threading.Event()

            def client(index: int) -> None:
                table, tokens = tables[index]
                rng = random.Random(index)
                server = doomed
                deadline = time.monotonic() + 300
                any_token = next(iter(tokens.values()))
                try:
                    while time.monotonic() < deadline:
                        try:
                            seen = payload(server, table, any_token)
                            if seen["to_act"] is None:
                                return
                            if seen["to_act"] not in tokens:
                                time.sleep(0.02)  # the server's bot or dealer
                                continue
                            token = tokens[seen["to_act"]]
                            move = random_move(payload(server, table, token), rng)
                            status, answer = server.call(
                                "POST", f"/api/tables/{table}/actions", move, token
                            )
                        except OSError:
                            # The process died under the request: on to the other one,
                            # where the same numbered move is played at most once.
                            assert killed.is_set()
                            server = survivor
                            continue
                        assert status == 200, answer
                        assert isinstance(answer, dict)
                        acknowledged[table][answer["number"]] = answer["action"]
                        count.release()
                    raise AssertionError(f"table {table} did not end in time")
                except BaseException as error:
                    failures.append(error)

            threads = [threading.Thread(target=client, args=(i,)) for i in range(len(tables))]
            for thread in threads:
                thread.start()
            for _ in range(60):  # SIGKILL once 60 moves are acknowledged, mid-play
                assert count.acquire(timeout=120), "the clients stalled"
            killed.set()
            doomed.kill()
            for thread in threads:
                thread.join(330)
            assert not any(thread.is_alive() for thread in threads)
            assert failures == []
            for table, _ in tables:
                record = finished_record(survivor, table)
                for number, action in acknowledged[table].items():
                    assert record["actions"][number] == action, (table, number)
            assert sum(len(a) for a in acknowledged.values()) > 60  # play went on after
            tokens = [token for _, by_seat in tables for token in by_seat.values()]
            assert_no_token_logged([doomed, survivor], tokens)
    finally:
        doomed.kill()


def test_the_database_restarted_under_a_running_server_gives_clean_503s_then_recovers(
    postgres: Cluster, postgres_url: str, tmp_path: Path
) -> None:
    with running(lambda port: app_command(port, postgres_url), tmp_path / "s.log") as server:
        table, tokens = make_table(server, ONE_PERSON)
        rng = random.Random(7)
        seen: dict[str, Any] = {}

        def person_turn() -> bool:
            seen.update(payload(server, table, tokens[0]))
            return seen["to_act"] in (0, None)

        wait_for(person_turn, "the person's turn")
        numbers: list[int] = []
        stream_failed: list[BaseException] = []

        def follow() -> None:  # an event stream held open across the restart
            try:
                connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=90)
                connection.request(
                    "GET",
                    f"/api/tables/{table}/events",
                    headers={"Authorization": f"Bearer {tokens[0]}"},
                )
                answer = connection.getresponse()
                assert answer.status == 200
                for line in answer:
                    if line.startswith(b"id: "):
                        numbers.append(int(line[4:]))
                connection.close()
            except BaseException as error:
                stream_failed.append(error)

        follower = threading.Thread(target=follow)
        follower.start()
        wait_for(lambda: bool(numbers), "the stream's first event")
        postgres.halt()
        try:
            move = random_move(seen, rng)
            for method, path, body, token in (
                ("POST", f"/api/tables/{table}/actions", move, tokens[0]),
                ("GET", f"/api/tables/{table}/payload", None, tokens[0]),
                ("POST", "/api/tables", ONE_PERSON, None),
                ("GET", f"/api/tables/{table}/record", None, None),
            ):
                status, answer, headers = server.request(method, path, body, token)
                assert status == 503, (path, answer)
                assert headers["retry-after"] == "1"
                assert isinstance(answer, dict)
                assert answer["kind"] == "unavailable"
                assert answer["code"] == "UNAVAILABLE"
                text = json.dumps(answer)
                for leak in ("Traceback", "sqlalchemy", "psycopg", "SELECT", "postgres"):
                    assert leak not in text
        finally:
            postgres.start()
        # The same server, not restarted: the move goes through, once, and the game ends.
        wait_for(
            lambda: (
                server.request("POST", f"/api/tables/{table}/actions", move, tokens[0])[0] == 200
            ),
            "the server answers again",
        )
        history = payload(server, table, tokens[0])["history"]
        assert history[move["number"]] == move["action"]
        play_to_end(server, table, tokens, rng)
        record = finished_record(server, table)
        follower.join(120)
        assert not follower.is_alive()
        assert stream_failed == []
        assert numbers[-1] == len(record["actions"])  # the stream saw the end
        assert_no_token_logged([server], list(tokens.values()))
        assert "Traceback" not in server.log_text()


@pytest.mark.parametrize("seed", [3])
def test_the_same_move_sent_at_once_to_two_processes_is_played_once(
    database: str, tmp_path: Path, seed: int
) -> None:
    def serve(port: int) -> list[str]:
        return serve_command(port, database=database)

    with (
        running(serve, tmp_path / "a.log") as first,
        running(serve, tmp_path / "b.log") as second,
    ):
        table, tokens = make_table(first, THREE_PEOPLE)
        rng = random.Random(seed)
        for _ in range(12):  # twelve moves, each sent to both processes at once
            seen = turn(second, table, tokens)
            assert seen["to_act"] is not None
            token = tokens[seen["to_act"]]
            move = random_move(payload(second, table, token), rng)
            start = threading.Barrier(2)
            answers: list[tuple[int, object]] = []
            senders = [
                threading.Thread(
                    target=send_together,
                    args=(start, answers, server, f"/api/tables/{table}/actions", move, token),
                )
                for server in (first, second)
            ]
            for sender in senders:
                sender.start()
            for sender in senders:
                sender.join(60)
            assert [status for status, _ in answers] == [200, 200], answers
            duplicates = sorted(
                answer["duplicate"] for _, answer in answers if isinstance(answer, dict)
            )
            assert duplicates == [False, True]
            history = payload(first, table, token)["history"]
            assert history[move["number"]] == move["action"]
            assert len(history) >= move["number"] + 1
        record = first.call("GET", f"/api/tables/{table}/record")[1]
        assert isinstance(record, dict)
        assert validate_record(json.dumps(record)).valid


def send_together(
    start: threading.Barrier,
    answers: list[tuple[int, object]],
    server: Server,
    path: str,
    move: object,
    token: str,
) -> None:
    start.wait(30)
    answers.append(server.call("POST", path, move, token))


def streams(server: Server) -> int:
    status, health = server.call("GET", "/api/health")
    assert status == 200
    assert isinstance(health, dict)
    count: int = health["streams"]
    return count


def never_reading(server: Server) -> socket.socket:
    """A connection to ``server`` whose receive buffer is as small as the kernel allows
    (its window fills within a few kilobytes), for a client that will read nothing."""
    mute = socket.socket()
    mute.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    mute.settimeout(60)
    mute.connect(("127.0.0.1", server.port))
    return mute


def test_a_client_gone_mid_stream_and_one_that_never_reads_leak_nothing_and_stall_nothing(
    database: str, tmp_path: Path
) -> None:
    command: Callable[[int], list[str]] = lambda port: app_command(  # noqa: E731
        port, database, send_buffer=4096, send_seconds=2.0
    )
    with running(command, tmp_path / "s.log") as server:
        # Five people, every move sent by the test: a payload of 1 KB or more for nearly
        # every move, some thirty at least, far more than the buffers on the way hold (the
        # server's 4 KiB in the kernel and 4 KiB in its event loop, the client's 2 KiB).
        table, tokens = make_table(server, FIVE_PEOPLE)
        request = (
            f"GET /api/tables/{table}/events?since=0 HTTP/1.1\r\n"
            f"Host: 127.0.0.1\r\nAuthorization: Bearer {tokens[0]}\r\n\r\n"
        ).encode()
        # Gone mid-stream: reads the first event, then closes its connection.
        with socket.create_connection(("127.0.0.1", server.port), timeout=60) as gone:
            gone.sendall(request)
            received = b""
            while b"event: payload" not in received:
                chunk = gone.recv(4096)
                assert chunk
                received += chunk
            assert streams(server) == 1
        wait_for(lambda: streams(server) == 0, "the closed stream released")
        # Never reads: a small receive buffer, and not a byte read while the game plays.
        mute = never_reading(server)
        try:
            mute.sendall(request)
            wait_for(lambda: streams(server) == 1, "the mute client's stream open")
            play_to_end(server, table, tokens, random.Random(5))
            finished_record(server, table)
            # The stream cannot end with the game while a write of it waits: the server
            # gives up on it after 2 s without a byte read, and drops its connection
            # (a close would wait, forever, for the client to read what is buffered).
            wait_for(lambda: streams(server) == 0, "the mute client's stream released")
            assert "read nothing for 2.0 s: closed" in server.log_text()
            errors: list[int] = []

            def reset() -> bool:
                errors.append(mute.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR))
                return errors[-1] != 0

            wait_for(reset, "the mute client's connection dropped by the server")
            assert errors[-1] == errno.ECONNRESET
            other, other_tokens = make_table(server, ONE_PERSON)
            play_to_end(server, other, other_tokens, random.Random(6))
        finally:
            mute.close()
        assert "Traceback" not in server.log_text()


def server_end_open(port: int, client_port: int) -> bool:
    """Whether the kernel holds the server's end (local ``port``) of the connection from
    ``client_port`` on 127.0.0.1, as /proc/net/tcp lists it (Linux)."""
    wanted = (f"{port:04X}", f"{client_port:04X}")
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if (fields[1].split(":")[1], fields[2].split(":")[1]) == wanted:
            return True
    return False


@pytest.mark.skipif(
    not hasattr(socket, "TCP_USER_TIMEOUT") or not Path("/proc/net/tcp").exists(),
    reason="TCP_USER_TIMEOUT and /proc/net/tcp are Linux's",
)
def test_serve_drops_a_connection_whose_client_leaves_any_answer_unread(tmp_path: Path) -> None:
    command: Callable[[int], list[str]] = lambda port: serve_command(  # noqa: E731
        port, data_dir=tmp_path / "data", send_seconds=2
    )
    with running(command, tmp_path / "s.log") as server:
        # A small receive window, filled by the first of four pipelined answers (the API's
        # description, tens of KB): the server's kernel then holds what it could not send.
        mute = never_reading(server)
        try:
            client_port = mute.getsockname()[1]
            assert server_end_open(server.port, client_port)
            mute.sendall(b"GET /openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 4)
            # Not a stream: the event streams' own watch plays no part. Without
            # TCP_USER_TIMEOUT the server's end would stay, its bytes offered for ever.
            wait_for(
                lambda: not server_end_open(server.port, client_port),
                "the server's end of the unread connection dropped",
            )
            status, health = server.call("GET", "/api/health")
            assert status == 200, health
        finally:
            mute.close()
        assert "Traceback" not in server.log_text()


def test_serve_stopped_with_ctrl_c_shuts_down_cleanly_and_exits_0(tmp_path: Path) -> None:
    command: Callable[[int], list[str]] = lambda port: serve_command(  # noqa: E731
        port, data_dir=tmp_path / "data"
    )
    with running(command, tmp_path / "s.log") as server:
        status, _ = server.call("GET", "/api/health")
        assert status == 200
        server.process.send_signal(signal.SIGINT)  # what Ctrl-C sends the process
        assert server.process.wait(60) == 0
        text = server.log_text()
        assert text.startswith(f"High Society table server on http://127.0.0.1:{server.port}/")
        assert "Application shutdown complete" in text
        assert "Traceback" not in text
        assert "interrupted" not in text

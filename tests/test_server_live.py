"""The table server as people run it: ``high-society serve`` under uvicorn on 127.0.0.1, its
tables in SQLite. The server killed with SIGKILL mid-game resumes every table from the
database with no acknowledged action lost. (The page in a real browser:
tests/test_server_page.py.)

Every process and temporary directory started here is stopped and removed, even on failure.
Waits are on conditions, with generous bounds; no verdict depends on timing.
"""

import json
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from high_society.record import validate_record
from services.server_processes import Server, serve_command, wait_for


@pytest.fixture
def data() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="hs-server-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def start(data: Path, bot_delay: float = 0.0) -> Server:
    return Server(
        lambda port: serve_command(port, data_dir=data, bot_delay=bot_delay),
        data / "server.log",
    )


@contextmanager
def serving(data: Path, bot_delay: float = 0.0) -> Iterator[Server]:
    server = start(data, bot_delay)
    try:
        yield server
    finally:
        server.stop()


def person_turn(server: Server, table: str, token: str) -> dict[str, object]:
    found: list[dict[str, object]] = []

    def ready() -> bool:
        status, seen = server.call("GET", f"/api/tables/{table}/payload", token=token)
        assert status == 200, seen
        assert isinstance(seen, dict)
        found[:] = [seen]
        return seen["to_act"] in (seen["seat"], None)

    wait_for(ready, f"table {table}: the person's turn")
    return found[0]


def test_a_server_killed_mid_game_resumes_every_table_and_loses_no_acknowledged_action(
    data: Path,
) -> None:
    acknowledged: dict[str, dict[int, object]] = {}
    tokens: dict[str, str] = {}
    server = start(data, bot_delay=0.05)
    try:
        for bots in (("heuristic", "random"), ("random", "search"), ("heuristic", "heuristic")):
            status, made = server.call(
                "POST",
                "/api/tables",
                {
                    "seats": [
                        {"kind": "person", "name": "Ada"},
                        *({"kind": "bot", "bot": b} for b in bots),
                    ]
                },
            )
            assert status == 201, made
            assert isinstance(made, dict)
            tokens[made["table"]] = made["seats"][0]["token"]
            acknowledged[made["table"]] = {}
        for _ in range(3):  # a few moves at every table, the bots still playing at the last
            for table, token in tokens.items():
                seen = person_turn(server, table, token)
                if seen["to_act"] is None:
                    continue
                legal = seen["legal"]
                assert isinstance(legal, dict)
                action = (
                    legal["discards"][0] if legal["discards"] else {"type": "pass", "player": 0}
                )
                status, answer = server.call(
                    "POST",
                    f"/api/tables/{table}/actions",
                    {"action": action, "number": seen["number"]},
                    tokens[table],
                )
                assert status == 200, answer
                assert isinstance(answer, dict)
                acknowledged[table][answer["number"]] = answer["action"]
    finally:
        server.kill()
    with serving(data) as again:
        for table, token in tokens.items():
            status, stored = again.call("GET", f"/api/tables/{table}/record")
            assert status == 200
            assert isinstance(stored, dict)
            for number, played in acknowledged[table].items():
                assert stored["actions"][number] == played, (table, number)
            # The table goes on where it was: the bots play, and the person to the end.
            while (seen := person_turn(again, table, token))["to_act"] is not None:
                legal = seen["legal"]
                assert isinstance(legal, dict)
                action = (
                    legal["discards"][0] if legal["discards"] else {"type": "pass", "player": 0}
                )
                status, answer = again.call(
                    "POST",
                    f"/api/tables/{table}/actions",
                    {"action": action, "number": seen["number"]},
                    token,
                )
                assert status == 200, answer
            status, text = again.call("GET", f"/api/tables/{table}/record")
            assert validate_record(json.dumps(text)).finished

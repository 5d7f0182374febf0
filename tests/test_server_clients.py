"""Clients generated from the table server's OpenAPI document, as a client's author would
make them, play whole games against a real server (``high-society serve`` on 127.0.0.1):

- a Python client made by ``openapi-python-client`` (the ``dev`` extra pins it), used
  through its typed functions and models only: tables made and joined, payloads read,
  moves played until the result, errors read as the document's error model, the record;
- TypeScript types made by ``openapi-typescript``, and a small client that uses them
  through ``openapi-fetch`` (``tests/typescript/client.ts``, with no cast, no type guard
  and no non-null assertion: it sends back the actions its payloads offer, as they came)
  type-checked by ``tsc`` in strict mode, then run with node: it plays a whole game (npm
  installs the tools from the folder's lock file; see ``tasks.py``).

And the document itself: every reference resolves inside it, every answer has a schema,
every kind of error is in the error enum, the seat's routes ask for the bearer token.
"""

import importlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from high_society.record import validate_record
from high_society.server import create_app
from high_society.server._errors import ErrorKind
from services.server_processes import Server, serve_command

ROOT = Path(__file__).resolve().parent.parent
TYPESCRIPT = ROOT / "tests" / "typescript"
#: The generated package's name.
PACKAGE = "hs_generated_client"


def document(tmp: Path) -> dict[str, Any]:
    found: dict[str, Any] = create_app(f"sqlite:///{tmp / 'doc.sqlite3'}").openapi()
    return found


@pytest.fixture(scope="module")
def openapi(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The document, written to a file."""
    folder = tmp_path_factory.mktemp("openapi")
    path = folder / "openapi.json"
    path.write_text(json.dumps(document(folder)), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def client(openapi: Path) -> Iterator[ModuleType]:
    """The Python client openapi-python-client makes of the document, imported."""
    out = openapi.parent / "python"
    config = openapi.parent / "config.yml"
    config.write_text(f"package_name_override: {PACKAGE}\npost_hooks: []\n", encoding="utf-8")
    generator = Path(sys.executable).parent / "openapi-python-client"
    made = subprocess.run(
        [
            *(str(generator), "generate", "--path", str(openapi)),
            *("--output-path", str(out), "--meta", "none", "--config", str(config)),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert made.returncode == 0, made.stdout + made.stderr
    assert "Warning" not in made.stdout, made.stdout  # nothing of the document was skipped
    sys.path.insert(0, str(out.parent))
    os.rename(out, out.parent / PACKAGE)
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(out.parent))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("served")
    made = Server(lambda port: serve_command(port, data_dir=folder), folder / "server.log")
    try:
        yield made
    finally:
        made.stop()


def api(name: str) -> Any:
    return importlib.import_module(f"{PACKAGE}.api.default.{name}")


def models() -> Any:
    return importlib.import_module(f"{PACKAGE}.models")


def chosen_move(seen: Any, rng: random.Random) -> Any:
    """A move among the payload's legal actions, each sent back as it was offered: no
    conversion of a card or a money value, no action built by hand."""
    m = models()
    legal = seen.legal
    if legal.discards:
        action: Any = rng.choice(legal.discards)
    elif legal.bids and (legal.pass_ is None or rng.random() < 0.35):
        action = rng.choice(legal.bids).action
    else:
        action = legal.pass_
    return m.MoveRequest(action=action, number=seen.number)


def play_through(client: ModuleType, server: Server, seats: list[Any], seed: int) -> Any:
    """Make a table of ``seats`` and play it to the end through the generated client only;
    return the final payload of seat 0."""
    m = models()
    rng = random.Random(seed)
    with ExitStack() as stack:
        anyone = stack.enter_context(
            client.Client(base_url=server.base, raise_on_unexpected_status=True)
        )
        made = api("create_table").sync(client=anyone, body=m.CreateTable(seats=seats))
        assert isinstance(made, m.TableCreated), made
        clients = {
            s.seat: stack.enter_context(
                client.AuthenticatedClient(base_url=server.base, token=s.token)
            )
            for s in made.seats
        }
        return _played(made.table, clients, rng)


def _played(table: str, clients: dict[int, Any], rng: random.Random) -> Any:
    m = models()
    for _ in range(2000):
        for seat, seat_client in clients.items():
            seen = api("payload").sync(table, client=seat_client)
            assert isinstance(seen, m.SeatPayload), seen
            if seen.result is not None:
                if seat == 0:
                    return seen
                continue
            if seen.to_act != seat:
                continue
            answer = api("act").sync(table, client=seat_client, body=chosen_move(seen, rng))
            assert isinstance(answer, m.MoveAccepted), answer
            assert answer.number == seen.number
            assert answer.next_.number > seen.number
    raise AssertionError("the game did not end")


def test_a_generated_python_client_plays_whole_games(client: ModuleType, server: Server) -> None:
    m = models()
    people = [m.PersonSeat(kind="person", name=n) for n in ("Ada", "Ben")]
    bot = m.BotSeat(kind="bot", bot=m.BotLabel("heuristic"))
    final = play_through(client, server, [*people, bot], seed=1)
    assert len(final.result.breakdowns) == 3
    three = [m.PersonSeat(kind="person", name=n) for n in ("A", "B", "C")]
    final = play_through(client, server, three, seed=2)
    assert final.to_act is None


def test_a_generated_client_reads_errors_lobbies_and_records(
    client: ModuleType, server: Server
) -> None:
    with ExitStack() as stack:
        _errors_lobbies_and_records(client, server, stack)


def _errors_lobbies_and_records(client: ModuleType, server: Server, stack: ExitStack) -> None:
    m = models()
    anyone = stack.enter_context(client.Client(base_url=server.base))
    seats = [
        m.PersonSeat(kind="person", name="Ada"),
        m.OpenSeat(kind="open"),
        m.BotSeat(kind="bot", bot=m.BotLabel("random")),
    ]
    made = api("create_table").sync(client=anyone, body=m.CreateTable(seats=seats))
    assert made.status == m.TableCreatedStatus("waiting")
    lobby = api("get_table").sync(made.table, client=anyone)
    assert isinstance(lobby, m.TableInfo)
    assert [s.kind.value for s in lobby.seats] == ["person", "open", "bot"]
    taken = api("join").sync(made.table, client=anyone, body=m.JoinTable(name="Ada"))
    assert isinstance(taken, m.Error)
    assert (taken.kind, taken.code) == (m.ErrorKind("conflict"), "NAME_TAKEN")
    joined = api("join").sync(made.table, client=anyone, body=m.JoinTable(name="Ben"))
    assert isinstance(joined, m.Joined)
    ben = stack.enter_context(client.AuthenticatedClient(base_url=server.base, token=joined.token))
    seen = api("payload").sync(made.table, client=ben)
    assert isinstance(seen, m.SeatPayload)
    wrong = m.MoveRequest(action=m.PassAction(type_="pass", player=0), number=seen.number)
    refused = api("act").sync(made.table, client=ben, body=wrong)
    assert isinstance(refused, m.Error)
    assert refused.kind == m.ErrorKind("not_your_seat")
    stranger = stack.enter_context(client.AuthenticatedClient(base_url=server.base, token="x" * 43))
    assert isinstance(api("payload").sync(made.table, client=stranger), m.Error)
    record = api("record").sync_detailed(made.table, client=anyone)
    assert isinstance(record.parsed, m.Record)
    assert validate_record(record.content.decode()).valid


def _refs(value: object) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "$ref" and isinstance(item, str):
                yield item
            else:
                yield from _refs(item)
    elif isinstance(value, list):
        for item in value:
            yield from _refs(item)


def test_the_document_is_whole_every_answer_typed_every_error_kind_listed(
    tmp_path: Path,
) -> None:
    doc = document(tmp_path)
    schemas = doc["components"]["schemas"]
    for ref in set(_refs(doc)):
        assert ref.startswith("#/components/schemas/"), ref
        assert ref.removeprefix("#/components/schemas/") in schemas, ref
    assert "$defs" not in json.dumps(doc)
    assert "urn:" not in json.dumps(doc)
    assert schemas["ErrorKind"]["enum"] == [kind.value for kind in ErrorKind]
    assert doc["components"]["securitySchemes"]["seatToken"] == {
        "type": "http",
        "scheme": "bearer",
        "description": "The seat's token, from making or joining the table.",
    }
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            where = f"{method.upper()} {path}"
            seat = path.endswith(("/seat", "/payload", "/actions", "/events", "/rematch"))
            seat = seat and "/public/" not in path and not path.startswith("/api/lobby")
            assert ("security" in operation) == seat, where
            for status, answer in operation["responses"].items():
                content = answer.get("content", {})
                assert content, f"{where} {status} has no schema"
                assert all("schema" in media for media in content.values()), where
                if status.startswith(("4", "5")):
                    assert content["application/json"]["schema"] == {
                        "$ref": "#/components/schemas/Error"
                    }
            names = {p["name"] for p in operation.get("parameters", [])}
            if "{table_id}" in path:
                assert "table_id" in names, where
            if path.endswith(("/payload", "/events", "/public")) and "{table_id}" in path:
                assert "since" in names, where
    assert "HTTPValidationError" not in schemas


def test_the_typescript_client_sends_back_what_it_was_offered_with_no_cast_or_guard() -> None:
    code = re.sub(r"//[^\n]*", "", (TYPESCRIPT / "client.ts").read_text(encoding="utf-8"))
    assert re.search(r"\bas\s+(const|[A-Za-z_{(\[])", code) is None  # no type assertion
    assert re.search(r"\)\s*:\s*\w+\s+is\s+", code) is None  # no type guard
    assert "!." not in code  # no non-null assertion
    assert "!)" not in code
    assert "any" not in re.findall(r"\w+", code)


def test_generated_typescript_types_check_and_run_a_small_client(
    openapi: Path, server: Server
) -> None:
    bin_dir = TYPESCRIPT / "node_modules" / ".bin"
    if not (bin_dir / "tsc").exists() or shutil.which("node") is None:
        message = "node and tests/typescript/node_modules are needed (python3 tasks.py test)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    types = TYPESCRIPT / "api.d.ts"
    out = TYPESCRIPT / "out"
    try:
        made = subprocess.run(
            [str(bin_dir / "openapi-typescript"), str(openapi), "--output", str(types)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert made.returncode == 0, made.stdout + made.stderr
        checked = subprocess.run(
            [str(bin_dir / "tsc"), "-p", str(TYPESCRIPT)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert checked.returncode == 0, checked.stdout + checked.stderr
        ran = subprocess.run(
            ["node", str(out / "client.js"), server.base],
            capture_output=True,
            text=True,
            check=False,
            timeout=300,
        )
        assert ran.returncode == 0, ran.stdout + ran.stderr
        played = json.loads(ran.stdout)
        assert played["moves"] > 10
        assert played["winners"]
        status, record = server.call("GET", f"/api/tables/{played['table']}/record")
        assert status == 200
        assert validate_record(json.dumps(record)).finished
    finally:
        types.unlink(missing_ok=True)
        shutil.rmtree(out, ignore_errors=True)

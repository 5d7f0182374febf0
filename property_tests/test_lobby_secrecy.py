"""The lobby tells strangers only what a table's public description shows (R13: no seat's
token, no hand, no deck), and only of the tables their makers listed.

Random sets of tables (3 to 5 seats of people, bots and open seats, any names, a clock or
none, listed or not), some joined, made through the table server's API on SQLite:

- the lobby's page and the first event of its stream list exactly the listed tables that
  are not over, each entry made of the table's public description (its seats as
  ``GET /api/tables/ID`` shows them to anyone, its status, number and clock as asked);
- no token given to any seat appears anywhere in either.
"""

import json
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from high_society.server import Limits, create_app
from high_society.wire import LOBBY

#: Names a person may take: a visible character first, any letters, marks and symbols after.
_NAMES = st.builds(
    str.__add__,
    st.characters(categories=("L", "N")),
    st.text(st.characters(categories=("L", "M", "N", "P", "S", "Zs")), max_size=30),
)
_CLOCKS = st.one_of(
    st.none(),
    st.builds(lambda s: {"move": s}, st.floats(1, 86_400 * 3)),
    st.builds(lambda s, i: {"bank": s, "increment": i}, st.floats(60, 3600), st.floats(0, 30)),
)


@st.composite
def new_tables(draw: st.DrawFn) -> dict[str, Any]:
    """A request to make a table, and whether a stranger then joins its open seats."""
    players = draw(st.integers(3, 5))
    kinds = draw(
        st.lists(
            st.sampled_from(("person", "bot", "open")), min_size=players - 1, max_size=players - 1
        )
    )
    names = draw(
        st.lists(
            _NAMES.filter(lambda n: n.strip() != ""),
            min_size=players,
            max_size=players,
            unique_by=lambda n: n.strip().casefold(),
        )
    )
    seats: list[dict[str, Any]] = [{"kind": "person", "name": names[0][:64]}]
    for kind, name in zip(kinds, names[1:], strict=True):
        if kind == "person":
            seats.append({"kind": "person", "name": name[:64]})
        elif kind == "bot":
            seats.append({"kind": "bot", "bot": draw(st.sampled_from(("pass", "heuristic")))})
        else:
            seats.append({"kind": "open"})
    body = {"seats": seats, "clock": draw(_CLOCKS), "listed": draw(st.booleans())}
    return {
        "body": body,
        "joins": draw(st.booleans()),
        "joiner": f"Guest {draw(st.integers(0, 9))}",
    }


@settings(max_examples=12)
@given(st.lists(new_tables(), min_size=1, max_size=4))
def test_the_lobby_shows_only_listed_tables_public_parts(made: list[dict[str, Any]]) -> None:
    with TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 't.sqlite3'}"
        app = create_app(url, limits=Limits(tables_per_minute=1_000))
        with TestClient(app) as client:
            tokens, expected = _make(client, made)
            page = client.get("/api/lobby").json()
            with client.stream("GET", "/api/lobby/events") as stream:
                data = next(line for line in stream.iter_lines() if line.startswith("data: "))
            # Bots may have played meanwhile: each entry is read against the table now.
            described = {t: client.get(f"/api/tables/{t}").json() for t in expected}
    for shown in (page, json.loads(data[6:])):
        LOBBY.read(shown)
        text = json.dumps(shown)
        assert not any(token in text for token in tokens)
        live = {t for t, info in described.items() if info["status"] != "over"}
        assert {entry["table"] for entry in shown["tables"]} == live
        for entry in shown["tables"]:
            info = described[entry["table"]]
            assert entry["seats"] == info["seats"]
            assert entry["open"] == sum(seat["kind"] == "open" for seat in info["seats"])
            assert entry["status"] in ("waiting", "playing")
            asked = expected[entry["table"]]
            assert (entry["clock"] is None) == (asked is None)
            if asked is not None:
                assert {k: entry["clock"][k] for k in asked} == asked
            assert set(entry) == {"table", "status", "open", "seats", "clock", "number", "updated"}


def _make(
    client: TestClient, made: list[dict[str, Any]]
) -> tuple[list[str], dict[str, dict[str, Any] | None]]:
    """Make the tables (and join them as asked); every token given, and the clock asked
    for each listed table."""
    tokens: list[str] = []
    listed: dict[str, dict[str, Any] | None] = {}
    for table in made:
        answer = client.post("/api/tables", json=table["body"])
        assume("the same name" not in answer.text)  # names a table refuses, drawn at random
        assert answer.status_code == 201, answer.text
        created = answer.json()
        tokens += [seat["token"] for seat in created["seats"]]
        open_seats = sum(seat["kind"] == "open" for seat in table["body"]["seats"])
        if table["joins"]:
            for i in range(open_seats):
                joined = client.post(
                    f"/api/tables/{created['table']}/join", json={"name": f"{table['joiner']}{i}"}
                )
                if joined.status_code == 200:
                    tokens.append(joined.json()["token"])
        if table["body"]["listed"]:
            listed[created["table"]] = table["body"]["clock"]
    return tokens, listed

"""The table server as people run it: ``high-society serve`` under uvicorn on 127.0.0.1, its
tables in SQLite. A real browser (Debian's chromium, driven by Playwright) plays a whole game
against two bots by clicking, and the final table it shows is the record's; the server killed
with SIGKILL mid-game resumes every table from the database with no acknowledged action lost.

Every process and temporary directory started here is stopped and removed, even on failure.
Waits are on conditions, with generous bounds; no verdict depends on timing.
"""

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from high_society.record import replay, validate_record
from high_society.serial import score_to_json
from services.server_processes import Server, serve_command, wait_for

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parent.parent
#: Set to a folder (docs/images) to keep the browser's screenshots there.
SHOTS = os.environ.get("HIGH_SOCIETY_SCREENSHOTS")


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
                    {"type": "discard", "player": 0, "card": legal["discards"][0]}
                    if legal["discards"]
                    else {"type": "pass", "player": 0}
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
                    {"type": "discard", "player": 0, "card": legal["discards"][0]}
                    if legal["discards"]
                    else {"type": "pass", "player": 0}
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


@pytest.mark.skipif(
    not Path(CHROMIUM).exists() and not os.environ.get("CI"),
    reason="no chromium (python3 tasks.py test installs it)",
)
def test_a_person_plays_a_whole_game_in_a_browser_against_two_bots(data: Path) -> None:
    from playwright.sync_api import sync_playwright

    profile = data / "chromium-profile"
    with serving(data, bot_delay=0.0) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch_persistent_context(
            str(profile),
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
            viewport={"width": 1000, "height": 1000},
            # The test's own checks run in the page (wait_for_function evaluates a string),
            # which the page's Content-Security-Policy forbids to scripts: let the test's
            # through, and count the page's own violations among its console errors.
            bypass_csp=True,
        )
        try:
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on(
                "console",
                lambda message: (
                    errors.append(message.text)
                    if message.type == "error" and "Content Security Policy" in message.text
                    else None
                ),
            )
            page.set_default_timeout(90_000)
            page.goto(server.base + "/")
            page.locator("#start").get_by_label("Your name").fill("Ada")
            page.get_by_label("Seat 2").select_option("heuristic")
            page.get_by_label("Seat 3").select_option("random")
            page.get_by_role("button", name="Create table").click()
            page.wait_for_selector("#game:not([hidden])")
            turn = 0
            shot = False
            while True:
                page.wait_for_function(
                    "['you', 'over'].includes(document.querySelector('#status').dataset.turn)"
                )
                if page.locator("#status").get_attribute("data-turn") == "over":
                    break
                number = page.locator("#status").get_attribute("data-number")
                # A keyboard user finds their place on each turn: on the first thing they
                # can do, though every control was disabled while the others played.
                assert page.evaluate(FOCUSED) in {"hand", "discard-cards", "pass-button"}
                discards = page.locator("#discard-cards button")
                if page.locator("#discard").is_visible() and discards.count():
                    page.keyboard.press("Enter")  # on the first luxury card to discard
                elif (
                    page.get_by_role("button", name="Pass").is_enabled() and turn % 3 != 0
                ) or page.locator("#hand button").count() == 0:
                    page.get_by_role("button", name="Pass").click()
                else:
                    for value in page.locator("#hand button").all_inner_texts():
                        page.locator(f"#hand button[data-value='{value}']").click()
                        if page.locator("#bid-button").is_enabled():
                            break
                    if page.locator("#bid-button").is_enabled():
                        if not shot and turn >= 3:
                            save(page, "server-game.png")
                            shot = True
                        page.locator("#bid-button").click()
                    else:
                        page.get_by_role("button", name="Pass").click()
                turn += 1
                page.wait_for_function(
                    f"document.querySelector('#status').dataset.number !== '{number}'"
                )
            page.wait_for_selector("#result:not([hidden])")
            save(page, "server-final.png")
            table = page.evaluate("location.hash.slice(3)")
            status, record = server.call("GET", f"/api/tables/{table}/record")
            assert status == 200
            validation = validate_record(json.dumps(record))
            assert validation.finished
            outcome = validation.result
            assert outcome is not None
            rows = page.locator("#result-table tbody tr")
            assert rows.count() == 3
            for seat in range(3):
                row = rows.nth(seat)
                assert row.locator(".score").inner_text() == str(
                    score_to_json(outcome.scores[seat])
                )
                assert row.locator(".money-left").inner_text() == str(outcome.money[seat])
            assert validation.record is not None
            assert validation.state is not None
            assert replay(validation.record).players[0].status_cards == tuple(
                validation.state.players[0].status_cards
            )
            assert errors == []
        finally:
            browser.close()


#: Where the keyboard is: the id of the hand or discard group holding the focused button,
#: else the focused element's own id.
FOCUSED = """(() => {
    const active = document.activeElement;
    const group = active.closest("#hand, #discard-cards");
    return group ? group.id : active.id;
})()"""


def save(page: object, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / name), full_page=True)  # type: ignore[attr-defined]

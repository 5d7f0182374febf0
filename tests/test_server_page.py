"""The web page in a real browser (Debian's chromium, driven by Playwright) against
``high-society serve``, as people use it: one whole game of two people and a learned bot,
Ada on a phone (390 x 844) and Ben on a desktop, with a spectator.

Along the way: the invitation and its copy button; the spectators' link, whose page shows
no hand; Ada's seat link opened on another device; the server killed under a move and
started again, the page saying so and recovering by itself; Ada's phone never wider than
its screen at any change of the page, her hand and bid controls in the window on each of
her turns; an accessibility audit (axe-core, from tests/browser, run in the page) with no
serious or critical violation at several steps; nothing refused by the page's Content
Security Policy. At the end: the final scores are the record's, a rematch seats the same
people and bot one seat on, and the record, replayed in the page, steps through with the
server's narration; a refused record shows its action's index and the reason.

Every process and temporary directory started here is stopped and removed, even on failure.
Waits are on conditions, with generous bounds; no verdict depends on timing.
"""

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from high_society.record import validate_record
from high_society.serial import score_to_json
from services.server_processes import Server, serve_command, wait_for

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parent.parent
AXE = ROOT / "tests" / "browser" / "node_modules" / "axe-core" / "axe.min.js"
#: Set to a folder (docs/images) to keep the browser's screenshots there.
SHOTS = os.environ.get("HIGH_SOCIETY_SCREENSHOTS")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1000, "height": 1000}

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() and not os.environ.get("CI"),
    reason="no chromium (python3 tasks.py test installs it)",
)


@pytest.fixture
def data() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="hs-page-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


#: Every server process a test started, stopped at its end whatever happens.
STARTED_SERVERS: list[Server] = []


def start(data: Path, port: int | None = None) -> Server:
    made = Server(
        lambda p: serve_command(p, data_dir=data, bot_delay=0.05), data / "server.log", port=port
    )
    STARTED_SERVERS.append(made)
    return made


#: Run in every page before its own script: what the Content Security Policy refuses.
WATCH_CSP = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
    window.__csp.push(e.violatedDirective + " " + e.blockedURI);
});
"""

#: Records every width of the page wider than its window, at each change of the page.
WATCH_WIDTH = """() => {
    window.__wide = [];
    const check = () => {
        const wide = document.documentElement.scrollWidth;
        if (wide > window.innerWidth) {
            window.__wide.push([wide, document.querySelector("#status").dataset.number]);
        }
    };
    new MutationObserver(check).observe(document.body,
        {subtree: true, childList: true, attributes: true, characterData: true});
    window.addEventListener("resize", check);
}"""

#: Whether the hand, the bid controls and any discard are in the window, from its top.
IN_REACH = """() => {
    window.scrollTo(0, 0);
    const inside = (el) => {
        const r = el.getBoundingClientRect();
        return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight
            && r.right <= window.innerWidth;
    };
    const wanted = [...document.querySelectorAll("#hand button, #discard-cards button"),
        document.querySelector("#bid-button"), document.querySelector("#pass-button")];
    return wanted.filter((el) => !inside(el)).map((el) => el.id || el.textContent);
}"""

#: The page shows a table whose first card is revealed.
STARTED = "() => Number(document.querySelector('#status').dataset.number) > 0"

#: Where the keyboard is: the id of the hand or discard group holding the focused button,
#: else the focused element's own id.
FOCUSED = """() => {
    const active = document.activeElement;
    const group = active.closest("#hand, #discard-cards");
    return group ? group.id : active.id;
}"""


class Person:
    """A page of the table, with what it must never show: page errors and refusals of the
    Content Security Policy."""

    def __init__(self, context: Any, name: str) -> None:
        self.name = name
        self.page = context.new_page()
        self.page.set_default_timeout(120_000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on(
            "console",
            lambda line: self.errors.append(line.text) if "Content Security" in line.text else None,
        )

    def attr(self, selector: str, name: str) -> str | None:
        found: str | None = self.page.get_attribute(selector, name)
        return found

    def turn(self) -> str | None:
        return self.attr("#status", "data-turn")

    def number(self) -> int:
        return int(self.attr("#status", "data-number") or -1)

    def until(self, script: str) -> None:
        self.page.wait_for_function(script)

    def audit(self, where: str) -> None:
        """No serious or critical violation of axe-core's rules on the page as it is."""
        if not self.page.evaluate("() => typeof axe !== 'undefined'"):
            self.page.evaluate(AXE.read_text(encoding="utf-8"))
        found = self.page.evaluate(
            """() => axe.run(document).then((r) => r.violations
                .filter((v) => ["serious", "critical"].includes(v.impact))
                .map((v) => v.id + ": " + v.nodes.map((n) => n.html.slice(0, 80)).join(" | ")))"""
        )
        assert found == [], f"{self.name}, {where}: {found}"

    def clean(self) -> None:
        assert self.errors == [], (self.name, self.errors)
        assert self.page.evaluate("() => window.__csp") == [], self.name


@contextmanager
def browser_contexts() -> Iterator[Callable[..., Any]]:
    """New browser contexts (a person's device each), all closed after the block."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )

        def context(viewport: Any, **options: Any) -> Any:
            made = browser.new_context(viewport=viewport, **options)
            made.add_init_script(script=WATCH_CSP)
            return made

        try:
            yield context
        finally:
            browser.close()


def test_people_play_watch_rematch_and_replay_in_a_browser(data: Path) -> None:
    server = start(data)
    try:
        with browser_contexts() as context:
            phone = context(PHONE, is_mobile=True, has_touch=True)
            phone.grant_permissions(["clipboard-read", "clipboard-write"])
            ada = Person(phone, "Ada on a phone")
            ben = Person(context(DESKTOP), "Ben on a desktop")
            watcher = Person(context(DESKTOP), "a spectator")
            table = make_and_join(server, ada, ben)
            watch(server, ada, watcher, table)
            server = play(server, data, ada, ben, watcher, table)
            final_scores(server, ada, ben, table)
            rematch(server, ada, ben, watcher, table)
            replay(server, ben, table, data)
            for person in (ada, ben, watcher):
                person.clean()
    finally:
        while STARTED_SERVERS:
            STARTED_SERVERS.pop().stop()


def make_and_join(server: Server, ada: Person, ben: Person) -> str:
    """Ada makes a table with an open seat and a learned bot; Ben joins by her invitation."""
    page = ada.page
    page.goto(server.base + "/")
    page.evaluate(WATCH_WIDTH)
    page.wait_for_function("() => document.querySelectorAll('#seat-2 option').length >= 8")
    ada.audit("the start page")
    page.locator("#create-name").fill("Ada")
    page.get_by_label("Seat 2").select_option("open")
    page.get_by_label("Seat 3").select_option("learned")
    page.get_by_role("button", name="Create table").click()
    invite = page.get_by_label("Invitation for seat 2")
    link = invite.input_value()
    page.locator("#invites").get_by_role("button", name="Copy").click()
    page.wait_for_selector("#invite-2-copied:has-text('Copied.')")
    assert page.evaluate("() => navigator.clipboard.readText()") == link
    ada.audit("the waiting room")
    ben.page.goto(link)
    ben.page.locator("#join-name").fill("Ben")
    ben.page.get_by_role("button", name="Join").click()
    ben.page.wait_for_selector("#game:not([hidden])")
    page.wait_for_selector("#game:not([hidden])")
    table = str(link.rsplit("=", 1)[1])
    assert page.evaluate("() => location.hash") == f"#t={table}"
    return table


def watch(server: Server, ada: Person, watcher: Person, table: str) -> None:
    """The spectators' link from Ada's page: the table, and no hand."""
    page = ada.page
    page.locator("#share summary").click()
    link = page.get_by_label("Spectators' link (anyone can watch)").input_value()
    assert link == f"{server.base}/#watch={table}"
    page.locator("#share summary").click()
    watcher.page.goto(link)
    watcher.page.wait_for_selector("#game:not([hidden])")
    watcher.until(STARTED)
    assert watcher.page.locator("#you").is_hidden()
    assert watcher.page.locator("#hand button").count() == 0
    status, public = server.call("GET", f"/api/tables/{table}/public")
    assert status == 200
    assert isinstance(public, dict)
    assert public["view"]["hand"] is None


def play(
    server: Server, data: Path, ada: Person, ben: Person, watcher: Person, table: str
) -> Server:
    """The game to its end, each person acting on their turn; the server killed under one
    of Ada's moves and started again; her seat link opened on another device. Returns the
    server serving at the end."""
    turns = {"Ada": 0, "Ben": 0}
    audited: set[str] = set()
    away = False
    while True:
        wait_for(lambda: ada.turn() in ("you", "over") or ben.turn() == "you", "a person's turn")
        if ada.turn() == "over":
            break
        person = ada if ada.turn() == "you" else ben
        who = "Ada" if person is ada else "Ben"
        turns[who] += 1
        before = person.number()
        if person is ada:
            assert ada.page.evaluate(IN_REACH) == [], f"Ada's turn {turns[who]}: out of reach"
        else:  # the keyboard's place on each turn, though every control was disabled
            assert ben.page.evaluate(FOCUSED) in {"hand", "discard-cards", "pass-button"}
        discarding = person.page.locator("#discard").is_visible()
        if discarding and "discard" not in audited:
            audited.add("discard")
            person.audit("a Faux Pas discard")
        if person is ada and turns[who] == 2:
            ada.audit("Ada's turn")
            save(ada.page, "server-phone.png", full_page=False)
        if person is ben and turns[who] == 3:
            ben.audit("Ben's turn")
            watcher.audit("the spectator's page")
        if person is ada and turns[who] == 3:
            go_on_elsewhere(ada, table)
        passing = person.page.locator("#pass-button").is_enabled()
        if person is ada and turns[who] >= 4 and passing and not away:
            away = True
            server = move_while_the_server_is_away(server, data, ada, before)
            continue
        act(person, turns[who], discarding)
        person.until(f"() => document.querySelector('#status').dataset.number !== '{before}'")
    assert ada.page.evaluate("() => window.__wide") == []
    assert away, turns
    return server


def act(person: Person, turn: int, discarding: bool) -> None:
    page = person.page
    if discarding:
        page.locator("#discard-cards button").first.focus()
        page.keyboard.press("Enter")
        return
    bids = page.locator("#hand button:enabled")
    if turn % 3 == 0 or not page.locator("#pass-button").is_enabled() or not bids.count():
        for value in page.locator("#hand button").all_inner_texts():
            page.locator(f"#hand button[data-value='{value}']").click()
            if page.locator("#bid-button").is_enabled():
                if person.name.startswith("Ben") and turn == 3:
                    save(page, "server-game.png")
                page.locator("#bid-button").click()
                return
    page.get_by_role("button", name="Pass").click()


def go_on_elsewhere(ada: Person, table: str) -> None:
    """Ada's seat link, opened on another device, shows her seat; the token leaves the URL."""
    page = ada.page
    page.locator("#share summary").click()
    link = page.locator("#seat-link").input_value()
    page.locator("#share summary").click()
    assert link.startswith(f"{page.evaluate('() => location.origin')}/#seat={table}:")
    other = page.context.browser.new_context(viewport=PHONE)
    try:
        there = other.new_page()
        there.goto(link)
        there.wait_for_function("() => document.querySelector('#status').dataset.turn === 'you'")
        assert there.evaluate("() => location.hash") == f"#t={table}"
        assert (
            there.locator("#hand button").all_inner_texts()
            == page.locator("#hand button").all_inner_texts()
        )
    finally:
        other.close()


def move_while_the_server_is_away(server: Server, data: Path, ada: Person, before: int) -> Server:
    """Ada passes while the server is down: the page says so, and once the server is back
    the move is played (once) and the page follows the table again, by itself."""
    port = server.port
    server.kill()
    ada.page.wait_for_selector("#fault:not([hidden])")
    ada.page.get_by_role("button", name="Pass").click()
    ada.page.wait_for_selector("#fault:has-text('cannot be reached')")
    again = start(data, port=port)
    ada.page.wait_for_selector("#fault", state="hidden")
    ada.until(f"() => document.querySelector('#status').dataset.number !== '{before}'")
    table = ada.page.evaluate("() => location.hash.slice(3)")
    status, record = again.call("GET", f"/api/tables/{table}/record")
    assert status == 200
    assert isinstance(record, dict)
    assert record["actions"][before] == {"type": "pass", "player": 0}
    return again


def final_scores(server: Server, ada: Person, ben: Person, table: str) -> None:
    """The end on both pages: the scores are the record's; no hand is shown any more."""
    for person in (ada, ben):
        person.page.wait_for_selector("#result:not([hidden])")
        assert person.page.locator("#you").is_hidden()
    status, record = server.call("GET", f"/api/tables/{table}/record")
    assert status == 200
    validation = validate_record(json.dumps(record))
    assert validation.finished
    assert validation.result is not None
    rows = ada.page.locator("#result-table tbody tr")
    assert rows.count() == 3
    for seat in range(3):
        row = rows.nth(seat)
        assert row.locator(".score").inner_text() == str(
            score_to_json(validation.result.scores[seat])
        )
        assert row.locator(".money-left").inner_text() == str(validation.result.money[seat])
    assert ada.page.evaluate("() => window.__wide") == []
    ada.audit("the final scores")
    ben.audit("the final scores")
    save(ada.page, "server-phone-final.png")
    save(ben.page, "server-final.png")


def rematch(server: Server, ada: Person, ben: Person, watcher: Person, table: str) -> None:
    """Ada asks for a rematch; Ben is offered it and joins; it starts with the same people
    and bot one seat on; the spectator is offered to watch it."""
    ada.page.get_by_role("button", name="Rematch", exact=True).click()
    ada.page.wait_for_selector("#waiting:not([hidden])")
    status, info = server.call("GET", f"/api/tables/{table}")
    assert status == 200
    assert isinstance(info, dict)
    new = info["rematch"]
    assert ada.page.evaluate("() => location.hash") == f"#t={new}"
    ben.page.get_by_role("button", name="Join the rematch").click()
    for person in (ada, ben):
        person.page.wait_for_selector("#game:not([hidden])")
        person.until(STARTED)
    status, lobby = server.call("GET", f"/api/tables/{new}")
    assert isinstance(lobby, dict)
    assert [seat["name"] for seat in lobby["seats"]] == ["Ben", "Learned bot 3", "Ada"]
    assert ben.page.locator("#players li.me").get_attribute("data-seat") == "0"
    watcher.page.get_by_role("link", name="Watch the rematch").click()
    watcher.page.wait_for_function(f"() => location.hash === '#watch={new}'")
    watcher.until(STARTED)


def replay(server: Server, ben: Person, table: str, data: Path) -> None:
    """The finished table's record, opened as a file, steps through with the server's
    narration; a refused record shows its action's index and the reason."""
    record = server.call("GET", f"/api/tables/{table}/record")[1]
    assert isinstance(record, dict)
    public = server.call("GET", f"/api/tables/{table}/public")[1]
    assert isinstance(public, dict)
    told = {entry["number"]: entry["text"] for entry in public["log"]}
    path = data / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    page = ben.page
    reopen(page, path)
    page.wait_for_selector("#replay-bar:not([hidden])")
    assert page.locator("#replay-verdict").get_attribute("data-valid") == "true"
    count = len(record["actions"])
    page.get_by_role("button", name="First").click()
    for _ in range(4):
        page.get_by_role("button", name="Next").click()
    index = int(page.locator("#replay-position").get_attribute("data-index") or -1)
    assert index == 4
    assert page.locator("#log li").last.inner_text() == told[4]
    ben.audit("a replay")
    save(page, "server-replay.png")
    page.get_by_role("button", name="Last").click()
    page.wait_for_selector("#result:not([hidden])")
    assert page.locator("#replay-step").get_attribute("max") == str(count)
    refused = refused_record(record)
    path.write_text(json.dumps(refused), encoding="utf-8")
    expected = validate_record(json.dumps(refused)).error
    assert expected is not None
    assert expected.index is not None
    reopen(page, path)
    page.wait_for_function(
        f"() => document.querySelector('#replay-verdict').dataset.index === '{expected.index}'"
    )
    verdict = page.locator("#replay-verdict")
    assert verdict.get_attribute("data-code") == expected.code.value
    assert f"action {expected.index}" in verdict.inner_text()
    assert expected.message in verdict.inner_text()
    assert page.locator("#replay-step").get_attribute("max") == str(expected.index)


def reopen(page: Any, path: Path) -> None:
    """The start page, loaded again, and the record file ``path`` opened in it."""
    page.goto(page.evaluate("() => location.origin") + "/")
    page.wait_for_selector("#start:not([hidden])")
    page.get_by_label("Record file").set_input_files(str(path))


def refused_record(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with a pass, well formed, by a seat whose turn it is not, halfway."""
    actions = list(record["actions"])
    at = next(
        i for i in range(len(actions) // 2, len(actions)) if actions[i]["type"] in ("bid", "pass")
    )
    actions[at] = {"type": "pass", "player": (actions[at]["player"] + 1) % 3}
    return {**record, "actions": actions}


def save(page: Any, name: str, *, full_page: bool = True) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / name), full_page=full_page)


def test_a_seat_link_never_takes_a_working_seat_away(data: Path) -> None:
    """A seat link is checked with the server before its token is kept: a refused one
    leaves the seat this browser holds; another seat's working one is kept only if the
    person says so; no token stays in the address bar or the page's history."""
    server = start(data)
    try:
        two = {"seats": [{"kind": "person", "name": n} for n in ("Ada", "Ben")]}
        two["seats"].append({"kind": "bot", "bot": "pass"})
        status, made = server.call("POST", "/api/tables", two)
        assert status == 201
        assert isinstance(made, dict)
        table = made["table"]
        ada, ben = (seat["token"] for seat in made["seats"])
        with browser_contexts() as context:
            person = Person(context(DESKTOP), "Ada")
            page = person.page
            answers: list[str] = []

            def dialog(box: Any) -> None:
                answers.append(box.message)
                box.accept() if len(answers) > 1 else box.dismiss()

            page.on("dialog", dialog)
            kept = f"() => JSON.parse(localStorage.getItem('high-society:{table}')).token"
            page.goto(f"{server.base}/#seat={table}:{ada}")  # her own link: kept
            page.wait_for_selector("#game:not([hidden])")
            assert page.evaluate(kept) == ada
            for forged in ("ANYTHING", "x" * 43, ben[:-1]):  # anyone can make these
                page.goto(f"{server.base}/#seat={table}:{forged}")
                page.wait_for_selector("#notice:has-text('does not open a seat')")
                assert page.evaluate(kept) == ada
                page.wait_for_selector("#you:not([hidden])")  # she still plays her seat
            page.goto(f"{server.base}/#seat=NOSUCHTABLE:{ada}")
            page.wait_for_selector("#notice:has-text('no such table')")
            assert page.evaluate(kept) == ada
            page.goto(f"{server.base}/#seat={table}:{ben}")  # Ben's, working: asked
            page.wait_for_selector("#notice:has-text('keeps its own seat')")
            assert page.evaluate(kept) == ada
            page.goto(f"{server.base}/#seat={table}:{ben}")  # asked again, and accepted
            wait_for(lambda: page.evaluate(kept) == ben, "Ben's token kept once accepted")
            assert answers == [answers[0]] * 2
            assert "holds seat 1" in answers[0]
            assert "Play seat 2" in answers[0]
            # No token in the address bar, nor in any entry of the page's history.
            entries = page.evaluate("() => history.length")
            seen = [page.url]
            for _ in range(entries - 1):  # from the last entry back to the first
                page.go_back()
                seen.append(page.url)
            assert len(seen) > 5
            assert not any(token in url for url in seen for token in (ada, ben)), seen
            person.clean()
    finally:
        while STARTED_SERVERS:
            STARTED_SERVERS.pop().stop()

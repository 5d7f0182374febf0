"""The web page in a real browser (Debian's chromium, driven by Playwright) against
``high-society serve``, as people use it: one whole game of two people and a learned bot,
Ada on a phone (390 x 844) and Ben on a desktop, with a spectator; two strangers who find
each other through the lobby at a table with a short clock, one of whom walks away; and a
person with two correspondence games under "your tables".

Along the way: the invitation and its copy button; the spectators' link, whose page shows
no hand; Ada's seat link opened on another device; the server killed under a move and
started again, the page saying so and recovering by itself; Ada's phone never wider than
its screen at any change of the page, her hand and bid controls in the window on each of
her turns; an accessibility audit (axe-core, from tests/browser, run in the page) with no
serious or critical violation at several steps; nothing refused by the page's Content
Security Policy. At the end: the final scores are the record's, a rematch seats the same
people and bot one seat on, and the record, replayed in the page, opens at its first action
and steps through with the server's narration, numbered as the game's log numbers it; a
refused record shows its action's index and the reason; a file that is no record says so
on the first page.

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

#: Records the clock line's state at each change of the page ("seat:away:seconds left"):
#: what a person saw of a running clock, however briefly it ran.
WATCH_CLOCKS = """() => {
    window.__clocks = new Set();
    const look = () => {
        const line = document.querySelector("#turn-clock");
        const left = line.querySelector(".countdown");
        if (!line.hidden && left) {
            const state = [line.dataset.seat, line.dataset.away, left.dataset.left];
            window.__clocks.add(state.join(":"));
        }
    };
    new MutationObserver(look).observe(document.body,
        {subtree: true, childList: true, attributes: true, characterData: true});
}"""

#: A page out of sight whose person allowed notifications: each notification is kept.
NOTIFICATIONS = """
Object.defineProperty(Document.prototype, "hidden", {get: () => true});
window.__notified = [];
window.Notification = class {
    constructor(title, options) { window.__notified.push(options.tag); }
    static get permission() { return "granted"; }
    static requestPermission() { return Promise.resolve("granted"); }
};
"""

#: Whether an element is in the window, from the page's top.
IN_FIRST_SCREEN = """(selector) => {
    window.scrollTo(0, 0);
    const r = document.querySelector(selector).getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
}"""

#: The seat's move now, if it has one: the first Faux Pas discard offered, else a pass
#: (its clock may have played the turn meanwhile: then nothing is clicked).
ACT_NOW = """() => {
    const button = [...document.querySelectorAll("#discard-cards button, #pass-button")]
        .find((b) => !b.disabled && b.getClientRects().length);
    if (button) button.click();
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
    assert isinstance(record, dict)
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
    winners = [record["players"][seat] for seat in validation.result.winners]
    winners = ["you" if name == "Ada" else name for name in winners]  # on her own page
    status = ada.page.locator("#status").inner_text()
    assert status.startswith("Game over: ")
    assert all(name in status for name in winners), (status, winners)
    assert ada.page.evaluate(IN_FIRST_SCREEN, "#status"), "the winner below the fold"
    public = server.call("GET", f"/api/tables/{table}/public")[1]
    assert isinstance(public, dict)
    logged = ben.page.locator("#log li[data-number='4']")  # numbered as a replay numbers it
    assert logged.get_attribute("value") == "5"
    assert logged.inner_text() == "\n".join(told_by_number(public)[4])
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
    """The finished table's record, opened as a file, opens at its first action and steps
    through with the server's narration, each action numbered as the game's log numbered
    it; a refused record shows its action's index and the reason; a file that is no record
    says so on the first page, where another can be opened."""
    record = server.call("GET", f"/api/tables/{table}/record")[1]
    assert isinstance(record, dict)
    public = server.call("GET", f"/api/tables/{table}/public")[1]
    assert isinstance(public, dict)
    told = told_by_number(public)
    page = ben.page
    path = data / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    reopen(page, path)
    page.wait_for_selector("#replay-bar:not([hidden])")
    assert page.locator("#replay-verdict").get_attribute("data-valid") == "true"
    count = len(record["actions"])
    assert page.locator("#replay-position").get_attribute("data-index") == "0"
    for _ in range(4):
        page.get_by_role("button", name="Next").click()
    index = int(page.locator("#replay-position").get_attribute("data-index") or -1)
    assert index == 4
    assert page.locator("#replay-position").inner_text().startswith(f"Action 5 of {count}: ")
    assert page.locator("#log li").last.get_attribute("value") == "5"
    assert page.locator("#log li").last.inner_text() == "\n".join(told[4])
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
    assert f"action {expected.index + 1} ({expected.path})" in verdict.inner_text()
    assert expected.message in verdict.inner_text()
    assert page.locator("#replay-step").get_attribute("max") == str(expected.index)
    page.get_by_role("button", name="Back to the first page").click()
    page.wait_for_selector("#start:not([hidden])")
    path.write_text(json.dumps({"hello": "world"}), encoding="utf-8")
    page.get_by_label("Record file").set_input_files(str(path))
    page.wait_for_selector("#notice:has-text('not a record of a game')")
    assert "BAD_FORMAT" in page.locator("#notice").inner_text()
    assert page.locator("#start").is_visible()
    assert page.locator("#game").is_hidden()
    ben.audit("a file that is no record")


def told_by_number(payload: dict[str, Any]) -> dict[int, list[str]]:
    """A payload's log, the texts of each action by its number."""
    told: dict[int, list[str]] = {}
    for entry in payload["log"]:
        told.setdefault(entry["number"], []).append(entry["text"])
    return told


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


def test_strangers_meet_in_the_lobby_and_a_clock_plays_for_who_walks_away(data: Path) -> None:
    """Ada makes a table with a short clock (3 s a move, a bot after one time-out) and lists
    it; Ben, a stranger in another browser, sees it come into the lobby and joins it there,
    and a spectator on a phone watches it from the lobby. Ada walks away: Ben sees her clock
    run and her time run out, then a bot play her seat (away) to the end, while he plays his
    own turns with his clock running; every action a time-out played is marked in both
    pages' logs. At the end the phone names the winner in its first screen, and it was never
    wider than its screen."""
    server = start(data)
    try:
        with browser_contexts() as context:
            ada = Person(context(DESKTOP), "Ada")
            ben = Person(context(DESKTOP), "Ben, a stranger")
            watcher = Person(context(PHONE, is_mobile=True, has_touch=True), "a spectator")
            for person in (ben, watcher):
                person.page.goto(server.base + "/")
                person.page.wait_for_selector("#lobby-status:has-text('No table is listed')")
                person.page.evaluate(WATCH_CLOCKS)
            watcher.page.evaluate(WATCH_WIDTH)
            table = list_a_table(server, ada)
            entry = f"#lobby-tables li[data-table='{table}']"
            ben.page.wait_for_selector(f"{entry}[data-open='1']")  # come in live
            ben.audit("the lobby")
            save(ben.page, "server-lobby.png")
            ben.page.locator(entry).get_by_role("link", name="Join").click()
            ben.page.locator("#join-name").fill("Ben")
            ben.page.get_by_role("button", name="Join").click()
            for person in (ada, ben):
                person.page.wait_for_selector("#game:not([hidden])")
            ada.clean()
            ada.page.close()  # Ada walks away
            watcher.page.locator(f"{entry}[data-open='0']").get_by_role(
                "link", name="Watch"
            ).click()
            watcher.page.wait_for_selector("#game:not([hidden])")
            watcher.until("() => window.__clocks.size > 0")
            watcher.audit("a table with a clock")
            own_turns(ben)
            record = server.call("GET", f"/api/tables/{table}/record")[1]
            assert isinstance(record, dict)
            time_outs = record["meta"]["time_outs"]
            adas = [i for i, action in enumerate(record["actions"]) if action.get("player") == 0]
            assert adas
            assert set(adas) <= set(time_outs)  # her clock, then the bot, played each of hers
            seen = ben.page.evaluate("() => [...window.__clocks]")
            assert any(state.startswith("0:") for state in seen), seen  # her clock ran
            for person in (ben, watcher):
                page = person.page
                page.wait_for_selector("#result:not([hidden])")
                marked = page.locator("#log li:has(.timed-out)")
                numbers = [
                    int(n) for n in marked.evaluate_all("(ls) => ls.map((l) => l.value - 1)")
                ]
                assert numbers == sorted(time_outs), person.name
                away = page.locator("#players li[data-seat='0']")
                assert away.get_attribute("data-away") == "true"
                assert "away: a bot plays" in away.inner_text()
            validation = validate_record(json.dumps(record))
            assert validation.result is not None
            status = watcher.page.locator("#status").inner_text()
            assert status.startswith("Game over: ")
            for seat in validation.result.winners:
                assert record["players"][seat] in status, status
            assert watcher.page.evaluate(IN_FIRST_SCREEN, "#status"), "the winner below the fold"
            assert watcher.page.evaluate("() => window.__wide") == []
            watcher.audit("the end on a phone")
            ben.audit("the end")
            for person in (ben, watcher):
                person.clean()
    finally:
        while STARTED_SERVERS:
            STARTED_SERVERS.pop().stop()


def list_a_table(server: Server, ada: Person) -> str:
    """Ada makes a listed table with an open seat and a bot, 3 s a move, a bot playing a seat
    after one time-out and waiting half a second; its id."""
    page = ada.page
    page.goto(server.base + "/")
    page.wait_for_function("() => document.querySelectorAll('#seat-2 option').length >= 8")
    page.locator("#create-name").fill("Ada")
    page.get_by_label("Seat 2").select_option("open")
    page.get_by_label("Time to act").select_option("move")
    page.get_by_label("Seconds a move").fill("3")
    page.get_by_label("Time-outs before a bot plays").fill("1")
    page.get_by_label("An away seat's turn waits (seconds)").fill("0.5")
    page.get_by_label("List it in the lobby").check()
    page.get_by_role("button", name="Create table").click()
    page.wait_for_selector("#waiting:not([hidden])")
    return str(page.evaluate("() => location.hash.slice(3)"))


def own_turns(ben: Person) -> None:
    """Ben's turns to the game's end: on each his own clock shows running (the same render
    shows his turn and his clock), and he passes (or discards for a Faux Pas) at once. Once
    Ada is away, his page is kept as a picture."""
    pictured = False
    while True:
        wait_for(lambda: ben.turn() in ("you", "over"), "Ben's turn, or the end")
        shown = ben.page.evaluate(
            """() => {
                const status = document.querySelector("#status");
                const line = document.querySelector("#turn-clock");
                const left = line.querySelector(".countdown");
                return [status.dataset.turn, status.dataset.number, line.hidden,
                    line.dataset.seat, left ? Number(left.dataset.left) : null];
            }"""
        )
        turn, before, hidden, seat, left = shown
        if turn == "over":
            return
        if turn != "you":
            continue
        assert (hidden, seat) == (False, "1"), shown
        assert 0 <= left <= 3, shown
        if not pictured and ben.attr("#players li[data-seat='0']", "data-away") == "true":
            pictured = True
            save(ben.page, "server-clock.png")
        ben.page.evaluate(ACT_NOW)
        ben.until(f"() => document.querySelector('#status').dataset.number !== '{before}'")


def test_your_tables_follow_two_correspondence_games(data: Path) -> None:
    """Ada plays two correspondence games (days a move) on her phone. At one table her own
    clock shows, and a line and the tab's title say her turn waits at the other; on the
    first page "your tables" lists both, her turn first where her time runs out first, with
    the time left, the title counts them, and a notification tells her of each."""
    server = start(data)
    try:
        with browser_contexts() as context:
            phone = context(PHONE, is_mobile=True, has_touch=True)
            phone.add_init_script(script=NOTIFICATIONS)
            ada = Person(phone, "Ada on a phone")
            page = ada.page
            tables = []
            for days, bots in (("3", ("heuristic", "random")), ("1.5", ("cautious", "classic"))):
                page.goto(server.base + "/")
                page.wait_for_function(
                    "() => document.querySelectorAll('#seat-2 option').length >= 8"
                )
                page.locator("#create-name").fill("Ada")
                page.get_by_label("Seat 2").select_option(bots[0])
                page.get_by_label("Seat 3").select_option(bots[1])
                page.get_by_label("Time to act").select_option("days")
                page.get_by_label("Days a move").fill(days)
                page.get_by_role("button", name="Create table").click()
                page.wait_for_function(
                    "() => document.querySelector('#status').dataset.turn === 'you'"
                )
                tables.append(str(page.evaluate("() => location.hash.slice(3)")))
            line = page.locator("#turn-clock")
            assert line.get_attribute("data-seat") == "0"
            left = int(line.locator(".countdown").get_attribute("data-left") or 0)
            assert 1.5 * 86400 - 3600 < left <= 1.5 * 86400
            page.wait_for_selector(f"#elsewhere a[href='#t={tables[0]}']")
            wait_for(
                lambda: page.title() == "Your turn · your turn at 1 other table · High Society",
                "the title telling of the other table",
            )
            ada.audit("a correspondence game")
            page.goto(server.base + "/")
            page.evaluate(WATCH_WIDTH)
            for table in tables:
                page.wait_for_selector(f"#yours-tables li[data-table='{table}'][data-turn='you']")
            listed = page.locator("#yours-tables li")
            assert listed.evaluate_all("(ls) => ls.map((l) => l.dataset.table)") == tables[::-1]
            assert "With Cautious bot 2 and Classic bot 3" in listed.first.inner_text()
            for i in range(2):
                assert "Your turn · " in listed.nth(i).inner_text()
                assert " left" in listed.nth(i).inner_text()
            sooner = int(listed.first.locator(".countdown").get_attribute("data-left") or 0)
            assert 86400 < sooner <= 1.5 * 86400
            wait_for(lambda: page.title() == "Your turn at 2 tables · High Society", "the title")
            told = sorted(f"high-society-turn-{table}" for table in tables)
            wait_for(lambda: sorted(page.evaluate("() => window.__notified")) == told, "notices")
            ada.audit("your tables")
            save(page, "server-your-tables.png", full_page=False)
            assert page.evaluate("() => window.__wide") == []
            ada.clean()
    finally:
        while STARTED_SERVERS:
            STARTED_SERVERS.pop().stop()

// The web page of the High Society table server: find a table in the lobby or make one,
// join, play and watch it, follow every table this browser holds a seat at, ask for a
// rematch, and replay a recorded game. Everything it shows comes from the server: the
// lobby, a seat's payload or a spectator's, pushed as Server-Sent Events (read with fetch,
// so that a seat's token travels in a header, never in a URL), and for a replay the steps
// the server works out from the record. No rule of the game lives here, nor any clock's:
// a clock's deadline is the server's, and the page only counts down to it. Names come
// from other people: they are only ever set as text, never as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const TITLE = "High Society";
// The largest record the server replays (POST /api/replays), in bytes.
const MAX_RECORD_BYTES = 256 * 1024;
// A stream that brings nothing (not even the keep-alive comment sent after 15 s of
// silence) for this long is taken for lost and opened again.
const SILENT_STREAM_MS = 40000;
// Where this browser keeps its seats' tokens (a key per table) and its person's name.
const KEPT = "high-society:";
// A ``since`` beyond any table's number: the server answers it with the table's number,
// so a payload asked with it carries no history (what "your tables" needs).
const NO_HISTORY = 999999999;
// How often "your tables" is read again (sooner when one of their clocks runs out).
const YOURS_EVERY_MS = 30000;

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (className) node.className = className;
  return node;
}

// --- Cards, drawn in CSS: each an image with a name for screen readers --------------------

const DARK_GREEN = new Set(["prestige", "scandale"]);
const CARD_MARK = {prestige: "×2", "faux-pas": "−1", passe: "−5", scandale: "½"};
const CARD_NAME = {prestige: "Prestige", "faux-pas": "Faux Pas", passe: "Passé", scandale: "Scandale"};

function cardLabel(name) {
  if (name.startsWith("luxury-")) return "Luxury " + name.slice(7);
  return CARD_NAME[name] || name;
}

function cardKind(name) {
  if (name.startsWith("luxury-")) return "luxury";
  return name === "prestige" ? "prestige" : "disgrace";
}

function drawCard(name, size) {
  const card = el("span", null, ["card", cardKind(name), name, size || "small"].join(" "));
  if (DARK_GREEN.has(name)) card.classList.add("dark");
  card.setAttribute("role", "img");
  card.setAttribute("aria-label", cardLabel(name));
  const mark = name.startsWith("luxury-") ? name.slice(7) : CARD_MARK[name];
  for (const [text, part] of [[mark, "corner"], [mark, "mark"], [name.startsWith("luxury-") ? "Luxury" : CARD_NAME[name], "caption"]]) {
    const piece = el("span", text, part);
    piece.setAttribute("aria-hidden", "true");
    card.append(piece);
  }
  return card;
}

function drawBack(text) {
  const card = el("span", null, "card back big");
  card.setAttribute("role", "img");
  card.setAttribute("aria-label", text);
  return card;
}

function drawMoney(value) {
  return el("span", String(value), "money");
}

// --- Time: the server's clock, and time left counting down -------------------------------------

// The server's time minus the browser's, in seconds: deadlines are the server's, and a
// browser's clock may be off by minutes. Measured with GET /api/health, whose ``now`` is
// taken about halfway through the request.
let offset = 0;

async function measureOffset() {
  const sent = Date.now();
  const answer = await api("GET", "/api/health").catch(() => ({status: 0}));
  const back = Date.now();
  if (answer.ok && answer.data && typeof answer.data.now === "number") {
    offset = answer.data.now - (sent + back) / 2000;
    tick();
  }
}

function serverNow() {
  return Date.now() / 1000 + offset;
}

function plural(count, word) {
  return count + " " + word + (count === 1 ? "" : "s");
}

// Time left, as a clock says it: 0:07, 4:32, 5 h 12 min, 2 days 3 h.
function timeLeft(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 3600) return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  if (s < 86400) return Math.floor(s / 3600) + " h " + String(Math.floor((s % 3600) / 60)).padStart(2, "0") + " min";
  return plural(Math.floor(s / 86400), "day") + " " + Math.floor((s % 86400) / 3600) + " h";
}

// An amount of a time control: 30 s, 10 min, 1.5 h, 3 days.
function amount(seconds) {
  const round = (value) => String(Number(value.toFixed(2)));
  if (seconds >= 86400) return round(seconds / 86400) + (seconds === 86400 ? " day" : " days");
  if (seconds >= 3600) return round(seconds / 3600) + " h";
  if (seconds >= 60) return round(seconds / 60) + " min";
  return round(seconds) + " s";
}

// A table's time control (the wire's TimeControl) in words.
function controlWords(control) {
  if (!control) return "no clock";
  const each = control.move !== null && control.move !== undefined
    ? amount(control.move) + " a move"
    : "a bank of " + amount(control.bank) + (control.increment ? ", " + amount(control.increment) + " more each move" : "");
  return each + "; a bot plays a seat after " + plural(control.takeover, "time-out") + " in a row";
}

// A time left that counts down by itself (``tick``) to ``deadline``, from the turn's start
// ``since`` (both the server's seconds): never more than the turn's length, whatever the
// error of the correction of the browser's clock.
function countdown(deadline, since) {
  const span = el("span", null, "countdown");
  span.dataset.deadline = String(deadline);
  span.dataset.length = String(deadline - since);
  showLeft(span, serverNow());
  return span;
}

function showLeft(span, now) {
  const left = Math.min(Number(span.dataset.deadline) - now, Number(span.dataset.length));
  const text = timeLeft(left);
  if (span.textContent !== text) span.textContent = text;
  const whole = String(Math.max(0, Math.ceil(left)));
  if (span.dataset.left !== whole) span.dataset.left = whole;
}

function tick() {
  const now = serverNow();
  for (const span of document.querySelectorAll(".countdown")) showLeft(span, now);
}

// --- Messages: a fault (the server or the stream away: retried by itself) and a notice ----

const faults = new Map();

function setFault(key, text) {
  faults.set(key, text);
  showFault();
}

function clearFault(key) {
  if (faults.delete(key)) showFault();
}

function showFault() {
  const box = $("fault");
  const text = faults.size ? Array.from(faults.values()).pop() : ""; // the latest
  if (box.textContent !== text) box.textContent = text;
  box.hidden = !text;
}

function notice(text) {
  const box = $("notice");
  box.textContent = text || "";
  box.hidden = !text;
}

function show(section) {
  for (const id of ["start", "join", "waiting", "game"]) $(id).hidden = id !== section;
  // The lobby's stream is held only while the first page shows it.
  if (section === "start") {
    followLobby();
    refreshYours();
  } else {
    stopLobby();
  }
  showElsewhere();
}

// The start page, with ``text`` as a notice: where a table or a record that cannot be
// shown leaves a person, with the address bar saying so.
function home(text) {
  if (current && current.stream) current.stream.abort();
  current = null;
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  setTitle("");
  show("start");
  seatChoices();
  notice(text);
}

// The tab's title: what the page shows (``here``: "Your turn", "Watching" ...), and the
// tables elsewhere where it is this browser's turn.
let titleHere = "";

function setTitle(here) {
  if (here !== undefined) titleHere = here;
  const waiting = turnsElsewhere().length;
  const parts = titleHere ? [titleHere] : [];
  if (waiting) {
    parts.push((titleHere ? "your turn at " : "Your turn at ") + plural(waiting, titleHere ? "other table" : "table"));
  }
  parts.push(TITLE);
  document.title = parts.join(" · ");
}

// --- Talking to the server ------------------------------------------------------------------

async function api(method, path, body, token) {
  const headers = {"Content-Type": "application/json"};
  if (token) headers.Authorization = "Bearer " + token;
  const sent = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
  const response = await fetch(path, {method, headers, body: sent, cache: "no-store"});
  let data = null;
  try {
    data = await response.json();
  } catch (error) {
    data = null;
  }
  return {ok: response.ok, status: response.status, data, retryAfter: Number(response.headers.get("Retry-After")) || 0};
}

const AWAY = new Set([0, 502, 503, 504]);

// ``attempt`` again and again while the server cannot be reached or cannot answer now, with
// a visible message meanwhile; its answer once it has one. Only for requests that may be
// sent twice: reads, numbered moves, a rematch. ``null`` once the page has moved on.
async function retrying(key, mine, attempt) {
  let wait = 1000;
  for (;;) {
    let answer = {status: 0};
    try {
      answer = await attempt();
    } catch (error) {
      answer = {status: 0};
    }
    if (mine && current !== mine) return null;
    if (!AWAY.has(answer.status)) {
      clearFault(key);
      return answer;
    }
    setFault(key, answer.status ? "The server cannot answer now. Trying again…" : "The server cannot be reached. Trying again…");
    await sleep(Math.max(wait, (answer.retryAfter || 0) * 1000));
    if (mine && current !== mine) return null;
    wait = Math.min(wait * 2, 5000);
  }
}

function message(answer, otherwise) {
  if (!answer.status) return "The server cannot be reached: try again in a moment.";
  return answer.data && answer.data.message ? answer.data.message : otherwise;
}

// --- Where we are: the URL's fragment (never sent to the server), a seat's token kept here ---

function fragment() {
  const found = /^#(t|join|watch|replay|seat)=([A-Za-z0-9_-]{1,64})(?::([A-Za-z0-9_-]{1,64}))?$/.exec(location.hash);
  return found ? {mode: found[1], table: found[2], token: found[3] || null} : null;
}

function saved(table) {
  try {
    return JSON.parse(localStorage.getItem(KEPT + table) || "null");
  } catch (error) {
    return null;
  }
}

function save(table, token) {
  localStorage.setItem(KEPT + table, JSON.stringify({token}));
}

// Every seat this browser keeps: [{table, token}].
function keptSeats() {
  const seats = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    const table = key && key.startsWith(KEPT) ? key.slice(KEPT.length) : "";
    if (!/^[A-Za-z0-9_-]{1,32}$/.test(table)) continue;
    const kept = saved(table);
    if (kept && typeof kept.token === "string") seats.push({table, token: kept.token});
  }
  return seats;
}

// Keep the token of a seat link for ``table``, once the server says whose seat it is. A
// token the server refuses is never kept, and a working one kept here is never dropped
// without asking: a link anyone can make must not take a person's seat away, nor seat
// them at someone else's without their saying so.
async function takeSeatLink(mine, table, offered) {
  const kept = saved(table);
  if (kept && kept.token === offered) return;
  const seatOf = (token) => retrying("seat-link", mine, () => api("GET", "/api/tables/" + table + "/seat", undefined, token));
  const answer = await seatOf(offered);
  if (!answer) return;
  if (!answer.ok) {
    // (A table that is gone is said as the table is opened.)
    if (answer.status !== 404) notice("That seat link does not open a seat at this table, so it was not kept" + (kept ? ": this browser keeps its own seat." : "."));
    return;
  }
  if (kept && kept.token) {
    const ours = await seatOf(kept.token);
    if (!ours) return;
    const question = "This browser holds seat " + ((ours.data && ours.data.seat) + 1) + " at this table. Play seat " + (answer.data.seat + 1) + " from the link instead? (Cancel keeps your seat.)";
    if (ours.ok && !window.confirm(question)) {
      notice("The seat link was not used: this browser keeps its own seat.");
      return;
    }
  }
  save(table, offered);
}

function link(hash) {
  return location.origin + "/#" + hash;
}

// --- Making a table, replaying a record --------------------------------------------------

// The bots a seat can have, as levels (GET /api/bots), easiest first; until they come, two.
let bots = [{label: "heuristic", description: ""}, {label: "random", description: ""}];

async function loadBots() {
  const answer = await retrying("bots", null, () => api("GET", "/api/bots"));
  if (answer.ok && answer.data) {
    bots = answer.data.bots;
    seatChoices();
  }
}

function botName(bot) {
  const name = bot.label.charAt(0).toUpperCase() + bot.label.slice(1);
  return bot.level ? "Level " + bot.level + " · " + name + " (" + bot.tier + ")" : name + " bot";
}

function seatChoices() {
  const players = Number($("create-players").value);
  const box = $("create-seats");
  const kept = Array.from(box.querySelectorAll("select")).map((s) => s.value);
  box.replaceChildren(el("legend", "The other seats"));
  for (let seat = 2; seat <= players; seat += 1) {
    const p = el("p", null, "field");
    const id = "seat-" + seat;
    const label = el("label", "Seat " + seat);
    label.htmlFor = id;
    const select = el("select");
    select.id = id;
    for (const bot of bots) {
      const option = el("option", botName(bot));
      option.value = bot.label;
      select.append(option);
    }
    const open = el("option", "A person (invite)");
    open.value = "open";
    select.append(open);
    const want = kept[seat - 2] || (seat === 3 ? "random" : "heuristic");
    select.value = Array.from(select.options).some((o) => o.value === want) ? want : select.options[0].value;
    const hint = el("span", "", "hint");
    hint.id = id + "-hint";
    select.setAttribute("aria-describedby", hint.id);
    const describe = () => {
      const bot = bots.find((b) => b.label === select.value);
      hint.textContent = select.value === "open" ? "You get a link to send them." : bot ? bot.description : "";
    };
    select.addEventListener("change", describe);
    describe();
    p.append(label, select, hint);
    box.append(p);
  }
}

const CLOCK_HINTS = {
  none: "Take as long as you like.",
  move: "Each turn has this long; the clock starts again at every turn.",
  bank: "Each player has this much time for the whole game, and the seconds added after each of their moves.",
  days: "For a game over days: come back to “Your tables” on this page to see where it is your turn.",
};

// Only the chosen clock's fields show (and are checked by the form).
function clockChoices() {
  const kind = $("clock-kind").value;
  for (const field of $("create-clock").querySelectorAll("[data-clock]")) {
    const shown = kind !== "none" && (field.dataset.clock === kind || field.dataset.clock === "any");
    field.hidden = !shown;
    for (const input of field.querySelectorAll("input")) input.disabled = !shown;
  }
  $("clock-kind-hint").textContent = CLOCK_HINTS[kind];
}

// The clock chosen, as the wire's TimeControl (null: none).
function chosenClock() {
  const kind = $("clock-kind").value;
  if (kind === "none") return null;
  const value = (id) => Number($(id).value);
  const control = {takeover: value("clock-takeover"), away_seconds: value("clock-away")};
  if (kind === "move") control.move = value("clock-move");
  if (kind === "days") control.move = value("clock-days") * 86400;
  if (kind === "bank") {
    control.bank = value("clock-bank") * 60;
    control.increment = value("clock-increment");
  }
  return control;
}

async function createTable(event) {
  event.preventDefault();
  notice("");
  const name = $("create-name").value.trim();
  localStorage.setItem(KEPT + "name", name);
  const seats = [{kind: "person", name}];
  for (const select of $("create-seats").querySelectorAll("select")) {
    seats.push(select.value === "open" ? {kind: "open"} : {kind: "bot", bot: select.value});
  }
  const table = {seats, clock: chosenClock(), listed: $("create-listed").checked};
  // Not retried by itself: sent twice, it would make two tables.
  const answer = await api("POST", "/api/tables", table).catch(() => ({status: 0}));
  if (!answer.ok) {
    notice(message(answer, "The table could not be made."));
    return;
  }
  save(answer.data.table, answer.data.seats[0].token);
  location.hash = "t=" + answer.data.table;
}

async function joinTable(event) {
  event.preventDefault();
  notice("");
  const where = fragment();
  const name = $("join-name").value.trim();
  localStorage.setItem(KEPT + "name", name);
  const answer = await api("POST", "/api/tables/" + where.table + "/join", {name}).catch(() => ({status: 0}));
  if (!answer.ok) {
    notice(message(answer, "Could not join the table."));
    return;
  }
  save(where.table, answer.data.token);
  if (location.hash === "#t=" + where.table) open();
  else location.hash = "t=" + where.table;
}

async function replayFile() {
  const input = $("replay-file");
  const file = input.files[0];
  if (!file) return;
  input.value = ""; // the same file, chosen again, is read again
  notice("");
  if (file.size > MAX_RECORD_BYTES) {
    notice("That file is larger than a record the server replays (" + MAX_RECORD_BYTES / 1024 + " KiB).");
    return;
  }
  replay(await file.text(), file.name);
}

// --- Following a table ---------------------------------------------------------------------

// The page's one table (or replay): {mode: "seat" | "watch" | "replay", table, token,
// payload, chosen, stream, ...}. Work for an older one stops once it is replaced.
let current = null;

async function open() {
  if (current && current.stream) current.stream.abort();
  current = null;
  faults.clear();
  showFault();
  notice("");
  setTitle("");
  let where = fragment();
  if (where && where.mode === "seat" && where.token) {
    // A seat link from another device: the token leaves the URL (and this page's history)
    // at once, and is kept only once the server takes it as a seat's.
    history.replaceState(null, "", "#t=" + where.table);
    const mine = {};
    current = mine;
    await takeSeatLink(mine, where.table, where.token);
    if (current !== mine) return;
    where = fragment();
  }
  if (!where) {
    show("start");
    seatChoices();
    return;
  }
  if (where.mode === "replay") {
    replayTable(where.table);
    return;
  }
  const mine = saved(where.table);
  const seated = where.mode !== "watch" && mine && mine.token;
  current = {mode: seated ? "seat" : "watch", table: where.table, token: seated ? mine.token : null, payload: null, chosen: new Set()};
  const lobby = await waitForPlayers(current, where.mode !== "watch");
  if (!lobby) return;
  startGame(current);
}

// The table's description once its game has begun; meanwhile the waiting room (or, for
// someone without a seat who may take one, the join form).
async function waitForPlayers(mine, mayJoin) {
  for (;;) {
    const answer = await retrying("lobby", mine, () => api("GET", "/api/tables/" + mine.table));
    if (!answer) return null;
    if (!answer.ok) {
      home(message(answer, "No such table."));
      return null;
    }
    const lobby = answer.data;
    if (lobby.status !== "waiting") return lobby;
    if (mine.mode === "watch" && mayJoin && lobby.seats.some((s) => s.kind === "open")) {
      show("join");
      $("join-name").value = $("join-name").value || localStorage.getItem(KEPT + "name") || "";
      $("join-watch").href = "#watch=" + mine.table;
      return null;
    }
    showWaiting(mine, lobby);
    await sleep(1500);
    if (current !== mine) return null;
  }
}

function showWaiting(mine, lobby) {
  if ($("waiting").hidden) show("waiting");
  setTitle("Waiting for players");
  const list = $("waiting-seats");
  list.replaceChildren();
  for (const seat of lobby.seats) {
    const who = {
      open: "an open seat",
      reserved: seat.name + ": kept for them until they ask for the rematch too",
      bot: seat.name,
      person: seat.name,
    }[seat.kind];
    list.append(el("li", "Seat " + (seat.seat + 1) + ": " + who));
  }
  const invites = $("invites");
  const open = lobby.seats.filter((s) => s.kind === "open");
  if (invites.dataset.open === String(open.length)) return; // keep a link being copied
  invites.dataset.open = String(open.length);
  invites.replaceChildren();
  if (open.length) invites.append(el("p", "Send an invitation to each person you invite: whoever opens it first takes the next open seat."));
  for (const seat of open) {
    invites.append(copyLine("invite-" + (seat.seat + 1), "Invitation for seat " + (seat.seat + 1), link("join=" + mine.table)));
  }
}

// A labelled, read-only link with a button that copies it.
function copyLine(id, label, url) {
  const line = el("div", null, "copy-line");
  const name = el("label", label);
  name.htmlFor = id;
  const input = el("input");
  input.id = id;
  input.readOnly = true;
  input.value = url;
  const button = el("button", "Copy");
  button.type = "button";
  button.setAttribute("aria-describedby", id + "-copied");
  const said = el("span", "", "copied");
  said.id = id + "-copied";
  said.setAttribute("aria-live", "polite");
  button.addEventListener("click", async () => {
    let done = false;
    try {
      await navigator.clipboard.writeText(url);
      done = true;
    } catch (error) {
      input.select();
      try {
        done = document.execCommand("copy");
      } catch (ignored) {
        done = false;
      }
    }
    said.textContent = done ? "Copied." : "Select the link and copy it.";
  });
  line.append(name, input, button, said);
  return line;
}

function startGame(mine) {
  show("game");
  $("game").querySelector(".board").hidden = false;
  $("replay-bar").hidden = true;
  $("share").hidden = false;
  $("record-link").href = "/api/tables/" + mine.table + "/record";
  $("replay-link").href = "#replay=" + mine.table;
  $("rematch").replaceChildren();
  $("log").replaceChildren();
  shareLinks(mine);
  follow(mine, 0);
}

function shareLinks(mine) {
  const box = $("share-links");
  box.replaceChildren(copyLine("watch-link", "Spectators' link (anyone can watch)", link("watch=" + mine.table)));
  if (mine.mode === "seat") {
    box.append(copyLine("seat-link", "Your seat on another device (keep it to yourself: it is your seat's key)", link("seat=" + mine.table + ":" + mine.token)));
  }
  $("share").querySelector(".notify-line").hidden = mine.mode !== "seat" || !("Notification" in window);
}

async function follow(mine, since) {
  let last = since;
  let wait = 1000;
  while (current === mine) {
    const controller = new AbortController();
    mine.stream = controller;
    mine.heard = Date.now();
    const headers = {Accept: "text/event-stream"};
    if (mine.mode === "seat") headers.Authorization = "Bearer " + mine.token;
    const path = mine.mode === "seat" ? "/events" : "/public/events";
    try {
      const response = await fetch("/api/tables/" + mine.table + path + "?since=" + last, {headers, signal: controller.signal, cache: "no-store"});
      if (response.status === 401 && mine.mode === "seat") {
        // The token kept here is not a seat's at this table (any more): watch instead.
        mine.mode = "watch";
        shareLinks(mine);
        continue;
      }
      if (!response.ok && !AWAY.has(response.status)) {
        const data = await response.json().catch(() => null);
        notice(data ? data.message : "The table cannot be followed.");
        return;
      }
      if (response.ok) {
        await readEvents(response, () => { mine.heard = Date.now(); }, (name, data) => {
          if (current !== mine || name !== "payload") return;
          const payload = JSON.parse(data);
          last = payload.number;
          wait = 1000;
          clearFault("stream");
          render(mine, payload);
        });
      }
    } catch (error) {
      // The connection failed or was dropped: try again below.
    }
    if (current !== mine || (mine.payload && mine.payload.result)) return; // the end: the stream closes
    setFault("stream", "The connection to the table is lost. Reconnecting…");
    await sleep(wait);
    wait = Math.min(wait * 2, 5000);
  }
}

// Read a stream of Server-Sent Events to its end: ``heard()`` at anything that comes (a
// keep-alive comment too), ``deliver(name, data)`` for each event.
async function readEvents(response, heard, deliver) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const {value, done} = await reader.read();
    if (done) return;
    heard();
    buffer += decoder.decode(value, {stream: true});
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const lines = buffer.slice(0, cut).split("\n");
      buffer = buffer.slice(cut + 2);
      const named = lines.find((l) => l.startsWith("event: "));
      const data = lines.filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
      if (data) deliver(named ? named.slice(7) : "message", data);
    }
  }
}

// A stream silent for too long is taken for lost: aborted, it is opened again.
function watchStreams() {
  setInterval(() => {
    for (const held of [current, lobbyFeed]) {
      if (held && held.stream && held.heard && Date.now() - held.heard > SILENT_STREAM_MS) {
        held.heard = Date.now();
        held.stream.abort();
      }
    }
  }, 5000);
}

// --- The lobby: the tables listed for strangers, live ---------------------------------------

// The lobby's stream while the first page shows: {stream, heard}; and the cursor of the
// page after those shown.
let lobbyFeed = null;
let lobbyNext = null;

async function followLobby() {
  if (lobbyFeed) return;
  const feed = {stream: null, heard: 0};
  lobbyFeed = feed;
  let wait = 1000;
  while (lobbyFeed === feed) {
    feed.stream = new AbortController();
    feed.heard = Date.now();
    try {
      const response = await fetch("/api/lobby/events", {headers: {Accept: "text/event-stream"}, signal: feed.stream.signal, cache: "no-store"});
      if (response.ok) {
        await readEvents(response, () => { feed.heard = Date.now(); }, (name, data) => {
          if (lobbyFeed !== feed || name !== "lobby") return;
          wait = 1000;
          clearFault("lobby");
          showLobby(JSON.parse(data), false);
        });
      }
    } catch (error) {
      // The connection failed or was dropped: try again below.
    }
    if (lobbyFeed !== feed) return;
    setFault("lobby", "The list of tables cannot be brought up to date now. Trying again…");
    await sleep(wait);
    wait = Math.min(wait * 2, 5000);
  }
}

function stopLobby() {
  const feed = lobbyFeed;
  lobbyFeed = null;
  if (feed && feed.stream) feed.stream.abort();
  clearFault("lobby");
}

// A page of the lobby: the first (which replaces what is shown), or the next (``more``).
function showLobby(page, more) {
  const list = $("lobby-tables");
  const shown = more ? Array.from(list.children) : [];
  rebuild(list, shown.concat(page.tables.map(lobbyEntry)));
  lobbyNext = page.next;
  $("lobby-more").hidden = !lobbyNext;
  const count = list.children.length;
  const said = count
    ? plural(count, "table") + " listed, the latest changed first."
    : "No table is listed now. Make one below and tick “List it in the lobby”: strangers then find it here.";
  if ($("lobby-status").textContent !== said) $("lobby-status").textContent = said; // a live region: said when it changes
}

async function moreLobby() {
  if (!lobbyNext) return;
  const answer = await api("GET", "/api/lobby?before=" + encodeURIComponent(lobbyNext)).catch(() => ({status: 0}));
  if (!answer.ok) {
    notice(message(answer, "The older tables could not be read."));
    return;
  }
  showLobby(answer.data, true);
}

function lobbyEntry(table) {
  const item = el("li", null, "table-entry");
  item.dataset.table = table.table;
  item.dataset.open = String(table.open);
  const names = table.seats.map((seat) => seat.kind === "open" ? "an open seat" : seat.name);
  item.append(el("p", names.join(", "), "who"));
  const facts = [
    table.status === "waiting" ? plural(table.open, "seat") + " open" : "playing: " + plural(table.number, "action") + " played",
    table.clock ? controlWords(table.clock) : "no clock",
  ];
  item.append(el("p", facts.join(" · "), "small"));
  const links = el("p", null, "entry-links");
  const kept = saved(table.table);
  if (kept && kept.token) {
    links.append(entryLink("Your seat", "#t=" + table.table, "seat", "Your seat at the table of " + names.join(", ")));
  } else if (table.open > 0) {
    links.append(entryLink("Join", "#join=" + table.table, "join", "Join the table of " + names.join(", ")));
  }
  links.append(entryLink("Watch", "#watch=" + table.table, "watch", "Watch the table of " + names.join(", ")));
  item.append(links);
  return item;
}

// A link of a list's entry, looking like a button; ``label`` names its table for screen
// readers (its visible text first).
function entryLink(text, hash, role, label) {
  const link = el("a", text, "button-link");
  link.href = hash;
  link.dataset.role = role;
  link.setAttribute("aria-label", label);
  return link;
}

// ``list`` made of ``items``; a keyboard user on one of its controls stays on it.
function rebuild(list, items) {
  const active = document.activeElement;
  const entry = active && list.contains(active) ? active.closest("li") : null;
  const place = entry ? [entry.dataset.table, active.dataset.role] : null;
  list.replaceChildren(...items);
  if (place) {
    const again = list.querySelector('li[data-table="' + place[0] + '"] [data-role="' + place[1] + '"]');
    if (again) again.focus();
  }
}

// --- Your tables: every seat this browser keeps, whose turn, the time left ------------------

// What was last read of each kept seat's table: {table, turn: "you" | "other" | "waiting" |
// "over" | "gone", others, actor, deadline, since, away, said}.
const yours = new Map();
// Whether it was this browser's turn at each table when last read: a turn that comes is told.
const turnsSeen = new Map();
let yoursTimer = null;
let yoursReading = false;

async function refreshYours() {
  if (yoursReading) return;
  yoursReading = true;
  clearTimeout(yoursTimer);
  try {
    const seats = keptSeats();
    const kept = new Set(seats.map((seat) => seat.table));
    for (const table of Array.from(yours.keys())) if (!kept.has(table)) yours.delete(table);
    // A finished table changes no more; the table shown here has its own stream.
    const due = seats.filter((seat) => {
      const known = yours.get(seat.table);
      return !(known && (known.turn === "over" || known.turn === "gone")) && !followedHere(seat.table);
    });
    const reader = async () => {
      for (let seat = due.shift(); seat; seat = due.shift()) await readSeat(seat);
    };
    await Promise.all([reader(), reader(), reader()]); // a few at a time
  } finally {
    yoursReading = false;
  }
  turnsChanged();
  yoursTimer = setTimeout(refreshYours, yoursDelay());
}

async function readSeat(seat) {
  const path = "/api/tables/" + seat.table + "/payload?since=" + NO_HISTORY;
  const answer = await api("GET", path, undefined, seat.token).catch(() => ({status: 0}));
  if (answer.ok && answer.data) yours.set(seat.table, summary(seat.table, answer.data));
  else if (answer.status === 409) yours.set(seat.table, {table: seat.table, turn: "waiting"});
  else if (answer.status === 404 || answer.status === 401) yours.set(seat.table, {table: seat.table, turn: "gone"});
  // Otherwise the server is away now: what was known stays.
}

// What "your tables" shows of a table, from its seat's payload.
function summary(table, payload) {
  const seat = payload.seat;
  const toAct = payload.to_act;
  const clock = payload.clock;
  return {
    table,
    turn: payload.result ? "over" : toAct === seat ? "you" : "other",
    others: payload.players.filter((player, i) => i !== seat).map((player) => player.name),
    actor: typeof toAct === "number" && toAct !== seat ? payload.players[toAct].name : null,
    deadline: clock && !payload.result && typeof toAct === "number" && clock.deadline != null ? clock.deadline : null,
    since: clock ? clock.since : null,
    away: !!(clock && clock.seats[seat].away),
    said: statusText(payload),
  };
}

function followedHere(table) {
  return !!(current && current.mode === "seat" && current.table === table);
}

// Read again in 30 s, or just after the first clock of these tables runs out.
function yoursDelay() {
  let wait = YOURS_EVERY_MS;
  for (const entry of yours.values()) {
    if (entry.deadline) wait = Math.min(wait, Math.max(2000, (entry.deadline - serverNow() + 1) * 1000));
  }
  return wait;
}

function turnsElsewhere() {
  return Array.from(yours.values()).filter((entry) => entry.turn === "you" && !(current && current.table === entry.table));
}

// After anything learned of "your tables": the list, the title, and a notification for
// each table where this browser's turn has just come.
function turnsChanged() {
  for (const entry of yours.values()) {
    const ours = entry.turn === "you";
    if (ours && !turnsSeen.get(entry.table)) {
      const left = entry.deadline ? " " + timeLeft(entry.deadline - serverNow()) + " left." : "";
      notifyTurn(entry.table, "At the table with " + names(entry.others) + ". " + entry.said + left);
    }
    turnsSeen.set(entry.table, ours);
  }
  showYours();
  showElsewhere();
  setTitle();
}

function names(list) {
  return list.length > 1 ? list.slice(0, -1).join(", ") + " and " + list[list.length - 1] : list.join("");
}

const TURN_ORDER = {you: 0, other: 1, waiting: 2, unknown: 3, over: 4, gone: 5};

function showYours() {
  const entries = keptSeats().map((seat) => yours.get(seat.table) || {table: seat.table, turn: "unknown"});
  entries.sort((a, b) => TURN_ORDER[a.turn] - TURN_ORDER[b.turn] || (a.deadline || Infinity) - (b.deadline || Infinity));
  $("yours").hidden = !entries.length;
  rebuild($("yours-tables"), entries.map(yourEntry));
}

function yourEntry(entry) {
  const item = el("li", null, "table-entry");
  item.dataset.table = entry.table;
  item.dataset.turn = entry.turn;
  const who = entry.others ? "With " + names(entry.others) : "Table " + entry.table;
  const head = el("p", null, "who");
  const link = el("a", who);
  link.href = "#t=" + entry.table;
  link.dataset.role = "open";
  head.append(link);
  const state = el("p", null, "state");
  const said = {
    you: "Your turn" + (entry.away ? " (you are away: a bot plays for you until you act in time)" : ""),
    other: entry.actor ? entry.actor + " to act" : "The next card is being revealed",
    waiting: "Waiting for players",
    over: "The game is over",
    gone: "The server no longer has this table, or this seat",
    unknown: "…",
  }[entry.turn];
  state.append(said);
  if (entry.deadline) state.append(" · ", countdown(entry.deadline, entry.since), " left");
  item.append(head, state);
  if (entry.turn === "over" || entry.turn === "gone") {
    const forget = el("button", "Forget");
    forget.type = "button";
    forget.dataset.role = "forget";
    forget.setAttribute("aria-label", "Forget the table " + who.toLowerCase() + " (this browser's seat there)");
    forget.addEventListener("click", () => {
      localStorage.removeItem(KEPT + entry.table);
      yours.delete(entry.table);
      turnsChanged();
    });
    const links = el("p", null, "entry-links");
    links.append(forget);
    item.append(links);
  }
  return item;
}

// Away from the first page, a line says where else it is this browser's turn.
function showElsewhere() {
  const line = $("elsewhere");
  const entries = $("start").hidden ? turnsElsewhere() : [];
  line.hidden = !entries.length;
  if (!entries.length) {
    line.replaceChildren();
    return;
  }
  line.replaceChildren("Your turn at " + (entries.length === 1 ? "another table" : plural(entries.length, "other table")) + ": ");
  entries.forEach((entry, i) => {
    const link = el("a", "with " + names(entry.others || []));
    link.href = "#t=" + entry.table;
    line.append(i ? ", " : "", link);
  });
}

// A notification that it is this browser's turn at ``table``, while the page is out of
// sight and the person allowed them; the title says it too.
function notifyTurn(table, body) {
  if (!document.hidden || !("Notification" in window) || Notification.permission !== "granted") return;
  try {
    new Notification("High Society: your turn", {body, tag: "high-society-turn-" + table});
  } catch (error) {
    // Some browsers show notifications only from a service worker: the title says it too.
  }
}

// --- Showing the table -----------------------------------------------------------------------

function nameOf(payload, seat) {
  const player = payload.players[seat];
  return seat === payload.seat ? player.name + " (you)" : player.name;
}

function render(mine, payload) {
  const before = document.activeElement;
  const place = before && before.closest && before.closest("#hand, #discard-cards")
    ? {value: before.dataset.value, card: before.dataset.card}
    : null;
  mine.payload = payload;
  const clock = mine.mode === "replay" ? null : payload.clock;
  renderStatus(mine, payload);
  renderClock(payload, clock);
  renderAuction(payload);
  renderPlayers(payload, clock);
  renderHand(mine, payload);
  renderLog(payload, clock);
  renderResult(mine, payload);
  if (mine.mode === "seat") keepFocus(mine, place);
}

function statusText(payload) {
  const seat = payload.seat;
  const phase = payload.view.phase;
  if (payload.result) return "Game over: " + winnersText(payload) + ".";
  if (seat !== null && payload.to_act === seat) {
    if (phase === "discard") return "Your turn: Faux Pas: discard one of your luxury cards.";
    return payload.legal && payload.legal.bids.length
      ? "Your turn: bid a total of " + payload.min_bid_total + " or more, or pass."
      : "Your turn: you cannot reach " + payload.min_bid_total + ", so you can only pass.";
  }
  if (payload.to_act === "chance") return "The next card is being revealed…";
  if (payload.to_act === null) return "";
  if (phase === "discard") return nameOf(payload, payload.to_act) + " discards a luxury card for Faux Pas.";
  return nameOf(payload, payload.to_act) + " is to act.";
}

// Who won, with the score: at the top of the page at the end, where a phone shows it first.
function winnersText(payload) {
  const result = payload.result;
  if (!result.winners.length) return "nobody wins, everyone is cast out";
  const who = result.winners.map((seat) => seat === payload.seat ? "you" : payload.players[seat].name);
  const verb = who.length > 1 || who[0] === "you" ? " win" : " wins";
  return who.join(" and ") + verb + " with " + result.scores[result.winners[0]];
}

function renderStatus(mine, payload) {
  const status = $("status");
  const mineToAct = payload.seat !== null && payload.to_act === payload.seat;
  status.textContent = statusText(payload);
  status.dataset.turn = payload.result ? "over" : mineToAct ? "you" : "other";
  status.dataset.number = String(payload.number);
  if (mine.mode === "replay") return;
  setTitle(mineToAct ? "Your turn" : payload.result ? "Game over" : mine.mode === "watch" ? "Watching" : "");
  if (mine.mode === "seat") { // this table's line in "your tables", and its turn told
    yours.set(mine.table, summary(mine.table, payload));
    turnsChanged();
  }
}

// The clock of the seat to act, counting down, and whether a bot plays it (it is away).
function renderClock(payload, clock) {
  $("clock-control").textContent = clock ? "Clock: " + controlWords(clock.control) + "." : "";
  const line = $("turn-clock");
  const seat = payload.to_act;
  if (!clock || payload.result || typeof seat !== "number" || clock.deadline == null) {
    line.hidden = true;
    line.replaceChildren();
    return;
  }
  const you = seat === payload.seat;
  const name = payload.players[seat].name;
  const away = clock.seats[seat].away;
  line.hidden = false;
  line.dataset.seat = String(seat);
  line.dataset.away = String(away);
  line.replaceChildren((you ? "Your time" : name + "'s time") + ": ", countdown(clock.deadline, clock.since), " left.");
  if (away) {
    line.append(you
      ? " You are away: a bot plays for you when it runs out, unless you act."
      : " " + name + " is away: a bot plays for them when it runs out.");
  }
}

function renderAuction(payload) {
  const view = payload.view;
  const box = $("auction-card");
  const info = $("auction-info");
  if (view.auction) {
    box.replaceChildren(drawCard(view.auction, "big"));
    info.textContent = (cardKind(view.auction) === "disgrace" ? "Disgrace: the first to pass takes it. " : "") +
      (payload.highest_bidder !== null ? "Highest bid " + view.highest_bid + " by " + nameOf(payload, payload.highest_bidder) + "." : "No bid yet.");
  } else if (view.phase === "discard") {
    box.replaceChildren(drawCard("faux-pas", "big"));
    info.textContent = nameOf(payload, view.turn) + " took Faux Pas and discards a luxury card.";
  } else if (view.ending_card) {
    box.replaceChildren(drawCard(view.ending_card, "big"));
    info.textContent = cardLabel(view.ending_card) + ", the fourth dark-green card, ended the game.";
  } else {
    box.replaceChildren(drawBack("The next card, face down"));
    info.textContent = "The next card is turned.";
  }
  // The four dark-green cards (the prestige cards and Scandale): the fourth ends the game.
  const left = view.deck.filter((card) => DARK_GREEN.has(card)).length;
  const turned = 4 - left;
  const counter = $("dark-green");
  const pips = el("span", null, "pips");
  pips.setAttribute("aria-hidden", "true");
  for (let i = 0; i < 4; i += 1) pips.append(el("span", null, i < turned ? "pip on" : "pip"));
  const words = el("span", "Dark-green cards turned: " + turned + " of 4 (the fourth ends the game)");
  counter.dataset.turned = String(turned);
  counter.replaceChildren(pips, words);
  const counts = new Map();
  for (const card of view.deck) counts.set(card, (counts.get(card) || 0) + 1);
  const deckText = Array.from(counts, ([card, n]) => cardLabel(card) + (n > 1 ? " ×" + n : "")).join(", ");
  $("deck-info").textContent = view.deck.length + " card" + (view.deck.length === 1 ? "" : "s") + " left in the deck" + (deckText ? ": " + deckText : "") + ".";
  $("removed-info").textContent = view.removed.length ? "Out of the game: " + view.removed.map(cardLabel).join(", ") + "." : "";
}

function renderPlayers(payload, clock) {
  const view = payload.view;
  const list = $("players");
  list.replaceChildren();
  view.players.forEach((player, seat) => {
    const item = el("li");
    item.dataset.seat = String(seat);
    if (seat === payload.to_act) item.classList.add("acting");
    if (seat === payload.seat) item.classList.add("me");
    const head = el("div", null, "head");
    head.append(el("span", payload.players[seat].name, "name"));
    const tags = [];
    if (seat === payload.seat) tags.push("you");
    if (seat === payload.to_act) tags.push("to act");
    if (player.passed) tags.push("passed");
    const seatClock = clock ? clock.seats[seat] : null;
    if (seatClock && seatClock.away) tags.push("away: a bot plays");
    if (tags.length) head.append(" ", el("span", "(" + tags.join(", ") + ")", "tags"));
    item.append(head);
    if (seatClock) {
      item.dataset.away = String(seatClock.away);
      if (seat === payload.to_act && !payload.result && clock.deadline != null) {
        const running = el("div", "Time left: ", "clock running");
        running.append(countdown(clock.deadline, clock.since));
        item.append(running);
      } else if (seatClock.bank !== null) {
        item.append(el("div", "Bank: " + timeLeft(seatClock.bank), "clock"));
      }
    }
    const faceUp = el("div", "Face up: ", "face-up");
    if (player.table.length) player.table.forEach((v) => faceUp.append(drawMoney(v), " "));
    else faceUp.append("nothing ");
    faceUp.append(el("span", "(total " + player.table.reduce((a, b) => a + b, 0) + ")", "total"));
    item.append(faceUp);
    item.append(el("div", player.hand_size + " money card" + (player.hand_size === 1 ? "" : "s") + " in hand", "small"));
    const owns = el("div", "Owns: ", "owns");
    if (player.status_cards.length) player.status_cards.forEach((c) => owns.append(drawCard(c), " "));
    else owns.append("nothing");
    if (player.status_cards.includes("faux-pas")) owns.append(el("span", "(Faux Pas pending)", "tags"));
    item.append(owns);
    list.append(item);
  });
}

function renderHand(mine, payload) {
  const view = payload.view;
  const you = $("you");
  you.hidden = mine.mode !== "seat" || !!payload.result;
  if (you.hidden) return;
  const myTurn = payload.legal !== null && !mine.sending;
  const bidding = myTurn && view.phase === "auction";
  for (const value of Array.from(mine.chosen)) if (!view.hand.includes(value)) mine.chosen.delete(value);
  if (!bidding) mine.chosen.clear();
  const hand = $("hand");
  hand.replaceChildren();
  for (const value of view.hand) {
    const button = el("button", String(value), "note");
    button.type = "button";
    button.dataset.value = String(value);
    button.setAttribute("aria-label", "Money card " + value);
    button.setAttribute("aria-pressed", mine.chosen.has(value) ? "true" : "false");
    button.disabled = !bidding;
    button.addEventListener("click", () => {
      if (mine.chosen.has(value)) mine.chosen.delete(value);
      else mine.chosen.add(value);
      button.setAttribute("aria-pressed", mine.chosen.has(value) ? "true" : "false");
      updateChoice(mine);
    });
    hand.append(button);
  }
  $("pass-button").disabled = !(myTurn && payload.legal.pass);
  $("discard").hidden = !(myTurn && payload.legal.discards.length);
  const cards = $("discard-cards");
  cards.replaceChildren();
  if (myTurn) {
    for (const discard of payload.legal.discards) {  // each a ready action, sent as it came
      const button = el("button", "Discard ", "discard-card");
      button.type = "button";
      button.dataset.card = discard.card;
      button.append(drawCard(discard.card));
      button.addEventListener("click", () => play(mine, discard));
      cards.append(button);
    }
  }
  updateChoice(mine);
}

// One item an action (a line for each thing it did), numbered as the replay numbers it:
// action 1 is the first card turned. An action a time-out played says so.
function renderLog(payload, clock) {
  const log = $("log");
  if (payload.since === 0) log.replaceChildren();
  const timedOut = new Set(clock ? clock.timed_out : []);
  for (const entry of payload.log) {
    const told = el("span", entry.text, "told");
    let item = log.lastElementChild;
    if (!item || item.dataset.number !== String(entry.number)) {
      item = el("li");
      item.value = entry.number + 1;
      item.dataset.number = String(entry.number);
      if (timedOut.has(entry.number)) told.append(" ", el("span", "(time ran out)", "timed-out"));
      log.append(item);
    }
    item.append(told);
    if (entry.text.startsWith("Round ") || entry.text.includes("ends at once")) item.classList.add("round");
  }
  log.scrollTop = log.scrollHeight;
}

function renderResult(mine, payload) {
  const result = payload.result;
  $("result").hidden = !result;
  if (!result) return;
  const body = $("result-table").querySelector("tbody");
  body.replaceChildren();
  const heads = ["Status", "Money", "How", "Outcome"];
  payload.players.forEach((player, seat) => {
    const row = el("tr");
    row.dataset.seat = String(seat);
    if (result.winners.includes(seat)) row.classList.add("winner");
    const head = el("th", nameOf(payload, seat));
    head.setAttribute("scope", "row");
    row.append(head);
    const tags = [];
    if (result.cast_out.includes(seat)) tags.push("cast out");
    if (result.winners.includes(seat)) tags.push("winner");
    const cells = [
      [String(result.scores[seat]), "score"],
      [String(result.money[seat]), "money-left"],
      [result.breakdowns[seat].explain, "how"],
      [tags.join(", ") || "—", "outcome"],
    ];
    cells.forEach(([text, className], i) => {
      const cell = el("td", text, className);
      cell.dataset.label = heads[i];
      row.append(cell);
    });
    body.append(row);
  });
  $("record-link").hidden = $("replay-link").hidden = mine.mode === "replay";
  if (mine.mode !== "replay" && !mine.rematchWatched) {
    mine.rematchWatched = true;
    watchRematch(mine);
  }
}

// --- Your hand and your moves ----------------------------------------------------------------

// A keyboard user keeps their place: the button they were on, rebuilt, if it still stands;
// and on their turn, with focus nowhere (their controls were disabled while the move was
// sent and the others played), the first thing they can do.
function keepFocus(mine, place) {
  const myTurn = mine.payload.legal !== null;
  const enabled = (selector) => Array.from(document.querySelectorAll(selector)).find((b) => !b.disabled);
  let target = null;
  if (place && place.value !== undefined) target = enabled('#hand button[data-value="' + place.value + '"]');
  else if (place && place.card !== undefined) target = enabled('#discard-cards button[data-card="' + place.card + '"]');
  const active = document.activeElement;
  const lost = !active || active === document.body || active.disabled || !active.getClientRects().length;
  if (!target && myTurn && (place || lost)) {
    target = enabled("#discard-cards button") || enabled("#hand button") || enabled("#pass-button");
  }
  if (target) target.focus();
}

function updateChoice(mine) {
  const payload = mine.payload;
  const view = payload.view;
  const faceUp = view.players[payload.seat].table.reduce((a, b) => a + b, 0);
  const added = Array.from(mine.chosen).reduce((a, b) => a + b, 0);
  const total = faceUp + added;
  const bidding = payload.legal !== null && view.phase === "auction" && !mine.sending;
  const enough = payload.min_bid_total !== null && total >= payload.min_bid_total;
  const bid = $("bid-button");
  bid.disabled = !(bidding && added > 0 && enough);
  bid.textContent = added > 0 ? "Bid " + Array.from(mine.chosen).sort((a, b) => a - b).join(" + ") + " (total " + total + ")" : "Bid";
  $("clear-button").disabled = !(bidding && added > 0);
  $("choice").textContent = mine.sending
    ? "Sending your move…"
    : bidding
      ? added > 0
        ? "Chosen: " + added + ", your face-up total would be " + total + (enough ? "." : ": not enough, you need " + payload.min_bid_total + ".")
        : "Choose money cards to add to your bid."
      : "";
}

// A move is sent with the payload's number, so sending it again (the server was away) never
// plays it twice: it is sent until the server answers.
async function play(mine, action) {
  const number = mine.payload.number;
  mine.sending = true;
  for (const button of document.querySelectorAll("#you button")) button.disabled = true;
  updateChoice(mine);
  const answer = await retrying("move", mine, () => api("POST", "/api/tables/" + mine.table + "/actions", {action, number}, mine.token));
  mine.sending = false;
  if (!answer) return;
  const late = !answer.ok && answer.data && answer.data.kind === "wrong_number" && mine.payload.clock;
  if (late) notice("Too late: your time ran out, and the table played that turn for you.");
  else if (!answer.ok) notice(message(answer, "The server refused that move."));
  else notice("");
  mine.chosen.clear();
  if (mine.payload && current === mine) render(mine, {...mine.payload, log: [], since: mine.payload.number});
}

// --- Rematch ------------------------------------------------------------------------------

// At the end, the table's description says when someone asked for a rematch: every seat is
// offered it, spectators a link to watch it.
async function watchRematch(mine) {
  showRematch(mine, null);
  while (current === mine) {
    const answer = await retrying("lobby", mine, () => api("GET", "/api/tables/" + mine.table));
    if (!answer) return;
    if (answer.ok && answer.data.rematch) {
      showRematch(mine, answer.data.rematch);
      return;
    }
    await sleep(3000);
  }
}

function showRematch(mine, rematch) {
  const box = $("rematch");
  box.replaceChildren();
  box.dataset.rematch = rematch || "";
  if (mine.mode === "watch") {
    if (rematch) {
      const watch = el("a", "Watch the rematch");
      watch.href = "#watch=" + rematch;
      box.append(el("p", "The players set up a rematch. "), watch);
    }
    return;
  }
  if (mine.mode !== "seat") return;
  const button = el("button", rematch ? "Join the rematch" : "Rematch", "primary");
  button.type = "button";
  button.id = "rematch-button";
  button.addEventListener("click", () => askRematch(mine, button));
  box.append(el("p", rematch
    ? "A rematch is set up: the same players, the next one starting."
    : "Play again with the same players and bots: the next player starts."), button);
}

async function askRematch(mine, button) {
  button.disabled = true;
  const answer = await retrying("rematch", mine, () => api("POST", "/api/tables/" + mine.table + "/rematch", undefined, mine.token));
  if (!answer) return;
  if (!answer.ok) {
    notice(message(answer, "The rematch could not be made."));
    button.disabled = false;
    return;
  }
  save(answer.data.table, answer.data.token);
  location.hash = "t=" + answer.data.table;
}

// --- Replaying a recorded game ------------------------------------------------------------

async function replayTable(table) {
  const answer = await retrying("record", null, () => api("GET", "/api/tables/" + table + "/record"));
  if (!answer.ok) {
    home(message(answer, "That table's record cannot be read."));
    return;
  }
  replay(JSON.stringify(answer.data), "the game of table " + table);
}

async function replay(text, name) {
  if (current && current.stream) current.stream.abort();
  const mine = {mode: "replay", payload: null, chosen: new Set(), name};
  current = mine;
  const answer = await retrying("replay", mine, () => api("POST", "/api/replays", text));
  if (!answer) return;
  if (!answer.ok) {
    home(message(answer, "The record could not be replayed."));
    return;
  }
  const error = answer.data.error;
  if (!answer.data.final) { // not even the players could be read: nothing to step through
    home("That is not a record of a game the page can replay (" + name + "): " + error.message + " (" + error.code + " at " + error.path + ").");
    return;
  }
  mine.replay = answer.data;
  show("game");
  $("replay-bar").hidden = false;
  $("share").hidden = true;
  $("rematch").replaceChildren();
  $("replay-bar-title").textContent = "Replay of " + name;
  replayVerdict(answer.data);
  const steps = answer.data.steps.length;
  const slider = $("replay-step");
  slider.max = String(Math.max(steps, 1));
  slider.min = "1";
  for (const id of ["replay-first", "replay-back", "replay-step", "replay-next", "replay-last"]) $(id).disabled = steps === 0;
  setTitle("Replay");
  replayAt(mine, 1); // from the start: Next shows the second action
}

function replayVerdict(data) {
  const box = $("replay-verdict");
  box.dataset.valid = String(data.valid);
  box.dataset.index = data.error && data.error.index !== null ? String(data.error.index) : "";
  box.dataset.code = data.error ? data.error.code : "";
  box.classList.toggle("refused", !data.valid);
  const steps = data.steps.length;
  if (data.error) {
    const where = data.error.index !== null ? "action " + (data.error.index + 1) + " (" + data.error.path + ")" : data.error.path;
    box.textContent = "The library refuses this record at " + where + ": " + data.error.code + ": " + data.error.message.replace(/[^.]$/, "$&.") +
      (steps ? " The " + plural(steps, "action") + " before it can be stepped through." : "");
  } else if (data.finished) {
    box.textContent = "A valid, finished game of " + steps + " actions.";
  } else {
    box.textContent = "A valid game, not finished: " + steps + " actions so far.";
  }
}

function replayAt(mine, position) {
  const data = mine.replay;
  const steps = data.steps;
  const at = Math.max(Math.min(position, steps.length), steps.length ? 1 : 0);
  mine.position = at;
  $("replay-step").value = String(at);
  $("game").querySelector(".board").hidden = false;
  const log = [];
  for (const step of steps.slice(0, at)) for (const text of step.log) log.push({number: step.number, text});
  const step = steps[at - 1];
  const payload = step
    ? {...data.final, number: step.number + 1, view: step.view, to_act: step.to_act, highest_bidder: step.highest_bidder,
      min_bid_total: step.min_bid_total, log, since: 0, result: at === steps.length ? data.final.result : null}
    : {...data.final, log, since: 0};
  render(mine, payload);
  const told = step ? step.log.join(" ") : "";
  $("replay-position").textContent = steps.length ? "Action " + at + " of " + steps.length + ": " + told : "";
  $("replay-position").dataset.index = step ? String(step.number) : "";
  for (const line of $("log").children) if (step && line.dataset.number === String(step.number)) line.classList.add("current");
}

function replayMove(delta) {
  if (!current || current.mode !== "replay" || !current.replay.steps.length) return;
  replayAt(current, delta === "first" ? 1 : delta === "last" ? current.replay.steps.length : current.position + delta);
}

// --- Start --------------------------------------------------------------------------------

function askNotifications() {
  if ("Notification" in window) Notification.requestPermission().then(notifyButtons);
}

// The buttons that ask for notifications (on the first page and at a table) say whether
// they are on.
function notifyButtons() {
  const permission = "Notification" in window ? Notification.permission : "denied";
  for (const button of document.querySelectorAll(".notify-button")) {
    button.textContent = {granted: "Notifications are on for your turns", denied: "Notifications are blocked in this browser"}[permission] || "Notify me when it is my turn";
    button.disabled = permission !== "default";
  }
  $("yours").querySelector(".notify-line").hidden = !("Notification" in window);
}

function start() {
  $("create-name").value = localStorage.getItem(KEPT + "name") || "";
  $("create-players").addEventListener("change", seatChoices);
  $("clock-kind").addEventListener("change", clockChoices);
  clockChoices();
  $("lobby-more").addEventListener("click", moreLobby);
  $("replay-close").addEventListener("click", () => {
    if (location.hash) location.hash = "";
    else home("");
  });
  $("create-form").addEventListener("submit", createTable);
  $("join-form").addEventListener("submit", joinTable);
  $("replay-file").addEventListener("change", replayFile);
  $("bid-button").addEventListener("click", () => {
    if (!current || !current.payload || current.mode !== "seat") return;
    play(current, {type: "bid", player: current.payload.seat, cards: Array.from(current.chosen).sort((a, b) => a - b)});
  });
  $("clear-button").addEventListener("click", () => {
    if (!current || !current.payload) return;
    current.chosen.clear();
    render(current, {...current.payload, log: [], since: current.payload.number});
  });
  $("pass-button").addEventListener("click", () => {
    const legal = current && current.mode === "seat" && current.payload ? current.payload.legal : null;
    if (legal && legal.pass) play(current, legal.pass);
  });
  $("replay-first").addEventListener("click", () => replayMove("first"));
  $("replay-back").addEventListener("click", () => replayMove(-1));
  $("replay-next").addEventListener("click", () => replayMove(1));
  $("replay-last").addEventListener("click", () => replayMove("last"));
  $("replay-step").addEventListener("input", () => {
    if (current && current.mode === "replay") replayAt(current, Number($("replay-step").value));
  });
  for (const button of document.querySelectorAll(".notify-button")) button.addEventListener("click", askNotifications);
  notifyButtons();
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) refreshYours();
  });
  window.addEventListener("hashchange", open);
  watchStreams();
  setInterval(tick, 250);
  measureOffset();
  loadBots();
  open();
  refreshYours();
}

document.addEventListener("DOMContentLoaded", start);

// The web page of the High Society table server: make, join, play and watch a table, ask
// for a rematch, and replay a recorded game. Everything it shows comes from the server:
// a seat's payload or a spectator's, pushed as Server-Sent Events (read with fetch, so
// that a seat's token travels in a header, never in a URL), and for a replay the steps
// the server works out from the record. No rule of the game lives here. Names come from
// other people: they are only ever set as text, never as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const TITLE = "High Society";
// The largest record the server replays (POST /api/replays), in bytes.
const MAX_RECORD_BYTES = 256 * 1024;
// A stream that brings nothing (not even the keep-alive comment sent after 15 s of
// silence) for this long is taken for lost and opened again.
const SILENT_STREAM_MS = 40000;

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
    return JSON.parse(localStorage.getItem("high-society:" + table) || "null");
  } catch (error) {
    return null;
  }
}

function save(table, token) {
  localStorage.setItem("high-society:" + table, JSON.stringify({token}));
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

let bots = [{label: "heuristic", description: ""}, {label: "random", description: ""}];

async function loadBots() {
  const answer = await retrying("bots", null, () => api("GET", "/api/bots"));
  if (answer.ok && answer.data) {
    bots = answer.data.bots;
    seatChoices();
  }
}

function botName(label) {
  return label.charAt(0).toUpperCase() + label.slice(1) + " bot";
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
      const option = el("option", botName(bot.label));
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

async function createTable(event) {
  event.preventDefault();
  notice("");
  const name = $("create-name").value.trim();
  localStorage.setItem("high-society:name", name);
  const seats = [{kind: "person", name}];
  for (const select of $("create-seats").querySelectorAll("select")) {
    seats.push(select.value === "open" ? {kind: "open"} : {kind: "bot", bot: select.value});
  }
  // Not retried by itself: sent twice, it would make two tables.
  const answer = await api("POST", "/api/tables", {seats}).catch(() => ({status: 0}));
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
  localStorage.setItem("high-society:name", name);
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
  const file = $("replay-file").files[0];
  if (!file) return;
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
  document.title = TITLE;
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
      notice(message(answer, "No such table."));
      show("start");
      seatChoices();
      return null;
    }
    const lobby = answer.data;
    if (lobby.status !== "waiting") return lobby;
    if (mine.mode === "watch" && mayJoin && lobby.seats.some((s) => s.kind === "open")) {
      show("join");
      $("join-name").value = $("join-name").value || localStorage.getItem("high-society:name") || "";
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
  document.title = "Waiting for players · " + TITLE;
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
  $("notify-line").hidden = mine.mode !== "seat" || !("Notification" in window);
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
        await readEvents(mine, response, (payload) => {
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

async function readEvents(mine, response, deliver) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const {value, done} = await reader.read();
    if (done) return;
    mine.heard = Date.now();
    buffer += decoder.decode(value, {stream: true});
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const data = block.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
      if (data && current === mine) deliver(JSON.parse(data));
    }
  }
}

function watchStreams() {
  setInterval(() => {
    if (current && current.stream && current.heard && Date.now() - current.heard > SILENT_STREAM_MS) {
      current.heard = Date.now();
      current.stream.abort();
    }
  }, 5000);
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
  renderStatus(mine, payload);
  renderAuction(payload);
  renderPlayers(payload);
  renderHand(mine, payload);
  renderLog(payload);
  renderResult(mine, payload);
  if (mine.mode === "seat") keepFocus(mine, place);
}

function statusText(payload) {
  const seat = payload.seat;
  const phase = payload.view.phase;
  if (payload.result) return "The game is over.";
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

function renderStatus(mine, payload) {
  const status = $("status");
  const mineToAct = payload.seat !== null && payload.to_act === payload.seat;
  status.textContent = statusText(payload);
  status.dataset.turn = payload.result ? "over" : mineToAct ? "you" : "other";
  status.dataset.number = String(payload.number);
  if (mine.mode === "replay") return;
  document.title = (mineToAct ? "Your turn · " : payload.result ? "Game over · " : mine.mode === "watch" ? "Watching · " : "") + TITLE;
  if (mineToAct && !mine.myTurn) turnNotice(payload);
  mine.myTurn = mineToAct;
}

function turnNotice(payload) {
  if (!document.hidden || !("Notification" in window) || Notification.permission !== "granted") return;
  try {
    new Notification("High Society: your turn", {body: statusText(payload), tag: "high-society-turn"});
  } catch (error) {
    // Some browsers show notifications only from a service worker: the title says it too.
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

function renderPlayers(payload) {
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
    if (tags.length) head.append(" ", el("span", "(" + tags.join(", ") + ")", "tags"));
    item.append(head);
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

function renderLog(payload) {
  const log = $("log");
  if (payload.since === 0) log.replaceChildren();
  for (const entry of payload.log) {
    const line = el("li", entry.text);
    line.dataset.number = String(entry.number);
    if (entry.text.startsWith("Round ") || entry.text.includes("ends at once")) line.classList.add("round");
    log.append(line);
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
  $("winners").textContent = result.winners.length
    ? "Winner: " + result.winners.map((s) => nameOf(payload, s)).join(" and ") + "."
    : "Nobody wins: everyone is cast out.";
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
  if (!answer.ok) notice(message(answer, "The server refused that move."));
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
    notice(message(answer, "That table's record cannot be read."));
    show("start");
    seatChoices();
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
    notice(message(answer, "The record could not be replayed."));
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
  document.title = "Replay · " + TITLE;
  if (answer.data.final) {
    replayAt(mine, steps);
    return;
  }
  // Not even the players could be read: the verdict is all there is.
  $("game").querySelector(".board").hidden = true;
  $("you").hidden = $("result").hidden = true;
  $("status").textContent = "";
  $("log").replaceChildren();
}

function replayVerdict(data) {
  const box = $("replay-verdict");
  box.dataset.valid = String(data.valid);
  box.dataset.index = data.error && data.error.index !== null ? String(data.error.index) : "";
  box.dataset.code = data.error ? data.error.code : "";
  box.classList.toggle("refused", !data.valid);
  const steps = data.steps.length;
  if (data.error) {
    const where = data.error.index !== null ? "action " + data.error.index + " (" + data.error.path + ")" : data.error.path;
    box.textContent = "The library refuses this record at " + where + ": " + data.error.code + ": " + data.error.message +
      (steps ? " The " + steps + " action" + (steps === 1 ? "" : "s") + " before it can be stepped through." : "");
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
  $("replay-position").textContent = steps.length ? "Action " + (at - 1) + " (" + at + " of " + steps.length + "): " + told : "";
  $("replay-position").dataset.index = step ? String(step.number) : "";
  for (const line of $("log").children) if (step && line.dataset.number === String(step.number)) line.classList.add("current");
}

function replayMove(delta) {
  if (!current || current.mode !== "replay" || !current.replay.steps.length) return;
  replayAt(current, delta === "first" ? 1 : delta === "last" ? current.replay.steps.length : current.position + delta);
}

// --- Start --------------------------------------------------------------------------------

function askNotifications() {
  if (!("Notification" in window)) return;
  Notification.requestPermission().then((permission) => {
    $("notify-button").textContent = permission === "granted"
      ? "Notifications are on for your turns"
      : "Notifications are blocked in this browser";
    $("notify-button").disabled = true;
  });
}

function start() {
  $("create-name").value = localStorage.getItem("high-society:name") || "";
  $("create-players").addEventListener("change", seatChoices);
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
  $("notify-button").addEventListener("click", askNotifications);
  window.addEventListener("hashchange", open);
  watchStreams();
  loadBots();
  open();
}

document.addEventListener("DOMContentLoaded", start);

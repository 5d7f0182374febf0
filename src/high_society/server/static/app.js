// The web page of the High Society table server: make or join a table, then play it.
// Everything it shows comes from the seat payload the server pushes (Server-Sent Events,
// read with fetch so that the seat's token travels in a header, never in a URL). Names
// come from other people: they are only ever set as text, never as HTML.
"use strict";

const BOTS = [["heuristic", "Heuristic bot"], ["random", "Random bot"], ["search", "Search bot"], ["open", "A person (invite)"]];
const $ = (id) => document.getElementById(id);

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function cardLabel(name) {
  if (name.startsWith("luxury-")) return "Luxury " + name.slice(7);
  return {prestige: "Prestige", "faux-pas": "Faux Pas", passe: "Passé", scandale: "Scandale"}[name] || name;
}

function cardKind(name) {
  if (name.startsWith("luxury-")) return "luxury";
  return name === "prestige" ? "prestige" : "disgrace";
}

function cardChip(name) {
  return el("span", cardLabel(name), "card " + cardKind(name));
}

function moneyChip(value) {
  return el("span", String(value), "money");
}

function notice(text) {
  const box = $("notice");
  box.textContent = text || "";
  box.hidden = !text;
}

function show(section) {
  for (const id of ["start", "join", "waiting", "game"]) $(id).hidden = id !== section;
}

// --- Where we are: the table in the URL's fragment, the seat's token in this browser ----------

function tableFromHash() {
  const match = /(?:^#|&)(t|join)=([A-Za-z0-9_-]{1,64})/.exec(location.hash);
  return match ? {mode: match[1], table: match[2]} : null;
}

function saved(table) {
  try {
    return JSON.parse(localStorage.getItem("high-society:" + table) || "null");
  } catch (error) {
    return null;
  }
}

function save(table, seat, token) {
  localStorage.setItem("high-society:" + table, JSON.stringify({seat, token}));
}

async function api(method, path, body, token) {
  const headers = {"Content-Type": "application/json"};
  if (token) headers.Authorization = "Bearer " + token;
  const response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  let data = null;
  try {
    data = await response.json();
  } catch (error) {
    data = null;
  }
  return {ok: response.ok, status: response.status, data};
}

// --- Making a table ----------------------------------------------------------------------

function seatChoices() {
  const players = Number($("create-players").value);
  const box = $("create-seats");
  const kept = Array.from(box.querySelectorAll("select")).map((s) => s.value);
  box.replaceChildren(el("legend", "The other seats"));
  for (let seat = 2; seat <= players; seat += 1) {
    const p = el("p");
    const id = "seat-" + seat;
    const label = el("label", "Seat " + seat);
    label.htmlFor = id;
    const select = el("select");
    select.id = id;
    for (const [value, text] of BOTS) {
      const option = el("option", text);
      option.value = value;
      select.append(option);
    }
    select.value = kept[seat - 2] || (seat === 2 ? "heuristic" : seat === 3 ? "random" : "heuristic");
    p.append(label, select);
    box.append(p);
  }
}

async function createTable(event) {
  event.preventDefault();
  notice("");
  const seats = [{kind: "person", name: $("create-name").value.trim()}];
  for (const select of $("create-seats").querySelectorAll("select")) {
    seats.push(select.value === "open" ? {kind: "open"} : {kind: "bot", bot: select.value});
  }
  const answer = await api("POST", "/api/tables", {seats});
  if (!answer.ok) {
    notice(answer.data ? answer.data.message : "The table could not be made.");
    return;
  }
  const mine = answer.data.seats[0];
  save(answer.data.table, mine.seat, mine.token);
  location.hash = "t=" + answer.data.table;
}

async function joinTable(event) {
  event.preventDefault();
  notice("");
  const where = tableFromHash();
  const answer = await api("POST", "/api/tables/" + where.table + "/join", {name: $("join-name").value.trim()});
  if (!answer.ok) {
    notice(answer.data ? answer.data.message : "Could not join the table.");
    return;
  }
  save(where.table, answer.data.seat, answer.data.token);
  location.hash = "t=" + where.table;
}

// --- Following a table ---------------------------------------------------------------------

let current = null; // {table, seat, token, payload, chosen: Set, stream: AbortController}

async function open() {
  if (current && current.stream) current.stream.abort();
  current = null;
  notice("");
  const where = tableFromHash();
  if (!where) {
    show("start");
    seatChoices();
    return;
  }
  const mine = saved(where.table);
  if (!mine) {
    show("join");
    return;
  }
  const lobby = await api("GET", "/api/tables/" + where.table);
  if (!lobby.ok) {
    notice(lobby.data ? lobby.data.message : "No such table.");
    show("start");
    seatChoices();
    return;
  }
  current = {table: where.table, seat: mine.seat, token: mine.token, payload: null, chosen: new Set(), log: 0};
  if (lobby.data.status === "waiting") {
    showWaiting(lobby.data);
    setTimeout(() => { if (current && current.table === where.table) open(); }, 1500);
    return;
  }
  show("game");
  $("record-link").href = "/api/tables/" + where.table + "/record";
  $("log").replaceChildren();
  follow(current, 0);
}

function showWaiting(lobby) {
  show("waiting");
  $("invite-link").value = location.origin + "/#join=" + lobby.table;
  const list = $("waiting-seats");
  list.replaceChildren();
  for (const seat of lobby.seats) {
    const who = seat.kind === "open" ? "open seat" : seat.name + (seat.kind === "bot" ? " (bot)" : "");
    list.append(el("li", "Seat " + (seat.seat + 1) + ": " + who));
  }
}

async function follow(mine, since) {
  const controller = new AbortController();
  mine.stream = controller;
  let last = since;
  try {
    const response = await fetch("/api/tables/" + mine.table + "/events?since=" + since, {
      headers: {Authorization: "Bearer " + mine.token, Accept: "text/event-stream"},
      signal: controller.signal,
    });
    if (!response.ok) {
      const data = await response.json().catch(() => null);
      notice(data ? data.message : "The table cannot be followed.");
      return;
    }
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const {value, done} = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, {stream: true});
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const data = block.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
        if (data) {
          const payload = JSON.parse(data);
          last = payload.number;
          if (current === mine) render(mine, payload);
        }
      }
    }
  } catch (error) {
    if (controller.signal.aborted) return;
  }
  // The stream ended: the game is over, or the connection dropped (then pick up from the last action).
  if (current === mine && !(mine.payload && mine.payload.result)) {
    setTimeout(() => { if (current === mine) follow(mine, last); }, 1000);
  }
}

function nameOf(payload, seat) {
  const player = payload.players[seat];
  return seat === payload.seat ? player.name + " (you)" : player.name;
}

function render(mine, payload) {
  mine.payload = payload;
  const view = payload.view;
  // The hand and discard buttons are rebuilt below, and every control is disabled while a
  // move is sent: note where the keyboard was, to put it back.
  const before = document.activeElement;
  const place = before && before.closest && before.closest("#hand, #discard-cards")
    ? {value: before.dataset.value, card: before.dataset.card}
    : null;
  const me = view.players[payload.seat];
  // What the game waits for.
  let status;
  if (payload.result) status = "The game is over.";
  else if (payload.to_act === payload.seat && view.phase === "discard") status = "Your turn: Faux Pas: discard one of your luxury cards.";
  else if (payload.to_act === payload.seat) {
    status = payload.legal && payload.legal.bids.length
      ? "Your turn: bid a total of " + payload.min_bid_total + " or more, or pass."
      : "Your turn: you cannot reach " + payload.min_bid_total + ", so you can only pass.";
  } else if (payload.to_act === "chance") status = "The next card is being revealed…";
  else if (payload.to_act !== null) status = nameOf(payload, payload.to_act) + " is to act.";
  $("status").textContent = status;
  $("status").dataset.turn = payload.to_act === payload.seat ? "you" : payload.result ? "over" : "other";
  $("status").dataset.number = String(payload.number);

  // The card up for auction, the deck, the cards out of the game.
  const auction = $("auction-card");
  const chip = view.auction ? cardChip(view.auction) : el("span", view.ending_card ? cardLabel(view.ending_card) + " ended the game" : "—", "card");
  chip.classList.add("big");
  auction.replaceChildren(chip);
  $("auction-info").textContent = view.auction
    ? (cardKind(view.auction) === "disgrace" ? "Disgrace: the first to pass takes it. " : "") +
      (payload.highest_bidder !== null ? "Highest bid " + view.highest_bid + " by " + nameOf(payload, payload.highest_bidder) + "." : "No bid yet.")
    : "";
  const counts = new Map();
  for (const card of view.deck) counts.set(card, (counts.get(card) || 0) + 1);
  const deckText = Array.from(counts, ([card, n]) => cardLabel(card) + (n > 1 ? " ×" + n : "")).join(", ");
  $("deck-info").textContent = view.deck.length + " card" + (view.deck.length === 1 ? "" : "s") + " left in the deck" + (deckText ? ": " + deckText : "") + ".";
  $("removed-info").textContent = view.removed.length ? "Out of the game: " + view.removed.map(cardLabel).join(", ") + "." : "";

  // Every player, as the table shows them (R13).
  const list = $("players");
  list.replaceChildren();
  view.players.forEach((player, seat) => {
    const item = el("li");
    item.dataset.seat = String(seat);
    if (seat === payload.to_act) item.classList.add("acting");
    if (seat === payload.seat) item.classList.add("me");
    const head = el("div");
    head.append(el("span", payload.players[seat].name, "name"));
    const bot = payload.players[seat].bot;
    head.append(el("span", seat === payload.seat ? "you" : bot ? bot + " bot" : "person", "tag"));
    if (seat === payload.to_act) head.append(el("span", "to act", "tag"));
    if (player.passed) head.append(el("span", "passed", "passed"));
    item.append(head);
    const table = el("div", "Face up: ");
    table.className = "face-up";
    if (player.table.length) player.table.forEach((v) => table.append(moneyChip(v)));
    else table.append(el("span", "nothing"));
    table.append(el("span", " (" + player.table.reduce((a, b) => a + b, 0) + ")"));
    item.append(table);
    item.append(el("div", player.hand_size + " money card" + (player.hand_size === 1 ? "" : "s") + " in hand"));
    const owns = el("div", "Owns: ");
    owns.className = "owns";
    if (player.status_cards.length) player.status_cards.forEach((c) => owns.append(cardChip(c)));
    else owns.append(el("span", "nothing"));
    if (player.status_cards.includes("faux-pas")) owns.append(el("span", " (Faux Pas pending)", "tag"));
    item.append(owns);
    list.append(item);
  });

  // Your hand and your choices.
  const myTurn = payload.legal !== null;
  const bidding = myTurn && view.phase === "auction";
  for (const value of Array.from(mine.chosen)) if (!view.hand.includes(value)) mine.chosen.delete(value);
  if (!bidding) mine.chosen.clear();
  const hand = $("hand");
  hand.replaceChildren();
  for (const value of view.hand) {
    const button = el("button", String(value));
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
  const discard = $("discard");
  discard.hidden = !(myTurn && payload.legal.discards.length);
  const cards = $("discard-cards");
  cards.replaceChildren();
  if (myTurn) {
    for (const card of payload.legal.discards) {
      const button = el("button", "Discard " + cardLabel(card));
      button.type = "button";
      button.dataset.card = card;
      button.addEventListener("click", () => play(mine, {type: "discard", player: payload.seat, card}));
      cards.append(button);
    }
  }
  updateChoice(mine);
  keepFocus(mine, place);

  // What happened, told in words.
  const log = $("log");
  if (payload.since === 0) log.replaceChildren();
  for (const entry of payload.log) {
    const line = el("li", entry.text);
    if (entry.text.startsWith("Round ") || entry.text.includes("ends at once")) line.classList.add("round");
    log.append(line);
  }
  log.scrollTop = log.scrollHeight;

  // The end: every seat's score and how it comes about.
  const result = payload.result;
  $("result").hidden = !result;
  if (result) {
    const body = $("result-table").querySelector("tbody");
    body.replaceChildren();
    payload.players.forEach((player, seat) => {
      const row = el("tr");
      row.dataset.seat = String(seat);
      if (result.winners.includes(seat)) row.classList.add("winner");
      row.append(el("th", nameOf(payload, seat)));
      row.firstChild.setAttribute("scope", "row");
      row.append(el("td", String(result.scores[seat]), "score"));
      row.append(el("td", String(result.money[seat]), "money-left"));
      row.append(el("td", result.breakdowns[seat].explain));
      const tags = [];
      if (result.cast_out.includes(seat)) tags.push("cast out");
      if (result.winners.includes(seat)) tags.push("winner");
      row.append(el("td", tags.join(", ") || "—"));
      body.append(row);
    });
    $("winners").textContent = result.winners.length
      ? "Winner: " + result.winners.map((s) => nameOf(payload, s)).join(" and ") + "."
      : "Nobody wins: everyone is cast out.";
  }
}

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
  const bidding = payload.legal !== null && view.phase === "auction";
  const enough = payload.min_bid_total !== null && total >= payload.min_bid_total;
  const bid = $("bid-button");
  bid.disabled = !(bidding && added > 0 && enough);
  bid.textContent = added > 0 ? "Bid " + Array.from(mine.chosen).sort((a, b) => a - b).join(" + ") + " (total " + total + ")" : "Bid";
  $("clear-button").disabled = !(bidding && added > 0);
  $("choice").textContent = bidding
    ? added > 0
      ? "Chosen: " + added + ", your face-up total would be " + total + (enough ? "." : ": not enough, you need " + payload.min_bid_total + ".")
      : "Choose money cards to add to your bid."
    : "";
}

async function play(mine, action) {
  const number = mine.payload.number;
  for (const button of document.querySelectorAll("#you button")) button.disabled = true;
  const answer = await api("POST", "/api/tables/" + mine.table + "/actions", {action, number}, mine.token);
  if (!answer.ok) {
    notice(answer.data ? answer.data.message : "The server refused that move.");
    if (mine.payload) render(mine, {...mine.payload, log: [], since: mine.payload.number});
    return;
  }
  notice("");
  mine.chosen.clear();
}

function start() {
  $("create-players").addEventListener("change", seatChoices);
  $("create-form").addEventListener("submit", createTable);
  $("join-form").addEventListener("submit", joinTable);
  $("bid-button").addEventListener("click", () => {
    if (!current || !current.payload) return;
    play(current, {type: "bid", player: current.payload.seat, cards: Array.from(current.chosen).sort((a, b) => a - b)});
  });
  $("clear-button").addEventListener("click", () => {
    if (!current || !current.payload) return;
    current.chosen.clear();
    render(current, {...current.payload, log: [], since: current.payload.number});
  });
  $("pass-button").addEventListener("click", () => {
    if (current && current.payload) play(current, {type: "pass", player: current.payload.seat});
  });
  window.addEventListener("hashchange", open);
  open();
}

document.addEventListener("DOMContentLoaded", start);

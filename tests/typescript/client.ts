// A small client of the table server, typed by what openapi-typescript makes of its
// OpenAPI document (api.d.ts, written by tests/test_server_clients.py, never committed).
// The test type-checks it with tsc, then runs it: `node out/client.js BASE_URL` plays one
// whole game of three people and prints what it saw as JSON.

import type { components } from "./api.js";

type Schemas = components["schemas"];
type Payload = Schemas["SeatPayload"];
type Action = Schemas["Action"];
type Money = Schemas["Money"];
type LuxuryCard = Schemas["LuxuryCard"];

class ApiFailure extends Error {
  constructor(readonly status: number, readonly body: Schemas["Error"]) {
    super(`${status} ${body.kind} ${body.code}: ${body.message}`);
  }
}

async function call<T>(base: string, method: string, path: string, token?: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers["Authorization"] = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const init: RequestInit = { method, headers };
  if (body !== undefined) init.body = JSON.stringify(body);
  const answer = await fetch(base + path, init);
  const data: unknown = await answer.json();
  if (!answer.ok) throw new ApiFailure(answer.status, data as Schemas["Error"]);
  return data as T;
}

const MONEY: readonly number[] = [1, 2, 3, 4, 6, 8, 10, 12, 15, 20, 25];

function isMoney(value: number): value is Money {
  return MONEY.includes(value);
}

function isLuxury(card: Schemas["StatusCard"]): card is LuxuryCard {
  return card.startsWith("luxury-");
}

/** A legal move for the seat that must act, from its payload alone. */
export function chooseMove(seen: Payload, turn: number): Schemas["MoveRequest"] {
  const legal = seen.legal;
  if (legal === null) throw new Error("not this seat's turn");
  const player = seen.seat;
  let action: Action;
  const discard = legal.discards.find(isLuxury);
  const bid = legal.bids[0];
  if (discard !== undefined) {
    action = { type: "discard", player, card: discard };
  } else if (bid !== undefined && (!legal.pass || turn % 3 === 0)) {
    action = { type: "bid", player, cards: bid.cards.filter(isMoney) };
  } else {
    action = { type: "pass", player };
  }
  return { action, number: seen.number };
}

export async function playOneGame(base: string): Promise<{ moves: number; winners: number[]; table: string }> {
  const body: Schemas["CreateTable"] = {
    seats: ["Ada", "Ben", "Cy"].map((name) => ({ kind: "person" as const, name })),
  };
  const made = await call<Schemas["TableCreated"]>(base, "POST", "/api/tables", undefined, body);
  const tokens = new Map(made.seats.map((s) => [s.seat, s.token] as const));
  let seat = 0;
  let moves = 0;
  for (;;) {
    const token = tokens.get(seat);
    if (token === undefined) throw new Error(`no token for seat ${seat}`);
    const seen = await call<Payload>(base, "GET", `/api/tables/${made.table}/payload`, token);
    if (seen.result !== null) return { moves, winners: seen.result.winners, table: made.table };
    const actor = seen.to_act;
    if (typeof actor !== "number") throw new Error(`unexpected actor ${String(actor)}`);
    if (actor !== seat) {
      seat = actor;
      continue;
    }
    const path = `/api/tables/${made.table}/actions`;
    const accepted = await call<Schemas["MoveAccepted"]>(base, "POST", path, token, chooseMove(seen, moves));
    moves += 1;
    const next = accepted.next.to_act;
    if (typeof next === "number") seat = next;
  }
}

const base = process.argv[2];
if (base !== undefined) {
  playOneGame(base).then(
    (done) => console.log(JSON.stringify(done)),
    (error: unknown) => {
      console.error(String(error));
      process.exit(1);
    },
  );
}

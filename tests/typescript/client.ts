// A small client of the table server, typed by what openapi-typescript makes of its
// OpenAPI document (api.d.ts, written by tests/test_server_clients.py, never committed)
// and called through openapi-fetch, as a newcomer would write one. It has no cast and no
// type guard: every move it sends is one of the actions its payload offered, sent back as
// it came. The test type-checks it with tsc, then runs it: `node out/client.js BASE_URL`
// plays one whole game of three people and prints what it saw as JSON.

import createClient from "openapi-fetch";
import type { components, paths } from "./api.js";

type Schemas = components["schemas"];
type Payload = Schemas["SeatPayload"];

/** A legal move for the seat that must act, from its payload alone. */
export function chooseMove(seen: Payload, turn: number): Schemas["MoveRequest"] {
  const legal = seen.legal;
  if (legal === null) throw new Error("not this seat's turn");
  const discard = legal.discards[0];
  const bid = legal.bids[0];
  let action: Schemas["Action"];
  if (discard !== undefined) {
    action = discard;
  } else if (bid !== undefined && (legal.pass === null || turn % 3 === 0)) {
    action = bid.action;
  } else if (legal.pass !== null) {
    action = legal.pass;
  } else {
    throw new Error("a seat to act always has a legal action");
  }
  return { action, number: seen.number };
}

function failed(what: string, error: Schemas["Error"] | undefined): Error {
  return new Error(`${what}: ${error === undefined ? "no answer" : `${error.kind} ${error.code}: ${error.message}`}`);
}

export async function playOneGame(base: string): Promise<{ moves: number; winners: number[]; table: string }> {
  const api = createClient<paths>({ baseUrl: base });
  const seats: Schemas["PersonSeat"][] = ["Ada", "Ben", "Cy"].map((name) => ({ kind: "person", name }));
  const made = await api.POST("/api/tables", { body: { seats } });
  if (made.data === undefined) throw failed("make a table", made.error);
  const table = made.data.table;
  const tokens = new Map<number, string>();
  for (const given of made.data.seats) tokens.set(given.seat, given.token);
  let seat = 0;
  let moves = 0;
  for (;;) {
    const token = tokens.get(seat);
    if (token === undefined) throw new Error(`no token for seat ${seat}`);
    const headers = { Authorization: `Bearer ${token}` };
    const params = { path: { table_id: table } };
    const seen = await api.GET("/api/tables/{table_id}/payload", { params, headers });
    if (seen.data === undefined) throw failed("read the payload", seen.error);
    const payload = seen.data;
    if (payload.result !== null) return { moves, winners: payload.result.winners, table };
    const actor = payload.to_act;
    if (typeof actor !== "number") throw new Error(`unexpected actor ${String(actor)}`);
    if (actor !== seat) {
      seat = actor;
      continue;
    }
    const body = chooseMove(payload, moves);
    const accepted = await api.POST("/api/tables/{table_id}/actions", { params, headers, body });
    if (accepted.data === undefined) throw failed("play a move", accepted.error);
    moves += 1;
    const next = accepted.data.next.to_act;
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

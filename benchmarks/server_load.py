"""The table server under load: ``python3 tasks.py bench-server [--tables N] [--seconds S]
[--rounds R] [--clients C] [--only NAME]`` (docs/performance.md, "The table server").

N tables are played at once by bot clients over HTTP, through the public API only, as a
front end would: each seat of each table is a person's seat whose client follows its
Server-Sent Events stream (``/events``) and, when its payload says it must act, POSTs a
move chosen at random among the payload's legal actions (``/actions``, numbered). The
server deals (its reveals are actions too). When a game ends its client starts another
table, until S seconds have passed; the games under way then play to their end. The
clients run in C processes of their own, beside the servers, on the same cores: each is
kept cheap (plain HTTP/1.1 over asyncio protocols on uvloop, kept-alive connections, a
payload parsed only when its seat must act), and its CPU time is reported beside the
servers'.

Configurations, run side by side in R interleaved rounds on this shared machine:

- ``sqlite-1``: one ``high-society serve`` process on a SQLite file;
- ``postgresql-1``: one process on PostgreSQL (a throwaway server: initdb in a temporary
  directory, a Unix socket, fsync on as a site would run it);
- ``postgresql-2``: two processes on that database, each seat of a table sent to either
  (alternately), so that most pushes cross from one process to the other.

Reported per configuration: the actions committed per second (the people's accepted moves
and the dealer's reveals) and the moves alone, the moves' latency (POST to answer) at p50,
p95 and p99, the errors (any answer but 200, any stream or connection failure: must be 0),
and that every finished table's record validates (``validate_record``: valid, finished).
The servers' and clients' CPU seconds per action say where the machine's time went
(they do not depend on waiting for a core, so they compare runs on a busy machine better
than the rates), and the load average says how busy it was.

Everything listens on 127.0.0.1 or a Unix socket; every process, database and temporary
directory started here is stopped and removed at the end, even on failure.
"""

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, cast

from high_society.record import validate_record
from services.pg_cluster import Cluster, find_binaries
from services.server_processes import Server, random_move, serve_command

#: Seats per table.
SEATS = 3


# --- The clients ------------------------------------------------------------------------------
#
# A client costs the machine CPU time beside the server's, on the same two cores, so it is
# kept cheap: plain HTTP/1.1 over asyncio protocols (uvloop's loop where installed), one
# kept-alive connection per seat for its moves and one for its stream; a payload is parsed
# only when its seat must act (bytes.find says whose turn it is).


#: JSON, by orjson where installed (the server extra brings it).
loads: Callable[[bytes], Any]
try:
    from orjson import loads
except ImportError:  # pragma: no cover
    loads = json.loads


class Tally:
    """What one client process saw."""

    def __init__(self) -> None:
        self.moves = 0
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.finished: list[tuple[str, str]] = []  # (table, base URL)


class Failed(Exception):
    """A connection or an answer that the benchmark counts as an error."""


class Connection(asyncio.Protocol):
    """One kept-alive HTTP/1.1 connection: a request at a time, answered with a
    Content-Length (the server's JSON answers), or a Server-Sent Events stream (chunked)
    whose events' data go to ``on_event`` until the server ends it."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.events = bytearray()
        self.status: int | None = None  # of the answer being read
        self.length = 0
        self.answer: asyncio.Future[tuple[int, bytes]] | None = None
        self.on_event: Callable[[bytes], bool] | None = None
        self.ended: asyncio.Future[None] | None = None
        self.lost = False  # closed by the server (uvicorn closes one idle for 5 s)

    @classmethod
    async def open(cls, host: str, port: int) -> "Connection":
        _, protocol = await asyncio.get_running_loop().create_connection(cls, host, port)
        return protocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        self.fail(Failed(f"connection lost ({exc})"))

    def fail(self, error: BaseException) -> None:
        for future in (self.answer, self.ended):
            if future is not None and not future.done():
                future.set_exception(error)
        self.close()

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()

    async def request(
        self, method: str, path: str, token: str | None = None, body: bytes = b""
    ) -> tuple[int, bytes]:
        """``(status, body)`` of one request."""
        assert self.transport is not None
        assert self.answer is None
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        if token is not None:
            head += f"Authorization: Bearer {token}\r\n"
        if body:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        self.answer = asyncio.get_running_loop().create_future()
        self.transport.write(head.encode() + b"\r\n" + body)
        try:
            return await self.answer
        finally:
            self.answer = None

    async def stream(self, path: str, token: str, on_event: Callable[[bytes], bool]) -> None:
        """GET ``path`` as an event stream: each event's data to ``on_event``, which returns
        False to stop reading, until the server ends the stream."""
        assert self.transport is not None
        self.on_event = on_event
        self.ended = asyncio.get_running_loop().create_future()
        head = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n\r\n"
        self.transport.write(head.encode())
        await self.ended

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        try:
            if self.status is None and not self._head():
                return
            if self.ended is not None:
                self._events()
            elif self.answer is not None and len(self.buffer) >= self.length:
                body = bytes(self.buffer[: self.length])
                del self.buffer[: self.length]
                status, self.status = self.status, None
                assert status is not None
                self.answer.set_result((status, body))
        except Exception as error:  # a malformed answer, or on_event's complaint
            self.fail(error)

    def _head(self) -> bool:
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return False
        lines = bytes(self.buffer[:end]).split(b"\r\n")
        del self.buffer[: end + 4]
        self.status = int(lines[0].split()[1])
        headers = dict(line.lower().split(b": ", 1) for line in lines[1:])
        if self.ended is not None:
            if self.status != 200:
                raise Failed(f"stream {self.status}")
            if headers.get(b"transfer-encoding") != b"chunked":
                raise Failed("a stream not chunked")
        elif b"content-length" in headers:
            self.length = int(headers[b"content-length"])
        else:
            raise Failed(f"an answer {self.status} without a Content-Length")
        return True

    def _events(self) -> None:
        assert self.ended is not None
        assert self.on_event is not None
        while True:  # the chunks: SIZE\r\nDATA\r\n ... 0\r\n\r\n
            line = self.buffer.find(b"\r\n")
            if line < 0:
                return
            size = int(self.buffer[:line], 16)
            if len(self.buffer) < line + 2 + size + 2:
                return
            self.events += self.buffer[line + 2 : line + 2 + size]
            del self.buffer[: line + 2 + size + 2]
            if size == 0:  # the server ended the stream
                self.ended.set_result(None)
                return
            while (end := self.events.find(b"\n\n")) >= 0:
                event = bytes(self.events[:end])
                del self.events[: end + 2]
                at = event.find(b"\ndata: ")
                if at >= 0 and not self.on_event(event[at + 7 :]):
                    self.ended.set_result(None)
                    return


async def seat_client(
    host: str,
    port: int,
    table: str,
    seat: int,
    token: str,
    rng: random.Random,
    tally: Tally,
) -> None:
    """One seat: follow the stream, move when the payload says so, until the game ends."""
    mine = b'"to_act":%d,' % seat
    moves = [await Connection.open(host, port)]
    stream = await Connection.open(host, port)
    turn = asyncio.Lock()  # one move at a time on the kept-alive connection
    pending: list[asyncio.Task[None]] = []

    async def move(data: bytes) -> None:
        body = json.dumps(random_move(loads(data), rng)).encode()
        try:
            async with turn:
                start = time.perf_counter()
                if moves[0].lost:  # idle too long while the others played: as a browser,
                    moves[0] = await Connection.open(host, port)  # open another
                status, answer = await moves[0].request(
                    "POST", f"/api/tables/{table}/actions", token, body
                )
                tally.latencies.append(time.perf_counter() - start)
            if status != 200:
                raise Failed(f"move {status}: {answer[:200]!r}")
        except BaseException as error:
            stream.fail(error)  # the game cannot go on: the seat's wait ends with it
            raise
        tally.moves += 1

    def on_event(data: bytes) -> bool:
        at = data.find(b'"to_act":')
        if at < 0:
            raise Failed("a payload without to_act")
        if data.startswith(b"null", at + 9):
            return False  # the game is over: the stream ends too
        if data.startswith(mine, at):
            pending.append(asyncio.get_running_loop().create_task(move(data)))
        return True

    try:
        await stream.stream(f"/api/tables/{table}/events", token, on_event)
        for task in pending:
            await task
    finally:
        moves[0].close()
        stream.close()


async def table_client(
    bases: Sequence[tuple[str, int]],
    index: int,
    until: float,
    tally: Tally,
) -> None:
    """Play tables one after another until ``until`` (the last one to its end)."""
    rng = random.Random(index)
    games = 0
    body = json.dumps(
        {"seats": [{"kind": "person", "name": f"P{i}"} for i in range(SEATS)]}
    ).encode()
    while time.monotonic() < until:
        host, port = bases[(index + games) % len(bases)]
        maker = await Connection.open(host, port)
        try:
            status, answer = await maker.request("POST", "/api/tables", body=body)
        finally:
            maker.close()
        if status != 201:
            tally.errors.append(f"create {status}: {answer[:200]!r}")
            return
        data = json.loads(answer)
        table = data["table"]
        seats = []
        for s in data["seats"]:  # the seats of a table spread over the servers
            seat_host, seat_port = bases[(index + games + s["seat"]) % len(bases)]
            seats.append(
                seat_client(seat_host, seat_port, table, s["seat"], s["token"], rng, tally)
            )
        try:
            await asyncio.wait_for(asyncio.gather(*seats), 300)
        except Exception as error:  # counted, never hidden
            tally.errors.append(f"table {table}: {type(error).__name__}: {error}")
            return
        tally.finished.append((table, f"http://{host}:{port}"))
        games += 1


def client_process(bases: list[str], indices: list[int], until: float, out: str) -> None:
    """One client process: its tables, played at once; its tally written to ``out``."""
    addresses = []
    for base in bases:
        host, _, port = base.removeprefix("http://").partition(":")
        addresses.append((host, int(port)))

    async def main() -> Tally:
        tally = Tally()
        await asyncio.gather(*(table_client(addresses, i, until, tally) for i in indices))
        return tally

    try:
        import uvloop
    except ImportError:  # pragma: no cover
        tally = asyncio.run(main())
    else:
        tally = uvloop.run(main())
    usage = resource.getrusage(resource.RUSAGE_SELF)
    Path(out).write_text(
        json.dumps(
            {
                "moves": tally.moves,
                "latencies": tally.latencies,
                "errors": tally.errors,
                "finished": tally.finished,
                "cpu": usage.ru_utime + usage.ru_stime,
            }
        )
    )


# --- The servers ------------------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of a process so far (Linux: /proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def servers(database: str, count: int, folder: Path, source: Path | None) -> Iterator[list[Server]]:
    """``count`` server processes on ``database``; with ``source``, the package's code is
    taken from that folder (an exported commit: the baseline)."""
    env = None if source is None else {"PYTHONPATH": str(source)}
    # The clients come from one address and make a table per game (a baseline from before
    # the option has no such bound).
    options = [] if source is not None else ["--tables-per-minute", "1000000"]
    started: list[Server] = []
    try:
        for i in range(count):
            started.append(
                Server(
                    lambda port: serve_command(port, database=database, options=options),
                    folder / f"server-{i}.log",
                    env,
                )
            )
        yield started
    finally:
        for server in started:
            server.stop()


def run_one(
    name: str,
    database: str,
    processes: int,
    args: argparse.Namespace,
    folder: Path,
    source: Path | None = None,
) -> dict[str, Any]:
    """One configuration: servers up, clients play for ``args.seconds``, figures back."""
    with servers(database, processes, folder, source) as running:
        bases = [server.base for server in running]
        before = [cpu_seconds(server.process.pid) for server in running]
        until = time.monotonic() + args.seconds
        outs = [str(folder / f"{name}-client-{c}.json") for c in range(args.clients)]
        context = multiprocessing.get_context("spawn")
        workers = [
            context.Process(
                target=client_process,
                args=(bases, list(range(c, args.tables, args.clients)), until, outs[c]),
            )
            for c in range(args.clients)
        ]
        started = time.monotonic()
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(args.seconds + 600)
        elapsed = time.monotonic() - started
        server_cpu = sum(
            cpu_seconds(s.process.pid) - b for s, b in zip(running, before, strict=True)
        )
        tallies = [json.loads(Path(out).read_text()) for out in outs if Path(out).exists()]
        errors = [e for t in tallies for e in t["errors"]]
        if len(tallies) != len(workers):
            errors.append("a client process did not report")
        finished = [tuple(f) for t in tallies for f in t["finished"]]
        committed = 0
        invalid = 0
        reader = running[0]
        for table, _ in finished:
            status, record = reader.call("GET", f"/api/tables/{table}/record")
            validation = validate_record(json.dumps(record)) if status == 200 else None
            if validation is None or not (validation.valid and validation.finished):
                invalid += 1
            else:
                assert validation.record is not None
                committed += len(validation.record.actions)
        latencies = sorted(x for t in tallies for x in t["latencies"])
        moves = sum(t["moves"] for t in tallies)
        errors += [
            line for s in running for line in s.log_text().splitlines() if "Traceback" in line
        ]
    return {
        "name": name,
        "seconds": elapsed,
        "tables": len(finished),
        "actions": committed,
        "moves": moves,
        "actions_per_s": committed / elapsed,
        "moves_per_s": moves / elapsed,
        "p50_ms": 1000 * percentile(latencies, 0.50),
        "p95_ms": 1000 * percentile(latencies, 0.95),
        "p99_ms": 1000 * percentile(latencies, 0.99),
        "errors": len(errors),
        "error_samples": errors[:5],
        "invalid_records": invalid,
        "server_cpu_s": server_cpu,
        "client_cpu_s": sum(t["cpu"] for t in tallies),
        "load_average": os.getloadavg()[0],
    }


def per_action(result: dict[str, Any], key: str) -> str:
    """CPU milliseconds per committed action: what waiting for a core does not change."""
    actions = result["actions"]
    return f"{1000 * result[key] / actions:.2f}" if actions else "-"


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(q * len(values)))]


# --- The report -------------------------------------------------------------------------------


def report(results: list[dict[str, Any]], args: argparse.Namespace) -> str:
    lines = [
        f"{args.tables} tables at once, {SEATS} seats each, {args.seconds:g} s of new games "
        f"per run, {args.clients} client processes, {args.rounds} rounds; "
        f"{os.cpu_count()} cores, Python {sys.version.split()[0]}"
        + (f"; baseline: the server of {args.baseline}" if args.baseline else ""),
        "",
        "| configuration | round | actions/s | moves/s | p50 ms | p95 ms | p99 ms | errors "
        "| tables (all valid) | server CPU ms/action | client CPU ms/action | server cores "
        "| load |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: "
        "| ---: |",
    ]
    for r in results:
        valid = "yes" if r["invalid_records"] == 0 else f"NO ({r['invalid_records']} invalid)"
        lines.append(
            f"| {r['name']} | {r['round']} | {r['actions_per_s']:,.0f} | {r['moves_per_s']:,.0f} "
            f"| {r['p50_ms']:.1f} | {r['p95_ms']:.1f} | {r['p99_ms']:.1f} | {r['errors']} "
            f"| {r['tables']} ({valid}) | {per_action(r, 'server_cpu_s')} "
            f"| {per_action(r, 'client_cpu_s')} | {r['server_cpu_s'] / r['seconds']:.2f} "
            f"| {r['load_average']:.1f} |"
        )
    names = sorted({r["name"] for r in results}, key=[r["name"] for r in results].index)
    lines += ["", "Median over the rounds, and ratios within each round (then their median):", ""]
    by_round: dict[int, dict[str, dict[str, Any]]] = {}
    for r in results:
        by_round.setdefault(r["round"], {})[r["name"]] = r
    for name in names:
        mine = [r for r in results if r["name"] == name]
        cpu = statistics.median(1000 * r["server_cpu_s"] / max(r["actions"], 1) for r in mine)
        client = statistics.median(1000 * r["client_cpu_s"] / max(r["actions"], 1) for r in mine)
        lines.append(
            f"- {name}: {statistics.median(r['actions_per_s'] for r in mine):,.0f} actions/s, "
            f"p99 {statistics.median(r['p99_ms'] for r in mine):.1f} ms, "
            f"server CPU {cpu:.2f} ms/action, client CPU {client:.2f} ms/action"
        )
    pairs = [("postgresql-2", "postgresql-1"), ("postgresql-1", "sqlite-1")]
    pairs.append(("sqlite-1", "sqlite-1@baseline"))
    for a, b in pairs:
        ratios = [
            rows[a]["actions_per_s"] / rows[b]["actions_per_s"]
            for rows in by_round.values()
            if a in rows and b in rows and rows[b]["actions_per_s"]
        ]
        if ratios:
            shown = ", ".join(f"{x:.2f}" for x in ratios)
            lines.append(
                f"- {a} / {b}, actions/s: {shown} (median {statistics.median(ratios):.2f})"
            )
    cpu_ratios = [
        (rows["sqlite-1@baseline"]["server_cpu_s"] / max(rows["sqlite-1@baseline"]["actions"], 1))
        / (rows["sqlite-1"]["server_cpu_s"] / max(rows["sqlite-1"]["actions"], 1))
        for rows in by_round.values()
        if "sqlite-1" in rows and "sqlite-1@baseline" in rows and rows["sqlite-1"]["server_cpu_s"]
    ]
    if cpu_ratios:
        shown = ", ".join(f"{x:.2f}" for x in cpu_ratios)
        lines.append(
            f"- server CPU per action, sqlite-1@baseline / sqlite-1: {shown} "
            f"(median {statistics.median(cpu_ratios):.2f})"
        )
    for r in results:
        for sample in r["error_samples"]:
            lines.append(f"- error in {r['name']} round {r['round']}: {sample}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=24, help="tables at once (24)")
    parser.add_argument("--seconds", type=float, default=20.0, help="of new games per run (20)")
    parser.add_argument("--rounds", type=int, default=2, help="interleaved rounds (2)")
    parser.add_argument("--clients", type=int, default=2, help="client processes (2)")
    parser.add_argument(
        "--only", action="append", default=None, help="run only this configuration (repeatable)"
    )
    parser.add_argument(
        "--baseline",
        metavar="COMMIT",
        default=None,
        help="also run sqlite-1 with the server's code of COMMIT (git archive), side by side",
    )
    args = parser.parse_args(argv)
    if not (1 <= args.tables <= 500 and 1 <= args.seconds <= 300 and 1 <= args.rounds <= 10):
        parser.error("--tables 1 to 500, --seconds 1 to 300, --rounds 1 to 10")
    if not 1 <= args.clients <= 8:
        parser.error("--clients 1 to 8")
    wanted = args.only or ["sqlite-1", "postgresql-1", "postgresql-2"]
    folder = Path(tempfile.mkdtemp(prefix="hs-bench-server-"))
    results: list[dict[str, Any]] = []
    source = None
    try:
        if args.baseline:
            source = folder / "baseline"
            source.mkdir()
            archive = subprocess.run(
                ["git", "archive", args.baseline, "src"], capture_output=True, check=True
            ).stdout
            subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
            source = source / "src"
            wanted = ["sqlite-1@baseline", *wanted]
        with ExitStack() as stack:
            cluster: Cluster | None = None
            if any(name.startswith("postgresql") for name in wanted):
                binaries = os.environ.get("HIGH_SOCIETY_PG_BINARIES") or find_binaries()
                if binaries is None:
                    sys.exit(
                        "PostgreSQL is not installed: python3 tasks.py bench-server installs it"
                    )
                cluster = stack.enter_context(Cluster.started(Path(binaries), durable=True))
            for round_ in range(1, args.rounds + 1):
                for name in wanted:
                    run_folder = folder / f"{name}-{round_}"
                    run_folder.mkdir()
                    if name.startswith("sqlite"):
                        url = f"sqlite:///{run_folder}/tables.sqlite3"
                    else:
                        assert cluster is not None
                        url = cluster.create_database(f"bench_{name.replace('-', '_')}_{round_}")
                    base_name, _, of = name.partition("@")
                    processes = int(base_name.rsplit("-", 1)[1])
                    print(f"running {name}, round {round_} ...", flush=True)
                    code = source if of == "baseline" else None
                    result = run_one(name, url, processes, args, run_folder, code)
                    result["round"] = round_
                    results.append(result)
                    print(json.dumps({k: v for k, v in result.items() if k != "error_samples"}))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print()
    print(report(results, args))
    bad = [r for r in results if r["errors"] or r["invalid_records"]]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

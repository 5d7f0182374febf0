"""What a move costs the table server, beside the floor of its stack: ``python3 tasks.py
bench-server [--seconds S] [--rounds R] [--connections C] [--only NAME] [--baseline COMMIT]``
(docs/performance.md, "The table server").

wrk (``benchmarks/wrk_moves.lua``) plays whole games over kept-alive connections, each move
one GET of the acting seat's payload and one POST of a numbered move chosen among its legal
actions; the very same client loads the bare app (``benchmarks/bare_app.py``: Starlette and
uvicorn doing the same requests' I/O, one row committed per move, and no game). Each runs in
a process of its own on 127.0.0.1, on SQLite (WAL, ``synchronous=FULL``) and on a
throwaway PostgreSQL server (fsync on), in interleaved rounds on this shared machine.

Reported per run: moves/s, the requests' latency (p50, p99: GETs and POSTs alike), errors
(must be 0), the server's CPU time per move (user and system, from /proc: it does not
depend on waiting for a core, so it compares runs on a busy machine better than the rates)
and wrk's (to show the client is not the bottleneck); then, per round, the server's CPU per
move over the bare app's. With ``--baseline COMMIT`` the server of that commit runs too.
"""

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from benchmarks.figures import Recorder, table
from services.pg_cluster import Cluster, find_binaries
from services.server_processes import Server, serve_command

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = Path(__file__).resolve().parent / "wrk_moves.lua"
#: The configurations, by name: which app, on which database (``bare-plain-sqlite``: the bare
#: app committing each move alone, as a plain app would).
NAMES = (
    "bare-sqlite",
    "server-sqlite",
    "bare-postgresql",
    "server-postgresql",
    "bare-plain-sqlite",
)
_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` so far (all its threads)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICKS


def command(name: str, url: str, code: Path | None) -> Callable[[int], Sequence[str]]:
    """How to start the app of ``name`` on a port (``code``: another commit's ``src``)."""
    if name.startswith("bare"):
        plain = ["--plain"] if "plain" in name else []
        return lambda port: [sys.executable, "-m", "benchmarks.bare_app", url, str(port), *plain]
    # wrk's connections come from one address and make a table per game.
    unbounded = ["--tables-per-minute", "1000000"]
    if code is None:
        return lambda port: serve_command(port, database=url, options=unbounded)
    script = (
        f"import sys; sys.path.insert(0, {str(code)!r}); from high_society.cli import main; "
        "sys.exit(main(sys.argv[1:]))"
    )
    baseline = serve_command(port=0, database=url, options=unbounded)[3:]
    return lambda port: [sys.executable, "-c", script, *_at_port(baseline, port)]


def _at_port(command: list[str], port: int) -> list[str]:
    """``command`` with its ``--port`` given ``port``."""
    at = command.index("--port")
    return [*command[: at + 1], str(port), *command[at + 2 :]]


def wrk(port: int, seconds: float, connections: int) -> tuple[dict[str, Any], float]:
    """One wrk run against the app on ``port``: its result, and wrk's CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    finished = subprocess.run(
        [
            "wrk",
            f"-t{connections}",
            f"-c{connections}",
            f"-d{round(seconds)}s",
            "--timeout",
            "10s",
            "-s",
            str(SCRIPT),
            f"http://127.0.0.1:{port}",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    line = next(x for x in finished.stdout.splitlines() if x.startswith("RESULT "))
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    result: dict[str, Any] = json.loads(line.removeprefix("RESULT "))
    return result, used


def run_one(
    name: str, url: str, args: argparse.Namespace, folder: Path, code: Path | None
) -> dict[str, Any]:
    server = Server(command(name, url, code), folder / "server.log")
    try:
        wrk(server.port, 2, args.connections)  # warm up: caches, pages, the bid tables
        start = cpu_seconds(server.process.pid)
        result, client = wrk(server.port, args.seconds, args.connections)
        used = cpu_seconds(server.process.pid) - start
    finally:
        server.stop()
    moves = max(result["moves"], 1)
    return {
        "name": name,
        "moves_per_s": result["moves"] / result["seconds"],
        "p50_ms": result["p50_ms"],
        "p99_ms": result["p99_ms"],
        "errors": result["errors"] + result["socket_errors"] + result["non_2xx"],
        "games": result["games"],
        "server_cpu_ms_per_move": 1000 * used / moves,
        "wrk_cpu_ms_per_move": 1000 * client / moves,
        "server_cores": used / result["seconds"],
        "load": os.getloadavg()[0],
    }


def report(results: list[dict[str, Any]], baseline: bool) -> str:
    lines = [
        "| configuration | round | moves/s | p50 ms | p99 ms | errors | server CPU ms/move | "
        "wrk CPU ms/move | server cores | load |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in results:
        lines.append(
            f"| {r['name']} | {r['round']} | {r['moves_per_s']:,.0f} | {r['p50_ms']:.2f} | "
            f"{r['p99_ms']:.2f} | {r['errors']} | {r['server_cpu_ms_per_move']:.3f} | "
            f"{r['wrk_cpu_ms_per_move']:.3f} | {r['server_cores']:.2f} | {r['load']:.1f} |"
        )
    by_round: dict[int, dict[str, dict[str, Any]]] = {}
    for r in results:
        by_round.setdefault(r["round"], {})[r["name"]] = r
    lines += ["", "Server CPU per move over the bare app's, per round (median):", ""]
    pairs = [
        ("server-sqlite", "bare-sqlite"),
        ("server-postgresql", "bare-postgresql"),
        ("server-sqlite", "bare-plain-sqlite"),
    ]
    if baseline:
        pairs.append(("server-sqlite@baseline", "server-sqlite"))
    for a, b in pairs:
        ratios = [
            rows[a]["server_cpu_ms_per_move"] / rows[b]["server_cpu_ms_per_move"]
            for rows in by_round.values()
            if a in rows and b in rows
        ]
        if ratios:
            shown = ", ".join(f"{x:.2f}" for x in ratios)
            lines.append(f"- {a} / {b}: {shown} (median {statistics.median(ratios):.2f})")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=15.0, help="of load per run (15)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (3)")
    parser.add_argument("--connections", type=int, default=8, help="wrk's connections (8)")
    parser.add_argument("--only", action="append", choices=NAMES, default=None)
    parser.add_argument("--baseline", metavar="COMMIT", default=None)
    parser.add_argument("--figures", metavar="PATH", help="also write the figures to PATH (JSON)")
    args = parser.parse_args(argv)
    shown = " ".join(sys.argv[1:] if argv is None else argv)
    record = Recorder(args.figures, f"python3 tasks.py bench-server {shown}".strip())
    if not (1 <= args.seconds <= 300 and 1 <= args.rounds <= 10 and 1 <= args.connections <= 64):
        parser.error("--seconds 1 to 300, --rounds 1 to 10, --connections 1 to 64")
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed: python3 tasks.py bench-server installs it")
    wanted = list(args.only or NAMES[:4])
    folder = Path(tempfile.mkdtemp(prefix="hs-bench-cost-"))
    results: list[dict[str, Any]] = []
    code = None
    try:
        if args.baseline:
            archive = subprocess.run(
                ["git", "archive", args.baseline, "src"], cwd=ROOT, capture_output=True, check=True
            ).stdout
            subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
            code = folder / "src"
            wanted.append("server-sqlite@baseline")
        with ExitStack() as stack:
            cluster: Cluster | None = None
            if any("postgresql" in name for name in wanted):
                binaries = os.environ.get("HIGH_SOCIETY_PG_BINARIES") or find_binaries()
                if binaries is None:
                    sys.exit("PostgreSQL is not installed: python3 tasks.py bench-server does it")
                cluster = stack.enter_context(Cluster.started(Path(binaries), durable=True))
            for round_ in range(1, args.rounds + 1):
                for name in wanted:
                    run_folder = folder / f"{name}-{round_}"
                    run_folder.mkdir()
                    if "sqlite" in name:
                        url = f"sqlite:///{run_folder}/tables.sqlite3"
                    else:
                        assert cluster is not None
                        url = cluster.create_database(f"cost_{name.replace('-', '_')}_{round_}")
                    print(f"running {name}, round {round_} ...", flush=True)
                    of = code if name.endswith("@baseline") else None
                    result = run_one(name, url, args, run_folder, of)
                    result["round"] = round_
                    results.append(result)
                    print(json.dumps(result), flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print()
    print(report(results, args.baseline is not None))
    keep(record, results, args)
    return 1 if any(r["errors"] for r in results) else 0


def keep(record: Recorder, results: list[dict[str, Any]], args: argparse.Namespace) -> None:
    """Write the runs and the ratios of the server's CPU per move to the bare app's to the
    figure file, when one was asked for."""
    rows: list[list[int | float | str]] = [
        [
            r["name"],
            r["round"],
            round(r["moves_per_s"]),
            round(r["p50_ms"], 2),
            round(r["p99_ms"], 2),
            r["errors"],
            round(r["server_cpu_ms_per_move"], 3),
            round(r["wrk_cpu_ms_per_move"], 3),
        ]
        for r in results
    ]
    heads = ["configuration", "round", "moves/s", "p50 ms", "p99 ms", "errors"]
    record["runs"] = table([*heads, "server CPU ms/move", "wrk CPU ms/move"], rows)
    by_round: dict[int, dict[str, dict[str, Any]]] = {}
    for r in results:
        by_round.setdefault(r["round"], {})[r["name"]] = r
    for database in ("sqlite", "postgresql"):
        ratios = [
            rows_[f"server-{database}"]["server_cpu_ms_per_move"]
            / rows_[f"bare-{database}"]["server_cpu_ms_per_move"]
            for rows_ in by_round.values()
            if f"server-{database}" in rows_ and f"bare-{database}" in rows_
        ]
        if ratios:
            record[f"x_bare_{database}"] = round(statistics.median(ratios), 2)
    record.write(
        title="What a move costs the table server, beside a bare app",
        notes=f"wrk with {args.connections} connections, {args.seconds:g} s of load a run, "
        f"{args.rounds} interleaved rounds; x bare: the server's CPU time per move over the "
        "bare app's, the median of the rounds' ratios.",
        distributions=("fastapi", "starlette", "uvicorn", "sqlalchemy", "psycopg"),
    )


if __name__ == "__main__":
    sys.exit(main())

"""Decide the mutants mutmut left undecided, as docs/verification.md's "To check a verdict
by hand" says, and print the score per module (docs/verification.md, "The score").

mutmut 3.8.1 runs each mutant's tests in no particular order, so on the engine, whose
functions every test reaches, a mutant may run minutes of slow tests before the one that
fails: its pace falls to a few mutants a minute. This runs each undecided mutant in a fresh
process (cold caches, as a plain pytest run) on the tests ``mutants/mutmut-stats.json``
lists for its function, fastest first, with the ``pytest_add_cli_args`` of
``[tool.mutmut]``, stopping at the first failure; ``--limit`` seconds of wall time each
(default 90), ``--jobs`` at a time (default 2). A run stopped by the limit is reported as
such, never counted as caught: decide it again with a larger limit or by reading it.

mypy's verdicts are mutmut's (its ``.meta`` files): a mutant mutmut did not reach is
run by its tests here, so a survivor reported here that ``mypy --strict`` would refuse
(run the configured ``type_check_command`` on it) is caught, not a survivor. Run, after
``python3 tasks.py mutate`` (stopped or finished), from the project's root::

    nice -n 10 .venv/bin/python -m verification.mutants_by_hand [--limit S] [--jobs N]

Verdicts are appended to ``mutants/by-hand.jsonl`` (one object per mutant: ``name``,
``verdict`` of ``killed``, ``survived`` or ``stopped``, ``seconds``), which a later run
reads back, so a run can be stopped and started again. Not part of CI: hours of CPU.
"""

import argparse
import json
import os
import subprocess
import sys
import time
import tomllib
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

MUTANTS = Path("mutants")
DECIDED = MUTANTS / "by-hand.jsonl"
#: mutmut's exit codes for a mutant, as its ``results`` names them.
MUTMUT_VERDICTS = {
    1: "killed",
    3: "killed",
    37: "caught by mypy",
    0: "survived",
    -24: "stopped",
    36: "stopped",
    152: "stopped",
}


def mutmut_verdicts() -> dict[str, int | None]:
    """Every mutant's exit code in mutmut's ``.meta`` files (``None``: not run)."""
    codes: dict[str, int | None] = {}
    for meta in sorted((MUTANTS / "src").rglob("*.meta")):
        codes.update(json.loads(meta.read_text())["exit_code_by_key"])
    return codes


def decided_by_hand() -> dict[str, str]:
    """The verdicts of earlier runs of this script."""
    if not DECIDED.exists():
        return {}
    rows = (json.loads(line) for line in DECIDED.read_text().splitlines() if line)
    return {row["name"]: row["verdict"] for row in rows}


def pytest_args() -> list[str]:
    """The pytest arguments ``[tool.mutmut]`` gives every mutant's run."""
    config = tomllib.loads(Path("pyproject.toml").read_text())["tool"]["mutmut"]
    return [str(arg) for arg in config["pytest_add_cli_args"]]


def run_one(
    name: str, stats: dict[str, Any], command: list[str], limit: float
) -> dict[str, object]:
    """Run ``command`` (pytest and its arguments) on the tests of mutant ``name``'s
    function, against the mutant; its verdict."""
    function = name.rsplit("__mutmut_", 1)[0]
    durations: dict[str, float] = stats["duration_by_test"]
    tests = sorted(
        stats["tests_by_mangled_function_name"][function],
        key=lambda test: durations.get(test, 0.0),
    )
    env = {**os.environ, "PYTHONPATH": "src", "MUTANT_UNDER_TEST": name}
    start = time.monotonic()
    try:
        done = subprocess.run(
            [*command, *tests], cwd=MUTANTS, env=env, capture_output=True, timeout=limit
        )
    except subprocess.TimeoutExpired:
        verdict = "stopped"
    else:
        verdict = "survived" if done.returncode == 0 else "killed"
    return {"name": name, "verdict": verdict, "seconds": round(time.monotonic() - start, 1)}


def module_of(name: str) -> str:
    """``high_society.rules.x__bid__mutmut_3`` and
    ``high_society._bidtable.xǁBidTableǁcards_at__mutmut_1`` -> ``rules``, ``_bidtable``:
    the part before mutmut's mangled function name."""
    parts = name.split(".")
    mangled = next(i for i, part in enumerate(parts) if part.startswith(("x_", "xǁ")))
    return parts[mangled - 1]


def report(codes: dict[str, int | None], by_hand: dict[str, str]) -> None:
    """The table of docs/verification.md's score: per module, how each mutant ended."""
    table: dict[str, Counter[str]] = {}
    for name, code in codes.items():
        if name in by_hand:
            verdict = by_hand[name]
        elif code is None:
            verdict = "undecided"
        else:
            verdict = MUTMUT_VERDICTS.get(code, "other")
        table.setdefault(module_of(name), Counter())[verdict] += 1
    kinds = ["caught by mypy", "killed", "survived", "stopped", "other", "undecided"]
    print(f"{'module':<12}{'mutants':>9}" + "".join(f"{kind:>16}" for kind in kinds))
    total: Counter[str] = Counter()
    for module, counts in sorted(table.items()):
        total += counts
        row = "".join(f"{counts[kind]:>16}" for kind in kinds)
        print(f"{module:<12}{sum(counts.values()):>9}{row}")
    caught = total["caught by mypy"] + total["killed"]
    print(f"{'total':<12}{sum(total.values()):>9}" + "".join(f"{total[k]:>16}" for k in kinds))
    print(f"caught: {caught} of {sum(total.values())} ({caught / sum(total.values()):.1%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=float, default=90.0, help="wall seconds per mutant")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if not (MUTANTS / "mutmut-stats.json").exists():
        sys.exit("no mutants/mutmut-stats.json: run python3 tasks.py mutate first")
    stats = json.loads((MUTANTS / "mutmut-stats.json").read_text())
    codes = mutmut_verdicts()
    by_hand = decided_by_hand()
    left = [name for name, code in codes.items() if code is None and name not in by_hand]
    print(f"{len(left)} mutants to decide, {args.jobs} at a time", flush=True)
    command = [sys.executable, "-m", "pytest", "--rootdir=.", "-p", "no:randomly", *pytest_args()]
    with ThreadPoolExecutor(args.jobs) as pool, DECIDED.open("a") as out:
        for row in pool.map(lambda name: run_one(name, stats, command, args.limit), left):
            out.write(json.dumps(row) + "\n")
            out.flush()
            by_hand[str(row["name"])] = str(row["verdict"])
            print(f"{row['name']}: {row['verdict']} ({row['seconds']} s)", flush=True)
    report(codes, by_hand)


if __name__ == "__main__":
    main()

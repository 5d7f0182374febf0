"""Check the PEP 316 contracts of the rules and the scoring with CrossHair, and the canary.

Run: ``.venv/bin/python -m verification.crosshair_check`` (``python3 tasks.py test`` runs
it): the gate. Each condition is checked over at most :data:`ITERATIONS` execution paths
(:data:`SLOW` functions get more), with no time limit anywhere: CrossHair's per-condition
and per-path timeouts are off, the SMT solver is bounded by work (``CROSSHAIR_SMT_RLIMIT``)
rather than by seconds, and hashing is seeded. What CrossHair explores is then a function
of the code alone, not of the machine's speed or load (docs/verification.md).

``--deep SECONDS`` is the deep run (``python3 tasks.py verify-deep``, not in CI): no path
limit, SECONDS of CPU per condition.

It prints, for every condition, whether CrossHair confirmed it over all paths, did not
refute it within its bound, or refuted it, and exits 1 when:

- CrossHair reports a counterexample or any error line for a real contract (every
  contract's preconditions admit only states whose cards are in place, so a
  counterexample is a bug in the code or in the contract, never noise);
- a function's preconditions could not be met ("Unable to meet precondition": CrossHair
  built no input, so it checked nothing, yet exits 0);
- a condition was never reported at all (nothing was analysed);
- the canary (``verification/canary.py``, a broken copy of a checked function) is NOT
  refuted: a CrossHair that stopped working would also "confirm" everything else.
"""

import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Execution paths per condition in the gate.
ITERATIONS = 50
#: Functions whose preconditions CrossHair needs more paths to meet, with their own bound.
#: The first path that meets them is path 168 for ``_reveal``, 118 for ``_bid``, 109 for
#: ``_pass`` and 161 for ``_discard`` (a seat holding Faux Pas and a luxury card in the
#: discard phase); the bounds leave room for changes to the code.
#: ``cast_out`` has only 82 paths in all: a bound of 100 explores every one of them, so the
#: gate confirms its contract instead of leaving it "not refuted".
SLOW = {"_reveal": 250, "_bid": 200, "_pass": 200, "_discard": 250, "cast_out": 100}
#: The canaries' bound: CrossHair must refute both within it (it refutes
#: ``broken_cast_out`` at path 4 and ``broken_bid`` at path 57).
CANARY_ITERATIONS = 100
#: A bound on the SMT solver's work per query, in z3's machine-independent "rlimit" units
#: (CrossHair reads it from the environment). A query that exhausts it is "unknown" and
#: its path is abandoned, at the same point on every machine; a wall-clock solver timeout
#: would abandon it at a point that depends on the load.
SMT_RLIMIT = 50_000_000
#: The functions whose docstrings hold contracts, by module.
TARGETS = {
    "src/high_society/rules.py": ["_check_bid", "_reveal", "_bid", "_pass", "_discard"],
    "src/high_society/scoring.py": ["status_of", "cast_out", "winners", "result"],
}
CANARY = "verification/canary.py"
#: The canaries' conditions that CrossHair must refute: (function, start of the condition).
CANARY_MUST_FAIL = (
    ("broken_cast_out", "post: all(i in __return__"),
    ("broken_bid", "post: __return__.players[seat].hand.isdisjoint"),
)

_LINE = re.compile(r"^(?P<file>.*?):(?P<line>\d+): (?P<level>\w+): (?P<message>.*)$")


def _conditions(path: str, functions: list[str]) -> dict[int, tuple[str, str]]:
    """Line number -> (function, condition text) for each ``pre:``/``post:`` line."""
    found: dict[int, tuple[str, str]] = {}
    current = None
    for number, line in enumerate((ROOT / path).read_text().splitlines(), start=1):
        match = re.match(r"^def (\w+)\(", line)
        if match:
            current = match.group(1)
        stripped = line.strip()
        if current in functions and stripped.startswith(("pre:", "post:")):
            found[number] = (current, stripped)
    return found


def _crosshair(targets: list[str], bound: str) -> list[str]:
    """CrossHair's report lines on ``targets``; ``bound`` is "N" paths or "N s" deep."""
    if bound.endswith(" s"):
        limits = [f"--per_condition_timeout={bound[:-2]}"]
    else:
        limits = [
            f"--max_iterations={bound}",
            "--per_path_timeout=inf",
            "--max_uninteresting_iterations=0",
        ]
    command = [
        sys.executable,
        "-m",
        "verification.crosshair_entry",
        "check",
        "--analysis_kind=PEP316",
        "--report_all",
        *limits,
        *targets,
    ]
    env = {**os.environ, "PYTHONHASHSEED": "0", "CROSSHAIR_SMT_RLIMIT": str(SMT_RLIMIT)}
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False, env=env)
    return (done.stdout + done.stderr).splitlines()


def main(argv: list[str]) -> int:
    deep = argv[:1] == ["--deep"]
    if deep:
        seconds = argv[1] if len(argv) > 1 else "60"
        bounds = {name: f"{seconds} s" for names in TARGETS.values() for name in names}
        canary_bound = f"{seconds} s"
    else:
        paths = int(argv[0]) if argv else ITERATIONS
        bounds = {name: str(SLOW.get(name, paths)) for names in TARGETS.values() for name in names}
        canary_bound = str(CANARY_ITERATIONS)
    failures: list[str] = []
    began = time.perf_counter()
    # Read before CrossHair runs: its reports name the lines of the files it imported.
    conditions = {path: _conditions(path, names) for path, names in TARGETS.items()}
    canary_conditions = {f: _conditions(CANARY, [f]) for f, _ in CANARY_MUST_FAIL}
    targets = [
        f"{path[4:-3].replace('/', '.')}.{name}"
        for path, names in TARGETS.items()
        for name in names
    ]
    lines: list[str] = []
    for bound in dict.fromkeys(bounds.values()):  # one CrossHair per bound, in a fixed order
        lines += _crosshair([t for t in targets if bounds[t.rsplit(".", 1)[1]] == bound], bound)
    lines += _crosshair([CANARY[:-3].replace("/", ".")], canary_bound)
    verdicts: dict[tuple[str, int], str] = {}
    matched = False
    for line in lines:
        match = _LINE.match(line)
        if not match:
            # A counterexample's repr may span lines: the rest of a reported line is fine,
            # anything before the first report (a crash, a traceback) is not.
            if line.strip() and not matched:
                failures.append(f"unexpected output: {line}")
            continue
        matched = True
        path = str(Path(match["file"]).resolve().relative_to(ROOT))
        key = (path, int(match["line"]))
        message = match["message"]
        if path == CANARY:
            verdicts[key] = message
        elif match["level"] != "info" or "Unable to meet precondition" in message:
            failures.append(f"{path}:{key[1]}: {message[:400]}")
            verdicts[key] = message
        else:
            verdicts[key] = message
    print("CrossHair, deep run:" if deep else "CrossHair, the gate:")
    tally = {"confirmed over all paths": 0, "not refuted": 0, "refuted": 0}
    for path, found in conditions.items():
        for number, (function, text) in found.items():
            verdict = verdicts.get((path, number))
            if text.startswith("pre:"):
                continue  # CrossHair reports on postconditions; preconditions frame them
            if verdict is None:
                failures.append(f"{path}:{number}: {function}: never reported: {text}")
                continue
            bound = bounds[function]
            if verdict.startswith("Confirmed over all paths"):
                shown = "confirmed over all paths"
            elif verdict.startswith(("Not confirmed", "Confirmed")):
                shown = f"not refuted in {bound}" + ("" if deep else " paths")
            else:
                shown = "REFUTED"
            tally["refuted" if shown == "REFUTED" else shown.rsplit(" in ", 1)[0]] += 1
            print(f"  {function:10} {shown:28} {text[:88]}")
    print("  " + ", ".join(f"{n} {k}" for k, n in tally.items()))
    for function, start in CANARY_MUST_FAIL:
        lines_of = [
            n for n, (_, text) in canary_conditions[function].items() if text.startswith(start)
        ]
        verdict = verdicts.get((CANARY, lines_of[0]), "") if lines_of else ""
        if verdict and not verdict.startswith(("Confirmed", "Not confirmed")):
            print(f"  canary {function} refuted as it must be: {verdict[:80]}")
        else:
            failures.append(f"canary {function} NOT refuted: CrossHair is not checking")
    print(f"CrossHair took {time.perf_counter() - began:.0f} s")
    for failure in failures:
        print(f"FAILED: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Check the PEP 316 contracts of the rules and the scoring with CrossHair, and the canary.

Run: ``.venv/bin/python -m verification.crosshair_check`` (``python3 tasks.py test`` runs
it): the gate. Each condition is checked over at most :data:`ITERATIONS` execution paths
(:data:`SLOW` functions get more), with no time limit anywhere: CrossHair's per-condition
and per-path timeouts are off, the SMT solver is bounded by work (``CROSSHAIR_SMT_RLIMIT``)
rather than by seconds, and hashing is seeded. What CrossHair explores is then a function
of the code alone, not of the machine's speed or load (docs/verification.md).

``--deep SECONDS [--jobs N] [FUNCTION ...]`` is the deep run (``python3 tasks.py
verify-deep``, not in CI): no path limit, SECONDS of CPU per condition, one CrossHair process
per function (N at a time, default 1), so that a crash inside CrossHair costs only that
function's verdicts: they are reported as "CrossHair crashed" with its error line. It also
prints, per condition, how many paths CrossHair explored and the CPU seconds it took.

Both modes then check the contracts :mod:`verification.enumeration` covers by enumerating
their finite domain (about 20 CPU seconds in the gate), reported as "confirmed by
enumeration over N inputs", apart from CrossHair's verdicts.

It prints, for every condition, whether CrossHair confirmed it over all paths, did not
refute it within its bound, or refuted it, and exits 1 when:

- CrossHair reports a counterexample or any error line for a real contract (every
  contract's preconditions admit only states whose cards are in place, so a
  counterexample is a bug in the code or in the contract, never noise);
- a function's preconditions could not be met ("Unable to meet precondition": CrossHair
  built no input, so it checked nothing, yet exits 0);
- a condition was never reported at all (nothing was analysed);
- the canary (``verification/canary.py``, a broken copy of a checked function) is NOT
  refuted: a CrossHair that stopped working would also "confirm" everything else;
- an enumeration finds a condition false (or a precondition false on its domain).

A crash inside CrossHair fails the gate (its output is not a report); in the deep run it is
a verdict of its own and does not fail the run.
"""

import importlib.metadata
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from verification.crosshair_entry import STATS
from verification.enumeration import ENUMERATIONS, Outcome, enumerate_all

ROOT = Path(__file__).resolve().parent.parent
#: Execution paths per condition in the gate.
ITERATIONS = 50
#: Functions whose preconditions CrossHair needs more paths to meet, with their own bound.
#: The first path that meets them is path 83 for ``_reveal``, 169 for ``_bid``, 98 for
#: ``_pass``, 292 for ``_discard`` (a seat holding Faux Pas and a luxury card in the
#: discard phase) and 28 for ``_check_bid``; the bounds leave room for changes to the code.
#: ``cast_out`` has only 82 paths in all: a bound of 100 explores every one of them, so the
#: gate confirms its contract instead of leaving it "not refuted".
SLOW = {
    "_check_bid": 75,
    "_reveal": 250,
    "_bid": 260,
    "_pass": 200,
    "_discard": 400,
    "cast_out": 100,
}
#: The canaries' bound: CrossHair must refute both within it (it refutes
#: ``broken_cast_out`` at path 4 and ``broken_bid`` at path 169, the first that meets
#: ``_bid``'s precondition, which it shares).
CANARY_ITERATIONS = 250
#: A bound on the SMT solver's work per query, in z3's machine-independent "rlimit" units
#: (CrossHair reads it from the environment). A query that exhausts it is "unknown" and
#: its path is abandoned, at the same point on every machine; a wall-clock solver timeout
#: would abandon it at a point that depends on the load.
SMT_RLIMIT = 50_000_000
#: The functions whose docstrings hold contracts, by module (and canary below).
TARGETS = {
    "src/high_society/rules.py": ["_check_bid", "_reveal", "_bid", "_pass", "_discard"],
    "src/high_society/scoring.py": ["status_of", "_status", "cast_out", "winners", "result"],
}
CANARY = "verification/canary.py"
#: The canaries' conditions that CrossHair must refute: (function, start of the condition).
CANARY_MUST_FAIL = (
    ("broken_cast_out", "post: all(i in __return__"),
    ("broken_bid", "post: hand_and_table_apart(seat, __return__)"),
)

_LINE = re.compile(r"^(?P<file>.*?):(?P<line>\d+): (?P<level>\w+): (?P<message>.*)$")
STATS_PATTERN = re.compile(
    "^"
    + re.escape(STATS)
    .replace(r"\{file\}", "(?P<file>.*?)")
    .replace(r"\{line\}", r"(?P<line>\d+)")
    .replace(r"\{paths\}", r"(?P<paths>\d+)")
    .replace(r"\{end\}", r"(?P<end>\w+)")
    .replace(r"\{cpu:\.1f\}", r"(?P<cpu>[\d.]+)")
    + "$"
)
#: The verdicts of the table.
CONFIRMED = "confirmed over all paths"
NOT_REFUTED = "not refuted"
REFUTED = "REFUTED"
CRASHED = "CrossHair crashed"


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


def _crosshair(targets: list[str], bound: str) -> tuple[list[str], int]:
    """CrossHair's output lines on ``targets`` and its exit code; ``bound`` is "N" paths,
    or "N s" for the deep run (which also asks for the paths explored per condition)."""
    stats = "0"
    if bound.endswith(" s"):
        limits = [f"--per_condition_timeout={bound[:-2]}"]
        stats = "1"
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
    env = {
        **os.environ,
        "PYTHONHASHSEED": "0",
        "CROSSHAIR_SMT_RLIMIT": str(SMT_RLIMIT),
        "CROSSHAIR_PATH_STATS": stats,
    }
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False, env=env)
    return (done.stdout + done.stderr).splitlines(), done.returncode


def crash_line(lines: list[str]) -> str | None:
    """The error line of a traceback in CrossHair's output, if it crashed."""
    if not any(line.startswith("Traceback") for line in lines):
        return None
    errors = [line for line in lines if re.match(r"^[A-Za-z_][\w.]*(: |$)", line)]
    return errors[-1] if errors else "a traceback without an error line"


def crash_report(function: str, target: str, seconds: str, lines: list[str]) -> list[str]:
    """What to file upstream when CrossHair crashes on ``function``: the versions, the
    command that reproduces it, and the end of the traceback."""
    start = max(i for i, line in enumerate(lines) if line.startswith("Traceback"))
    command = (
        "PYTHONHASHSEED=0 CROSSHAIR_SMT_RLIMIT="
        f"{SMT_RLIMIT} python -m verification.crosshair_entry check --analysis_kind=PEP316"
        f" --report_all --per_condition_timeout={seconds} {target}"
    )
    return [
        f"CrossHair {importlib.metadata.version('crosshair-tool')} crashed on {function},"
        f" Python {sys.version.split()[0]}, z3 {importlib.metadata.version('z3-solver')}",
        f"reproduce: {command}",
        *lines[start:][-15:],
    ]


def _module(path: str) -> str:
    return path.removeprefix("src/").removesuffix(".py").replace("/", ".")


def _target(path: str, name: str) -> str:
    return f"{_module(path)}.{name}"


def _run_gate(paths: int) -> tuple[dict[str, str], list[str]]:
    """Bound -> CrossHair output, for the gate: one CrossHair per bound, in a fixed order."""
    bounds = {name: str(SLOW.get(name, paths)) for names in TARGETS.values() for name in names}
    targets = [_target(path, name) for path, names in TARGETS.items() for name in names]
    lines: list[str] = []
    for bound in dict.fromkeys(bounds.values()):
        lines += _crosshair([t for t in targets if bounds[t.rsplit(".", 1)[1]] == bound], bound)[0]
    return {name: f"{bound} paths" for name, bound in bounds.items()}, lines


def _run_deep(
    seconds: str, jobs: int, only: list[str]
) -> tuple[dict[str, str], dict[str, list[str]]]:
    """Function -> CrossHair output, one CrossHair process per function, ``jobs`` at once."""
    names = [(path, name) for path, found in TARGETS.items() for name in found]
    if only:  # in the order asked for
        names = [(path, name) for name in only for path, n in names if n == name]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        runs = {
            name: pool.submit(_crosshair, [_target(path, name)], f"{seconds} s")
            for path, name in names
        }
        outputs = {name: run.result()[0] for name, run in runs.items()}
    return {name: f"{seconds} s" for _, name in names}, outputs


def _read(
    lines: list[str], failures: list[str], verdicts: dict[tuple[str, int], str]
) -> dict[tuple[str, int], tuple[int, str, float]]:
    """Fill ``verdicts`` ((file, line) -> CrossHair's message) from ``lines``; return the
    path statistics, and add to ``failures`` every error report and every line that is
    not part of a report."""
    stats: dict[tuple[str, int], tuple[int, str, float]] = {}
    matched = False
    for line in lines:
        found = STATS_PATTERN.match(line)
        if found:
            key = (str(Path(found["file"]).resolve().relative_to(ROOT)), int(found["line"]))
            stats[key] = (int(found["paths"]), found["end"], float(found["cpu"]))
            continue
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
        if path != CANARY and (
            match["level"] != "info" or "Unable to meet precondition" in message
        ):
            failures.append(f"{path}:{key[1]}: {message[:400]}")
        verdicts[key] = message
    return stats


def _shown(verdict: str) -> str:
    if verdict.startswith("Confirmed over all paths"):
        return CONFIRMED
    if verdict.startswith(("Not confirmed", "Confirmed")):
        return NOT_REFUTED
    return REFUTED


def _enumerations(
    deep: bool, only: set[str], failures: list[str]
) -> dict[tuple[str, str], Outcome]:
    """(function, condition) -> what its enumeration found; a false condition fails."""
    found: dict[tuple[str, str], Outcome] = {}
    for name, outcomes in enumerate_all(deep, only).items():
        for outcome in outcomes:
            found[(name, outcome.condition)] = outcome
            if outcome.counterexample is not None:
                failures.append(
                    f"{name}: enumeration: false on {outcome.counterexample!r}: "
                    f"{outcome.condition[:200]}"
                )
    return found


def _whole(function: str, deep: bool) -> bool:
    return any(
        (ran := run.for_run(deep)) is not None and ran.whole
        for (_, name), run in ENUMERATIONS.items()
        if name == function
    )


def _enumerated(outcome: Outcome | None, whole: bool = True) -> str:
    if outcome is None:
        return ""
    if outcome.counterexample is not None:
        return "REFUTED by enumeration"
    if not whole:  # a part of the domain: evidence, not a confirmation
        return f"holds on all {outcome.inputs:,} inputs (a part of its domain)"
    return f"confirmed by enumeration over {outcome.inputs:,} inputs"


def main(argv: list[str]) -> int:
    deep = argv[:1] == ["--deep"]
    failures: list[str] = []
    began = time.perf_counter()
    # Read before CrossHair runs: its reports name the lines of the files it imported.
    conditions = {path: _conditions(path, names) for path, names in TARGETS.items()}
    canary_conditions = {f: _conditions(CANARY, [f]) for f, _ in CANARY_MUST_FAIL}
    verdicts: dict[tuple[str, int], str] = {}
    stats: dict[tuple[str, int], tuple[int, str, float]] = {}
    crashed: dict[str, str] = {}
    reports: dict[str, list[str]] = {}
    if deep:
        rest = argv[1:]
        seconds = rest.pop(0) if rest and not rest[0].startswith("-") else "60"
        jobs = 1
        if rest[:1] == ["--jobs"]:
            jobs = int(rest[1])
            rest = rest[2:]
        bounds, outputs = _run_deep(seconds, jobs, rest)
        for name, lines in outputs.items():
            crash = crash_line(lines)
            if crash is None:
                stats |= _read(lines, failures, verdicts)
            else:  # keep what it reported before it crashed; the rest is "crashed"
                crashed[name] = crash
                target = next(_target(p, n) for p, ns in TARGETS.items() for n in ns if n == name)
                reports[name] = crash_report(name, target, seconds, lines)
                stats |= _read(lines, [], verdicts)
    else:
        bounds, lines = _run_gate(int(argv[0]) if argv else ITERATIONS)
        stats |= _read(lines, failures, verdicts)
    # The canaries get their path bound in both modes: refuting them must not depend on time.
    _read(_crosshair([_module(CANARY)], str(CANARY_ITERATIONS))[0], failures, verdicts)
    enumerated = _enumerations(deep, set(bounds), failures)
    if deep:
        print(f"CrossHair, deep run: {seconds} CPU s per condition, one process per function")
        print(f"  {'function':10} {'CrossHair':28} {'paths':>6} {'CPU s':>6}  enumeration")
    else:
        print("CrossHair, the gate:")
    tally = {CONFIRMED: 0, NOT_REFUTED: 0, REFUTED: 0, CRASHED: 0}
    by_enumeration = sum(
        1
        for (function, condition), outcome in enumerated.items()
        if condition.startswith("post:")
        and outcome.counterexample is None
        and _whole(function, deep)
    )
    for path, found in conditions.items():
        for number, (function, text) in found.items():
            if text.startswith("pre:"):
                continue  # CrossHair reports on postconditions; preconditions frame them
            if function in bounds or not deep:
                verdict = verdicts.get((path, number))
                if verdict is not None:
                    shown = _shown(verdict)
                elif function in crashed:
                    shown = CRASHED
                else:
                    failures.append(f"{path}:{number}: {function}: never reported: {text}")
                    continue
            else:
                continue  # not asked for in this deep run
            tally[shown] += 1
            outcome = enumerated.get((function, text))
            if deep:
                paths, _, cpu = stats.get((path, number), (0, "", 0.0))
                shown_paths = f"{paths:>6} {cpu:>6.0f}" if paths else f"{'':>6} {'':>6}"
                enumerated_as = _enumerated(outcome, _whole(function, deep))
                print(f"  {function:10} {shown:28} {shown_paths}  {enumerated_as}")
                if shown == CRASHED:
                    print(f"  {'':10} {crashed[function][:110]}")
                print(f"  {'':10} {text[:110]}")
            else:
                shown = f"{shown} in {bounds[function]}" if shown == NOT_REFUTED else shown
                print(f"  {function:10} {shown:28} {text[:88]}")
                if outcome is not None:
                    print(f"  {'':10} {_enumerated(outcome, _whole(function, deep))}")
    counts = ", ".join(f"{n} {k}" for k, n in tally.items() if n or k != CRASHED)
    print(f"  CrossHair: {counts}")
    print(
        f"  Enumeration (not CrossHair): {by_enumeration} postconditions confirmed over a"
        " whole domain; the domains:"
    )
    for (_, name), whole_run in ENUMERATIONS.items():
        run = whole_run.for_run(deep)
        if run is not None and name in bounds:
            print(f"    {name}: {run.domain}")
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
    for name, crash in crashed.items():
        print(f"CROSSHAIR CRASHED on {name} (its other verdicts are kept): {crash}")
        for line in reports[name]:
            print(f"    {line}")
    for failure in failures:
        print(f"FAILED: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

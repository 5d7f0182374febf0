"""The contracts gate: every postcondition of the rules and the scoring, confirmed over its
whole domain, by CrossHair over all paths or by enumeration of a finite domain that a lemma
checked by machine makes stand for the whole; the lemmas' planted changes; the canary.

Run: ``.venv/bin/python -m verification.crosshair_check`` (``python3 tasks.py test`` runs
it). Each postcondition is confirmed one of two ways:

- **CrossHair over all paths**, for the functions :data:`CROSSHAIR` names (their inputs are
  a few ints: CrossHair exhausts their paths within the bound given). No time limit
  anywhere: the bound is a number of paths, CrossHair's per-condition and per-path
  timeouts are off, the SMT solver is bounded by work (``CROSSHAIR_SMT_RLIMIT``), hashing
  is seeded. What CrossHair explores is then a function of the code alone, not of the
  machine's speed or load.
- **Enumeration** over a finite domain (:mod:`verification.enumeration`), each input with its
  symbolic twin: the lemma that the input stands for every instance of the twin is checked
  on every key, and :mod:`verification.outside` checks on seeded random inputs the
  preconditions admit that each is such an instance, every condition true.

It prints, per function, how its postconditions are confirmed, its domain's parts and the
lemma that carries them, the out-of-domain check, each postcondition's verdict, then "N/M
confirmed"; then every planted change of :mod:`verification.changes` with what refuted
it. It exits 1 when a postcondition is refuted or not confirmed (named, with the reason),
when a planted change is not refuted as its kind requires, when CrossHair prints an error
line or "Unable to meet precondition" (it built no input, yet exits 0), or when the canary
(``verification/canary.py``, a broken copy of ``cast_out``) is NOT refuted: a CrossHair
that stopped working would also "confirm" everything else.

``--deep SECONDS [--jobs N] [FUNCTION ...]`` (``python3 tasks.py verify-deep``, not in CI)
runs CrossHair on every function, SECONDS of CPU per condition and no path bound, one process
per function (N at a time), and prints its verdict, paths and CPU beside the gate's: extra
evidence for the enumerated functions. A crash inside CrossHair is then a verdict of its
own ("CrossHair crashed"), reported with what an upstream report needs, and does not fail
the run.
"""

import importlib.metadata
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from verification.changes import CHANGES, refuted
from verification.crosshair_entry import STATS
from verification.enumeration import DOMAINS, Outcome, confirm
from verification.outside import Outside, outside
from verification.schema import Domain

ROOT = Path(__file__).resolve().parent.parent
#: The functions whose contracts CrossHair confirms over all paths, each with its bound on
#: paths per condition: ``cast_out`` has 82 paths in all, ``_status`` 27 and 21.
CROSSHAIR = {"cast_out": 100, "_status": 50}
#: The canaries' bound: CrossHair refutes ``broken_cast_out`` at path 4 and ``broken_bid``
#: (the deep run's, sharing ``_bid``'s precondition) at path 169.
CANARY_ITERATIONS = 250
#: A bound on the SMT solver's work per query, in z3's machine-independent "rlimit" units
#: (CrossHair reads it from the environment). A query that exhausts it is "unknown" and
#: its path is abandoned, at the same point on every machine.
SMT_RLIMIT = 50_000_000
#: The functions whose docstrings hold contracts, by module.
TARGETS = {
    "src/high_society/rules.py": ["_check_bid", "_reveal", "_bid", "_pass", "_discard"],
    "src/high_society/scoring.py": ["status_of", "_status", "cast_out", "winners", "result"],
}
CANARY = "verification/canary.py"
#: The canaries' conditions that CrossHair must refute: (function, start of the condition);
#: the gate runs the first, the deep run both.
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
#: CrossHair's verdicts.
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


def _crosshair(targets: list[str], bound: str) -> list[str]:
    """CrossHair's output lines on ``targets``; ``bound`` is "N" paths, or "N s" for the
    deep run (which also asks for the paths explored per condition)."""
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
    return (done.stdout + done.stderr).splitlines()


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


def _target(name: str) -> str:
    return next(f"{_module(p)}.{name}" for p, names in TARGETS.items() if name in names)


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


def _shown(verdict: str | None) -> str:
    if verdict is None:
        return "never reported"
    if verdict.startswith("Confirmed over all paths"):
        return CONFIRMED
    if verdict.startswith(("Not confirmed", "Confirmed")):
        return NOT_REFUTED
    return REFUTED


def _enumerated(outcome: Outcome | None, beyond: Outside | None) -> str | None:
    """How an enumeration ended, as the report says it; None when there was none."""
    if outcome is None:
        return None
    if outcome.counterexample is not None:
        return f"REFUTED by enumeration on {outcome.counterexample!r}"[:300]
    if outcome.unread is not None:
        return f"NOT CARRIED by its lemma: {outcome.unread}"[:300]
    if beyond is not None and beyond.failure is not None:
        return f"NOT CARRIED outside its domain: {beyond.failure[1]}"[:300]
    return f"confirmed by enumeration over {outcome.inputs:,} inputs"


ENUMERATION_NAMES = {d.name for d in DOMAINS}


def verdict(
    function: str,
    crosshair: str | None,
    enumerated: Outcome | None,
    beyond: Outside | None = None,
) -> tuple[bool, str]:
    """Whether a postcondition is confirmed over its whole domain, and how (or why not)."""
    if function in ENUMERATION_NAMES:
        shown = _enumerated(enumerated, beyond) or "its enumeration did not run"
        return shown.startswith("confirmed"), shown
    if function in CROSSHAIR:
        shown = _shown(crosshair)
        if shown == CONFIRMED:
            return True, f"{CONFIRMED} (CrossHair)"
        if shown == NOT_REFUTED:
            return False, f"CrossHair did not exhaust its paths within {CROSSHAIR[function]}"
        return False, f"CrossHair: {shown}"
    return False, "no enumeration and no CrossHair bound: nothing confirms it"


def describe(domain: Domain, beyond: Outside) -> list[str]:
    """The domain's parts, its lemma and its out-of-domain check, as the report prints them."""
    lines = []
    for part in domain.parts:
        kind = "each with its symbolic twin" if part.twin else "concrete"
        count = sum(1 for _ in part.all_keys())
        lines.append(f"domain: {count:,} inputs, {kind}: {part.what}")
    how = "checked on the code" if domain.syntactic else "checked on every twin"
    lines.append(f"lemma ({how}): each input stands for {domain.lemma}")
    exact = "an instance of its key's twin" if domain.exact else "as true as its key's twin"
    lines.append(
        f"outside: {beyond.inputs:,} random admitted inputs ({beyond.keys:,} keys), each"
        f" {exact}, every condition true"
    )
    return lines


def _wrapped(text: str, indent: str, width: int = 100) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=indent + "  ")


def _run_deep(seconds: str, jobs: int, only: list[str]) -> dict[str, list[str]]:
    """Function -> CrossHair output, one CrossHair process per function, ``jobs`` at once."""
    names = only or [name for names in TARGETS.values() for name in names]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        runs = {name: pool.submit(_crosshair, [_target(name)], f"{seconds} s") for name in names}
        return {name: run.result() for name, run in runs.items()}


def _canaries(names: list[str], failures: list[str]) -> None:
    verdicts: dict[tuple[str, int], str] = {}
    canary_conditions = _conditions(CANARY, names)
    _read(
        _crosshair([f"{_module(CANARY)}.{n}" for n in names], str(CANARY_ITERATIONS)), [], verdicts
    )
    for function, start in CANARY_MUST_FAIL:
        if function not in names:
            continue
        lines = [
            n for n, (f, t) in canary_conditions.items() if f == function and t.startswith(start)
        ]
        found = verdicts.get((CANARY, lines[0]), "") if lines else ""
        if found and not found.startswith(("Confirmed", "Not confirmed")):
            print(f"  canary {function} refuted as it must be: {found[:80]}")
        else:
            failures.append(f"canary {function} NOT refuted: CrossHair is not checking")


def main(argv: list[str]) -> int:
    deep = argv[:1] == ["--deep"]
    failures: list[str] = []
    began = time.perf_counter()
    # Read before CrossHair runs: its reports name the lines of the files it imported.
    conditions = {path: _conditions(path, names) for path, names in TARGETS.items()}
    verdicts: dict[tuple[str, int], str] = {}
    stats: dict[tuple[str, int], tuple[int, str, float]] = {}
    crashed: dict[str, list[str]] = {}
    if deep:
        rest = argv[1:]
        seconds = rest.pop(0) if rest and not rest[0].startswith("-") else "60"
        jobs = 1
        if rest[:1] == ["--jobs"]:
            jobs, rest = int(rest[1]), rest[2:]
        for name, lines in _run_deep(seconds, jobs, rest).items():
            if crash_line(lines) is None:
                stats |= _read(lines, failures, verdicts)
            else:  # keep what it reported before it crashed
                crashed[name] = crash_report(name, _target(name), seconds, lines)
                stats |= _read(lines, [], verdicts)
        asked = rest or [n for names in TARGETS.values() for n in names]
    else:
        for name, bound in CROSSHAIR.items():
            _read(_crosshair([_target(name)], str(bound)), failures, verdicts)
        asked = [n for names in TARGETS.values() for n in names]
    domains = {d.name: d for d in DOMAINS if d.name in asked}
    enumerated = {(name, o.condition): o for name, d in domains.items() for o in confirm(d)}
    beyond = {name: outside(d) for name, d in domains.items()}
    for (name, condition), outcome in enumerated.items():
        if condition.startswith("pre:") and outcome.counterexample is not None:
            failures.append(f"{name}: its domain holds an input it does not admit: {condition}")
    print("Contracts: every postcondition, and how it is confirmed over its whole domain")
    confirmed = total = 0
    for path, found in conditions.items():
        shown: set[str] = set()
        for number, (function, text) in found.items():
            if text.startswith("pre:") or function not in asked:
                continue
            if function not in shown:
                shown.add(function)
                how = "CrossHair over all paths" if function in CROSSHAIR else "enumeration"
                print(f"{function}: {how}")
                if function in domains:
                    for line in describe(domains[function], beyond[function]):
                        print("\n".join(_wrapped(line, "  ")))
            total += 1
            crosshair = verdicts.get((path, number))
            ok, how = verdict(
                function, crosshair, enumerated.get((function, text)), beyond.get(function)
            )
            confirmed += ok
            if not ok:
                failures.append(f"{function}: NOT CONFIRMED ({how}): {text}")
            print(f"  {text[:96]}")
            print(f"      {how}")
            if deep:
                paths, _, cpu = stats.get((path, number), (0, "", 0.0))
                shown_ch = (
                    CRASHED if function in crashed and crosshair is None else _shown(crosshair)
                )
                print(f"      CrossHair, {seconds} s: {shown_ch}, {paths} paths, {cpu:.0f} CPU s")
    print(f"{confirmed}/{total} confirmed")
    if not deep:
        _planted(failures)
    _canaries([f for f, _ in CANARY_MUST_FAIL[: 2 if deep else 1]], failures)
    print(f"took {time.perf_counter() - began:.0f} s")
    for name, report in crashed.items():
        print(f"CROSSHAIR CRASHED on {name} (its other verdicts are kept):")
        for line in report:
            print(f"    {line}")
    for failure in failures:
        print(f"FAILED: {failure}")
    return 1 if failures else 0


def _planted(failures: list[str]) -> None:
    """Every planted change, refuted as its kind requires."""
    results = [(change, *refuted(change)) for change in CHANGES]
    done = sum(ok for _, ok, _ in results)
    print(f"Planted changes: {done}/{len(results)} refuted as they must be")
    for change, ok, how in results:
        where = "outside" if change.outside else "inside "
        print("\n".join(_wrapped(f"{where} {change.function}: {change.name}", "  ")))
        print("\n".join(_wrapped(how, "      ")))
        if not ok:
            failures.append(f"planted change {change.function}: {change.name}: {how}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

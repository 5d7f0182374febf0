"""Check the PEP 316 contracts of the rules and the scoring with CrossHair, and the canary.

Run: ``.venv/bin/python -m verification.crosshair_check [SECONDS]`` (``python3 tasks.py
test`` runs it). SECONDS is CrossHair's per-condition budget (CPU seconds; default
:data:`PER_CONDITION`; :data:`SLOW` functions get more). It prints, for every condition,
whether CrossHair confirmed it over all paths or did not refute it within the budget, and
exits 1 when:

- CrossHair reports a counterexample or any error line for a real contract;
- a function's preconditions could not be met ("Unable to meet precondition": CrossHair
  built no input, so it checked nothing, yet exits 0);
- a condition was never reported at all (nothing was analysed);
- the canary (``verification/canary.py``, a broken copy of a checked function) is NOT
  refuted: a CrossHair that stopped working would also "confirm" everything else.
"""

import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PER_CONDITION = 5
#: Functions whose preconditions CrossHair needs longer to meet, with their own budget:
#: ``_discard`` needs a seat holding Faux Pas and a luxury card in the discard phase.
SLOW = {"_discard": 25}
#: The canary runs on its own with more time: CrossHair needs about 8 s to build a game
#: state that breaks ``broken_bid``, and stops at the first counterexample.
CANARY_SECONDS = 40
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


def _crosshair(targets: list[str], seconds: int) -> list[str]:
    command = [
        sys.executable,
        "-m",
        "verification.crosshair_entry",
        "check",
        "--analysis_kind=PEP316",
        "--report_all",
        f"--per_condition_timeout={seconds}",
        *targets,
    ]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    return (done.stdout + done.stderr).splitlines()


def main(argv: list[str]) -> int:
    seconds = int(argv[0]) if argv else PER_CONDITION
    failures: list[str] = []
    began = time.perf_counter()
    targets = [
        f"{path[4:-3].replace('/', '.')}.{name}"
        for path, names in TARGETS.items()
        for name in names
    ]
    lines = _crosshair([t for t in targets if t.rsplit(".", 1)[1] not in SLOW], seconds)
    for target in targets:
        if target.rsplit(".", 1)[1] in SLOW:
            lines += _crosshair([target], SLOW[target.rsplit(".", 1)[1]])
    lines += _crosshair([CANARY[:-3].replace("/", ".")], CANARY_SECONDS)
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
        else:
            verdicts[key] = message
    print(f"CrossHair, {seconds} s per condition:")
    for path, names in TARGETS.items():
        for number, (function, text) in _conditions(path, names).items():
            verdict = verdicts.get((path, number))
            if text.startswith("pre:"):
                continue  # CrossHair reports on postconditions; preconditions frame them
            if verdict is None:
                failures.append(f"{path}:{number}: {function}: never reported: {text}")
                continue
            shown = (
                "confirmed over all paths"
                if verdict.startswith("Confirmed over all paths")
                else f"not refuted in {SLOW.get(function, seconds)} s"
            )
            print(f"  {function:10} {shown:26} {text[:90]}")
    for function, start in CANARY_MUST_FAIL:
        lines_of = [
            n for n, (_, text) in _conditions(CANARY, [function]).items() if text.startswith(start)
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

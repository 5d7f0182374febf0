"""Plant a misreading of the rules, one at a time, and see which rule-based check catches it.

Each :data:`MISREADINGS` entry replaces a piece of the engine's code (it must occur exactly
once) in a copy of the project's files at the commit checked out (``HEAD``), then runs
there only the checks that stand on the rules, each in a process of its own:

- ``tests/test_rulings.py`` and ``tests/test_scoring.py`` (examples, one or more per ruling);
- the property tests of the rules (:data:`PROPERTY_TESTS`), under the ``ci`` profile;
- the exhaustive explorer (``verification.explore``);
- the enumerations of the contracts (``verification.enumeration``).

Left out on purpose: the batch engine's differential tests and fixed-seed snapshots (they
compare with a second reading of the same authors, or with the past), and CrossHair (too
slow to run per misreading; its contracts are evaluated by the enumerations).

Run: ``.venv/bin/python -m verification.plant [--jobs N] [NAME ...]`` (all of them by
default, about two CPU minutes each, N at a time); it reports, for each misreading, the
checks that failed. Not in CI.
"""

import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import attrs

ROOT = Path(__file__).resolve().parent.parent
PY = Path(sys.executable)

PROPERTY_TESTS = (
    "property_tests/test_auction_rounds.py",
    "property_tests/test_conservation.py",
    "property_tests/test_legality.py",
    "property_tests/test_r12_ties.py",
    "property_tests/test_scoring.py",
    "property_tests/test_stateful.py",
    "property_tests/test_termination.py",
    "property_tests/test_turns.py",
)
EXAMPLE_TESTS = ("tests/test_rulings.py", "tests/test_scoring.py")


@attrs.frozen
class Misreading:
    name: str
    rule: str
    path: str
    old: str
    new: str
    #: Further replacements in other places the same reading touches (fast paths).
    also: tuple[tuple[str, str, str], ...] = ()


MISREADINGS = (
    Misreading(
        "R12 third step: lowest luxury card",
        "R12",
        "src/high_society/scoring.py",
        "max((c.luxury_value for c in breakdowns[i].luxury_cards), default=0)",
        "min((c.luxury_value for c in breakdowns[i].luxury_cards), default=0)",
    ),
    Misreading(
        "R12: money tie-break skipped",
        "R12",
        "src/high_society/scoring.py",
        "            scores[i],\n            money[i],\n",
        "            scores[i],\n            0,\n",
    ),
    Misreading(
        "R11: additive prestige (x2, x4, x6)",
        "R11",
        "src/high_society/scoring.py",
        "points = (luxury_sum - PASSE_PENALTY * passe) << prestige",
        "points = (luxury_sum - PASSE_PENALTY * passe) * max(1, 2 * prestige)",
    ),
    Misreading(
        "R11: Passé after doubling",
        "R11",
        "src/high_society/scoring.py",
        "points = (luxury_sum - PASSE_PENALTY * passe) << prestige",
        "points = (luxury_sum << prestige) - PASSE_PENALTY * passe",
    ),
    Misreading(
        "R11: Scandale rounds down",
        "R11",
        "src/high_society/scoring.py",
        "return Fraction(points, 2) if scandale else Fraction(points)",
        "return Fraction(points // 2) if scandale else Fraction(points)",
    ),
    Misreading(
        "R10: only the first of seats tied poorest is cast out (unless all tie)",
        "R10",
        "src/high_society/scoring.py",
        "return tuple(i for i, m in enumerate(money) if m == least)",
        "return tuple(i for i, m in enumerate(money) if m == least)[: 5 if min(money)"
        " == max(money) else 1]",
    ),
    Misreading(
        "R5: an equal bid is high enough",
        "R5",
        "src/high_society/rules.py",
        "if new_total <= highest:",
        "if new_total < highest:",
        also=(
            (
                "src/high_society/_fast.py",
                "sum(player.table) + sum(cards) > state.highest_bid",
                "sum(player.table) + sum(cards) >= state.highest_bid",
            ),
        ),
    ),
    Misreading(
        "R7: the passer of a disgrace auction pays too",
        "R7",
        "src/high_society/rules.py",
        "seats[i] = evolve_player(p, hand=p.hand | p.table, table=NO_MONEY, status_cards=owned)",
        "seats[i] = evolve_player(p, spent=p.spent | p.table, table=NO_MONEY, status_cards=owned)",
    ),
    Misreading(
        "R7: the others take their money back",
        "R7",
        "src/high_society/rules.py",
        "seats[i] = evolve_player(p, table=NO_MONEY, spent=p.spent | p.table)",
        "seats[i] = evolve_player(p, table=NO_MONEY, hand=p.hand | p.table)",
    ),
    Misreading(
        "R9: the game ends on the third dark-green card",
        "R9",
        "src/high_society/rules.py",
        "and PRESTIGE not in deck and SCANDALE not in deck:",
        "and (deck.count(PRESTIGE) + (SCANDALE in deck)) <= 1:",
    ),
    Misreading(
        "R6: the seat after the winner starts the next round",
        "R6",
        "src/high_society/rules.py",
        "phase=REVEAL, turn=winner, auction=None",
        "phase=REVEAL, turn=(winner + 1) % len(seats), auction=None",
    ),
    Misreading(
        "R6: the winner of a normal auction pays nothing",
        "R6",
        "src/high_society/rules.py",
        "paid = evolve_player(w, table=NO_MONEY, spent=w.spent | w.table, status_cards=owned)",
        "paid = evolve_player(w, table=NO_MONEY, hand=w.hand | w.table, status_cards=owned)",
    ),
    Misreading(
        "R8: a pending Faux Pas ignores the luxury card won",
        "R8",
        "src/high_society/rules.py",
        "if FAUX_PAS in w.status_cards and card.is_luxury:",
        "if False:",
    ),
    Misreading(
        "R11/R8: a pending Faux Pas costs 5 like Passé",
        "R8",
        "src/high_society/scoring.py",
        "passe = _PASSE in cards\n",
        "passe = _PASSE in cards or _FAUX_PAS in cards\n",
    ),
)


def _copy(into: Path, commit: str) -> None:
    """The project's files at ``commit`` (a fixed commit: the work tree may change while
    the misreadings run)."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", commit], cwd=ROOT, capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)


def _replace(root: Path, path: str, old: str, new: str) -> None:
    file = root / path
    text = file.read_text(encoding="utf-8")
    if text.count(old) != 1:
        raise SystemExit(f"{path}: {old!r} occurs {text.count(old)} times, not once")
    file.write_text(text.replace(old, new), encoding="utf-8")


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": f"{root / 'src'}{os.pathsep}{root}"}
    return subprocess.run(
        [str(PY), *args], cwd=root, env=env, capture_output=True, text=True, check=False
    )


def _pytest_failures(root: Path, *paths: str) -> list[str]:
    done = _run(
        root, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--hypothesis-profile=ci", *paths
    )
    failed = sorted(set(re.findall(r"^FAILED (\S+?)(?:\[| - |$)", done.stdout, re.M)))
    if done.returncode not in (0, 1):
        failed.append(f"pytest exited {done.returncode}: {done.stdout[-300:]}")
    return failed


def catches(misreading: Misreading, commit: str = "HEAD") -> dict[str, list[str]]:
    """The checks that fail with ``misreading`` planted in ``commit``: check -> what failed."""
    with tempfile.TemporaryDirectory(prefix="high-society-plant-") as folder:
        root = Path(folder)
        _copy(root, commit)
        _replace(root, misreading.path, misreading.old, misreading.new)
        for path, old, new in misreading.also:
            _replace(root, path, old, new)
        found: dict[str, list[str]] = {}
        examples = _pytest_failures(root, *EXAMPLE_TESTS)
        if examples:
            found["examples"] = examples
        properties = _pytest_failures(root, *PROPERTY_TESTS)
        if properties:
            found["properties"] = properties
        explored = _run(root, "-m", "verification.explore")
        if explored.returncode != 0:
            problems = [line.strip() for line in explored.stdout.splitlines() if "PROBLEM" in line]
            found["explorer"] = [p[:160] for p in problems[:3]] or [explored.stderr[-300:]]
        enumerated = _run(root, "-m", "verification.enumeration")
        refuted = [line.strip() for line in enumerated.stdout.splitlines() if "REFUTED" in line]
        if refuted or enumerated.returncode != 0:
            found["enumeration"] = [r[:160] for r in refuted[:4]] or [enumerated.stderr[-300:]]
        return found


def main(argv: list[str]) -> int:
    jobs = 1
    if argv[:1] == ["--jobs"]:
        jobs, argv = int(argv[1]), argv[2:]
    chosen = [m for m in MISREADINGS if not argv or m.name in argv]
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    print(f"planted in commit {commit[:12]}, one misreading at a time", flush=True)
    missed = 0
    with ThreadPoolExecutor(jobs) as pool:  # each check is a process of its own
        found_all = pool.map(lambda m: catches(m, commit), chosen)
        for misreading, found in zip(chosen, found_all, strict=True):
            caught = ", ".join(found) or "NOTHING"
            print(f"{misreading.rule}  {misreading.name}: caught by {caught}")
            for check, what in found.items():
                for line in what:
                    print(f"    {check}: {line}")
            sys.stdout.flush()
            missed += not found
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

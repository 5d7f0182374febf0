"""Plant a misreading of the rules, one at a time, and see which rule-based check catches it.

Each :data:`MISREADINGS` entry replaces a piece of the engine's code (it must occur exactly
once). Two ways to plant it:

- :func:`failing_examples` (``tests/test_misreadings.py``, in CI): runs the examples of its
  ruling (the tests named ``test_R<n>_...``) in a process whose imports of the library read
  the planted code (``verification/planted.py``, a pytest plugin); at least one must fail.
- :func:`catches` (``python -m verification.plant``, not in CI): in a copy of the project's
  files at the commit checked out (``HEAD``), runs every check that stands on the rules,
  each in a process of its own:

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

import importlib.abc
import importlib.machinery
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import CodeType, ModuleType

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
#: Where the examples of each ruling are (tests named ``test_R<n>_...``).
RULING_EXAMPLES = {
    "R13": ("tests/test_observation.py",),
    "R14": ("tests/test_observation.py", "tests/test_bot_protocol.py"),
}
#: The environment variable that names the misreading ``verification.planted`` plants.
PLANT = "HIGH_SOCIETY_PLANT"


@attrs.frozen
class Misreading:
    name: str
    rule: str
    path: str
    old: str
    new: str
    #: Further replacements in other places the same reading touches (fast paths).
    also: tuple[tuple[str, str, str], ...] = ()

    def changes(self) -> dict[Path, list[tuple[str, str]]]:
        """File -> its replacements, (old, new) each."""
        found: dict[Path, list[tuple[str, str]]] = {}
        for path, old, new in ((self.path, self.old, self.new), *self.also):
            found.setdefault((ROOT / path).resolve(), []).append((old, new))
        return found


def _r(
    rule: str, name: str, path: str, old: str, new: str, *also: tuple[str, str, str]
) -> Misreading:
    return Misreading(f"{rule}: {name}", rule, f"src/high_society/{path}", old, new, also)


_RULES, _SCORING, _CARDS = "rules.py", "scoring.py", "cards.py"
_TOP = "max((c.luxury_value for c in breakdowns[i].luxury_cards), default=0)"
_POINTS = "points = (luxury_sum - PASSE_PENALTY * passe) << prestige"
_HALF = "return Fraction(points, 2) if scandale else Fraction(points)"
_CAST_OUT = "return tuple(i for i, m in enumerate(money) if m == least)"
_DISGRACE_END = "new = evolve_state(state, players=tuple(seats), phase=phase, auction=None)"
_LAST_DARK_GREEN = "and PRESTIGE not in deck and SCANDALE not in deck:"

#: The wrong readings of each ruling a developer could make, each as a small change to the
#: code. Every one must fail at least one example of its ruling (tests/test_misreadings.py);
#: docs/rules-as-code.md names them by ruling.
MISREADINGS = (
    _r(
        "R1",
        "two money cards of a hand may have one value",
        _CARDS,
        "    if len(set(money)) != len(money):\n"
        '        raise InvalidConfigError(f"money values must be distinct (R1), got {money}")\n',
        "",
    ),
    _r(
        "R2",
        "Scandale is not dark green",
        _CARDS,
        "frozenset({StatusCard.PRESTIGE, StatusCard.SCANDALE})",
        "frozenset({StatusCard.PRESTIGE})",
    ),
    _r(
        "R3",
        "the next seat is the one to the right",
        _RULES,
        "nxt = (seat + 1) % n",
        "nxt = (seat - 1) % n",
        (f"src/high_society/{_RULES}", "nxt = (nxt + 1) % n", "nxt = (nxt - 1) % n"),
    ),
    _r(
        "R3",
        "the last seat starts the first round",
        _RULES,
        "players=(seat,) * players, deck=config.deck)",
        "players=(seat,) * players, deck=config.deck, turn=players - 1)",
    ),
    _r(
        "R4",
        "the round's starter reveals the card: a reveal has a player",
        _RULES,
        "    if phase is REVEAL:\n        return CHANCE\n",
        "    if phase is REVEAL:\n        return state.turn\n",
    ),
    _r(
        "R5",
        "an equal bid is high enough",
        _RULES,
        "if new_total <= highest:",
        "if new_total < highest:",
        (
            "src/high_society/_fast.py",
            "sum(player.table) + sum(cards) > state.highest_bid",
            "sum(player.table) + sum(cards) >= state.highest_bid",
        ),
    ),
    _r(
        "R5",
        "the cards added must beat the highest bid alone",
        _RULES,
        "new_total = sum(player.table) + sum(cards)",
        "new_total = sum(cards)",
        (
            "src/high_society/_fast.py",
            "sum(player.table) + sum(cards) > state.highest_bid",
            "sum(cards) > state.highest_bid",
        ),
    ),
    _r(
        "R5",
        "a bid replaces the cards face up",
        _RULES,
        "seats[seat] = evolve_player(p, hand=p.hand - cards, table=table)",
        "seats[seat] = evolve_player(p, hand=(p.hand - cards) | p.table, table=cards)",
    ),
    _r(
        "R6",
        "the seat after the winner starts the next round",
        _RULES,
        "phase=REVEAL, turn=winner, auction=None",
        "phase=REVEAL, turn=(winner + 1) % len(seats), auction=None",
    ),
    _r(
        "R6",
        "the winner of a normal auction pays nothing",
        _RULES,
        "paid = evolve_player(w, table=NO_MONEY, spent=w.spent | w.table, status_cards=owned)",
        "paid = evolve_player(w, table=NO_MONEY, hand=w.hand | w.table, status_cards=owned)",
    ),
    _r(
        "R6",
        "a seat that passes loses its face-up cards",
        _RULES,
        "evolve_player(p, hand=p.hand | p.table, table=NO_MONEY, passed=True)",
        "evolve_player(p, spent=p.spent | p.table, table=NO_MONEY, passed=True)",
    ),
    _r(
        "R7",
        "the passer of a disgrace auction pays too",
        _RULES,
        "seats[i] = evolve_player(p, hand=p.hand | p.table, table=NO_MONEY, status_cards=owned)",
        "seats[i] = evolve_player(p, spent=p.spent | p.table, table=NO_MONEY, status_cards=owned)",
    ),
    _r(
        "R7",
        "the others take their money back",
        _RULES,
        "seats[i] = evolve_player(p, table=NO_MONEY, spent=p.spent | p.table)",
        "seats[i] = evolve_player(p, table=NO_MONEY, hand=p.hand | p.table)",
    ),
    _r(
        "R7",
        "the seat after the passer starts the next round",
        _RULES,
        _DISGRACE_END,
        _DISGRACE_END[:-1] + ", turn=(passer + 1) % len(seats))",
    ),
    _r(
        "R7",
        "a disgrace bid need only raise the bidder's own face-up total",
        _RULES,
        "if new_total <= highest:",
        "if new_total <= (sum(player.table) if state.auction and state.auction.is_disgrace"
        " else highest):",
        (
            "src/high_society/_fast.py",
            "sum(player.table) + sum(cards) > state.highest_bid",
            "sum(player.table) + sum(cards) > (sum(player.table) if state.auction"
            " and state.auction.is_disgrace else state.highest_bid)",
        ),
    ),
    _r(
        "R7",
        "a disgrace auction goes on until one seat is left",
        _RULES,
        "if card is FAUX_PAS or card is PASSE or card is SCANDALE:",
        "if False:",
    ),
    _r(
        "R8",
        "a waiting Faux Pas ignores the luxury card won",
        _RULES,
        "if FAUX_PAS in w.status_cards and card.is_luxury:",
        "if False:",
    ),
    _r(
        "R8",
        "a waiting Faux Pas takes the next card of any kind",
        _RULES,
        "if FAUX_PAS in w.status_cards and card.is_luxury:",
        "if FAUX_PAS in w.status_cards:",
    ),
    _r(
        "R8",
        "the lowest luxury card goes, with no choice",
        _RULES,
        "Discard(seat, card) for card in state.players[seat].luxury_cards)",
        "Discard(seat, card) for card in state.players[seat].luxury_cards[:1])",
    ),
    _r(
        "R8",
        "a waiting Faux Pas costs 5, like Passé",
        _SCORING,
        "passe = _PASSE in cards\n",
        "passe = _PASSE in cards or _FAUX_PAS in cards\n",
    ),
    _r(
        "R9",
        "the game ends on the third dark-green card",
        _RULES,
        _LAST_DARK_GREEN,
        "and (deck.count(PRESTIGE) + (SCANDALE in deck)) <= 1:",
    ),
    _r(
        "R9",
        "only Scandale ends the game",
        _RULES,
        "if (card is PRESTIGE or card is SCANDALE) and",
        "if card is SCANDALE and",
    ),
    _r(
        "R10",
        "only the first of the seats tied poorest is cast out",
        _SCORING,
        _CAST_OUT,
        _CAST_OUT + "[: 5 if min(money) == max(money) else 1]",
    ),
    _r(
        "R10",
        "a tie for the least money casts out nobody",
        _SCORING,
        _CAST_OUT,
        _CAST_OUT[:-1] + " and money.count(least) == 1)",
    ),
    _r(
        "R10",
        "nobody is cast out when all have the same money",
        _SCORING,
        _CAST_OUT,
        _CAST_OUT[:-1] + " and least != max(money))",
    ),
    _r(
        "R11",
        "prestige adds (x2, x4, x6)",
        _SCORING,
        _POINTS,
        "points = (luxury_sum - PASSE_PENALTY * passe) * max(1, 2 * prestige)",
    ),
    _r(
        "R11",
        "prestige doubles once, however many",
        _SCORING,
        _POINTS,
        _POINTS + " >> max(0, prestige - 1)",
    ),
    _r(
        "R11",
        "Passé after doubling",
        _SCORING,
        _POINTS,
        "points = (luxury_sum << prestige) - PASSE_PENALTY * passe",
    ),
    _r(
        "R11",
        "status is never below zero",
        _SCORING,
        _POINTS,
        "points = max(0, luxury_sum - PASSE_PENALTY * passe) << prestige",
    ),
    _r(
        "R11",
        "Scandale halves before Passé",
        _SCORING,
        _HALF,
        "return Fraction(Fraction(luxury_sum, 1 + scandale) - PASSE_PENALTY * passe)"
        " * (1 << prestige)",
    ),
    _r("R11", "Scandale rounds down", _SCORING, _HALF, _HALF.replace("points, 2", "points // 2")),
    _r(
        "R12",
        "the last tie-break by the lowest luxury card",
        _SCORING,
        _TOP,
        _TOP.replace("max", "min"),
    ),
    _r(
        "R12",
        "the last tie-break by the sum of the luxury cards",
        _SCORING,
        _TOP,
        "sum(c.luxury_value for c in breakdowns[i].luxury_cards)",
    ),
    _r(
        "R12",
        "the money tie-break skipped",
        _SCORING,
        "            scores[i],\n            money[i],\n",
        "            scores[i],\n            0,\n",
    ),
    _r(
        "R12",
        "the top luxury card before money",
        _SCORING,
        f"            money[i],\n            {_TOP},\n",
        f"            {_TOP},\n            money[i],\n",
    ),
    _r(
        "R12",
        "a cast-out seat still competes, scored 0: if it would win, nobody does",
        _SCORING,
        "    best = max(ranked.values())\n",
        "    best = max(ranked.values())\n    if best[0] < 0:\n        return ()\n",
    ),
    _r(
        "R12",
        "seats still tied: the first of them wins",
        _SCORING,
        "return tuple(i for i, key in ranked.items() if key == best)",
        "return tuple(i for i, key in ranked.items() if key == best)[:1]",
    ),
    _r(
        "R13",
        "a seat sees how much money the others hold",
        "observation.py",
        "PublicPlayer(p.table, p.passed, len(p.hand), p.status_cards)",
        "PublicPlayer(p.table, p.passed, sum(p.hand), p.status_cards)",
    ),
    _r(
        "R14",
        "learning code sees the other hands no more than a person at the table",
        "observation.py",
        "out[base : base + m] = _bits(money, p.hand)",
        "out[base : base + m] = _bits(money, p.hand if who == seat else frozenset())",
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
        refuted = [
            line.strip()
            for line in enumerated.stdout.splitlines()
            if "REFUTED" in line or "NOT CARRIED" in line
        ]
        if refuted or enumerated.returncode != 0:
            found["enumeration"] = [r[:160] for r in refuted[:4]] or [enumerated.stderr[-300:]]
        return found


def planted_source(path: Path, replacements: Sequence[tuple[str, str]]) -> str:
    """The text of ``path`` with each (old, new) replaced; each old must occur once."""
    text = path.read_text(encoding="utf-8")
    for old, new in replacements:
        if text.count(old) != 1:
            raise SystemExit(f"{path}: {old!r} occurs {text.count(old)} times, not once")
        text = text.replace(old, new)
    return text


class _PlantedLoader(importlib.machinery.SourceFileLoader):
    """Loads a module from its file with the replacements made (never from bytecode)."""

    def __init__(self, fullname: str, path: str, replacements: list[tuple[str, str]]) -> None:
        super().__init__(fullname, path)
        self.replacements = replacements

    def get_code(self, fullname: str) -> CodeType:
        source = planted_source(Path(self.path), self.replacements)
        return compile(source, self.path, "exec", dont_inherit=True)


class _PlantedFinder(importlib.abc.MetaPathFinder):
    """Finds the library's modules as usual, but loads the misreading's files planted."""

    def __init__(self, misreading: Misreading) -> None:
        self.changes = misreading.changes()

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("high_society"):
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.origin is None:
            return None
        replacements = self.changes.get(Path(spec.origin).resolve())
        if replacements is None:
            return None
        spec.loader = _PlantedLoader(fullname, spec.origin, replacements)
        return spec


def install(name: str) -> None:
    """Plant the misreading ``name`` in every later import of the library."""
    (misreading,) = [m for m in MISREADINGS if m.name == name]
    if any(module.startswith("high_society") for module in sys.modules):
        raise RuntimeError("the library is already imported: plant before importing it")
    sys.meta_path.insert(0, _PlantedFinder(misreading))


def failing_examples(misreading: Misreading) -> list[str]:
    """The names of the examples of ``misreading``'s ruling that fail with it planted, or
    the error that kept them from running (about a CPU second: the examples need neither
    the test suite's conftest, which starts the server's stores, nor Hypothesis)."""
    for path, replacements in misreading.changes().items():
        planted_source(path, replacements)  # each old occurs once
    files = RULING_EXAMPLES.get(misreading.rule, ("tests/test_rulings.py",))
    command = [str(PY), "-m", "pytest", "-q", "--noconftest"]
    plugins = ("no:cacheprovider", "no:hypothesispytest", "no:benchmark", "verification.planted")
    for plugin in plugins:
        command += ["-p", plugin]
    command += [*files, "-k", f"{misreading.rule}_"]
    env = {**os.environ, PLANT: misreading.name}
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    failed = re.findall(r"^FAILED \S+::(\w+)", done.stdout, re.M)
    if done.returncode == 1 and failed:
        return sorted(set(failed))
    if done.returncode in (0, 1):
        return []
    return [f"pytest exited {done.returncode}: {done.stdout[-500:]}"]


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

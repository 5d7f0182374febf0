"""The CrossHair contracts (PEP 316 docstrings of ``rules`` and ``scoring``) are well formed:
every name a condition uses resolves in its module (a misspelt predicate fails here, in
seconds, and not only in the CrossHair gate, where it shows as "Unable to meet
precondition"); each condition is one short line naming its predicates, defined once in
``high_society._contracts``; and importing the library does not load the history search
that only ``state_problems`` needs. Then the enumerations of ``verification/``."""

import ast
import builtins
import inspect
import itertools
import subprocess
import sys
import typing
from collections.abc import Callable, Sequence
from fractions import Fraction
from types import ModuleType

import attrs
import pytest

from high_society import StatusCard, _contracts, rules, scoring
from high_society._contracts import holdable, r11_status  # the broken copy below copies them
from high_society.scoring import StatusBreakdown, status_of
from verification import crosshair_check, enumeration
from verification.crosshair_check import STATS_PATTERN, TARGETS, crash_line, crash_report
from verification.crosshair_entry import STATS
from verification.enumeration import check
from verification.finite import holdings
from verification.outside import Outside

MODULES = {"src/high_society/rules.py": rules, "src/high_society/scoring.py": scoring}


def conditions() -> list[tuple[str, str, str]]:
    found = []
    for path, names in TARGETS.items():
        module = MODULES[path]
        for name in names:
            doc = inspect.getdoc(getattr(module, name)) or ""
            for line in doc.splitlines():
                stripped = line.strip()
                if stripped.startswith(("pre:", "post:")):
                    found.append((path, name, stripped.partition(":")[2].strip()))
    return found


CONDITIONS = conditions()


def test_every_checked_function_has_contracts() -> None:
    assert {name for _, name, _ in CONDITIONS} == {n for ns in TARGETS.values() for n in ns}


def free_names(expression: str) -> set[str]:
    tree = ast.parse(expression, mode="eval")
    bound = {
        target.id
        for node in ast.walk(tree)
        if isinstance(node, ast.comprehension)
        for target in ast.walk(node.target)
        if isinstance(target, ast.Name)
    } | {
        arg.arg for node in ast.walk(tree) if isinstance(node, ast.Lambda) for arg in node.args.args
    }
    loaded = {
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }
    return loaded - bound


@pytest.mark.parametrize(
    ("path", "function", "condition"), CONDITIONS, ids=[f"{f}: {c[:40]}" for _, f, c in CONDITIONS]
)
def test_every_name_in_a_condition_resolves(path: str, function: str, condition: str) -> None:
    module: ModuleType = MODULES[path]
    target: Callable[..., object] = getattr(module, function)
    known = set(vars(module)) | set(dir(builtins)) | {"__return__"}
    known |= set(inspect.signature(target).parameters)
    assert free_names(condition) - known == set()


@pytest.mark.parametrize(
    ("path", "function", "condition"), CONDITIONS, ids=[f"{f}: {c[:40]}" for _, f, c in CONDITIONS]
)
def test_every_condition_reads_in_one_short_line(path: str, function: str, condition: str) -> None:
    # "    post: " and the condition fit in a line of 100: anything longer is a predicate
    # of high_society._contracts.
    assert len(condition) <= 90, condition


def test_the_predicates_the_contracts_name_are_defined_once_in_the_contracts_module() -> None:
    named: set[str] = set()
    for path, _function, condition in CONDITIONS:
        module = MODULES[path]
        for name in free_names(condition):
            value = getattr(module, name, None)
            if inspect.isfunction(value) and value.__module__ == "high_society._contracts":
                named.add(name)
    assert named
    assert named <= set(_contracts.__all__)
    # The transitions' contracts name nothing but predicates, their arguments and builtins.
    for path, function, condition in CONDITIONS:
        if path.endswith("rules.py"):
            assert free_names(condition) - {"__return__"} <= named | set(dir(builtins)) | set(
                inspect.signature(getattr(rules, function)).parameters
            ), condition


def test_importing_the_library_does_not_load_the_history_search() -> None:
    # The search behind state_problems is 800 lines: loaded when asked for, not before.
    show = "import sys; print(sorted(m for m in sys.modules if m.startswith('high_society')))"
    loaded = {
        "import high_society": "import high_society",
        "games": "from high_society.simulate import simulate; simulate(3, 5, seed=1)",
        "state_problems": "from high_society.invariants import state_problems",
    }
    found = {
        name: ast.literal_eval(
            subprocess.run(
                [sys.executable, "-c", f"{code}; {show}"],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        )
        for name, code in loaded.items()
    }
    assert "high_society._reachability" not in found["import high_society"]
    assert "high_society.invariants" not in found["import high_society"]
    assert "high_society._contracts" in found["import high_society"]
    assert "high_society._reachability" not in found["games"]
    assert "high_society._reachability" in found["state_problems"]


def test_a_contract_taking_fractions_admits_only_halves() -> None:
    # crosshair_entry builds every Fraction input as n/2 (denominator 1 or 2): a contract
    # taking fractions must say so, or CrossHair would check less than the contract claims.
    taking = []
    for path, names in TARGETS.items():
        for name in names:
            function = getattr(MODULES[path], name)
            doc = inspect.getdoc(function) or ""
            pres = [line.strip() for line in doc.splitlines() if line.strip().startswith("pre:")]
            for parameter, hint in typing.get_type_hints(function).items():
                if parameter != "return" and Fraction in (hint, *typing.get_args(hint)):
                    taking.append(name)
                    assert any(parameter in c and "denominator <= 2" in c for c in pres), name
    assert taking == ["winners"]


# --- The enumeration (verification/enumeration.py) and the deep run's report ----------------


def broken_status_of(cards: Sequence[StatusCard]) -> StatusBreakdown:
    """``status_of`` with the x6 bug for three prestige cards (R11), its contracts copied."""
    found = status_of(cards)
    if found.prestige == 3:
        return attrs.evolve(found, status=found.status * 6 / 8)
    return found


broken_status_of.__doc__ = status_of.__doc__


def test_the_enumeration_refutes_a_broken_copy_with_the_same_contract() -> None:
    first = [{"cards": h} for h in itertools.islice(holdings(), 64)]  # 0 to 3 prestige cards
    pre, formula, order = check(broken_status_of, lambda: iter(first))
    assert pre.counterexample is None
    assert formula.condition == "post: __return__.status == r11_status(cards)"
    assert formula.inputs == 64
    assert formula.counterexample is not None
    cards = formula.counterexample["cards"]
    assert isinstance(cards, tuple)
    assert cards.count(StatusCard.PRESTIGE) == 3
    # The order condition compares with the real status_of: false there too.
    assert order.counterexample == formula.counterexample


def test_the_enumeration_confirms_the_real_function_on_the_same_inputs() -> None:
    first = [{"cards": h} for h in itertools.islice(holdings(), 64)]
    outcomes = check(status_of, lambda: iter(first))
    assert [o.counterexample for o in outcomes] == [None, None, None]


def test_a_precondition_false_on_the_domain_is_reported() -> None:
    def halve(n: int) -> int:
        """pre: n % 2 == 0
        post: __return__ * 2 == n"""
        return n // 2

    pre, post = check(halve, lambda: iter([{"n": 2}, {"n": 3}, {"n": 4}]))
    assert pre.counterexample == {"n": 3}
    assert post.counterexample == {"n": 3}
    assert pre.inputs == post.inputs == 3


def test_every_contract_is_confirmed_one_way_and_the_gate_names_how() -> None:
    # Each checked function is confirmed by CrossHair over all paths or by an enumeration,
    # never both and never neither; the gate's verdict says which, and refuses the rest.
    by_crosshair = set(crosshair_check.CROSSHAIR)
    by_enumeration = {d.name for d in enumeration.DOMAINS}
    assert not by_crosshair & by_enumeration
    assert by_crosshair | by_enumeration == {n for ns in TARGETS.values() for n in ns}
    outcome = enumeration.Outcome("post: x", 7, None)
    assert crosshair_check.verdict("_bid", None, outcome) == (
        True,
        "confirmed by enumeration over 7 inputs",
    )
    refuted = crosshair_check.verdict("_bid", None, attrs.evolve(outcome, counterexample={}))
    assert not refuted[0]
    assert refuted[1].startswith("REFUTED by enumeration")
    unread = crosshair_check.verdict("_bid", None, attrs.evolve(outcome, unread="key: Read: x"))
    assert unread == (False, "NOT CARRIED by its lemma: key: Read: x")
    beyond = Outside(9, 3, ({}, "false on the input: post: x"))
    assert crosshair_check.verdict("_bid", None, outcome, beyond) == (
        False,
        "NOT CARRIED outside its domain: false on the input: post: x",
    )
    assert crosshair_check.verdict("cast_out", "Confirmed over all paths.", None)[0]
    assert crosshair_check.verdict("cast_out", "Not confirmed.", None) == (
        False,
        "CrossHair did not exhaust its paths within 100",
    )
    assert not crosshair_check.verdict("cast_out", None, None)[0]
    assert not crosshair_check.verdict("new_function", None, None)[0]


def test_the_deep_report_reads_path_counts_and_crashes() -> None:
    line = STATS.format(
        file="src/high_society/scoring.py", line=7, paths=82, end="exhausted", cpu=6.04
    )
    found = STATS_PATTERN.match(line)
    assert found is not None
    assert (found["file"], found["line"], found["paths"], found["end"], found["cpu"]) == (
        "src/high_society/scoring.py",
        "7",
        "82",
        "exhausted",
        "6.0",
    )
    crash = [
        "src/high_society/scoring.py:3: info: Confirmed over all paths.",
        "Traceback (most recent call last):",
        '  File "x.py", line 1, in <module>',
        "    assert_true(x)",
        "crosshair.util.CrossHairInternal: Attempted to call assert_true on a non-symbolic",
    ]
    assert crash_line(crash) == crash[-1]
    assert crash_line(crash[:1]) is None
    report = crash_report("winners", "high_society.scoring.winners", "60", crash)
    assert report[0].startswith("CrossHair 0.0.113 crashed on winners, Python 3.")
    assert "--per_condition_timeout=60 high_society.scoring.winners" in report[1]
    assert report[2:] == crash[1:]

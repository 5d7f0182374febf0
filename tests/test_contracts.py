"""The CrossHair contracts (PEP 316 docstrings of ``rules`` and ``scoring``) are well formed:
every name a condition uses resolves in its module, so that an import removed as "unused"
(the contracts are its only users) fails here, in seconds, and not only in the CrossHair
gate, where it shows as "Unable to meet precondition"."""

import ast
import builtins
import inspect
from collections.abc import Callable
from types import ModuleType

import pytest

from high_society import rules, scoring
from verification.crosshair_check import TARGETS

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

"""The package layout the README and docs/api.md describe: no private name crosses a module
border, and the modules depend on each other one way, in the layers listed here."""

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "high_society"
#: Every folder of Python code in the repository.
FOLDERS = ("src", "tests", "property_tests", "verification", "benchmarks", "examples", "docs")

#: The layers of the package, lowest first: a module imports only from lower layers.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("_version", "errors", "_bidtable", "_text"),
    ("cards", "_json"),
    ("actions", "state", "_fields", "_schemas"),
    ("_fast", "invariants"),
    ("scoring",),
    ("rules", "_convert"),
    ("__init__", "bots", "serial", "encoding", "_records"),
    ("_files",),
    ("host", "record", "search", "observation"),
    ("openspiel", "pettingzoo"),
    ("text", "parallel"),
    ("simulate", "tournament"),
    ("cli._options",),
    ("cli.demo", "cli.play", "cli.simulate", "cli.validate", "cli.tournament"),
    ("cli.__init__",),
    ("__main__",),
)
RANK = {module: rank for rank, layer in enumerate(LAYERS) for module in layer}


def python_files() -> list[Path]:
    files: list[Path] = []
    for folder in FOLDERS:
        files += sorted(p for p in (ROOT / folder).rglob("*.py") if "_build" not in p.parts)
    return files


def _private(name: str) -> bool:
    """``_x``, not ``__x__`` (dunder) nor ``_x_`` (an Enum's sunder names, part of its API)."""
    return name.startswith("_") and not name.endswith("_")


#: The project's own packages: the rule is about the borders between their modules.
PROJECT = ("high_society", "tests", "property_tests", "verification", "benchmarks")


def _ours(module: str | None) -> bool:
    return module is not None and module.split(".")[0] in PROJECT


def _is_module(package: str, name: str) -> bool:
    """``package.name`` is a module of the project: importing an internal module is how
    internals are used (``from high_society.batch import _kernels``), not a private name."""
    for base in (ROOT / "src", ROOT):
        folder = base.joinpath(*package.split("."), name)
        if folder.with_suffix(".py").is_file() or (folder / "__init__.py").is_file():
            return True
    return False


def private_imports(tree: ast.AST) -> list[str]:
    """``from m import _x`` and ``m._x`` on a name bound to an imported module, for the
    project's own modules (a private name of the standard library is another matter)."""
    found: list[str] = []
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and _ours(node.module):
            found += [
                f"from {node.module} import {a.name}"
                for a in node.names
                if _private(a.name) and not _is_module(node.module or "", a.name)
            ]
        elif isinstance(node, ast.Import):
            modules |= {(a.asname or a.name).split(".")[0] for a in node.names if _ours(a.name)}
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and _private(node.attr)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
        ):
            found.append(f"{node.value.id}.{node.attr}")
    return found


@pytest.mark.parametrize("path", python_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_private_name_is_imported_across_modules(path: Path) -> None:
    assert private_imports(ast.parse(path.read_text(encoding="utf-8"))) == []


def test_the_private_import_check_finds_what_it_should() -> None:
    code = "import high_society.state as st\nfrom tests.m import _x, y, __version__\nst._highest\n"
    assert private_imports(ast.parse(code)) == ["from tests.m import _x", "st._highest"]
    sunder = "from high_society.m import _x_\nimport high_society\nhigh_society._sunder_"
    assert private_imports(ast.parse(sunder)) == []
    assert private_imports(ast.parse("import argparse\nargparse._SubParsersAction")) == []
    # An internal module is imported by name; its private names are not.
    assert private_imports(ast.parse("from high_society import _fast")) == []
    assert private_imports(ast.parse("from high_society import _nothing")) == [
        "from high_society import _nothing"
    ]


@functools.cache
def module_imports() -> dict[str, set[str]]:
    """``{module: modules of the package it imports}``, names relative to the package;
    imports made only for the type checker (``if TYPE_CHECKING:``) do not count."""
    graph: dict[str, set[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        name = ".".join(path.relative_to(SRC).with_suffix("").parts)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
                node.body = []
        deps: set[str] = set()
        for node in ast.walk(tree):
            imported = node.module if isinstance(node, ast.ImportFrom) else None
            if imported is not None and imported.startswith("high_society"):
                module = imported.removeprefix("high_society").lstrip(".") or "__init__"
                deps.add("cli.__init__" if module == "cli" else module)
        graph[name] = deps - {name}
    return graph


def test_modules_depend_on_each_other_one_way_in_the_listed_layers() -> None:
    wrong = [
        f"{module} (layer {RANK[module]}) imports {dep} (layer {RANK[dep]})"
        for module, deps in module_imports().items()
        for dep in deps
        if module in RANK and dep in RANK and RANK[dep] >= RANK[module]
    ]
    assert wrong == []


def test_the_import_graph_has_no_cycle() -> None:
    graph = module_imports()
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, "import cycle: " + " -> ".join((*path, module))
        if module in done:
            return
        for dep in graph.get(module, ()):
            visit(dep, (*path, module))
        done.add(module)

    for module in graph:
        visit(module, ())

"""The package layout docs/architecture.md and docs/api.md describe: the API tiers docs/api.md
names are the package's, no private name crosses a module border, and the modules depend on each
other one way, in the layers listed here, which run tier by tier through the architecture
page's named tiers."""

import ast
import functools
import inspect
import re
import tomllib
from pathlib import Path

import pytest

import high_society

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "high_society"
#: Every folder of Python code in the repository.
FOLDERS = (
    "src",
    "tests",
    "property_tests",
    "verification",
    "benchmarks",
    "services",
    "examples",
    "docs",
)

#: The layers of the package, lowest first: a module imports only from lower layers. Every
#: module is listed once. The layers run tier by tier, in the order of the named tiers of
#: docs/architecture.md: each layer lies within one tier.
LAYERS: tuple[tuple[str, ...], ...] = (
    # 1. The engine
    ("_version", "errors", "_text", "_immutable", "_bidtable"),
    ("cards",),
    ("actions", "state"),
    ("_fast", "_contracts"),
    ("scoring", "rules"),
    ("__init__",),
    # 2. Reachability (the history search behind state_problems) and the invariants
    ("_reachability._tables",),
    ("_reachability._meter", "_reachability._money", "_reachability._rounds"),
    ("_reachability._running", "_reachability._conditions"),
    ("_reachability._settle", "_reachability._replay"),
    ("_reachability._order",),
    ("_reachability._search",),
    ("_reachability.__init__",),
    ("invariants",),
    # 3. Records and formats
    ("_json", "_buffers"),
    ("_fields", "_shapes", "encoding", "observation"),
    ("_convert",),
    ("_records", "serial"),
    ("_files",),
    ("record",),
    # 4. Hosting and bots
    ("bots", "parallel", "_arrays"),
    ("host", "search", "learned"),
    ("text", "simulate", "tournament", "strangers", "levels"),
    ("_clock",),
    ("wire",),
    ("table._seats", "table._game"),
    ("table._payloads",),
    ("table._table",),
    ("table.__init__",),
    # 5. Adapters and engines
    ("openspiel", "_env_observation", "batch._kernels"),
    ("gymnasium_env", "batch._layout"),
    ("pettingzoo",),
    ("batch._engine",),
    ("batch.policies",),
    ("batch._vector", "batch._simulate", "batch.learner"),
    ("batch.league", "batch.training"),
    ("batch.hardening",),
    ("batch.__init__",),
    ("lookahead",),
    ("batch.ratings", "batch.expert"),
    # 6. Applications
    (
        "server._schema",
        "server._encoding",
        "server._notify",
        "server._limits",
        "server._dialects",
        "server._sqlite_writer",
        "server._store_rows",
        "server._tasks",
        "cli._options",
        "cli.play",
        "cli.validate",
    ),
    ("server._database", "server._bots", "server._http", "server._replays"),
    ("server._store_seats", "server._store_history", "server._store_listen"),
    ("server._store_lobby",),
    ("server._store",),
    ("server._auth", "server._games"),
    ("server._autoplay", "server._streams"),
    ("server._master", "server._lobby"),
    ("server._tables",),
    ("server._errors",),
    ("server._services", "server._api"),
    ("server._takes", "server._lifespan"),
    ("server._routers.__init__",),
    (
        "server._routers.tables",
        "server._routers.seats",
        "server._routers.watching",
        "server._routers.anyone",
    ),
    ("server._app", "cli.demo", "cli.simulate", "cli.tournament", "cli.ratings"),
    ("cli.exploitability",),
    ("server.__init__",),
    ("cli.serve",),
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
PROJECT = ("high_society", "tests", "property_tests", "verification", "benchmarks", "services")


def _ours(module: str | None) -> bool:
    return module is not None and module.split(".")[0] in PROJECT


def _is_module(dotted: str) -> bool:
    """``dotted`` names a module of the project: importing an internal module is how
    internals are used (``from high_society.batch import _kernels``), not a private name."""
    for base in (ROOT / "src", ROOT):
        folder = base.joinpath(*dotted.split("."))
        if folder.with_suffix(".py").is_file() or (folder / "__init__.py").is_file():
            return True
    return False


def _dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for a chain of attributes on a name, else ``None``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return None if inner is None else f"{inner}.{node.attr}"
    return None


def private_imports(tree: ast.AST) -> list[str]:
    """Private names of the project's modules used from another module: ``from m import _x``
    (relative imports too), and ``m._x`` on a name bound to a module of the project, however
    it was bound (``import a.b``, ``import a.b as m``, ``from a import b``). A private name
    of the standard library or of another package is another matter."""
    found: list[str] = []
    modules: dict[str, str] = {}  # a name bound to a module of ours -> the module
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = "." * node.level + (node.module or "")
            if node.level == 0 and not _ours(node.module):
                continue
            for alias in node.names:
                full = f"{node.module}.{alias.name}" if node.module else alias.name
                if node.level == 0 and _is_module(full):
                    modules[alias.asname or alias.name] = full
                elif _private(alias.name) and (node.level or not _is_module(full)):
                    found.append(f"from {source} import {alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if _ours(alias.name):
                    bound = alias.asname or alias.name.split(".")[0]
                    modules[bound] = alias.name if alias.asname else bound
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            owner = _dotted(node.value)
            if owner is None or owner.split(".")[0] not in modules:
                continue
            root, _, rest = owner.partition(".")
            module = modules[root] + (f".{rest}" if rest else "")
            if not _is_module(f"{module}.{node.attr}"):
                found.append(f"{owner}.{node.attr}")
    return found


@pytest.mark.parametrize("path", python_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_private_name_is_imported_across_modules(path: Path) -> None:
    assert private_imports(ast.parse(path.read_text(encoding="utf-8"))) == []


@pytest.mark.parametrize(
    ("code", "found"),
    [
        ("from tests.m import _x, y, __version__", ["from tests.m import _x"]),
        ("from high_society._fast import _slot", ["from high_society._fast import _slot"]),
        ("from high_society import _nothing", ["from high_society import _nothing"]),
        ("from ._m import _x\nfrom . import _y", ["from ._m import _x", "from . import _y"]),
        ("import high_society.state as st\nst._highest", ["st._highest"]),
        ("import high_society.state\nhigh_society.state._x", ["high_society.state._x"]),
        ("from high_society import rules\nrules._check", ["rules._check"]),
        ("from high_society import rules as r\nr._check(1)", ["r._check"]),
        ("from high_society import _fast\n_fast._slot", ["_fast._slot"]),
        ("import high_society._fast as f\nf._slot", ["f._slot"]),
        # Not private names: Enum sunder names, dunders, the standard library's, modules.
        ("from high_society.m import _x_\nimport high_society\nhigh_society._sunder_", []),
        ("import argparse\nargparse._SubParsersAction", []),
        ("from high_society import _fast\n_fast.check_layout", []),
        ("from high_society.batch import _kernels", []),
        ("import high_society._records as impl\nimpl.FORMAT", []),
        ("import high_society._fast\nhigh_society._fast.check_layout", []),
        ("from high_society import rules\nrules.apply", []),
    ],
)
def test_the_private_import_check_finds_what_it_should(code: str, found: list[str]) -> None:
    assert private_imports(ast.parse(code)) == found


def module_name(path: Path) -> str:
    """A module of the package by its name in ``LAYERS``: ``rules``, ``batch._engine``,
    ``batch.__init__``."""
    return ".".join(path.relative_to(SRC).with_suffix("").parts)


def modules() -> set[str]:
    return {module_name(path) for path in SRC.rglob("*.py")}


def _package_module(dotted: str) -> str | None:
    """``high_society.batch`` -> ``batch.__init__``; ``None`` for a name that is no module."""
    name = dotted.removeprefix("high_society").lstrip(".") or "__init__"
    known = modules()
    for candidate in (name, f"{name}.__init__"):
        if candidate in known:
            return candidate
    return None


@functools.cache
def module_imports() -> dict[str, set[str]]:
    """``{module: modules of the package it imports}``, names as in ``LAYERS``;
    ``from high_society.batch import _kernels`` imports ``batch._kernels``, and imports made
    only for the type checker (``if TYPE_CHECKING:``) do not count."""
    graph: dict[str, set[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        name = module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
                node.body = []
        deps: set[str | None] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert node.level == 0, f"{name}: a relative import"
                if node.module is not None and node.module.split(".")[0] == "high_society":
                    for alias in node.names:
                        full = f"{node.module}.{alias.name}"
                        deps.add(_package_module(full) or _package_module(node.module))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == "high_society":
                        deps.add(_package_module(alias.name))
        assert None not in deps, f"{name} imports a module the package does not have"
        found = {dep for dep in deps if dep is not None}
        graph[name] = (found | _packages_run(found, name)) - {name}
    return graph


def _packages_run(modules: set[str], importer: str) -> set[str]:
    """The packages' ``__init__`` modules Python runs first to import ``modules`` from
    ``importer`` (``table._seats`` runs ``table.__init__``, unless ``importer`` is in the
    ``table`` package, whose ``__init__`` is already under way)."""
    run: set[str] = set()
    for module in modules:
        parts = module.split(".")[:-1]
        for end in range(1, len(parts) + 1):
            package = ".".join(parts[:end])
            if not importer.startswith(f"{package}."):
                run.add(f"{package}.__init__")
    return run


def imported_packages(tree: ast.AST) -> set[str]:
    """The top-level packages a file imports, relative imports left out."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
    return found


def test_only_the_tests_import_from_tests() -> None:
    """Helpers that benchmarks, verification or tasks.py need live in ``services/`` (or
    ``property_tests/``), which the tests import too: ``tests/`` is imported by nothing else."""
    outside = [p for p in python_files() if "tests" not in p.relative_to(ROOT).parts[:1]]
    outside.append(ROOT / "tasks.py")
    wrong = [
        str(p.relative_to(ROOT))
        for p in outside
        if "tests" in imported_packages(ast.parse(p.read_text(encoding="utf-8")))
    ]
    assert wrong == []
    assert "tests" in imported_packages(ast.parse("from tests.builders import won"))


def test_the_import_graph_sees_every_kind_of_import() -> None:
    graph = module_imports()
    assert "_records" in graph["record"]  # import high_society._records as records_impl
    assert "batch._kernels" in graph["batch._engine"]  # from high_society.batch import _kernels
    assert "cli.demo" in graph["cli.__init__"]  # from high_society.cli import demo
    assert "batch.__init__" in graph["cli.simulate"]  # from high_society.batch import simulate
    assert "state" not in graph["errors"]  # only under TYPE_CHECKING
    assert "batch.__init__" in graph["cli.simulate"]  # importing batch._x runs batch/__init__


def test_every_module_is_in_exactly_one_layer() -> None:
    listed = [module for layer in LAYERS for module in layer]
    assert len(listed) == len(set(listed)), "a module is in two layers"
    assert set(listed) == modules(), {
        "not listed": modules() - set(listed),
        "no such module": set(listed) - modules(),
    }


def test_modules_depend_on_each_other_one_way_in_the_listed_layers() -> None:
    wrong = [
        f"{module} (layer {RANK[module]}) imports {dep} (layer {RANK[dep]})"
        for module, deps in module_imports().items()
        for dep in deps
        if RANK[dep] >= RANK[module]
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


# --- The story docs/architecture.md, docs/api.md and the package's docstring tell ---------

ARCHITECTURE = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
API_PAGE = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")


def between(text: str, start: str, end: str) -> str:
    """The text from the first ``start`` up to the next ``end``."""
    assert start in text, start
    rest = text.split(start, 1)[1]
    assert end in rest, end
    return rest.split(end, 1)[0]


def named(text: str) -> set[str]:
    """The module names in backticks (``cards``, ``batch._engine``, ``high_society.text``,
    ``high_society.cli.main``)."""
    return set(re.findall(r"`((?:high_society\.)?[a-z_][\w.]*)`", text))


#: The modules whose names the package's ``__all__`` re-exports: tier 1.
ENGINE = {"actions", "cards", "errors", "rules", "scoring", "state"}


def public_modules() -> set[str]:
    """Modules without an underscore part, but for the command line's subcommand modules."""
    return {
        module.removesuffix(".__init__")
        for module in modules()
        if not any(part.startswith("_") for part in module.removesuffix(".__init__").split("."))
        and not module.startswith("cli.")
    }


def test_the_top_level_re_exports_the_engine_modules_and_nothing_else() -> None:
    homes = {
        getattr(high_society, name).__module__.removeprefix("high_society.")
        for name in high_society.__all__
        if inspect.isclass(getattr(high_society, name))
        or inspect.isfunction(getattr(high_society, name))
    }
    assert homes == ENGINE
    assert module_imports()["__init__"] == {*ENGINE, "_version"}


def test_the_api_page_names_the_engine_modules_as_tier_1() -> None:
    tier = between(API_PAGE, "1. **The engine**", "2. **Submodules")
    assert {n for n in named(tier) if "." not in n} == ENGINE


TIER_2 = {f"high_society.{m}" for m in public_modules() - ENGINE - {"__init__", "cli"}}


@pytest.mark.parametrize(
    ("where", "text", "start", "end"),
    [
        ("docs/api.md", API_PAGE, "2. **Submodules imported by name**", "3. **Internals"),
        ("__init__", high_society.__doc__ or "", "- Submodules imported by name", "- Internals"),
    ],
)
def test_tier_2_is_named_module_by_module_where_the_tiers_are_told(
    where: str, text: str, start: str, end: str
) -> None:
    tier = {n for n in named(between(text, start, end)) if n.startswith("high_society.")}
    assert tier - {"high_society.cli.main"} == TIER_2, {
        "not named": TIER_2 - tier,
        "no such public module": tier - TIER_2 - {"high_society.cli.main"},
    }
    assert "high_society.cli.main" in tier


def named_tiers(text: str) -> list[tuple[str, list[str]]]:
    """The named tiers of the architecture page, in its order: ``(name, modules)``, the
    modules as ``LAYERS`` names them (a package by its name on the page: ``batch`` is
    ``batch.__init__``). A tier is a ``### N. Name`` heading; its modules are the names in
    backticks of its paragraph that starts ``Modules:``."""
    tiers: list[tuple[str, list[str]]] = []
    sections = re.split(r"^### (\d+)\. (.+)$", text, flags=re.MULTILINE)
    for number, name, body in zip(sections[1::3], sections[2::3], sections[3::3], strict=True):
        assert int(number) == len(tiers) + 1, f"tier {number} out of order"
        listing = between(body, "Modules:", "\n\n")
        names = re.findall(r"`([\w.]+)`", listing)
        tiers.append((name, [_package_module(f"high_society.{n}") or n for n in names]))
    return tiers


def tier_problems(tiers: list[tuple[str, list[str]]]) -> list[str]:
    """What keeps ``tiers`` from agreeing with ``LAYERS``: a module in no tier or in two, a
    name that is no module, a layer split across tiers, tiers out of the layers' order."""
    problems: list[str] = []
    where: dict[str, int] = {}
    for index, (_, members) in enumerate(tiers):
        for module in members:
            if module in where:
                problems.append(f"{module} is in two tiers")
            where[module] = index
    listed = {module for layer in LAYERS for module in layer}
    problems += [f"{m} is in no tier" for m in sorted(listed - set(where))]
    problems += [f"{m} is no module of LAYERS" for m in sorted(set(where) - listed)]
    last = 0
    for layer in LAYERS:
        indexes = {where[m] for m in layer if m in where}
        if len(indexes) > 1:
            problems.append(f"the layer {layer} is split across tiers")
        elif indexes and indexes.pop() < last:
            problems.append(f"the layer {layer} comes after a layer of a later tier")
        last = max([last, *(where[m] for m in layer if m in where)])
    return problems


def test_the_architecture_page_names_four_to_six_tiers() -> None:
    assert 4 <= len(named_tiers(ARCHITECTURE)) <= 6


def test_the_architecture_pages_tiers_agree_with_the_layers() -> None:
    # Every module in exactly one named tier, each layer inside one tier, tiers in order.
    assert tier_problems(named_tiers(ARCHITECTURE)) == []


def test_the_tier_check_finds_what_it_should() -> None:
    tiers = named_tiers(ARCHITECTURE)
    (first, engine), (second, formats), *rest = tiers
    swapped = [(second, formats), (first, engine), *rest]
    assert any("after a layer of a later tier" in p for p in tier_problems(swapped))
    # A module moved to the next tier, its layer's other module left behind.
    moved = [
        (first, [m for m in engine if m != "_contracts"]),
        (second, ["_contracts", *formats]),
        *rest,
    ]
    assert any("split across tiers" in p for p in tier_problems(moved))
    twice = [(first, [*engine, "record"]), *tiers[1:]]
    assert tier_problems(twice) == ["record is in two tiers"]
    dropped = [(first, [m for m in engine if m != "rules"]), *tiers[1:]]
    assert tier_problems(dropped) == ["rules is in no tier"]
    assert named_tiers("### 1. A\n\nModules: `cards`, `batch`.\n\n") == [
        ("A", ["cards", "batch.__init__"])
    ]


def test_the_example_client_uses_only_the_public_api() -> None:
    # docs/client-guide.md walks through cli/play.py as a client would write it.
    tiers = {"__init__"} | {
        f"{m}.__init__" if f"{m}.__init__" in modules() else m for m in public_modules()
    }
    assert module_imports()["cli.play"] <= tiers


# --- The tests' shared builders ------------------------------------------------------------

#: The modules that hold the tests' shared builders (states, actions, configurations,
#: strategies), by module name.
BUILDERS = {
    "tests/builders.py": "tests.builders",
    "property_tests/strategies.py": "property_tests.strategies",
}


def module_bindings(tree: ast.Module) -> dict[str, str]:
    """The names a module binds at its top level: ``{name: "def" | "=" | "from m import x"}``
    (type variables left out: each generic module has its own ``T``)."""
    bound: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            bound[node.name] = "def"
        elif isinstance(node, ast.Assign | ast.AnnAssign) and not (
            isinstance(node.value, ast.Call) and ast.unparse(node.value.func) == "TypeVar"
        ):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            bound |= {target.id: "=" for target in targets if isinstance(target, ast.Name)}
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                bound[alias.asname or alias.name] = f"from {node.module} import {alias.name}"
        elif isinstance(node, ast.Import):
            bound |= {alias.asname or alias.name.split(".")[0]: "import" for alias in node.names}
    return bound


def misused_builder_names(files: dict[str, ast.Module]) -> list[str]:
    """Where a test module binds a builder's name to anything but that builder (``L`` as
    ``StatusCard`` where it means ``StatusCard.luxury``, a second ``auction()``), or gives a
    builder a second name (``play_actions as play``)."""
    builders: dict[str, str] = {}
    for path, module in BUILDERS.items():
        for name, how in module_bindings(files[path]).items():
            if how in {"def", "="} and not name.startswith("_"):
                builders[name] = module
    return [
        f"{path}: {name} ({how})"
        for path, tree in files.items()
        if path not in BUILDERS
        for name, how in module_bindings(tree).items()
        if (name in builders and how != f"from {builders[name]} import {name}")
        or (
            how.startswith(tuple(f"from {m} import " for m in BUILDERS.values()))
            and not how.endswith(f" {name}")
        )
    ]


def test_a_builder_is_defined_once_and_its_name_means_it_in_every_test() -> None:
    files = {
        str(path.relative_to(ROOT)): ast.parse(path.read_text(encoding="utf-8"))
        for folder in ("tests", "property_tests")
        for path in sorted((ROOT / folder).rglob("*.py"))
    }
    assert misused_builder_names(files) == []
    planted = {
        **{path: files[path] for path in BUILDERS},
        "tests/a.py": ast.parse(
            "from high_society import StatusCard as L\nfrom tests.builders import won"
        ),
        "tests/b.py": ast.parse(
            "from tests.builders import play_actions as play\ndef auction(): ..."
        ),
    }
    assert misused_builder_names(planted) == [
        "tests/a.py: L (from high_society import StatusCard)",
        "tests/b.py: play (from tests.builders import play_actions)",
        "tests/b.py: auction (def)",
    ]


# --- The project's metadata ----------------------------------------------------------------


def test_the_license_file_is_the_license_the_metadata_names() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License\n")


def test_the_python_classifiers_name_the_pythons_the_suite_runs_on() -> None:
    # CI runs the lowest Python that requires-python allows; `tasks.py pythons` the others.
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    lowest = project["requires-python"].removeprefix(">=")
    pythons = next(
        node
        for node in ast.walk(ast.parse((ROOT / "tasks.py").read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef) and node.name == "pythons"
    )
    others = next(
        ast.literal_eval(node.values[1])
        for node in ast.walk(pythons)
        if isinstance(node, ast.BoolOp) and isinstance(node.values[1], ast.Tuple)
    )
    named = {c.removeprefix("Programming Language :: Python :: ") for c in project["classifiers"]}
    assert others, "tasks.py pythons names no other Python"
    assert {v for v in named if v.startswith("3.")} == {lowest, *others}


#: The most lines a function or class of the server or of a server's table holds, so that a
#: reader holds each part of the move's road in a screen or two.
MAX_PART_LINES = 150


def _long_parts(source: str, limit: int) -> list[tuple[str, int]]:
    """The functions and classes of ``source`` longer than ``limit`` lines, with their
    lengths (decorators and docstrings count)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            length = (node.end_lineno or node.lineno) - start + 1
            if length > limit:
                found.append((node.name, length))
    return found


@pytest.mark.parametrize(
    "path",
    sorted([*(SRC / "server").rglob("*.py"), *(SRC / "table").rglob("*.py")]),
    ids=lambda path: str(path.relative_to(SRC)),
)
def test_no_function_or_class_of_the_server_or_the_table_is_over_150_lines(path: Path) -> None:
    assert _long_parts(path.read_text(encoding="utf-8"), MAX_PART_LINES) == []


def test_the_length_check_finds_what_it_should() -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(150))
    assert _long_parts(f"class A:\n{body}\n", MAX_PART_LINES) == [("A", 151)]
    assert _long_parts(f"@decorated\ndef f():\n{body[: -len('    x149 = 149') - 1]}\n", 150) == [
        ("f", 151)
    ]
    assert _long_parts(f"class A:\n{body[: -len('    x149 = 149') - 1]}\n", 150) == []


# --- The modules docs/architecture.md names, and the road of a move -------------------------

#: An internal module as the architecture page names it: a part of a package (``server._games``,
#: ``batch._kernels``, ``cli._options``) or an underscore module of the package (``_clock``).
INTERNAL_NAME = re.compile(r"`((?:server|table|batch|cli|_reachability)\.[\w.]+|_[a-z]\w*)`")


def internal_names(text: str) -> set[str]:
    """The internal modules ``text`` names in backticks (``_made.py``, a file, is none)."""
    return set(INTERNAL_NAME.findall(text))


def test_every_internal_module_the_architecture_page_names_exists() -> None:
    # The tiers are checked against LAYERS above; this holds the rest of the page (the road
    # of a move) to the package too.
    named_modules = internal_names(ARCHITECTURE)
    assert {"server._master", "server._games", "_clock"} <= named_modules
    assert sorted(n for n in named_modules if _package_module(f"high_society.{n}") is None) == []
    assert internal_names("`server._gamez`, `_made.py`, `Table.deal`") == {"server._gamez"}


def services_parts() -> dict[str, str]:
    """``{part: module}``: each part of a server process (the fields of
    ``server._services.Services``) and the module of its type (``games``: ``server._games``)."""
    tree = ast.parse((SRC / "server" / "_services.py").read_text(encoding="utf-8"))
    homes = {
        alias.asname or alias.name: node.module.removeprefix("high_society.")
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and node.module
        for alias in node.names
    }
    (services,) = (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Services")
    return {
        node.target.id: homes[ast.unparse(node.annotation)]
        for node in services.body
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
    }


def parts_called(source: str) -> set[str]:
    """The parts of a server process that a router's routes call:
    ``services(request).PART...``."""
    return {
        node.attr
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Call)
        and ast.unparse(node.value.func) == "services"
    }


def test_the_road_of_a_move_names_the_parts_a_seats_routes_call() -> None:
    # A seat's move and what the seat is sent go through the parts its router calls
    # (the master, the tables kept in memory): the road on the architecture page names each.
    road = between(ARCHITECTURE, "## A move through the table server", "\n## ")
    parts = services_parts()
    assert parts["games"] == "server._games"
    assert parts["master"] == "server._master"
    called = parts_called((SRC / "server" / "_routers" / "seats.py").read_text(encoding="utf-8"))
    assert {"master", "games"} <= called
    assert sorted(parts[part] for part in called if f"`{parts[part]}`" not in road) == []
    assert parts_called("services(request).games.payload(t)\nservices(r).master") == {
        "games",
        "master",
    }

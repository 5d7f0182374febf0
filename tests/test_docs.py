"""The documentation keeps up with the code: docstrings, the API reference, the rule map.

- Every public name (``high_society.__all__`` and the ``__all__`` of every public module)
  and every public method and property of a public class has a docstring.
- A public function or class that raises a library error itself says so under ``Raises:``,
  naming the error.
- Every name of ``high_society.__all__`` is documented in the API pages.
- The rules-as-code guide names only tests that exist and code that exists, and covers every
  ruling R1-R14.

- The README's Python example runs, the README fits on two screens, and its links resolve.
- The pages' own checks (``docs/_made.py``, run by the docs build) fail when they should: a
  date, a commit hash, a hand-written option table, routes or figure on a page; a figure
  whose source or key is missing, or shown twice; an option added to a command without its
  table changing.

The examples in the pages themselves run as doctests (``docs/conftest.py``).
"""

import argparse
import ast
import builtins
import enum
import importlib
import inspect
import io
import json
import pkgutil
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import high_society
from high_society import HighSocietyError
from high_society.cli import build_parser
from tests.pages import DOCS

ROOT = Path(__file__).resolve().parent.parent

#: The functions that must document ``Raises`` whatever the source scan finds.
MUST_DOCUMENT_RAISES = ("apply", "new_game", "result", "GameConfig")


def public_modules() -> Iterator[ModuleType]:
    """``high_society`` and every submodule whose dotted name has no ``_`` part, but for the
    command line's subcommand modules: of ``high_society.cli`` only ``main`` is API."""
    yield high_society
    for info in pkgutil.walk_packages(high_society.__path__, "high_society."):
        internal = info.name.startswith("high_society.cli.")
        if not internal and not any(part.startswith("_") for part in info.name.split(".")):
            yield importlib.import_module(info.name)


def public_objects() -> Iterator[tuple[str, object]]:
    """``(qualified name, object)`` for every class and function a module exports, with the
    public methods and properties of the classes; each object once."""
    seen: set[int] = set()
    for module in public_modules():
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)) or id(obj) in seen:
                continue
            seen.add(id(obj))
            yield f"{obj.__module__}.{obj.__qualname__}", obj
            if inspect.isclass(obj):
                yield from _members(obj)


def _members(cls: type) -> Iterator[tuple[str, object]]:
    for name, member in vars(cls).items():
        if name.startswith("_") or isinstance(member, enum.Enum):
            continue
        if isinstance(member, property | staticmethod | classmethod) or inspect.isfunction(member):
            yield f"{cls.__module__}.{cls.__qualname__}.{name}", member


def _doc(obj: object) -> str:
    if isinstance(obj, staticmethod | classmethod):
        obj = obj.__func__
    return inspect.cleandoc(getattr(obj, "__doc__", None) or "")


def test_every_public_class_function_method_and_property_has_a_docstring() -> None:
    missing = [name for name, obj in public_objects() if not _doc(obj).strip()]
    assert missing == [], "no docstring: " + ", ".join(missing)


def test_every_public_module_has_a_docstring() -> None:
    missing = [m.__name__ for m in public_modules() if not (m.__doc__ or "").strip()]
    assert missing == []


_LIBRARY_ERRORS = {
    name
    for name, obj in vars(high_society).items()
    if inspect.isclass(obj) and issubclass(obj, HighSocietyError)
}


def raised_library_errors(obj: object, _seen: set[int] | None = None) -> set[str]:
    """The library errors that ``obj``'s own code raises by name (``raise XError(...)``) and
    does not catch; for a class, in its ``__init__`` and ``__attrs_post_init__``. Private
    helpers of the same module that these call are followed down."""
    seen = _seen if _seen is not None else set()
    if id(obj) in seen:
        return set()
    seen.add(id(obj))
    if inspect.isclass(obj):
        parts = [vars(obj).get(n) for n in ("__init__", "__attrs_post_init__")]
        functions = [f for f in parts if inspect.isfunction(f)]
    elif inspect.isfunction(obj):
        functions = [obj]
    else:
        return set()
    found: set[str] = set()
    for function in functions:
        tree = ast.parse(inspect.cleandoc("\n" + inspect.getsource(function)))
        found |= _scan(tree, frozenset(), inspect.getmodule(function), seen)
    return found


def _scan(node: ast.AST, caught: frozenset[str], module: object, seen: set[int]) -> set[str]:
    if "HighSocietyError" in caught:
        return set()
    if isinstance(node, ast.Try):
        names = {
            n.id
            for h in node.handlers
            if h.type is not None
            for n in ast.walk(h.type)
            if isinstance(n, ast.Name)
        }
        found: set[str] = set()
        for statement in node.body:
            found |= _scan(statement, caught | names, module, seen)
        for other in [*node.handlers, *node.orelse, *node.finalbody]:
            found |= _scan(other, caught, module, seen)
        return found
    found = set()
    if isinstance(node, ast.Raise) and node.exc is not None:
        exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        if isinstance(exc, ast.Name) and exc.id in _LIBRARY_ERRORS - caught:
            found.add(exc.id)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        helper = getattr(module, node.func.id, None)
        if node.func.id.startswith("_") and inspect.isfunction(helper):
            found |= raised_library_errors(helper, seen) - caught
    for child in ast.iter_child_nodes(node):
        found |= _scan(child, caught, module, seen)
    return found


#: Functions whose scan finds an error that cannot happen, with the reason.
CANNOT_RAISE = {
    "high_society.record.record_to_json": "meta was checked when the record was built",
}


def _raising_objects() -> Iterator[tuple[str, object, set[str]]]:
    for name, obj in public_objects():
        if isinstance(obj, property | staticmethod | classmethod):
            continue
        errors = raised_library_errors(obj)
        if errors:
            yield name, obj, errors


def test_every_public_function_that_raises_a_library_error_documents_it() -> None:
    undocumented = []
    for name, obj, errors in _raising_objects():
        if name in CANNOT_RAISE:
            continue
        doc = _doc(obj)
        section = doc.split("Raises:", 1)[1] if "Raises:" in doc else ""
        absent = sorted(e for e in errors if e not in section)
        if absent:
            undocumented.append(f"{name} (Raises: {', '.join(absent)})")
    assert undocumented == [], "undocumented raises: " + "; ".join(undocumented)


@pytest.mark.parametrize("name", MUST_DOCUMENT_RAISES)
def test_the_main_entry_points_document_what_they_raise(name: str) -> None:
    obj = getattr(high_society, name)
    assert "Raises:" in _doc(obj)
    assert raised_library_errors(obj), f"{name} raises nothing? the scan is broken"


def test_the_raise_scan_finds_what_it_should() -> None:
    # The checks above are only as good as this scan.
    assert raised_library_errors(high_society.apply) == {"IllegalActionError"}
    assert raised_library_errors(high_society.GameConfig) == {"InvalidConfigError"}
    assert raised_library_errors(high_society.status_of) == set()


#: The built-in errors the library raises on purpose, each where another convention rules:
#: ``(module, error)``: why. Every other error it raises is a ``HighSocietyError``.
NOT_LIBRARY_ERRORS = {
    ("high_society.batch", "ImportError"): "the batch extra is missing: an import fails",
    ("high_society.actions", "TypeError"): "describe_action(): not an action, a wrong type",
    ("high_society.learned", "ImportError"): "numpy is missing: an import fails",
    ("high_society.learned", "AttributeError"): "a module's __getattr__, for a missing name",
    ("high_society.errors", "ValueError"): "a RecordError built with no code: a caller's bug",
    ("high_society.openspiel", "TypeError"): "game_state(): another game's state, a wrong type",
    ("high_society.pettingzoo", "AssertionError"): "as PettingZoo's wrappers (ClassicEnv)",
    ("high_society.pettingzoo", "AttributeError"): "a module's __getattr__, for a missing name",
    ("high_society.pettingzoo", "StopIteration"): "the end of agent_iter, an iterator",
    ("high_society.tournament", "ValueError"): "caught at once, raised as InvalidConfigError",
    ("high_society.server._lobby", "ValueError"): "a bad cursor: the route answers 400",
    ("high_society._arrays", "ValueError"): "caught by load_network, raised as InvalidConfigError",
    ("high_society.server._store_history", "RuntimeError"): "actions missing: a corrupt database",
    ("high_society.server._sqlite_writer", "RuntimeError"): "a write after the store closed",
    ("high_society._shapes", "NotImplementedError"): "a shape's methods, which each kind gives",
    ("high_society.server._api", "NotImplementedError"): "a route input's, which each kind gives",
    ("high_society.server._api", "AssertionError"): "FastAPI's stand-in endpoint, never called",
}


def test_every_error_raised_on_purpose_is_a_library_error_but_the_listed_ones() -> None:
    raised: set[tuple[str, str]] = set()
    source = ROOT / "src"
    for path in (source / "high_society").rglob("*.py"):
        module = ".".join(path.relative_to(source).with_suffix("").parts).removesuffix(".__init__")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and node.exc is not None:
                exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
                if isinstance(exc, ast.Name) and isinstance(getattr(builtins, exc.id, None), type):
                    raised.add((module, exc.id))
    assert raised == set(NOT_LIBRARY_ERRORS)


# --- The API pages --------------------------------------------------------------------------

_ENTRY = re.compile(
    r"(?:\.\. (auto(?:function|class|exception|data|module)|py:data)::|\{py:data\})"
    r"\s+([\w.]+)(?:\(.*\))?\s*$",
    re.MULTILINE,
)

#: Modules whose own names users import (besides the package's ``__all__``).
MODULES_USERS_IMPORT = (
    "high_society.actions",
    "high_society.batch",
    "high_society.bots",
    "high_society.cards",
    "high_society.cli",
    "high_society.encoding",
    "high_society.gymnasium_env",
    "high_society.host",
    "high_society.invariants",
    "high_society.observation",
    "high_society.openspiel",
    "high_society.parallel",
    "high_society.pettingzoo",
    "high_society.record",
    "high_society.scoring",
    "high_society.search",
    "high_society.serial",
    "high_society.server",
    "high_society.simulate",
    "high_society.table",
    "high_society.wire",
    "high_society.text",
    "high_society.tournament",
    "high_society.learned",
    "high_society.batch.learner",
    "high_society.batch.policies",
    "high_society.batch.training",
    "high_society.batch.league",
    "high_society.batch.hardening",
    "high_society.batch.ratings",
    "high_society.batch.expert",
    "high_society.strangers",
    "high_society.lookahead",
    "high_society.levels",
)


def test_every_public_module_is_one_the_api_page_lists() -> None:
    # The tiers of docs/api.md: the package, the modules users import, and the engine's
    # own modules (whose names the package re-exports).
    engine = {"high_society.errors", "high_society.rules", "high_society.state"}
    public = {m.__name__ for m in public_modules()}
    assert public == {"high_society", *MODULES_USERS_IMPORT, *engine}


def documented_names() -> set[str]:
    """Dotted names given an entry in any docs page: autodoc directives and ``py:data``
    (bare names are the package's); an ``automodule`` documents its module's ``__all__``."""
    names: set[str] = set()
    for page in DOCS.glob("*.md"):
        text = page.read_text(encoding="utf-8")
        for directive, target in _ENTRY.findall(text):
            full = target if target.startswith("high_society") else f"high_society.{target}"
            if directive == "automodule" and f"{target}\n   :no-members:" not in text:
                module = importlib.import_module(full)
                names |= {f"{full}.{name}" for name in module.__all__}
            names.add(full)
    return names


def test_every_name_of_the_package_is_in_the_api_reference() -> None:
    documented = documented_names()
    missing = [f"high_society.{n}" for n in high_society.__all__]
    missing = [name for name in missing if name not in documented]
    assert missing == [], "not in the API pages: " + ", ".join(missing)


def _exists(dotted: str) -> bool:
    """``dotted`` is a module, or a name reached from the longest module prefix of it."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            if not hasattr(obj, part):
                return False
            obj = getattr(obj, part)
        return True
    return False


def test_every_name_the_api_pages_document_exists() -> None:
    # Sphinx fails on such a name too, but only in the docs build; this fails in a second.
    absent = sorted(name for name in documented_names() if not _exists(name))
    assert absent == [], "documented but absent: " + ", ".join(absent)


@pytest.mark.parametrize("module_name", MODULES_USERS_IMPORT)
def test_every_name_of_a_module_users_import_is_in_the_api_reference(module_name: str) -> None:
    module = importlib.import_module(module_name)
    documented = documented_names()
    missing = []
    for name in module.__all__:
        reexported = getattr(high_society, name, None) is getattr(module, name)
        if f"{module_name}.{name}" in documented:
            continue
        if name in high_society.__all__ and reexported and f"high_society.{name}" in documented:
            continue
        missing.append(f"{module_name}.{name}")
    assert missing == [], "not in the API pages: " + ", ".join(missing)


def test_the_version_lives_in_one_place() -> None:
    conf = (DOCS / "conf.py").read_text(encoding="utf-8")
    assert "high_society.__version__" in conf
    pattern = re.escape(high_society.__version__)
    for path in [ROOT / "pyproject.toml", *DOCS.glob("*.md")]:
        text = path.read_text(encoding="utf-8")
        assert not re.search(rf"version\s*=\s*\"{pattern}\"", text), path


def test_the_readme_python_examples_run(capsys: pytest.CaptureFixture[str]) -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {"__name__": "__readme__"})
    assert "GAME_OVER Seat 0 cannot pass: the game is over" in capsys.readouterr().out


def test_the_readme_is_a_front_page_that_fits_on_two_screens() -> None:
    # What it is, install, the two commands, a first example, links: the rest is in docs/.
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 120
    assert max(len(line) for line in lines) <= 100


def test_every_link_of_the_readme_names_a_file_of_the_repository() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#]+)\)", text)
    assert targets
    assert [t for t in targets if "://" not in t and not (ROOT / t).is_file()] == []


_COPIED = re.compile(r"^```python\n# (src/[\w/]+\.py): (\w+)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def test_the_client_guide_shows_the_programs_own_code() -> None:
    # The guide copies functions into the page (readable as plain Markdown); each copy must
    # be the function as it is in the source.
    page = (DOCS / "client-guide.md").read_text(encoding="utf-8")
    assert "literalinclude" not in page  # code only Sphinx shows
    copies = _COPIED.findall(page)
    assert len(copies) >= 5
    for path, name, code in copies:
        module = importlib.import_module(
            path.removeprefix("src/").removesuffix(".py").replace("/", ".")
        )
        assert code == inspect.getsource(getattr(module, name)), f"{path}: {name} has changed"


# --- The rules-as-code map ------------------------------------------------------------------

RULE_MAP = DOCS / "rules-as-code.md"


def defined_tests() -> set[str]:
    """Names of the test functions defined in tests/ and property_tests/."""
    names: set[str] = set()
    for folder in ("tests", "property_tests"):
        for path in (ROOT / folder).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            names |= {
                node.name
                for node in ast.walk(tree)
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            }
    return names


def test_every_test_the_rule_map_names_exists() -> None:
    # A test is written `test_name` (or `test_name[id]` for one case of it) in the map.
    named = set(re.findall(r"`(test_\w+)[`\[]", RULE_MAP.read_text(encoding="utf-8")))
    assert named, "the rule map names no test"
    missing = sorted(named - defined_tests())
    assert missing == [], "the rule map names tests that do not exist: " + ", ".join(missing)


def _resolve(dotted: str) -> object:
    module_name, _, rest = dotted.partition(":")
    obj: object = importlib.import_module(module_name)
    for part in rest.split(".") if rest else ():
        obj = getattr(obj, part)
    return obj


def test_every_code_location_the_rule_map_names_exists() -> None:
    # Code is written `high_society.module:function` (or :Class.member) in the map.
    named = set(re.findall(r"`(high_society[\w.]*:[\w.]+)`", RULE_MAP.read_text("utf-8")))
    assert len(named) >= 12
    missing = []
    for dotted in sorted(named):
        try:
            _resolve(dotted)
        except (ImportError, AttributeError):
            missing.append(dotted)
    assert missing == [], "the rule map names code that does not exist: " + ", ".join(missing)


@pytest.mark.parametrize("ruling", [f"R{n}" for n in range(1, 15)])
def test_the_rule_map_covers_every_ruling_with_a_test_named_after_it(ruling: str) -> None:
    text = RULE_MAP.read_text(encoding="utf-8")
    assert re.search(rf"^#+ {ruling} ", text, re.MULTILINE), f"no section for {ruling}"
    pinned = set(re.findall(rf"`(test_{ruling}_\w+)`", text))
    assert pinned, f"the rule map names no test_{ruling}_... test"
    written = {t for t in defined_tests() if t.startswith(f"test_{ruling}_")}
    assert written <= pinned, "tests of the ruling missing from the map: " + ", ".join(
        sorted(written - pinned)
    )


# --- The rulings page --------------------------------------------------------------------

RULINGS_PAGE = DOCS / "rulings.md"
#: A ruling id as the repository writes it: ``R8``, ``test_R8_...``, ``R5-R8``; not the
#: letters and digits of a longer word (``PR12``, ``R2D2``'s ``D2``).
RULING_ID = re.compile(r"(?<![A-Za-z0-9])R(\d+)(?![0-9])")
#: Where ruling ids are written: the package, its tests and verification, the docs, the README.
RULING_SOURCES = ("src", "tests", "property_tests", "verification", "docs")


def defined_rulings() -> list[str]:
    """The rulings the page defines, in order: one ``### R<n> <title>`` heading each."""
    return re.findall(r"^### (R\d+) \w", RULINGS_PAGE.read_text(encoding="utf-8"), re.MULTILINE)


def files_citing_rulings() -> Iterator[Path]:
    yield ROOT / "README.md"
    for folder in RULING_SOURCES:
        for path in sorted((ROOT / folder).rglob("*")):
            skipped = {"_build", "__pycache__", "node_modules"} & set(path.parts)
            if path.is_file() and not skipped and not path.parent.name.endswith(".egg-info"):
                yield path


def test_the_rulings_page_defines_r1_to_r14_once_each_in_order() -> None:
    assert defined_rulings() == [f"R{n}" for n in range(1, 15)]


def test_every_ruling_id_in_the_repository_is_defined_on_the_rulings_page() -> None:
    defined = set(defined_rulings())
    cited: dict[str, set[str]] = {}
    for path in files_citing_rulings():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:  # a binary file cites nothing
            continue
        for number in RULING_ID.findall(text):
            cited.setdefault(f"R{number}", set()).add(str(path.relative_to(ROOT)))
    undefined = {ruling: sorted(paths) for ruling, paths in cited.items() if ruling not in defined}
    assert undefined == {}
    # The code and the tests cite every ruling, so the scan reads what it should.
    assert set(cited) == defined
    assert "src/high_society/rules.py" in cited["R8"]
    assert "tests/test_rulings.py" in cited["R8"]


def test_the_ruling_id_pattern_finds_ids_as_the_repository_writes_them() -> None:
    # (An id of no ruling, written in two pieces so that the scan above does not see it.)
    text = "R8; test_R12_x; R5-R8 (R14). Not PR3, R2D2's D2, nor R" + "1000's digits."
    assert RULING_ID.findall(text) == ["8", "12", "5", "8", "14", "2", "1000"]


@pytest.mark.parametrize(
    "path", [ROOT / "README.md", *sorted(DOCS.glob("*.md"))], ids=lambda p: p.name
)
def test_no_page_sends_the_reader_outside_the_repository_for_the_rulings(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for outside in ("shared/rules", "RULINGS.md", "rulebook-en.txt", "rulebook-es.txt"):
        assert outside not in text, f"{path.name} points to {outside}"


def test_the_rulings_page_is_in_the_table_of_contents() -> None:
    toctree = between_fences((DOCS / "index.md").read_text(encoding="utf-8"), "{toctree}")
    assert "rulings" in toctree.split()


def between_fences(text: str, directive: str) -> str:
    """The body of the first ```{directive} fence of a MyST page."""
    return text.split(f"```{directive}", 1)[1].split("```", 1)[0]


# --- The pages' own checks (docs/_made.py): the docs build fails on each --------------------

sys.path.insert(0, str(DOCS))
made = importlib.import_module("_made")


@pytest.mark.parametrize(
    "path", [ROOT / "README.md", *sorted(DOCS.glob("*.md"))], ids=lambda p: p.name
)
def test_no_page_holds_a_date_a_hash_a_hand_written_table_or_figure(path: Path) -> None:
    # The docs build checks the pages the same way; the README is checked here.
    assert made.page_problems(path.read_text(encoding="utf-8")) == []


BY_HAND = "a measured figure written by hand"


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("Measured on 2026-12-03, at night.", "a date stamp (2026-12-03)"),
        ("The run of 3 December 2026 took long.", "a date stamp (3 December 2026)"),
        ("From 20:21 to 20:24 UTC.", "a date stamp (20:24 UTC)"),
        ("Before this work (commit `d53aa34`).", "a commit hash (d53aa34)"),
        ("git show 9d2f236:src/high_society/data/learned-4p.npz", "a commit hash (9d2f236)"),
        ("| option | default | |", "an option table written by hand"),
        ("| `POST /api/tables` | make a table |", "a route listed by hand"),
        ("It plays 2,056 games/s on one core.", f"{BY_HAND} (2,056 games/s)"),
        ("A decision takes 0.05 ms of CPU.", f"{BY_HAND} (0.05 ms)"),
        ("It wins 40.4% (37.4-43.5) of them.", f"{BY_HAND} (40.4% (37.4-4"),
        ("The gate takes about 31 CPU s.", f"{BY_HAND} (31 CPU s)"),
        ("OpenSpiel runs at 0.59x native speed.", f"{BY_HAND} (0.59x native"),
    ],
)
def test_the_page_check_finds_what_a_page_must_not_hold(line: str, problem: str) -> None:
    found = made.page_problems(f"# A page\n\nText.\n\n{line}\n")
    assert [where for where, _ in found] == [5]
    assert found[0][1].startswith(problem)


def test_the_page_check_lets_through_what_a_page_may_hold() -> None:
    page = "\n".join(
        [
            "A figure from its source: {fig}`engine:cold_start_cpu_s` CPU s, and "
            "{fig}`server:x_bare_sqlite`.",
            "An id of 2,058 actions, the hex `#ff0000`, a token of 43 characters, R14.",
            "Bounds, not measurements: a body within 10 seconds, 4,096 bytes, 30 days.",
            "```text",
            "search      47.2%    42.4%-52.1%    0.0%     29.0%   13.16      66.9 ms",
            "2026-12-03 in a program's output",
            "```",
        ]
    )
    # A date stamp is one everywhere, a program's output included: the changelog dates.
    assert [(line, problem.split(" (")[0]) for line, problem in made.page_problems(page)] == [
        (6, "a date stamp")
    ]


def build(tmp_path: Path, pages: dict[str, str], figures: dict[str, object]) -> str:
    """Build a tiny Sphinx project with ``_made`` (``pages``: name to MyST text, the first
    the root; ``figures``: source name to its JSON value) and return its warnings."""
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace, patch_docutils

    source = tmp_path / "src"
    folder = tmp_path / "figures"
    source.mkdir(parents=True)
    folder.mkdir(parents=True)
    for name, value in figures.items():
        (folder / f"{name}.json").write_text(json.dumps(value), encoding="utf-8")
    names = list(pages)
    toctree = "\n```{toctree}\n" + "\n".join(names[1:]) + "\n```\n" if names[1:] else ""
    for i, (name, text) in enumerate(pages.items()):
        (source / f"{name}.md").write_text(text + (toctree if i == 0 else ""), encoding="utf-8")
    (source / "conf.py").write_text(
        f"extensions = ['myst_parser', '_made']\nroot_doc = {names[0]!r}\n"
        f"made_figures = {str(folder)!r}\n",
        encoding="utf-8",
    )
    warnings = io.StringIO()
    with patch_docutils(str(source)), docutils_namespace():
        app = Sphinx(
            str(source),
            str(source),
            str(tmp_path / "out"),
            str(tmp_path / "doctrees"),
            "html",
            status=None,
            warning=warnings,
            freshenv=True,
        )
        app.build()
    return warnings.getvalue()


def source(**figures: object) -> dict[str, object]:
    """A figure source, as a benchmark writes one."""
    return {
        "title": "A measurement",
        "command": "python -m benchmarks.report --quick",
        "notes": "A note.",
        "versions": {"python": "3.11.7"},
        "machine": "2 cores",
        "load": [],
        "figures": figures,
    }


FIGURE_PAGE = "# Speed\n\nIt plays {fig}`engine:rate` games a second.\n"
SOURCES_PAGE = "# Measurements\n\n```{fig-source} engine\n```\n"


def test_a_figure_from_its_source_builds_and_links_to_its_command(tmp_path: Path) -> None:
    pages = {"index": FIGURE_PAGE, "m": SOURCES_PAGE}
    assert build(tmp_path, pages, {"engine": source(rate=3089)}) == ""
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "3,089" in html
    assert 'href="m.html#figures-engine"' in html
    listed = (tmp_path / "out" / "m.html").read_text(encoding="utf-8")
    assert "benchmarks.report" in listed


def test_the_build_fails_on_a_figure_whose_source_is_missing(tmp_path: Path) -> None:
    warnings = build(tmp_path, {"index": FIGURE_PAGE}, {})
    assert "no figure source engine" in warnings


def test_the_build_fails_on_a_figure_whose_key_is_missing(tmp_path: Path) -> None:
    pages = {"index": FIGURE_PAGE, "m": SOURCES_PAGE}
    warnings = build(tmp_path, pages, {"engine": source(games=3089)})
    assert "engine.json has no figure 'rate'" in warnings
    assert "figure engine:games is shown by no page" in warnings


def test_the_build_fails_on_a_figure_shown_twice_or_a_source_whose_command_is_gone(
    tmp_path: Path,
) -> None:
    gone = {**source(rate=1), "command": "python -m benchmarks.no_such_benchmark"}
    pages = {"index": FIGURE_PAGE, "again": FIGURE_PAGE, "m": SOURCES_PAGE}
    warnings = build(tmp_path, pages, {"engine": gone})
    assert "runs benchmarks.no_such_benchmark, which does not exist" in warnings
    (tmp_path / "figures" / "engine.json").write_text(json.dumps(source(rate=1)))
    assert made.shown_problems(
        {"figures": {"engine:rate": ["index", "again"]}, "sources": {"engine": ["m"]}},
        tmp_path / "figures",
    ) == ["figure engine:rate is shown 2 times (again, index): show it once and link to it"]


def test_the_build_fails_when_a_date_is_added_to_a_page(tmp_path: Path) -> None:
    dated = FIGURE_PAGE + "\nMeasured on 2026-12-03.\n"
    warnings = build(tmp_path, {"index": dated, "m": SOURCES_PAGE}, {"engine": source(rate=1)})
    assert "index.md:5: WARNING: a date stamp (2026-12-03)" in warnings


def planted_parser() -> Any:
    """The command line's parser with one more option for ``demo``: ``--planted``."""
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            action.choices["demo"].add_argument("--planted", help="an option added today")
    return parser


def option_pages() -> dict[str, str]:
    tables = "\n".join(f"```{{cli-options}} {name}\n```\n" for name in made.subcommands())
    return {"index": "# Commands\n\n" + tables}


def test_an_option_added_to_a_command_changes_its_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert build(tmp_path / "before", option_pages(), {}) == ""
    before = (tmp_path / "before" / "out" / "index.html").read_text(encoding="utf-8")
    monkeypatch.setattr(made, "build_parser", planted_parser)
    assert build(tmp_path / "after", option_pages(), {}) == ""
    after = (tmp_path / "after" / "out" / "index.html").read_text(encoding="utf-8")
    assert "--planted" not in before
    assert "--planted" in after
    assert "an option added today" in after


def test_the_build_fails_on_an_option_table_written_by_hand(tmp_path: Path) -> None:
    # A table written by hand would not change with the parser: it is refused outright.
    rows = "\n".join(made.option_rows(made._subparser("demo")))
    page = option_pages()["index"] + "\n## demo, by hand\n\n" + rows + "\n"
    warnings = build(tmp_path, {"index": page}, {})
    assert "an option table written by hand: use cli-options" in warnings


def test_the_build_fails_on_a_command_whose_options_no_page_shows(tmp_path: Path) -> None:
    warnings = build(tmp_path, {"index": "# Commands\n\n```{cli-options} demo\n```\n"}, {})
    assert "high-society serve's options are shown by no page (cli-options)" in warnings


def test_the_api_routes_shown_are_the_servers_own() -> None:
    # server-routes lists every route the app serves, from its declarations.
    from high_society.server._routers import anyone, seats, tables, watching

    declared = {
        made.route_name(route)
        for module in (tables, seats, watching, anyone)
        for route in module.api.router.routes
    }
    assert {made.route_name(route) for route in made.api_routes()} == declared
    assert "POST /api/tables/ID/actions" in declared


def test_the_tasks_shown_are_the_ones_tasks_py_runs() -> None:
    names = made.task_names()
    assert {"setup", "test", "docs", "bench", "bench-server", "train"} <= set(names)
    tasks = (ROOT / "tasks.py").read_text(encoding="utf-8")
    assert all(f'"{name}"' in tasks for name in names)


# --- The verification page and the rule map against the contracts and the tools' settings ---

VERIFICATION_PAGE = DOCS / "verification.md"


def postconditions() -> dict[str, list[str]]:
    """``{function: its postconditions}`` of the engine's contracts (``post:`` lines of the
    docstrings of ``rules.py`` and ``scoring.py``), in order."""
    found: dict[str, list[str]] = {}
    for name in ("rules", "scoring"):
        path = ROOT / "src" / "high_society" / f"{name}.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef):
                doc = ast.get_docstring(node) or ""
                posts = re.findall(r"^\s*post(?:\[[^\]]*\])?:\s*(.+)$", doc, re.MULTILINE)
                if posts:
                    found[node.name] = posts
    return found


def table_rows(text: str, head: str) -> list[list[str]]:
    """The cells of each row of the Markdown table whose head row starts with ``head``."""
    rest = text.split(head, 1)[1].split("\n", 2)[2]  # past the head and the rule under it
    rows = []
    for line in rest.splitlines():
        if not line.lstrip().startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def test_the_verification_page_counts_the_contracts_and_the_planted_changes() -> None:
    from verification.changes import CHANGES

    text = VERIFICATION_PAGE.read_text(encoding="utf-8")
    posts = postconditions()
    counted = {
        row[0].strip("`"): int(row[1]) for row in table_rows(text, "| Function | Postconditions |")
    }
    assert counted == {function: len(found) for function, found in posts.items()}
    total = sum(map(len, posts.values()))
    inside = sum(not change.outside for change in CHANGES)
    assert f"**{total} postconditions, {total} confirmed; " in text
    assert f"; {len(CHANGES)} planted changes, {len(CHANGES)} refuted**" in text
    assert f"plants {len(CHANGES)} changes one at a time" in text
    assert f"- **inside** a domain ({inside}):" in text
    assert f"- **outside** ({len(CHANGES) - inside}):" in text


def test_what_the_contracts_say_names_postconditions_of_their_functions() -> None:
    posts = postconditions()
    rows = table_rows(VERIFICATION_PAGE.read_text("utf-8"), "| Function | Postcondition |")
    assert len(rows) >= 7
    wrong = [
        row[:2]
        for row in rows
        if not any(
            re.search(rf"\b{re.escape(row[1].strip('`').removesuffix('...'))}", post)
            for post in posts[row[0].strip("`")]
        )
    ]
    assert wrong == []


#: A group of the rule map's contracts column: predicates, then the functions whose
#: postconditions they are, in brackets (``a``, ``b`` (``_bid``, ``_pass``)).
CONTRACT_GROUP = re.compile(r"((?:`\w+`(?:'s two)?(?:, )?)+) \(([^)]*)\)")


def contract_claims(cell: str, predicates: set[str]) -> list[tuple[str, str]]:
    """``(predicate, function)`` for each predicate a cell of the rule map's contracts column
    says a function's postconditions name (a function's own name, ``cast_out``'s two, is
    no predicate)."""
    return [
        (name, function)
        for names, functions in CONTRACT_GROUP.findall(cell)
        for name in re.findall(r"`(\w+)`", names)
        if name in predicates
        for function in re.findall(r"`(\w+)`", functions)
    ]


def test_the_rule_maps_contracts_are_postconditions_of_the_functions_named() -> None:
    from high_society import _contracts

    predicates = set(_contracts.__all__)
    posts = postconditions()
    rows = table_rows(RULE_MAP.read_text(encoding="utf-8"), "| Rule | Examples")
    claims = [claim for row in rows for claim in contract_claims(row[3], predicates)]
    assert len(claims) >= 20
    wrong = [(p, f) for p, f in claims if not any(re.search(rf"\b{p}\(", c) for c in posts[f])]
    assert wrong == []
    assert contract_claims("`a`, `b` (`_bid`, `_pass`), `c` (`_pass`)", {"a", "b", "c"}) == [
        ("a", "_bid"),
        ("a", "_pass"),
        ("b", "_bid"),
        ("b", "_pass"),
        ("c", "_pass"),
    ]


def test_the_hypothesis_profiles_table_is_the_registered_profiles() -> None:
    from hypothesis import settings

    from property_tests.conftest import PROFILES

    rows = table_rows(VERIFICATION_PAGE.read_text("utf-8"), "| Profile | Examples |")
    shown = {row[0].strip("`"): (row[1], row[2], row[3].split()[0]) for row in rows}
    registered = {
        name: (
            f"{settings.get_profile(name).max_examples:,}",
            f"{settings.get_profile(name).stateful_step_count:,}",
            "yes" if settings.get_profile(name).derandomize else "no",
        )
        for name in PROFILES
    }
    assert shown == registered


def test_the_mutation_testing_settings_are_pyprojects() -> None:
    import tomllib

    mutmut = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["mutmut"]
    text = VERIFICATION_PAGE.read_text(encoding="utf-8")
    mutated = between_parens(text, "mutates the engine (")
    assert re.findall(r"`(\w+)`", mutated) == [Path(path).stem for path in mutmut["only_mutate"]]
    left_out = [row[0].strip("`") for row in table_rows(text, "| left out | why |")]
    ignored = [
        arg.split("=", 1)[1]
        for arg in mutmut["pytest_add_cli_args"]
        if arg.startswith(("--ignore=", "--ignore-glob="))
    ]
    assert left_out == ignored
    assert f"timeout_multiplier = {mutmut['timeout_multiplier']}" in text
    assert f'process_isolation = "{mutmut["process_isolation"]}"' in text


def between_parens(text: str, start: str) -> str:
    """The text after ``start`` up to the next closing bracket."""
    return text.split(start, 1)[1].split(")", 1)[0]


def test_every_condition_the_verification_page_names_is_one_of_the_search() -> None:
    from high_society._reachability import _conditions

    rows = table_rows(VERIFICATION_PAGE.read_text("utf-8"), "| Condition | What it says |")
    named = [name for row in rows for name in re.findall(r"`(\w+)`", row[0])]
    assert len(named) >= 7
    assert [name for name in named if not inspect.isfunction(vars(_conditions).get(name))] == []


def registered_directives(source: str) -> list[str]:
    """The directives and roles a Sphinx extension's source registers, by name."""
    return re.findall(r'app\.add_(?:directive|role)\("([\w-]+)"', source)


def test_the_writing_page_names_every_directive_the_pages_checks_add() -> None:
    page = (DOCS / "writing-docs.md").read_text(encoding="utf-8")
    names = registered_directives((DOCS / "_made.py").read_text(encoding="utf-8"))
    assert {"cli-options", "tasks", "fig", "fig-source"} <= set(names)
    assert [name for name in names if not re.search(rf"[`{{]{name}[`}} ]", page)] == []
    assert registered_directives('app.add_directive("a-b", A)\napp.add_role("c", C())') == [
        "a-b",
        "c",
    ]

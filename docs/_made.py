"""What the pages show that is made from the code or read from its source, so that it cannot
drift, and the checks of every page (``python3 tasks.py docs`` fails on any of them):

- ``wire-fields NAME``: the keys of one of :mod:`high_society.wire`'s shapes, each with
  its form and what it means, from the shape's own statement;
- ``cli-options COMMAND``: the options of a ``high-society`` subcommand, from its argparse
  parser (every subcommand must have its table);
- ``server-routes``: the table server's API, route by route, from the routes' own
  declarations; ``built-in-bots``: the bots a tournament names, from its registry;
  ``bot-levels``: the built-in bots as levels, from :mod:`high_society.levels` and the
  ratings it reads; ``tasks``: the tasks of ``tasks.py``, from its ``main``;
- ``{fig}`SOURCE:KEY``` and ``fig-table SOURCE:KEY``: a measured figure (a value, a table or
  a block of text) read from its source, ``docs/figures/SOURCE.json``, which names the
  command that measured it, the versions and the machine; ``fig-source SOURCE`` states
  that source (the measurements page). A missing file or key fails the build; so does a
  figure of a source that no page shows, or shows twice (a page that needs it elsewhere
  links to its home), and a source no ``fig-source`` states, or whose command no longer
  exists;
- every page (``page_problems``): no date stamp or commit hash (the changelog keeps the
  history), no option table or list of routes written by hand, and no measured figure
  written by hand (a rate, a time per call or decision, a win rate with its interval):
  those come from their source.
"""

import argparse
import importlib.util
import inspect
import json
import re
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective, SphinxRole

import high_society.table  # noqa: F401 (imported before wire, which imports it back)
from high_society import wire
from high_society._shapes import (
    AnyOf,
    Array,
    Boolean,
    Choice,
    Const,
    External,
    Form,
    Integer,
    Named,
    Null,
    Nullable,
    Number,
    Object,
    Shape,
    String,
    Tagged,
)
from high_society.cli import build_parser


def form(shape: Shape[Any]) -> str:
    """A shape in a few words, as a table cell (named shapes by their name)."""
    match shape:
        case Named():
            return f"`{shape.name}`"
        case External():
            return f"`{shape.name}`"
        case Form():
            return f"`{shape.title.capitalize()}{shape.external.name}`"
        case Nullable():
            return f"{form(shape.shape)} or `null`"
        case Null():
            return "`null`"
        case Const():
            return f'`"{shape.value}"`'
        case Boolean():
            return "`true` or `false`"
        case Number():
            return "a number"
        case String():
            return "a string"
        case Integer():
            low, high = shape.minimum, shape.maximum
            if low is not None and high is not None:
                return f"an integer, {low} to {high}"
            return "an integer" + (f", {low} or more" if low is not None else "")
        case Choice():
            values = [getattr(v, "value", v) for v in shape.values]
            return "one of " + ", ".join(f"`{v}`" for v in values)
        case Array():
            return f"a list of {form(shape.items)}"
        case AnyOf():
            return " or ".join(form(s) for s in shape.shapes)
        case Tagged():
            return " or ".join(form(s) for s in shape.forms.values())
        case Object():
            return "an object"
    return "a value"


def _cell(text: str) -> str:
    return " ".join(text.replace("|", "\\|").split())


class WireFields(SphinxDirective):
    """A table of a wire shape's keys."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        shape = getattr(wire, self.arguments[0], None)
        if not isinstance(shape, Named) or not isinstance(shape.shape, Object):
            raise self.error(f"{self.arguments[0]} is not an object shape of high_society.wire")
        rows = ["| key | form | |", "| --- | --- | --- |"]
        for key, field in shape.shape.fields.items():
            optional = "" if field.required else " (may be left out)"
            inner = field.shape.shape if isinstance(field.shape, Named) else field.shape
            doc = field.doc or field.shape.doc or inner.doc
            rows.append(f"| `{key}` | {_cell(form(field.shape))}{optional} | {_cell(doc)} |")
        return self.parse_markdown(rows)

    def parse_markdown(self, lines: list[str]) -> list[nodes.Node]:
        container = nodes.container()
        self.state.nested_parse(StringList(lines, source="wire-fields"), 0, container)
        return container.children


class CliOptions(SphinxDirective):
    """A table of a subcommand's options (``cli-options serve``)."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        command = self.arguments[0]
        if command not in subcommands():
            raise self.error(f"high-society has no subcommand {command!r}")
        _uses(self.env).setdefault("options", {}).setdefault(command, []).append(self.env.docname)
        rows = option_rows(_subparser(command))
        container = nodes.container()
        self.state.nested_parse(StringList(rows, source="cli-options"), 0, container)
        return container.children


def option_rows(parser: argparse.ArgumentParser) -> list[str]:
    """A parser's options as the rows of a Markdown table (its heads first)."""
    rows = ["| option | default | |", "| --- | --- | --- |"]
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        if not action.option_strings:
            name = f"`{action.metavar or action.dest}`"
        else:
            metavar = "" if action.nargs == 0 else f" {action.metavar or action.dest.upper()}"
            name = ", ".join(f"`{o}{metavar}`" for o in action.option_strings)
        default = action.default
        shown = "" if default in (None, argparse.SUPPRESS, False) else f"`{default}`"
        text = action.help or ""
        choices = action.choices
        if isinstance(choices, list | tuple) and len(choices) <= 12:
            text += " (" + ", ".join(f"`{c}`" for c in choices) + ")"
        rows.append(f"| {name} | {_cell(shown)} | {_cell(text)} |")
    return rows


def subcommands() -> dict[str, argparse.ArgumentParser]:
    """The ``high-society`` subcommands, by name, in the parser's order."""
    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _subparser(command: str) -> argparse.ArgumentParser:
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser = action.choices[command]
            return found
    raise KeyError(command)


# --- What the pages show, by document: checked once every page is read ---------------------

log = logging.getLogger(__name__)


def _uses(env: BuildEnvironment) -> dict[str, dict[str, list[str]]]:
    """What each document shows, kept in the environment: ``{"figures": {ref: [docname]},
    "sources": {source: [docname]}, "options": {command: [docname]}, "routes": ...}``."""
    if not hasattr(env, "made_uses"):
        env.made_uses = {}  # type: ignore[attr-defined]
    found: dict[str, dict[str, list[str]]] = env.made_uses  # type: ignore[attr-defined]
    return found


def _purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    for kind in _uses(env).values():
        for docnames in kind.values():
            while docname in docnames:
                docnames.remove(docname)


def _merge(app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment) -> None:
    for kind, shown in _uses(other).items():
        mine = _uses(env).setdefault(kind, {})
        for name, where in shown.items():
            mine.setdefault(name, []).extend(where)


def _check(app: Sphinx, env: BuildEnvironment) -> None:
    """Once every page is read: each figure of every source shown once, every source
    stated, every subcommand's options shown once."""
    for problem in shown_problems(_uses(env), Path(app.config.made_figures)):
        log.warning(problem, type="made", subtype="shown")


def shown_problems(uses: dict[str, dict[str, list[str]]], folder: Path) -> list[str]:
    """What the pages leave out or show twice, from ``uses`` (see :func:`_uses`) and the
    figure files of ``folder``."""
    problems: list[str] = []
    figures = {ref: where for ref, where in uses.get("figures", {}).items() if where}
    sources = {name: where for name, where in uses.get("sources", {}).items() if where}
    for path in sorted(folder.glob("*.json")):
        name = path.stem
        try:
            keys = load_source(folder, name)["figures"]
        except FigureError as error:
            problems.append(str(error))
            continue
        if name not in sources:
            problems.append(f"the figures of {path.name} are stated by no page (fig-source)")
        for key in keys:
            where = figures.get(f"{name}:{key}", [])
            if not where:
                problems.append(f"figure {name}:{key} is shown by no page: show it or remove it")
            elif len(where) > 1:
                pages = ", ".join(sorted(where))
                problems.append(
                    f"figure {name}:{key} is shown {len(where)} times ({pages}): show it once "
                    "and link to it"
                )
    for name, where in sources.items():
        if len(where) > 1:
            problems.append(f"the source {name} is stated twice ({', '.join(sorted(where))})")
    options = {name: where for name, where in uses.get("options", {}).items() if where}
    if options:  # made from the parser, a table may stand on two pages; none may lack one
        problems += [
            f"high-society {command}'s options are shown by no page (cli-options)"
            for command in subcommands()
            if command not in options
        ]
    return problems


# --- Measured figures: read from their source -----------------------------------------------

#: Where the figure files are, by default (``made_figures`` in conf.py says otherwise).
FIGURES = Path(__file__).resolve().parent / "figures"
#: What a figure file holds.
SOURCE_KEYS = {"title", "command", "notes", "versions", "machine", "load", "figures"}


class FigureError(Exception):
    """A figure or its source is missing or malformed."""


def load_source(folder: Path, name: str) -> dict[str, Any]:
    """The figure file ``folder/name.json``, checked: its keys, and its command one that
    exists."""
    path = folder / f"{name}.json"
    if not path.is_file():
        raise FigureError(f"no figure source {name}: {path} is missing")
    try:
        source = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as error:
        raise FigureError(f"{path.name} is not JSON: {error}") from None
    if not isinstance(source, dict) or set(source) != SOURCE_KEYS:
        raise FigureError(f"{path.name} must hold exactly {sorted(SOURCE_KEYS)}")
    if not isinstance(source["figures"], dict) or not source["figures"]:
        raise FigureError(f"{path.name} holds no figures")
    problem = command_problem(source["command"])
    if problem:
        raise FigureError(f"{path.name}: {problem}")
    return source


def figure(folder: Path, ref: str) -> tuple[str, dict[str, Any], Any]:
    """``(source name, source, value)`` of ``SOURCE:KEY``."""
    name, colon, key = ref.partition(":")
    if not colon or not name or not key:
        raise FigureError(f"a figure is named SOURCE:KEY, not {ref!r}")
    source = load_source(folder, name)
    if key not in source["figures"]:
        raise FigureError(f"{name}.json has no figure {key!r}")
    return name, source, source["figures"][key]


def show(value: object) -> str:
    """A figure as text: numbers with thousands separators, text as it is."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    return f"{value:,}"


def command_problem(command: object) -> str | None:
    """Why ``command`` (a figure's) could not be run as written, or ``None``: each module
    it runs (``-m NAME``), ``tasks.py`` task and ``high-society`` subcommand must exist."""
    if not isinstance(command, str) or not command.strip():
        return "its command is missing"
    root = FIGURES.parent.parent
    for module in re.findall(r"(?:^|\s)-m\s+([\w.]+)", command):
        if _find_module(module) is None:
            return f"its command runs {module}, which does not exist"
    tasks = (root / "tasks.py").read_text(encoding="utf-8")
    for task in re.findall(r"tasks\.py\s+([\w-]+)", command):
        if f'"{task}"' not in tasks:
            return f"its command runs python3 tasks.py {task}, which does not exist"
    for sub in re.findall(r"high-society\s+([\w-]+)", command):
        if sub not in subcommands():
            return f"its command runs high-society {sub}, which does not exist"
    for script in re.findall(r"(?:^|\s)((?:examples|benchmarks|verification)/[\w/]+\.py)", command):
        if not (root / script).is_file():
            return f"its command runs {script}, which does not exist"
    return None


def _find_module(name: str) -> object:
    try:
        return importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None


class FigureRole(SphinxRole):
    """``{fig}`SOURCE:KEY```: a figure, linked to its source on the measurements page."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        try:
            name, _, value = figure(Path(self.config.made_figures), self.text)
        except FigureError as error:
            message = self.inliner.reporter.error(str(error), line=self.lineno)
            return [self.inliner.problematic(self.rawtext, self.rawtext, message)], [message]
        _uses(self.env).setdefault("figures", {}).setdefault(self.text, []).append(self.env.docname)
        if isinstance(value, dict):
            message = self.inliner.reporter.error(
                f"{self.text} is a table or a block: show it with fig-table", line=self.lineno
            )
            return [self.inliner.problematic(self.rawtext, self.rawtext, message)], [message]
        return [_link(name, nodes.inline(self.rawtext, show(value)), self.env.docname)], []


def _link(name: str, content: nodes.Node, docname: str) -> nodes.Node:
    """``content``, linked to the statement of the figure source ``name``."""
    return pending_xref(
        "",
        content,
        refdomain="std",
        reftype="ref",
        reftarget=f"figures-{name}",
        refexplicit=True,
        refwarn=True,
        refdoc=docname,
    )


class FigureTable(SphinxDirective):
    """``fig-table SOURCE:KEY``: a table or a block of text read from its source, followed by
    the command that measured it."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        ref = self.arguments[0]
        try:
            name, source, value = figure(Path(self.config.made_figures), ref)
        except FigureError as error:
            raise self.error(str(error)) from None
        _uses(self.env).setdefault("figures", {}).setdefault(ref, []).append(self.env.docname)
        container = nodes.container(classes=["figure-table"])
        if isinstance(value, dict) and "text" in value:
            text = str(value["text"])
            container += nodes.literal_block(text, text)
        elif isinstance(value, dict) and {"columns", "rows"} <= set(value):
            rows = table_rows(value["columns"], value["rows"])
            self.state.nested_parse(StringList(rows, source=ref), 0, container)
        else:
            raise self.error(f"{ref} is a single figure: show it with the fig role")
        caption = nodes.paragraph(classes=["figure-source"])
        caption += nodes.Text("Measured by ")
        caption += nodes.literal(source["command"], source["command"])
        caption += nodes.Text(" (")
        caption += _link(name, nodes.inline("", "how"), self.env.docname)
        caption += nodes.Text(").")
        container += caption
        return [container]


_NUMBER = re.compile(r"^[-+]?[\d,]*\.?\d+$")


def table_rows(columns: Sequence[object], rows: Iterable[Sequence[object]]) -> list[str]:
    """A figure table as the rows of a Markdown table: numbers right-aligned."""
    body = [list(row) for row in rows]
    numeric = [
        all(_NUMBER.match(show(row[i])) for row in body if i < len(row))
        for i in range(len(columns))
    ]
    lines = ["| " + " | ".join(_cell(str(c)) for c in columns) + " |"]
    lines.append("| " + " | ".join("---:" if n else "---" for n in numeric) + " |")
    for row in body:
        if len(row) != len(columns):
            raise FigureError(f"a row of {len(row)} cells under {len(columns)} columns: {row}")
        lines.append("| " + " | ".join(_cell(show(c)) for c in row) + " |")
    return lines


class FigureSource(SphinxDirective):
    """``fig-source SOURCE``: what a figure file measured, with which command, versions and
    machine; the figures' links point here."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        try:
            source = load_source(Path(self.config.made_figures), name)
        except FigureError as error:
            raise self.error(str(error)) from None
        _uses(self.env).setdefault("sources", {}).setdefault(name, []).append(self.env.docname)
        node_id = f"figures-{name}"
        target = nodes.target("", "", ids=[node_id])
        std = self.env.get_domain("std")
        std.note_hyperlink_target(node_id, self.env.docname, node_id, source["title"])  # type: ignore[attr-defined]
        versions = ", ".join(f"{k} {v}" for k, v in source["versions"].items())
        lines = [
            f"**{source['title']}** (`{name}.json`, {len(source['figures'])} figures)",
            "",
            "```sh",
            source["command"],
            "```",
            "",
            f"{source['notes']} Measured with {versions}; {source['machine']}.".strip(),
        ]
        container = nodes.container(classes=["figure-source"])
        self.state.nested_parse(StringList(lines, source=name), 0, container)
        return [target, container]


# --- Lists made from the code: the server's routes, the bots --------------------------------


def api_routes() -> list[Any]:
    """The table server's API routes, in the order its app serves them."""
    from high_society.server import create_app
    from high_society.server._api import LeanRoute

    with tempfile.TemporaryDirectory() as folder:
        app = create_app(f"sqlite:///{folder}/routes.sqlite3")
    return [route for route in app.routes if isinstance(route, LeanRoute)]


def route_name(route: Any) -> str:
    """``METHOD /api/path`` as the pages write it: ``{table_id}`` is ``ID``, and the query
    parameters follow (``?since=N``)."""
    path = str(route.path).replace("{table_id}", "ID")
    query = [take.key for take in route.takes if getattr(take, "where", None) == "query"]
    if query:
        path += "?" + "&".join(f"{key}=N" for key in query)
    return f"{sorted(route.methods)[0]} {path}"


def route_rows(routes: Sequence[Any]) -> list[str]:
    rows = ["| route | | answer |", "| --- | --- | --- |"]
    for route in routes:
        doc = inspect.cleandoc(route.target.__doc__ or "")
        body = [
            f"body `{take.shape.name}`"
            for take in route.takes
            if type(take).__name__ in {"Body", "RawBody"} and hasattr(take.shape, "name")
        ]
        what = f"**{route.summary}.** {doc}" + (f" ({', '.join(body)})" if body else "")
        shape = getattr(route.answer.shape, "name", None)
        answer = f"`{shape}`" if shape else ""
        answer += f" ({route.answer.status})"
        if route.answer.doc != "The answer":
            answer += f": {route.answer.doc}"
        if route.errors:
            answer += "; errors " + ", ".join(str(e) for e in route.errors)
        rows.append(f"| `{route_name(route)}` | {_cell(what)} | {_cell(answer)} |")
    return rows


class ServerRoutes(SphinxDirective):
    """``server-routes``: every route of the table server's API, from its declaration."""

    def run(self) -> list[nodes.Node]:
        routes = api_routes()
        shown = _uses(self.env).setdefault("routes", {})
        for route in routes:
            shown.setdefault(route_name(route), []).append(self.env.docname)
        container = nodes.container()
        self.state.nested_parse(StringList(route_rows(routes), source="routes"), 0, container)
        return container.children


class BuiltInBots(SphinxDirective):
    """``built-in-bots``: the bots a tournament names, from its registry, each with its class
    (how each plays is on its level: ``bot-levels``)."""

    def run(self) -> list[nodes.Node]:
        from high_society.tournament import BUILT_IN, parse_entrant

        rows = ["| name | bot |", "| --- | --- |"]
        for name in BUILT_IN:
            factory = parse_entrant(name).factory
            rows.append(f"| `{name}` | {{class}}`~{factory.__module__}.{factory.__qualname__}` |")
        container = nodes.container()
        self.state.nested_parse(StringList(rows, source="built-in-bots"), 0, container)
        return container.children


class BotLevels(SphinxDirective):
    """``bot-levels``: every built-in bot as a level, with its ratings at 3, 4 and 5 players
    (from ``high_society/data/ratings.json``) and how it plays."""

    def run(self) -> list[nodes.Node]:
        from high_society.levels import LEVELS, RATINGS_COMMAND

        counts = [rating.players for rating in LEVELS[0].ratings]
        heads = [f"{n} players: mu (95% interval)" for n in counts]
        rows = ["| level | word | bot | " + " | ".join(heads) + " | how it plays |"]
        rows.append("| ---: | --- | --- | " + " | ".join("---" for _ in heads) + " | --- |")
        for level in LEVELS:
            cells = [f"{r.mu:.1f} ({r.low:.1f}-{r.high:.1f})" for r in level.ratings]
            rows.append(
                f"| {level.level} | {level.tier} | `{level.name}` | "
                + " | ".join(cells)
                + f" | {_cell(level.plays)} |"
            )
        rows += ["", f"Measured by `{RATINGS_COMMAND}` (`high_society/data/ratings.json`)."]
        container = nodes.container()
        self.state.nested_parse(StringList(rows, source="bot-levels"), 0, container)
        return container.children


def task_names(path: Path | None = None) -> list[str]:
    """The tasks ``python3 tasks.py`` runs, in the order its ``main`` tells them apart."""
    import ast

    source = (path or FIGURES.parent.parent / "tasks.py").read_text(encoding="utf-8")
    names: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and getattr(node.left, "id", None) == "task":
            for value in ast.walk(node.comparators[0]):
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    names.append(value.value)
    return sorted(set(names), key=names.index)


class Tasks(SphinxDirective):
    """``tasks``: the tasks of ``tasks.py``, read from its ``main``."""

    def run(self) -> list[nodes.Node]:
        shown = ", ".join(f"`{name}`" for name in task_names())
        text = f"`python3 tasks.py TASK`, TASK one of {shown} (`python3 tasks.py --help`)."
        container = nodes.container()
        self.state.nested_parse(StringList([text], source="tasks"), 0, container)
        return container.children


# --- What every page must not hold ----------------------------------------------------------

_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
#: A date or a time of day: a stamp of when something happened.
DATE = re.compile(
    rf"\b(?:1[89]|20)\d\d-[01]\d-[0-3]\d\b|\b\d{{1,2}} (?:{_MONTHS}) \d{{4}}\b"
    rf"|\b(?:{_MONTHS}) \d{{1,2}}, \d{{4}}\b|\b[0-2]\d:[0-5]\d(?::[0-5]\d)? UTC\b"
)
#: A commit hash: 7 to 40 hex digits, with a digit and a letter among them.
COMMIT = re.compile(r"(?<![\w-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}(?![\w-])")
#: A table row that names a route of an HTTP API.
ROUTE_ROW = re.compile(r"^\|\s*`(?:GET|POST|PUT|PATCH|DELETE) /")
#: A table's head row whose first cell is "option".
OPTION_HEAD = re.compile(r"^\|\s*option\s*\|", re.IGNORECASE)
#: A measured figure written out: a rate, a time per call, move or decision, CPU time, a
#: win rate with its interval, a ratio to another engine.
MEASURED = re.compile(
    r"\d[\d,.]*\s*(?:games|actions|decisions|moves|steps|requests)(?:/s\b| (?:a|per) "
    r"(?:CPU )?second\b)"
    r"|\d[\d,.]*\s*(?:µs|ms|ns)\b"
    r"|\d[\d,.]*\s*(?:CPU s\b|CPU (?:seconds|minutes)\b|s of CPU\b|minutes of CPU\b)"
    r"|\d+(?:\.\d+)?% \(\d+(?:\.\d+)?%?-\d"
    r"|\d+(?:\.\d+)?x native\b|\d+(?:\.\d+)? times the reducer"
)
_FENCE = re.compile(r"^(```+|~~~+)")
_ROLE = re.compile(r"\{fig\}`[^`]*`")


def page_problems(text: str) -> list[tuple[int, str]]:
    """``(line, problem)`` for what a page must not hold: a date stamp, a commit hash, an
    option table or routes written by hand, a measured figure written by hand (outside code
    blocks; a figure comes from its source by the ``fig`` role)."""
    problems: list[tuple[int, str]] = []
    fence: str | None = None
    for number, line in enumerate(text.splitlines(), 1):
        for match in DATE.finditer(line):
            problems.append((number, f"a date stamp ({match.group()}): the changelog dates"))
        for match in COMMIT.finditer(line):
            problems.append((number, f"a commit hash ({match.group()}): say what is true now"))
        opened = _FENCE.match(line.strip())
        if opened:
            marker = opened.group(1)
            if fence is None:
                fence = marker
            elif marker.startswith(fence[:3]) and len(line.strip()) == len(marker):
                fence = None
            continue
        if fence is not None:
            continue
        if OPTION_HEAD.match(line):
            problems.append((number, "an option table written by hand: use cli-options"))
        if ROUTE_ROW.match(line):
            problems.append((number, "a route listed by hand: use server-routes"))
        for match in MEASURED.finditer(_ROLE.sub("", line)):
            problems.append(
                (number, f"a measured figure written by hand ({match.group()}): use {{fig}}")
            )
    return problems


def _check_page(app: Sphinx, docname: str, source: list[str]) -> None:
    for line, problem in page_problems(source[0]):
        log.warning(problem, location=(docname, line), type="made", subtype="page")


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("made_figures", str(FIGURES), "env")
    app.add_directive("wire-fields", WireFields)
    app.add_directive("cli-options", CliOptions)
    app.add_directive("server-routes", ServerRoutes)
    app.add_directive("built-in-bots", BuiltInBots)
    app.add_directive("bot-levels", BotLevels)
    app.add_directive("tasks", Tasks)
    app.add_directive("fig-table", FigureTable)
    app.add_directive("fig-source", FigureSource)
    app.add_role("fig", FigureRole())
    app.connect("source-read", _check_page)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("env-check-consistency", _check)
    return {"parallel_read_safe": True, "env_version": 2}

"""Tables the pages show that are made from the code, so that they cannot drift from it:

- ``wire-fields NAME``: the keys of one of :mod:`high_society.wire`'s shapes, each with
  its form and what it means, from the shape's own statement;
- ``cli-options COMMAND``: the options of a ``high-society`` subcommand, from its argparse
  parser.
"""

import argparse
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

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
        shape = getattr(wire, self.arguments[0])
        assert isinstance(shape, Named), self.arguments[0]
        assert isinstance(shape.shape, Object), self.arguments[0]
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
        parser = _subparser(self.arguments[0])
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
            rows.append(f"| {name} | {_cell(shown)} | {_cell(action.help or '')} |")
        container = nodes.container()
        self.state.nested_parse(StringList(rows, source="cli-options"), 0, container)
        return container.children


def _subparser(command: str) -> argparse.ArgumentParser:
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser = action.choices[command]
            return found
    raise KeyError(command)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("wire-fields", WireFields)
    app.add_directive("cli-options", CliOptions)
    return {"parallel_read_safe": True}

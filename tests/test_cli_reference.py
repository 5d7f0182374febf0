"""docs/cli.md keeps up with the command line: a section per subcommand, its options shown by
the ``cli-options`` directive, which makes the table from the subcommand's own parser (the docs
build fails on a subcommand without its table; tests/test_docs.py proves it)."""

import argparse
from pathlib import Path

from high_society.cli import build_parser

CLI_PAGE = Path(__file__).resolve().parent.parent / "docs" / "cli.md"


def subcommands() -> dict[str, argparse.ArgumentParser]:
    # The subcommands' action is the one whose choices are parsers (argparse keeps its class
    # private).
    for action in build_parser()._actions:
        choices = action.choices
        if isinstance(choices, dict) and all(
            isinstance(p, argparse.ArgumentParser) for p in choices.values()
        ):
            return dict(choices)
    raise AssertionError("the parser has no subcommands")


def test_the_cli_reference_shows_every_subcommand_with_its_options_from_the_parser() -> None:
    page = CLI_PAGE.read_text(encoding="utf-8")
    commands = subcommands()
    assert {"demo", "play", "validate", "simulate", "tournament"} <= set(commands)
    for name in commands:
        assert f"## `high-society {name}" in page, name
        section = page.split(f"## `high-society {name}", 1)[1].split("\n## ", 1)[0]
        assert f"```{{cli-options}} {name}\n```" in section, name


def test_every_option_has_a_help_line_for_its_table() -> None:
    for name, parser in subcommands().items():
        for action in parser._actions:
            if not isinstance(action, argparse._HelpAction):
                assert action.help, (name, action.dest)

"""docs/cli.md keeps up with the command line: every subcommand and option is in it."""

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


def test_the_cli_reference_names_every_subcommand_and_option() -> None:
    page = CLI_PAGE.read_text(encoding="utf-8")
    commands = subcommands()
    assert {"demo", "play", "validate", "simulate", "tournament"} <= set(commands)
    for name, parser in commands.items():
        assert f"## `high-society {name}" in page, name
        section = page.split(f"## `high-society {name}", 1)[1].split("\n## ", 1)[0]
        for action in parser._actions:
            for option in action.option_strings:
                if option.startswith("--") and option != "--help":
                    assert f"`{option}" in section, (name, option)

"""docs/cli.md keeps up with the command line: a section per subcommand, its options shown by
the ``cli-options`` directive, which makes the table from the subcommand's own parser (the docs
build fails on a subcommand without its table; tests/test_docs.py proves it)."""

import argparse
import re
import sys
from pathlib import Path

import pytest

from high_society.cli import build_parser, main
from high_society.errors import InvalidConfigError
from tests.pages import docs_page

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


def test_every_command_help_prints_its_percent_signs_once() -> None:
    # argparse %-formats an option's help but prints a description as written: a "%%" meant
    # for the one reaches the user doubled in the other.
    for name, parser in subcommands().items():
        text = parser.format_help()
        assert "%%" not in text, name
    assert "95% Wilson" in subcommands()["exploitability"].format_help()


# --- The facts of the page's prose, held to the parsers and the commands -----------------------

#: Numbers that probe an option's bounds: each bound the page states, and one past it.
_PROBES = (-1, 0, 1, 2, 3, 5, 6, 9, 10, 11, 1024, 1025, 10**7, 10**7 + 1, 2**63 - 1, 2**63)


def _accepts(action: argparse.Action, value: int) -> bool:
    try:
        parsed = action.type(str(value)) if callable(action.type) else str(value)
    except (argparse.ArgumentTypeError, ValueError, TypeError):
        return False
    return action.choices is None or parsed in action.choices


def _bounds(action: argparse.Action) -> tuple[int, int]:
    accepted = [value for value in _PROBES if _accepts(action, value)]
    low, high = min(accepted), max(accepted)
    assert not _accepts(action, low - 1)
    assert not _accepts(action, high + 1)
    return low, high


def _option_bounds(option: str) -> dict[str, tuple[int, int]]:
    """The bounds of ``option`` in each subcommand that has it."""
    found = {}
    for name, parser in subcommands().items():
        for action in parser._actions:
            if option in action.option_strings:
                found[name] = _bounds(action)
    return found


def _number(text: str) -> int:
    return 2**63 - 1 if text == "`2**63 - 1`" else int(text.replace(",", ""))


_BOUND = r"([\d,]+|`2\*\*63 - 1`)"


def test_the_cli_page_gives_the_bounds_of_every_count_as_the_parsers_have_them() -> None:
    page = docs_page("cli.md")
    games = page.split("`--games` ", 1)[1].split(", `--seed`", 1)[0]
    said: dict[str, tuple[int, int]] = {}
    for low, high, names in re.findall(rf"{_BOUND} to {_BOUND} \(([^)]*)\)", games):
        for name in re.findall(r"`([a-z]+)`", names):
            said[name] = (_number(low), _number(high))
    assert said == _option_bounds("--games")
    found = re.search(rf"`--seed` {_BOUND} to {_BOUND} \(every command that takes one\)", page)
    assert found is not None
    assert set(_option_bounds("--seed").values()) == {(_number(found[1]), _number(found[2]))}
    found = re.search(rf"`--jobs` {_BOUND} to {_BOUND} ", page)
    assert found is not None
    assert set(_option_bounds("--jobs").values()) == {(_number(found[1]), _number(found[2]))}
    found = re.search(rf"`--players` {_BOUND} to {_BOUND}\.", page)
    assert found is not None
    assert set(_option_bounds("--players").values()) == {(_number(found[1]), _number(found[2]))}


def test_the_cli_page_shows_what_serve_says_without_its_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn raises ImportError
    assert main(["serve"]) == 1
    said = capsys.readouterr().err.strip().split(": pip ")[0]
    assert said.startswith("high-society: serve needs the server extra")
    assert f"`{said}: ...` and exits with code 1" in docs_page("cli.md")


def test_the_cli_page_gives_the_bounds_of_serves_seconds_as_serve_checks_them() -> None:
    pytest.importorskip("uvicorn")
    pytest.importorskip("fastapi")
    from high_society.cli import serve

    found = re.search(
        rf"`--bot-delay` takes {_BOUND} to {_BOUND} seconds and `--send-seconds` {_BOUND} to"
        rf" {_BOUND}:",
        docs_page("cli.md"),
    )
    assert found is not None
    for option, low, high in [
        ("--bot-delay", _number(found[1]), _number(found[2])),
        ("--send-seconds", _number(found[3]), _number(found[4])),
    ]:
        for value in (low - 0.5, high + 0.5):
            args = build_parser().parse_args(["serve", option, str(value)])
            with pytest.raises(InvalidConfigError) as refused:
                serve.run(args)
            assert f"{option} must be {low} to {high} seconds" in str(refused.value)

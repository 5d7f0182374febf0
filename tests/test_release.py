"""What a release promises on paper: one version in the package, the metadata and the
changelog; a changelog by release in the form of Keep a Changelog; no tracker numbers in
what a reader gets (docs, tests, code, changelog), since a reader cannot open the tracker."""

import datetime
import re
import tomllib
from pathlib import Path

import pytest

import high_society

ROOT = Path(__file__).resolve().parent.parent
CHANGELOG = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]

#: ``## [1.0.0] - 2026-12-01``, and ``## [Unreleased]``.
_RELEASE = re.compile(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", re.MULTILINE)
_LINK = re.compile(r"^\[([^\]]+)\]: (\S+)", re.MULTILINE)
#: The kinds of change Keep a Changelog names, the only sections of a release.
KINDS = ("Added", "Changed", "Deprecated", "Removed", "Fixed", "Security")


def releases(text: str) -> list[tuple[str, datetime.date]]:
    return [(v, datetime.date.fromisoformat(d)) for v, d in _RELEASE.findall(text)]


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def test_the_changelog_opens_with_unreleased_then_the_releases_newest_first() -> None:
    headings = re.findall(r"^## (.*)$", CHANGELOG, re.MULTILINE)
    assert headings[0] == "[Unreleased]"
    found = releases(CHANGELOG)
    assert [f"[{v}] - {d.isoformat()}" for v, d in found] == headings[1:]
    assert [_key(v) for v, _ in found] == sorted((_key(v) for v, _ in found), reverse=True)
    assert [d for _, d in found] == sorted((d for _, d in found), reverse=True)


def test_the_latest_release_is_the_package_version() -> None:
    assert releases(CHANGELOG)[0][0] == high_society.__version__


def test_every_release_heading_has_its_link_reference_at_the_bottom() -> None:
    names = ["Unreleased", *(v for v, _ in releases(CHANGELOG))]
    links = _LINK.findall(CHANGELOG.rsplit("\n## ", 1)[1])
    assert [name for name, _ in links] == names


def test_a_release_holds_only_the_kinds_of_change_keep_a_changelog_names() -> None:
    for part in CHANGELOG.split("\n## ")[1:]:
        kinds = re.findall(r"^### (.*)$", part, re.MULTILINE)
        assert set(kinds) <= set(KINDS), part.splitlines()[0]


def test_a_stable_version_says_so_in_its_classifiers() -> None:
    status = [c for c in PROJECT["classifiers"] if c.startswith("Development Status ::")]
    stable = _key(high_society.__version__) >= (1, 0, 0)
    assert status == ["Development Status :: 5 - Production/Stable"] if stable else status


# --- Tracker numbers ---------------------------------------------------------------------

#: A tracker number in words: "issue 9", "issues 9-14", "Issue 11's", "PR 3", "ticket #12".
WORDED = re.compile(r"\b(?:issues?|tickets?|bugs?|prs?|pull requests?)[\s-]+#?\d+", re.IGNORECASE)
#: A bare one, "(#12)": not ``owner/repo#12``, which a reader can open, nor an anchor such as
#: ``#100---2026-12-01``, nor a character reference (``&#8212;``). Style sheets are left
#: out: their numbers after a ``#`` are colours.
BARE = re.compile(r"(?<![\w/&#])#\d+\b(?!-)")
#: Everything a reader of the project gets: the package, its tests, tools and docs.
FOLDERS = ("src", "tests", "property_tests", "verification", "benchmarks", "examples", "docs")
TOP_FILES = ("README.md", "CHANGELOG.md", "pyproject.toml", "tasks.py")

#: This file: its examples name tracker numbers, to test the check.
THIS_FILE = "tests/test_release.py"


def text_files() -> list[Path]:
    files = [ROOT / name for name in TOP_FILES]
    for folder in FOLDERS:
        files += sorted(
            path
            for path in (ROOT / folder).rglob("*")
            if path.is_file() and not {"_build", "__pycache__", "node_modules"} & set(path.parts)
        )
    return files


def tracker_numbers(text: str, *, style_sheet: bool = False) -> list[tuple[int, str]]:
    """``(line number, line)`` for each line of ``text`` that names a tracker number."""
    patterns = (WORDED,) if style_sheet else (WORDED, BARE)
    return [
        (number, line.strip())
        for number, line in enumerate(text.splitlines(), 1)
        if any(pattern.search(line) for pattern in patterns)
    ]


def test_no_tracker_number_appears_in_docs_tests_code_or_changelog() -> None:
    found = []
    for path in text_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:  # the learned bot's weights
            continue
        name = path.relative_to(ROOT).as_posix()
        if name == THIS_FILE:
            continue
        numbers = tracker_numbers(text, style_sheet=path.suffix == ".css")
        found += [f"{name}:{n}: {line}" for n, line in numbers]
    assert found == []


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ("the merge of issues 9-14", True),
        ("Issue 11's audit", True),
        ("see PR 3", True),
        ("fixed in ticket #12", True),
        ("as asked (#12)", True),
        ("bug 7 again", True),
        ("the issue-9 example", True),
        ("GitHub discussion pschanely/CrossHair#156", False),
        ("[1.0.0]: #100---2026-12-01", False),
        ("the 12 issues of the record", False),
        ("&#8212; a dash", False),
        ("2,058 action ids", False),
    ],
)
def test_the_tracker_check_finds_what_it_should(line: str, named: bool) -> None:
    assert bool(tracker_numbers(line)) is named


def test_a_colour_in_a_style_sheet_is_no_tracker_number() -> None:
    assert tracker_numbers("color: #333;") != []
    assert tracker_numbers("color: #333;", style_sheet=True) == []
    assert tracker_numbers("/* issue 4 */", style_sheet=True) != []


def test_install_instructions_name_what_exists() -> None:
    # The package is not on PyPI: an instruction to install 'high-society[...]' fails as
    # written. Every page and message says how to install from a clone or a built wheel.
    wrong = []
    for folder in ("src", "docs", "examples", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".py", ".md") and "_build" not in path.parts:
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    if "high-society[" in line and "measurements" not in path.name:
                        wrong.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "pip install '.[batch]'" in readme or "pip install ." in readme
    assert wrong == []

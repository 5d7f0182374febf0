"""The docs pages as the tests that hold them to the code read them."""

from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent / "docs"

#: Numbers as the pages write them in words.
WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def docs_page(name: str) -> str:
    """The page ``name`` of docs/ as a reader reads it: its whitespace made single spaces
    (lines wrap anywhere)."""
    return " ".join((DOCS / name).read_text(encoding="utf-8").split())

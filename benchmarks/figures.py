"""Figure files: the one source of the measured figures the docs show.

A benchmark or evaluation command given ``--figures PATH`` writes its figures to ``PATH``
(under ``docs/figures/``) as one JSON object: the command that reproduces them, the
versions and the machine they were measured with, and the figures by key. The pages read
them by key (``docs/_made.py``: the ``fig`` role and the ``fig-table`` directive), so a
figure changes in one place, and the docs build fails on a key or a file that is missing.

A figure is a number, a string, a table (:func:`table`) or a block of text (:func:`text`).
"""

import json
import os
import platform
import sys
from collections.abc import Mapping, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from high_society import __version__

__all__ = ["Figure", "Recorder", "machine", "markdown", "table", "text", "versions", "write"]

Figure = int | float | str | dict[str, Any]


def table(columns: Sequence[str], rows: Sequence[Sequence[int | float | str]]) -> dict[str, Any]:
    """A table figure: its column heads and its rows (cells formatted by the docs)."""
    return {"columns": list(columns), "rows": [list(row) for row in rows]}


def markdown(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A table as the commands print it: Markdown, one line per row."""
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])


def text(block: str) -> dict[str, Any]:
    """A block of text as a command printed it (shown as it is)."""
    return {"text": block}


def versions(*distributions: str) -> dict[str, str]:
    """The versions of Python, high-society (the code that ran, not the metadata of an
    editable install, which keeps the version it was installed at) and ``distributions``
    (those installed)."""
    found = {"python": platform.python_version(), "high-society": __version__}
    for name in distributions:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return found


def machine() -> str:
    """The machine in a few words: cores, architecture, system."""
    return f"{os.cpu_count()} cores, {platform.machine()}, {platform.system()}"


def _load() -> float:
    return round(os.getloadavg()[0], 1) if hasattr(os, "getloadavg") else 0.0


def write(
    path: str | Path,
    *,
    command: str,
    title: str,
    figures: Mapping[str, Figure],
    distributions: Sequence[str] = (),
    notes: str = "",
    load: tuple[float, float] | None = None,
) -> None:
    """Write a figure file: ``command`` the command line that writes it again, ``title``
    what it measures, ``notes`` how (a sentence or two), ``load`` the machine's load average
    at the start and the end of the run."""
    body: dict[str, Any] = {
        "title": title,
        "command": command,
        "notes": notes,
        "versions": versions(*distributions),
        "machine": machine(),
        "load": list(load) if load is not None else [_load(), _load()],
        "figures": dict(figures),
    }
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(body, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"figures written to {target}", file=sys.stderr)


class Recorder:
    """Collects a run's figures as it prints them; :meth:`write` writes them when the run
    was asked for a figure file (``path`` not ``None``)."""

    def __init__(self, path: str | None, command: str) -> None:
        self.path = path
        self.command = command
        self.figures: dict[str, Figure] = {}
        self.start_load = _load()

    def __setitem__(self, key: str, value: Figure) -> None:
        self.figures[key] = value

    def write(self, *, title: str, notes: str = "", distributions: Sequence[str] = ()) -> None:
        if self.path is not None:
            write(
                self.path,
                command=self.command,
                title=title,
                figures=self.figures,
                distributions=distributions,
                notes=notes,
                load=(self.start_load, _load()),
            )

"""Run every ``>>>`` example of every Markdown page in docs/ as a doctest, under pytest.

Each page is one doctest, its examples sharing one namespace in page order, like a reader
typing them into one session. Code fences are blanked first (line numbers stay the same), so
that a closing fence is not read as expected output. Nothing needs registering: a new page
is tested as soon as it exists.
"""

import doctest
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

collect_ignore = ["conf.py", "_build"]

_FENCE = re.compile(r"^\s*(```|~~~|:::).*$", re.MULTILINE)
FLAGS = doctest.ELLIPSIS


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.File | None:
    if file_path.suffix == ".md" and "_build" not in file_path.parts:
        page: pytest.File = MarkdownPage.from_parent(parent, path=file_path)
        return page
    return None


class MarkdownPage(pytest.File):
    """A Markdown page; one test item if it holds any example."""

    def collect(self) -> Iterator[pytest.Item]:
        text = _FENCE.sub("", self.path.read_text(encoding="utf-8"))
        test = doctest.DocTestParser().get_doctest(
            text, {"__name__": "__doc_page__"}, self.path.name, str(self.path), 0
        )
        if test.examples:
            yield MarkdownExamples.from_parent(self, name="examples", test=test)


class MarkdownExamples(pytest.Item):
    """Every example of one page, run in order."""

    def __init__(self, *, test: doctest.DocTest, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.test = test
        self.report = ""

    def runtest(self) -> None:
        runner = doctest.DocTestRunner(optionflags=FLAGS)
        lines: list[str] = []
        runner.run(self.test, out=lines.append, clear_globs=True)
        if runner.failures:
            self.report = "".join(lines)
            raise MarkdownExampleFailed(self.report)

    def repr_failure(
        self,
        excinfo: pytest.ExceptionInfo[BaseException],
        style: "str | None" = None,
    ) -> str:
        if isinstance(excinfo.value, MarkdownExampleFailed):
            return f"{self.path}: an example gives another result\n{self.report}"
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"[doctest] {self.path.name}"


class MarkdownExampleFailed(Exception):
    """An example of a page printed something other than what the page shows."""

"""Each ruling's examples tell the right reading from the wrong ones a developer could make.

``verification.plant.MISREADINGS`` holds, per ruling, wrong readings as small changes to the
code; docs/rules-as-code.md ("Readings each ruling's examples rule out") names, per ruling,
each reading and the example that rules it out. Here each reading is planted (in a process
of its own, about a CPU second) and the example the table names must fail with it.
"""

import re
from pathlib import Path

import pytest

from verification.plant import MISREADINGS, Misreading, failing_examples

ROOT = Path(__file__).resolve().parent.parent
RULES_AS_CODE = ROOT / "docs" / "rules-as-code.md"
SECTION = "## Readings each ruling's examples rule out"
ROW = re.compile(r"^\| (R\d+) \| (.+?) \| `(test_R\d+_\w+)` \|$")


def table() -> dict[str, str]:
    """The table's rows: "ruling: reading" -> the example named."""
    text = RULES_AS_CODE.read_text(encoding="utf-8")
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        found = ROW.match(line)
        if found:
            ruling, reading, example = found.groups()
            rows[f"{ruling}: {reading}"] = example
    return rows


TABLE = table()


def test_the_table_names_every_misreading_and_nothing_else() -> None:
    assert sorted(TABLE) == sorted(m.name for m in MISREADINGS)


def test_every_ruling_has_a_misreading_its_examples_rule_out() -> None:
    assert {m.rule for m in MISREADINGS} == {f"R{n}" for n in range(1, 15)}


@pytest.mark.parametrize("misreading", MISREADINGS, ids=[m.name for m in MISREADINGS])
def test_the_example_the_table_names_fails_with_the_misreading_planted(
    misreading: Misreading,
) -> None:
    named = TABLE[misreading.name]
    assert named.startswith(f"test_{misreading.rule}_")
    assert named in failing_examples(misreading)

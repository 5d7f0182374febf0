"""The outsiders (benchmarks/outsiders.py): bots by another author that the package's bots
are measured against (docs/bots.md, "Against outsiders")."""

import ast
from pathlib import Path

import pytest

from benchmarks.held_out import cells, columns, random_outsider
from benchmarks.outsiders import OUTSIDERS
from high_society import Phase, is_legal
from high_society.host import play
from high_society.scoring import result
from high_society.tournament import Entrant, tournament
from tests.test_layout import imported_packages

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_outsider_plays_only_legal_actions_to_the_end(players: int) -> None:
    names = sorted(OUTSIDERS)
    for game in range(6):
        seated = [
            OUTSIDERS[names[(game + seat) % len(names)]](game * 10 + seat)
            for seat in range(players)
        ]
        last = None
        for step in play(seated, seed=game):
            if step.before.phase in (Phase.AUCTION, Phase.DISCARD):
                assert is_legal(step.before, step.action)
            last = step.after
        assert last is not None
        assert last.is_over
        result(last)


def test_an_outsider_is_deterministic_for_its_seed() -> None:
    lineup = [Entrant(name, OUTSIDERS[name]) for name in sorted(OUTSIDERS)[:4]]
    assert tournament(lineup, 12, seed=3) == tournament(lineup, 12, seed=3)


def test_a_random_outsider_draws_every_style() -> None:
    drawn = {type(random_outsider(seed)) for seed in range(200)}
    assert drawn == set(OUTSIDERS.values())
    assert type(random_outsider(7)) is type(random_outsider(7))


def test_the_held_out_table_has_a_column_per_style_and_the_mix() -> None:
    assert [name for name, _ in columns()] == [*sorted(OUTSIDERS), "mixed"]
    wins, nobody = cells("heuristic", 3, games=6, seed=1, jobs=1)
    assert len(wins) == len(nobody) == len(OUTSIDERS) + 1
    assert all(cell.endswith("%)") for cell in wins)


def test_nothing_the_bots_learn_or_tune_from_sees_the_outsiders() -> None:
    # Held out means held out: no module of the package (training, league, lookahead, the
    # bots) and no training script imports them.
    for path in [*(ROOT / "src/high_society").rglob("*.py"), ROOT / "examples/train_league.py"]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert "benchmarks" not in imported_packages(tree), path

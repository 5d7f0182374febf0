"""The levels of the built-in bots: ordered by their measured ratings, read from the file
that the ratings command wrote, and every built-in bot once."""

import json
import shlex
from importlib import resources

import pytest

from high_society.errors import InvalidConfigError
from high_society.levels import (
    LEVELS,
    RATINGS_COMMAND,
    RATINGS_FILE,
    TIERS,
    Level,
    level_of,
)
from high_society.tournament import BUILT_IN, parse_entrant
from tests.test_docs import DOCS


def _recorded() -> dict[str, object]:
    text = resources.files("high_society").joinpath("data", RATINGS_FILE).read_text("utf-8")
    document: dict[str, object] = json.loads(text)
    return document


def _command_bots() -> list[str]:
    words = shlex.split(RATINGS_COMMAND)
    first_option = next(i for i, w in enumerate(words) if w.startswith("--"))
    return words[2:first_option]


def test_the_levels_are_in_the_order_of_the_recorded_ratings() -> None:
    document = _recorded()
    players = document["players"]
    assert isinstance(players, dict)
    assert sorted(players) == ["3", "4", "5"]
    mean: dict[str, float] = {}
    for rows in players.values():
        for row in rows:
            mean[row["name"]] = mean.get(row["name"], 0.0) + row["mu"] / len(players)
    expected = sorted(mean, key=mean.__getitem__)
    assert [level.name for level in LEVELS] == expected
    assert [level.level for level in LEVELS] == list(range(1, len(LEVELS) + 1))
    ratings = [level.rating for level in LEVELS]
    assert ratings == sorted(ratings)
    for level in LEVELS:
        assert level.rating == pytest.approx(mean[level.name])
        for count, rows in players.items():
            (row,) = [r for r in rows if r["name"] == level.name]
            measured = level.rating_at(int(count))
            assert (measured.mu, measured.low, measured.high) == (
                row["mu"],
                row["low"],
                row["high"],
            )
            assert measured.low <= measured.mu <= measured.high


def test_the_recorded_ratings_come_from_the_command_the_registry_names() -> None:
    document = _recorded()
    words = shlex.split(RATINGS_COMMAND)
    assert words[:2] == ["high-society", "ratings"]
    assert f"--games {document['games']}" in RATINGS_COMMAND
    assert f"--seed {document['seed']}" in RATINGS_COMMAND
    assert "--json" in words
    players = document["players"]
    assert isinstance(players, dict)
    for rows in players.values():
        assert sorted(row["name"] for row in rows) == sorted(_command_bots())


def test_every_built_in_bot_is_a_level_once_and_can_be_made() -> None:
    names = [level.name for level in LEVELS]
    assert sorted(names) == sorted({*BUILT_IN, "lookahead"})
    for level in LEVELS:
        assert parse_entrant(level.entrant).factory(0) is not None
        assert level.plays.endswith(".")
        assert len(level.plays) <= 160


def test_the_words_of_the_levels_rise_with_them() -> None:
    ranks = [TIERS.index(level.tier) for level in LEVELS]
    assert ranks == sorted(ranks)
    assert LEVELS[0].tier == TIERS[0]
    assert LEVELS[-1].tier == TIERS[-1]


def test_a_level_is_found_by_its_bot_and_an_unknown_one_is_refused() -> None:
    assert isinstance(level_of("heuristic"), Level)
    assert level_of("heuristic").name == "heuristic"
    with pytest.raises(InvalidConfigError, match="no level for 'nobody'"):
        level_of("nobody")
    with pytest.raises(InvalidConfigError, match="at 6 players"):
        LEVELS[0].rating_at(6)


def test_the_docs_show_the_levels_as_recorded() -> None:
    # The page's table is made by the bot-levels directive (docs/_made.py) from LEVELS and
    # the ratings it reads, with RATINGS_COMMAND under it: it cannot drift from them.
    text = (DOCS / "bots.md").read_text(encoding="utf-8")
    assert "```{bot-levels}\n```" in text
    made = (DOCS / "_made.py").read_text(encoding="utf-8")
    assert "RATINGS_COMMAND" in made
    assert "LEVELS" in made

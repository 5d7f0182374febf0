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
from tests.pages import DOCS, WORDS, docs_page


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


def test_the_bots_page_counts_the_rated_bots_and_their_games() -> None:
    told = docs_page("bots.md")
    assert f"(the {WORDS[len(LEVELS)]} bots, seats drawn at random," in told
    assert f"At {_recorded()['games']} games per count neighbours' intervals overlap" in told


def test_the_bots_page_gives_every_knob_of_the_search_bot_with_its_default() -> None:
    import inspect
    import re

    from high_society.search import SearchBot

    text = (DOCS / "bots.md").read_text(encoding="utf-8")
    start = text.index("| knob | default | what it does |")
    table = text[start : text.index("\n\n", start)]
    rows = re.findall(r"^\| `(\w+)` \| ([^|]+?) \|", table, re.MULTILINE)
    parameters = inspect.signature(SearchBot).parameters
    # The rollout is told beside the table; the clock is for tests (no option of the CLI).
    knobs = [name for name in parameters if name not in ("rollout", "clock")]
    assert [name for name, _ in rows] == knobs
    for name, default in rows:
        assert default.strip("`") == repr(parameters[name].default), name
    told = docs_page("bots.md")
    assert f'`rollout="{parameters["rollout"].default}"` (default)' in told


def test_the_bots_page_gives_every_knob_of_the_lookahead_bot_with_its_default() -> None:
    import inspect
    import re

    from high_society.lookahead import MAX_ROLLOUTS, LookaheadBot

    told = docs_page("bots.md")
    start = told.index("Knobs: `seed`")
    knobs = dict(re.findall(r"`(\w+)` \(([^()]*)\)", told[start : told.index(". In a", start)]))
    parameters = inspect.signature(LookaheadBot).parameters
    assert list(knobs) == list(parameters)
    for name, parameter in parameters.items():
        if parameter.default is not None:
            assert knobs[name].endswith(f"default {parameter.default}"), name
    assert knobs["rollouts"].startswith(f"1 to {MAX_ROLLOUTS:,};")
    assert knobs["network"].endswith("default the shipped one")
    assert f"games per candidate ({parameters['rollouts'].default} by default)" in told


def test_the_bots_page_lists_every_stranger_with_its_prices() -> None:
    import re

    from high_society.strangers import STRANGERS

    text = (DOCS / "bots.md").read_text(encoding="utf-8")
    start = text.index("| stranger | style |")
    table = text[start : text.index("\n\n", start)]
    rows = dict(re.findall(r"^\| `(\w+)` \| (.+) \|$", table, re.MULTILINE))
    assert list(rows) == list(STRANGERS)
    assert f"holds {WORDS[len(STRANGERS)]} styles" in docs_page("bots.md")
    value, collector = STRANGERS["value_bidder"], STRANGERS["collector"]
    assert rows["value_bidder"].startswith(
        f"fair prices (luxury {value.luxury_rate:g} v + {value.luxury_base:g}, prestige "
        f"{value.prestige_base:g} + L/{1 / value.prestige_rate:g}), keeps {value.floor:.0%} "
    )
    assert STRANGERS["thrifty"].floor == 0.5
    assert rows["thrifty"].endswith("keeps half its money")
    assert rows["collector"].startswith(
        f"luxury dear ({collector.luxury_rate:g} v + {collector.luxury_base:g})"
    )
    late = STRANGERS["late_spender"]
    assert late.early == 0.5
    assert rows["late_spender"].startswith("half prices")
    assert rows["late_spender"].endswith(f", {late.late:g} times after")
    assert STRANGERS["careful"].margin == 0.0
    assert not STRANGERS["careful"].counts_bids
    assert rows["careful"].endswith("never bids to become the poorest seat, counting hands only")
    assert not STRANGERS["keeper"].counts_bids
    assert rows["keeper"].endswith(
        f"keeps {STRANGERS['keeper'].margin:g} clear of the poorest other seat's hand"
    )
    assert STRANGERS["noisy"].noise == 0.5
    assert rows["noisy"].startswith("a value bidder whose prices swing by half either way")

"""Tournaments: seats rotated, seeds per game, the table, bot names, ``high-society tournament``.

That the table does not depend on the executor (1 job, 2 jobs, a Dask cluster) is in
tests/test_parallel.py.
"""

import functools
import io
import json
import subprocess
import sys
from argparse import Namespace
from fractions import Fraction
from pathlib import Path

import pytest

from high_society import (
    Action,
    GameState,
    InvalidConfigError,
    result,
)
from high_society.bots import CautiousBot, ClassicHeuristicBot, HeuristicBot, PassBot, RandomBot
from high_society.cli import main
from high_society.cli.tournament import format_table, run
from high_society.host import play_game
from high_society.learned import LearnedBot
from high_society.parallel import game_seed
from high_society.search import SearchBot
from high_society.tournament import Entrant, parse_entrant, tournament, wilson_interval

LINEUP = (
    Entrant("random", RandomBot),
    Entrant("heuristic", HeuristicBot),
    Entrant("bold", functools.partial(HeuristicBot, boldness=1.5)),
)


def test_each_game_is_the_documented_one_with_seats_rotated() -> None:
    games, seed, n = 7, 3, len(LINEUP)
    table = tournament(LINEUP, games, seed)
    wins = [0] * n
    cast_out = [0] * n
    status = [Fraction(0)] * n
    for index in range(games):
        # Entrant k sits at seat (k + index) % n, its bot seeded game_seed(seed, index, 1 + k).
        seat_of = [(k + index) % n for k in range(n)]
        by_seat = sorted(range(n), key=seat_of.__getitem__)
        bots = [LINEUP[k].factory(game_seed(seed, index, 1 + k)) for k in by_seat]
        final, _ = play_game(bots, seed=game_seed(seed, index))
        outcome = result(final)
        for k in range(n):
            wins[k] += seat_of[k] in outcome.winners
            cast_out[k] += seat_of[k] in outcome.cast_out
            status[k] += outcome.scores[seat_of[k]]
    assert [row.wins for row in table.rows] == wins
    assert [row.cast_out for row in table.rows] == cast_out
    assert [row.status_total for row in table.rows] == status
    assert [row.name for row in table.rows] == ["random", "heuristic", "bold"]


def test_over_a_multiple_of_the_players_every_entrant_sits_everywhere_equally() -> None:
    seats: list[tuple[str, int]] = []

    class Recorder:
        def __init__(self, name: str, seed: int) -> None:
            self.name, self.inner, self.seen = name, RandomBot(seed), False

        def choose(self, state: GameState) -> Action:
            if not self.seen:
                self.seen = True
                seats.append((self.name, state.turn))
            return self.inner.choose(state)

    lineup = [Entrant(name, functools.partial(Recorder, name)) for name in "abcd"]
    tournament(lineup, 8, seed=2)
    # Only a seat that acts is recorded; in 8 games of 4 every bot acts in every seat.
    for name in "abcd":
        assert sorted(seat for who, seat in seats if who == name) == [0, 0, 1, 1, 2, 2, 3, 3]


def test_the_table_sums_up_wins_shared_wins_and_decisions() -> None:
    table = tournament(LINEUP, 12, seed=1)
    assert all(row.games == 12 for row in table.rows)
    assert 0 <= table.no_winner <= 12
    assert sum(row.wins for row in table.rows) >= 12 - table.no_winner
    assert all(0 <= row.shared_wins <= row.wins for row in table.rows)
    assert all(row.decisions > 0 for row in table.rows)
    first = table.rows[0]
    assert first.win_rate == first.wins / 12
    assert first.win_interval == wilson_interval(first.wins, 12)
    assert first.cast_out_rate == first.cast_out / 12
    assert first.mean_status == float(first.status_total / 12)


def test_a_tournament_is_deterministic_for_a_seed() -> None:
    assert tournament(LINEUP, 6, seed=4) == tournament(LINEUP, 6, seed=4)
    assert tournament(LINEUP, 6, seed=4) != tournament(LINEUP, 6, seed=5)


@pytest.mark.parametrize("size", [2, 6])
def test_a_tournament_needs_three_to_five_entrants(size: int) -> None:
    with pytest.raises(InvalidConfigError, match="3 to 5 bots"):
        tournament([LINEUP[0]] * size, 1, seed=1)


@pytest.mark.parametrize("games", [-1, 1.5, True])
def test_a_tournament_refuses_a_bad_number_of_games(games: object) -> None:
    with pytest.raises(InvalidConfigError, match="number of games"):
        tournament(LINEUP, games, seed=1)  # type: ignore[arg-type]


def test_a_tournament_refuses_a_seed_that_is_not_an_int() -> None:
    with pytest.raises(InvalidConfigError, match="seed"):
        tournament(LINEUP, 1, seed="1")  # type: ignore[arg-type]


def test_no_games_give_an_empty_table() -> None:
    table = tournament(LINEUP, 0, seed=1)
    assert [row.games for row in table.rows] == [0, 0, 0]
    assert table.rows[0].win_rate == 0.0
    assert table.rows[0].win_interval == (0.0, 1.0)


def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson_interval(40, 100)
    assert (round(low, 4), round(high, 4)) == (0.3094, 0.4980)
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_bot_names_make_the_built_in_bots() -> None:
    assert parse_entrant("random").factory is RandomBot
    assert parse_entrant("heuristic").factory is HeuristicBot
    assert parse_entrant("search").factory is SearchBot
    by_count = parse_entrant("search@25").factory
    assert isinstance(by_count, functools.partial)
    assert by_count.keywords == {"simulations": 25}
    by_time = parse_entrant("search@0.25s").factory
    assert isinstance(by_time, functools.partial)
    assert by_time.keywords == {"simulations": None, "seconds": 0.25}


def test_options_are_typed_and_passed_to_the_factory() -> None:
    entrant = parse_entrant("search@7,exploration=0.25,depth=1,cards_per_total=1")
    assert isinstance(entrant.factory, functools.partial)
    assert entrant.factory.keywords == {
        "simulations": 7,
        "exploration": 0.25,
        "depth": 1,
        "cards_per_total": 1,
    }
    assert entrant.name == "search@7,exploration=0.25,depth=1,cards_per_total=1"
    bold = parse_entrant("heuristic,boldness=2")
    assert isinstance(bold.factory, functools.partial)
    assert bold.factory.keywords == {"boldness": 2}
    for name, factory in (
        ("classic", ClassicHeuristicBot),
        ("cautious", CautiousBot),
        ("pass", PassBot),
        ("learned", LearnedBot),
    ):
        assert parse_entrant(name).factory is factory


def test_option_values_are_ints_floats_bools_none_or_text(tmp_path: Path) -> None:
    module = tmp_path / "styled_bots.py"
    module.write_text(
        "from high_society.bots import PassBot\n"
        "class Styled(PassBot):\n"
        "    def __init__(self, seed, **options):\n"
        "        super().__init__(seed)\n"
        "        self.options = options\n"
    )
    sys.path.insert(0, str(tmp_path))
    try:
        entrant = parse_entrant(
            "styled_bots:Styled,style=aggressive,risk=0.3,rounds=4,loud=true,quiet=False,"
            "limit=none,big=1e3,odd=inf"
        )
        bot = entrant.factory(1)
        assert bot.options == {  # type: ignore[union-attr]
            "style": "aggressive",
            "risk": 0.3,
            "rounds": 4,
            "loud": True,
            "quiet": False,
            "limit": None,
            "big": 1000.0,
            "odd": "inf",  # not a finite number: kept as text
        }
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("styled_bots", None)


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        ("1 / 0", "ZeroDivisionError: division by zero"),
        ("import sys\nsys.exit(0)", "SystemExit: 0"),
        ("raise KeyboardInterrupt", "KeyboardInterrupt"),
        ("raise RuntimeError('no table here')", "RuntimeError: no table here"),
    ],
)
def test_a_module_that_fails_on_import_is_refused_not_raised(
    tmp_path: Path, source: str, shown: str
) -> None:
    # Whatever an import raises, an error or SystemExit, the name is refused with the
    # documented error (once a raw traceback; SystemExit ended the program with success).
    name = f"failing_bots_{abs(hash(source))}"
    (tmp_path / f"{name}.py").write_text(source + "\nclass Bot: pass\n")
    sys.path.insert(0, str(tmp_path))
    try:
        with pytest.raises(InvalidConfigError, match=f"cannot load bot .*{shown}"):
            parse_entrant(f"{name}:Bot")
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop(name, None)


@pytest.mark.parametrize("spec", ["sys:exit", "builtins:exit", "builtins:quit"])
def test_a_factory_that_ends_the_program_is_refused_cleanly(spec: str) -> None:
    # sys:exit as a bot once ended `high-society tournament` at once with status 0.
    with pytest.raises(InvalidConfigError, match="cannot be made from a seed"):
        parse_entrant(spec)


def test_the_command_refuses_sys_exit_with_a_message_and_a_failure() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "high_society", "tournament", "sys:exit", "random", "random"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0
    assert "cannot be made from a seed: SystemExit" in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""


def test_a_module_and_class_name_loads_any_bot() -> None:
    entrant = parse_entrant("high_society.bots:HeuristicBot")
    assert entrant.factory is HeuristicBot
    assert entrant.name == "high_society.bots:HeuristicBot"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nobody", "unknown bot"),
        ("random@5", "unknown bot"),
        ("heuristic,boldness", "bad option 'boldness'"),
        ("heuristic,=3", "bad option"),
        ("heuristic,_private=3", "bad option"),
        ("heuristic,boldness=1,boldness=2", "option 'boldness' given twice"),
        ("heuristic,bold=2", "has no option 'bold' \\(its options: boldness\\)"),
        ("heuristic,boldness=0", "boldness must be a number > 0, not 0"),
        ("heuristic,boldness=fast", "boldness must be a number > 0"),
        ("random,seed=3", "has no option 'seed' \\(its options: none\\)"),
        ("search,clock=1", "has no option 'clock'"),
        ("search@20,simulations=5", "has no option 'simulations'"),
        ("search,depth=0", "depth must be"),
        ("search,rollout=smart", "rollout must be 'heuristic' or 'classic'"),
        ("high_society.bots:HeuristicBot,nerve=2", "has no option 'nerve'"),
        ("search@0", "bad search budget"),
        ("search@-3s", "bad search budget"),
        ("search@fast", "bad search budget"),
        ("no_such_module_xyz:Bot", "cannot load"),
        ("high_society.bots:NoSuchBot", "cannot load"),
        ("high_society.bots:__doc__", "not a class or function"),
        ("high_society.cards:GameConfig", "cannot be made from a seed"),
        ("high_society.bots:Bot", "cannot be made from a seed"),
        ("builtins:int", "without a choose or choose_seen method"),
    ],
)
def test_bad_bot_names_are_refused(spec: str, message: str) -> None:
    with pytest.raises(InvalidConfigError, match=message):
        parse_entrant(spec)


def args(*bots: str, games: int = 6, json_: bool = False) -> Namespace:
    return Namespace(bots=list(bots), games=games, seed=1, jobs=1, json=json_)


def test_the_command_prints_one_row_per_bot_in_order() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert run(args("random", "heuristic", "search@5"), out, err) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("6 games, 3 players, seats rotated, seed 1")
    names = [line.split()[0] for line in lines[4:7]]
    assert names == ["random", "heuristic", "search@5"]
    assert err.getvalue() == ""  # no progress bar when standard error is not a terminal


def test_the_command_prints_json_for_programs() -> None:
    out = io.StringIO()
    assert run(args("random", "heuristic", "heuristic", json_=True), out, io.StringIO()) == 0
    data = json.loads(out.getvalue())
    expected = tournament(
        [parse_entrant(s) for s in ("random", "heuristic", "heuristic")], 6, seed=1
    ).as_dict()
    del data["seconds"], expected["seconds"]
    for row in [*data["bots"], *expected["bots"]]:  # type: ignore[misc]
        del row["seconds_per_decision"], row["max_seconds_per_decision"]
    assert data == expected
    assert [bot["name"] for bot in data["bots"]] == ["random", "heuristic", "heuristic"]


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_command_shows_a_progress_bar_on_a_terminal() -> None:
    err = FakeTerminal()
    assert run(args("random", "random", "random", games=16), io.StringIO(), err) == 0
    shown = err.getvalue()
    assert "16/16 games" in shown
    assert shown.endswith("\r\033[K")  # the bar is wiped before the table


def test_format_table_names_the_columns() -> None:
    lines = format_table(tournament(LINEUP, 3, seed=1))
    assert lines[2].split() == [
        "bot",
        "wins",
        "95%",
        "interval",
        "shared",
        "cast",
        "out",
        "status",
        "ms/move",
        "max",
        "ms",
    ]


def test_the_command_line_reports_bad_bots_as_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "random", "random", "nobody"]) == 1
    assert "unknown bot 'nobody'" in capsys.readouterr().err
    assert main(["tournament", "random", "random"]) == 1
    assert "3 to 5 bots" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("option", "said"),
    [
        (["--games", "0"], "argument --games: must be from 1 to"),
        (["--jobs", "-1"], "argument --jobs: must be from 0 to 1,024, not -1"),
        (["--seed", "x"], "argument --seed: not a whole number: 'x'"),
        (["--seed", str(2**63)], "argument --seed: must be from 0 to 9,223,372,036,854,775,807"),
    ],
)
def test_the_command_line_refuses_bad_options(
    option: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tournament", "random", "random", "random", *option]) == 2
    err = capsys.readouterr().err
    assert said in err
    assert err.count("\n") <= 4  # the usage and one line: no list of 1,025 choices


def test_the_learned_bot_without_numpy_is_refused_not_raised(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "high_society.learned", None)  # import fails
    with pytest.raises(InvalidConfigError, match="bot 'learned' cannot be loaded"):
        parse_entrant("learned")

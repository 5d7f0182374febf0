"""Recorded games v1: reading, writing, replay, validation and the shipped JSON Schemas.

:data:`CASES` holds one bad record per code (malformed input and every engine reason a
record can meet); ``test_cli_validate.py`` runs the same table through the command line.
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import attrs
import jsonschema  # type: ignore[import-untyped]  # no stubs; a dev dependency only
import pytest

from high_society import (
    Bid,
    IllegalActionError,
    Pass,
    Reason,
    RecordError,
    Reveal,
    StatusCard,
    apply,
    new_game,
    result,
)
from high_society.bots import HeuristicBot, RandomBot
from high_society.errors import RecordCode
from high_society.host import play_game
from high_society.record import (
    MAX_RECORD_BYTES,
    GameRecord,
    RecordWriter,
    action_schema,
    dumps_record,
    loads_record,
    read_record,
    record_from_json,
    record_schema,
    record_to_json,
    replay,
    validate_file,
    validate_record,
    write_record,
)
from high_society.serial import JSON

DATA = Path(__file__).parent / "data" / "records"
NAMES = ["Ada", "Ben", "Cy"]


# --- Building documents ----------------------------------------------------------------------


def R(card: str) -> JSON:
    return {"type": "reveal", "card": card}


def B(player: JSON, *cards: JSON) -> JSON:
    return {"type": "bid", "player": player, "cards": list(cards)}


def P(player: JSON) -> JSON:
    return {"type": "pass", "player": player}


def D(player: JSON, card: str) -> JSON:
    return {"type": "discard", "player": player, "card": card}


def doc(moves: list[JSON], players: JSON = None, **top: JSON) -> str:
    """A record's JSON text; ``top`` adds or replaces top-level keys (``None`` drops one)."""
    data: dict[str, JSON] = {
        "format": "high-society",
        "version": 1,
        "players": NAMES if players is None else players,  # type: ignore[dict-item]
        "actions": moves,
    }
    for key, value in top.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return json.dumps(data)


#: Ada wins luxury 7 for 1; then Faux Pas, which Ada takes: a discard is due.
ADA_WINS_L7 = [R("luxury-7"), B(0, 1), P(1), P(2)]
FAUX_PAS_TO_ADA = [*ADA_WINS_L7, R("faux-pas"), P(0)]
#: A whole game in fourteen actions: the three prestige cards go free, Scandale ends it (R9).
SHORT_GAME = [
    *ADA_WINS_L7,
    R("prestige"),
    P(0),
    P(1),  # Cy gets it free and starts the next round
    R("prestige"),
    P(2),
    P(0),  # Ben
    R("prestige"),
    P(1),
    P(2),  # Ada
    R("scandale"),
]


@attrs.frozen
class Case:
    """A bad record: its text, and the code, index and path the error must carry."""

    name: str
    text: str
    code: str
    index: int | None
    path: str
    #: Whether the shipped JSON Schema refuses it too (it sees the form, not legality).
    schema_refuses: bool
    message: str = ""


def case(
    name: str,
    text: str,
    code: str,
    index: int | None,
    path: str,
    schema: bool,
    message: str = "",
) -> Case:
    return Case(name, text, code, index, path, schema, message)


_C = RecordCode
# fmt: off
CASES: list[Case] = [
    # Outside the actions: index None.
    case("empty", "", _C.NOT_JSON, None, "$", True),
    case("not json", "hello", _C.NOT_JSON, None, "$", True),
    case("truncated", doc([R("prestige")])[:-3], _C.NOT_JSON, None, "$", True),
    case("NaN", doc([], meta={"x": 1}).replace("1}", "NaN}"), _C.NOT_JSON, None, "$", True),
    case("top level list", "[]", _C.BAD_TOP_LEVEL, None, "$", True),
    case("top level string", '"high-society"', _C.BAD_TOP_LEVEL, None, "$", True),
    case("no format", doc([], format=None), _C.BAD_FORMAT, None, "$.format", True),
    case("other format", doc([], format="chess"), _C.BAD_FORMAT, None, "$.format", True),
    case("version 2", doc([], version=2), _C.BAD_VERSION, None, "$.version", True),
    case('version "1"', doc([], version="1"), _C.BAD_VERSION, None, "$.version", True),
    case("version true", doc([], version=True), _C.BAD_VERSION, None, "$.version", True),
    case("version 1.0", doc([], version=1.0), _C.BAD_VERSION, None, "$.version", False),
    case("no version", doc([], version=None), _C.BAD_VERSION, None, "$.version", True),
    case("unknown top key", doc([], extra=1), _C.UNKNOWN_KEY, None, "$.extra", True),
    case("no actions", doc([], actions=None), _C.MISSING_KEY, None, "$.actions", True),
    case("no players", doc([], players=None).replace('"players": ["Ada", "Ben", "Cy"], ', ""),
         _C.MISSING_KEY, None, "$.players", True),
    case("actions object", doc([], actions={}), _C.WRONG_TYPE, None, "$.actions", True),
    case("meta list", doc([], meta=[1]), _C.WRONG_TYPE, None, "$.meta", True),
    case("2 players", doc([], ["Ada", "Ben"]), _C.BAD_PLAYERS, None, "$.players", True),
    case("6 players", doc([], [*"ABCDEF"]), _C.BAD_PLAYERS, None, "$.players", True),
    case("same name", doc([], ["Ada", "Ben", "Ada"]), _C.BAD_PLAYERS, None, "$.players[2]",
         True, 'the name "Ada" is given to two seats'),
    case("empty name", doc([], ["Ada", "", "Cy"]), _C.BAD_PLAYERS, None, "$.players[1]", True),
    case("name 7", doc([], ["Ada", 7, "Cy"]), _C.BAD_PLAYERS, None, "$.players[1]", True),
    # Names are printed by `validate`: nothing in one may forge a line or reach the terminal.
    case("name with a newline", doc([], ["Ada", "Ben\nfake.json: valid", "Cy"]),
         _C.BAD_PLAYERS, None, "$.players[1]", True),
    case("name with ANSI", doc([], ["Ada", "\x1b[31mBen", "Cy"]), _C.BAD_PLAYERS, None,
         "$.players[1]", True),
    case("name with NUL", doc([], ["Ada", "Ben\x00", "Cy"]), _C.BAD_PLAYERS, None,
         "$.players[1]", True, "a player's name must not hold control characters, such as"
         " U+0000 (a control character)"),
    case("name with C1 CSI", doc([], ["Ada", "Ben\x9b31m", "Cy"]), _C.BAD_PLAYERS, None,
         "$.players[1]", True),
    case("name with bidi override", doc([], ["Ada", "\u202eneB", "Cy"]), _C.BAD_PLAYERS,
         None, "$.players[1]", True),
    case("name of spaces", doc([], ["Ada", " \u3000 ", "Cy"]), _C.BAD_PLAYERS, None,
         "$.players[1]", True, "a player's name must not be only spaces"),
    case("name of 65 characters", doc([], ["Ada", "B" * 65, "Cy"]), _C.BAD_PLAYERS, None,
         "$.players[1]", True, "a player's name must be at most 64 characters, not 65"),
    case("players string", doc([], "Ada"), _C.BAD_PLAYERS, None, "$.players", True),
    case("duplicate key", doc([]).replace("{", '{"version": 1, ', 1), _C.DUPLICATE_KEY, None,
         "$", False),
    case("deep meta", doc([], meta={"a": 1}).replace("1}", "[" * 70 + "]" * 70 + "}"),
         _C.TOO_DEEP, None, "$.meta.a" + "[0]" * 62, False),
    case("huge number", doc([], meta={"n": 1}).replace('"n": 1', '"n": ' + "9" * 5000),
         _C.BAD_NUMBER, None, "$.meta.n", False),
    case("lone surrogate", doc([], ["Ada", "Ben", "C\\ud800"]).replace("\\\\", "\\"),
         _C.NOT_UTF8, None, "$.players[2]", False),
    # Malformed actions: index set.
    case("action list", doc([R("prestige"), []]), _C.WRONG_TYPE, 1, "$.actions[1]", True),
    case("action without type", doc([{"player": 0}]), _C.MISSING_KEY, 0, "$.actions[0].type",
         True),
    case("unknown type", doc([{"type": "shuffle"}]), Reason.NOT_AN_ACTION, 0,
         "$.actions[0].type", True),
    case("unknown action key", doc([R("prestige"), {"type": "pass", "player": 0, "seat": 0}]),
         _C.UNKNOWN_KEY, 1, "$.actions[1].seat", True),
    case("missing cards", doc([R("prestige"), {"type": "bid", "player": 0}]), _C.MISSING_KEY,
         1, "$.actions[1].cards", True),
    case("seat true", doc([R("prestige"), P(True)]), _C.WRONG_TYPE, 1, "$.actions[1].player",
         True, "a seat must be an integer, not true"),
    case("seat 0.0", doc([R("prestige"), P(0.0)]), _C.WRONG_TYPE, 1, "$.actions[1].player",
         False, "a seat must be an integer, not the number 0.0"),
    case("money true", doc([R("prestige"), B(0, True)]), _C.WRONG_TYPE, 1,
         "$.actions[1].cards[0]", True),
    case("money 3.0", doc([R("prestige"), B(0, 1, 3.0)]), _C.WRONG_TYPE, 1,
         "$.actions[1].cards[1]", False),
    case("same card twice", doc([R("prestige"), B(0, 1, 1)]), _C.DUPLICATE_CARD, 1,
         "$.actions[1].cards[1]", True),
    case("unknown card", doc([R("luxury-11")]), _C.UNKNOWN_CARD, 0, "$.actions[0].card", True),
    case("card by label", doc([R("Prestige")]), _C.UNKNOWN_CARD, 0, "$.actions[0].card", True),
    case("after the end", doc([*SHORT_GAME, P(0)]), _C.ACTION_AFTER_END, 14, "$.actions[14]",
         False, "the game ended with action 13: nothing may follow it (R9)"),
    case("malformed after the end", doc([*SHORT_GAME, []]), _C.ACTION_AFTER_END, 14,
         "$.actions[14]", True),
    # Illegal actions: the engine's reason, with the players' names.
    case("pass before a reveal", doc([P(0)]), Reason.REVEAL_DUE, 0, "$.actions[0].type", False,
         "Ada cannot pass: a status card must be revealed first"),
    case("two reveals", doc([R("luxury-1"), R("luxury-2")]), Reason.REVEAL_NOT_DUE, 1,
         "$.actions[1].type", False, "cannot reveal Luxury 2: Ada must act first"),
    case("revealed twice", doc([R("luxury-1"), P(0), P(1), R("luxury-1")]),
         Reason.CARD_NOT_IN_DECK, 3, "$.actions[3].card", False),
    case("seat 3 of 3", doc([R("luxury-7"), P(3)]), Reason.INVALID_SEAT, 1,
         "$.actions[1].player", False),
    case("huge seat", doc([R("luxury-7"), P(10**30)]), _C.BAD_NUMBER, 1, "$.actions[1].player",
         True),
    case("seat 2**63", doc([R("luxury-7"), P(2**63)]), _C.BAD_NUMBER, 1, "$.actions[1].player",
         True),
    case("seat 2**63 - 1", doc([R("luxury-7"), P(2**63 - 1)]), Reason.INVALID_SEAT, 1,
         "$.actions[1].player", True),
    case("seat -1", doc([R("luxury-7"), P(-1)]), Reason.INVALID_SEAT, 1,
         "$.actions[1].player", True),
    case("money 5", doc([R("luxury-7"), B(0, 1, 5)]), Reason.INVALID_CARD, 1,
         "$.actions[1].cards[1]", True),
    case("empty bid", doc([R("luxury-7"), B(0)]), Reason.EMPTY_BID, 1, "$.actions[1].cards",
         True, "Ada cannot bid nothing: a bid adds at least one card"),
    case("out of turn", doc([R("luxury-7"), P(1)]), Reason.NOT_YOUR_TURN, 1,
         "$.actions[1].player", False, "Ben cannot pass: it is Ada's turn"),
    case("passed before", doc([R("luxury-7"), P(0), B(1, 1), P(0)]), Reason.ALREADY_PASSED,
         3, "$.actions[3].player", False),
    case("discard in an auction", doc([R("luxury-7"), D(0, "luxury-7")]),
         Reason.NO_DISCARD_DUE, 1, "$.actions[1].type", False),
    case("reveal before discard", doc([*FAUX_PAS_TO_ADA, R("prestige")]),
         Reason.REVEAL_NOT_DUE, 6, "$.actions[6].type", False),
    case("pass before discard", doc([*FAUX_PAS_TO_ADA, P(0)]), Reason.DISCARD_DUE, 6,
         "$.actions[6].type", False),
    case("discard not owned", doc([*FAUX_PAS_TO_ADA, D(0, "luxury-3")]),
         Reason.NOT_A_LUXURY_YOU_OWN, 6, "$.actions[6].card", False,
         "Ada cannot discard Luxury 3: it is not a luxury card they own"),
    case("discard prestige", doc([*FAUX_PAS_TO_ADA, D(0, "prestige")]),
         Reason.NOT_A_LUXURY_YOU_OWN, 6, "$.actions[6].card", True),
    case("card already bid", doc([R("luxury-7"), B(0, 1), B(1, 2), B(2, 3), B(0, 4, 1)]),
         Reason.CARD_ALREADY_BID, 4, "$.actions[4].cards[1]", False),
    case("card spent", doc([*ADA_WINS_L7, R("luxury-8"), B(0, 2, 1)]),
         Reason.CARD_NOT_IN_HAND, 5, "$.actions[5].cards[1]", False,
         "Ada cannot bid 1: not in their hand (spent earlier)"),
    case("bid too low", doc([R("luxury-7"), B(0, 2), B(1, 1)]), Reason.BID_TOO_LOW, 2,
         "$.actions[2].cards", False, "Ben cannot bid 1: the highest bid is 2"),
    case("illegal before malformed", doc([R("luxury-7"), P(1), P(True)]),
         Reason.NOT_YOUR_TURN, 1, "$.actions[1].player", True),
    case("malformed before illegal", doc([R("luxury-7"), P(True), P(1)]), _C.WRONG_TYPE, 1,
         "$.actions[1].player", True),
]
# fmt: on

#: Engine reasons that no record can carry: the reader builds only actions of the four
#: kinds with status cards (NOT_AN_ACTION is used for an unknown "type" instead, INVALID_CARD
#: only for money), and an action after the end is ACTION_AFTER_END, not GAME_OVER.
UNREACHABLE_IN_RECORDS = {Reason.GAME_OVER}


def test_the_table_covers_every_code() -> None:
    codes = {c.code for c in CASES}
    # files read and written, sizes, states
    reachable_in_memory = {_C.UNREADABLE, _C.UNWRITABLE, _C.TOO_LARGE, _C.BAD_STATE}
    # a table server's requests, not records (tests/test_server_api.py)
    reachable_in_memory.add(_C.UNKNOWN_BOT)
    assert codes | reachable_in_memory == set(RecordCode) | set(Reason) - UNREACHABLE_IN_RECORDS
    assert len({c.name for c in CASES}) == len(CASES)


READ_FINDS_THE_FORM_FIRST = {"malformed after the end", "illegal before malformed"}


@pytest.mark.parametrize("bad", CASES, ids=lambda c: c.name)
def test_validation_reports_the_first_problem(bad: Case) -> None:
    validation = validate_record(bad.text)
    assert not validation.valid
    assert validation.record is None
    assert validation.state is None
    assert validation.result is None
    error = validation.error
    assert error is not None
    assert (error.code, error.index, error.path) == (bad.code, bad.index, bad.path)
    if bad.message:
        assert error.message == bad.message
    assert error.message
    assert "\n" not in error.message


@pytest.mark.parametrize("bad", CASES, ids=lambda c: c.name)
def test_reading_then_replaying_raises_the_same_error(bad: Case) -> None:
    with pytest.raises(RecordError) as caught:
        replay(loads_record(bad.text))
    error = caught.value
    if bad.name in READ_FINDS_THE_FORM_FIRST:
        # Reading checks the form of every action before replay sees the first illegal one.
        assert error.code == RecordCode.WRONG_TYPE
        return
    assert (error.code, error.index) == (bad.code, bad.index)
    # Replaying a record object knows the cards in ascending order, not as written.
    if bad.name not in {"card already bid", "card spent", "money 5"}:
        assert error.path == bad.path


def test_the_illegal_action_error_is_kept_as_the_cause() -> None:
    validation = validate_record(doc([R("luxury-7"), B(0, 2), B(1, 1)]))
    assert validation.error is not None
    cause = validation.error.__cause__
    assert isinstance(cause, IllegalActionError)
    assert cause.reason is Reason.BID_TOO_LOW
    assert cause.state.highest_bid == 2


# --- Valid records ---------------------------------------------------------------------------


def test_the_old_name_of_the_action_count_still_works_and_warns() -> None:
    validation = validate_record(doc(SHORT_GAME))
    with pytest.warns(DeprecationWarning, match="action_count"):
        assert validation.actions == validation.action_count == 14


def test_a_finished_game_validates_with_its_result() -> None:
    validation = validate_record(doc(SHORT_GAME, meta={"event": "club night"}))
    assert validation.valid
    assert validation.finished
    assert validation.action_count == 14
    outcome = validation.result
    assert outcome is not None
    assert outcome.money == (105, 106, 106)
    assert outcome.cast_out == (0,)
    assert outcome.winners == (1, 2)  # equal status, money and top luxury: a shared win (R12)
    assert validation.record is not None
    assert validation.record.meta == {"event": "club night"}
    assert validation.to_json("g.json") == {
        "file": "g.json",
        "valid": True,
        "finished": True,
        "actions": 14,
        "result": {
            "scores": [14, 0, 0],
            "money": [105, 106, 106],
            "cast_out": [0],
            "winners": [1, 2],
        },
    }


def test_an_unfinished_game_is_valid() -> None:
    validation = validate_record(doc(FAUX_PAS_TO_ADA))
    assert validation.valid
    assert not validation.finished
    assert validation.result is None
    assert validation.state is not None
    # Ada took Faux Pas owning Luxury 7: she holds it and must discard (R8); it waits for
    # no luxury card.
    assert validation.state.players[0].holds_faux_pas
    assert not validation.state.players[0].faux_pas_waits_for_luxury
    assert validation.to_json("g.json") == {
        "file": "g.json",
        "valid": True,
        "finished": False,
        "actions": 6,
        "result": None,
    }


def test_an_empty_game_is_valid() -> None:
    validation = validate_record(doc([]))
    assert validation.valid
    assert validation.action_count == 0
    assert validation.state == new_game(3)


def test_meta_is_free_form_and_ignored_by_validation() -> None:
    meta: JSON = {"event": "x", "nested": {"a": [1, 2.5, None, True]}, "players": 6}
    validation = validate_record(doc(SHORT_GAME, meta=meta))
    assert validation.valid
    assert validation.record is not None
    assert validation.record.meta == meta


def test_meta_is_kept_on_rewrite_and_an_empty_one_is_written_as_none() -> None:
    # docs/records.md: meta is kept as it is; an empty one is the same record as none.
    meta: JSON = {"event": "x", "empty": {}, "list": []}
    kept = loads_record(dumps_record(loads_record(doc(SHORT_GAME, meta=meta))))
    assert kept.meta == meta
    empty = loads_record(doc(SHORT_GAME, meta={}))
    assert empty == loads_record(doc(SHORT_GAME))
    assert empty.meta == {}
    assert "meta" not in json.loads(dumps_record(empty))


def test_the_fixture_files_validate_as_documented() -> None:
    finished = validate_file(DATA / "finished-3p.json")
    assert finished.finished
    assert finished.to_json("f")["result"] == {
        "scores": [10, 20, 9.5],
        "money": [72, 60, 60],
        "cast_out": [1, 2],
        "winners": [0],
    }
    unfinished = validate_file(DATA / "unfinished-3p.json")
    assert unfinished.valid
    assert not unfinished.finished
    assert unfinished.action_count == 20
    illegal = validate_file(DATA / "illegal-3p.json").error
    assert illegal is not None
    assert (illegal.code, illegal.index, illegal.path) == (
        "CARD_ALREADY_BID",
        20,
        "$.actions[20].cards[1]",
    )
    six = validate_file(DATA / "six-players.json").error
    assert six is not None
    assert (six.code, six.index) == ("BAD_PLAYERS", None)


@pytest.mark.parametrize(
    ("text", "code", "path"),
    [
        (doc([R("luxury-7"), B(0, *range(100, 90_100))]), "INVALID_CARD", "$.actions[1].cards[0]"),
        (doc([], [f"P{i}" for i in range(90_000)]), "BAD_PLAYERS", "$.players"),
        (doc([], [f"P{i}" for i in range(300_000)]), "TOO_LARGE", "$"),
    ],
    ids=["90,000 bid cards", "90,000 players", "300,000 players: too many values"],
)
def test_long_lists_are_judged_in_linear_time(text: str, code: str, path: str) -> None:
    # Quadratic duplicate checks would take hours here.
    error = validate_record(text).error
    assert error is not None
    assert (error.code, error.path) == (code, path)


# --- Round trips -----------------------------------------------------------------------------


def _played(seed: int, players: int = 4) -> GameRecord:
    bots = [HeuristicBot(seed * 10 + s) if s % 2 else RandomBot(seed + s) for s in range(players)]
    _, actions = play_game(bots, seed=seed)
    return GameRecord(["Ada", "Ben", "Cy", "Dee", "Eve"][:players], actions, {"seed": seed})


@pytest.mark.parametrize(("seed", "players"), [(1, 3), (2, 4), (3, 5)])
def test_played_games_round_trip_and_replay_to_their_result(seed: int, players: int) -> None:
    record = _played(seed, players)
    text = dumps_record(record)
    again = loads_record(text)
    assert again == record
    assert hash(again) == hash(record)
    assert dumps_record(again) == text
    assert record_from_json(json.loads(text)) == record
    bots = [HeuristicBot(seed * 10 + s) if s % 2 else RandomBot(seed + s) for s in range(players)]
    final, _ = play_game(bots, seed=seed)
    assert replay(record) == final
    validation = validate_record(text)
    assert validation.record == record
    assert validation.state == final
    assert validation.result == result(final)
    assert validate_record(record).state == final


def test_record_equality_includes_meta_but_hashing_does_not() -> None:
    a = GameRecord(NAMES, (), {"x": 1})
    b = GameRecord(NAMES, (), {"x": 2})
    assert a != b
    assert hash(a) == hash(b)
    assert a == GameRecord(tuple(NAMES), [], {"x": 1})


def test_meta_is_a_private_copy() -> None:
    meta: dict[str, JSON] = {"list": [1]}
    record = GameRecord(NAMES, (), meta)
    inner = meta["list"]
    assert isinstance(inner, list)
    inner.append(2)
    assert record.meta == {"list": [1]}


@pytest.mark.parametrize(
    ("meta", "code"),
    [
        ({"x": object()}, _C.WRONG_TYPE),
        ({"x": float("nan")}, _C.BAD_NUMBER),
        ({1: "x"}, _C.WRONG_TYPE),
        ({"x": "\ud800"}, _C.NOT_UTF8),
        ({"\ud800": 1}, _C.NOT_UTF8),
        ([1], _C.WRONG_TYPE),
    ],
)
def test_meta_must_be_a_json_object(meta: Any, code: str) -> None:
    with pytest.raises(RecordError) as caught:
        GameRecord(NAMES, (), meta)
    assert caught.value.code == code


def test_a_record_refuses_bad_players_and_non_actions() -> None:
    with pytest.raises(RecordError, match="BAD_PLAYERS"):
        GameRecord(["Ada", "Ben"])
    with pytest.raises(RecordError, match="BAD_PLAYERS"):
        GameRecord(["Ada", "Ben", "C\ud800"])  # UTF-8 cannot write it
    with pytest.raises(RecordError, match="NOT_AN_ACTION"):
        GameRecord(NAMES, ["pass"])  # type: ignore[list-item]


def test_dumps_writes_the_documented_layout_and_keeps_names_as_they_are() -> None:
    record = GameRecord(
        ["Zoë", "Ben", "Cy"], [Reveal(StatusCard.LUXURY_7), Bid(0, frozenset({3, 1}))]
    )
    assert dumps_record(record) == (
        '{"format": "high-society", "version": 1,\n'
        ' "players": ["Zoë", "Ben", "Cy"],\n'
        ' "actions": [\n'
        '  {"type": "reveal", "card": "luxury-7"},\n'
        '  {"type": "bid", "player": 0, "cards": [1, 3]}]}\n'
    )
    assert record_to_json(GameRecord(NAMES, (), {"a": 1}))["meta"] == {"a": 1}
    assert "meta" not in record_to_json(GameRecord(NAMES))


# --- The writer ------------------------------------------------------------------------------


def test_the_writer_records_legal_actions_only() -> None:
    writer = RecordWriter(NAMES, meta={"table": 4})
    state = writer.add(Reveal(StatusCard.LUXURY_7))
    assert state == writer.state == apply(new_game(3), Reveal(StatusCard.LUXURY_7))
    with pytest.raises(IllegalActionError):
        writer.add(Pass(2))
    assert writer.state == state
    assert writer.record() == GameRecord(NAMES, [Reveal(StatusCard.LUXURY_7)], {"table": 4})
    assert writer.players == tuple(NAMES)


def test_the_writer_refuses_bad_players() -> None:
    with pytest.raises(RecordError) as caught:
        RecordWriter(["Ada", "Ada", "Cy"])
    assert (caught.value.code, caught.value.path) == ("BAD_PLAYERS", "$.players[1]")


# --- Files -----------------------------------------------------------------------------------


def test_write_then_read_a_file(tmp_path: Path) -> None:
    record = _played(7)
    path = tmp_path / "game.json"
    write_record(path, record)
    assert read_record(path) == record
    assert validate_file(str(path)).record == record
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_write_record_takes_the_path_first_and_the_old_order_warns(tmp_path: Path) -> None:
    record = _played(3)
    path = tmp_path / "game.json"
    with pytest.warns(DeprecationWarning, match=r"write_record\(path, record\)"):
        write_record(record, path)  # type: ignore[arg-type]
    assert read_record(path) == record
    with pytest.raises(RecordError) as caught:
        write_record(path, "not a record")  # type: ignore[arg-type]
    assert caught.value.code == "WRONG_TYPE"
    assert read_record(path) == record  # nothing changed


def test_a_failed_write_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    path.write_text("old")

    def fail(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(RecordError, match="No space") as caught:
        write_record(path, _played(1))
    assert caught.value.code == "UNWRITABLE"
    assert str(path) in caught.value.message  # the target, not the temporary file
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_writing_into_a_missing_directory_creates_nothing(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match=r"UNWRITABLE.*No such file") as caught:
        write_record(tmp_path / "missing" / "game.json", _played(1))
    assert str(tmp_path / "missing" / "game.json") in caught.value.message
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("kind", ["missing", "directory"])
def test_unreadable_files_are_reported(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "game.json"
    if kind == "directory":
        path.mkdir()
    validation = validate_file(path)
    assert validation.error is not None
    assert (validation.error.code, validation.error.index) == ("UNREADABLE", None)
    with pytest.raises(RecordError, match="UNREADABLE"):
        read_record(path)


def test_a_file_over_the_limit_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    with path.open("wb") as handle:  # valid JSON, but too large
        handle.write(b"[" + b" " * MAX_RECORD_BYTES + b"]")
    error = validate_file(path).error
    assert error is not None
    assert error.code == "TOO_LARGE"
    error = validate_record(b"[" + b" " * MAX_RECORD_BYTES + b"]").error
    assert error is not None
    assert error.code == "TOO_LARGE"


# --- The JSON Schemas ------------------------------------------------------------------------


def _schema_errors(schema: dict[str, JSON], value: object) -> list[str]:
    validator = jsonschema.Draft202012Validator(schema)
    return [e.message for e in validator.iter_errors(value)]


def _not_json(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def test_the_schemas_are_valid_draft_2020_12() -> None:
    jsonschema.Draft202012Validator.check_schema(record_schema())
    jsonschema.Draft202012Validator.check_schema(action_schema())


def test_the_record_schema_embeds_the_action_schema_exactly() -> None:
    record, action = record_schema(), action_schema()
    defs, action_defs = record["$defs"], action["$defs"]
    assert isinstance(defs, dict)
    assert isinstance(action_defs, dict)
    for name, value in action_defs.items():
        assert defs[name] == value
    top = {"$schema", "$id", "title", "description", "$defs"}
    assert defs["action"] == {k: v for k, v in action.items() if k not in top}


def test_every_record_the_library_writes_satisfies_the_schema(tmp_path: Path) -> None:
    schema = record_schema()
    records = [_played(seed, 3 + seed % 3) for seed in range(6)]
    records.append(GameRecord(NAMES))
    records.append(read_record(DATA / "unfinished-3p.json"))
    for record in records:
        assert _schema_errors(schema, json.loads(dumps_record(record))) == []
        for action in record_to_json(record)["actions"]:  # type: ignore[union-attr]
            assert _schema_errors(action_schema(), action) == []


@pytest.mark.parametrize("bad", CASES, ids=lambda c: c.name)
def test_the_schema_refuses_what_it_can_see(bad: Case) -> None:
    digits = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # other languages read huge numbers: so must the schema
    try:
        value = json.loads(bad.text, parse_constant=_not_json)
    except ValueError:
        assert bad.schema_refuses  # not JSON at all: no schema accepts it
        return
    finally:
        sys.set_int_max_str_digits(digits)
    refused = bool(_schema_errors(record_schema(), value))
    assert refused == bad.schema_refuses


def test_the_schemas_are_shipped_in_the_package() -> None:
    import tomllib

    pyproject = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    data = pyproject["tool"]["setuptools"]["package-data"]["high_society"]
    assert "schemas/*.json" in data


def test_the_runtime_does_not_import_jsonschema() -> None:
    code = (
        "import sys, high_society.record as r; r.record_schema(); r.validate_record('[]');"
        " sys.exit('jsonschema' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


# --- docs/records.md holds to the code ---------------------------------------------------------

RECORDS_PAGE = Path(__file__).resolve().parents[1] / "docs" / "records.md"


def _page_text() -> str:
    return RECORDS_PAGE.read_text(encoding="utf-8")


def _page_table(heading: str) -> dict[str, list[str]]:
    """The rows of the first table under ``heading``, by the code in their first cell."""
    section = _page_text().split(f"\n{heading}\n", 1)[1].split("\n#", 1)[0]
    rows: dict[str, list[str]] = {}
    for line in section.splitlines():
        if line.startswith("| `"):
            cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
            rows[cells[0].strip("`")] = cells[1:]
    return rows


MALFORMED_TABLE = "### Codes for malformed input"
ILLEGAL_TABLE = "### Codes for illegal actions"


def test_the_records_page_lists_every_code_in_the_order_of_its_enum() -> None:
    assert list(_page_table(MALFORMED_TABLE)) == [code.value for code in RecordCode]
    reasons = [reason.value for reason in Reason if reason not in UNREACHABLE_IN_RECORDS]
    assert list(_page_table(ILLEGAL_TABLE)) == reasons


def _in_action(inner: str) -> str:
    """A record whose second action holds ``inner`` (raw JSON) as its seat."""
    head = doc([R("luxury-7"), P(0)]).rsplit("0}]}", 1)[0]
    return f"{head}{inner}}}]}}"


#: Malformed input met inside an action, beside the cases of :data:`CASES`.
IN_ACTION = [
    _in_action("[" * 70 + "]" * 70),  # TOO_DEEP
    _in_action('"\\ud800"'),  # NOT_UTF8
    _in_action("9" * 30),  # BAD_NUMBER
]


def test_the_records_page_says_which_codes_name_an_action_and_where_illegal_ones_point() -> None:
    malformed, illegal = _page_table(MALFORMED_TABLE), _page_table(ILLEGAL_TABLE)
    found = [(c.code, c.index, c.path) for c in CASES]
    for text in IN_ACTION:
        error = validate_record(text).error
        assert error is not None
        found.append((error.code, error.index, error.path))
    named_an_action: set[str] = set()
    for code, index, path in found:
        if code in malformed:
            index_cell = malformed[code][0]
            if index is None:
                assert "null" in index_cell, (code, index_cell)
            else:
                named_an_action.add(code)
                assert "the action" in index_cell, (code, index_cell)
        else:
            assert index is not None
            tail = path.removeprefix(f"$.actions[{index}]")
            shown = "`" + re.sub(r"\[\d+\]", "[i]", tail) + "`"
            assert illegal[code][-1] == shown, (code, path)
    assert {"TOO_DEEP", "NOT_UTF8", "BAD_NUMBER"} <= named_an_action
    # and no code is said to name an action that none of these shows naming one
    said = {code for code, cells in malformed.items() if "the action" in cells[0]}
    assert said == named_an_action


def test_the_records_page_states_the_readers_limits_as_the_code_has_them() -> None:
    from high_society import STANDARD_MONEY
    from high_society._bidtable import TABLES_BUDGET
    from high_society.cards import MAX_MONEY_CARDS, MAX_MONEY_VALUE
    from high_society.record import MAX_NAME_LENGTH
    from high_society.serial import (
        MAX_JSON_BYTES,
        MAX_JSON_DEPTH,
        MAX_JSON_INT,
        MAX_JSON_VALUES,
        MIN_JSON_INT,
    )

    page = " ".join(_page_text().split())
    mib = 1024 * 1024
    luxury = [c.value for c in StatusCard if c.is_luxury]
    assert luxury == [f"luxury-{value}" for value in range(1, 11)]  # "..." on the page
    others = [c.value for c in StatusCard if not c.is_luxury]
    assert MAX_RECORD_BYTES == MAX_JSON_BYTES
    assert (MIN_JSON_INT, MAX_JSON_INT) == (-(2**63), 2**63 - 1)
    for fact in [
        f"a string of 1 to {MAX_NAME_LENGTH} characters (`MAX_NAME_LENGTH`)",
        f"larger than {MAX_RECORD_BYTES // mib} MiB ({MAX_RECORD_BYTES:,} bytes;"
        " `MAX_RECORD_BYTES`, `MAX_JSON_BYTES`",
        f"more than {MAX_JSON_VALUES:,} lists, objects and commas (`MAX_JSON_VALUES`",
        f"nest more than {MAX_JSON_DEPTH} levels deep",
        f"a `meta` nests at most {MAX_JSON_DEPTH - 1} levels",
        "fits 64 bits (-2\\*\\*63 to 2\\*\\*63 - 1)",
        f"at most {MAX_MONEY_CARDS} money cards (`MAX_MONEY_CARDS`",
        f"each worth 1 to {MAX_MONEY_VALUE:,} (`MAX_MONEY_VALUE`)",
        f"holds at most about {TABLES_BUDGET // mib} MiB",
        "The money values are "
        + ", ".join(map(str, STANDARD_MONEY[:-1]))
        + f" and {STANDARD_MONEY[-1]} (R1)",
        f"A {MAX_MONEY_CARDS}-card hand's {2**MAX_MONEY_CARDS - 1:,} bids",
        f"Status cards are written `{luxury[0]}` ... `{luxury[-1]}`, "
        + ", ".join(f"`{name}`" for name in others[:-1])
        + f" and `{others[-1]}`",
    ]:
        assert fact in page, fact
    # a meta nested one level deeper than the page says is refused, as deep as it says is not
    deep: JSON = 0
    for _ in range(MAX_JSON_DEPTH - 2):
        deep = [deep]
    GameRecord(NAMES, (), {"x": deep})
    with pytest.raises(RecordError) as refused:
        GameRecord(NAMES, (), {"x": [deep]})
    assert refused.value.code == RecordCode.TOO_DEEP


def test_the_records_page_bounds_a_value_named_in_a_message_as_the_code_does() -> None:
    from high_society import why_illegal
    from high_society._text import short_repr

    found = re.search(r"shows at most (\d+) characters of it", _page_text())
    assert found is not None
    bound = int(found[1])
    hostile: list[object] = [
        "x" * 1000,
        ["x" * 100] * 6,
        {"a" * 100: "b" * 100},
        10**5000,
        frozenset(range(10**6, 10**6 + 100)),
    ]
    lengths = [len(short_repr(value)) for value in hostile]
    assert max(lengths) == bound, lengths  # never more, and as much for some values
    problem = why_illegal(new_game(3), Pass(["x" * 100] * 6))  # type: ignore[arg-type]
    assert problem is not None
    shown = problem.message.removeprefix("cannot pass: ").split(" is not a seat")[0]
    assert len(shown) == bound, problem.message

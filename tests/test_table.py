"""high_society.table: a server's table. Moves from untrusted input are taken or refused with
a kind, a code and a path, and a refusal changes nothing; a retry of a numbered move is not
played twice; the table deals from its own secret shuffle (R4); a snapshot restores the
same table, and a bad one is refused where it is bad. Also the JSON form of every library
error (high_society.serial.error_to_json)."""

# ruff: noqa: E501 (tables of cases, one a line)

import json

import pytest

import high_society
import high_society.batch  # its BatchError is a library error too
from high_society import Bid, HighSocietyError, Pass, Reveal, StatusCard, new_game
from high_society.bots import HeuristicBot, RandomBot, SeatOnly
from high_society.errors import RecordError
from high_society.record import validate_record
from high_society.serial import error_code, error_to_json
from high_society.table import (
    Accepted,
    Refusal,
    RefusalKind,
    Seat,
    Table,
    check_name,
    rematch_seat,
    rematch_seats,
)

SEATS = [Seat("Ada"), Seat("Ben", "heuristic"), Seat("Cy", "random")]
BOTS = {1: SeatOnly(HeuristicBot(1)), 2: SeatOnly(RandomBot(2))}


def started() -> Table:
    table = Table(SEATS, seed=3)
    table.reveal()
    return table


def refusal(table: Table, move: object) -> Refusal:
    before = table.snapshot()
    outcome = table.submit(0, move)
    assert isinstance(outcome, Refusal)
    assert table.snapshot() == before  # nothing changed
    return outcome


@pytest.mark.parametrize(
    ("move", "kind", "code", "path"),
    [
        (b"{", RefusalKind.MALFORMED, "NOT_JSON", "$"),
        (b"\xff", RefusalKind.MALFORMED, "NOT_UTF8", "$"),
        (b"x" * 5000, RefusalKind.MALFORMED, "TOO_LARGE", "$"),
        ("[]", RefusalKind.MALFORMED, "WRONG_TYPE", "$"),
        ({"action": {"type": "pass", "player": 0}, "x": 1}, RefusalKind.MALFORMED, "UNKNOWN_KEY", "$.x"),
        ({}, RefusalKind.MALFORMED, "MISSING_KEY", "$.action"),
        ({"action": {"type": "bid", "player": 0, "cards": [1, 1]}}, RefusalKind.MALFORMED, "DUPLICATE_CARD", "$.action.cards[1]"),
        ({"action": {"type": "pass", "player": True}}, RefusalKind.MALFORMED, "WRONG_TYPE", "$.action.player"),
        ({"action": {"type": "pass", "player": 0}, "number": -1}, RefusalKind.MALFORMED, "BAD_NUMBER", "$.number"),
        ({"action": {"type": "pass", "player": 0}, "number": "1"}, RefusalKind.MALFORMED, "WRONG_TYPE", "$.number"),
        ({"action": {"type": "reveal", "card": "prestige"}}, RefusalKind.NOT_ALLOWED, "CLIENT_MAY_NOT_REVEAL", "$.action.type"),
        ({"action": {"type": "pass", "player": 1}}, RefusalKind.NOT_YOUR_SEAT, "NOT_YOUR_SEAT", "$.action.player"),
        ({"action": {"type": "pass", "player": 0}, "number": 2}, RefusalKind.WRONG_NUMBER, "WRONG_NUMBER", "$.number"),
        ({"action": {"type": "pass", "player": 0}, "number": 0}, RefusalKind.WRONG_NUMBER, "WRONG_NUMBER", "$.number"),
        ({"action": {"type": "bid", "player": 0, "cards": [7]}}, RefusalKind.MALFORMED, "BAD_NUMBER", "$.action.cards"),
        ({"action": {"type": "discard", "player": 0, "card": "luxury-1"}}, RefusalKind.ILLEGAL, "NO_DISCARD_DUE", "$.action"),
    ],
)  # fmt: skip
def test_a_bad_move_is_refused_with_its_kind_code_and_path_and_changes_nothing(
    move: object, kind: RefusalKind, code: str, path: str
) -> None:
    refused = refusal(started(), move)
    assert (refused.kind, refused.code, refused.path) == (kind, code, path)
    assert refused.to_json() == {
        "kind": kind.value,
        "code": code,
        "message": refused.message,
        "path": path,
    }


def test_an_illegal_move_is_explained_with_the_players_names() -> None:
    table = started()
    assert isinstance(
        table.submit(0, {"action": {"type": "bid", "player": 0, "cards": [4]}}), Accepted
    )
    table.advance(BOTS)
    table_now = table.state.highest_bid
    refused = refusal(table, {"action": {"type": "bid", "player": 0, "cards": [1]}})
    assert refused.code == "BID_TOO_LOW"
    assert refused.message.startswith("Ada cannot bid")
    assert str(table_now) in refused.message


def test_a_retried_move_is_accepted_once_and_played_once() -> None:
    table = started()
    move = {"action": {"type": "bid", "player": 0, "cards": [2]}, "number": 1}
    first = table.submit(0, json.dumps(move))
    again = table.submit(0, json.dumps(move).encode())
    assert first == Accepted(Bid(0, frozenset({2})), 1, duplicate=False)
    assert again == Accepted(Bid(0, frozenset({2})), 1, duplicate=True)
    assert table.number == 2
    assert table.state.players[0].table == {2}
    # The same number with another action is a stale move, not a retry.
    other = table.submit(0, {"action": {"type": "bid", "player": 0, "cards": [3]}, "number": 1})
    assert isinstance(other, Refusal)
    assert other.kind is RefusalKind.WRONG_NUMBER


def test_the_table_deals_from_its_own_shuffle_and_a_seed_repeats_it_r4() -> None:
    def deal(seed: int | None) -> list[StatusCard]:
        table = Table(["A", "B", "C"], seed=seed)
        order = table.snapshot()["order"]
        assert isinstance(order, list)
        return [StatusCard(str(card)) for card in order]

    assert deal(5) == deal(5)
    assert sorted(deal(5), key=list(StatusCard).index) == sorted(
        new_game(3).deck, key=list(StatusCard).index
    )
    assert len({tuple(deal(None)) for _ in range(4)}) > 1  # secrets.SystemRandom
    table = Table(["A", "B", "C"], seed=5)
    assert table.reveal() == Reveal(deal(5)[0])
    assert "order" not in json.dumps(table.payload(0))
    assert "order" not in table.record().meta


def test_a_table_played_by_bots_ends_and_its_record_validates() -> None:
    table = Table([Seat("A", "heuristic"), Seat("B", "random"), Seat("C", "heuristic")], seed=9)
    bots = {0: SeatOnly(HeuristicBot(0)), 1: SeatOnly(RandomBot(1)), 2: SeatOnly(HeuristicBot(2))}
    played = table.advance(bots)
    assert table.is_over
    assert played == list(table.history)
    validation = validate_record(table.record())
    assert validation.valid
    assert validation.finished
    final = table.payload(1)
    assert final["legal"] is None
    assert final["to_act"] is None
    outcome = final["result"]
    assert isinstance(outcome, dict)
    assert len(outcome["breakdowns"]) == 3  # type: ignore[arg-type]


def test_advance_stops_for_a_person_and_needs_every_bot() -> None:
    table = Table(SEATS, seed=4)
    assert table.advance(BOTS) == [table.history[0]]  # the reveal; then Ada must act
    assert isinstance(table.history[0], Reveal)
    assert table.payload(0)["to_act"] == 0
    table.submit(0, {"action": {"type": "pass", "player": 0}})
    with pytest.raises(high_society.InvalidConfigError, match="no bot"):
        table.advance({})


def test_a_snapshot_restores_the_same_table_secret_included() -> None:
    table = started()
    table.submit(0, {"action": {"type": "pass", "player": 0}})
    table.advance(BOTS)
    copy = Table.restore(json.dumps(table.snapshot()))
    assert copy.snapshot() == table.snapshot()
    assert copy.state == table.state
    assert [copy.payload(s, 1) for s in range(3)] == [table.payload(s, 1) for s in range(3)]


@pytest.mark.parametrize(
    ("change", "code", "path"),
    [
        (lambda s: s.update(format="x"), "BAD_FORMAT", "$.format"),
        (lambda s: s.update(version=3), "BAD_VERSION", "$.version"),
        (lambda s: s.update(version=1), "BAD_VERSION", "$.version"),  # a clock in version 1
        (lambda s: s.pop("clock"), "BAD_VERSION", "$.version"),  # version 2 with no clock
        (lambda s: s["clock"]["seats"].pop(), "WRONG_TYPE", "$.clock.seats"),
        (lambda s: s.update(extra=1), "UNKNOWN_KEY", "$.extra"),
        (lambda s: s["order"].pop(), "BAD_STATE", "$.order"),
        (lambda s: s["order"].__setitem__(0, "luxury-2") if s["order"][0] != "luxury-2" else s["order"].__setitem__(0, "luxury-3"), "BAD_STATE", "$.order"),
        (lambda s: s["seats"].__setitem__(1, {"name": "Ada", "bot": None}), "BAD_PLAYERS", "$.seats[1]"),
        (lambda s: s["seats"][1].__setitem__("bot", 3), "WRONG_TYPE", "$.seats[1].bot"),
        (lambda s: s["actions"].__setitem__(0, {"type": "reveal", "card": "scandale" if s["actions"][0]["card"] != "scandale" else "passe"}), "BAD_STATE", "$.actions[0]"),
        (lambda s: s["actions"].append({"type": "pass", "player": 2}), "NOT_YOUR_TURN", "$.actions[2]"),
        (lambda s: s.update(meta=[]), "WRONG_TYPE", "$.meta"),
    ],
)  # fmt: skip
def test_a_bad_snapshot_is_refused_where_it_is_bad(change: object, code: str, path: str) -> None:
    table = started()
    table.submit(0, {"action": {"type": "pass", "player": 0}})
    snapshot = table.snapshot()
    change(snapshot)  # type: ignore[operator]
    with pytest.raises(RecordError) as caught:
        Table.restore(snapshot)
    assert (caught.value.code, caught.value.path) == (code, path)


def test_seats_and_names_are_checked() -> None:
    with pytest.raises(high_society.InvalidConfigError, match="bad seats"):
        Table(["Ada", "Ada", "Cy"])
    with pytest.raises(high_society.InvalidConfigError, match="bot label"):
        Table([Seat("A"), Seat("B", ""), Seat("C")])
    with pytest.raises(high_society.InvalidConfigError):
        Table(["A", "B"])
    assert check_name("a") == "a"
    for bad in ("", " ", "x" * 65, "a\nb", 3):
        with pytest.raises(RecordError) as caught:
            check_name(bad, "$.name")
        assert (caught.value.code, caught.value.path) == ("BAD_PLAYERS", "$.name")
    with pytest.raises(high_society.InvalidSeatError):
        started().submit(3, b"{}")
    with pytest.raises(high_society.OutOfRangeError):
        started().payload(0, since=5)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_R3_a_rematch_seats_everyone_one_seat_on_so_the_second_seat_starts(players: int) -> None:
    seats = [Seat(f"P{i}", None if i % 2 else "heuristic") for i in range(players)]
    placed = rematch_seats(seats)
    assert placed[0] == seats[1]  # the first seat starts the first round (R3)
    for old, seat in enumerate(seats):
        assert placed[rematch_seat(old, players)] == seat
    # Rematch after rematch, each player starts a game in turn.
    again = seats
    starters = []
    for _ in range(players):
        again = list(rematch_seats(again))
        starters.append(again[0].name)
    assert sorted(starters) == sorted(seat.name for seat in seats)


def test_a_rematch_seat_is_asked_of_a_real_table() -> None:
    with pytest.raises(high_society.InvalidSeatError):
        rematch_seat(3, 3)
    with pytest.raises(high_society.InvalidSeatError):
        rematch_seat(-1, 4)
    with pytest.raises(high_society.InvalidSeatError):
        rematch_seat(True, 4)
    with pytest.raises(high_society.InvalidConfigError, match=r"\(R3\)"):
        rematch_seat(0, 6)


def _library_errors() -> list[type[HighSocietyError]]:
    found: list[type[HighSocietyError]] = []
    todo: list[type[HighSocietyError]] = [HighSocietyError]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo += cls.__subclasses__()
    return found


def test_every_library_error_has_a_json_form_with_its_own_code() -> None:
    errors = _library_errors()
    assert len(errors) >= 10
    for cls in errors:
        if cls is HighSocietyError:
            continue
        if cls.__name__ == "IllegalActionError":
            state = new_game(3)
            error: HighSocietyError = high_society.why_illegal(state, Pass(0))  # type: ignore[assignment]
        elif cls is RecordError:
            error = RecordError("BAD_VERSION", "no", path="$.version", index=None)
        else:
            try:
                error = cls("message")
            except TypeError:  # an error that carries more data: its message alone will do
                error = cls.__new__(cls)
                Exception.__init__(error, "message")
        data = error_to_json(error, ["Ada", "Ben", "Cy"])
        assert json.loads(json.dumps(data)) == data
        assert data["error"] == cls.__name__
        assert data["code"] == error_code(error) != "ERROR"
        assert isinstance(data["message"], str)
        assert data["message"]
    illegal = error_to_json(high_society.why_illegal(new_game(3), Pass(0)), ["Ada", "B", "C"])  # type: ignore[arg-type]
    assert illegal["code"] == "REVEAL_DUE"
    assert str(illegal["message"]).startswith("Ada")
    assert error_to_json(RecordError("NOT_JSON", "m", path="$.a", index=2))["path"] == "$.a"
    with pytest.raises(RecordError):
        error_to_json(ValueError("x"))  # type: ignore[arg-type]


def test_the_payloads_bids_are_the_fewest_cards_for_each_total_of_the_legal_bids() -> None:
    # The payload's bids are worked out once per hand and set of legal bids, and kept: here
    # against a plain reading of the legal actions, over many games (most are looked up).
    from high_society import legal_actions

    compared = 0
    for seed in range(6):
        table = Table([Seat("Ada"), Seat("Ben"), Seat("Cy"), Seat("Di")], seed=seed)
        bots = [RandomBot(seed * 4 + i) for i in range(4)]
        while not table.is_over:
            actor = table.state.turn
            if table.state.phase.value == "reveal":
                table.reveal()
                continue
            if table.state.phase.value == "auction":
                fewest: dict[int, list[int]] = {}
                face_up = table.state.players[actor].bid
                for bid in legal_actions(table.state).bids():
                    total = face_up + bid.total
                    if total not in fewest or len(bid.cards) < len(fewest[total]):
                        fewest[total] = sorted(bid.cards)
                legal = table.payload(actor)["legal"]
                assert isinstance(legal, dict)
                assert legal["bids"] == [
                    {"total": t, "action": {"type": "bid", "player": actor, "cards": fewest[t]}}
                    for t in sorted(fewest)
                ]
                compared += 1
            table.play(bots[actor].choose(table.state))
    assert compared > 150

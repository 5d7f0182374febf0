"""high_society.table's turn clocks: a clock is data (no clock, seconds a move,
a bank with an increment, days a move), a table knows the deadline of the seat to act from
the times it is given, a time-out plays the documented default (a pass in an auction,
ordinary or disgrace; the lowest luxury card for a Faux Pas discard) once, at its deadline
and never before; after ``takeover`` time-outs in a row a bot plays the seat until its
person acts in time again; snapshots keep the clocks, and the record of a game with
time-outs validates and replays. Every time here is given, never read from a clock."""

import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

from high_society import (
    Action,
    Bid,
    Discard,
    GameState,
    InvalidConfigError,
    Pass,
    Phase,
    StatusCard,
    legal_actions,
    result,
)
from high_society.bots import AnyBot, HeuristicBot, SeatOnly
from high_society.cli import main
from high_society.record import dumps_record, replay, validate_record, write_record
from high_society.table import (
    Accepted,
    Clocks,
    Move,
    Seat,
    SeatClock,
    Table,
    TimeControl,
    Waiting,
    default_action,
)
from tests.builders import bid

PEOPLE = ("Ada", "Ben", "Cy")
T0 = 1_000.0  # seconds since the epoch, as a host would give them
DAY = 86_400.0


def order(seed: int) -> list[str]:
    """The deck's order a table of ``seed`` deals (its snapshot holds it)."""
    cards = Table(PEOPLE, seed=seed).snapshot()["order"]
    assert isinstance(cards, list)
    return [str(card) for card in cards]


def seed_where(wanted: Callable[[list[str]], bool]) -> int:
    """The first seed whose deck order is ``wanted``."""
    return next(seed for seed in range(10_000) if wanted(order(seed)))


def is_luxury(card: str) -> bool:
    return card.startswith("luxury-")


def dealt(control: TimeControl | None, seed: int = 1, now: float = T0) -> Table:
    """A table of three persons with ``control``, its first card dealt at ``now``."""
    table = Table(PEOPLE, seed=seed, time_control=control)
    assert len(table.deal(now)) == 1
    assert table.waiting_for is Waiting.PERSON
    return table


def act(table: Table, action: Action, now: float) -> None:
    """A person's move at ``now``, taken, then the reveal it makes due dealt at once."""
    assert isinstance(action, Pass | Bid | Discard)
    outcome = table.submit(action.seat, Move(action), now)
    assert isinstance(outcome, Accepted), outcome
    table.deal(now)


class Bidder:
    """A bot that always plays the last legal action (a bid when any is legal): never what
    a time-out's default would be, so that its move is told from the default."""

    def choose(self, state: GameState) -> Action:
        return legal_actions(state)[-1]


# --- No clock --------------------------------------------------------------------------------


def test_without_a_clock_there_is_no_deadline_and_a_time_out_does_nothing() -> None:
    table = dealt(None)
    before = table.snapshot()
    assert not table.clocks.control.timed
    assert table.deadline is None
    assert table.time_out(T0 + 10 * 366 * DAY) is None
    assert table.snapshot() == before
    assert "time_control" not in table.record().meta
    assert "time_outs" not in table.record().meta


def test_no_deadline_before_a_time_is_given_nor_while_chance_acts() -> None:
    table = Table(PEOPLE, seed=1, time_control=TimeControl.per_move(30))
    assert table.deadline is None  # chance acts
    table.reveal()  # no time given
    assert table.deadline is None
    assert table.time_out(T0 + 366 * DAY) is None
    act(table, Pass(0), T0)  # the first time given starts the clocks
    assert table.deadline == T0 + 30


# --- Seconds a move ---------------------------------------------------------------------------


def test_a_turn_of_seconds_a_move_ends_that_many_seconds_after_it_began() -> None:
    table = dealt(TimeControl.per_move(30), now=T0)
    assert table.deadline == T0 + 30
    act(table, bid(0, 1), T0 + 12.5)  # the next turn begins when the action is played
    assert table.state.turn == 1
    assert table.deadline == T0 + 42.5


@pytest.mark.parametrize("late", [0.0, 0.25, 3 * DAY])
def test_a_time_out_applies_at_or_after_its_deadline_once_and_never_before(late: float) -> None:
    table = dealt(TimeControl.per_move(30), now=T0)
    deadline = T0 + 30
    before = table.snapshot()
    for early in (T0 - 1.0, T0, T0 + 29.999):
        assert table.time_out(early) is None
    assert table.snapshot() == before  # nothing changed
    now = deadline + late
    assert table.time_out(now) == Pass(0)
    assert table.number == 2
    assert table.clocks.timed_out == (1,)
    assert table.clocks.since == now  # the next turn, Ben's, begins at the time-out
    assert table.deadline == now + 30
    after = table.snapshot()
    for again in (now, now + 29.999):  # no new turn has timed out: nothing more
        assert table.time_out(again) is None
    assert table.snapshot() == after
    assert table.time_out(now + 30) == Pass(1)  # Ben's own deadline
    assert [*table.clocks.timed_out] == [1, 2]


def test_correspondence_play_gives_days_in_seconds() -> None:
    control = TimeControl.correspondence(days=3)
    assert control.move == 3 * DAY
    table = dealt(control, now=T0)
    assert table.deadline == T0 + 3 * DAY
    assert table.time_out(T0 + 3 * DAY - 1) is None
    act(table, bid(0, 1), T0 + 2 * DAY)  # a move two days on is in time
    assert table.deadline == T0 + 5 * DAY
    assert table.time_out(T0 + 5 * DAY) == Pass(1)


# --- The defaults ------------------------------------------------------------------------------


def test_the_default_in_an_ordinary_auction_is_a_pass_r6() -> None:
    seed = seed_where(lambda o: is_luxury(o[0]))
    table = dealt(TimeControl.per_move(30), seed=seed)
    act(table, bid(0, 1), T0)
    act(table, bid(1, 2), T0)
    act(table, Pass(2), T0)
    # Ada could raise (she holds ten cards more), but her time-out passes: she takes her
    # 1 back (R6) and Ben wins the card for his 2.
    assert bid(0, 2) in legal_actions(table.state)
    assert default_action(table.state) == Pass(0)
    assert table.time_out(T0 + 30) == Pass(0)
    assert len(table.state.players[0].hand) == 11
    assert table.state.players[1].status_cards == (StatusCard(order(seed)[0]),)


def test_the_default_in_a_disgrace_auction_is_a_pass_that_takes_the_card_r7() -> None:
    seed = seed_where(lambda o: o[0] in ("passe", "scandale"))
    table = dealt(TimeControl.per_move(30), seed=seed)
    act(table, bid(0, 1), T0)  # Ada bids to avoid the card; Ben lets his turn run out
    assert table.time_out(T0 + 30) == Pass(1)
    ben, ada = table.state.players[1], table.state.players[0]
    assert ben.status_cards == (StatusCard(order(seed)[0]),)  # the first pass takes it
    assert len(ben.hand) == 11  # and spends nothing
    assert len(ada.hand) == 10  # Ada's bid is discarded (R7)


@pytest.mark.parametrize("lowest_first", [True, False], ids=["lowest-won-first", "lowest-won-last"])
def test_the_default_faux_pas_discard_is_the_lowest_luxury_card_r8(lowest_first: bool) -> None:
    def wanted(o: list[str]) -> bool:
        if not (is_luxury(o[0]) and is_luxury(o[1]) and o[2] == "faux-pas"):
            return False
        first, second = (int(card.split("-")[1]) for card in o[:2])
        return (first < second) == lowest_first

    seed = seed_where(wanted)
    won = [StatusCard(card) for card in order(seed)[:2]]
    table = dealt(TimeControl.per_move(30), seed=seed)
    for money in (1, 2):  # Ada wins both luxury cards, Ben and Cy pass
        act(table, bid(0, money), T0)
        act(table, Pass(1), T0)
        act(table, Pass(2), T0)
    assert set(table.state.players[0].status_cards) == set(won)
    assert table.time_out(T0 + 30) == Pass(0)  # Faux Pas: Ada's pass takes it
    assert table.state.phase is Phase.DISCARD
    assert table.deadline == T0 + 60  # the discard is a turn of its own
    assert table.time_out(T0 + 59) is None
    lowest = min(won, key=lambda card: card.luxury_value)
    assert default_action(table.state) == Discard(0, lowest)
    assert table.time_out(T0 + 60) == Discard(0, lowest)
    assert set(table.state.players[0].status_cards) == set(won) - {lowest}
    assert table.clocks.timed_out == (9, 10)


def test_the_defaults_are_documented_with_their_reasons() -> None:
    clocks_module = sys.modules[default_action.__module__]  # wherever the clocks live
    for doc in (clocks_module.__doc__, default_action.__doc__):
        assert doc is not None
        text = " ".join(doc.split())
        for words in ("pass", "disgrace", "lowest luxury card"):
            assert words in text, words
        for ruling in ("R7", "R8", "R10", "R11", "R12"):  # cast out is R10, status R11
            assert ruling in text, ruling


# --- A bank with an increment ------------------------------------------------------------------


def test_a_bank_is_charged_the_time_used_and_given_the_increment_after_an_action() -> None:
    table = dealt(TimeControl.bank_of(60, increment=5), now=T0)
    assert table.deadline == T0 + 60
    act(table, bid(0, 1), T0 + 20)  # Ada used 20: 60 - 20 + 5
    assert table.clocks.seats[0] == SeatClock(bank=45.0)
    assert table.deadline == T0 + 20 + 60  # Ben's turn: his own bank, untouched
    act(table, bid(1, 2), T0 + 21)
    act(table, Pass(2), T0 + 121)  # Cy used 100 of his 60: his bank emptied, then 5
    assert [clock.bank for clock in table.clocks.seats] == [45.0, 64.0, 5.0]
    assert table.state.turn == 0  # Ada's turn: her 45 seconds left
    assert table.deadline == T0 + 121 + 45
    assert table.time_out(T0 + 121 + 44.9) is None
    assert table.time_out(T0 + 121 + 45) == Pass(0)  # her bank ran out
    assert table.clocks.seats[0] == SeatClock(bank=5.0, time_outs=1)  # emptied, then 5


def test_a_reveal_charges_no_bank_and_starts_the_next_turn() -> None:
    table = Table(PEOPLE, seed=1, time_control=TimeControl.bank_of(60))
    table.deal(T0)
    table.deal(T0 + 50)  # nothing due: the turn under way is Ada's, begun at T0
    assert table.deadline == T0 + 60
    assert [clock.bank for clock in table.clocks.seats] == [60.0] * 3


def test_an_empty_bank_without_increment_times_each_turn_out_at_once() -> None:
    table = dealt(TimeControl(bank=30, takeover=5), now=T0)
    assert table.time_out(T0 + 30) == Pass(0)
    act(table, Pass(1), T0 + 31)  # Cy wins the card free (R6) and starts the next round
    assert table.state.turn == 2
    act(table, Pass(2), T0 + 32)
    assert table.state.turn == 0
    assert table.deadline == T0 + 32  # Ada's bank is empty: her turn is over as it begins
    assert table.time_out(T0 + 32) == Pass(0)
    assert table.clocks.seats[0] == SeatClock(bank=0.0, time_outs=2)


# --- Time-outs in a row, the bot's takeover and the person's return ------------------------------


def to_ada(table: Table) -> float:
    """Ben and Cy pass at once (the reveals dealt) until Ada must act; when her turn began."""
    while True:
        since = table.clocks.since
        assert since is not None
        table.deal(since)
        if table.state.turn == 0:
            return since
        act(table, Pass(table.state.turn), since)


def ada_times_out(table: Table, bots: Mapping[int, AnyBot] | None = None) -> Action:
    """Ada's next turn runs out: nothing at a thousandth of a second before its deadline,
    then her time-out at it. Returns what it played."""
    to_ada(table)
    deadline = table.deadline
    assert deadline is not None
    assert table.time_out(deadline - 0.001, bots) is None
    played = table.time_out(deadline, bots)
    assert played is not None
    return played


def luxury_first(cards: list[str]) -> bool:
    """Six luxury cards come first: rounds enough for a few turns of each seat."""
    return all(is_luxury(card) for card in cards[:6])


def test_after_takeover_time_outs_in_a_row_the_seat_is_away_and_its_bot_plays() -> None:
    control = TimeControl(move=30, takeover=2, away_seconds=5)
    table = dealt(control, seed=seed_where(luxury_first))
    bots = {0: Bidder()}
    assert ada_times_out(table, bots) == Pass(0)  # not away yet: the default, not the bot
    assert table.clocks.seats[0] == SeatClock(time_outs=1, away=False)
    assert ada_times_out(table, bots) == Pass(0)
    assert table.clocks.seats[0] == SeatClock(time_outs=2, away=True)  # taken over
    since = to_ada(table)
    assert table.waiting_for is Waiting.PERSON  # the host waits for her person...
    assert table.deadline == since + 5  # ... away_seconds only, not the move's 30
    expected = Bidder().choose(table.state)
    assert isinstance(expected, Bid)
    assert table.time_out(since + 4.999, bots) is None
    assert table.time_out(since + 5, bots) == expected  # then her bot plays the seat
    assert table.clocks.seats[0] == SeatClock(time_outs=3, away=True)
    assert table.clocks.timed_out[-1] == table.number - 1


def test_an_away_seat_with_no_bot_given_gets_the_default() -> None:
    table = dealt(TimeControl(move=30, takeover=1, away_seconds=5), seed=seed_where(luxury_first))
    assert ada_times_out(table) == Pass(0)
    assert table.clocks.seats[0].away
    since = to_ada(table)
    assert Bidder().choose(table.state) != Pass(0)
    assert table.time_out(since + 5, {1: Bidder()}) == Pass(0)  # a bot for another seat
    assert table.clocks.seats[0] == SeatClock(time_outs=2, away=True)


def test_the_person_of_an_away_seat_comes_back_by_acting_in_time() -> None:
    control = TimeControl(move=30, takeover=1, away_seconds=5)
    table = dealt(control, seed=seed_where(luxury_first))
    assert ada_times_out(table) == Pass(0)
    assert table.clocks.seats[0] == SeatClock(time_outs=1, away=True)
    since = to_ada(table)
    assert table.deadline == since + 5
    act(table, bid(0, 1), since + 4)  # she is back, within the away seat's 5 seconds
    assert table.clocks.seats[0] == SeatClock(time_outs=0, away=False)
    assert to_ada(table) == since + 4
    assert table.deadline == since + 4 + 30  # her turns have the move's 30 seconds again


def test_an_action_in_time_resets_the_time_outs_in_a_row() -> None:
    control = TimeControl(move=30, takeover=2)
    table = dealt(control, seed=seed_where(luxury_first))
    ada_times_out(table)
    assert table.clocks.seats[0].time_outs == 1
    act(table, bid(0, 1), to_ada(table) + 1)  # in time
    assert table.clocks.seats[0] == SeatClock(time_outs=0, away=False)
    ada_times_out(table)  # one in a row again: not away
    assert table.clocks.seats[0] == SeatClock(time_outs=1, away=False)


def test_time_outs_are_counted_per_seat() -> None:
    table = dealt(TimeControl(move=30, takeover=2), seed=seed_where(lambda o: is_luxury(o[0])))
    assert table.time_out(T0 + 30) == Pass(0)
    assert table.time_out(T0 + 60) == Pass(1)  # Cy wins the card free (R6)
    times = [(clock.time_outs, clock.away) for clock in table.clocks.seats]
    assert times == [(1, False), (1, False), (0, False)]


def test_a_late_move_taken_before_the_time_out_is_the_seats_own() -> None:
    # The table never refuses a move for being late (_clock's description): the host
    # that played it before asking for the time-out gave the seat its turn.
    table = dealt(TimeControl(bank=30, increment=5, takeover=1), now=T0)
    act(table, bid(0, 1), T0 + 45)
    assert table.clocks.seats[0] == SeatClock(bank=5.0)  # emptied, then its increment
    assert table.clocks.timed_out == ()


def test_an_action_played_with_no_time_leaves_the_clocks_as_they_are() -> None:
    # Fixed: such an action used to clear its seat's time-outs and its away flag, though
    # play() says that without a time the clocks are left as they are.
    table = dealt(TimeControl(move=30, takeover=1), seed=seed_where(lambda o: is_luxury(o[0])))
    assert table.time_out(T0 + 30) == Pass(0)
    clocks = table.clocks
    assert clocks.seats[0] == SeatClock(time_outs=1, away=True)
    for action in (bid(1, 1), Pass(2), None, bid(1, 2), Pass(2), bid(0, 3)):
        table.play(table.next_reveal() if action is None else action)
        assert table.clocks == clocks  # Ben wins a card; in the next round Ada bids
    assert (table.state.turn, table.deadline) == (1, T0 + 30 + 30)  # since: the time-out


@pytest.mark.parametrize("now", [float("nan"), float("inf"), -float("inf"), True, "1", None])
def test_a_time_that_is_not_a_finite_number_is_refused_and_changes_nothing(now: object) -> None:
    # Fixed: time_out(nan) played a time-out (nan is never before a deadline) and made every
    # later deadline nan, so each call played one more; an infinite time did the same, and
    # neither could be kept in a snapshot's JSON.
    table = dealt(TimeControl.per_move(30), now=T0)
    before = table.snapshot()
    with pytest.raises(InvalidConfigError, match="finite number"):
        table.time_out(now)  # type: ignore[arg-type]
    if now is not None:
        for call in (
            lambda: table.submit(0, Move(Pass(0)), now),  # type: ignore[arg-type]
            lambda: table.play(Pass(0), now),  # type: ignore[arg-type]
            lambda: table.deal(now),  # type: ignore[arg-type]
            lambda: table.advance({}, now),  # type: ignore[arg-type]
        ):
            with pytest.raises(InvalidConfigError, match="finite number"):
                call()
    assert table.snapshot() == before


# --- Snapshots ---------------------------------------------------------------------------------


def test_a_snapshot_keeps_the_clocks_and_the_restored_table_has_the_same_future() -> None:
    control = TimeControl(bank=60, increment=2, takeover=1, away_seconds=7, bot="cautious")
    table = dealt(control, seed=seed_where(luxury_first))
    act(table, bid(0, 1), T0 + 10)
    assert table.time_out(T0 + 70) == Pass(1)  # Ben is away
    twin = Table.restore(json.dumps(table.snapshot()))
    assert twin.clocks == table.clocks
    assert twin.clocks.seats == (
        SeatClock(bank=52.0),
        SeatClock(bank=2.0, time_outs=1, away=True),
        SeatClock(bank=60.0),
    )
    assert twin.clocks.since == T0 + 70
    assert twin.clocks.timed_out == (2,)
    assert twin.deadline == table.deadline == T0 + 130
    assert twin.snapshot() == table.snapshot()
    played = 0
    for now in (T0 + 80.0 + 25 * step for step in range(40)):  # the same time-outs follow
        assert twin.deal(now) == table.deal(now)
        out = table.time_out(now)
        assert twin.time_out(now) == out
        played += out is not None
        assert twin.snapshot() == table.snapshot()
    assert played > 5


def test_a_version_1_snapshot_is_read_as_a_table_without_a_clock() -> None:
    table = dealt(None)
    act(table, bid(0, 1), T0)
    old = table.snapshot()
    del old["clock"]
    old["version"] = 1
    restored = Table.restore(old)
    assert restored.clocks == Clocks.start(TimeControl(), 3)
    assert restored.state == table.state
    assert restored.deadline is None


# --- Records -----------------------------------------------------------------------------------


def game_with_time_outs() -> tuple[Table, list[int]]:
    """A whole game: Ada's person lets every turn run out (after two she is away and her bot
    plays), Ben and Cy are bots; returns the table and the numbers the time-outs played."""
    control = TimeControl(move=20, takeover=2, away_seconds=3)
    table = Table(
        [Seat("Ada"), Seat("Ben", "heuristic"), Seat("Cy", "heuristic")],
        seed=11,
        meta={"event": "club night"},
        time_control=control,
    )
    bots = {1: SeatOnly(HeuristicBot(1)), 2: SeatOnly(HeuristicBot(2))}
    away = {0: SeatOnly(HeuristicBot(5))}
    now, played = T0, []
    while True:
        table.advance(bots, now)
        if table.is_over:
            break
        deadline = table.deadline
        assert deadline is not None
        assert table.state.turn == 0
        played.append(table.number)
        assert table.time_out(deadline, away) is not None
        now = deadline + 1
    return table, played


def test_the_record_of_a_game_with_time_outs_validates_and_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table, played = game_with_time_outs()
    record = table.record()
    assert len(played) > 2
    assert record.meta["time_outs"] == played == list(table.clocks.timed_out)
    assert record.meta["time_control"] == table.clocks.control.to_json()
    assert record.meta["event"] == "club night"  # the table's own meta kept beside them
    assert table.deadline is None  # over: nobody to time out
    assert table.time_out(T0 + 366 * DAY, {0: Bidder()}) is None
    validation = validate_record(dumps_record(record))
    assert validation.valid
    assert validation.finished
    assert replay(record) == table.state
    assert validation.result == result(table.state)
    path = tmp_path / "timed.json"
    write_record(path, record)
    capsys.readouterr()
    assert main(["validate", "--json", str(path)]) == 0  # high-society validate takes it too
    line = json.loads(capsys.readouterr().out)
    assert (line["valid"], line["finished"], line["actions"]) == (True, True, table.number)

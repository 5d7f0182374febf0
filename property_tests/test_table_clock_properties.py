"""Turn clocks at a table (high_society.table), driven by random interleavings of
moves, bots' turns, deals, snapshots and time-outs asked at random times.

A state machine plays tables of 3 to 5 seats (persons, and bots the host lets play) under a
random time control (none, seconds a move, a bank with an increment, days a move; a
random ``takeover`` and ``away_seconds``). Time only goes forward, by random amounts or to
just before, at or just after the deadline of the turn under way; it is always given,
never read. After every step:

- a time-out never applies before its deadline, and always applies at or after it: asked
  before (or with no deadline: no clock, chance to act), it changes nothing; applied, it
  plays exactly one action, the documented default (or, for an away seat whose bot is
  given, the bot's choice), for the seat whose turn it was;
- each turn, so each deadline, times out at most once: the numbers of the actions played
  by time-outs are distinct and increasing;
- each seat's clock is what a reference model says (bank charged the time used and given
  the increment, emptied by a time-out; time-outs in a row; away after ``takeover`` of
  them, back after the person's own action), and so is the deadline;
- the state stays legal; the record (its ``meta`` holding the time control and the
  time-outs) validates and replays to the same state;
- a table restored from a snapshot taken at any point (as JSON, or parsed) then has the
  same future: every call made on both gives the same answer and the same snapshot.
"""

import json

from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from high_society import Action, Discard, GameState, Pass, Phase, Reveal, legal_actions, to_act
from high_society.record import replay, validate_record
from high_society.table import Accepted, Move, Seat, Table, TimeControl, Waiting, default_action
from property_tests.checks import state_and_turn_problems
from property_tests.strategies import choose_action

#: Seconds since the epoch when each table begins.
T0 = 1_700_000_000.0
#: Times move in quarter seconds: exact in a float, so the model's sums are the table's.
QUARTERS = st.integers(0, 4 * 150).map(lambda q: q / 4)
#: Where a time-out is asked, from the deadline of the turn under way.
OFFSETS = st.sampled_from([-0.25, 0.0, 0.0, 0.25, 1.5])
SECONDS = st.integers(1, 90).map(float)


@st.composite
def time_controls(draw: st.DrawFn) -> TimeControl | None:
    """No clock, seconds a move, a bank with an increment, or days a move."""
    kind = draw(st.sampled_from(["none", "move", "bank", "days"]))
    takeover = draw(st.integers(1, 3))
    away = draw(SECONDS)
    if kind == "none":
        return None
    if kind == "move":
        return TimeControl(move=draw(SECONDS), takeover=takeover, away_seconds=away)
    if kind == "days":
        days = TimeControl.correspondence(days=draw(st.integers(1, 14)))
        return TimeControl(move=days.move, takeover=takeover, away_seconds=away)
    bank = float(draw(st.integers(1, 400)))
    increment = float(draw(st.integers(0, 20)))
    return TimeControl(bank=bank, increment=increment, takeover=takeover, away_seconds=away)


class Steady:
    """A bot whose choice depends on the state alone (so a table and its restored twin get
    the same): an even seat bids the least it can, an odd one passes; a discard is the
    first legal one."""

    def choose(self, state: GameState) -> Action:
        legal = legal_actions(state)
        return legal[min(1, len(legal) - 1)] if state.turn % 2 == 0 else legal[0]


class TableClocks(RuleBasedStateMachine):
    table: Table
    twin: Table | None
    control: TimeControl
    bots: dict[int, Steady]
    now: float
    # The reference model of the clocks.
    since: float | None
    banks: list[float | None]
    time_outs: list[int]
    away: list[bool]
    timed_out: list[int]

    def _start(self, control: TimeControl | None, bot_seats: list[bool], seed: int) -> None:
        seats = [Seat(f"P{i}", "steady" if bot else None) for i, bot in enumerate(bot_seats)]
        self.table = Table(seats, seed=seed, time_control=control)
        self.twin = None
        self.control = control or TimeControl()
        self.bots = {i: Steady() for i, bot in enumerate(bot_seats) if bot}
        self.now = T0
        self.since = None
        self.banks = [self.control.bank] * len(seats)
        self.time_outs = [0] * len(seats)
        self.away = [False] * len(seats)
        self.timed_out = []
        event(f"clock: {'none' if control is None else 'bank' if control.bank else 'move'}")

    @initialize(
        control=time_controls(),
        bot_seats=st.lists(st.booleans(), min_size=3, max_size=5),
        seed=st.integers(0, 2**32),
    )
    def a_table(self, control: TimeControl | None, bot_seats: list[bool], seed: int) -> None:
        self._start(control, bot_seats, seed)

    # --- Calls made on the table and on its restored twin alike --------------------------------

    def _deal(self) -> None:
        dealt = self.table.deal(self.now)
        if self.twin is not None:
            assert self.twin.deal(self.now) == dealt
        self._played(dealt)

    def _advance(self) -> None:
        played = self.table.advance(self.bots, self.now)
        if self.twin is not None:
            assert self.twin.advance(self.bots, self.now) == played
        self._played(played)

    def _played(self, actions: list[Action]) -> None:
        """The model after ``actions`` played at ``self.now``, not by time-outs."""
        for action in actions:
            if not isinstance(action, Reveal) and self.control.timed:
                seat = action.seat
                bank = self.banks[seat]
                if bank is not None and self.since is not None:
                    used = max(0.0, self.now - self.since)
                    bank = max(0.0, bank - used) + self.control.increment
                self.banks[seat], self.time_outs[seat], self.away[seat] = bank, 0, False
            self.since = self.now

    def _time_out(self, with_bots: bool) -> None:
        """Ask for a time-out now, and check what it did against its deadline."""
        table = self.table
        before, state, number, deadline = (
            table.snapshot(),
            table.state,
            table.number,
            table.deadline,
        )
        bots = {i: Steady() for i in range(len(table.seats))} if with_bots else None
        played = table.time_out(self.now, bots)
        if self.twin is not None:
            assert self.twin.time_out(self.now, bots) == played
        if played is None:  # never at or after a deadline; nothing changed
            assert deadline is None or self.now < deadline
            assert table.snapshot() == before
            return
        assert deadline is not None
        assert self.now >= deadline  # never before it
        assert table.history[number:] == (played,)  # one action, for the seat to act
        seat = to_act(state)
        assert isinstance(seat, int)
        assert getattr(played, "seat", None) == seat
        if self.away[seat] and with_bots:
            assert played == Steady().choose(state)
            event("time-out: an away seat's bot")
        else:  # the documented default, said again here without default_action
            assert played == default_action(state)
            if state.phase is Phase.AUCTION:
                assert played == Pass(seat)
            else:
                discards = [a for a in legal_actions(state) if isinstance(a, Discard)]
                assert isinstance(played, Discard)
                assert played.card.luxury_value == min(a.card.luxury_value for a in discards)
            event(f"time-out: default {type(played).__name__}")
        if self.banks[seat] is not None:
            self.banks[seat] = self.control.increment
        self.time_outs[seat] += 1
        self.away[seat] = self.time_outs[seat] >= self.control.takeover
        self.since = self.now
        self.timed_out.append(number)

    # --- Rules ---------------------------------------------------------------------------------

    # Every rule is enabled in every state (each does what the moment allows): a rule with a
    # precondition would be drawn in vain, and Hypothesis gives up on a run that draws too
    # many.

    @rule(data=st.data(), used=QUARTERS)
    def the_game_goes_on(self, data: st.DataObject, used: float) -> None:
        """A person acts (in time or late: a late move before the time-out is taken), or
        the host plays the bots and deals; a table over is checked and another begins."""
        self.now += used
        if self.table.is_over:
            self.the_record_validates_and_replays()
            event("a game played to its end")
            bot_seats = data.draw(st.lists(st.booleans(), min_size=3, max_size=5))
            self._start(data.draw(time_controls()), bot_seats, data.draw(st.integers(0, 2**32)))
        elif self.table.waiting_for is Waiting.PERSON:
            self._a_person_acts(choose_action(data.draw, self.table.state))
        else:
            self._advance()

    def _a_person_acts(self, action: Action) -> None:
        assert not isinstance(action, Reveal)
        outcome = self.table.submit(action.seat, Move(action), self.now)
        assert isinstance(outcome, Accepted)
        if self.twin is not None:
            assert self.twin.submit(action.seat, Move(action), self.now) == outcome
        self._played([action])
        self._deal()  # the host deals the card the move made due

    @rule(used=QUARTERS, with_bots=st.booleans())
    def a_time_out_is_asked_later(self, used: float, with_bots: bool) -> None:
        self.now += used
        self._time_out(with_bots)

    @rule(offset=OFFSETS, with_bots=st.booleans(), again=st.booleans())
    def a_time_out_is_asked_by_the_deadline(
        self, offset: float, with_bots: bool, again: bool
    ) -> None:
        """Just before, at or just after the deadline of the turn under way (no deadline:
        now)."""
        deadline = self.table.deadline
        if deadline is not None:
            self.now = max(self.now, deadline + offset)
        self._time_out(with_bots)
        if again:  # at the same time: only a new turn whose deadline has passed times out
            self._time_out(with_bots)

    @rule(turns=st.integers(1, 40), offset=OFFSETS, with_bots=st.booleans())
    def every_person_runs_out_of_time(self, turns: int, offset: float, with_bots: bool) -> None:
        """Many turns at once, each person's run out (no clock: the person passes or
        discards at once), the host playing the bots and dealing between."""
        for _ in range(turns):
            if self.table.is_over:
                break
            if self.table.waiting_for is not Waiting.PERSON:
                self._advance()
                continue
            deadline = self.table.deadline
            if deadline is None:
                self._a_person_acts(legal_actions(self.table.state)[0])
                continue
            self.now = max(self.now, deadline + offset)
            self._time_out(with_bots)

    @rule(as_text=st.booleans())
    def a_snapshot_is_restored(self, as_text: bool) -> None:
        """From now on every call is made on the restored twin too."""
        snapshot = self.table.snapshot()
        self.twin = Table.restore(json.dumps(snapshot) if as_text else snapshot)
        assert self.twin.snapshot() == snapshot

    # --- Invariants ----------------------------------------------------------------------------

    @invariant()
    def the_state_is_legal(self) -> None:
        assert state_and_turn_problems(self.table.state, brute_force=False) == []

    @invariant()
    def the_clocks_and_the_deadline_are_the_models(self) -> None:
        clocks = self.table.clocks
        assert clocks.since == self.since
        assert [clock.bank for clock in clocks.seats] == self.banks
        assert [clock.time_outs for clock in clocks.seats] == self.time_outs
        assert [clock.away for clock in clocks.seats] == self.away
        assert list(clocks.timed_out) == self.timed_out
        assert self.timed_out == sorted(set(self.timed_out))  # each turn timed out once at most
        actor = to_act(self.table.state)
        expected = None
        if self.control.timed and isinstance(actor, int) and self.since is not None:
            if self.away[actor]:
                expected = self.since + self.control.away_seconds
            else:
                move = self.control.move
                allowance = move if move is not None else self.banks[actor]
                assert allowance is not None
                expected = self.since + allowance
        assert self.table.deadline == expected

    @invariant()
    def the_twin_is_the_same_table(self) -> None:
        if self.twin is not None:
            assert self.twin.snapshot() == self.table.snapshot()
            assert self.twin.deadline == self.table.deadline
            assert self.twin.waiting_for is self.table.waiting_for

    def the_record_validates_and_replays(self) -> None:
        record = self.table.record()
        validation = validate_record(record)
        assert validation.valid, validation.error
        assert validation.finished == self.table.is_over
        assert replay(record) == self.table.state
        if self.control.timed:
            assert record.meta["time_outs"] == self.timed_out
            assert record.meta["time_control"] == self.control.to_json()
            for number in self.timed_out:
                assert not isinstance(record.actions[number], Reveal)
        else:
            assert "time_outs" not in record.meta

    def teardown(self) -> None:
        self.the_record_validates_and_replays()


TestTableClocks = TableClocks.TestCase
# Each step replays no more than a snapshot's game; the profile's own runs (500 examples of
# 60 steps under ci) would repeat the same interleavings for minutes: fewer, as long.
TestTableClocks.settings = settings(
    max_examples=min(settings().max_examples, 200),
    stateful_step_count=max(settings().stateful_step_count, 60),
)

"""The bot protocol: state bots, seat bots told only what their seat knows (R13, R14), and
the optional start and end hooks, through every host that runs on ``host.play``."""

from typing import ClassVar

import pytest

from high_society import (
    STANDARD,
    Action,
    GameState,
    InvalidConfigError,
    NoSeatToActError,
    Reveal,
    StatusCard,
    apply,
    new_game,
    result,
)
from high_society.bots import (
    AnyBot,
    Bot,
    GameStart,
    HeuristicBot,
    RandomBot,
    SeatBot,
    SeatOnly,
    Seen,
    chooser,
    decide,
    end_bots,
    start_bots,
)
from high_society.host import play, play_game
from high_society.observation import SeatView, view
from high_society.scoring import GameResult
from high_society.tournament import Entrant, tournament
from tests.builders import play_actions


class Recorder:
    """A seat bot that plays like a random bot and keeps what it was told."""

    def __init__(self, seed: int = 0) -> None:
        self.random = RandomBot(seed)
        self.seen: list[Seen] = []
        self.starts: list[GameStart] = []
        self.ends: list[GameResult] = []

    def choose_seen(self, seen: Seen) -> Action:
        self.seen.append(seen)
        return self.random.choose(seen.deduced_state())

    def start(self, game: GameStart) -> None:
        self.starts.append(game)

    def end(self, outcome: GameResult) -> None:
        self.ends.append(outcome)


def test_a_seat_bot_is_told_its_view_and_the_public_history_never_the_state() -> None:
    recorder = Recorder()
    bots: list[AnyBot] = [RandomBot(1), recorder, RandomBot(2), RandomBot(3)]
    steps = list(play(bots, seed=5))
    asked = [s for s in steps if s.before.phase.value in {"auction", "discard"}]
    mine = [s for s in asked if s.before.turn == 1]
    assert len(recorder.seen) == len(mine) > 0
    actions = [s.action for s in steps]
    for seen, step in zip(recorder.seen, mine, strict=True):
        assert type(seen.view) is SeatView
        assert seen.view == view(step.before, 1)  # R13: the seat's own view, nothing more
        assert seen.seat == 1
        done = steps.index(step)
        assert seen.history == tuple(actions[:done])  # every action so far, reveals too


def test_R14_the_state_deduced_from_the_public_history_is_the_true_state() -> None:
    for seed in range(6):
        recorder = Recorder(seed)
        steps = list(play([recorder, RandomBot(seed), HeuristicBot(seed)], seed=seed))
        befores = [
            s.before
            for s in steps
            if s.before.turn == 0 and s.before.phase.value in {"auction", "discard"}
        ]
        assert [seen.deduced_state() for seen in recorder.seen] == befores


def test_a_state_bot_played_from_what_its_seat_knows_plays_the_same_game() -> None:
    plain, _ = play_game([HeuristicBot(1), HeuristicBot(2), HeuristicBot(3)], seed=9)
    seat_only, _ = play_game(
        [SeatOnly(HeuristicBot(1)), HeuristicBot(2), SeatOnly(HeuristicBot(3))], seed=9
    )
    assert seat_only == plain


def test_start_is_called_once_before_the_first_action_and_end_once_after_the_last() -> None:
    recorder = Recorder()
    first = iter(play([RandomBot(1), RandomBot(2), recorder], seed=3))
    step = next(first)
    assert recorder.starts == [GameStart(seat=2, players=3, config=STANDARD)]
    assert step.action == Reveal(step.action.card) if isinstance(step.action, Reveal) else False
    assert recorder.ends == []
    final = step.after
    for step in first:
        final = step.after
    assert recorder.starts == [GameStart(seat=2, players=3, config=STANDARD)]
    assert recorder.ends == [result(final)]


def test_hooks_are_passed_on_by_seat_only_and_by_tournaments() -> None:
    class Hooked(HeuristicBot):
        starts: ClassVar[list[GameStart]] = []
        ends: ClassVar[list[GameResult]] = []

        def start(self, game: GameStart) -> None:
            Hooked.starts.append(game)

        def end(self, outcome: GameResult) -> None:
            Hooked.ends.append(outcome)

    play_game([SeatOnly(Hooked(1)), RandomBot(2), RandomBot(3)], seed=1)
    assert [g.seat for g in Hooked.starts] == [0]
    assert len(Hooked.ends) == 1
    Hooked.starts.clear()
    Hooked.ends.clear()
    lineup = [Entrant("hooked", Hooked), Entrant("r1", RandomBot), Entrant("r2", RandomBot)]
    tournament(lineup, games=6, seed=2)
    assert sorted(g.seat for g in Hooked.starts) == [0, 0, 1, 1, 2, 2]  # seats rotate
    assert len(Hooked.ends) == 6


def test_a_seat_bot_in_a_tournament_is_still_told_only_what_its_seat_knows() -> None:
    told: list[object] = []

    class SeatHeuristic:
        def __init__(self, seed: int) -> None:
            self.inner = SeatOnly(HeuristicBot(seed))

        def choose_seen(self, seen: Seen) -> Action:
            told.append(seen)
            return self.inner.choose_seen(seen)

    plain = tournament(
        [Entrant("h", HeuristicBot), Entrant("r", RandomBot), Entrant("r", RandomBot)], 9, 4
    )
    seats = tournament(
        [Entrant("h", SeatHeuristic), Entrant("r", RandomBot), Entrant("r", RandomBot)], 9, 4
    )
    assert told
    assert all(type(t) is Seen for t in told)
    assert seats.rows == plain.rows  # the same decisions: the deduced state is the state


def test_decide_asks_either_kind_of_bot() -> None:
    state = apply(new_game(3), Reveal(StatusCard.LUXURY_4))
    history = [Reveal(StatusCard.LUXURY_4)]
    assert decide(RandomBot(7), state, history) == RandomBot(7).choose(state)
    assert decide(SeatOnly(RandomBot(7)), state, history) == RandomBot(7).choose(state)
    with pytest.raises(NoSeatToActError):
        decide(RandomBot(7), new_game(3), [])


def test_an_object_that_is_no_bot_is_refused_with_its_seat() -> None:
    with pytest.raises(InvalidConfigError, match=r"seat 1 .*no choose or choose_seen"):
        chooser(object(), 1, [])  # type: ignore[arg-type]
    with pytest.raises(InvalidConfigError, match="no choose or choose_seen"):
        list(play([RandomBot(1), object(), RandomBot(2)], seed=1))  # type: ignore[list-item]


def test_the_protocols_tell_the_kinds_apart() -> None:
    assert isinstance(RandomBot(1), Bot)
    assert not isinstance(SeatOnly(RandomBot(1)), Bot)
    assert isinstance(SeatOnly(RandomBot(1)), SeatBot)
    assert isinstance(Recorder(), SeatBot)


def _started_game() -> tuple[GameState, list[Action]]:
    history: list[Action] = [Reveal(StatusCard.LUXURY_2)]
    return play_actions(*history), history


def test_a_seat_bot_playing_from_a_start_state_needs_the_history_that_led_there() -> None:
    start, history = _started_game()
    bots: list[AnyBot] = [Recorder(), RandomBot(1), RandomBot(2)]
    with pytest.raises(InvalidConfigError, match="history"):
        list(play(bots, seed=1, start=start))
    with pytest.raises(InvalidConfigError, match="does not lead to its start"):
        list(play(bots, seed=1, start=start, history=[Reveal(StatusCard.LUXURY_3)]))
    with pytest.raises(InvalidConfigError, match="not a game"):
        list(play(bots, seed=1, start=start, history=[Reveal(StatusCard.LUXURY_3)] * 2))
    with pytest.raises(InvalidConfigError, match="only with the start"):
        list(play(bots, seed=1, history=history))
    steps = list(play(bots, seed=1, start=start, history=history))
    recorder = bots[0]
    assert isinstance(recorder, Recorder)
    assert recorder.seen[0].history[: len(history)] == tuple(history)
    assert steps[-1].after.is_over


def test_state_bots_from_a_start_state_need_no_history() -> None:
    start, _ = _started_game()
    steps = list(play([RandomBot(1), RandomBot(2), RandomBot(3)], seed=1, start=start))
    assert steps[0].before == start


def test_start_and_end_hooks_can_be_called_by_a_host_of_ones_own() -> None:
    recorder = Recorder()
    final, _ = play_game([RandomBot(1), RandomBot(2), RandomBot(3)], seed=2)
    start_bots([RandomBot(1), recorder, RandomBot(2)], new_game(3))
    end_bots([RandomBot(1), recorder, RandomBot(2)], final)
    assert recorder.starts == [GameStart(1, 3, STANDARD)]
    assert recorder.ends == [result(final)]

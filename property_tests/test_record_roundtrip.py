"""Recorded games of random play replay to the same states and results; JSON round trips
are exact; no input, however broken, makes validation raise.

Example counts are set here, below the ``ci`` profile's 500, to keep these within their
share of the CI time (a whole standard game per example).
"""

import json

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

from high_society import (
    STANDARD,
    GameConfig,
    GameRecord,
    GameState,
    Phase,
    RecordWriter,
    action_from_json,
    action_to_json,
    apply,
    dumps_record,
    legal_actions,
    loads_record,
    new_game,
    record_to_json,
    replay,
    result,
    state_from_json,
    state_to_json,
    validate_record,
)
from high_society.actions import Action
from high_society.serial import JSON

NAMES = ("Ada", "Ben", "Cy", "Dee", "Eve")
#: A reduced game (every rule, fewer cards) for the state round trips.
SMALL = GameConfig(money=(1, 3, 5, 8), deck=STANDARD.deck[8:])


@attrs.frozen
class Game:
    """A played game: every state from the first to the last, and the actions between."""

    states: tuple[GameState, ...]
    actions: tuple[Action, ...]

    @property
    def first(self) -> GameState:
        return self.states[0]

    @property
    def final(self) -> GameState:
        return self.states[-1]


@st.composite
def games(draw: st.DrawFn, config: GameConfig = STANDARD) -> Game:
    """A whole game. In an auction it passes or makes one of the four cheapest bids: random
    bids would spend whole hands at once.

    The choices come from one drawn ``Random``, not from one draw per action: hundreds of
    draws per example made Hypothesis' replays of a game inconsistent
    (``FlakyStrategyDefinition``) and slow, and shrinking a whole game buys little here.
    """
    rng = draw(st.randoms(use_true_random=False))
    state = new_game(draw(st.integers(3, 5)), config)
    states, actions = [state], []
    while not state.is_over:
        legal = legal_actions(state)
        top = min(len(legal), 5) if state.phase is Phase.AUCTION else len(legal)
        action = legal[rng.randrange(top)]
        state = apply(state, action)
        states.append(state)
        actions.append(action)
    return Game(tuple(states), tuple(actions))


def _record(game: Game) -> GameRecord:
    writer = RecordWriter(NAMES[: game.first.num_players], meta={"n": len(game.actions)})
    for action, after in zip(game.actions, game.states[1:], strict=True):
        assert writer.add(action) == after
    return writer.record()


@settings(max_examples=60)
@given(games(), st.data())
def test_records_of_random_games_replay_to_the_same_states_and_result(
    game: Game, data: st.DataObject
) -> None:
    record = _record(game)
    text = dumps_record(record)
    assert loads_record(text) == record
    assert json.loads(json.dumps(record_to_json(record))) == record_to_json(record)
    assert replay(record) == game.final
    validation = validate_record(text)
    assert validation.finished
    assert validation.state == game.final
    assert validation.result == result(game.final)
    # Any prefix is a valid game in progress, at the state the game had then.
    k = data.draw(st.integers(0, len(game.actions) - 1), label="prefix length")
    prefix = validate_record(dumps_record(GameRecord(record.players, record.actions[:k])))
    assert prefix.valid
    assert not prefix.finished
    assert prefix.state == game.states[k]


@settings(max_examples=60)
@given(st.sampled_from([STANDARD, SMALL]).flatmap(games))
def test_every_action_and_state_round_trips_through_json(game: Game) -> None:
    for action in game.actions:
        assert action_from_json(json.loads(json.dumps(action_to_json(action)))) == action
    for state in game.states:
        assert state_from_json(json.loads(json.dumps(state_to_json(state)))) == state


json_values: st.SearchStrategy[JSON] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)  # json.dumps would write Infinity
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=80)
@given(games(), st.integers(min_value=0), json_values)
def test_a_record_with_one_action_replaced_by_anything_is_judged_without_raising(
    game: Game, which: int, replacement: JSON
) -> None:
    document = record_to_json(_record(game))
    actions = document["actions"]
    assert isinstance(actions, list)
    index = which % len(actions)
    actions[index] = replacement
    validation = validate_record(json.dumps(document))
    if validation.error is not None:
        # Everything before the replaced action was legal, so the first problem is no earlier.
        assert validation.error.index is not None
        assert validation.error.index >= index
        assert validation.error.path.startswith(f"$.actions[{validation.error.index}]")
    else:
        assert validation.record is not None
        assert len(validation.record.actions) == len(actions)


@settings(max_examples=100)
@given(st.one_of(st.binary(max_size=200), st.text(max_size=200), json_values.map(json.dumps)))
def test_arbitrary_input_is_reported_never_raised(source: bytes | str) -> None:
    validation = validate_record(source)
    if validation.error is not None:
        assert validation.error.code
        assert validation.error.path.startswith("$")

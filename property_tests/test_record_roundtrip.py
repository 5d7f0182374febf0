"""Recorded games of random play replay to the same states and results; JSON round trips
are exact; no input, however broken, makes validation raise.

Games come from the steered policy of ``strategies.py`` (standard and reduced games).
Example counts are set here, below the ``ci`` profile's 500, to keep these within their
share of the CI time (a whole game per example).
"""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from high_society import (
    STANDARD,
    result,
)
from high_society.record import (
    GameRecord,
    RecordWriter,
    dumps_record,
    loads_record,
    record_to_json,
    replay,
    validate_record,
)
from high_society.serial import (
    JSON,
    action_from_json,
    action_to_json,
    state_from_json,
    state_to_json,
)
from property_tests.strategies import Game, games

#: Records of format v1 are of the standard game; states carry their configuration.
standard_games = games(st.just(STANDARD))

NAMES = ("Ada", "Ben", "Cy", "Dee", "Eve")


def _record(game: Game) -> GameRecord:
    writer = RecordWriter(NAMES[: game.first.num_players], meta={"n": len(game.actions)})
    for action, after in zip(game.actions, game.states[1:], strict=True):
        assert writer.add(action) == after
    return writer.record()


@settings(max_examples=60)
@given(standard_games, st.data())
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
@given(games())
def test_every_action_and_state_round_trips_through_json(game: Game) -> None:
    for action in game.actions:
        assert action_from_json(json.loads(json.dumps(action_to_json(action)))) == action
    for state in game.states:
        assert state_from_json(json.loads(json.dumps(state_to_json(state)))) == state


json_values: st.SearchStrategy[JSON] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)  # JSON text's integers (wider: BAD_NUMBER, test_fuzz)
    | st.floats(allow_nan=False, allow_infinity=False)  # json.dumps would write Infinity
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=80)
@given(standard_games, st.integers(min_value=0), json_values)
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

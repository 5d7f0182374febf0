"""``apply`` never changes its input, and the same history always gives the same state.

A state's pickle is its deep value: any change anywhere inside it changes the bytes.
"""

import pickle

from hypothesis import given
from hypothesis import strategies as st

from high_society import apply, legal_actions, new_game
from property_tests.strategies import Game, games


@given(games(), st.data())
def test_apply_never_changes_its_input(game: Game, data: st.DataObject) -> None:
    for before, action, _ in game.steps:
        snapshot = pickle.dumps(before)
        apply(before, action)
        assert pickle.dumps(before) == snapshot
    state = data.draw(st.sampled_from(game.states[:-1]), label="state")
    snapshot = pickle.dumps(state)
    for action in legal_actions(state)[:30]:
        apply(state, action)
    assert pickle.dumps(state) == snapshot


@given(games())
def test_the_same_history_gives_the_same_state(game: Game) -> None:
    first = game.first
    state = new_game(first.num_players, first.config)
    assert state == first
    for action, expected in zip(game.actions, game.states[1:], strict=True):
        state = apply(state, action)
        assert state == expected
        assert hash(state) == hash(expected)

"""``a in legal_actions(s)`` <=> ``is_legal(s, a)`` <=> ``apply(s, a)`` does not raise,
on legal actions and on generated illegal ones (wrong seat, unknown cards, too low, spent
cards, out of turn ...); a refusal carries the reason ``why_illegal`` gives."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from high_society import IllegalActionError, Reason, apply, is_legal, new_game
from property_tests.checks import legality_problems
from property_tests.strategies import Game, any_actions, games, near_misses


@given(games(), st.data())
def test_membership_is_legal_and_apply_agree(game: Game, data: st.DataObject) -> None:
    index = data.draw(st.integers(0, len(game.states) - 1), label="state index")
    state = game.states[index]
    candidates = data.draw(st.lists(near_misses(state), max_size=12), label="near misses")
    candidates += data.draw(st.lists(any_actions, max_size=6), label="arbitrary actions")
    if index < len(game.actions):
        candidates.append(game.actions[index])
    assert legality_problems(state, candidates) == []


@given(st.one_of(st.integers(), st.text(max_size=3), st.none(), st.tuples(st.integers())))
def test_anything_that_is_not_an_action_is_refused_as_such(thing: object) -> None:
    state = new_game(3)
    assert not is_legal(state, thing)
    with pytest.raises(IllegalActionError) as caught:
        apply(state, thing)  # type: ignore[arg-type]  # deliberately not an action
    assert caught.value.reason is Reason.NOT_AN_ACTION

"""Exactly one of: a seat must act, a reveal is due, the game is over; ``legal_actions`` is
empty exactly when the game is over; every listed action belongs to whoever acts, in the
documented order, and the list equals the rules' brute-force list (R4-R9)."""

from hypothesis import given
from hypothesis import strategies as st

from high_society import CHANCE, Phase, legal_actions, to_act
from property_tests.checks import state_and_turn_problems
from property_tests.strategies import Game, games


@given(games(), st.data())
def test_every_state_has_exactly_one_kind_of_actor_and_the_right_legal_actions(
    game: Game, data: st.DataObject
) -> None:
    for state in game.states:
        assert state_and_turn_problems(state, brute_force=False) == []
    # The brute-force list costs up to 2,047 subsets: one state per game.
    state = data.draw(st.sampled_from(game.states), label="state")
    assert state_and_turn_problems(state) == []


@given(games())
def test_legal_actions_are_empty_exactly_at_the_end(game: Game) -> None:
    *playing, final = game.states
    assert all(len(legal_actions(s)) > 0 and to_act(s) is not None for s in playing)
    assert final.is_over
    assert to_act(final) is None
    assert len(legal_actions(final)) == 0
    assert all((to_act(s) is CHANCE) == (s.phase is Phase.REVEAL) for s in playing)

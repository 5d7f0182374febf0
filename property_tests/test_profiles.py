"""Plain ``pytest`` and every profile the docs name pass on clean code whatever the
machine's load: no profile has a deadline or times a health check, and a generated game
prints small enough that Hypothesis does not warn (the suite makes warnings errors)."""

import pytest
from hypothesis import HealthCheck, settings

from high_society import STANDARD, Phase, apply, legal_actions, new_game
from property_tests.conftest import PROFILES
from property_tests.strategies import Game

#: Above this length Hypothesis warns that a repr is overly large
#: (``hypothesis.internal.reflection.repr_call``).
HYPOTHESIS_REPR_WARNING = 30_000


@pytest.mark.parametrize("name", PROFILES)
def test_no_profile_makes_a_verdict_depend_on_time(name: str) -> None:
    profile = settings.get_profile(name)
    assert profile.deadline is None
    assert HealthCheck.too_slow in profile.suppress_health_check


def test_the_profile_in_use_has_no_deadline() -> None:
    assert settings().deadline is None


def test_a_long_standard_game_prints_small() -> None:
    state = new_game(5, STANDARD)
    states, actions = [state], []
    while not state.is_over:
        legal = legal_actions(state)
        # The cheapest bid, or the reveal or discard: a long game of many small bids.
        action = legal[1] if state.phase is Phase.AUCTION and len(legal) > 1 else legal[0]
        state = apply(state, action)
        states.append(state)
        actions.append(action)
    game = Game(tuple(states), tuple(actions))
    assert len(actions) > 100
    assert len(repr(game)) < HYPOTHESIS_REPR_WARNING
    assert "actions=(" in repr(game)

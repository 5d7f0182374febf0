"""The generated games reach every rare corner of the rules (a guard on the generation, not
on the engine): a strategy that stopped reaching one would leave its rules untested while
every property still passed.

``.venv/bin/pytest property_tests/test_corners.py -s --hypothesis-profile=ci`` prints how
often each corner is reached; ``--hypothesis-show-statistics`` shows the same counts as
events for every property test.
"""

from collections import Counter

import pytest
from hypothesis import given, settings, target
from hypothesis import strategies as st

from high_society import result
from property_tests.strategies import CORNERS, ONE_COIN, Game, configs, corners, games


def _tie_break_closeness(game: Game) -> int:
    """Seats tied on status and money at the top, plus how many top luxury cards they hold
    apart: highest when R12's last tie-break decides."""
    outcome = result(game.final)
    keys = {
        i: (outcome.scores[i], outcome.money[i])
        for i in range(game.final.num_players)
        if i not in outcome.cast_out
    }
    if not keys:
        return 0
    best = max(keys.values())
    tied = [i for i, key in keys.items() if key == best]
    tops = {
        max((c.luxury_value for c in outcome.breakdowns[i].luxury_cards), default=0) for i in tied
    }
    return len(tied) + 2 * (len(tops) - 1)


def test_generation_reaches_every_rare_corner() -> None:
    if settings().max_examples < 500:
        pytest.skip("this guard counts on the ci profile's 500 examples (or more)")
    reached: dict[str, Counter[str]] = {}
    runs = (("the mixed games", configs, 1), ("one-coin games", st.just(ONE_COIN), 4))
    for name, config, times in runs:
        reached[name] = Counter()

        # One-coin games are short: four times as many cost about a second more.
        @settings(max_examples=times * settings().max_examples)
        @given(games(config))
        def play(game: Game) -> None:
            found = reached[next(reversed(reached))]  # this run's counter
            found.update(corners(game))
            found["games"] += 1
            # Steer towards the rarest corner, R12's last tie-break.
            target(float(_tie_break_closeness(game)), label="R12 tie-break closeness")

        play()
    print("\ngames per run, then how many reached each corner:")
    for corner in ("games", *CORNERS):
        print("  " + "  ".join(f"{c[corner]:5d}" for c in reached.values()) + f"  {corner}")
    missing = [corner for corner in CORNERS if not any(c[corner] for c in reached.values())]
    assert not missing, f"no generated game reached: {missing}"

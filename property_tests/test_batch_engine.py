"""The batch engine agrees with the reducer on every decision of the property games.

The games come from the steered strategy of ``strategies.py`` (standard and reduced
configs, 3 to 5 players), which reaches every rare corner of the rules; each decision
state is loaded into a :class:`~high_society.batch.GameBatch` (``set_state``) and must come
back unchanged (``to_state``), offer exactly the reducer's legal actions (their ids in the
library's encoding, ``high_society.encoding``), and step on the action's id to the
reducer's next state (after the reveal the batch drew, when one is due). Hypothesis shrinks
a disagreement to a shortest game. The seeded lockstep runs are
``tests/test_batch_differential.py``.
"""

import numpy as np
from hypothesis import given, settings

from high_society import Phase, Reveal, apply
from high_society.batch import GameBatch
from high_society.encoding import action_id, legal_action_ids
from property_tests.strategies import Game, games


# About 2.5 CPU s (the seeded runs do the volume); no deadline in any profile: the first
# example compiles the kernels, and no verdict depends on timing.
@settings(max_examples=120, deadline=None)
@given(games())
def test_every_decision_steps_as_the_reducers(game: Game) -> None:
    first = game.first
    batch = GameBatch(1, first.num_players, config=first.config, seed=[len(game.actions)])
    for before, action, after in game.steps:
        if before.phase is Phase.REVEAL:
            continue
        batch.set_state(0, before)
        assert batch.to_state(0) == before
        row = batch.legal_action_mask()[0]
        assert np.flatnonzero(row).tolist() == list(legal_action_ids(before))
        ended = batch.step(np.array([action_id(action, before.config)]))
        expected = after
        if after.phase is Phase.REVEAL:
            converted = batch.to_state(0)
            card = converted.auction if converted.phase is Phase.AUCTION else converted.ending_card
            assert card is not None
            expected = apply(after, Reveal(card))
        assert batch.to_state(0) == expected
        assert bool(ended[0]) == expected.is_over

"""The training league of the shipped learned bots: which opponents they learned against.

:func:`training_pool` is the fixed part of the league for a player count: the engine's
compiled bots at boldness values from hoarders to spenders (always passing, the cautious
and classic bots, the heuristic one from half to twice its prices, the cheapest bid
always), each with its weight. :func:`~high_society.batch.training.train` adds frozen
copies of the learner as it goes. The opponents a bot is *measured* against, styles that
no training saw, live apart in :mod:`high_society.strangers`, which nothing here imports
(``tests/test_league.py`` checks it).
"""

from collections.abc import Sequence

from high_society.batch.policies import Compiled, Opponent

__all__ = ["TRAINING_STYLES", "training_pool"]

#: The compiled opponents of the league, with their weights (of a seat's draw).
TRAINING_STYLES: tuple[tuple[Compiled, float], ...] = (
    (Compiled("pass"), 0.5),
    (Compiled("cautious"), 0.5),
    (Compiled("classic", 0.8), 0.5),
    (Compiled("classic", 1.2), 0.5),
    (Compiled("heuristic", 0.5), 0.75),
    (Compiled("heuristic", 0.7), 1.0),
    (Compiled("heuristic", 1.0), 2.0),
    (Compiled("heuristic", 1.4), 1.0),
    (Compiled("heuristic", 2.0), 0.75),
    (Compiled("cheapest"), 0.25),
    (Compiled("uniform"), 0.25),
)


def training_pool(
    extra: Sequence[Opponent] = (), extra_weight: float = 1.0
) -> tuple[list[Opponent], list[float]]:
    """The league's fixed opponents and their weights: :data:`TRAINING_STYLES`, and
    ``extra`` opponents (a former learned bot, say) with ``extra_weight`` each."""
    opponents: list[Opponent] = [style for style, _ in TRAINING_STYLES]
    weights = [weight for _, weight in TRAINING_STYLES]
    opponents += list(extra)
    weights += [extra_weight] * len(extra)
    return opponents, weights

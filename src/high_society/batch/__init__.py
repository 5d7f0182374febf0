"""Many games at once: a vectorised engine for learning and large simulations.

:class:`GameBatch` plays ``N`` games in lockstep over numpy arrays, stepped by loops that
numba compiles; :class:`VectorEnv` wraps it in a Gymnasium-style vector interface, and
:func:`simulate` plays uniform-random games with it. It speaks the integer action ids and
observation layout of ``high_society.encoding`` and ``high_society.observation``, and any
one game turns into a :class:`~high_society.GameState` and back, so that the reducer can
inspect, score or validate it. The differential tests play the same choices through both
engines and compare them at every step (docs/batch.md).

Needs the ``batch`` extra: ``pip install '.[batch]'`` in a clone of the project (numpy and numba).

>>> import numpy as np
>>> from high_society.batch import GameBatch
>>> batch = GameBatch(1000, players=4, seed=1)
>>> while not batch.is_over.all():
...     ended = batch.step(batch.sample_actions())
>>> batch.returns().sum(axis=1).max()  # the winners of a game share 1
np.float64(1.0)
"""

from high_society._text import install_hint

try:
    import numba  # noqa: F401 (checked here so that the message names the extra)
    import numpy  # noqa: F401
except ImportError as error:
    raise ImportError(
        "high_society.batch needs numpy and numba: " + install_hint("batch")
    ) from error

from high_society.batch._engine import (
    MAX_GAMES,
    POLICIES,
    BatchError,
    BatchResults,
    GameBatch,
    IllegalActionIdError,
    Seed,
)
from high_society.batch._layout import MAX_MONEY_CARDS
from high_society.batch._simulate import simulate
from high_society.batch._vector import StepInfo, VectorEnv

__all__ = [
    "MAX_GAMES",
    "MAX_MONEY_CARDS",
    "POLICIES",
    "BatchError",
    "BatchResults",
    "GameBatch",
    "IllegalActionIdError",
    "Seed",
    "StepInfo",
    "VectorEnv",
    "simulate",
]

"""A pytest plugin that plants the misreading ``$HIGH_SOCIETY_PLANT`` names
(:data:`verification.plant.MISREADINGS`) before the library is imported:
``HIGH_SOCIETY_PLANT="R9: only Scandale ends the game" python -m pytest -p
verification.planted tests/test_rulings.py -k R9_``. :func:`verification.plant.failing_examples`
runs it."""

import os

from verification.plant import PLANT, install

install(os.environ[PLANT])

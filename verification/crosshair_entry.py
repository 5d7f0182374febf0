"""``crosshair`` with the project's symbolic-value factory and a work bound: ``python -m
verification.crosshair_entry check [--max_iterations=N] ...`` takes the same arguments as
``crosshair``, plus ``--max_iterations=N`` (CrossHair's own option, which its command line
does not offer): at most N execution paths per condition.

:class:`~high_society.GameConfig` validates itself when built, and CrossHair cannot build
a symbolic instance through that validation (every construction is rejected and the
check ends with "Unable to meet precondition"). The contracts are about the rules, not
about configurations, so CrossHair is given the standard game or a reduced one, both valid.
"""

import sys
from collections.abc import Mapping

import crosshair.main
from crosshair.core import register_type
from crosshair.options import AnalysisOptionSet, option_set_from_dict

from high_society import STANDARD, GameConfig, StatusCard, sort_cards

REDUCED = GameConfig(
    money=(1, 2, 4),
    deck=sort_cards(
        [
            StatusCard.LUXURY_3,
            StatusCard.PRESTIGE,
            StatusCard.FAUX_PAS,
            StatusCard.PASSE,
            StatusCard.SCANDALE,
        ]
    ),
)


def _config(factory: object) -> GameConfig:
    choose = factory(bool)  # type: ignore[operator]  # a SymbolicFactory: a symbolic bool
    return STANDARD if choose else REDUCED


def main(argv: list[str]) -> None:
    """Run ``crosshair`` on ``argv``, with ``--max_iterations N`` taken out and applied."""
    rest = list(argv)
    limit: int | None = None
    for at, arg in enumerate(rest):
        if arg.startswith("--max_iterations="):
            limit = int(arg.split("=", 1)[1])
            del rest[at]
            break
    if limit is not None:
        bound = AnalysisOptionSet(max_iterations=limit)

        def with_limit(source: Mapping[str, object]) -> AnalysisOptionSet:
            return option_set_from_dict(source).overlay(bound)

        # The command line's options are read by this function, looked up in
        # crosshair.main at each call: the bound joins them there.
        setattr(crosshair.main, "option_set_from_dict", with_limit)  # noqa: B010
    register_type(GameConfig, _config)
    crosshair.main.main(rest)


if __name__ == "__main__":
    main(sys.argv[1:])

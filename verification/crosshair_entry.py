"""``crosshair`` with the project's symbolic-value factory: ``python -m
verification.crosshair_entry check ...`` takes the same arguments as ``crosshair``.

:class:`~high_society.GameConfig` validates itself when built, and CrossHair cannot build
a symbolic instance through that validation (every construction is rejected and the
check ends with "Unable to meet precondition"). The contracts are about the rules, not
about configurations, so CrossHair is given the standard game or a reduced one, both valid.
"""

from crosshair.core import register_type
from crosshair.main import main

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


register_type(GameConfig, _config)

if __name__ == "__main__":
    main()

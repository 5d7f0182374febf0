"""The small game the contract checks use beside the standard one: three money cards and a
five-card deck that still holds every kind of status card (luxury, prestige, each disgrace).

CrossHair draws configurations from it (crosshair_entry.py) and the enumerations cover it
whole (enumeration.py).
"""

from high_society import GameConfig, StatusCard, sort_cards

SMALL_GAME = GameConfig(
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

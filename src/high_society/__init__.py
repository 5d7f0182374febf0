"""Every rule of Reiner Knizia's High Society, as an immutable, fully typed reducer.

>>> from high_society import new_game, apply, legal_actions, Reveal, Bid, StatusCard
>>> state = apply(new_game(3), Reveal(StatusCard.LUXURY_7))
>>> state = apply(state, Bid(0, frozenset({1, 3})))
>>> state.highest_bid, len(legal_actions(state))
(4, 2045)
"""

from high_society._version import __version__
from high_society.actions import Action, Bid, Discard, Pass, Reveal, describe_action
from high_society.bots import Bot, HeuristicBot, RandomBot
from high_society.cards import (
    DARK_GREEN,
    DISGRACE,
    LUXURY,
    STANDARD,
    STANDARD_DECK,
    STANDARD_MONEY,
    CardKind,
    GameConfig,
    StatusCard,
    sort_cards,
)
from high_society.errors import (
    GameNotOverError,
    HighSocietyError,
    IllegalActionError,
    InvalidConfigError,
    NoRevealDueError,
    Reason,
)
from high_society.host import Dealer, Step, play, play_game
from high_society.rules import (
    CHANCE,
    Chance,
    LegalActions,
    apply,
    chance_outcomes,
    is_legal,
    legal_actions,
    min_bid_total,
    new_game,
    to_act,
    why_illegal,
)
from high_society.scoring import (
    GameResult,
    StatusBreakdown,
    breakdown,
    result,
    status,
    status_of,
)
from high_society.state import GameState, Phase, PlayerState

__all__ = [
    "CHANCE",
    "DARK_GREEN",
    "DISGRACE",
    "LUXURY",
    "STANDARD",
    "STANDARD_DECK",
    "STANDARD_MONEY",
    "Action",
    "Bid",
    "Bot",
    "CardKind",
    "Chance",
    "Dealer",
    "Discard",
    "GameConfig",
    "GameNotOverError",
    "GameResult",
    "GameState",
    "HeuristicBot",
    "HighSocietyError",
    "IllegalActionError",
    "InvalidConfigError",
    "LegalActions",
    "NoRevealDueError",
    "Pass",
    "Phase",
    "PlayerState",
    "RandomBot",
    "Reason",
    "Reveal",
    "StatusBreakdown",
    "StatusCard",
    "Step",
    "__version__",
    "apply",
    "breakdown",
    "chance_outcomes",
    "describe_action",
    "is_legal",
    "legal_actions",
    "min_bid_total",
    "new_game",
    "play",
    "play_game",
    "result",
    "sort_cards",
    "status",
    "status_of",
    "to_act",
    "why_illegal",
]

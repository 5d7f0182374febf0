"""Every rule of Reiner Knizia's High Society, as an immutable, fully typed reducer.

>>> from high_society import new_game, apply, legal_actions, Reveal, Bid, StatusCard
>>> state = apply(new_game(3), Reveal(StatusCard.LUXURY_7))
>>> state = apply(state, Bid(0, frozenset({1, 3})))
>>> state.highest_bid, len(legal_actions(state))  # Pass, and 2,041 bids that beat 4
(4, 2042)

The package is in three tiers (docs/api.md):

- Here, at the top level: the engine a client needs: cards and configuration, actions, the
  state, the rules (the reducer and the questions asked of a state), scoring and errors.
- Submodules imported by name: :mod:`high_society.bots`, :mod:`high_society.host` (the game
  loop), :mod:`high_society.text` (a game in words), :mod:`high_society.simulate`,
  :mod:`high_society.search` (the search bot), :mod:`high_society.learned` (the
  learned bot), :mod:`high_society.tournament`,
  :mod:`high_society.parallel`, :mod:`high_society.record` and :mod:`high_society.serial`
  (recorded games and JSON), :mod:`high_society.encoding` and
  :mod:`high_society.observation` (action ids, masks, what a seat sees),
  :mod:`high_society.openspiel`, :mod:`high_society.pettingzoo` and
  :mod:`high_society.gymnasium_env` (adapters),
  :mod:`high_society.batch` (the vectorised engine) and
  :mod:`high_society.batch.learner` (its Gymnasium vector env),
  :mod:`high_society.batch.policies` (the opponents it seats),
  :mod:`high_society.batch.training`, :mod:`high_society.batch.league`,
  :mod:`high_society.batch.hardening`, :mod:`high_society.batch.ratings` and
  :mod:`high_society.batch.expert` (PPO in numpy, the training league, rounds of best
  responses, ratings, the lookahead bot distilled into a network),
  :mod:`high_society.strangers` (held-out opponent styles),
  :mod:`high_society.lookahead` (the learned policy inside a search),
  :mod:`high_society.levels` (the built-in bots as levels),
  :mod:`high_society.invariants`, :mod:`high_society.wire` (every shape the wire carries),
  :mod:`high_society.table` (a server's table) and
  :mod:`high_society.server` (the table server, optional extra);
  ``high_society.cli.main`` runs the command line.
- Internals, in underscore modules (``_fast``, ``_bidtable``, ...): not API.
"""

from high_society._version import __version__
from high_society.actions import Action, Bid, Discard, Pass, Reveal, describe_action
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
    EncodingError,
    GameNotOverError,
    HighSocietyError,
    IllegalActionError,
    InvalidConfigError,
    InvalidSeatError,
    NoRevealDueError,
    NoSeatToActError,
    OutOfRangeError,
    Reason,
    RecordCode,
    RecordError,
)
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
    "CardKind",
    "Chance",
    "Discard",
    "EncodingError",
    "GameConfig",
    "GameNotOverError",
    "GameResult",
    "GameState",
    "HighSocietyError",
    "IllegalActionError",
    "InvalidConfigError",
    "InvalidSeatError",
    "LegalActions",
    "NoRevealDueError",
    "NoSeatToActError",
    "OutOfRangeError",
    "Pass",
    "Phase",
    "PlayerState",
    "Reason",
    "RecordCode",
    "RecordError",
    "Reveal",
    "StatusBreakdown",
    "StatusCard",
    "__version__",
    "apply",
    "breakdown",
    "chance_outcomes",
    "describe_action",
    "is_legal",
    "legal_actions",
    "min_bid_total",
    "new_game",
    "result",
    "sort_cards",
    "status",
    "status_of",
    "to_act",
    "why_illegal",
]

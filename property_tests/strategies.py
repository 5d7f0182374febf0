"""Hypothesis strategies for whole games, steered towards the rare corners of the rules.

A uniform choice among legal actions almost never plays the interesting games: a full hand
has 2,047 bids and a random one spends most of the hand, so games end with nobody able to
bid and ties, Faux Pas choices or free cards never happen. The policy here passes often and
bids cheaply (the lowest few legal bids), which reaches every corner listed in
:data:`CORNERS`; ``test_corners.py`` asserts that each one is reached.
"""

import functools
from collections.abc import Callable, Iterator
from typing import TypeVar

import attrs
from hypothesis import event
from hypothesis import strategies as st

from high_society import (
    STANDARD,
    Action,
    Bid,
    Discard,
    GameConfig,
    GameState,
    Pass,
    Phase,
    Reveal,
    StatusCard,
    apply,
    legal_actions,
    new_game,
    result,
    sort_cards,
)
from high_society.table import Seat, Table

T = TypeVar("T")
Draw = Callable[[st.SearchStrategy[T]], T]

#: Reduced games: fewer money cards, a short deck that still holds every kind of card.
TINY = GameConfig(
    money=(1, 2, 4),
    deck=sort_cards(
        [
            StatusCard.LUXURY_2,
            StatusCard.LUXURY_5,
            StatusCard.PRESTIGE,
            StatusCard.FAUX_PAS,
            StatusCard.PASSE,
            StatusCard.SCANDALE,
        ]
    ),
)
# Luxury 1 + 3 = luxury 4: equal status with different top cards, for the R12 tie-break.
SMALL = GameConfig(
    money=(1, 3, 5, 8),
    deck=sort_cards(
        [
            StatusCard.LUXURY_1,
            StatusCard.LUXURY_3,
            StatusCard.LUXURY_4,
            StatusCard.PRESTIGE,
            StatusCard.PRESTIGE,
            StatusCard.FAUX_PAS,
            StatusCard.PASSE,
            StatusCard.SCANDALE,
        ]
    ),
)
#: One money card each: money ties are the rule, so R12's last tie-break (the top luxury
#: card: luxury 5 with Passé against nothing, both 0) is reached (see ``test_corners.py``).
ONE_COIN = GameConfig(
    money=(1,),
    deck=sort_cards(
        [
            StatusCard.LUXURY_5,
            StatusCard.PRESTIGE,
            StatusCard.FAUX_PAS,
            StatusCard.PASSE,
            StatusCard.SCANDALE,
        ]
    ),
)
CONFIGS: tuple[GameConfig, ...] = (STANDARD, SMALL, TINY)

configs = st.sampled_from(CONFIGS)
player_counts = st.integers(3, 5)

# Weighted by repetition; Hypothesis shrinks towards the first entry, so a failing game
# shrinks towards passing, the shortest play.
_PASS, _CHEAP, _ANY = "pass", "cheap", "any"
_AUCTION_MOVES = st.sampled_from((_PASS, _PASS, _CHEAP, _CHEAP, _CHEAP, _ANY))


@functools.cache
def _indices(low: int, high: int) -> st.SearchStrategy[int]:
    # Built once per range: building strategies is a large part of a game's cost.
    return st.integers(low, high)


def choose_action(draw: Draw[object], state: GameState) -> Action:
    """One legal action of ``state``, drawn with the steered policy. ``state`` is not over."""
    legal = legal_actions(state)
    if state.phase is not Phase.AUCTION:
        index = draw(_indices(0, len(legal) - 1))
    else:
        bids = len(legal) - 1  # legal[0] is the Pass; the bids follow, cheapest first
        move = draw(_AUCTION_MOVES) if bids else _PASS
        index = 0 if move == _PASS else draw(_indices(1, min(bids, 4) if move == _CHEAP else bids))
    assert isinstance(index, int)
    return legal[index]


@attrs.frozen
class Game:
    """A played game: every state from the first to the last, and the actions between."""

    states: tuple[GameState, ...]
    actions: tuple[Action, ...]

    def __repr__(self) -> str:
        # The first state and the actions rebuild the game; the repr of every state of a
        # standard game is over 100 kB, which Hypothesis warns about when it prints one.
        players, config = self.first.num_players, self.first.config
        return f"Game(players={players}, config={config!r}, actions={self.actions!r})"

    @property
    def first(self) -> GameState:
        return self.states[0]

    @property
    def final(self) -> GameState:
        return self.states[-1]

    @property
    def steps(self) -> Iterator[tuple[GameState, Action, GameState]]:
        """Each action with the states before and after it."""
        return zip(self.states, self.actions, self.states[1:], strict=False)


@st.composite
def games(draw: st.DrawFn, config: st.SearchStrategy[GameConfig] = configs) -> Game:
    """A whole game, from :func:`new_game` to the end, played by the steered policy."""
    state = new_game(draw(player_counts), draw(config))
    states = [state]
    actions = []
    while not state.is_over:
        action = choose_action(draw, state)
        state = apply(state, action)
        actions.append(action)
        states.append(state)
    game = Game(tuple(states), tuple(actions))
    for corner in corners(game):
        event(f"corner: {corner}")
    return game


# --- The rare corners -----------------------------------------------------------------------

FAUX_PAS_CHOICE = "Faux Pas with a choice of luxury card"
FAUX_PAS_PENDING_USED = "pending Faux Pas took a later luxury card"
FAUX_PAS_LEFT_AT_END = "pending Faux Pas left at the end"
FREE_CARD = "free card after everyone passed"
TIE_POOREST = "two or more (not all) tied poorest"
ALL_POOREST = "everyone tied poorest"
TIE_BREAK_MONEY = "status tie broken on money"
TIE_BREAK_LUXURY = "status and money tie broken on top luxury card"
SHARED_WIN = "win shared"
NOBODY_WINS = "nobody wins"
CORNERS = (
    FAUX_PAS_CHOICE,
    FAUX_PAS_PENDING_USED,
    FAUX_PAS_LEFT_AT_END,
    FREE_CARD,
    TIE_POOREST,
    ALL_POOREST,
    TIE_BREAK_MONEY,
    TIE_BREAK_LUXURY,
    SHARED_WIN,
    NOBODY_WINS,
)


def corners(game: Game) -> set[str]:
    """The rare corners a game reaches (names from :data:`CORNERS`)."""
    found: set[str] = set()
    for before, action, after in game.steps:
        if after.phase is Phase.DISCARD and len(after.players[after.turn].luxury_cards) > 1:
            found.add(FAUX_PAS_CHOICE)
        if (
            isinstance(action, Pass)
            and before.auction is not None
            and after.phase is not (Phase.AUCTION)
        ):
            if not before.auction.is_disgrace and before.highest_bid == 0:
                found.add(FREE_CARD)
            if (
                before.auction.is_luxury
                and StatusCard.FAUX_PAS in after.removed
                and StatusCard.FAUX_PAS not in before.removed
            ):
                found.add(FAUX_PAS_PENDING_USED)
    final = game.final
    if any(p.faux_pas_waits_for_luxury for p in final.players):
        found.add(FAUX_PAS_LEFT_AT_END)
    outcome = result(final)
    n = final.num_players
    if 1 < len(outcome.cast_out) < n:
        found.add(TIE_POOREST)
    if len(outcome.cast_out) == n:
        found.add(ALL_POOREST)
    if not outcome.winners:
        found.add(NOBODY_WINS)
    if len(outcome.winners) > 1:
        found.add(SHARED_WIN)
    contenders = [i for i in range(n) if i not in outcome.cast_out]
    if contenders:
        best = max(outcome.scores[i] for i in contenders)
        tied = [i for i in contenders if outcome.scores[i] == best]
        if len({outcome.money[i] for i in tied}) > 1:
            found.add(TIE_BREAK_MONEY)
        most = max(outcome.money[i] for i in tied)
        richest = [i for i in tied if outcome.money[i] == most]
        tops = {
            max((c.luxury_value for c in outcome.breakdowns[i].luxury_cards), default=0)
            for i in richest
        }
        if len(tops) > 1:
            found.add(TIE_BREAK_LUXURY)
    return found


# --- Actions that are mostly illegal --------------------------------------------------------

_money_values = st.sampled_from((0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 26, -1))
_seats = st.integers(-1, 5)
any_actions: st.SearchStrategy[Action] = st.one_of(
    st.builds(Reveal, st.sampled_from(StatusCard)),
    st.builds(Bid, _seats, st.frozensets(_money_values, max_size=4)),
    st.builds(Pass, _seats),
    st.builds(Discard, _seats, st.sampled_from(StatusCard)),
)


@st.composite
def near_misses(draw: st.DrawFn, state: GameState) -> Action:
    """An action close to a legal one in ``state``: any seat, a card of the seat already
    spent or face up, a bid one short, a luxury card the player does not own ..."""
    seat = draw(_indices(0, state.num_players - 1))
    player = state.players[seat]
    kind = draw(_indices(0, 3))
    if kind == 0:
        return Pass(seat)
    if kind == 1:
        return Discard(seat, draw(_STATUS_CARDS))
    if kind == 2:
        return Reveal(draw(_STATUS_CARDS))
    owned = sorted(player.hand | player.table | player.spent)
    chosen = draw(st.lists(_indices(0, len(owned) - 1), min_size=1, max_size=3))
    return Bid(seat, frozenset(owned[i] for i in chosen))


_STATUS_CARDS = st.sampled_from(StatusCard)


@st.composite
def tables(draw: st.DrawFn, names: st.SearchStrategy[str] | None = None) -> Table:
    """A table (3 to 5 seats, the first a person's, the others heuristic bots') with a
    random shuffle, played by the steered policy for a random number of actions; its
    seats named ``P0``, ``P1`` ... or drawn from ``names``."""
    players = draw(st.integers(3, 5))
    named = [f"P{i}" for i in range(players)]
    if names is not None:
        named = draw(st.lists(names, min_size=players, max_size=players, unique=True))
    seats = [Seat(name, None if i == 0 else "heuristic") for i, name in enumerate(named)]
    table = Table(seats, seed=draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(0, 160))):
        if table.is_over:
            break
        if table.state.phase.value == "reveal":
            table.reveal()
        else:
            table.play(choose_action(draw, table.state))
    return table

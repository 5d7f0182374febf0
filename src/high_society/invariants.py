"""What every state reachable from :func:`~high_society.new_game` satisfies.

:func:`state_problems` lists every broken invariant of a state, in words; it finds none
exactly when the state is reachable (up to a bound on the work of its history search, see
its docstring). The rules never produce a state with a problem (the property tests and the
exhaustive exploration check this on every state they reach); a state built by hand or
read from outside may have some, and code that accepts states from outside should refuse
those.
"""

from collections import Counter

from high_society._contracts import cards_in_place
from high_society._reachability import Undecided, auction_starters, find_history
from high_society._text import short_repr
from high_society.cards import MAX_PLAYERS, MIN_PLAYERS, GameConfig, StatusCard, sort_cards
from high_society.state import GameState, Phase, PlayerState

__all__ = ["cards_in_place", "is_valid_state", "state_problems"]


def is_valid_state(state: GameState) -> bool:
    """True when :func:`state_problems` finds nothing.

    >>> from high_society import new_game
    >>> is_valid_state(new_game(3))
    True
    """
    return not state_problems(state)


def state_problems(state: object) -> tuple[str, ...]:
    """Every invariant ``state`` breaks, one sentence each; empty for a valid state.

    Checked: types; each seat's money cards are each in exactly one place (hand, table,
    spent); every status card of the deck is in exactly one place (deck, auction, a
    seat, out of the game, the ending card); what each phase requires (no bids outside an
    auction, a Faux Pas discard only for a seat that owns a luxury card, the end only on
    the last dark-green card, ...); an order of bids and passes that leads to the running
    auction; and a history: an order of the past auctions, each with its starter (seat 0
    first, then the last card's taker, R3, R6, R7), its winner or taker and its payments
    (R5-R8), that explains every seat's status cards and spent money.

    The result is empty exactly when some game from :func:`~high_society.new_game` leads
    to ``state``, for every configuration, with one limit: the history search stops after
    a fixed amount of work (``high_society._reachability.WORK_LIMIT``, at most about 0.3 s
    measured) and then accepts. So a reachable state is never refused, and an unreachable
    one is refused unless its search runs out of work: on the explored games and on samples
    of standard games' states and single changes to them it never does
    (docs/verification.md, "The boundary of state_problems"); docs/stability.md
    ("Reachability") states what is promised.

    >>> import attrs
    >>> from high_society import new_game
    >>> state = new_game(3)
    >>> broken = attrs.evolve(state, turn=7)
    >>> state_problems(broken)
    ('turn 7 is not a seat',)
    """
    if not isinstance(state, GameState):
        return (f"{type(state).__name__} is not a GameState",)
    config: object = state.config  # a state from outside may hold anything
    if not isinstance(config, GameConfig):
        return ("config is not a GameConfig",)
    players = state.players
    if type(players) is not tuple or not all(isinstance(p, PlayerState) for p in players):
        return ("players must be a tuple of PlayerState",)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        return (f"{len(players)} players: the game is for {MIN_PLAYERS} to {MAX_PLAYERS}",)
    problems: list[str] = []
    for seat, player in enumerate(players):
        problems += _player_problems(state.config, seat, player)
    if problems:
        return tuple(problems)
    problems += _status_card_problems(state)
    problems += _phase_problems(state)
    return tuple(problems)


def _player_problems(config: GameConfig, seat: int, p: PlayerState) -> list[str]:
    problems = []
    money = frozenset(config.money)
    for name in ("hand", "table", "spent"):
        cards = getattr(p, name)
        if type(cards) is not frozenset or not all(type(c) is int for c in cards):
            return [f"seat {seat}: {name} must be a frozenset of int"]
        if not cards <= money:
            problems.append(f"seat {seat}: {name} holds cards this game does not have")
    placed = len(p.hand) + len(p.table) + len(p.spent)
    if p.hand | p.table | p.spent != money or placed != len(money):
        problems.append(
            f"seat {seat}: each money card must be in exactly one of hand, table and spent"
        )
    passed: object = p.passed
    if type(passed) is not bool:
        problems.append(f"seat {seat}: passed must be a bool")
    owned = p.status_cards
    if type(owned) is not tuple or not all(isinstance(c, StatusCard) for c in owned):
        problems.append(f"seat {seat}: status_cards must be a tuple of StatusCard")
    elif owned != sort_cards(owned):
        problems.append(f"seat {seat}: status_cards must be in canonical order")
    return problems


def _status_card_problems(state: GameState) -> list[str]:
    problems = []
    for name in ("deck", "removed"):
        cards = getattr(state, name)
        if type(cards) is not tuple or not all(isinstance(c, StatusCard) for c in cards):
            return [f"{name} must be a tuple of StatusCard"]
        if cards != sort_cards(cards):
            problems.append(f"{name} must be in canonical order")
    for name in ("auction", "ending_card"):
        card = getattr(state, name)
        if card is not None and not isinstance(card, StatusCard):
            return [f"{name} must be a StatusCard or None"]
    placed: Counter[StatusCard] = Counter(state.deck)
    placed.update(state.removed)
    for p in state.players:
        placed.update(p.status_cards)
    for card in (state.auction, state.ending_card):
        if card is not None:
            placed[card] += 1
    if placed != Counter(state.config.deck):
        problems.append("each status card of the deck must be in exactly one place")
    removed = state.removed
    if removed and (
        len(removed) != 2 or removed[1] is not StatusCard.FAUX_PAS or not removed[0].is_luxury
    ):
        problems.append("only Faux Pas and the one luxury card it took can be out of the game")
    return problems


def _phase_problems(state: GameState) -> list[str]:
    problems = []
    players = state.players
    phase: object = state.phase
    if not isinstance(phase, Phase):
        return ["phase must be a Phase"]
    if type(state.turn) is not int or not 0 <= state.turn < len(players):
        return [f"turn {short_repr(state.turn)} is not a seat"]
    dark_green_left = any(c.is_dark_green for c in state.deck)
    if (phase is Phase.OVER) != (state.ending_card is not None):
        problems.append("the game is over exactly when an ending card was revealed")
    if phase is Phase.OVER:
        if state.ending_card is not None and not state.ending_card.is_dark_green:
            problems.append("only a dark-green card ends the game (R9)")
        if dark_green_left:
            problems.append("the game ends on the last dark-green card only (R9)")
    elif not dark_green_left:
        problems.append("no dark-green card is left, so the game should be over (R9)")
    if (phase is Phase.AUCTION) != (state.auction is not None):
        return [*problems, "a card is up for auction exactly in the auction phase"]
    if phase is not Phase.AUCTION:
        if any(p.table for p in players):
            problems.append("money is face up outside an auction")
        if any(p.passed for p in players):
            problems.append("a seat is marked as passed outside an auction")
    else:
        problems += _auction_problems(state)
    if problems:
        return problems
    problems += _history_problems(state)
    for seat, p in enumerate(players):
        holds_faux_pas = StatusCard.FAUX_PAS in p.status_cards
        owns_luxury = any(c.is_luxury for c in p.status_cards)
        discarding = phase is Phase.DISCARD and seat == state.turn
        if holds_faux_pas and owns_luxury and not discarding:
            problems.append(f"seat {seat} holds Faux Pas and a luxury card without discarding")
        if discarding and not (holds_faux_pas and owns_luxury):
            problems.append(f"seat {seat} must discard but has no Faux Pas and luxury card")
    if not problems and not _has_history(state):
        problems.append(
            "no order of the past auctions and payments from new_game leads to these"
            " status cards and spent money (R3, R5-R8)"
        )
    return problems


def _has_history(state: GameState) -> bool:
    """Whether some order of the past rounds, with some payments in each, explains the
    state's status cards and spent money (:mod:`high_society._reachability`). A search that
    needs more than its work limit counts as yes: never refuse a reachable state."""
    try:
        return find_history(state) is not None
    except Undecided:
        return True


def _auction_problems(state: GameState) -> list[str]:
    problems = []
    card = state.auction
    assert card is not None
    players = state.players
    active = [i for i, p in enumerate(players) if not p.passed]
    if card.is_disgrace and len(active) != len(players):
        problems.append("nobody can have passed in a running disgrace auction (R7)")
    if len(active) < 2:
        problems.append("an auction with fewer than two players in should have ended (R6)")
    if players[state.turn].passed:
        problems.append("the seat to act has passed")
    if any(p.table for p in players if p.passed):
        problems.append("a seat that passed still has money face up (R6)")
    bids = [p.bid for p in players if p.bid]
    if len(set(bids)) != len(bids):
        problems.append("two face-up totals are equal, but every bid must beat the highest")
    if bids and players[state.turn].bid == max(bids):
        problems.append("the seat to act already holds the highest bid")
    return problems


def _history_problems(state: GameState) -> list[str]:
    """What the cards taken and spent so far say about who could start this round."""
    problems = []
    players = state.players
    config = state.config
    completed = len(config.deck) - len(state.deck) - (state.auction is not None)
    completed -= state.ending_card is not None

    def could_have_taken_last(seat: int) -> bool:
        # The starter of a round took the last card auctioned; seat 0 starts the game (R3).
        if not completed:
            return seat == 0
        return bool(players[seat].status_cards or state.removed)

    if state.phase is Phase.AUCTION:
        starters = auction_starters(state)
        if not starters:
            problems.append("no order of bids and passes from the round's start leads here")
        elif not any(could_have_taken_last(s) for s in starters):
            problems.append("the round was started by a seat that took no card last (R3, R6)")
    elif not could_have_taken_last(state.turn):
        problems.append(f"seat {state.turn} cannot start this round: it took no card last")
    disgrace_takers = {
        i for i, p in enumerate(players) if any(c.is_disgrace for c in p.status_cards)
    }
    for i, p in enumerate(players):
        won = any(c.is_luxury or c is StatusCard.PRESTIGE for c in p.status_cards)
        if p.spent and not (won or state.removed or disgrace_takers - {i}):
            problems.append(f"seat {i} spent money but won no auction and lost no disgrace one")
    return problems

"""States and recorded games the benchmarks share: each built from real actions."""

import random

from high_society import (
    STANDARD_MONEY,
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
    new_game,
)
from high_society.bots import RandomBot
from high_society.host import Dealer
from high_society.invariants import state_problems

L5 = StatusCard.LUXURY_5


def bid(seat: int, *cards: int) -> Bid:
    return Bid(seat, frozenset(cards))


def after(*actions: Action, players: int = 4) -> GameState:
    """The state after ``actions`` from a new game of ``players``."""
    state = new_game(players)
    for action in actions:
        state = apply(state, action)
    return state


def one_of_each_kind() -> dict[str, tuple[GameState, Action]]:
    """A state and a legal action for every kind of transition ``apply`` makes."""
    won_l5 = (Reveal(L5), bid(0, 1), Pass(1), Pass(2), Pass(3))
    return {
        "reveal": (new_game(4), Reveal(L5)),
        "bid": (after(Reveal(L5)), bid(0, 3, 4)),
        "raise": (after(Reveal(L5), bid(0, 3), bid(1, 4)), bid(2, 1, 8)),
        "pass": (after(Reveal(L5), bid(0, 3)), Pass(1)),
        "pass-ends-auction": (after(Reveal(L5), bid(0, 3), Pass(1), Pass(2)), Pass(3)),
        "pass-takes-disgrace": (after(Reveal(StatusCard.PASSE), bid(0, 2)), Pass(1)),
        "discard": (
            after(*won_l5, Reveal(StatusCard.FAUX_PAS), Pass(0)),
            Discard(0, L5),
        ),
    }


def random_game(players: int, seed: int) -> tuple[Action, ...]:
    """The actions of one uniform-random game (reveals included)."""
    rng = random.Random(seed)
    bots = [RandomBot(rng.getrandbits(64)) for _ in range(players)]
    dealer = Dealer(rng.getrandbits(64))
    state = new_game(players)
    actions: list[Action] = []
    while not state.is_over:
        action: Action
        if state.phase is Phase.REVEAL:
            action = dealer.draw(state)
        else:
            action = bots[state.turn].choose(state)
        actions.append(action)
        state = apply(state, action)
    return tuple(actions)


def mid_game(players: int = 4, seed: int = 1) -> GameState:
    """The state halfway through a uniform-random game."""
    actions = random_game(players, seed)
    return after(*actions[: len(actions) // 2], players=players)


def hand_of(size: int) -> GameState:
    """Seat 0 must bid or pass holding ``size`` money cards, with nothing bid yet: every
    one of its 2**size - 1 subsets is a legal bid. The game deals the ``size`` lowest money
    cards of the standard game (a state with the other cards spent would need auctions won
    with them: ``state_problems`` refuses money spent on nothing)."""
    state = apply(new_game(4, GameConfig(money=STANDARD_MONEY[:size])), Reveal(L5))
    assert not state_problems(state), state_problems(state)
    return state


def facing_bid(total_cards: tuple[int, ...]) -> GameState:
    """Seat 1 must act holding all eleven cards while seat 0 has bid ``total_cards``: the
    higher that bid, the fewer of seat 1's 2,047 subsets remain legal."""
    return after(Reveal(L5), bid(0, *total_cards))

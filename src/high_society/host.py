"""Hosting a game: a seeded dealer for the reveals, and the loop that plays bots.

A host that owns the shuffle asks :class:`Dealer` for each reveal; the state never knows the
order of the deck (R4), so the dealer draws uniformly from the cards left when asked.
"""

import random
from collections.abc import Iterator, Sequence

import attrs

from high_society.actions import Action, Reveal
from high_society.bots import Bot
from high_society.cards import STANDARD, GameConfig
from high_society.errors import NoRevealDueError
from high_society.rules import CHANCE, apply, new_game, to_act
from high_society.state import GameState, Phase

__all__ = ["Dealer", "Step", "play", "play_game"]


class Dealer:
    """Draws each card to reveal uniformly from the cards still in the deck.

    The same seed gives the same cards for the same sequence of states.

    >>> from high_society import new_game
    >>> Dealer(seed=7).draw(new_game(3)) == Dealer(seed=7).draw(new_game(3))
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def draw(self, state: GameState) -> Reveal:
        """The next reveal: each card left is equally likely (a prestige card, 3 times out of n
        when three are left).

        Raises:
            NoRevealDueError: no reveal is due in ``state``.
        """
        if state.phase is not Phase.REVEAL:
            phase = state.phase.value
            raise NoRevealDueError(f"no reveal is due: the game is in its {phase} phase")
        return Reveal(state.deck[self._rng.randrange(len(state.deck))])


@attrs.frozen
class Step:
    """One action of a played game, with the states around it."""

    before: GameState
    action: Action
    after: GameState


def play(
    bots: Sequence[Bot],
    *,
    seed: int | None = None,
    config: GameConfig = STANDARD,
    start: GameState | None = None,
) -> Iterator[Step]:
    """Play a whole game between ``bots`` (one per seat), yielding every step.

    Reveals come from a :class:`Dealer` seeded with ``seed``. ``start`` continues a game
    instead of dealing a new one for ``len(bots)`` players.

    Raises:
        InvalidConfigError: ``len(bots)`` is not 3 to 5.
        IllegalActionError: a bot chose an illegal action.
    """
    state = start if start is not None else new_game(len(bots), config)
    dealer = Dealer(seed)
    while True:
        actor = to_act(state)
        if actor is None:
            return
        action = dealer.draw(state) if actor is CHANCE else bots[actor].choose(state)
        after = apply(state, action)
        yield Step(state, action, after)
        state = after


def play_game(
    bots: Sequence[Bot], *, seed: int | None = None, config: GameConfig = STANDARD
) -> tuple[GameState, tuple[Action, ...]]:
    """Play a whole game; return the final state and every action, reveals included.

    >>> from high_society import RandomBot, result
    >>> final, actions = play_game([RandomBot(1), RandomBot(2), RandomBot(3)], seed=4)
    >>> final.is_over
    True

    Raises:
        InvalidConfigError: ``len(bots)`` is not 3 to 5.
        IllegalActionError: a bot chose an illegal action.
    """
    state = new_game(len(bots), config)
    dealer = Dealer(seed)
    actions: list[Action] = []
    # The loop of :func:`play` without its steps: the same actions, a little faster.
    while (phase := state.phase) is not Phase.OVER:
        action = dealer.draw(state) if phase is Phase.REVEAL else bots[state.turn].choose(state)
        state = apply(state, action)
        actions.append(action)
    return state, tuple(actions)

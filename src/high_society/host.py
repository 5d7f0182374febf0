"""Hosting a game: a seeded dealer for the reveals, and the one loop that plays a game.

A host that owns the shuffle asks :class:`Dealer` for each reveal; the state never knows the
order of the deck (R4), so the dealer draws uniformly from the cards left when asked.

:func:`play` is the only game loop of the package: the demo, the interactive ``play``
command, :func:`~high_society.simulate.simulate` and :func:`play_game` all run it. A person
at the table is a bot like any other, whose ``choose`` asks them (see ``high-society play``).

>>> from high_society.bots import RandomBot
>>> steps = list(play([RandomBot(1), RandomBot(2), RandomBot(3)], seed=4))
>>> steps[0].action, steps[-1].after.is_over
(Reveal(card=<StatusCard.LUXURY_8: 'luxury-8'>), True)
"""

import random
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from high_society._fast import randbelow
from high_society.actions import Action, Reveal
from high_society.bots import Bot
from high_society.cards import STANDARD, GameConfig, StatusCard
from high_society.errors import InvalidConfigError, NoRevealDueError
from high_society.rules import apply, new_game
from high_society.state import GameState, Phase

__all__ = ["Dealer", "Step", "play", "play_game"]


#: Actions are values: one ``Reveal`` per card serves every game.
_REVEAL_OF = {card: Reveal(card) for card in StatusCard}


class Dealer:
    """Draws each card to reveal uniformly from the cards still in the deck.

    The same seed gives the same cards for the same sequence of states.

    >>> from high_society import new_game
    >>> Dealer(seed=7).draw(new_game(3)) == Dealer(seed=7).draw(new_game(3))
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self._getrandbits = random.Random(seed).getrandbits

    def draw(self, state: GameState) -> Reveal:
        """The next reveal: each card left is equally likely (a prestige card, 3 times out of n
        when three are left).

        Raises:
            NoRevealDueError: no reveal is due in ``state``.
        """
        if state.phase is not Phase.REVEAL:
            phase = state.phase.value
            raise NoRevealDueError(f"no reveal is due: the game is in its {phase} phase")
        deck = state.deck
        return _REVEAL_OF[deck[randbelow(self._getrandbits, len(deck))]]  # randrange, faster


class Step(NamedTuple):
    """One action of a played game, with the states around it."""

    #: The state the action was chosen in.
    before: GameState
    #: The action: a reveal drawn by the dealer, or a seat's choice.
    action: Action
    #: The state after the action.
    after: GameState


_new_step = tuple.__new__  # Step(before, action, after) without its Python-level __new__
_OVER = Phase.OVER
_REVEAL = Phase.REVEAL


def play(
    bots: Sequence[Bot],
    *,
    seed: int | None = None,
    dealer: Dealer | None = None,
    config: GameConfig = STANDARD,
    start: GameState | None = None,
) -> Iterator[Step]:
    """Play a game between ``bots`` (one per seat, seat order) to its end, yielding each step.

    Reveals come from ``dealer``, or from a new :class:`Dealer` seeded with ``seed``.
    ``start`` continues a game instead of dealing a new one for ``len(bots)`` players with
    ``config``. Each bot is asked only when its own seat must act, and each action is
    applied with :func:`~high_society.apply`, so an illegal choice stops the game.

    Raises:
        InvalidConfigError: ``len(bots)`` is not 3 to 5, or not the number of seats of
            ``start``, or both ``seed`` and ``dealer`` are given. Raised before the first
            step, as the generator starts.
        IllegalActionError: a bot chose an illegal action.
    """
    if dealer is not None and seed is not None:
        raise InvalidConfigError("give play() a dealer or a seed, not both")
    if start is not None and len(bots) != len(start.players):
        seats = len(start.players)
        raise InvalidConfigError(f"{len(bots)} bots for a game of {seats} seats: give one per seat")
    state = start if start is not None else new_game(len(bots), config)
    draw = (dealer if dealer is not None else Dealer(seed)).draw
    choose = [bot.choose for bot in bots]
    while (phase := state.phase) is not _OVER:
        action = draw(state) if phase is _REVEAL else choose[state.turn](state)
        after = apply(state, action)
        yield _new_step(Step, (state, action, after))
        state = after


def play_game(
    bots: Sequence[Bot], *, seed: int | None = None, config: GameConfig = STANDARD
) -> tuple[GameState, tuple[Action, ...]]:
    """Play a whole game with :func:`play`; return the final state and every action,
    reveals included.

    >>> from high_society.bots import RandomBot
    >>> final, actions = play_game([RandomBot(1), RandomBot(2), RandomBot(3)], seed=4)
    >>> final.is_over
    True

    Raises:
        InvalidConfigError: ``len(bots)`` is not 3 to 5.
        IllegalActionError: a bot chose an illegal action.
    """
    actions: list[Action] = []
    final: GameState | None = None
    for step in play(bots, seed=seed, config=config):
        actions.append(step.action)
        final = step.after
    assert final is not None  # every game has at least one reveal
    return final, tuple(actions)

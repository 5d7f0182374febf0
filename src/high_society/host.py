"""Hosting a game: a seeded dealer for the reveals, and the one loop that plays a game.

A host that owns the shuffle asks :class:`Dealer` for each reveal; the state never knows the
order of the deck (R4), so the dealer draws uniformly from the cards left when asked.

:func:`turns` is the only game loop of the package: it plays the reveals and the turns of
the seats that have a bot, and stops where a seat without one (a person) must act.
:func:`play` runs it with a bot at every seat, to the game's end: the demo, the interactive
``play`` command (a person at the table is a bot like any other, whose ``choose`` asks
them), :func:`~high_society.simulate.simulate` and :func:`play_game` all do.
:meth:`Table.advance <high_society.table.Table.advance>` runs it until a person must act,
and the table server takes it one step at a time, committing each step before the next.

>>> from high_society.bots import RandomBot
>>> steps = list(play([RandomBot(1), RandomBot(2), RandomBot(3)], seed=4))
>>> steps[0].action, steps[-1].after.is_over
(Reveal(card=<StatusCard.LUXURY_8: 'luxury-8'>), True)
"""

import random
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import NamedTuple

from high_society._fast import randbelow
from high_society.actions import Action, Reveal
from high_society.bots import AnyBot, chooser, end_bots, start_bots
from high_society.cards import STANDARD, GameConfig, StatusCard
from high_society.errors import IllegalActionError, InvalidConfigError, NoRevealDueError
from high_society.rules import apply, new_game
from high_society.state import GameState, Phase

__all__ = ["Dealer", "Step", "play", "play_game", "turns"]


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
    bots: Sequence[AnyBot],
    *,
    seed: int | None = None,
    dealer: Dealer | None = None,
    config: GameConfig = STANDARD,
    start: GameState | None = None,
    history: Sequence[Action] | None = None,
) -> Iterator[Step]:
    """Play a game between ``bots`` (one per seat, seat order) to its end, yielding each step.

    Reveals come from ``dealer``, or from a new :class:`Dealer` seeded with ``seed``.
    ``start`` continues a game instead of dealing a new one for ``len(bots)`` players with
    ``config``; ``history`` is then the actions that led to it, which a
    :class:`~high_society.bots.SeatBot` is told (it is needed when one plays). Each bot is
    asked only when its own seat must act (:func:`~high_society.bots.decide`), and each
    action is applied with :func:`~high_society.apply`, so an illegal choice stops the game.
    The bots' optional hooks are called: ``start`` before the first step, ``end`` after
    the last.

    Raises:
        InvalidConfigError: ``len(bots)`` is not 3 to 5, or not the number of seats of
            ``start``; both ``seed`` and ``dealer`` are given; a bot has neither ``choose``
            nor ``choose_seen``; ``history`` is given without ``start``, or a seat bot
            plays from ``start`` without it. Raised before the first step, as the
            generator starts.
        IllegalActionError: a bot chose an illegal action.
    """
    if dealer is not None and seed is not None:
        raise InvalidConfigError("give play() a dealer or a seed, not both")
    if start is not None and len(bots) != len(start.players):
        seats = len(start.players)
        raise InvalidConfigError(f"{len(bots)} bots for a game of {seats} seats: give one per seat")
    if history is not None and start is None:
        raise InvalidConfigError("play() takes a history only with the start state it led to")
    state = start if start is not None else new_game(len(bots), config)
    draw = (dealer if dealer is not None else Dealer(seed)).draw
    past: list[Action] = list(history or ())
    choose = [chooser(bot, seat, past) for seat, bot in enumerate(bots)]
    # Only a seat bot is told the history: keep it only for one.
    keep_history = any(getattr(bot, "choose", None) is None for bot in bots)
    if keep_history and start is not None:
        if history is None:
            raise InvalidConfigError("a seat bot plays from start: give play() the history too")
        _check_history(start, past)
    start_bots(bots, state)
    final = yield from _loop(state, choose, draw, past if keep_history else None)
    end_bots(bots, final)


def turns(
    state: GameState,
    bots: Sequence[AnyBot | None],
    draw: Callable[[GameState], Reveal],
    history: Sequence[Action] = (),
) -> Iterator[Step]:
    """Play from ``state`` the reveals (each from ``draw(state)``) and the turns of the seats
    that have a bot, yielding each step, until the game is over or a seat whose bot is
    ``None`` (a person) must act. ``bots`` has one entry per seat; ``history`` is the
    actions that led to ``state`` (a :class:`~high_society.bots.SeatBot` is told them, and
    the actions played since). Lazy: each step is worked out when asked for, so a host may
    commit a step before it asks for the next (the table server does). The bots' hooks are
    not called (:func:`play` calls them).

    >>> from high_society import new_game
    >>> from high_society.bots import RandomBot
    >>> steps = list(turns(new_game(3), [None, RandomBot(1), RandomBot(2)], Dealer(5).draw))
    >>> [type(step.action).__name__ for step in steps]  # then seat 0, a person, must act
    ['Reveal']

    Raises:
        InvalidConfigError: ``bots`` has not one entry per seat, or a bot has neither
            ``choose`` nor ``choose_seen``. Raised by the call, before any step.
        IllegalActionError: a bot chose an illegal action (it is not played).
    """
    if len(bots) != len(state.players):
        seats = len(state.players)
        raise InvalidConfigError(f"{len(bots)} bots for a game of {seats} seats: give one per seat")
    past = list(history)
    choose = [None if bot is None else chooser(bot, seat, past) for seat, bot in enumerate(bots)]
    return _loop(state, choose, draw, past)


def _loop(
    state: GameState,
    choose: Sequence[Callable[[GameState], Action] | None],
    draw: Callable[[GameState], Reveal],
    past: list[Action] | None,
) -> Generator[Step, None, GameState]:
    """The loop of :func:`turns` and :func:`play`: ``choose`` per seat (``None``: stop
    there), ``past`` the history to keep up to date for seat bots (``None``: none needs
    it). Its value is the state it stopped in."""
    while (phase := state.phase) is not _OVER:
        if phase is _REVEAL:
            action: Action = draw(state)
        else:
            pick = choose[state.turn]
            if pick is None:
                return state
            action = pick(state)
        after = apply(state, action)
        if past is not None:
            past.append(action)
        yield _new_step(Step, (state, action, after))
        state = after
    return state


def _check_history(start: GameState, history: Sequence[Action]) -> None:
    """``history`` leads from the deal to ``start``: what a seat bot deduces is the truth."""
    state = new_game(len(start.players), start.config)
    try:
        for action in history:
            state = apply(state, action)
    except IllegalActionError as error:
        raise InvalidConfigError(f"the history given to play() is not a game: {error}") from None
    if state != start:
        raise InvalidConfigError("the history given to play() does not lead to its start state")


def play_game(
    bots: Sequence[AnyBot], *, seed: int | None = None, config: GameConfig = STANDARD
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

"""A game with its secret deck order: the state, the public history (with the states around
each action), and the reveals, each the next card of the order. The actions it plays
itself (the reveals, the bots' turns) go through the library's one game loop,
:func:`~high_society.host.turns`."""

from collections.abc import Iterator, Sequence

from high_society.actions import Action, Reveal
from high_society.bots import AnyBot
from high_society.cards import StatusCard
from high_society.errors import NoRevealDueError
from high_society.host import Step, turns
from high_society.rules import apply, new_game
from high_society.state import GameState, Phase

__all__ = ["DealtGame"]


class DealtGame:
    """A standard game of ``players`` dealt from ``order`` (the deck's secret order). Not
    safe to share between threads; :meth:`copy` makes an independent one."""

    __slots__ = ("history", "order", "reveals", "state", "steps")

    def __init__(self, players: int, order: tuple[StatusCard, ...]) -> None:
        self.order = order
        self.state: GameState = new_game(players)
        self.history: list[Action] = []
        self.steps: list[Step] = []  # the history with the states around each action
        self.reveals = 0

    def copy(self) -> "DealtGame":
        """An independent game at the same point."""
        twin = DealtGame.__new__(DealtGame)
        twin.order = self.order
        twin.state = self.state
        twin.history = list(self.history)
        twin.steps = list(self.steps)
        twin.reveals = self.reveals
        return twin

    def next_reveal(self) -> Reveal:
        """The reveal due now, from the secret order (not played).

        Raises:
            NoRevealDueError: no reveal is due.
        """
        if self.state.phase is not Phase.REVEAL:
            raise NoRevealDueError(
                f"no reveal is due: the game is in its {self.state.phase.value} phase"
            )
        return Reveal(self.order[self.reveals])

    def play(self, action: Action) -> None:
        """Play ``action``; a reveal must be the next card of the order.

        Raises:
            IllegalActionError: the action is not legal now.
            NoRevealDueError: a reveal that is not the next card of the order (or none due).
        """
        if isinstance(action, Reveal) and action != self.next_reveal():
            raise NoRevealDueError(
                f"{action.card.label} is not the next card of this table's deck "
                f"(action {len(self.history)})"
            )
        before = self.state
        self._keep(Step(before, action, apply(before, action)))

    def _keep(self, step: Step) -> None:
        self.state = step.after
        self.history.append(step.action)
        self.steps.append(step)
        if isinstance(step.action, Reveal):
            self.reveals += 1

    def turns(self, bots: Sequence[AnyBot | None]) -> Iterator[Action]:
        """Play the reveals and the turns of the seats that have a bot (``None``: a person),
        one at a time through :func:`~high_society.host.turns`, yielding each action once
        it is played, until a person must act or the game is over. Lazy."""
        for step in turns(self.state, bots, self._draw, self.history):
            self._keep(step)
            yield step.action

    def _draw(self, state: GameState) -> Reveal:
        """The next card of the secret order (what the loop asks for a reveal: the steps
        before it are kept by then)."""
        return Reveal(self.order[self.reveals])

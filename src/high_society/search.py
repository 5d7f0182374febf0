"""A bot that searches: Monte Carlo tree search over a reduced action set.

:class:`SearchBot` plays a whole game of :class:`~high_society.GameState` as one of perfect
information with chance (R14: with perfect recall every hand can be deduced, so the search
reads every hand in the state). Each decision runs a budget of *simulations* from the
current state:

- **Its own decisions** are searched with UCB1 over :func:`search_actions`, a small set of
  representative actions instead of up to 2,048 legal bids: ``Pass``, and for each of the
  few lowest face-up totals it can reach, one or two card sets that make that total.
- **The other seats** are modelled by a fast policy (the built-in
  :class:`~high_society.bots.HeuristicBot`), sampled inside the tree.
- **Reveals** are chance nodes with their exact probabilities
  (:func:`~high_society.chance_outcomes`): each visit goes to the card whose share of the
  visits lags its probability the most, so the visits follow the probabilities exactly
  instead of by sampling.
- Past the tree's depth the game is **rolled out** to its end by the fast policy, and the
  simulation is worth the bot's share of the win (1, ``1/k`` for a win shared by ``k``
  seats, 0 otherwise, R10-R12).

States are immutable and shared between the tree's nodes, never copied. The bot plays the
action tried most often. With a budget in simulations (``seconds=None``) the bot is
deterministic for a seed; a time budget depends on the machine.

>>> from high_society import Reveal, StatusCard, apply, is_legal, new_game
>>> state = apply(new_game(4), Reveal(StatusCard.LUXURY_8))
>>> action = SearchBot(seed=1, simulations=40).choose(state)
>>> is_legal(state, action), action == SearchBot(seed=1, simulations=40).choose(state)
(True, True)
"""

import math
import random
import time
from collections.abc import Callable

from high_society._text import short_repr
from high_society.actions import Action, Bid, Pass, Reveal
from high_society.bots import Bot, ClassicHeuristicBot, HeuristicBot
from high_society.errors import InvalidConfigError, NoSeatToActError, OutOfRangeError
from high_society.rules import apply, chance_outcomes, legal_actions, to_act
from high_society.scoring import result
from high_society.state import GameState, Phase

__all__ = ["SearchBot", "search_actions", "win_share"]


def search_actions(
    state: GameState, *, bid_totals: int = 3, cards_per_total: int = 2
) -> tuple[Action, ...]:
    """The actions a search considers for the seat to act: a legal subset of
    :func:`~high_society.legal_actions`.

    - In a discard (R8): every legal discard.
    - In an auction: ``Pass``, then for each of the ``bid_totals`` lowest face-up totals
      the seat can reach (R5), up to ``cards_per_total`` bids that make it: the one with
      the fewest cards (it keeps the small cards for later) and the one with the most
      cards (it keeps the large ones). Bids that differ only in which cards make the same
      total are otherwise left out.
    - Anywhere else (a reveal is due, the game is over): nothing.

    >>> from high_society import Reveal, StatusCard, apply, new_game
    >>> state = apply(new_game(3), Reveal(StatusCard.LUXURY_8))
    >>> [a.total if isinstance(a, Bid) else a for a in search_actions(state)]
    [Pass(seat=0), 1, 2, 3, 3]

    Raises:
        InvalidConfigError: ``bid_totals`` or ``cards_per_total`` is not an int >= 1.
    """
    _check_positive("bid_totals", bid_totals)
    _check_positive("cards_per_total", cards_per_total)
    phase = state.phase
    if phase is Phase.DISCARD:
        return tuple(legal_actions(state))
    if phase is not Phase.AUCTION:
        return ()
    legal = legal_actions(state)
    bids = legal.bids()
    chosen: list[Action] = [Pass(state.turn)]
    # The legal bids come sorted by the total they add: walk the lowest few totals.
    index, count = 0, len(bids)
    for _ in range(bid_totals):
        if index >= count:
            break
        first = bids[index]
        assert isinstance(first, Bid)
        total = first.total
        same: list[Bid] = []
        while index < count:
            bid = bids[index]
            assert isinstance(bid, Bid)
            if bid.total != total:
                break
            same.append(bid)
            index += 1
        by_size = sorted(same, key=lambda b: (len(b.cards), sorted(b.cards)))
        picks = [by_size[0], by_size[-1]][:cards_per_total] if len(by_size) > 1 else by_size
        for pick in picks:
            if pick not in chosen:
                chosen.append(pick)
    return tuple(chosen)


def win_share(state: GameState, seat: int) -> float:
    """What a finished game is worth to ``seat``: 1 for a win alone, ``1/k`` for a win
    shared by ``k`` seats, 0 for no win (R10-R12).

    Raises:
        GameNotOverError: the game is not over.
        OutOfRangeError: ``seat`` is not a seat of the game.
    """
    outcome = result(state)
    if not 0 <= seat < len(state.players):
        raise OutOfRangeError(
            f"{short_repr(seat)} is not a seat (seats are 0 to {len(state.players) - 1})"
        )
    return 1.0 / len(outcome.winners) if seat in outcome.winners else 0.0


def _check_positive(name: str, value: object) -> None:
    if type(value) is not int or value < 1:
        raise InvalidConfigError(f"{name} must be an int >= 1, not {short_repr(value)}")


class _Node:
    """One state in the tree. ``visits``/``reward`` count the simulations that passed
    through it and what they were worth to the searching seat."""

    __slots__ = ("actions", "chances", "children", "reward", "state", "visits")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.visits = 0
        self.reward = 0.0
        self.children: dict[Action, _Node] = {}
        # Filled on first use: the candidate actions (own decisions) or the chance outcomes.
        self.actions: tuple[Action, ...] | None = None
        self.chances: tuple[tuple[Reveal, float], ...] | None = None


#: The fast policies a search may roll out with, by name.
_ROLLOUTS: dict[str, Callable[[int], Bot]] = {
    "heuristic": HeuristicBot,
    "classic": ClassicHeuristicBot,
}


class SearchBot:
    """Monte Carlo tree search with chance nodes, a reduced action set and fast rollouts
    (see the module's description).

    Args:
        seed: seeds every random choice of the search; with ``seconds=None`` the same seed
            gives the same actions.
        simulations: simulations per decision (default 100), or ``None`` for no limit
            (then ``seconds`` must be given).
        seconds: a time budget per decision, or ``None``. With both budgets the search stops
            at whichever runs out first.
        exploration: the UCB1 constant for the bot's own decisions (rewards are in 0..1).
        bid_totals, cards_per_total: the reduced action set (:func:`search_actions`).
        depth: how many of its own decisions a simulation searches before the rollout
            takes over (1 = only the decision at hand).
        rollout: the fast policy that plays the other seats and the rollouts:
            ``"heuristic"`` (:class:`~high_society.bots.HeuristicBot`, the default) or
            ``"classic"`` (:class:`~high_society.bots.ClassicHeuristicBot`).
        clock: the clock for ``seconds`` (for tests).

    Raises:
        InvalidConfigError: a budget or knob is out of range, or no budget is given.
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        simulations: int | None = 100,
        seconds: float | None = None,
        exploration: float = 0.5,
        bid_totals: int = 3,
        cards_per_total: int = 2,
        depth: int = 2,
        rollout: str = "heuristic",
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if simulations is None and seconds is None:
            raise InvalidConfigError("a search needs a budget: simulations, seconds or both")
        if simulations is not None:
            _check_positive("simulations", simulations)
        if seconds is not None and (
            isinstance(seconds, bool)
            or not isinstance(seconds, int | float)
            or not 0 < seconds < math.inf
        ):
            raise InvalidConfigError(f"seconds must be a number > 0, not {short_repr(seconds)}")
        if (
            isinstance(exploration, bool)
            or not isinstance(exploration, int | float)
            or not 0 <= exploration < math.inf
        ):
            raise InvalidConfigError(
                f"exploration must be a number >= 0, not {short_repr(exploration)}"
            )
        _check_positive("bid_totals", bid_totals)
        _check_positive("cards_per_total", cards_per_total)
        _check_positive("depth", depth)
        policy = _ROLLOUTS.get(rollout) if isinstance(rollout, str) else None
        if policy is None:
            raise InvalidConfigError(
                f"rollout must be 'heuristic' or 'classic', not {short_repr(rollout)}"
            )
        self._make_policy = policy
        self._rng = random.Random(seed)
        self._simulations = simulations
        self._seconds = seconds
        self._exploration = float(exploration)
        self._bid_totals = bid_totals
        self._cards_per_total = cards_per_total
        self._depth = depth
        self._clock = clock
        self._policy: list[Bot] = []
        #: Simulations run by the last :meth:`choose` (0 when it had one candidate).
        self.last_simulations = 0

    def choose(self, state: GameState) -> Action:
        """The action this bot plays for the seat that must act.

        Raises:
            NoSeatToActError: no seat must act in ``state``.
        """
        seat = to_act(state)
        if not isinstance(seat, int):
            raise NoSeatToActError("a bot is asked to act only when a seat must act")
        root = _Node(state)
        root.actions = self._candidates(state)
        self.last_simulations = 0
        if len(root.actions) == 1:
            return root.actions[0]
        while len(self._policy) < state.num_players:
            self._policy.append(self._make_policy(self._rng.getrandbits(64)))
        deadline = None if self._seconds is None else self._clock() + self._seconds
        limit = self._simulations
        runs = 0
        while (limit is None or runs < limit) and (deadline is None or self._clock() < deadline):
            self._simulate(root, seat)
            runs += 1
        self.last_simulations = runs
        # The most tried action; ties go to the earlier candidate (Pass, then cheaper bids).
        actions = root.actions
        best = max(range(len(actions)), key=lambda i: (_visits(root, actions[i]), -i))
        return actions[best]

    def _candidates(self, state: GameState) -> tuple[Action, ...]:
        return search_actions(
            state, bid_totals=self._bid_totals, cards_per_total=self._cards_per_total
        )

    def _simulate(self, root: _Node, seat: int) -> None:
        """One simulation: down the tree, one new node, a rollout, the reward back up."""
        node = root
        path = [root]
        own = 0
        while True:
            state = node.state
            phase = state.phase
            if phase is Phase.OVER:
                break
            if phase is Phase.REVEAL:
                action: Action = self._reveal(node)
            elif state.turn == seat:
                if own >= self._depth:
                    break
                own += 1
                action = self._select(node)
            else:
                action = self._policy[state.turn].choose(state)
            child = node.children.get(action)
            if child is None:
                # The tree grows by one node per simulation; the rollout starts there.
                child = node.children[action] = _Node(apply(state, action))
                path.append(child)
                node = child
                break
            path.append(child)
            node = child
        reward = win_share(self._rollout(node.state), seat)
        for visited in path:
            visited.visits += 1
            visited.reward += reward

    def _select(self, node: _Node) -> Action:
        """UCB1 over the node's candidates; an untried candidate first, in order."""
        if node.actions is None:
            node.actions = self._candidates(node.state)
        log_n = math.log(max(node.visits, 1))
        best: Action | None = None
        best_score = -math.inf
        for action in node.actions:
            child = node.children.get(action)
            if child is None or child.visits == 0:
                return action
            score = child.reward / child.visits + self._exploration * math.sqrt(
                log_n / child.visits
            )
            if score > best_score:
                best, best_score = action, score
        assert best is not None
        return best

    def _reveal(self, node: _Node) -> Reveal:
        """The reveal whose share of the node's visits lags its exact probability the most
        (ties: the first in :func:`~high_society.chance_outcomes`)."""
        if node.chances is None:
            node.chances = tuple((reveal, float(p)) for reveal, p in chance_outcomes(node.state))
        total = node.visits + 1
        best, best_gap = node.chances[0][0], -math.inf
        for reveal, p in node.chances:
            child = node.children.get(reveal)
            gap = p * total - (child.visits if child is not None else 0)
            if gap > best_gap:
                best, best_gap = reveal, gap
        return best

    def _rollout(self, state: GameState) -> GameState:
        """Play to the end: the fast policy for every seat, uniform reveals (each card left
        equally likely, which is what the exact probabilities say)."""
        policy = self._policy
        randrange = self._rng.randrange

        while (phase := state.phase) is not Phase.OVER:
            if phase is Phase.REVEAL:
                deck = state.deck
                action: Action = Reveal(deck[randrange(len(deck))])
            else:
                action = policy[state.turn].choose(state)
            state = apply(state, action)
        return state


def _visits(node: _Node, action: Action) -> int:
    child = node.children.get(action)
    return child.visits if child is not None else 0

"""OpenSpiel's MCTSBot against the library's built-in bots, through the OpenSpiel game.

    python examples/openspiel_mcts.py --games 20 --simulations 50 --opponent heuristic

Seat 0 is OpenSpiel's ``MCTSBot``; the other seats are the library's
:class:`~high_society.bots.ClassicHeuristicBot` (``--opponent heuristic``: the package's
first heuristic bot, which the recorded figures of docs/performance.md played) or
:class:`~high_society.RandomBot`, playing on the
library's own state inside the OpenSpiel one. The report gives MCTS's win rate (a shared win
counts as the share, as :func:`high_society.observation.returns` counts it) next to what a
seat would get by chance, ``1 / players`` of the games that have a winner.

``--evaluator random`` is OpenSpiel's plain UCT with random rollouts. It learns nothing
here: a random rollout bids at random and spends everything, and about three such games in
four end with everyone cast out and every return 0. ``--evaluator heuristic`` (the
default) rolls out with the library's heuristic bot on the library's state and guides PUCT
with a prior on Pass, the cheapest bids and the heuristic's own choice.

Needs the extra: ``pip install '.[openspiel]'`` in a clone of the project.
"""

import argparse
import random
import time

import numpy as np
import pyspiel
from numpy.typing import NDArray
from open_spiel.python.algorithms import mcts

from high_society import (
    CHANCE,
    apply,
    chance_outcomes,
    legal_actions,
    to_act,
)
from high_society.bots import Bot, ClassicHeuristicBot, RandomBot
from high_society.encoding import action_id
from high_society.observation import returns
from high_society.openspiel import SHORT_NAME, game_state


class HeuristicEvaluator(mcts.Evaluator):  # type: ignore[misc]  # OpenSpiel has no hints
    """Rollouts by heuristic bots on the library's state; a prior on a few sensible moves."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self._bot = ClassicHeuristicBot(seed)

    def evaluate(self, state: pyspiel.State) -> NDArray[np.float64]:
        """The returns of one heuristic game played on from ``state``."""
        game = game_state(state)
        while not game.is_over:
            if to_act(game) is CHANCE:
                reveals, weights = zip(*chance_outcomes(game), strict=True)
                game = apply(game, self._rng.choices(reveals, weights)[0])
            else:
                game = apply(game, self._bot.choose(game))
        return np.array(returns(game))

    def prior(self, state: pyspiel.State) -> list[tuple[int, float]]:
        """Chance: its outcomes. A seat: Pass and the 8 cheapest bids (the engine lists them
        first), and the heuristic's choice, which gets half the weight."""
        if state.is_chance_node():
            return list(state.chance_outcomes())
        game = game_state(state)
        few = {action_id(a) for a in list(legal_actions(game))[:9]}
        chosen = action_id(self._bot.choose(game))
        weights = dict.fromkeys(few, 0.5 / len(few))
        weights[chosen] = weights.get(chosen, 0.0) + 0.5
        return sorted(weights.items())


def play_one(
    game: pyspiel.Game, searcher: mcts.MCTSBot, bots: list[Bot], rng: random.Random
) -> list[float]:
    """One game: MCTS for seat 0, ``bots[seat]`` for the others; the returns."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        elif state.current_player() == 0:
            state.apply_action(searcher.step(state))
        else:
            action = bots[state.current_player()].choose(game_state(state))
            state.apply_action(action_id(action))
    return list(state.returns())


def main(argv: list[str] | None = None) -> float:
    """Play the games, print the report and return MCTS's mean return."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--simulations", type=int, default=50, help="MCTS simulations a move")
    parser.add_argument("--opponent", choices=["heuristic", "random"], default="heuristic")
    parser.add_argument("--evaluator", choices=["heuristic", "random"], default="heuristic")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    game = pyspiel.load_game(SHORT_NAME, {"players": args.players})
    if args.evaluator == "heuristic":
        evaluator: mcts.Evaluator = HeuristicEvaluator(args.seed)
        select = mcts.SearchNode.puct_value
    else:
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(args.seed))
        select = mcts.SearchNode.uct_value
    searcher = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=args.simulations,
        evaluator=evaluator,
        solve=False,
        random_state=np.random.RandomState(args.seed),
        child_selection_fn=select,
    )
    rng = random.Random(args.seed)
    make = ClassicHeuristicBot if args.opponent == "heuristic" else RandomBot
    start = time.process_time()
    total, decided = 0.0, 0
    for g in range(args.games):
        bots: list[Bot] = [make(args.seed * 1000 + g * 10 + seat) for seat in range(args.players)]
        returns = play_one(game, searcher, bots, rng)
        total += returns[0]
        decided += sum(returns) > 0
    seconds = time.process_time() - start
    mean = float(total) / int(args.games)
    print(
        f"MCTSBot ({args.evaluator} rollouts, {args.simulations} simulations a move) "
        f"against {args.players - 1} "
        f"{args.opponent} bots, {args.games} games: win rate {mean:.2f} "
        f"(chance: {decided / args.games / args.players:.2f}); {seconds:.1f} s CPU"
    )
    return mean


if __name__ == "__main__":
    main()

"""OpenSpiel's MCTSBot against the library's built-in bots, through the OpenSpiel game.

    python examples/openspiel_mcts.py --games 20 --simulations 50 --opponent heuristic

Seat 0 is OpenSpiel's ``MCTSBot`` (UCT with random rollouts); the other seats are the
library's :class:`~high_society.HeuristicBot` or :class:`~high_society.RandomBot`, playing
on the library's own state inside the OpenSpiel one. The report gives MCTS's win rate (a
shared win counts as the share, as :func:`high_society.observation.returns` counts it) next
to what a seat would get by chance, ``1 / players`` of the games that have a winner.

Needs the extra: ``pip install high-society[openspiel]``.
"""

import argparse
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from high_society import Bot, HeuristicBot, RandomBot
from high_society.encoding import action_id
from high_society.openspiel import SHORT_NAME, game_state


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
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    game = pyspiel.load_game(SHORT_NAME, {"players": args.players})
    searcher = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=args.simulations,
        evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(args.seed)),
        solve=False,
        random_state=np.random.RandomState(args.seed),
    )
    rng = random.Random(args.seed)
    make = HeuristicBot if args.opponent == "heuristic" else RandomBot
    start = time.process_time()
    total, decided = 0.0, 0
    for g in range(args.games):
        bots: list[Bot] = [make(args.seed * 1000 + g * 10 + seat) for seat in range(args.players)]
        returns = play_one(game, searcher, bots, rng)
        total += returns[0]
        decided += sum(returns) > 0
    seconds = time.process_time() - start
    mean = total / args.games
    print(
        f"MCTSBot ({args.simulations} simulations a move) against {args.players - 1} "
        f"{args.opponent} bots, {args.games} games: win rate {mean:.2f} "
        f"(chance: {decided / args.games / args.players:.2f}); {seconds:.1f} s CPU"
    )
    return mean


if __name__ == "__main__":
    main()

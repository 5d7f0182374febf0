"""Random games through the OpenSpiel game and the PettingZoo environment, side by side
with the library's own ``simulate``, in one run: ``python -m benchmarks.adapters``.

Every engine plays the same workload: uniform choices among all legal actions (each bid
once, Pass, discards) and uniform reveals of the cards left, 4 players. The engines take
turns in rounds (native, OpenSpiel, PettingZoo, native, ...) so that the machine's load
falls on all alike; times are CPU time of this process (waiting for a core does not
count); the report gives each one's median games/s and its ratio to native.
A warm-up game set first fills the per-hand tables every engine shares.

Also timed: ``legal_action_ids`` and ``legal_action_mask`` for a full hand (first bid of an
auction, and facing a bid), against ``legal_actions`` itself.
"""

import argparse
import random
import statistics
import time
import timeit
from collections.abc import Callable

import numpy as np
import pyspiel

import high_society.openspiel
from high_society import Bid, Reveal, StatusCard, apply, legal_actions, new_game
from high_society.encoding import legal_action_ids, legal_action_mask, num_actions
from high_society.pettingzoo import env as pettingzoo_env
from high_society.pettingzoo import raw_env
from high_society.simulate import simulate

PLAYERS = 4


def native(games: int, seed: int) -> float:
    """CPU seconds for ``games`` uniform games through ``simulate`` (scored)."""
    start = time.process_time()
    simulate(players=PLAYERS, games=games, seed=seed)
    return time.process_time() - start


def openspiel(games: int, seed: int) -> float:
    """CPU seconds for ``games`` uniform games through the OpenSpiel game (scored)."""
    game = pyspiel.load_game(high_society.openspiel.SHORT_NAME, {"players": PLAYERS})
    rng = random.Random(seed)
    start = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                pick = rng.random()
                chosen = outcomes[-1][0]
                for outcome, p in outcomes:
                    pick -= p
                    if pick < 0:
                        chosen = outcome
                        break
                state.apply_action(chosen)
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        state.returns()
    return time.process_time() - start


def pettingzoo(games: int, seed: int, *, wrapped: bool = True) -> float:
    """Seconds for ``games`` uniform games through the PettingZoo environment, wrapped as
    the classic games are (``env()``) or raw (``raw_env``: no PettingZoo wrappers); CPU
    seconds. The environment scores each game itself (its rewards)."""
    environment = pettingzoo_env(players=PLAYERS) if wrapped else raw_env(PLAYERS)
    rng = np.random.default_rng(seed)
    start = time.process_time()
    for game in range(games):
        environment.reset(seed=seed + game)
        for _ in environment.agent_iter():
            observation, _, termination, truncation, _ = environment.last()
            if termination or truncation:
                environment.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            environment.step(int(legal[rng.integers(len(legal))]))
    return time.process_time() - start


ENGINES: dict[str, Callable[[int, int], float]] = {
    "native simulate": native,
    "OpenSpiel game": openspiel,
    "PettingZoo AEC env": pettingzoo,
    "PettingZoo raw env": lambda games, seed: pettingzoo(games, seed, wrapped=False),
}


def micro() -> None:
    """Microseconds per call of the encoding's hot functions on a full hand."""
    first = apply(new_game(PLAYERS), Reveal(StatusCard.LUXURY_5))  # every bid legal
    facing = apply(first, Bid(0, frozenset({1, 2})))  # seat 1, full hand, must beat 3
    mask = bytearray(num_actions())
    floats = np.zeros(num_actions(), np.float32)
    cases: dict[str, Callable[[], object]] = {
        "legal_actions(state) (lazy, for scale)": lambda: legal_actions(facing),
        "legal_action_ids, full hand, every bid legal": lambda: legal_action_ids(first),
        "legal_action_ids, full hand facing a bid of 3": lambda: legal_action_ids(facing),
        "legal_action_mask into a bytearray": lambda: legal_action_mask(facing, mask),
        "legal_action_mask into a numpy float32 array": lambda: legal_action_mask(facing, floats),
    }
    print(f"{'operation':52} {'median us':>10}")
    for name, call in cases.items():
        call()
        runs = [timeit.timeit(call, number=2000) / 2000 * 1e6 for _ in range(7)]
        print(f"{name:52} {statistics.median(runs):10.2f}")


def main() -> None:
    """Print the side-by-side report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games per engine per round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of all engines")
    args = parser.parse_args()
    for run in ENGINES.values():  # warm-up: per-hand tables, imports, JIT-free caches
        run(200, 999)
    rates: dict[str, list[float]] = {name: [] for name in ENGINES}
    for r in range(args.rounds):
        for name, run in ENGINES.items():
            rates[name].append(args.games / run(args.games, 1000 + r))
    base = statistics.median(rates["native simulate"])
    print(f"{PLAYERS} players, uniform random play, {args.rounds} rounds x {args.games} games")
    print(f"{'engine':22} {'median games/s':>15} {'x native':>9}")
    for name, values in rates.items():
        median = statistics.median(values)
        print(f"{name:22} {median:15.0f} {median / base:9.2f}")
    print()
    micro()


if __name__ == "__main__":
    main()

"""Random games through the OpenSpiel game and the PettingZoo environment, side by side
with the library's own ``simulate``, in one run: ``python -m benchmarks.adapters``.

Every engine plays the same workload: uniform choices among all legal actions (each bid
once, Pass, discards) and uniform reveals of the cards left, 4 players. The engines take
turns in rounds (native, OpenSpiel, PettingZoo, native, ...) so that the machine's load
falls on all alike; times are CPU time of this process (waiting for a core does not
count); the report gives each one's median games/s and its ratio to native.
A warm-up game set first fills the per-hand tables every engine shares.

Then where a PettingZoo game's time goes (CPU time, games replayed with recorded actions):
the environment's ``last()`` (observation and mask), its ``step()``, and the agent's own
choice from the mask (``np.flatnonzero`` and a random index), each per step and against
native ``simulate``'s time for the same number of games.

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
from high_society.observation import ObservationWriter
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
    """CPU seconds for ``games`` uniform games through the PettingZoo environment as the
    classic games give theirs (``env()``: illegal actions and call order checked) or raw
    (``raw_env``). The environment scores each game itself (its rewards)."""
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


def pettingzoo_parts(games: int, seed: int) -> None:
    """Print where the time of uniform games through ``env()`` goes, per step, in CPU time.

    The games are played as in :func:`pettingzoo` (timed, recording the actions and a
    sample of the masks), then replayed with ``step()`` alone and with ``step()`` and the
    observation tensor (the environment's writer's work, done by a second writer); the
    agent's choice is timed on the sampled masks. What is left of the played games' time
    is the mask, ``last()`` and the loop. Native ``simulate`` plays as many games for
    scale. A replay finds the environment's caches warm: only the played games time the
    mask."""
    environment = pettingzoo_env(players=PLAYERS)
    writer = ObservationWriter()
    moves: list[list[int | None]] = []
    masks: list[np.ndarray] = []

    def play(round_seed: int) -> float:
        rng = np.random.default_rng(round_seed)
        moves.clear()
        masks.clear()
        start = time.process_time()
        for game in range(games):
            environment.reset(seed=round_seed + game)
            played: list[int | None] = []
            for _ in environment.agent_iter():
                observation, _, termination, truncation, _ = environment.last()
                move = None
                if not (termination or truncation):
                    if len(played) % 8 == 0:  # a sample: keeping every mask costs memory
                        masks.append(observation["action_mask"])
                    legal = np.flatnonzero(observation["action_mask"])
                    move = int(legal[rng.integers(len(legal))])
                played.append(move)
                environment.step(move)
            moves.append(played)
        return time.process_time() - start

    def tensor() -> None:
        game = environment.game
        np.frombuffer(writer.values(game, game.turn), np.uint8).astype(np.float32)

    def replay(round_seed: int, observe: Callable[[], object] | None) -> float:
        start = time.process_time()
        for game, played in enumerate(moves):
            environment.reset(seed=round_seed + game)
            for move in played:
                if observe is not None:
                    observe()
                environment.step(move)
        return time.process_time() - start

    def choose() -> float:  # for every decision of the played games, from the sample
        rng = np.random.default_rng(seed)
        start = time.process_time()
        for mask in masks:
            legal = np.flatnonzero(mask)
            int(legal[rng.integers(len(legal))])
        seconds = time.process_time() - start
        decisions = sum(move is not None for played in moves for move in played)
        return seconds * decisions / len(masks)

    names = ("native", "played", "step", "step+tensor", "choice")
    runs: dict[str, list[float]] = {name: [] for name in names}
    steps = 0
    for r in range(3):
        round_seed = seed + 1000 * r
        runs["native"].append(native(games, round_seed))
        runs["played"].append(play(round_seed))
        steps += sum(map(len, moves))
        runs["step"].append(replay(round_seed, None))
        runs["step+tensor"].append(replay(round_seed, tensor))
        runs["choice"].append(choose())
    steps //= 3
    t = {name: statistics.median(values) for name, values in runs.items()}
    parts = {
        "env.step() (reset, reveals, scoring included)": t["step"],
        "env.last(): the observation tensor": t["step+tensor"] - t["step"],
        "env.last(): the mask; the loop": t["played"] - t["step+tensor"] - t["choice"],
        "agent: np.flatnonzero(mask), random index": t["choice"],
    }
    print(f"Where a PettingZoo game's time goes ({games} games, {steps / games:.1f} steps a game):")
    print(f"{'part':48} {'us/step':>8} {'x native':>9}")
    for name, seconds in parts.items():
        print(f"{name:48} {seconds / steps * 1e6:8.2f} {seconds / t['native']:9.2f}")
    total = t["played"]
    print(f"{'all (native: 1.00)':48} {total / steps * 1e6:8.2f} {total / t['native']:9.2f}")


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
    pettingzoo_parts(args.games, 2000)
    print()
    micro()


if __name__ == "__main__":
    main()

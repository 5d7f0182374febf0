"""Random games through the OpenSpiel game and the PettingZoo environment, side by side
with the library's own ``simulate``, in one run: ``python -m benchmarks.adapters``.

Every engine plays the same workload: uniform choices among all legal actions (each bid
once, Pass, discards) and uniform reveals of the cards left, 4 players. The engines take
turns in rounds (native, OpenSpiel, PettingZoo, ..., each round starting with the next
engine) so that the machine's load falls on all alike; times are CPU time of this process
(waiting for a core does not count); the report gives each one's median games/s and its
ratio to native: the median, lowest and highest of the rounds' own ratios (each engine
against native in the same round, a few seconds apart). Each engine draws its games from
its own seeds: an engine that replayed another's games would find every cache warm. A
warm-up game set first fills the per-hand tables every engine shares.

PettingZoo is measured with two random agents, both uniform over the legal ids of the
``int8`` mask: ``np.flatnonzero(mask)``, as the agent of the issue's first figures, and
``np.flatnonzero(mask.view(np.bool_))``, the same choice at about half the cost (numpy
finds the non-zero entries of a boolean array much faster than of an ``int8`` one).

Then where a PettingZoo game's time goes (CPU time, games replayed with recorded actions):
the environment's ``last()`` (observation and mask), its ``step()``, and the agent's own
choice from the mask (both agents), each per step and against native ``simulate``'s time
for the same number of games.

Also timed: ``legal_action_ids`` and ``legal_action_mask`` for a full hand (first bid of an
auction, and facing a bid), against ``legal_actions`` itself.
"""

import argparse
import itertools
import random
import statistics
import sys
import time
import timeit
from collections.abc import Callable

import attrs
import numpy as np
import pyspiel

import high_society.openspiel
from benchmarks.figures import Recorder, table
from high_society import Bid, PlayerState, Reveal, StatusCard, apply, legal_actions, new_game
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


def flatnonzero_int8(mask: np.ndarray) -> np.ndarray:
    """The legal ids, as an agent writes it from PettingZoo's ``int8`` mask."""
    return np.flatnonzero(mask)


def flatnonzero_bool(mask: np.ndarray) -> np.ndarray:
    """The legal ids through a boolean view of the mask (no copy)."""
    return np.flatnonzero(mask.view(np.bool_))


AGENTS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "np.flatnonzero(mask)": flatnonzero_int8,
    "np.flatnonzero(mask.view(np.bool_))": flatnonzero_bool,
}


def pettingzoo(
    games: int,
    seed: int,
    *,
    wrapped: bool = True,
    legal: Callable[[np.ndarray], np.ndarray] = flatnonzero_int8,
) -> float:
    """CPU seconds for ``games`` uniform games through the PettingZoo environment as the
    classic games give theirs (``env()``: illegal actions and call order checked) or raw
    (``raw_env``), the agent finding the legal ids with ``legal``. The environment scores
    each game itself (its rewards)."""
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
            ids = legal(observation["action_mask"])
            environment.step(int(ids[rng.integers(len(ids))]))
    return time.process_time() - start


def pettingzoo_parts(games: int, seed: int) -> list[list[int | float | str]]:
    """Print where the time of uniform games through ``env()`` goes, per step, in CPU time.

    The games are played as in :func:`pettingzoo` (timed, recording the actions and a
    sample of the masks), then replayed with ``step()`` alone and with ``step()`` and the
    observation tensor (the environment's way: float32 bytes from an ``ObservationWriter``,
    read in place by numpy; done by a second writer); each agent's choice is timed on the
    sampled masks. What is left of the played games' time is the mask, ``last()`` and the
    loop. Native ``simulate`` plays as many games for scale. A replay finds the
    environment's caches warm: only the played games time the mask."""
    environment = pettingzoo_env(players=PLAYERS)
    writer = ObservationWriter(item_format="f")
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
                    if len(played) % 8 == 0:  # a sample (the masks are shared, read-only)
                        masks.append(observation["action_mask"])
                    legal = np.flatnonzero(observation["action_mask"])
                    move = int(legal[rng.integers(len(legal))])
                played.append(move)
                environment.step(move)
            moves.append(played)
        return time.process_time() - start

    def tensor() -> None:
        game = environment.game
        np.frombuffer(writer.values(game, game.turn), np.float32)

    def replay(round_seed: int, observe: Callable[[], object] | None) -> float:
        start = time.process_time()
        for game, played in enumerate(moves):
            environment.reset(seed=round_seed + game)
            for move in played:
                if observe is not None:
                    observe()
                environment.step(move)
        return time.process_time() - start

    def choose(legal: Callable[[np.ndarray], np.ndarray]) -> Callable[[], float]:
        def run() -> float:  # for every decision of the played games, from the sample
            rng = np.random.default_rng(seed)
            start = time.process_time()
            for mask in masks:
                ids = legal(mask)
                int(ids[rng.integers(len(ids))])
            seconds = time.process_time() - start
            decisions = sum(move is not None for played in moves for move in played)
            return seconds * decisions / len(masks)

        return run

    choosers = {name: choose(legal) for name, legal in AGENTS.items()}
    runs: dict[str, list[float]] = {
        name: [] for name in ("native", "played", "step", "step+tensor", *choosers)
    }
    steps = 0
    for r in range(3):
        round_seed = seed + 1000 * r
        runs["native"].append(native(games, round_seed))
        runs["played"].append(play(round_seed))
        steps += sum(map(len, moves))
        runs["step"].append(replay(round_seed, None))
        runs["step+tensor"].append(replay(round_seed, tensor))
        for name, run in choosers.items():
            runs[name].append(run())
    steps //= 3
    t = {name: statistics.median(values) for name, values in runs.items()}
    first, second = AGENTS
    parts = {
        "env.step() (reset, reveals, scoring included)": t["step"],
        "env.last(): the observation tensor": t["step+tensor"] - t["step"],
        "env.last(): the mask; the loop": t["played"] - t["step+tensor"] - t[first],
        f"agent: {first}, random index": t[first],
    }
    print(f"Where a PettingZoo game's time goes ({games} games, {steps / games:.1f} steps a game):")
    print(f"{'part':60} {'us/step':>8} {'x native':>9}")
    parts["a whole game (native: 1.00)"] = t["played"]
    parts[f"(the other agent: {second}, random index)"] = t[second]
    rows: list[list[int | float | str]] = []
    for name, seconds in parts.items():
        print(f"{name:60} {seconds / steps * 1e6:8.2f} {seconds / t['native']:9.2f}")
        rows.append([name, round(seconds / steps * 1e6, 1), round(seconds / t["native"], 2)])
    return rows


ENGINES: dict[str, Callable[[int, int], float]] = {
    "native simulate": native,
    "OpenSpiel game": openspiel,
    "PettingZoo env(), int8 agent": pettingzoo,
    "PettingZoo env(), bool-view agent": lambda games, seed: pettingzoo(
        games, seed, legal=flatnonzero_bool
    ),
    "PettingZoo raw_env, int8 agent": lambda games, seed: pettingzoo(games, seed, wrapped=False),
}


def warm_every_hand() -> None:
    """Build the per-hand tables of every hand (2,048), as a long run ends up having them:
    the engine's bid tables (``legal_actions``) and the encoding's id tables
    (``legal_action_ids``), through the public API, in an auction where seat 0 holds the
    hand and must beat a bid of 1."""
    state = apply(apply(new_game(PLAYERS), Reveal(StatusCard.LUXURY_5)), Bid(0, frozenset({1})))
    money = state.config.money
    players = list(state.players)
    for size in range(len(money) + 1):
        for cards in itertools.combinations(money, size):
            hand = frozenset(cards)
            players[1] = PlayerState(hand=hand, spent=frozenset(money) - hand)
            seated = attrs.evolve(state, players=tuple(players))
            legal_actions(seated)
            legal_action_ids(seated)


def micro() -> list[list[int | float | str]]:
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
    rows: list[list[int | float | str]] = []
    for name, call in cases.items():
        call()
        runs = [timeit.timeit(call, number=2000) / 2000 * 1e6 for _ in range(7)]
        print(f"{name:52} {statistics.median(runs):10.2f}")
        rows.append([name, round(statistics.median(runs), 1)])
    return rows


def main() -> None:
    """Print the side-by-side report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per engine per round")
    parser.add_argument("--rounds", type=int, default=9, help="rounds of all engines")
    parser.add_argument(
        "--cold",
        action="store_true",
        help="do not build every hand's tables first (engines then build them on first sight)",
    )
    parser.add_argument("--figures", metavar="PATH", help="also write the figures to PATH (JSON)")
    args = parser.parse_args()
    shown = " ".join(sys.argv[1:])
    record = Recorder(args.figures, f"python -m benchmarks.adapters {shown}".strip())
    if not args.cold:
        warm_every_hand()
    # Each engine its own seeds (1,000,000 apart): none replays another's games.
    seeds = {name: 1_000_000 * i for i, name in enumerate(ENGINES)}
    for name, run in ENGINES.items():  # warm-up: per-hand tables, imports
        run(200, 999 + seeds[name])
    names = list(ENGINES)
    times: dict[str, list[float]] = {name: [] for name in ENGINES}
    for r in range(args.rounds):
        # Each round starts with another engine: none always runs after the same one.
        for name in names[r % len(names) :] + names[: r % len(names)]:
            times[name].append(ENGINES[name](args.games, 1000 + 1000 * r + seeds[name]))
    native_times = times["native simulate"]
    tables = "first sight" if args.cold else "all built first"
    print(
        f"{PLAYERS} players, uniform random play, {args.rounds} rounds x {args.games} games, "
        f"per-hand tables: {tables}"
    )
    print(f"{'engine':34} {'median games/s':>15} {'x native':>9} {'rounds (min-max)':>17}")
    rows: list[list[int | float | str]] = []
    for name, values in times.items():
        # Each round's ratio compares runs a few seconds apart, under the same load.
        ratios = [n / v for n, v in zip(native_times, values, strict=True)]
        spread = f"{min(ratios):.2f}-{max(ratios):.2f}"
        rate = args.games / statistics.median(values)
        print(f"{name:34} {rate:15.0f} {statistics.median(ratios):9.2f} {spread:>17}")
        rows.append([name, round(rate), round(statistics.median(ratios), 2), spread])
    record["engines"] = table(["engine", "games/s (median)", "x native", "rounds"], rows)
    print()
    parts = pettingzoo_parts(args.games, 2000)
    record["pettingzoo_parts"] = table(["part of a step", "µs", "x native"], parts)
    print()
    record["encoding_micro"] = table(["operation", "µs (median)"], micro())
    tables_note = "every hand's tables built first" if not args.cold else "tables on first sight"
    record.write(
        title="The AI adapters beside the reducer",
        notes=f"Uniform-random {PLAYERS}-player games, {args.rounds} rounds of {args.games} "
        f"games, the engines taking turns; CPU time; x native: the median of the rounds' own "
        f"ratios to native `simulate`, {tables_note}.",
        distributions=("numpy", "open_spiel", "pettingzoo", "gymnasium"),
    )


if __name__ == "__main__":
    main()

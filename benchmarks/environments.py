"""The environments' speed beside another commit's, side by side in one run:

    .venv/bin/python -m benchmarks.environments --baseline REV [--pairs 12] [--games G]

Games per CPU second of PettingZoo's ``env()`` and ``raw_env`` (4 players, a uniformly random
agent on the ``int8`` mask, as ``benchmarks.adapters`` plays them) and of ``SoloEnv`` (4
players, a uniformly random learner against three heuristic bots), with native
``simulate`` for scale. The package of ``REV`` (its ``src``, from ``git archive``) and the
working tree's run in turns, one process each, in pairs whose order alternates; each
process builds every hand's tables first and warms up, then measures three rounds. The
report gives each pair's ratio (this tree over the baseline) and their median, and each
tree's ratio to native measured in its own processes. Times are CPU time of the measuring
process, so other work on the machine moves them less than wall time, not at all.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KINDS = ("native", "env", "raw", "solo")


def measure(games: int, solo_games: int) -> dict[str, list[float]]:
    """Games per CPU second of each kind, three rounds, in this process's package."""
    import numpy as np

    from benchmarks.adapters import native, pettingzoo, warm_every_hand

    try:
        from high_society.gymnasium_env import SoloEnv
    except ImportError:  # a baseline from before the module: its old home
        from high_society.pettingzoo import SoloEnv

    def solo(count: int, seed: int) -> float:
        env = SoloEnv(players=4, seat=0)
        rng = np.random.default_rng(seed)
        start = time.process_time()
        for game in range(count):
            observation, _ = env.reset(seed=seed + game)
            done = False
            while not done:
                legal = np.flatnonzero(observation["action_mask"])
                step = env.step(int(legal[rng.integers(len(legal))]))
                observation, done = step[0], step[2]
        return time.process_time() - start

    warm_every_hand()
    native(100, 997)
    pettingzoo(100, 998)
    pettingzoo(100, 999, wrapped=False)
    solo(5, 996)
    rates: dict[str, list[float]] = {kind: [] for kind in KINDS}
    for r in range(3):
        seed = 10_000 * (r + 1)
        rates["native"].append(games / native(games, seed))
        rates["env"].append(games / pettingzoo(games, seed + 1000))
        rates["raw"].append(games / pettingzoo(games, seed + 2000, wrapped=False))
        rates["solo"].append(solo_games / solo(solo_games, seed + 3000))
    return rates


def run(source: Path, games: int, solo: int) -> dict[str, list[float]]:
    """One measuring process on the package in ``source`` (a folder holding ``high_society``)."""
    environment = {**os.environ, "PYTHONPATH": f"{source}{os.pathsep}{ROOT}"}
    command = [sys.executable, "-m", "benchmarks.environments", "--measure"]
    command += ["--games", str(games), "--solo", str(solo), "--expect", str(source)]
    done = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(done.stderr)
    rates: dict[str, list[float]] = json.loads(done.stdout.splitlines()[-1])
    return rates


def report(runs: dict[str, list[dict[str, list[float]]]]) -> None:
    def median(rates: dict[str, list[float]], kind: str) -> float:
        return statistics.median(rates[kind])

    print(f"{'':7} {'games/CPU s':>24} {'this / baseline':>16}  per pair")
    for kind in KINDS:
        before = [median(rates, kind) for rates in runs["baseline"]]
        after = [median(rates, kind) for rates in runs["this"]]
        ratios = [a / b for a, b in zip(after, before, strict=True)]
        rates = f"{statistics.median(before):8.0f} -> {statistics.median(after):8.0f}"
        pairs = " ".join(f"{ratio:.3f}" for ratio in ratios)
        print(f"{kind:7} {rates:>24} {statistics.median(ratios):16.3f}  {pairs}")
    print()
    for kind in KINDS[1:]:
        for tree, rows in runs.items():
            shares = [
                statistics.median(k / n for k, n in zip(rates[kind], rates["native"], strict=True))
                for rates in rows
            ]
            print(f"{kind} x native, {tree:8}: median {statistics.median(shares):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", metavar="REV", help="the commit to compare with")
    parser.add_argument("--pairs", type=int, default=12, help="pairs of processes (12)")
    parser.add_argument("--games", type=int, default=200, help="PettingZoo games a round (200)")
    parser.add_argument("--solo", type=int, default=20, help="SoloEnv games a round (20)")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--expect", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        import high_society

        assert Path(high_society.__file__).is_relative_to(args.expect), high_society.__file__
        print(json.dumps(measure(args.games, args.solo)))
        return
    if args.baseline is None:
        parser.error("--baseline REV is required")
    archive = subprocess.run(
        ["git", "archive", args.baseline, "src"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    with tempfile.TemporaryDirectory() as folder:
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(folder, filter="data")
        trees = {"baseline": Path(folder) / "src", "this": ROOT / "src"}
        runs: dict[str, list[dict[str, list[float]]]] = {name: [] for name in trees}
        for pair in range(args.pairs):
            for name in list(trees)[:: 1 if pair % 2 == 0 else -1]:
                runs[name].append(run(trees[name], args.games, args.solo))
            print(f"pair {pair + 1} of {args.pairs} done", file=sys.stderr, flush=True)
    print(f"4 players; {args.pairs} pairs of processes, baseline {args.baseline}")
    report(runs)


if __name__ == "__main__":
    main()

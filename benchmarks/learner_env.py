"""A uniformly random learner against three heuristic bots: the Gymnasium vector
environment on the batch engine beside ``SoloEnv``, in CPU time (docs/ai.md).

    .venv/bin/python -m benchmarks.learner_env [--steps 200] [--seconds 10]

``LearnerVectorEnv`` runs 1,024 games at once with same-step autoreset, its opponents
compiled; ``SoloEnv`` plays one game at a time, its opponents in Python. Both learners pick
uniformly among their legal actions (the vector one with ``sample_legal``, compiled). Rates
are per CPU second of this process (``time.process_time``), so other processes on the
machine do not change them.
"""

import argparse
import time

import numpy as np
from gymnasium.vector import AutoresetMode

from high_society.batch.learner import LearnerVectorEnv
from high_society.gymnasium_env import SoloEnv
from high_society.learned import shipped_network

CLOCK = time.process_time
GAMES_AT_ONCE = 1024


def vector_rates(
    steps: int, mode: AutoresetMode = AutoresetMode.SAME_STEP, **options: object
) -> tuple[float, float]:
    """Learner steps and finished games per CPU second of ``LearnerVectorEnv``."""
    env = LearnerVectorEnv(GAMES_AT_ONCE, players=4, autoreset_mode=mode, seed=1, **options)  # type: ignore[arg-type]
    env.reset(seed=1)
    games = 0
    start = CLOCK()
    for _ in range(steps):
        _, _, terminations, truncations, _ = env.step(env.sample_legal())
        games += int(np.count_nonzero(terminations | truncations))
    seconds = CLOCK() - start
    return steps * GAMES_AT_ONCE / seconds, games / seconds


def solo_games(seconds: float) -> float:
    """Finished games per CPU second of ``SoloEnv``."""
    env = SoloEnv(players=4, seat=0)
    rng = np.random.default_rng(1)
    observation, _ = env.reset(seed=1)
    games = 0
    start = CLOCK()
    while CLOCK() - start < seconds:
        legal = np.flatnonzero(observation["action_mask"])
        observation, _, terminated, truncated, _ = env.step(int(rng.choice(legal)))
        if terminated or truncated:
            games += 1
            observation, _ = env.reset()
    return games / (CLOCK() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=200, help="vector steps (default 200)")
    parser.add_argument("--seconds", type=float, default=10.0, help="SoloEnv CPU seconds")
    args = parser.parse_args()
    vector_rates(20)  # compile and warm the caches first
    rows = {}
    for mode in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
        for label, options in (
            ("3 heuristic bots", {}),
            ("the same, pass-cheapest", {"actions": "pass-cheapest"}),
            ("3 learned bots (numpy)", {"opponents": shipped_network(4)}),
        ):
            rows[mode, label] = vector_rates(args.steps, mode, **options)
            steps, games = rows[mode, label]
            print(
                f"LearnerVectorEnv {mode.value:9} {label:25} {steps:>9,.0f} learner steps "
                f"{games:>7,.0f} games per CPU second"
            )
    solo = solo_games(args.seconds)
    games = rows[AutoresetMode.SAME_STEP, "3 heuristic bots"][1]
    print(f"SoloEnv: {solo:,.0f} games per CPU second ({games / solo:,.0f} times fewer)")


if __name__ == "__main__":
    main()

"""Train the learned bots: PPO in numpy on the batch engine, in a league, for 3, 4 and 5 players.

    python3 tasks.py train [--players 3 4 5] [--updates 600] [--seed 1] [--out-dir DIR]

(or ``python examples/train_league.py ...`` with the ``batch`` and ``pettingzoo``
extras). For each player count, :func:`high_society.batch.training.train` trains a
pass-or-cheapest policy against the league of :func:`high_society.batch.league.training_pool`
(the compiled bots from hoarders to spenders) and, from ``--snapshot-every`` updates on,
frozen copies of itself; ``--extra PATH`` adds a saved network (a former learned bot) to
the league. Every ``--eval-every`` updates it writes a line of the learning curve (CPU
time, games, the learner's win share while sampling) to ``--curve`` and saves the policy
to ``DIR/learned-Np.npz``. The run is the same on any machine for the same arguments
(seeded, one thread). The held-out opponents (:mod:`high_society.strangers`) are not
used here. Not part of CI.
"""

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")  # before numpy: one thread for these small matrices

import argparse  # noqa: E402
import csv  # noqa: E402
from pathlib import Path  # noqa: E402

from high_society.batch.league import training_pool  # noqa: E402
from high_society.batch.training import Progress, TrainingConfig, train  # noqa: E402
from high_society.learned import PolicyNetwork, load_network, save_network  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5])
    parser.add_argument("--updates", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=1024, help="games played at once")
    parser.add_argument("--steps", type=int, default=32, help="learner steps per update")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--snapshot-every", type=int, default=50)
    parser.add_argument(
        "--same-table", type=float, default=0.5, help="share of games of one opponent kind"
    )
    parser.add_argument("--eval-every", type=int, default=10)
    parser.add_argument("--extra", action="append", default=[], help="a network to add")
    parser.add_argument("--out-dir", default="src/high_society/data")
    parser.add_argument("--curve", default="learning-curve.csv")
    args = parser.parse_args()
    config = TrainingConfig(
        games=args.games,
        steps=args.steps,
        hidden=args.hidden,
        lr=args.lr,
        snapshot_every=args.snapshot_every,
        same_table=args.same_table,
    )
    with open(args.curve, "w", newline="") as handle:
        curve = csv.writer(handle)
        curve.writerow(["players", "update", "cpu_minutes", "games", "win_share"])
        for players in args.players:
            extra = [n for n in map(load_network, args.extra) if n.players == players]
            opponents, weights = training_pool(extra)
            out = Path(args.out_dir) / f"learned-{players}p.npz"

            def report(
                progress: Progress, network: PolicyNetwork, out: Path = out, players: int = players
            ) -> None:
                row = [players, progress.update, f"{progress.cpu_seconds / 60:.2f}"]
                curve.writerow([*row, progress.games, f"{progress.win_share:.4f}"])
                handle.flush()
                print(f"{players}p {progress}", flush=True)
                save_network(network, out)

            network = train(
                players,
                opponents,
                weights=weights,
                updates=args.updates,
                seed=args.seed,
                config=config,
                report=report,
                report_every=args.eval_every,
            )
            save_network(network, out)


if __name__ == "__main__":
    main()

"""Train the learned bots: PPO in numpy on the batch engine, in a league, for 3, 4 and 5 players.

    python3 tasks.py train [--players 3 4 5] [--updates 600] [--seed 1] [--out-dir DIR]
    python3 tasks.py train --players 4 --start learned --updates 0 --harden 4 --seed 7 --out-dir DIR

(or ``python examples/train_league.py ...`` with the ``batch`` and ``pettingzoo``
extras). For each player count, :func:`high_society.batch.training.train` trains a
pass-or-cheapest policy against the league of :func:`high_society.batch.league.training_pool`
(the compiled bots from hoarders to spenders) and, from ``--snapshot-every`` updates on,
frozen copies of itself; ``--extra PATH`` adds a saved network (a former learned bot) to
the league (``--extra-weight`` each), ``--watchers WEIGHT`` the league's thrifty
:data:`~high_society.batch.league.WATCHERS` (that weight each, in training and among the
styles of hardening rounds); ``--value-warmup N``
trains only the value network for the first ``N`` updates (for a policy that starts from
a trained one). Every ``--eval-every`` updates it writes a line of the learning curve (CPU
time, games, the learner's win share while sampling) to ``--curve`` and saves the policy
to ``DIR/learned-Np.npz``. ``--start PATH`` (or ``learned``, the shipped network) starts
from a saved policy instead of anew. ``--harden ROUNDS`` then runs
:func:`high_society.batch.hardening.harden` on the result: rounds of a best response
against the bot, frozen into the league, and the bot trained on against them
(``--response-updates``, ``--bot-updates`` each; ``--shares`` the mix), saving the bot and
the round's best response (``DIR/learned-Np.npz``, kept as ``DIR/learned-Np-rR.npz``
too, and ``DIR/response-Np-rR.npz``) after every round; with ``--updates 0`` only the
rounds run. A run continues another with the best responses found before
(``--response PATH``, repeated) and ``--first-round``; ``--sampled`` hardens the bot as
it plays sampled (``HardeningConfig.sampled``). The
run is the same on any machine for the same arguments (seeded, one thread). The held-out
opponents (:mod:`high_society.strangers`) are not used here. Not part of CI.
"""

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")  # before numpy: one thread for these small matrices

import argparse  # noqa: E402
import csv  # noqa: E402
from pathlib import Path  # noqa: E402

import attrs  # noqa: E402

from high_society.batch.expert import ExpertConfig, Fitted, Labels, iterate  # noqa: E402
from high_society.batch.hardening import HardeningConfig, RoundShares, harden  # noqa: E402
from high_society.batch.league import training_pool  # noqa: E402
from high_society.batch.training import Progress, TrainingConfig, train  # noqa: E402
from high_society.learned import (  # noqa: E402
    PolicyNetwork,
    load_network,
    save_network,
    shipped_network,
)


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
    parser.add_argument("--extra-weight", type=float, default=1.0, help="each --extra's weight")
    parser.add_argument("--watchers", type=float, default=0.0, help="each watcher's weight (0)")
    parser.add_argument("--value-warmup", type=int, default=0, metavar="UPDATES")
    parser.add_argument("--out-dir", default="src/high_society/data")
    parser.add_argument("--curve", default="learning-curve.csv")
    parser.add_argument("--start", help="a network to start from (or 'learned')")
    parser.add_argument("--harden", type=int, default=0, metavar="ROUNDS")
    parser.add_argument("--response-updates", type=int, default=150)
    parser.add_argument("--bot-updates", type=int, default=150)
    parser.add_argument(
        "--response", action="append", default=[], help="a best response found before"
    )
    parser.add_argument(
        "--shares",
        type=float,
        nargs=3,
        default=(0.4, 0.3, 0.3),
        metavar=("RESPONSES", "STYLES", "BOT"),
        help="the opponents' mix while the bot retrains (RoundShares)",
    )
    parser.add_argument("--first-round", type=int, default=1, help="to number continued runs")
    parser.add_argument("--sampled", action="store_true", help="harden the bot as it plays sampled")
    parser.add_argument("--expert", type=int, default=0, metavar="ITERATIONS")
    parser.add_argument("--expert-games", type=int, default=2800, help="games per chunk")
    parser.add_argument("--expert-rollouts", type=int, default=256)
    parser.add_argument("--jobs", type=int, default=1, help="processes labelling chunks")
    args = parser.parse_args()
    config = TrainingConfig(
        games=args.games,
        steps=args.steps,
        hidden=args.hidden,
        lr=args.lr,
        snapshot_every=args.snapshot_every,
        same_table=args.same_table,
        value_warmup=args.value_warmup,
    )
    # Only a run that trains writes a curve: hardening or expert iteration alone (--updates 0
    # from --start) must not empty a curve file an earlier run left.
    trains = bool(args.updates) or args.start is None
    with open(args.curve if trains else os.devnull, "w", newline="") as handle:
        curve = csv.writer(handle)
        curve.writerow(["players", "update", "cpu_minutes", "games", "win_share"])
        for players in args.players:
            extra = [n for n in map(load_network, args.extra) if n.players == players]
            opponents, weights = training_pool(extra, args.extra_weight, args.watchers)
            out = Path(args.out_dir) / f"learned-{players}p.npz"

            def report(
                progress: Progress, network: PolicyNetwork, out: Path = out, players: int = players
            ) -> None:
                row = [players, progress.update, f"{progress.cpu_seconds / 60:.2f}"]
                curve.writerow([*row, progress.games, f"{progress.win_share:.4f}"])
                handle.flush()
                print(f"{players}p {progress}", flush=True)
                save_network(network, out)

            start = _start(args.start, players)
            network = start
            if args.updates or network is None:
                network = train(
                    players,
                    opponents,
                    weights=weights,
                    updates=args.updates,
                    seed=args.seed,
                    config=config,
                    report=report,
                    report_every=args.eval_every,
                    initial=start,
                )
            save_network(network, out)
            if args.harden:
                _harden(network, args, out)
            if args.expert:
                _expert(load_network(out), args, out)


def _start(name: str | None, players: int) -> PolicyNetwork | None:
    if name is None:
        return None
    return shipped_network(players) if name == "learned" else load_network(name)


def _harden(network: PolicyNetwork, args: argparse.Namespace, out: Path) -> None:
    players = network.players
    hardening = HardeningConfig(
        rounds=args.harden,
        response_updates=args.response_updates,
        bot_updates=args.bot_updates,
        shares=RoundShares(*args.shares),
        first_round=args.first_round,
        sampled=args.sampled,
        watchers=args.watchers,
    )
    hardening = attrs.evolve(hardening, bot=attrs.evolve(hardening.bot, lr=args.lr))
    found = tuple(n for n in map(load_network, args.response) if n.players == players)

    def saved(round_: int, response: PolicyNetwork, bot: PolicyNetwork) -> None:
        print(f"{players}p hardening round {round_} done", flush=True)
        save_network(response, out.with_name(f"response-{players}p-r{round_}.npz"))
        save_network(bot, out.with_name(f"learned-{players}p-r{round_}.npz"))
        save_network(bot, out)

    harden(network, seed=args.seed, config=hardening, responses=found, report=saved)


def _expert(network: PolicyNetwork, args: argparse.Namespace, out: Path) -> None:
    players = network.players
    config = ExpertConfig(games=args.expert_games, rollouts=args.expert_rollouts, seed=args.seed)

    def saved(iteration: int, labels: Labels, fitted: Fitted) -> None:
        sure = int(labels.sure(config.sure).sum())
        print(
            f"{players}p expert iteration {iteration}: {len(labels.games)} states, {sure} sure; "
            f"held-out agreement {fitted.start_accuracy:.4f} -> {fitted.accuracy:.4f} "
            f"(kept: {fitted.kept})",
            flush=True,
        )
        save_network(fitted.network, out.with_name(f"learned-{players}p-e{iteration}.npz"))
        save_network(fitted.network, out)

    iterate(network, args.expert, config, jobs=args.jobs, report=saved)


if __name__ == "__main__":
    main()

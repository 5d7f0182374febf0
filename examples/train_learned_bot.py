"""Train the learned bot: PPO on the batch engine against three compiled heuristic bots.

    python3 tasks.py train [--minutes 60 | --updates N] [--seed 1] [--out PATH]

(or ``python examples/train_learned_bot.py ...`` in an environment with torch, numpy and
numba). One learner seat per game, drawn anew for every game, against
``HeuristicBot`` compiled in the batch engine (``GameBatch.advance``); the learner chooses,
at each of its auction turns where a bid is legal, between Pass and the cheapest bid
(:func:`high_society.bots.cheapest_bid`), from the normalised observation of its seat.
The reward is its share of the win at the end (R12). Every ``--eval-every`` updates it
writes a line of the learning curve (wall and CPU time, games played, win share of the
last 4,000 games, with its Wilson interval) to ``--curve`` and saves the policy (float32,
no value head) to ``--out`` (by default where :class:`high_society.learned.LearnedBot`
reads it). With ``--updates`` the run is the same on any machine (one torch thread,
seeded); with ``--minutes`` it stops where the machine's speed lets it. Not part of CI.
"""

import argparse
import csv
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from high_society.batch import POLICIES, GameBatch
from high_society.observation import observation_scale
from high_society.tournament import wilson_interval

CALLER = POLICIES.index("caller")
HEURISTIC = POLICIES.index("heuristic")
DISCARD_FLAG = 2  # the phase one-hot: reveal, auction, discard, over


def network(inputs: int, hidden: int, outputs: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Linear(inputs, hidden),
        nn.Tanh(),
        nn.Linear(hidden, hidden),
        nn.Tanh(),
        nn.Linear(hidden, outputs),
    )


class Arena:
    """``n`` games of 4 seats: one learner seat each (drawn per game), the others heuristic."""

    def __init__(self, n: int, seed: int) -> None:
        self.batch = GameBatch(n, players=4, seed=seed)
        self.rng = np.random.default_rng(seed)
        self.learner = self.rng.integers(0, 4, n)
        self.codes = np.full((n, 4), HEURISTIC, dtype=np.int8)
        self.codes[np.arange(n), self.learner] = CALLER
        self.scale = np.array(observation_scale(4), dtype=np.float32)
        self.finished: list[float] = []  # the learner's return, per finished game

    def settle(self) -> tuple[np.ndarray, np.ndarray]:
        """Play the heuristic seats until every game waits for its learner; new games
        where games ended. The learner's reward per game, and which games ended."""
        batch, n = self.batch, self.batch.num_games
        reward = np.zeros(n, dtype=np.float32)
        done = np.zeros(n, dtype=np.bool_)
        while True:
            batch.advance(self.codes)
            over = batch.is_over
            if not over.any():
                return reward, done
            done |= over
            returns = batch.returns()
            won = returns[np.arange(n), self.learner]
            reward[over] += won[over]
            self.finished.extend(won[over].tolist())
            batch.reset_games(over)
            seats = self.rng.integers(0, 4, n)
            self.learner = np.where(over, seats, self.learner)
            self.codes[over] = HEURISTIC
            self.codes[np.arange(n), self.learner] = CALLER

    def observe(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Observations (normalised), the cheapest bid's id per game (0: none), and
        whether the learner's move is forced (a discard, or no bid)."""
        obs = self.batch.observations() * self.scale
        cheapest = self.batch.policy_actions("cheapest")
        forced = (obs[:, DISCARD_FLAG] > 0) | (cheapest == 0)
        return obs, cheapest, forced


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=60.0, help="stop after this wall time")
    parser.add_argument(
        "--updates", type=int, default=0, help="stop after this many updates instead (0: none)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=1024, help="games played at once")
    parser.add_argument("--steps", type=int, default=64, help="learner steps per update")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--eval-every", type=int, default=10)
    parser.add_argument("--out", default="src/high_society/data/learned-4p.npz")
    parser.add_argument("--curve", default="learning-curve.csv")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    arena = Arena(args.games, args.seed)
    size = arena.scale.shape[0]
    policy, value = network(size, args.hidden, 2), network(size, args.hidden, 1)
    optimiser = torch.optim.Adam([*policy.parameters(), *value.parameters()], lr=args.lr)
    arena.settle()
    start = time.monotonic()
    cpu_start = time.process_time()
    n, t_max = args.games, args.steps
    update = 0
    with open(args.curve, "w", newline="") as curve:
        out = csv.writer(curve)
        out.writerow(["update", "minutes", "cpu_minutes", "games", "win_share", "low95", "high95"])
        while (
            update < args.updates if args.updates else time.monotonic() - start < args.minutes * 60
        ):
            obs_b = np.zeros((t_max, n, size), np.float32)
            act_b = np.zeros((t_max, n), np.int64)
            logp_b = np.zeros((t_max, n), np.float32)
            val_b = np.zeros((t_max + 1, n), np.float32)
            rew_b = np.zeros((t_max, n), np.float32)
            done_b = np.zeros((t_max, n), np.float32)
            free_b = np.zeros((t_max, n), np.float32)
            for t in range(t_max):
                obs, cheapest, forced = arena.observe()
                with torch.no_grad():
                    x = torch.from_numpy(obs)
                    logits = policy(x)
                    dist = torch.distributions.Categorical(logits=logits)
                    action = dist.sample()
                    val_b[t] = value(x).squeeze(1).numpy()
                a = action.numpy()
                a[forced] = 0
                obs_b[t], act_b[t], free_b[t] = obs, a, ~forced
                logp_b[t] = dist.log_prob(torch.from_numpy(a)).numpy()
                ids = np.where(forced, cheapest, np.where(a == 1, cheapest, 0))
                arena.batch.step(ids)
                # A game that ended in the step or while the heuristics played: its row
                # starts a new game next.
                rew_b[t], done_b[t] = arena.settle()
            with torch.no_grad():
                val_b[t_max] = value(torch.from_numpy(arena.observe()[0])).squeeze(1).numpy()
            advantages = np.zeros((t_max, n), np.float32)
            running = np.zeros(n, np.float32)
            for t in reversed(range(t_max)):
                keep = 1.0 - done_b[t]
                delta = rew_b[t] + val_b[t + 1] * keep - val_b[t]
                running = delta + 0.95 * keep * running
                advantages[t] = running
            targets = advantages + val_b[:t_max]
            flat = lambda a: torch.from_numpy(a.reshape(t_max * n, *a.shape[2:]))  # noqa: E731
            o, ac, lp, adv, tg, fr = map(flat, (obs_b, act_b, logp_b, advantages, targets, free_b))
            adv = (adv - adv[fr > 0].mean()) / (adv[fr > 0].std() + 1e-8)
            for _ in range(4):
                order = torch.randperm(t_max * n)
                for chunk in order.split(8192):
                    dist = torch.distributions.Categorical(logits=policy(o[chunk]))
                    ratio = torch.exp(dist.log_prob(ac[chunk]) - lp[chunk])
                    a_ = adv[chunk]
                    mask = fr[chunk]
                    clipped = torch.min(ratio * a_, torch.clamp(ratio, 0.8, 1.2) * a_)
                    denom = mask.sum().clamp(min=1)
                    loss_pi = -(clipped * mask).sum() / denom
                    entropy = (dist.entropy() * mask).sum() / denom
                    loss_v = ((value(o[chunk]).squeeze(1) - tg[chunk]) ** 2).mean()
                    loss = loss_pi + 0.5 * loss_v - 0.01 * entropy
                    optimiser.zero_grad()
                    loss.backward()
                    nn.utils.clip_grad_norm_([*policy.parameters(), *value.parameters()], 0.5)
                    optimiser.step()
            update += 1
            if update % args.eval_every == 0:
                last = arena.finished[-4000:]
                wins = sum(1 for r in last if r > 0)
                share = float(np.mean(last)) if last else 0.0
                low, high = wilson_interval(wins, len(last))
                minutes = (time.monotonic() - start) / 60
                cpu = (time.process_time() - cpu_start) / 60
                out.writerow(
                    [
                        update,
                        f"{minutes:.2f}",
                        f"{cpu:.2f}",
                        len(arena.finished),
                        f"{share:.4f}",
                        f"{low:.4f}",
                        f"{high:.4f}",
                    ]
                )
                curve.flush()
                print(
                    f"update {update}: {minutes:.1f} min, {len(arena.finished)} games, "
                    f"win share {share:.3f} ({low:.3f}-{high:.3f})",
                    flush=True,
                )
                save(policy, args.out)
    save(policy, args.out)


def save(policy: nn.Sequential, path: str) -> None:
    """The policy's layers as ``w0, b0, ...`` (``(inputs, outputs)`` float32) and ``players``."""
    linear = [m for m in policy if isinstance(m, nn.Linear)]
    arrays = {}
    for k, layer in enumerate(linear):
        arrays[f"w{k}"] = layer.weight.detach().numpy().T.astype(np.float32)
        arrays[f"b{k}"] = layer.bias.detach().numpy().astype(np.float32)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, players=np.int64(4), **arrays)


if __name__ == "__main__":
    main()

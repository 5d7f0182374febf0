"""PPO on the vector environment, in numpy: a policy for one seat against a pool of opponents.

:func:`train` runs proximal policy optimisation (clipped surrogate, GAE, Adam) on
:class:`~high_society.batch.learner.LearnerVectorEnv` with the pass-or-cheapest action
reduction, and returns a :class:`~high_society.learned.PolicyNetwork` (the policy alone,
float32, ready for :func:`~high_society.learned.save_network`). It is a league when asked:
every ``snapshot_every`` updates a frozen copy of the learner joins its opponents (as
OpenSpiel's PSRO and NFSP recipes grow a population), beside the fixed ones given.
:func:`evaluate` plays a network greedily against opponents and counts its wins. Numpy
only, one thread: set ``OMP_NUM_THREADS=1`` (and the BLAS's own variable) before numpy is
imported, as ``python3 tasks.py train`` does; on two cores the default threading costs
many times the CPU for these small matrices.

The gradients are written out by hand (a two-hidden-layer tanh network needs a few lines);
``tests/test_league.py`` checks them against finite differences.
"""

import itertools
import time
from collections.abc import Callable, Sequence

import attrs
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode

from high_society.batch.learner import LearnerVectorEnv
from high_society.batch.policies import BatchPolicy, Opponent
from high_society.errors import InvalidConfigError
from high_society.learned import PolicyNetwork, SampledPolicy
from high_society.observation import observation_size

__all__ = ["Evaluation", "Mlp", "Progress", "TrainingConfig", "evaluate", "train"]

F32 = npt.NDArray[np.float32]


class Mlp:
    """A tanh multilayer perceptron with its gradient and an Adam optimiser, float32."""

    def __init__(self, sizes: Sequence[int], rng: np.random.Generator, out_gain: float) -> None:
        self.weights: list[F32] = []
        self.biases: list[F32] = []
        for k, (n_in, n_out) in enumerate(itertools.pairwise(sizes)):
            gain = out_gain if k == len(sizes) - 2 else np.sqrt(2.0)
            # Orthogonal initialisation, as the PPO implementations of reference do.
            q, _ = np.linalg.qr(rng.normal(size=(max(n_in, n_out), min(n_in, n_out))))
            w = q if n_in >= n_out else q.T
            self.weights.append((gain * w[:n_in, :n_out]).astype(np.float32))
            self.biases.append(np.zeros(n_out, np.float32))
        params = self.weights + self.biases
        self._m = [np.zeros_like(p) for p in params]
        self._v = [np.zeros_like(p) for p in params]
        self._t = 0

    def forward(self, x: F32) -> tuple[F32, list[F32]]:
        """The outputs for rows ``x``, and the activations the gradient needs."""
        activations = [x]
        for w, b in zip(self.weights[:-1], self.biases[:-1], strict=True):
            x = np.tanh(x @ w + b)
            activations.append(x)
        out: F32 = x @ self.weights[-1] + self.biases[-1]
        return out, activations

    def gradient(self, activations: list[F32], d_out: F32) -> list[F32]:
        """The gradient of a loss whose gradient in the outputs is ``d_out``: weights, then
        biases, in the order of ``weights`` and ``biases``."""
        d_w: list[F32] = [np.empty(0, np.float32)] * len(self.weights)
        d_b: list[F32] = [np.empty(0, np.float32)] * len(self.weights)
        delta = d_out
        for k in range(len(self.weights) - 1, -1, -1):
            d_w[k] = activations[k].T @ delta
            d_b[k] = delta.sum(axis=0)
            if k:
                delta = (delta @ self.weights[k].T) * (1.0 - activations[k] ** 2)
        return d_w + d_b

    def adam_step(self, grads: list[F32], lr: float, max_norm: float) -> None:
        """One Adam step (0.9, 0.999, eps 1e-5) after clipping the gradient's norm."""
        norm = float(np.sqrt(sum(float((g.astype(np.float64) ** 2).sum()) for g in grads)))
        factor = min(1.0, max_norm / (norm + 1e-6))
        self._t += 1
        fix1, fix2 = 1.0 - 0.9**self._t, 1.0 - 0.999**self._t
        for p, g, m, v in zip(self.weights + self.biases, grads, self._m, self._v, strict=True):
            g = g * factor
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            p -= (lr * (m / fix1) / (np.sqrt(v / fix2) + 1e-5)).astype(np.float32)

    @classmethod
    def from_network(cls, network: PolicyNetwork) -> "Mlp":
        """A copy of ``network``'s layers to train on, its Adam moments at zero."""
        sizes = [network.inputs] + [w.shape[1] for w, _ in network.layers]
        mlp = cls(sizes, np.random.default_rng(0), 1.0)
        mlp.take_layers(network)
        return mlp

    def take_layers(self, network: PolicyNetwork) -> None:
        """Train on from copies of ``network``'s weights and biases instead of this one's."""
        self.weights = [w.copy() for w, _ in network.layers]
        self.biases = [b.copy() for _, b in network.layers]

    def network(self, players: int) -> PolicyNetwork:
        """A frozen copy, as a :class:`~high_society.learned.PolicyNetwork`."""
        return PolicyNetwork(
            [(w.copy(), b.copy()) for w, b in zip(self.weights, self.biases, strict=True)],
            players,
        )


@attrs.frozen
class TrainingConfig:
    """PPO's settings. The defaults are those of the shipped networks (docs/ai.md).

    Attributes:
        games: games played at once.
        steps: learner steps per game per update.
        hidden: units in each of the two hidden layers.
        lr: Adam's learning rate.
        epochs: passes over each update's samples.
        minibatch: the samples of one gradient step.
        clip: PPO's clipping of the probability ratio.
        entropy: the weight of the entropy bonus.
        gae_lambda: GAE's lambda (no discount: the reward comes at the end of a game).
        snapshot_every: updates between frozen copies of the learner joining its
            opponents; 0 for none (a best response to fixed opponents).
        snapshots: how many of them are kept (the oldest leaves).
        snapshot_share: the share of opponent seats they take, once there are some.
        same_table: the share of games whose opponents are one draw from the league in
            every other seat (the others draw each seat apart).
        value_warmup: updates at the start in which only the value network learns (for a
            policy that starts from a trained one).
        sampled_snapshots: the frozen copies play sampled
            (:class:`~high_society.learned.SampledPolicy`, as the learner does while it
            trains), not greedily (as the learned bot plays, and as the shipped networks'
            leagues had them).
    """

    games: int = 1024
    steps: int = 32
    hidden: int = 64
    lr: float = 3e-4
    epochs: int = 4
    minibatch: int = 8192
    clip: float = 0.2
    entropy: float = 0.01
    gae_lambda: float = 0.95
    snapshot_every: int = 0
    snapshots: int = 6
    snapshot_share: float = 0.5
    same_table: float = 0.5
    value_warmup: int = 0
    sampled_snapshots: bool = False


@attrs.frozen
class Progress:
    """A line of the learning curve: after ``update`` updates, ``games`` games played in
    ``cpu_seconds``; ``win_share`` the learner's mean reward over the games ended since
    the last line (sampling its moves)."""

    update: int
    games: int
    cpu_seconds: float
    win_share: float


def train(
    players: int,
    opponents: Sequence[Opponent],
    *,
    weights: Sequence[float] | None = None,
    updates: int,
    seed: int = 1,
    config: TrainingConfig = TrainingConfig(),
    report: Callable[[Progress, PolicyNetwork], None] | None = None,
    report_every: int = 10,
    initial: PolicyNetwork | None = None,
) -> PolicyNetwork:
    """Train a pass-or-cheapest policy for ``players`` seats against ``opponents`` (drawn
    per game and seat with ``weights``) and, with ``config.snapshot_every``, frozen copies
    of itself (greedy, or sampled with ``config.sampled_snapshots``). ``initial`` (a
    two-output network of ``players`` seats and two hidden layers of ``config.hidden``
    units) is where the policy starts, else it starts anew; the value network always
    starts anew and learns alone for the first ``config.value_warmup`` updates.
    ``report`` is called every ``report_every`` updates. The run is the same for the same
    arguments on any machine (seeded; numpy on one thread).

    Raises:
        InvalidConfigError: ``initial`` does not have that shape.
    """
    rng = np.random.default_rng(seed)
    size = observation_size(players)
    policy = Mlp([size, config.hidden, config.hidden, 2], rng, out_gain=0.01)
    value = Mlp([size, config.hidden, config.hidden, 1], rng, out_gain=1.0)
    if initial is not None:
        shapes = [w.shape for w in policy.weights]
        if initial.players != players or [w.shape for w, _ in initial.layers] != shapes:
            raise InvalidConfigError(
                f"the initial network is not a policy of {players} players and layers {shapes}"
            )
        policy.take_layers(initial)
    fixed = list(opponents)
    base = np.ones(len(fixed)) if weights is None else np.asarray(weights, np.float64)
    env = LearnerVectorEnv(
        config.games,
        players,
        pool=fixed,
        pool_weights=list(base),
        same_table=config.same_table,
        actions="pass-cheapest",
        normalize=True,
        autoreset_mode=AutoresetMode.SAME_STEP,
        seed=seed,
    )
    observations, _ = env.reset(seed=seed)
    frozen: list[PolicyNetwork | SampledPolicy] = []
    start = time.process_time()
    finished: list[float] = []
    games = 0
    for update in range(1, updates + 1):
        batch, observations = _rollout(env, observations, policy, value, config, rng)
        finished += batch.ended
        games += len(batch.ended)
        _update(policy, value, batch, config, rng, learn_policy=update > config.value_warmup)
        if config.snapshot_every and update % config.snapshot_every == 0:
            network = policy.network(players)
            snapshot: PolicyNetwork | SampledPolicy = network
            if config.sampled_snapshots:
                snapshot = SampledPolicy(network, seed * 1_000_003 + update)
            frozen = [*frozen, snapshot][-config.snapshots :]
            share = config.snapshot_share / len(frozen)
            mix = [*(base / base.sum() * (1 - config.snapshot_share)), *([share] * len(frozen))]
            env.set_pool([*fixed, *frozen], mix)
        if report is not None and update % report_every == 0:
            mean = float(np.mean(finished)) if finished else 0.0
            report(
                Progress(update, games, time.process_time() - start, mean), policy.network(players)
            )
            finished = []
    return policy.network(players)


@attrs.frozen
class _Rollout:
    observations: F32
    masks: npt.NDArray[np.bool_]
    actions: npt.NDArray[np.int64]
    log_probs: F32
    advantages: F32
    targets: F32
    ended: list[float]


def _log_softmax(logits: F32, masks: npt.NDArray[np.bool_]) -> F32:
    masked = np.where(masks, logits, np.float32(-1e9))
    shifted = masked - masked.max(axis=1, keepdims=True)
    out: F32 = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return out


def _rollout(
    env: LearnerVectorEnv,
    observations: dict[str, npt.NDArray[np.generic]],
    policy: Mlp,
    value: Mlp,
    config: TrainingConfig,
    rng: np.random.Generator,
) -> tuple[_Rollout, dict[str, npt.NDArray[np.generic]]]:
    """``config.steps`` steps of every game, with the advantages (GAE, no discount)."""
    t_max, n = config.steps, env.num_envs
    size = env.batch.observation_size
    obs_b = np.zeros((t_max, n, size), np.float32)
    mask_b = np.zeros((t_max, n, 2), np.bool_)
    act_b = np.zeros((t_max, n), np.int64)
    logp_b = np.zeros((t_max, n), np.float32)
    val_b = np.zeros((t_max + 1, n), np.float32)
    rew_b = np.zeros((t_max, n), np.float32)
    done_b = np.zeros((t_max, n), np.float32)
    ended: list[float] = []
    for t in range(t_max):
        x = observations["observation"].astype(np.float32)
        masks = observations["action_mask"] != 0
        log_p = _log_softmax(policy.forward(x)[0], masks)
        # Gumbel-max: a draw from the softmax of each row.
        chosen = (log_p - np.log(-np.log(rng.random(log_p.shape)))).argmax(axis=1)
        obs_b[t], mask_b[t], act_b[t] = x, masks, chosen
        logp_b[t] = log_p[np.arange(n), chosen]
        val_b[t] = value.forward(x)[0][:, 0]
        observations, rewards, terminations, _, _ = env.step(chosen)
        rew_b[t], done_b[t] = rewards, terminations
        ended += rewards[terminations].tolist()
    val_b[t_max] = value.forward(observations["observation"].astype(np.float32))[0][:, 0]
    advantages = np.zeros((t_max, n), np.float32)
    running = np.zeros(n, np.float32)
    for t in reversed(range(t_max)):
        keep = 1.0 - done_b[t]
        delta = rew_b[t] + val_b[t + 1] * keep - val_b[t]
        running = delta + config.gae_lambda * keep * running
        advantages[t] = running
    targets = advantages + val_b[:t_max]
    flat = t_max * n
    rollout = _Rollout(
        obs_b.reshape(flat, size),
        mask_b.reshape(flat, 2),
        act_b.reshape(flat),
        logp_b.reshape(flat),
        advantages.reshape(flat),
        targets.reshape(flat),
        ended,
    )
    return rollout, observations


def _update(
    policy: Mlp,
    value: Mlp,
    batch: _Rollout,
    config: TrainingConfig,
    rng: np.random.Generator,
    *,
    learn_policy: bool = True,
) -> None:
    """PPO's epochs over one rollout (the value network's alone, without ``learn_policy``)."""
    adv_all = (batch.advantages - batch.advantages.mean()) / (batch.advantages.std() + 1e-8)
    total = batch.actions.shape[0]
    for _ in range(config.epochs):
        order = rng.permutation(total)
        for start in range(0, total, config.minibatch):
            rows = order[start : start + config.minibatch]
            x = batch.observations[rows]
            if learn_policy:
                _policy_step(policy, batch, rows, adv_all, config)
            out, acts = value.forward(x)
            d_out = (out - batch.targets[rows, None]) / np.float32(len(rows))
            value.adam_step(value.gradient(acts, d_out.astype(np.float32)), config.lr, 0.5)


def _policy_step(
    policy: Mlp,
    batch: _Rollout,
    rows: npt.NDArray[np.int64],
    advantages: F32,
    config: TrainingConfig,
) -> None:
    grads = policy_gradient(
        policy,
        batch.observations[rows],
        batch.masks[rows],
        batch.actions[rows],
        batch.log_probs[rows],
        advantages[rows].astype(np.float32),
        config.clip,
        config.entropy,
    )
    policy.adam_step(grads, config.lr, 0.5)


def policy_gradient(
    policy: Mlp,
    x: F32,
    masks: npt.NDArray[np.bool_],
    actions: npt.NDArray[np.int64],
    old_log_probs: F32,
    advantages: F32,
    clip: float,
    entropy: float,
) -> list[F32]:
    """The gradient of PPO's loss, ``-mean(min(r A, clip(r) A)) - entropy * mean(H)``."""
    n = len(actions)
    logits, acts = policy.forward(x)
    log_p = _log_softmax(logits, masks)
    p = np.exp(log_p)
    rows = np.arange(n)
    ratio = np.exp(log_p[rows, actions] - old_log_probs)
    clipped = np.clip(ratio, 1 - clip, 1 + clip)
    # The surrogate's gradient flows through r A where min picks it (not clipped away).
    live = ratio * advantages <= clipped * advantages
    d_logp_a = np.where(live, -ratio * advantages, 0.0) / n
    d_logits = -p * d_logp_a[:, None]
    d_logits[rows, actions] += d_logp_a
    plogp = np.where(masks, p * log_p, 0.0)
    h = -plogp.sum(axis=1, keepdims=True)
    d_logits += entropy * (plogp + p * h) / n  # the gradient of -entropy * mean(H)
    return policy.gradient(acts, d_logits.astype(np.float32))


@attrs.frozen
class Evaluation:
    """A network's greedy games against opponents: ``games`` ended, ``wins`` (a shared
    win counts as a win) and ``win_share`` (its mean reward, a shared win counting its
    share)."""

    games: int
    wins: int
    win_share: float


def evaluate(
    player: BatchPolicy,
    opponents: Sequence[Opponent],
    *,
    games: int,
    seed: int,
    players: int | None = None,
    weights: Sequence[float] | None = None,
    batch_size: int = 1000,
) -> Evaluation:
    """Play ``player`` (a :class:`~high_society.learned.PolicyNetwork` greedily, its
    better output; a :class:`~high_society.learned.SampledPolicy` sampled, as the learned
    bot plays) for ``games`` games of ``players`` seats (by default the network's), at a seat drawn
    per game, each other seat drawn from ``opponents`` (with ``weights``).

    Raises:
        InvalidConfigError: no ``players`` for a policy that does not know its own.
    """
    count = players if players is not None else getattr(player, "players", None)
    if not isinstance(count, int):
        raise InvalidConfigError("evaluate needs players for a policy that does not know them")
    env = LearnerVectorEnv(
        min(batch_size, games),
        count,
        pool=list(opponents),
        pool_weights=weights,
        actions="pass-cheapest",
        autoreset_mode=AutoresetMode.DISABLED,
        seed=seed,
    )
    rewards: list[float] = []
    observations, _ = env.reset(seed=seed)
    while len(rewards) < games:
        done = np.zeros(env.num_envs, np.bool_)
        while not done.all():
            chosen = player.bids(observations["observation"]).astype(np.int64)
            observations, r, terminations, _, _ = env.step(np.where(done, 0, chosen))
            rewards += r[terminations & ~done].tolist()
            done |= terminations
        observations, _ = env.reset(options={"reset_mask": done})
    kept = np.array(rewards[:games])
    return Evaluation(games, int((kept > 0).sum()), float(kept.mean()))

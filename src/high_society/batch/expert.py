"""Expert iteration: the lookahead bot's choices, distilled into the learned network.

:class:`~high_society.lookahead.LookaheadBot` is a step of policy improvement over the
network it plays (its prior, its rollout policy and its model of the others). Each
iteration of :func:`iterate` carries that step back into the network, as ExIt and
AlphaZero do, in two parts:

1. **Label** (:func:`label`): reducer games in which each seat is the network's greedy
   bot with probability 1/2 (at least one seat), else a bot of a style of the league
   (:data:`~high_society.batch.league.TRAINING_STYLES`, by their weights). At each
   auction decision of a network seat where a bid is legal, a lookahead bot playing the
   same network values ``Pass`` and the cheapest bid (mean share of the win of its
   imagined games); the game goes on with the network's own move, so the labels are of
   the states the network reaches (as DAgger collects them).
2. **Fit** (:func:`fit`): from the network's weights, Adam on the cross-entropy to a
   target per state: the bid where it is worth more than ``Pass`` by ``sure``, ``Pass``
   where it is worth less by ``sure``, elsewhere the network's own probability (no pull
   where the expert is unsure), plus an L2 pull to the start. Every tenth game is held
   out; of every learning rate and epoch, the weights whose choice agrees most often
   with the sure labels of the held-out games are kept, if they agree more often than
   the start's.

The held-out strangers (:mod:`high_society.strangers`) are never seen. The labels of a
chunk of games depend only on its seed, so the result is the same for any ``jobs``, on
any machine (numpy on one thread). Needs the ``batch`` extra. Driven by
``python3 tasks.py train --expert N`` (docs/ai.md).
"""

import functools
import random
from collections.abc import Callable, Sequence

import attrs
import numpy as np
import numpy.typing as npt

from high_society._text import short_repr
from high_society.actions import Action, Pass
from high_society.batch.league import TRAINING_STYLES
from high_society.batch.policies import Compiled
from high_society.batch.training import Mlp
from high_society.bots import (
    Bot,
    CautiousBot,
    ClassicHeuristicBot,
    HeuristicBot,
    PassBot,
    RandomBot,
    cheapest_bid,
)
from high_society.errors import InvalidConfigError
from high_society.host import play
from high_society.learned import LearnedBot, PolicyNetwork
from high_society.lookahead import MAX_ROLLOUTS, LookaheadBot
from high_society.observation import observation_scale, observation_tensor
from high_society.parallel import run_chunks
from high_society.state import GameState, Phase

__all__ = ["ExpertConfig", "Fitted", "Labels", "fit", "iterate", "label", "style_bot"]

F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]
#: One game in this many is held out of the fit, to choose the weights on.
_HELD_OUT = 10


@attrs.frozen
class ExpertConfig:
    """The settings of :func:`iterate`.

    Raises:
        InvalidConfigError: a count that is not a positive int (``rollouts`` at most
            :data:`~high_society.lookahead.MAX_ROLLOUTS`), ``seed`` not an int >= 0,
            ``sure`` or ``l2`` not a number >= 0, ``learning_rates`` not a non-empty
            tuple of floats in (0, 1).
    """

    #: Games labelled per chunk and iteration.
    games: int = 2800
    #: Chunks of games per iteration (at most 9), each with its own seed: the work that
    #: ``jobs`` share.
    chunks: int = 2
    #: The lookahead bot's imagined games per candidate.
    rollouts: int = 256
    #: How much more (in mean share of the win) a move must be worth to be a sure label.
    sure: float = 0.05
    #: Adam's learning rates tried, each from the start's weights.
    learning_rates: tuple[float, ...] = (1e-4, 3e-4, 1e-3)
    #: Weight of the pull towards the start's weights.
    l2: float = 1e-3
    #: Epochs per learning rate.
    epochs: int = 10
    #: States per Adam step.
    minibatch: int = 256
    #: Seeds every chunk of every iteration (:meth:`chunk_seed`).
    seed: int = 0

    def __attrs_post_init__(self) -> None:
        counts = {"games": self.games, "chunks": self.chunks, "rollouts": self.rollouts}
        counts |= {"epochs": self.epochs, "minibatch": self.minibatch}
        for name, value in counts.items():
            if type(value) is not int or value < 1:
                raise InvalidConfigError(f"{name} must be a positive int, not {short_repr(value)}")
        if type(self.seed) is not int or self.seed < 0:
            raise InvalidConfigError(f"seed must be an int >= 0, not {short_repr(self.seed)}")
        if self.rollouts > MAX_ROLLOUTS or self.chunks > 9:
            raise InvalidConfigError(f"rollouts must be at most {MAX_ROLLOUTS}, chunks at most 9")
        for name, number in (("sure", self.sure), ("l2", self.l2)):
            if isinstance(number, bool) or not isinstance(number, int | float) or number < 0:
                raise InvalidConfigError(f"{name} must be a number >= 0, not {short_repr(number)}")
        rates = self.learning_rates
        if (
            not isinstance(rates, tuple)
            or not rates
            or not all(isinstance(r, float) and 0 < r < 1 for r in rates)
        ):
            raise InvalidConfigError(
                f"learning_rates must be floats in (0, 1), not {short_repr(rates)}"
            )

    def chunk_seed(self, iteration: int, chunk: int) -> int:
        """The seed of ``chunk`` (from 0) of ``iteration`` (from 1): every one different."""
        return 1000 * self.seed + 10 * iteration + chunk + 1


@attrs.frozen
class Labels:
    """States a network reached, with the lookahead bot's values of its two moves."""

    #: ``(k, n)``: each state's raw observation of the seat to act.
    observations: F32
    #: ``(k,)``: the mean share of the win of ``Pass``.
    pass_values: F64
    #: ``(k,)``: the mean share of the win of the cheapest bid.
    bid_values: F64
    #: ``(k,)``: the game of each state, counted within its chunk (one in ten is held out).
    games: npt.NDArray[np.int64]

    def sure(self, margin: float) -> npt.NDArray[np.bool_]:
        """Which states have a move worth more than the other by over ``margin``."""
        return np.abs(self.bid_values - self.pass_values) > margin

    @staticmethod
    def joined(parts: Sequence["Labels"]) -> "Labels":
        """The labels of ``parts`` one after the other."""
        return Labels(
            np.concatenate([p.observations for p in parts]),
            np.concatenate([p.pass_values for p in parts]),
            np.concatenate([p.bid_values for p in parts]),
            np.concatenate([p.games for p in parts]),
        )


class _Cheapest:
    """The league's ``cheapest`` style in the reducer: the cheapest bid whenever one is
    legal; any other choice (a Faux Pas) as a :class:`~high_society.bots.RandomBot`
    seeded 0 makes its first."""

    def choose(self, state: GameState) -> Action:
        if state.phase is Phase.AUCTION:
            return cheapest_bid(state) or Pass(state.turn)
        return RandomBot(0).choose(state)


def style_bot(style: Compiled, seed: int) -> Bot:
    """A bot of the reducer playing the league's ``style``, its draws seeded with ``seed``
    (the seats of :func:`label`'s games)."""
    makers: dict[str, Callable[[], Bot]] = {
        "pass": PassBot,
        "cautious": lambda: CautiousBot(seed),
        "classic": lambda: ClassicHeuristicBot(seed, boldness=style.boldness),
        "heuristic": lambda: HeuristicBot(seed, boldness=style.boldness),
        "cheapest": _Cheapest,
        "uniform": lambda: RandomBot(seed),
    }
    return makers[style.name]()


#: A labelled state: its game, the observation, the values of Pass and of the cheapest bid.
_Row = tuple[int, F32, float, float]


class _Labelling:
    """A network's greedy seat that asks the expert about each decision it makes."""

    def __init__(
        self, network: PolicyNetwork, expert: LookaheadBot, game: int, rows: list[_Row]
    ) -> None:
        self.bot = LearnedBot(network=network)
        self.expert = expert
        self.game = game
        self.rows = rows

    def choose(self, state: GameState) -> Action:
        move = self.bot.choose(state)
        bid = cheapest_bid(state) if state.phase is Phase.AUCTION else None
        if bid is not None:
            x = np.array(observation_tensor(state, state.turn), dtype=np.float32)
            self.expert.choose(state)
            values = dict(self.expert.last_values)
            self.rows.append((self.game, x, values[Pass(state.turn)], values[bid]))
        return move


def label(network: PolicyNetwork, *, games: int, seed: int, rollouts: int = 256) -> Labels:
    """Label the states ``network`` reaches in ``games`` reducer games of its number of
    players (see the module's description), seeded with ``seed``.

    Raises:
        InvalidConfigError: ``rollouts`` is not an int from 1 to
            :data:`~high_society.lookahead.MAX_ROLLOUTS`, or ``network`` has an output per
            action id (as :class:`~high_society.lookahead.LookaheadBot`).
    """
    rng = random.Random(seed)
    expert = LookaheadBot(seed=seed, rollouts=rollouts, network=network)
    styles = [style for style, _ in TRAINING_STYLES]
    weights = [weight for _, weight in TRAINING_STYLES]
    rows: list[_Row] = []
    for game in range(games):
        mine = [False] * network.players
        while not any(mine):
            mine = [rng.random() < 0.5 for _ in range(network.players)]
        bots: list[Bot] = []
        for seat_is_mine in mine:
            if seat_is_mine:
                bots.append(_Labelling(network, expert, game, rows))
            else:
                style = rng.choices(styles, weights=weights)[0]
                bots.append(style_bot(style, rng.randrange(2**31)))
        for _ in play(bots, seed=rng.randrange(2**31)):
            pass
    return Labels(
        np.array([r[1] for r in rows], dtype=np.float32).reshape(len(rows), network.inputs),
        np.array([r[2] for r in rows], dtype=np.float64),
        np.array([r[3] for r in rows], dtype=np.float64),
        np.array([r[0] for r in rows], dtype=np.int64),
    )


@attrs.frozen
class Fitted:
    """What :func:`fit` made: the network kept, and how often the start's choice and the
    kept network's agree with the sure labels of the held-out games."""

    network: PolicyNetwork
    start_accuracy: float
    accuracy: float
    #: The learning rate and epoch (from 0) of the kept weights; ``None``: the start's.
    kept: tuple[float, int] | None


def _accuracy(network: PolicyNetwork, x: F32, gain: F64) -> float:
    """How often ``network``'s greedy choice is the better move by the expert's values."""
    return float(((network.bid_probabilities(x) > 0.5) == (gain > 0)).mean())


def fit(network: PolicyNetwork, labels: Labels, config: ExpertConfig = ExpertConfig()) -> Fitted:
    """``network`` fitted to the targets of ``labels`` (see the module's description).

    Raises:
        InvalidConfigError: ``network`` has an output per action id, not two, or takes
            another observation than ``labels``'; no held-out game has a sure label (nothing
            to choose the weights on).
    """
    if network.full_actions or labels.observations.shape[1:] != (network.inputs,):
        raise InvalidConfigError(
            "expert iteration fits a two-output network (pass, cheapest bid) that takes the "
            "labels' observations"
        )
    x, gain = labels.observations, labels.bid_values - labels.pass_values
    start = network.bid_probabilities(x)
    targets = np.where(gain > config.sure, 1.0, np.where(gain < -config.sure, 0.0, start))
    targets = targets.astype(np.float32)
    judged = labels.sure(config.sure) & (labels.games % _HELD_OUT == 0)
    if not judged.any():
        raise InvalidConfigError("no held-out game has a sure label: nothing to choose on")
    inputs = x * np.array(observation_scale(network.players), dtype=np.float32)
    best_network, best, kept = network, _accuracy(network, x[judged], gain[judged]), None
    start_accuracy = best
    # One order of the training states, shuffled on from rate to rate: seeded, so that a
    # fit is the same on any machine.
    order = np.flatnonzero(labels.games % _HELD_OUT != 0)
    for rate in config.learning_rates:
        mlp = Mlp.from_network(network)
        origin = [p.copy() for p in mlp.weights + mlp.biases]
        rng = np.random.default_rng(1)
        for epoch in range(config.epochs):
            rng.shuffle(order)
            for i in range(0, len(order), config.minibatch):
                rows = order[i : i + config.minibatch]
                out, activations = mlp.forward(inputs[rows])
                p = 1 / (1 + np.exp(-(out[:, 1] - out[:, 0])))
                g = (p - targets[rows]) / len(rows)
                grads = mlp.gradient(activations, np.stack([-g, g], axis=1).astype(np.float32))
                pulled = [
                    d + config.l2 * (w - w0)
                    for d, w, w0 in zip(grads, mlp.weights + mlp.biases, origin, strict=True)
                ]
                mlp.adam_step(pulled, rate, 1.0)
            candidate = mlp.network(network.players)
            accuracy = _accuracy(candidate, x[judged], gain[judged])
            if accuracy > best:
                best_network, best, kept = candidate, accuracy, (rate, epoch)
    return Fitted(best_network, start_accuracy, best, kept)


def iterate(
    network: PolicyNetwork,
    iterations: int,
    config: ExpertConfig = ExpertConfig(),
    *,
    jobs: int = 1,
    report: Callable[[int, Labels, Fitted], None] | None = None,
) -> PolicyNetwork:
    """``iterations`` rounds of :func:`label` (``config.chunks`` chunks of
    ``config.games``, on ``jobs`` processes) then :func:`fit`, each from the network the
    one before made; ``report(iteration, labels, fitted)`` after each.

    Raises:
        InvalidConfigError: ``iterations`` is not an int from 1 to 99 (so that every
            chunk's seed differs), ``jobs`` is invalid, or as :func:`fit`.
    """
    if type(iterations) is not int or not 1 <= iterations <= 99:
        raise InvalidConfigError(
            f"iterations must be an int from 1 to 99, not {short_repr(iterations)}"
        )
    for iteration in range(1, iterations + 1):
        seeds = [config.chunk_seed(iteration, chunk) for chunk in range(config.chunks)]
        task = functools.partial(_label_chunks, network, seeds, config.games, config.rollouts)
        parts = run_chunks(task, config.chunks, jobs=jobs)
        labels = Labels.joined([part for chunk in parts for part in chunk])
        fitted = fit(network, labels, config)
        if report is not None:
            report(iteration, labels, fitted)
        network = fitted.network
    return network


def _label_chunks(
    network: PolicyNetwork, seeds: Sequence[int], games: int, rollouts: int, chunks: range
) -> list[Labels]:
    return [label(network, games=games, seed=seeds[c], rollouts=rollouts) for c in chunks]

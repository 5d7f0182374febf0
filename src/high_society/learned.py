"""A learned bot: a small policy network trained on the batch engine, played with numpy.

:class:`LearnedBot` decides, in an auction, between passing and the cheapest legal bid
(the two moves :class:`~high_society.bots.HeuristicBot` chooses between: the
*pass-or-cheapest* action reduction), from the normalised R14 observation of its seat
(:func:`~high_society.observation.observation_tensor` times
:func:`~high_society.observation.observation_scale`). The networks, two hidden layers of
tanh units, were trained with PPO in a league (``python3 tasks.py train``; docs/ai.md);
their weights ship with the package, one file per player count
(``high_society/data/learned-3p.npz``, ``-4p``, ``-5p``; float32), and need only numpy to
run. It plays the higher of its outputs, so it is deterministic; ``sampled=True`` draws
its move from the network's two probabilities instead, each draw a hash of the
observation keyed by the bot's seed (:class:`SampledPolicy`): deterministic for a seed,
unpredictable across seeds. For Faux Pas it discards its lowest luxury card.

The policy format (:func:`save_network`, :func:`load_network`) holds any network the
vector environment trains: two outputs (pass, cheapest bid) or one per action id
(:func:`~high_society.encoding.num_actions`, the full action space, played as the best
legal id). Loading checks the file kind, the archive's members and their shapes before
anything is allocated, and the network against the observation of its player count.

Needs numpy: ``pip install '.[learned]'`` in a clone of the project.

>>> from high_society import Reveal, StatusCard, apply, is_legal, new_game
>>> state = apply(new_game(4), Reveal(StatusCard.LUXURY_8))
>>> bot = LearnedBot()
>>> is_legal(state, bot.choose(state)), bot.choose(state) == LearnedBot(7).choose(state)
(True, True)
>>> LearnedBot(7, sampled=True).choose(state) == LearnedBot(7, sampled=True).choose(state)
True
"""

import io
import os
import warnings
from collections.abc import Callable, Mapping, Sequence
from importlib import resources

from high_society._text import install_hint, short_repr

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as error:  # pragma: no cover (numpy is in the test environment)
    raise ImportError("high_society.learned needs numpy: " + install_hint("learned")) from error

from high_society._arrays import read_file, read_npz_bytes
from high_society._files import write_bytes
from high_society.actions import Action, Pass
from high_society.bots import cheapest_bid
from high_society.cards import MAX_PLAYERS, MIN_PLAYERS
from high_society.encoding import action_from_id, legal_action_ids, num_actions
from high_society.errors import InvalidConfigError, NoSeatToActError
from high_society.observation import observation_scale, observation_size, observation_tensor
from high_society.rules import legal_actions
from high_society.state import GameState, Phase

__all__ = [
    "FORMAT_VERSION",
    "MAX_LAYERS",
    "MAX_WEIGHTS_BYTES",
    "MAX_WIDTH",
    "WEIGHTS_FILE",
    "WEIGHTS_FILES",
    "LearnedBot",
    "PolicyNetwork",
    "SampledPolicy",
    "decision_draws",
    "load_network",
    "network_for",
    "reduced_choice",
    "save_network",
    "shipped_network",
]

#: The shipped weights' files, in the package's ``data`` folder, by player count.
WEIGHTS_FILES = {3: "learned-3p.npz", 4: "learned-4p.npz", 5: "learned-5p.npz"}
#: The 4-player file's name (the first shipped; see :data:`WEIGHTS_FILES`).
WEIGHTS_FILE = WEIGHTS_FILES[4]
#: The version of the policy format :func:`save_network` writes (member ``format``).
FORMAT_VERSION = 1
#: The largest weights file :func:`load_network` reads.
MAX_WEIGHTS_BYTES = 16 << 20
#: At most this many layers in a network.
MAX_LAYERS = 8
#: At most this many units in a hidden layer.
MAX_WIDTH = 4096
#: At most this many numbers in all the arrays of one file (16 MiB of float32).
_MAX_ITEMS = 1 << 22


def __getattr__(name: str) -> str:
    # WEIGHTS, the old name of WEIGHTS_FILE: it named a file, not the weights.
    if name == "WEIGHTS":
        warnings.warn(
            "high_society.learned.WEIGHTS is deprecated: use WEIGHTS_FILE (the file's name)",
            DeprecationWarning,
            stacklevel=2,
        )
        return WEIGHTS_FILE
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


Layer = tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]


class PolicyNetwork:
    """A multilayer perceptron: ``tanh`` hidden layers, linear outputs, float32. Its input
    is the normalised observation of a seat in a game of ``players``; its outputs are
    two (pass, the cheapest bid) or one per action id.

    Attributes:
        layers: ``(weights, bias)`` per layer; ``weights`` is ``(inputs, outputs)``.
        players: the number of seats it was trained for.

    Raises:
        InvalidConfigError: the layers do not chain, do not take the observation of
            ``players`` seats, or do not give 2 or :func:`~high_society.encoding.num_actions`
            outputs (see :func:`load_network`).
    """

    def __init__(self, layers: Sequence[Layer], players: int) -> None:
        _check_network(layers, players)
        self.layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in layers]
        self.players = players
        self._scale = np.array(observation_scale(players), dtype=np.float32)

    @property
    def inputs(self) -> int:
        """The length of an input vector."""
        return int(self.layers[0][0].shape[0])

    @property
    def outputs(self) -> int:
        """2 (pass, the cheapest bid) or one per action id."""
        return int(self.layers[-1][0].shape[1])

    @property
    def full_actions(self) -> bool:
        """Whether it has an output per action id (else: pass or the cheapest bid)."""
        return self.outputs != 2

    def __call__(self, x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The outputs for ``x`` (one normalised input vector, or a batch of them as rows)."""
        *hidden, (w_out, b_out) = self.layers
        for w, b in hidden:
            x = np.tanh(x @ w + b)
        out: npt.NDArray[np.float32] = x @ w_out + b_out
        return out

    def evaluate(self, observations: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The outputs for raw observations (rows of
        :func:`~high_society.observation.observation_tensor`), normalised here."""
        return self(observations * self._scale)

    def bids(self, observations: npt.NDArray[np.float32]) -> npt.NDArray[np.bool_]:
        """``(k,)``: for raw observations (rows of
        :func:`~high_society.observation.observation_tensor`), whether the cheapest bid is
        preferred to passing (a two-output network): its greedy play."""
        out = self.evaluate(observations)
        chosen: npt.NDArray[np.bool_] = out[:, 1] > out[:, 0]
        return chosen

    def bid_probabilities(self, observations: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
        """``(k,)``: for raw observations, the probability of the cheapest bid under the
        softmax of the two outputs (a two-output network)."""
        out = self.evaluate(observations).astype(np.float64)
        margin = np.clip(out[:, 1] - out[:, 0], -60.0, 60.0)
        probabilities: npt.NDArray[np.float64] = 1.0 / (1.0 + np.exp(-margin))
        return probabilities


def _check_network(layers: Sequence[Layer], players: int) -> None:
    if isinstance(players, bool) or not isinstance(players, int | np.integer):
        raise InvalidConfigError(f"players must be an int, not {type(players).__name__}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidConfigError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {players}")
    if not 1 <= len(layers) <= MAX_LAYERS:
        raise InvalidConfigError(f"a network has 1 to {MAX_LAYERS} layers, not {len(layers)}")
    width = observation_size(players)
    for k, (w, b) in enumerate(layers):
        w, b = np.asarray(w), np.asarray(b)
        if w.ndim != 2 or b.shape != (w.shape[1],) or w.dtype.kind != "f" or b.dtype.kind != "f":
            raise InvalidConfigError(f"layer {k} is not float weights (in, out) and bias (out,)")
        if w.shape[0] != width:
            raise InvalidConfigError(
                f"layer {k} takes {w.shape[0]} inputs, not {width}"
                + (f" (the observation of {players} players)" if k == 0 else "")
            )
        if w.shape[1] > MAX_WIDTH and k < len(layers) - 1:
            raise InvalidConfigError(f"layer {k} has more than {MAX_WIDTH} units")
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise InvalidConfigError(f"layer {k} holds a NaN or an infinity")
        width = w.shape[1]
    if width not in (2, num_actions()):
        raise InvalidConfigError(f"a policy has 2 or {num_actions()} outputs, not {width}")


def save_network(network: PolicyNetwork, path: "str | os.PathLike[str]") -> None:
    """Write ``network`` in the policy format that :func:`load_network` reads: an ``.npz``
    of ``format`` (:data:`FORMAT_VERSION`), ``players``, ``observation_size`` and the
    layers ``w0, b0, w1, b1, ...`` (``(inputs, outputs)`` float32), without pickle.

    Raises:
        RecordError: ``UNWRITABLE``: ``path`` cannot be written, or names something other
            than a regular file (written all or nothing, as records are).
    """
    arrays: dict[str, npt.NDArray[np.generic]] = {
        "format": np.array(FORMAT_VERSION, dtype=np.int64),
        "players": np.array(network.players, dtype=np.int64),
        "observation_size": np.array(network.inputs, dtype=np.int64),
    }
    for k, (w, b) in enumerate(network.layers):
        arrays[f"w{k}"], arrays[f"b{k}"] = w, b
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)  # type: ignore[arg-type]
    write_bytes(buffer.getvalue(), path)


def load_network(path: "str | os.PathLike[str] | None" = None) -> PolicyNetwork:
    """The policy network saved at ``path`` by :func:`save_network`, by default the shipped
    4-player one (:func:`shipped_network` for the others). Read without pickle and within
    bounds: a regular file of at most :data:`MAX_WEIGHTS_BYTES` (a FIFO or a device is
    refused, never waited on), each array's dtype and shape checked before it is read, at
    most :data:`MAX_LAYERS` layers of at most :data:`MAX_WIDTH` units each.

    Raises:
        InvalidConfigError: the file is missing, unreadable, too large, not a numpy
            archive, or not a network of this format whose first layer takes the
            observation of its ``players`` and whose outputs are 2 or one per action id.
    """
    if path is None:
        return shipped_network(4)
    try:
        data = read_file(path, MAX_WEIGHTS_BYTES)
    except ValueError as error:
        raise InvalidConfigError(f"cannot read the network {_shown(path)}: {error}") from None
    return _network(data, _shown(path))


def shipped_network(players: int) -> PolicyNetwork:
    """The shipped network for ``players`` seats (see :data:`WEIGHTS_FILES`), loaded once
    a process.

    Raises:
        InvalidConfigError: no weights ship for ``players`` seats.
    """
    found = _SHIPPED.get(players)
    if found is None:
        name = WEIGHTS_FILES.get(players) if isinstance(players, int) else None
        if name is None:
            raise InvalidConfigError(
                f"no learned weights ship for {players!r} players: only for "
                f"{', '.join(map(str, sorted(WEIGHTS_FILES)))}"
            )
        data = resources.files("high_society").joinpath("data", name).read_bytes()
        found = _SHIPPED[players] = _network(data, name)
    return found


def _network(data: bytes, where: str) -> PolicyNetwork:
    try:
        arrays = read_npz_bytes(data, max_members=3 + 2 * MAX_LAYERS, max_items=_MAX_ITEMS)
    except ValueError as error:
        raise InvalidConfigError(f"the network {where}: {error}") from None
    known = {"format", "players", "observation_size"}
    count = sum(1 for name in arrays if name.startswith("w"))
    expected = known | {f"{p}{k}" for p in "wb" for k in range(count)}
    if not set(arrays) <= expected or not {"players", "w0"} <= set(arrays):
        raise InvalidConfigError(
            f"the network {where}: members {sorted(arrays)[:20]} are not this policy format "
            "(players, w0, b0, w1, b1, ...)"
        )
    players = _scalar(arrays, "players", where)
    version = _scalar(arrays, "format", where) if "format" in arrays else FORMAT_VERSION
    if version != FORMAT_VERSION:
        raise InvalidConfigError(f"the network {where}: format {version}, not {FORMAT_VERSION}")
    if "observation_size" in arrays and MIN_PLAYERS <= players <= MAX_PLAYERS:
        size = _scalar(arrays, "observation_size", where)
        if size != observation_size(players):
            raise InvalidConfigError(
                f"the network {where}: made for observations of {size} floats, not "
                f"{observation_size(players)} ({players} players)"
            )
    layers = [(arrays[f"w{k}"], arrays.get(f"b{k}")) for k in range(count)]
    if any(b is None for _, b in layers):
        raise InvalidConfigError(f"the network {where}: a layer has no bias")
    try:
        return PolicyNetwork(layers, players)  # type: ignore[arg-type]
    except InvalidConfigError as error:
        raise InvalidConfigError(f"the network {where}: {error}") from None


def _scalar(arrays: Mapping[str, npt.NDArray[np.generic]], name: str, where: str) -> int:
    value = arrays[name]
    if value.shape != () or value.dtype.kind not in "iu":
        raise InvalidConfigError(f"the network {where}: {name} is not one integer")
    return int(value)


def _shown(path: object) -> str:
    text = os.fsdecode(path) if isinstance(path, str | bytes | os.PathLike) else repr(path)
    return repr(text if len(text) <= 120 else text[:57] + "..." + text[-60:])


_SHIPPED: dict[int, PolicyNetwork] = {}


def reduced_choice(
    state: GameState, bids: Callable[[npt.NDArray[np.float32]], npt.NDArray[np.bool_]]
) -> Action:
    """The move of a pass-or-cheapest policy in ``state``, as the learned bots and the
    strangers play it: the lowest luxury card for a Faux Pas, Pass where no bid is legal,
    else the cheapest bid where ``bids`` (given the seat's raw observation as one row)
    says so, Pass where it does not.

    Raises:
        NoSeatToActError: no seat must act in ``state``.
    """
    phase = state.phase
    if phase is Phase.DISCARD:
        return legal_actions(state)[0]
    if phase is not Phase.AUCTION:
        raise NoSeatToActError(
            f"a bot is asked to act only when a seat must act, not in the {phase.value} phase"
        )
    bid = cheapest_bid(state)
    if bid is None:
        return Pass(state.turn)
    x = np.array([observation_tensor(state, state.turn)], dtype=np.float32)
    return bid if bids(x)[0] else Pass(state.turn)


#: The weights of the keyed hash behind :func:`decision_draws`, one per observation float.
_DRAW_KEY = np.random.default_rng(0x5EED).integers(1, 2**40, size=512).astype(np.uint64)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def _mix(x: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    # SplitMix64's finaliser: every bit of the input moves every bit of the output.
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    out: npt.NDArray[np.uint64] = x ^ (x >> np.uint64(31))
    return out


def decision_draws(observations: npt.NDArray[np.float32], seed: int) -> npt.NDArray[np.float64]:
    """``(k,)``: a number in ``[0, 1)`` for each raw observation (a row of
    :func:`~high_society.observation.observation_tensor`): a hash of the observation keyed
    by ``seed``. A pure function of what the seat sees and of the seed, the same for one
    row or many, in any order of games and in any process; two seeds give unrelated
    draws."""
    with np.errstate(over="ignore"):
        salt = _mix(np.array([seed % 2**64], dtype=np.uint64) + _GOLDEN)
        rows = observations.astype(np.int64).astype(np.uint64)
        hashed = _mix(rows @ _DRAW_KEY[: rows.shape[1]] + salt)
    draws: npt.NDArray[np.float64] = (hashed >> np.uint64(11)).astype(np.float64) / 2.0**53
    return draws


class SampledPolicy:
    """A two-output network played as a stochastic policy: the cheapest bid with the
    probability of :meth:`PolicyNetwork.bid_probabilities`, drawn by
    :func:`decision_draws` keyed by ``seed``. Deterministic for a seed (the same
    observation, the same move), unpredictable across seeds: the learned bot plays so
    with ``sampled=True``, seeded anew for every game of a tournament. A
    :class:`~high_society.batch.policies.BatchPolicy`.

    Raises:
        InvalidConfigError: ``network`` has an output per action id, not two.
    """

    def __init__(self, network: PolicyNetwork, seed: int = 0) -> None:
        if network.full_actions:
            raise InvalidConfigError("only a two-output network (pass, cheapest bid) is sampled")
        self.network = network
        self.seed = seed

    @property
    def players(self) -> int:
        """The number of seats its network plays."""
        return self.network.players

    def reseeded(self, seed: int) -> "SampledPolicy":
        """The same network, its draws keyed by ``seed``."""
        return SampledPolicy(self.network, seed)

    def bids(self, observations: npt.NDArray[np.float32]) -> npt.NDArray[np.bool_]:
        """``(k,)``: whether to make the cheapest bid, for raw observations of seats that
        may."""
        chosen: npt.NDArray[np.bool_] = decision_draws(
            observations, self.seed
        ) < self.network.bid_probabilities(observations)
        return chosen


def _never(observations: npt.NDArray[np.float32]) -> npt.NDArray[np.bool_]:
    return np.zeros(len(observations), dtype=np.bool_)


class LearnedBot:
    """Plays a policy network (see the module's description): by default the shipped one
    for the game's number of players, greedily (the more likely move), so it is
    deterministic.

    Args:
        seed: keys the draws of a sampled bot (``None``: 0); a greedy bot ignores it.
        network: another network to play (from :func:`load_network`); it plays only games
            of its ``players``.
        sampled: draw each move with the network's probability (:class:`SampledPolicy`),
            each draw a hash of what the seat sees keyed by ``seed``: deterministic for a
            seed, unpredictable across seeds (a tournament seeds each game's bots anew).
            A network of the full action space always plays its best legal id.

    Raises:
        InvalidConfigError: ``network`` is not a :class:`PolicyNetwork` (a file's name,
            say: :func:`load_network` reads one).
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        network: PolicyNetwork | None = None,
        sampled: bool = False,
    ) -> None:
        if network is not None and not isinstance(network, PolicyNetwork):
            raise InvalidConfigError(
                f"network must be a PolicyNetwork (load_network reads one from a file), "
                f"not {short_repr(network)}"
            )
        self.seed = 0 if seed is None else seed
        self.network = network
        self.sampled = sampled

    def choose(self, state: GameState) -> Action:
        """Pass or the cheapest bid, as the network prefers it (or draws it, ``sampled``;
        the best legal id, for a network of the full action space); the lowest luxury
        card for a Faux Pas.

        Raises:
            NoSeatToActError: no seat must act in ``state``.
            InvalidConfigError: no network for the game's number of players (its own
                network was made for another, or none ships for it).
        """
        if state.phase is Phase.AUCTION:
            network = self._network(state.num_players)
            if network.full_actions:
                ids = np.array(legal_action_ids(state), dtype=np.int64)
                x = np.array(observation_tensor(state, state.turn), dtype=np.float32)
                return action_from_id(state, int(ids[np.argmax(network.evaluate(x)[ids])]))
            if self.sampled:
                return reduced_choice(state, SampledPolicy(network, self.seed).bids)
            return reduced_choice(state, network.bids)
        return reduced_choice(state, _never)

    def _network(self, players: int) -> PolicyNetwork:
        return network_for(players, self.network, "this learned bot's network")


def network_for(players: int, network: PolicyNetwork | None, whose: str) -> PolicyNetwork:
    """``network`` if it plays ``players`` seats, the shipped one for them when it is
    ``None``: the network a bot of ``network`` plays a game of ``players`` with.

    Raises:
        InvalidConfigError: ``network`` plays another number of players (the message
            starts with ``whose``), or no network ships for ``players``.
    """
    if network is None:
        return shipped_network(players)
    if network.players != players:
        raise InvalidConfigError(f"{whose} plays {network.players} players, not {players}")
    return network

"""A learned bot: a small policy network trained on the batch engine, played with numpy.

:class:`LearnedBot` decides, in an auction, between passing and the cheapest legal bid
(the two moves :class:`~high_society.bots.HeuristicBot` chooses between), from the
normalised R14 observation of its seat (:func:`~high_society.observation.observation_tensor`
times :func:`~high_society.observation.observation_scale`). The network, two hidden layers
of tanh units and two outputs, was trained with PPO against three compiled heuristic bots
(``python3 tasks.py train``; docs/ai.md); its weights ship with the package
(``high_society/data/learned-4p.npz``, float32) and need only numpy to run. It plays the
higher of its two outputs, so it is deterministic; it was trained for 4 players, and in
games of 3 or 5 it plays as :class:`~high_society.bots.HeuristicBot` does at its middle
draw. For Faux Pas it discards its lowest luxury card.

Needs numpy: ``pip install 'high-society[learned]'``.

>>> from high_society import Reveal, StatusCard, apply, is_legal, new_game
>>> state = apply(new_game(4), Reveal(StatusCard.LUXURY_8))
>>> bot = LearnedBot()
>>> is_legal(state, bot.choose(state)), bot.choose(state) == LearnedBot(7).choose(state)
(True, True)
"""

import warnings
from importlib import resources

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as error:  # pragma: no cover (numpy is in the test environment)
    raise ImportError(
        "high_society.learned needs numpy: pip install 'high-society[learned]'"
    ) from error

from high_society.actions import Action, Pass
from high_society.bots import HeuristicBot, cheapest_bid
from high_society.errors import InvalidConfigError, NoSeatToActError
from high_society.observation import observation_scale, observation_tensor
from high_society.rules import legal_actions
from high_society.state import GameState, Phase

__all__ = ["WEIGHTS_FILE", "LearnedBot", "PolicyNetwork", "load_network"]

#: The name of the shipped weights' file, in the package's ``data`` folder.
WEIGHTS_FILE = "learned-4p.npz"


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


class PolicyNetwork:
    """A multilayer perceptron: ``tanh`` hidden layers, linear outputs, float32.

    Attributes:
        layers: ``(weights, bias)`` per layer; ``weights`` is ``(inputs, outputs)``.
        players: the number of seats it was trained for.
    """

    def __init__(
        self, layers: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]], players: int
    ) -> None:
        self.layers = layers
        self.players = players

    @property
    def inputs(self) -> int:
        """The length of an input vector."""
        return int(self.layers[0][0].shape[0])

    def __call__(self, x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The outputs for ``x`` (one input vector, or a batch of them as rows)."""
        *hidden, (w_out, b_out) = self.layers
        for w, b in hidden:
            x = np.tanh(x @ w + b)
        out: npt.NDArray[np.float32] = x @ w_out + b_out
        return out


def load_network(path: str | None = None) -> PolicyNetwork:
    """The policy network saved at ``path`` (an ``.npz`` of ``w0, b0, w1, b1, ...`` and
    ``players``), by default the shipped one. Read without pickle.

    Raises:
        InvalidConfigError: the file is missing, unreadable or not such a network.
    """
    try:
        if path is None:
            source = resources.files("high_society").joinpath("data", WEIGHTS_FILE)
            with source.open("rb") as stream:
                data = dict(np.load(stream, allow_pickle=False))
        else:
            with open(path, "rb") as stream:
                data = dict(np.load(stream, allow_pickle=False))
    except (OSError, ValueError) as error:
        raise InvalidConfigError(f"cannot read the learned bot's weights: {error}") from None
    layers: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]] = []
    k = 0
    while f"w{k}" in data:
        w, b = data[f"w{k}"], data.get(f"b{k}")
        if b is None or w.ndim != 2 or b.shape != (w.shape[1],):
            raise InvalidConfigError(f"the learned bot's weights: layer {k} is malformed")
        if layers and layers[-1][0].shape[1] != w.shape[0]:
            raise InvalidConfigError(f"the learned bot's weights: layer {k} does not fit")
        layers.append((w.astype(np.float32), b.astype(np.float32)))
        k += 1
    if not layers or layers[-1][0].shape[1] != 2 or "players" not in data:
        raise InvalidConfigError("the learned bot's weights: not a two-output policy")
    return PolicyNetwork(layers, int(data["players"]))


_SHIPPED: list[PolicyNetwork] = []


class LearnedBot:
    """Plays the shipped policy network (see the module's description).

    Args:
        seed: accepted like every bot's, unused: the bot is deterministic.
        network: another network to play (from :func:`load_network`), by default the
            shipped one, loaded once a process.
    """

    def __init__(self, seed: int | None = None, *, network: PolicyNetwork | None = None) -> None:
        del seed
        if network is None:
            if not _SHIPPED:
                _SHIPPED.append(load_network())
            network = _SHIPPED[0]
        self.network = network
        self._scale = np.array(observation_scale(network.players), dtype=np.float32)
        self._fallback = HeuristicBot(0)

    def choose(self, state: GameState) -> Action:
        """Pass or the cheapest bid, as the network prefers; the lowest luxury card for a
        Faux Pas.

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
        if state.num_players != self.network.players:
            return self._fallback.choose_with(state, 0.5)
        seat = state.turn
        bid = cheapest_bid(state)
        if bid is None:
            return Pass(seat)
        x = np.array(observation_tensor(state, seat), dtype=np.float32) * self._scale
        out = self.network(x)
        return bid if out[1] > out[0] else Pass(seat)

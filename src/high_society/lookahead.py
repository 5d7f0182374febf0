"""The strongest bot of the package: the learned policy inside a search.

:class:`LookaheadBot` plays a decision by trying each of a few candidate moves and
imagining, for each, ``rollouts`` games to their end in the batch engine
(:class:`~high_society.batch.GameBatch`). In them its own seat is played by the learned
network of the game's player count (:mod:`high_society.learned`), drawing its moves with
the network's probabilities, and each other seat by a model drawn for that imagined game:
the same network with probability ``network_share``, else one of the styles of the
training league (:data:`~high_society.batch.league.TRAINING_STYLES`, by their weights;
never the held-out strangers). A candidate is worth its seat's mean share of the win
(R10-R12) in its imagined games; the bot plays the learned bot's own move unless another
candidate is worth more by ``margin``: a step of policy improvement over the learned bot,
the network as prior, model of the others and rollout policy.

- **Candidates**: in an auction, ``Pass``, the learned bot's cheapest bid, and the bids of
  :func:`~high_society.search.search_actions` (the few lowest totals it can reach, each
  with its fewest and its most cards); for a Faux Pas, every luxury card it may give up.
  A decision with one candidate is played at once.
- **Common random numbers**: the ``k``-th imagined game of every candidate draws its
  reveals from the same stream and has the same models of the other seats, so that
  candidates are compared on the same futures.
- **Why a mix of models and a margin**: modelled as copies of the network alone, the other
  seats are predictable, and the search finds moves that beat such copies and lose against
  other players (with three ``heuristic`` bots at the table it won about a tenth as often
  as the learned bot); the league's styles and the margin keep it where the network's
  training put it unless the search is sure.
- **Bounded work**: a decision imagines at most ``10 * rollouts`` games (at most eight
  candidates in an auction, at most ten for a Faux Pas), played in lockstep, one matrix
  product per step for all of them; a game has at most
  :func:`~high_society.observation.max_game_length` decisions. The time a decision takes
  is measured by ``python -m benchmarks.lookahead_time`` (docs/bots.md), not promised by a
  clock: the bot never looks at one, so it is deterministic for a seed.

Needs the ``batch`` extra (numpy and numba; the engine's loops are compiled on first use,
then cached on disk): ``pip install '.[batch]'`` in a clone of the project.

>>> from high_society import Reveal, StatusCard, apply, is_legal, new_game
>>> state = apply(new_game(4), Reveal(StatusCard.LUXURY_8))
>>> action = LookaheadBot(seed=1, rollouts=8).choose(state)
>>> is_legal(state, action), action == LookaheadBot(seed=1, rollouts=8).choose(state)
(True, True)
"""

from collections.abc import Mapping
from types import MappingProxyType

import numpy as np
import numpy.typing as npt

from high_society._text import short_repr
from high_society.actions import Action, Pass
from high_society.batch._engine import POLICIES, GameBatch
from high_society.batch.league import TRAINING_STYLES
from high_society.batch.policies import act_in_batch
from high_society.bots import cheapest_bid
from high_society.encoding import action_id
from high_society.errors import InvalidConfigError, NoSeatToActError
from high_society.learned import LearnedBot, PolicyNetwork, network_for
from high_society.rules import legal_actions
from high_society.search import search_actions
from high_society.state import GameState, Phase

__all__ = ["DEFAULT_MARGINS", "MAX_ROLLOUTS", "LookaheadBot", "lookahead_candidates"]

#: The most imagined games per candidate a bot may be given.
MAX_ROLLOUTS = 1024
#: The margin of a bot given none, by the game's number of players: chosen on tables of
#: the package's own bots (``heuristic``, ``classic``), never on strangers. At five players
#: a wider one keeps the learned move more often, and the bot is cast out less.
DEFAULT_MARGINS: Mapping[int, float] = MappingProxyType({3: 0.05, 4: 0.05, 5: 0.15})
#: The code of a seat the caller plays (the network), in :data:`~high_society.batch.POLICIES`.
_NETWORK = POLICIES.index("caller")


def lookahead_candidates(
    state: GameState, network: PolicyNetwork | None = None
) -> tuple[Action, ...]:
    """The moves :class:`LookaheadBot` compares in ``state``: in an auction the learned
    bot's own move first (playing ``network``, by default the shipped one; so that a tie
    keeps it), then ``Pass``, the cheapest bid and the bids of
    :func:`~high_society.search.search_actions`, each once; every legal discard for a
    Faux Pas; nothing elsewhere.

    >>> from high_society import Reveal, StatusCard, apply, new_game
    >>> state = apply(new_game(3), Reveal(StatusCard.LUXURY_8))
    >>> len(lookahead_candidates(state))
    5
    """
    if state.phase is Phase.DISCARD:
        return tuple(legal_actions(state))
    if state.phase is not Phase.AUCTION:
        return ()
    learned = LearnedBot(network=network).choose(state)
    chosen: list[Action] = []
    for action in (learned, Pass(state.turn), cheapest_bid(state), *search_actions(state)):
        if action is not None and action not in chosen:
            chosen.append(action)
    return tuple(chosen)


class _Drawn:
    """A network's moves drawn with its probabilities, from one numpy stream: every
    imagined game draws anew, even where two of them see the same thing."""

    def __init__(self, network: PolicyNetwork, rng: np.random.Generator) -> None:
        self.network = network
        self.rng = rng

    def bids(self, observations: npt.NDArray[np.float32]) -> npt.NDArray[np.bool_]:
        chosen: npt.NDArray[np.bool_] = self.rng.random(
            len(observations)
        ) < self.network.bid_probabilities(observations)
        return chosen


class LookaheadBot:
    """The learned policy inside a search (see the module's description).

    Args:
        seed: seeds the imagined games (reveals and the network's draws); the same seed
            gives the same moves.
        rollouts: imagined games per candidate move (default 128).
        network_share: the probability that the network, not a style of the league, plays
            another seat of an imagined game (default 0.5).
        margin: how much more than the learned move (in mean share of the win) another
            candidate must be worth to be played instead (default: the game's player
            count's, :data:`DEFAULT_MARGINS`).
        network: the network of its own seat and of the others it models (by default the
            shipped one for the game's number of players,
            :func:`~high_society.learned.shipped_network`).

    Raises:
        InvalidConfigError: ``rollouts`` is not an int from 1 to :data:`MAX_ROLLOUTS`,
            ``network_share`` or ``margin`` not a number from 0 to 1, or ``network`` not a
            two-output :class:`~high_society.learned.PolicyNetwork`.
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        rollouts: int = 128,
        network_share: float = 0.5,
        margin: float | None = None,
        network: PolicyNetwork | None = None,
    ) -> None:
        if type(rollouts) is not int or not 1 <= rollouts <= MAX_ROLLOUTS:
            raise InvalidConfigError(
                f"rollouts must be an int from 1 to {MAX_ROLLOUTS}, not {short_repr(rollouts)}"
            )
        knobs = (("network_share", network_share), ("margin", 0.0 if margin is None else margin))
        for name, value in knobs:
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
                raise InvalidConfigError(
                    f"{name} must be a number from 0 to 1, not {short_repr(value)}"
                )
        if network is not None and (not isinstance(network, PolicyNetwork) or network.full_actions):
            raise InvalidConfigError("a lookahead plays a two-output PolicyNetwork")
        self.seed = 0 if seed is None else seed
        self.rollouts = rollouts
        self.network_share = float(network_share)
        self.margin = None if margin is None else float(margin)
        self.network = network
        self._rng = np.random.default_rng(self.seed)
        #: The mean share of the win of each candidate of the last decision, in the order
        #: of :func:`lookahead_candidates` (empty when it had one candidate).
        self.last_values: tuple[tuple[Action, float], ...] = ()

    def choose(self, state: GameState) -> Action:
        """The candidate whose imagined games are worth most to the seat that must act.

        Raises:
            NoSeatToActError: no seat must act in ``state``.
            InvalidConfigError: its network plays another number of players, or none ships
                for the game's.
        """
        network = self._network(state.num_players) if state.phase is Phase.AUCTION else None
        candidates = lookahead_candidates(state, network)
        self.last_values = ()
        if not candidates:
            raise NoSeatToActError(
                f"a bot is asked to act only when a seat must act, not in the "
                f"{state.phase.value} phase"
            )
        if len(candidates) == 1:
            return candidates[0]
        values = self._values(state, candidates, self._network(state.num_players))
        self.last_values = tuple(zip(candidates, values.tolist(), strict=True))
        best = int(np.argmax(values))
        # The learned move (the first candidate in an auction) stands unless another is
        # worth more by the margin: the imagined opponents are a model, the network's
        # move was trained against many.
        margin = DEFAULT_MARGINS[state.num_players] if self.margin is None else self.margin
        if state.phase is Phase.AUCTION and values[best] - values[0] <= margin:
            return candidates[0]
        return candidates[best]

    def _values(
        self, state: GameState, candidates: tuple[Action, ...], network: PolicyNetwork
    ) -> npt.NDArray[np.float64]:
        k, n = self.rollouts, len(candidates)
        # Game a * k + j tries candidate a on the j-th future: the same deck and the same
        # models of the other seats for every candidate.
        streams = self._rng.integers(0, 2**63, size=k).tolist()
        codes, boldness = self._models(state, k)
        batch = GameBatch.copies(state, n * k, seed=streams * n)
        ids = np.repeat([action_id(a, state.config) for a in candidates], k).astype(np.int64)
        batch.step(ids)
        policy = _Drawn(network, self._rng)
        codes, boldness = np.tile(codes, (n, 1)), np.tile(boldness, (n, 1))
        while not (batch.advance(codes, boldness=boldness) | batch.is_over).all():
            waiting = ~batch.is_over
            batch.step(act_in_batch(policy, batch, waiting), where=waiting)
        shares = batch.returns()[:, state.turn].reshape(n, k)
        means: npt.NDArray[np.float64] = shares.mean(axis=1)
        return means

    def _models(
        self, state: GameState, k: int
    ) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.float64]]:
        """``(k, players)``: who plays each seat of each imagined future, as batch policy
        codes and boldness: its own seat the network; each other seat the network with
        probability ``network_share``, else a style of the league drawn by its weight."""
        players = state.num_players
        styles = [style for style, _ in TRAINING_STYLES]
        weights = np.array([w for _, w in TRAINING_STYLES])
        drawn = self._rng.choice(len(styles), size=(k, players), p=weights / weights.sum())
        codes = np.array([s.code for s in styles], dtype=np.int8)[drawn]
        boldness = np.array([s.boldness for s in styles])[drawn]
        codes[self._rng.random((k, players)) < self.network_share] = _NETWORK
        codes[:, state.turn] = _NETWORK
        return codes, boldness

    def _network(self, players: int) -> PolicyNetwork:
        return network_for(players, self.network, "this lookahead's network")

"""Ratings and cross-play of bots, from batch-engine games.

A *roster* is a list of named players that the batch engine can seat: compiled policies
(:class:`~high_society.batch.policies.Compiled`), numpy policies
(:class:`~high_society.batch.policies.BatchPolicy`: the learned bots' networks, the
strangers) and bots of the reducer (a factory of :class:`~high_society.bots.Bot`, made
anew for each game and seat: the search bots, asked one game at a time, so their tables
cost what their decisions cost). :func:`play_tables` plays games whose seats are given by
index into the roster; :func:`cross_play` gives the matrix of one bot against a table of another;
:func:`rate` plays tables drawn at random and rates every player with OpenSkill's
Plackett-Luce model (the ``ratings`` extra: ``pip install '.[ratings]'`` in a clone),
winners ranked above the others, with an interval from a bootstrap over the games.
"""

from collections.abc import Callable, Sequence
from typing import cast

import attrs
import numpy as np
import numpy.typing as npt

from high_society.batch._engine import POLICIES, BatchError, GameBatch
from high_society.batch.policies import BatchPolicy, Compiled, act_in_batch
from high_society.bots import Bot
from high_society.encoding import action_id
from high_society.errors import InvalidConfigError
from high_society.learned import SampledPolicy, load_network, shipped_network
from high_society.lookahead import LookaheadBot
from high_society.parallel import game_seed
from high_society.strangers import STRANGERS
from high_society.tournament import parse_entrant

__all__ = ["ROSTER", "Entry", "Rating", "cross_play", "play_tables", "rate", "roster_entry"]

#: The default roster: every shipped bot the batch engine seats and every stranger.
ROSTER = (
    "learned",
    "heuristic",
    "classic",
    "cautious",
    "pass",
    "random",
    "cheapest",
    *STRANGERS,
)

_CALLER = POLICIES.index("caller")

#: A named player of a roster: a compiled policy, a numpy policy, or a factory of bots of
#: the reducer (called with a seed for each game and seat).
Entry = tuple[str, Compiled | BatchPolicy | Callable[[int], Bot]]

#: The bots of the reducer a roster knows by name, beside the tournament's names.
_REDUCER_BOTS: dict[str, Callable[[int], Bot]] = {"lookahead": LookaheadBot}


def roster_entry(name: str, players: int, seed: int = 0) -> Entry:
    """The player ``name`` stands for, in games of ``players``: a compiled bot
    (``heuristic``, ``classic``, ``cautious``, ``pass``, ``random``, ``cheapest``; the
    first two take ``,boldness=X``), ``learned`` (the shipped network for ``players``), a
    stranger of :data:`~high_society.strangers.STRANGERS` (``careful`` and ``keeper``
    take ``,counts_bids=true``: :meth:`~high_society.strangers.Stranger.counting`), the
    path of a saved network (ending in ``.npz``), ``lookahead``
    (:class:`~high_society.lookahead.LookaheadBot`), or
    any other bot of the tournament's grammar that plays from the state (``search``,
    ``search@N``, ``MODULE:NAME``, with options: :func:`~high_society.tournament.parse_entrant`),
    played by the reducer. A network plays as the learned bot does, greedily (the more
    likely move); a name ending in ``,sampled`` plays it sampled
    (:class:`~high_society.learned.SampledPolicy`), its draws keyed by ``seed``.

    Raises:
        InvalidConfigError: none of these, a bad boldness, a network that cannot be
            loaded or is for another number of players, or a bot that is told only its
            seat's view (a :class:`~high_society.bots.SeatBot`: the batch engine keeps no
            history).
    """
    base, _, option = name.partition(",boldness=")
    compiled = {"random": "uniform"}.get(base, base)
    if option and compiled not in ("heuristic", "classic"):
        raise InvalidConfigError(f"only heuristic and classic take a boldness, not {name!r}")
    if compiled in ("heuristic", "classic", "cautious", "pass", "uniform", "cheapest"):
        try:
            boldness = float(option) if option else 1.0
            return name, Compiled(compiled, boldness)
        except (ValueError, BatchError):
            raise InvalidConfigError(f"bad boldness in {name!r}") from None
    stranger, counting, counts = name.partition(",counts_bids=")
    if stranger in STRANGERS:
        if not counting:
            return name, STRANGERS[name]
        if counts.lower() not in ("true", "false"):
            raise InvalidConfigError(f"counts_bids is true or false in {name!r}")
        return name, STRANGERS[stranger].counting(counts.lower() == "true")
    path, sampled = name.removesuffix(",sampled"), name.endswith(",sampled")
    if path == "learned" or path.endswith(".npz"):
        network = shipped_network(players) if path == "learned" else load_network(path)
        if network.players != players:
            raise InvalidConfigError(f"{name!r} plays {network.players} players, not {players}")
        if sampled and not network.full_actions:
            return name, SampledPolicy(network, seed)
        return name, network
    if name in _REDUCER_BOTS:
        return name, _REDUCER_BOTS[name]
    return name, _reducer_bot(name)


def _reducer_bot(name: str) -> Callable[[int], Bot]:
    try:
        factory = parse_entrant(name).factory
    except InvalidConfigError as error:
        raise InvalidConfigError(
            f"unknown player {name!r}: a compiled bot, learned, a stranger "
            f"({', '.join(STRANGERS)}), a network's .npz (either with ',sampled' or not), "
            f"lookahead, or a bot of the tournament ({error})"
        ) from None
    if not isinstance(factory(0), Bot):
        raise InvalidConfigError(f"{name!r} is told only its seat's view: it needs a history")
    return cast(Callable[[int], Bot], factory)  # it makes bots of the state: checked above


def play_tables(
    players: int, roster: Sequence[Entry], lineups: npt.NDArray[np.int64], seed: int
) -> npt.NDArray[np.float64]:
    """``(G, players)``: each seat's share of the win (R12; 0 when cast out or beaten) in
    ``G`` games, seat ``s`` of game ``g`` played by ``roster[lineups[g, s]]``."""
    batch = GameBatch(len(lineups), players, seed=seed)
    policies = [p for _, p in roster]
    codes = np.full(lineups.shape, _CALLER, dtype=np.int8)
    bold = np.ones(lineups.shape)
    for k, policy in enumerate(policies):
        if isinstance(policy, Compiled):
            codes[lineups == k] = policy.code
            bold[lineups == k] = policy.boldness
    rows = np.arange(len(lineups))
    made: dict[tuple[int, int], Bot] = {}  # a reducer bot per game and seat
    while True:
        batch.advance(codes, boldness=bold)
        waiting = ~batch.is_over
        if not waiting.any():
            return batch.returns()
        seats = batch.to_act
        who = lineups[rows, seats]
        ids = np.zeros(len(lineups), dtype=np.int64)
        plain = batch.policy_actions("pass")
        cheapest = batch.policy_actions("cheapest")
        for k in np.unique(who[waiting]):
            mine = waiting & (who == k)
            policy = policies[int(k)]
            assert not isinstance(policy, Compiled)
            if isinstance(policy, BatchPolicy):
                ids[mine] = act_in_batch(policy, batch, mine, plain, cheapest)[mine]
                continue
            for g in np.flatnonzero(mine).tolist():
                seat = int(seats[g])
                bot = made.get((g, seat))
                if bot is None:
                    bot = made[g, seat] = policy(game_seed(seed, g, 1 + seat))
                ids[g] = action_id(bot.choose(batch.to_state(g)), batch.config)
        batch.step(ids, where=waiting)


def cross_play(
    players: int, roster: Sequence[Entry], games: int, seed: int
) -> npt.NDArray[np.float64]:
    """``(R, R)``: entry ``[i, j]`` is the mean share of the win of ``roster[i]`` alone at a
    table of ``roster[j]`` in its other seats, over ``games`` games with ``i``'s seat
    rotating (game ``g``: seat ``g mod players``)."""
    size = len(roster)
    seat = np.arange(games) % players
    matrix = np.zeros((size, size))
    for i in range(size):
        for j in range(size):
            lineups = np.full((games, players), j, dtype=np.int64)
            lineups[np.arange(games), seat] = i
            shares = play_tables(players, roster, lineups, seed + i * size + j)
            matrix[i, j] = shares[np.arange(games), seat].mean()
    return matrix


@attrs.frozen
class Rating:
    """One player's OpenSkill rating: ``mu``, the median over fits to bootstrap resamples
    of the games (each in a random order), ``low`` and ``high`` its 2.5% and 97.5% points,
    ``sigma`` the model's own uncertainty (mean over the fits), ``games`` played and
    ``win_share`` (its mean share of the win over its seats)."""

    name: str
    mu: float
    sigma: float
    low: float
    high: float
    games: int
    win_share: float


def rate(
    players: int, roster: Sequence[Entry], games: int, seed: int, resamples: int = 21
) -> list[Rating]:
    """Rate every player of ``roster`` from ``games`` games whose seats are drawn from it
    uniformly (a player may sit twice), best first by ``mu``."""
    from openskill.models import PlackettLuce  # the ratings extra: only when asked

    rng = np.random.default_rng(seed)
    lineups = rng.integers(0, len(roster), size=(games, players))
    shares = play_tables(players, roster, lineups, seed)
    names = [name for name, _ in roster]

    def fit(order: npt.NDArray[np.int64]) -> list[tuple[float, float]]:
        model = PlackettLuce()
        ratings = [model.rating(name=name) for name in names]
        for g in order:
            # Winners rank 1, the others 2; a player seated twice is rated once, at its
            # better rank.
            best: dict[int, float] = {}
            for k, share in zip(lineups[g].tolist(), shares[g].tolist(), strict=True):
                best[k] = min(best.get(k, 2.0), 1.0 if share > 0 else 2.0)
            if len(best) < 2:
                continue
            seated = list(best)
            teams = [[ratings[k]] for k in seated]
            rated = model.rate(teams, ranks=[best[k] for k in seated])
            for k, (new,) in zip(seated, rated, strict=True):
                ratings[k] = new
        return [(r.mu, r.sigma) for r in ratings]

    # Online ratings depend on the order of the games: each fit takes the games of a
    # bootstrap resample in a random order, and the rating is the median over the fits.
    fits = np.array([fit(rng.integers(0, games, games)) for _ in range(resamples)])
    out = []
    for k, name in enumerate(names):
        seated = lineups == k
        mus = fits[:, k, 0]
        out.append(
            Rating(
                name,
                float(np.median(mus)),
                float(fits[:, k, 1].mean()),
                float(np.percentile(mus, 2.5)),
                float(np.percentile(mus, 97.5)),
                int(seated.any(axis=1).sum()),
                float(shares[seated].mean()) if seated.any() else 0.0,
            )
        )
    return sorted(out, key=lambda r: -r.mu)

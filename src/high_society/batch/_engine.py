"""``GameBatch``: many games in lockstep over numpy arrays, stepped by compiled kernels."""

from collections.abc import Sequence
from typing import NoReturn

import attrs
import numpy as np
import numpy.typing as npt

from high_society._text import short_repr
from high_society.batch import _kernels
from high_society.batch._layout import Row, row_from_state, state_from_row, tables
from high_society.cards import STANDARD, GameConfig, check_players
from high_society.encoding import player_action
from high_society.errors import EncodingError, HighSocietyError, Reason
from high_society.invariants import state_problems
from high_society.rules import why_illegal
from high_society.state import GameState

__all__ = [
    "MAX_GAMES",
    "POLICIES",
    "BatchError",
    "BatchResults",
    "GameBatch",
    "IllegalActionIdError",
    "Seed",
    "game_seeds",
]

#: A seed for the whole batch (an int >= 0), or one int >= 0 per game.
Seed = int | Sequence[int]

#: The most games one batch plays (2**20, 1,048,576): each takes up to about 250 bytes of
#: state, and 2,058 bytes of legal action mask when one is asked for.
MAX_GAMES = 1 << 20

_SEED_LIMIT = 1 << 64
_INT64_MAX = np.iinfo(np.int64).max

#: The compiled policies that can play a seat, by name; a name's index is its code in
#: :meth:`GameBatch.advance`. ``"caller"``: the seat is played by whoever calls
#: :meth:`GameBatch.step`; ``"uniform"``: uniform among all legal actions (as
#: ``sample_actions``); ``"heuristic"``: :class:`~high_society.bots.HeuristicBot`'s
#: decision; ``"pass"``: :class:`~high_society.bots.PassBot`'s; ``"cheapest"``: the
#: cheapest legal bid whenever there is one (of that total, the largest id, as the
#: heuristic bids), else Pass; for Faux Pas, the lowest luxury card; ``"classic"`` and
#: ``"cautious"``: :class:`~high_society.bots.ClassicHeuristicBot`'s and
#: :class:`~high_society.bots.CautiousBot`'s decisions.
POLICIES = ("caller", "uniform", "heuristic", "pass", "cheapest", "classic", "cautious")
_CODES = {name: code for code, name in enumerate(POLICIES)}


class BatchError(HighSocietyError, ValueError):
    """Bad input to the batch engine: a wrong shape, seed, game index or state."""


class IllegalActionIdError(BatchError):
    """An action id that is not legal in its game; nothing was applied to any game.

    Attributes:
        game: the index of the first game whose id is illegal.
        action_id: that id.
        reason: why the reducer refuses the action (see :class:`~high_society.Reason`), or
            ``None`` when the id is no action id of the config at all.
    """

    def __init__(self, game: int, action_id: int, reason: Reason | None, why: str) -> None:
        super().__init__(f"game {game}: action id {action_id} is not legal: {why}")
        self.game = game
        self.action_id = action_id
        self.reason = reason


@attrs.frozen(eq=False)
class BatchResults:
    """R10-R12 for every game of a batch, one row per game; rows of unfinished games are
    zeros and ``False``.

    Attributes:
        scores: ``(N, players)`` float64: each seat's status (R11; halves are exact).
        money: ``(N, players)`` int64: each seat's money left.
        cast_out: ``(N, players)`` bool: the seats cast out (R10).
        winners: ``(N, players)`` bool: the winning seats (R12); none when all are cast out.
    """

    scores: npt.NDArray[np.float64]
    money: npt.NDArray[np.int64]
    cast_out: npt.NDArray[np.bool_]
    winners: npt.NDArray[np.bool_]

    @property
    def returns(self) -> npt.NDArray[np.float64]:
        """``(N, players)``: the winners of a game share 1, every other seat gets 0 (the
        convention of ``high_society.observation.returns``); 0 for unfinished games."""
        count = self.winners.sum(axis=1, keepdims=True)
        shares = np.zeros(self.winners.shape, dtype=np.float64)
        np.divide(self.winners, count, out=shares, where=count > 0)
        return shares


class GameBatch:
    """``num_games`` games of ``players`` seats, played in lockstep.

    Each game rests at a decision (a seat to bid, pass or discard) or is over: the reveals
    (R4) are drawn by the engine, from each game's own random stream, as soon as they are
    due. Actions are the integer ids of the encoding (``high_society.encoding``): 0 is
    Pass, ``1 .. 2**m - 1`` the bids by the positions of the cards they add, ``2**m + v - 1``
    the discard of luxury ``v``.

    >>> import numpy as np
    >>> batch = GameBatch(4, players=3, seed=7)
    >>> batch.legal_action_mask().shape
    (4, 2058)
    >>> ended = batch.step(np.zeros(4, dtype=np.int64))  # seat 0 passes in every game
    >>> ended.any()  # too early: a game ends at its fourth dark-green reveal (R9)
    np.False_

    Raises:
        InvalidConfigError: ``players`` is not 3 to 5, or the config has more money cards
            than the batch engine plays (see :data:`MAX_MONEY_CARDS`).
        BatchError: ``num_games`` is not an int from 1 to :data:`MAX_GAMES` (or the memory
            for them cannot be had), or a bad ``seed`` (see :meth:`reset`).
    """

    __slots__ = ("_ended", "_games", "_policy_rng", "_tables")

    def __init__(
        self,
        num_games: int,
        players: int,
        *,
        config: GameConfig = STANDARD,
        seed: Seed = 0,
    ) -> None:
        check_players(players)
        if type(num_games) is not int or not 1 <= num_games <= MAX_GAMES:
            raise BatchError(
                f"the number of games must be an int from 1 to {MAX_GAMES:,} (MAX_GAMES), "
                f"not {short_repr(num_games)}"
            )
        self._tables = tables(config)
        try:
            self._games = _kernels.new_arrays(num_games, players)
            self._policy_rng = np.zeros(num_games, dtype=np.uint64)
            self._ended = np.zeros(num_games, dtype=np.bool_)
        except MemoryError:
            raise BatchError(f"not enough memory for {num_games:,} games") from None
        self.reset(seed)

    # --- Shape ------------------------------------------------------------------------------

    @property
    def num_games(self) -> int:
        """How many games the batch plays (``N``)."""
        return int(self._games.phase.shape[0])

    @property
    def num_players(self) -> int:
        """Seats per game (3 to 5)."""
        return int(self._games.hand.shape[1])

    @property
    def config(self) -> GameConfig:
        """The games' parameters."""
        return self._tables.config

    @property
    def num_actions(self) -> int:
        """The number of action ids: ``2**m + 10`` (standard 2,058)."""
        return self._tables.num_actions

    @property
    def observation_size(self) -> int:
        """Floats per observation: ``47 + players * (2 * m + 16)`` (observation layout)."""
        return _kernels.GLOBAL_SIZE + self.num_players * (2 * len(self.config.money) + 16)

    # --- Reset ------------------------------------------------------------------------------

    def reset(self, seed: Seed | None = None) -> None:
        """Start a new game in every game of the batch (and draw its first reveal).

        With ``seed`` the random streams start afresh: an int seeds the whole batch (game
        ``g`` gets the ``g``-th seed that ``numpy.random.SeedSequence(seed)`` generates), a
        sequence gives each game its own seed, so that a game plays the same in any batch.
        Without it the streams go on.

        Raises:
            BatchError: ``seed`` is not an int from 0 to ``2**64 - 1``, nor a sequence of
                ``num_games`` of them.
        """
        if seed is not None:
            _kernels.seed_streams(
                self._games.rng, self._policy_rng, game_seeds(seed, self.num_games)
            )
        self._new_games(np.ones(self.num_games, dtype=np.bool_))

    def reset_games(self, games: npt.ArrayLike) -> None:
        """Start a new game in the games that ``games`` selects (a bool mask of length
        ``num_games``, or game indexes); the others are left as they are. Their random
        streams go on.

        >>> batch = GameBatch(2, players=3)
        >>> batch.reset_games(batch.is_over)  # explicit reset of the finished games

        Raises:
            BatchError: ``games`` is neither a bool mask of length ``num_games`` nor
                indexes of games.
        """
        self._new_games(self._selection(games))

    def _new_games(self, which: npt.NDArray[np.bool_]) -> None:
        _kernels.new_games(which, self._tables.rules, self._games)

    def _selection(self, games: npt.ArrayLike) -> npt.NDArray[np.bool_]:
        chosen = np.asarray(games)
        n = self.num_games
        if chosen.dtype == np.bool_ and chosen.shape == (n,):
            return chosen.copy()
        if chosen.ndim == 1 and (chosen.size == 0 or np.issubdtype(chosen.dtype, np.integer)):
            if chosen.size and (chosen.min() < 0 or chosen.max() >= n):
                raise BatchError(f"game indexes must be from 0 to {n - 1}")
            which = np.zeros(n, dtype=np.bool_)
            which[chosen.astype(np.int64)] = True
            return which
        raise BatchError(
            f"expected a bool mask of shape ({n},) or game indexes, not an array of "
            f"shape {chosen.shape} and type {chosen.dtype}"
        )

    # --- Questions --------------------------------------------------------------------------

    @property
    def is_over(self) -> npt.NDArray[np.bool_]:
        """``(N,)``: which games have ended (R9). A fresh array."""
        over: npt.NDArray[np.bool_] = self._games.phase == _kernels.OVER
        return over

    @property
    def to_act(self) -> npt.NDArray[np.int64]:
        """``(N,)``: the seat to act in each game, ``-1`` in finished games. A fresh array."""
        seats: npt.NDArray[np.int64] = np.where(self.is_over, -1, self._games.turn)
        return seats

    @property
    def auctions_started(self) -> npt.NDArray[np.int64]:
        """``(N,)``: status cards revealed and auctioned so far (the ending card aside)."""
        games = self._games
        revealed = int(self._tables.rules.deck0.sum()) - games.deck.sum(axis=1, dtype=np.int64)
        started: npt.NDArray[np.int64] = revealed - (games.ending >= 0)
        return started

    def legal_action_mask(self, out: npt.NDArray[np.int8] | None = None) -> npt.NDArray[np.int8]:
        """``(N, num_actions)`` int8: 1 for every legal action id of each game, 0 elsewhere;
        a finished game's row is all 0. The package's mask convention (int8 0/1, a new
        writable array, as Gymnasium's ``Discrete.sample(mask=...)`` and PettingZoo's
        classic games take it; ``mask != 0`` or ``mask.view(bool)`` for a bool one).
        Written into ``out`` when given (reused buffers save an allocation per step).

        Raises:
            BatchError: ``out`` is not a writable C-contiguous int8 array of that shape.
        """
        if out is None:
            out = np.empty((self.num_games, self.num_actions), dtype=np.int8)
        else:
            _check_out(out, (self.num_games, self.num_actions), np.int8)
        _kernels.legal_mask(out, self._tables.rules, self._games)
        return out

    def sample_actions(self, out: npt.NDArray[np.int64] | None = None) -> npt.NDArray[np.int64]:
        """``(N,)``: one legal action id per game, uniform among all its legal actions (the
        ``uniform`` policy of ``high_society.simulate.simulate``); ``0`` for finished
        games. Drawn from each game's policy stream, apart from the reveals' stream.

        Raises:
            BatchError: ``out`` is not a C-contiguous int64 array of shape ``(N,)``.
        """
        if out is None:
            out = np.empty(self.num_games, dtype=np.int64)
        else:
            _check_out(out, (self.num_games,), np.int64)
        _kernels.sample_legal(out, self._tables.rules, self._games, self._policy_rng)
        return out

    def policy_actions(
        self,
        policy: str,
        *,
        draws: npt.ArrayLike | None = None,
        boldness: float = 1.0,
        out: npt.NDArray[np.int64] | None = None,
    ) -> npt.NDArray[np.int64]:
        """``(N,)``: the action id a compiled policy (:data:`POLICIES`, not ``"caller"``)
        plays for the seat to act in each game; ``0`` in finished games.

        ``"heuristic"`` is :meth:`~high_society.bots.HeuristicBot.choose_with` compiled,
        with ``boldness`` (``"classic"`` and ``"cautious"`` likewise their bots'
        ``choose_with``; boldness scales the classic one's prices too): its draw comes from
        each game's policy stream, or from ``draws`` (``(N,)`` floats in ``[0, 1)``) when
        given, so that it can be compared with the reducer's bot at equal draws.
        ``"uniform"`` draws from the policy streams, as :meth:`sample_actions` does.

        Raises:
            BatchError: an unknown policy, ``draws`` not ``N`` floats in ``[0, 1)``,
                ``boldness`` not a number > 0, or a bad ``out``.
        """
        code = _CODES.get(policy) if isinstance(policy, str) else None
        if code is None or code == _kernels.CALLER:
            raise BatchError(
                f"policy must be one of {', '.join(POLICIES[1:])}, not {short_repr(policy)}"
            )
        n = self.num_games
        if draws is None:
            given = np.empty(0, dtype=np.float64)
        else:
            given = np.asarray(draws)
            if (
                given.shape != (n,)
                or not np.issubdtype(given.dtype, np.floating)
                or not ((given >= 0.0) & (given < 1.0)).all()
            ):
                raise BatchError(f"draws must be {n} floats in [0, 1)")
            given = np.ascontiguousarray(given, dtype=np.float64)
        if out is None:
            out = np.empty(n, dtype=np.int64)
        else:
            _check_out(out, (n,), np.int64)
        _kernels.policy_actions(
            out, code, given, _boldness(boldness), self._tables.rules, self._games, self._policy_rng
        )
        return out

    def advance(
        self, policies: npt.ArrayLike, *, boldness: float | npt.ArrayLike = 1.0
    ) -> npt.NDArray[np.bool_]:
        """Let the compiled policies play: every game goes on until a ``"caller"`` seat must
        act or it is over. Return ``(N,)`` bool: the games that ended here.

        ``policies`` names who plays each seat: one name of :data:`POLICIES` per seat (the
        same in every game), or an ``(N, players)`` array of names or of their indexes in
        :data:`POLICIES` (a seat's player may differ from game to game). The heuristic and
        classic seats play with ``boldness`` (one number, or one per seat, or an
        ``(N, players)`` array), their draws from each game's policy stream.

        >>> batch = GameBatch(64, players=4, seed=2)
        >>> ended = batch.advance(["caller", "heuristic", "heuristic", "heuristic"])
        >>> bool(((batch.to_act == 0) | batch.is_over).all())
        True

        Raises:
            BatchError: ``policies`` is not of that shape, or names an unknown policy;
                ``boldness`` is not numbers > 0 of such a shape.
        """
        codes = self.policy_codes(policies)
        bold = self._boldness_table(boldness)
        ended = np.zeros(self.num_games, dtype=np.bool_)
        _kernels.advance(codes, bold, self._tables.rules, self._games, self._policy_rng, ended)
        return ended

    def _boldness_table(self, boldness: float | npt.ArrayLike) -> npt.NDArray[np.float64]:
        """``(N, players)`` float64 of boldness values > 0, from one or one per seat or game
        and seat."""
        shape = (self.num_games, self.num_players)
        if isinstance(boldness, int | float) and not isinstance(boldness, bool):
            return np.full(shape, _boldness(boldness))
        given = np.asarray(boldness)
        if given.dtype.kind not in "iuf":
            raise BatchError(f"boldness must be numbers > 0, not {short_repr(boldness)}")
        try:
            table = np.broadcast_to(given.astype(np.float64), shape)
        except ValueError:
            raise BatchError(f"boldness must be one number or broadcast to {shape}") from None
        if not ((table > 0) & np.isfinite(table)).all():
            raise BatchError("boldness must be finite numbers > 0")
        return np.ascontiguousarray(table)

    def policy_codes(self, policies: npt.ArrayLike) -> npt.NDArray[np.int8]:
        """``(N, players)`` int8: ``policies`` (as :meth:`advance` takes them) as codes, the
        indexes of their names in :data:`POLICIES`.

        Raises:
            BatchError: ``policies`` is not of a shape :meth:`advance` takes, or names an
                unknown policy.
        """
        n, players = self.num_games, self.num_players
        given = np.asarray(policies)
        if given.shape == (players,):
            given = np.broadcast_to(given, (n, players))
        if given.shape != (n, players):
            raise BatchError(
                f"policies must be {players} names (one per seat) or an array of shape "
                f"({n}, {players}), not of shape {given.shape}"
            )
        if given.dtype.kind in "US":
            codes = np.full((n, players), -1, dtype=np.int8)
            for name, code in _CODES.items():
                codes[given == name] = code
        elif np.issubdtype(given.dtype, np.integer) and given.dtype != np.bool_:
            codes = np.where((given >= 0) & (given < len(POLICIES)), given, -1).astype(np.int8)
        else:
            raise BatchError(f"policies must be names or codes, not {given.dtype}")
        if (codes < 0).any():
            raise BatchError(f"unknown policy: the policies are {', '.join(POLICIES)}")
        return np.ascontiguousarray(codes)

    def sample_masked(
        self,
        logits: npt.ArrayLike,
        mask: npt.ArrayLike | None = None,
        out: npt.NDArray[np.int64] | None = None,
    ) -> npt.NDArray[np.int64]:
        """``(N,)``: one action id per game, drawn from the softmax of ``logits`` over the
        ids ``mask`` allows (by default :meth:`legal_action_mask`): a masked categorical
        policy in one compiled pass, drawn from each game's policy stream. A row that
        allows nothing (a finished game) gets ``0``.

        Raises:
            BatchError: ``logits`` is not ``(N, num_actions)`` floats (NaN and +inf
                refused), or ``mask`` not an int8 or bool array of that shape, or a bad
                ``out``.
        """
        shape = (self.num_games, self.num_actions)
        values = np.asarray(logits)
        if values.shape != shape or not np.issubdtype(values.dtype, np.floating):
            raise BatchError(f"logits must be floats of shape {shape}")
        if np.isnan(values).any() or np.isposinf(values).any():
            raise BatchError("logits must not be NaN or +inf")
        allowed = self.legal_action_mask() if mask is None else np.asarray(mask)
        if allowed.shape != shape or not (
            allowed.dtype == np.bool_ or np.issubdtype(allowed.dtype, np.integer)
        ):
            raise BatchError(f"mask must be an int8 (or bool) array of shape {shape}")
        if out is None:
            out = np.empty(self.num_games, dtype=np.int64)
        else:
            _check_out(out, (self.num_games,), np.int64)
        _kernels.sample_masked(
            out,
            np.ascontiguousarray(values, dtype=np.float64),
            np.ascontiguousarray(allowed != 0),
            self._policy_rng,
        )
        return out

    def observations(
        self,
        seat: int | npt.ArrayLike | None = None,
        out: npt.NDArray[np.float32] | None = None,
        *,
        where: npt.ArrayLike | None = None,
    ) -> npt.NDArray[np.float32]:
        """``(N, observation_size)`` float32: each game as ``seat`` sees it, in the layout of
        ``high_society.observation.observation_tensor`` (R14; seats rotated so the observer
        comes first). ``seat`` is one seat for every game, one per game, or ``None`` for the
        seat to act (the last round's starter in a finished game). With ``where`` (games, as
        :meth:`reset_games` takes them) only those rows are written: the others of ``out``
        are left as they were (of a new array, undefined).

        Raises:
            BatchError: a seat is not from 0 to ``players - 1``, ``out`` is not a
                C-contiguous float32 array of that shape, or a bad ``where``.
        """
        n = self.num_games
        if seat is None:
            seats = self._games.turn
        else:
            try:
                seats = np.broadcast_to(np.asarray(seat), (n,))
            except ValueError:
                raise BatchError(f"expected one seat, or one seat per game ({n})") from None
            if not np.issubdtype(seats.dtype, np.integer) or seats.dtype == np.bool_:
                raise BatchError(f"seats must be ints, not {seats.dtype}")
            if seats.min() < 0 or seats.max() >= self.num_players:
                raise BatchError(f"seats must be from 0 to {self.num_players - 1}")
            seats = np.ascontiguousarray(seats, dtype=np.int64)
        if out is None:
            out = np.empty((n, self.observation_size), dtype=np.float32)
        else:
            _check_out(out, (n, self.observation_size), np.float32)
        if where is None:
            _kernels.observe(out, seats, len(self.config.money), self._games)
        else:
            rows = np.flatnonzero(self._selection(where))
            _kernels.observe_rows(out, rows, seats, len(self.config.money), self._games)
        return out

    def results(self) -> BatchResults:
        """R10-R12 for every finished game (zeros for the others): statuses, money, cast
        out, winners and the returns (winners share 1)."""
        outcome = _kernels.new_outcome(self.num_games, self.num_players)
        _kernels.results(self._tables.rules, self._games, outcome)
        return BatchResults(*outcome)

    def returns(self) -> npt.NDArray[np.float64]:
        """``(N, players)``: each finished game's winners share 1, other seats get 0; all 0
        in unfinished games and when everyone is cast out. Not zero-sum."""
        return self.results().returns

    # --- Step -------------------------------------------------------------------------------

    def step(
        self, action_ids: npt.ArrayLike, *, where: npt.ArrayLike | None = None
    ) -> npt.NDArray[np.bool_]:
        """Apply one action id per game, then draw the reveals that are due; return
        ``(N,)`` bool: the games that ended in this step. A finished game ignores its id
        (reset it with :meth:`reset_games`).

        Every id is checked before any game changes: one illegal id, and nothing happens.
        With ``where`` (a bool mask of length ``num_games``) only the games it selects are
        stepped (and their ids checked); the others are left as they are.

        Raises:
            IllegalActionIdError: an id is not legal in its game (the first such game).
            BatchError: ``action_ids`` is not ``num_games`` integers, or ``where`` not a
                bool mask of length ``num_games``.
        """
        actions = np.asarray(action_ids)
        if (
            actions.shape != (self.num_games,)
            or not np.issubdtype(actions.dtype, np.integer)
            or actions.dtype == np.bool_
        ):
            raise BatchError(
                f"expected {self.num_games} integer action ids, not an array of shape "
                f"{actions.shape} and type {actions.dtype}"
            )
        if actions.dtype.kind == "u" and actions.max() > _INT64_MAX:
            # Converted to int64, 2**64 - 1 would be refused as the id -1.
            bad = int(np.argmax(actions > _INT64_MAX))
            return self._raise_not_an_id(bad, int(actions[bad]))
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        rules, games = self._tables.rules, self._games
        if where is None:
            bad = _kernels.first_illegal(actions, rules, games)
            if bad >= 0:
                raise self._illegal(bad, int(actions[bad]))
            _kernels.step(actions, rules, games, self._ended)
            return self._ended.copy()
        chosen = np.asarray(where)
        if chosen.dtype != np.bool_ or chosen.shape != (self.num_games,):
            raise BatchError(f"where must be a bool mask of shape ({self.num_games},)")
        # Unselected games are checked with Pass-or-nothing: an id they ignore.
        checked = np.where(chosen, actions, self.policy_actions("pass"))
        bad = _kernels.first_illegal(checked, rules, games)
        if bad >= 0:
            raise self._illegal(bad, int(actions[bad]))
        _kernels.step_where(actions, np.ascontiguousarray(chosen), rules, games, self._ended)
        return self._ended.copy()

    def _raise_not_an_id(self, game: int, action_id: int) -> NoReturn:
        raise IllegalActionIdError(
            game, action_id, None, f"action ids are from 0 to {self.num_actions - 1}"
        )

    def _illegal(self, game: int, action_id: int) -> IllegalActionIdError:
        """The error for ``action_id`` in ``game``, with the reducer's reason when the id
        names an action (decoded by the library's one encoding, ``player_action``)."""
        state = self.to_state(game)
        try:
            action = player_action(action_id, state.turn, self.config)
        except EncodingError as no_action:
            return IllegalActionIdError(game, action_id, None, str(no_action))
        error = why_illegal(state, action)
        assert error is not None, "the kernels and the reducer disagree on legality"
        return IllegalActionIdError(game, action_id, error.reason, str(error))

    # --- To and from GameState ---------------------------------------------------------------

    def to_state(self, game: int) -> GameState:
        """Game ``game`` as a :class:`~high_society.GameState`, to inspect, score or validate
        with the reducer (``apply``, ``result``, ``record`` ...).

        Raises:
            BatchError: ``game`` is not an index of this batch.
        """
        g = self._index(game)
        games = self._games
        seats = tuple(
            (
                int(games.hand[g, p]),
                int(games.table[g, p]),
                bool(games.passed[g, p]),
                tuple(int(x) for x in games.owned[g, p]),
            )
            for p in range(self.num_players)
        )
        row: Row = (
            seats,
            tuple(int(x) for x in games.deck[g]),
            tuple(int(x) for x in games.removed[g]),
            int(games.phase[g]),
            int(games.turn[g]),
            int(games.auction[g]),
            int(games.ending[g]),
        )
        return state_from_row(self.config, row)

    def set_state(self, game: int, state: GameState) -> None:
        """Make game ``game`` continue from ``state`` (from the reducer, a record, a test).
        A state that waits for a reveal gets it at once, from the game's stream.

        Raises:
            BatchError: ``game`` is not an index of this batch, ``state`` is not a
                ``GameState``, has another config or number of seats, or it breaks an
                invariant of reachable states
                (:func:`~high_society.invariants.state_problems`).
        """
        g = self._index(game)
        if not isinstance(state, GameState):
            raise BatchError(f"not a GameState: {short_repr(state)}")
        problems = state_problems(state)
        if problems:
            raise BatchError("not a valid state: " + "; ".join(problems))
        if state.config != self.config or state.num_players != self.num_players:
            raise BatchError(
                f"the batch plays {self.num_players} seats of {short_repr(self.config)}, the state "
                f"{state.num_players} seats of {short_repr(state.config)}"
            )
        self._write(slice(g, g + 1), state)

    def _write(self, rows: slice, state: GameState) -> None:
        """Make the games of ``rows`` continue from ``state``, already checked."""
        games = self._games
        seats, deck, removed, phase, turn, auction, ending = row_from_state(state)
        for p, (hand, table, passed, owned) in enumerate(seats):
            games.hand[rows, p] = hand
            games.table[rows, p] = table
            games.passed[rows, p] = passed
            games.owned[rows, p] = owned
        games.deck[rows] = deck
        games.removed[rows] = removed
        games.phase[rows] = phase
        games.turn[rows] = turn
        games.auction[rows] = auction
        games.ending[rows] = ending
        games.highest[rows] = state.highest_bid
        # A state due for a reveal gets it now, from each game's own stream; no other game
        # of the batch rests at one.
        _kernels.reveal_due(games)

    @classmethod
    def from_states(cls, states: Sequence[GameState], *, seed: Seed = 0) -> "GameBatch":
        """A batch of ``len(states)`` games, each continuing from its state.

        Raises:
            BatchError: ``states`` is not a sequence of :class:`~high_society.GameState`,
                holds none or more than :data:`MAX_GAMES`, or they differ in config or number
                of seats, or one is not valid (see :meth:`set_state`).
        """
        if not isinstance(states, Sequence):
            raise BatchError(f"from_states takes a sequence of states, not {short_repr(states)}")
        if not states:
            raise BatchError("from_states needs at least one state")
        for g, state in enumerate(states):
            if not isinstance(state, GameState):
                raise BatchError(f"state {g} is not a GameState: {short_repr(state)}")
        batch = cls(len(states), states[0].num_players, config=states[0].config, seed=seed)
        for g, state in enumerate(states):
            batch.set_state(g, state)
        return batch

    @classmethod
    def copies(cls, state: GameState, num_games: int, *, seed: Seed = 0) -> "GameBatch":
        """A batch of ``num_games`` games that all continue from ``state``, which is
        checked once (as :meth:`set_state` checks it): the imagined futures of one
        position, each drawing its reveals from its own stream (with a sequence of seeds,
        games given the same seed draw the same reveals while they make the same moves).

        Raises:
            BatchError: ``state`` is not a valid :class:`~high_society.GameState` (see
                :meth:`set_state`), or a bad ``num_games`` or ``seed``.
        """
        if not isinstance(state, GameState):
            raise BatchError(f"not a GameState: {short_repr(state)}")
        batch = cls(num_games, state.num_players, config=state.config, seed=seed)
        batch.set_state(0, state)
        batch._write(slice(1, None), state)
        return batch

    def _index(self, game: int) -> int:
        # numpy's integers too (an index from np.flatnonzero), but not bools.
        if (
            not isinstance(game, int | np.integer)
            or isinstance(game, bool)
            or not (0 <= game < self.num_games)
        ):
            raise BatchError(
                f"{short_repr(game)} is not a game of this batch (0 to {self.num_games - 1})"
            )
        return int(game)


def game_seeds(seed: Seed, n: int) -> npt.NDArray[np.uint64]:
    """One seed per game: the first ``n`` that ``SeedSequence(seed)`` generates for an int,
    else the sequence itself (see :meth:`GameBatch.reset`).

    Raises:
        BatchError: ``seed`` is not an int from 0 to ``2**64 - 1``, nor a sequence of ``n``
            of them.
    """
    if type(seed) is int:
        if not 0 <= seed < _SEED_LIMIT:
            raise BatchError(f"a seed is an int from 0 to 2**64 - 1, not {short_repr(seed)}")
        seeds: npt.NDArray[np.uint64] = (
            np.random.SeedSequence(seed).generate_state(n, dtype=np.uint64).astype(np.uint64)
        )
        return seeds
    if isinstance(seed, Sequence) and not isinstance(seed, str | bytes):
        if len(seed) != n or not all(type(s) is int and 0 <= s < _SEED_LIMIT for s in seed):
            raise BatchError(f"expected {n} seeds, each an int from 0 to 2**64 - 1")
        return np.array(seed, dtype=np.uint64)
    raise BatchError(f"a seed is an int or a sequence of ints, not {short_repr(seed)}")


def _boldness(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < np.inf:
        raise BatchError(f"boldness must be a number > 0, not {short_repr(value)}")
    return float(value)


def _check_out(out: npt.NDArray[np.generic], shape: tuple[int, ...], dtype: type) -> None:
    if (
        not isinstance(out, np.ndarray)
        or out.shape != shape
        or out.dtype != dtype
        or not out.flags.c_contiguous
        or not out.flags.writeable
    ):
        raise BatchError(
            f"out must be a writable C-contiguous {np.dtype(dtype)} array of shape {shape}"
        )

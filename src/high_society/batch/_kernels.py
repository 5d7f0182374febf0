"""The batch engine's compiled loops: the rules over arrays, one game per row.

Every function here is compiled by numba (``njit``) and works on the arrays of
:class:`~high_society.batch.GameBatch`; nothing here allocates per step. They are written
as plain loops over one game at a time, in the order of the reducer's transitions
(``rules.py``), so that each can be read side by side with the rule it implements.

All compiled code and the constants it captures live in this one file: numba's on-disk
cache (``cache=True``) checks the stamp of the file that holds a function, not of the
files it calls into, so keeping everything here makes a stale cache impossible.

The arrays travel in named tuples, each written once here: :class:`Games` (the state of
every game), :class:`Rules` (one config's constants, built by ``_layout.py``),
:class:`Outcome` (R10-R12 per game) and :class:`Summary` (:func:`play_uniform`'s sums).
numba compiles a named tuple of arrays into a struct of the arrays: ``games.hand[g, p]``
reads the caller's array as ``hand[g, p]`` did, and the dispatcher recognises a tuple's
type in C (about a microsecond more a call than separate arrays). Handing a tuple to a
per-game function is free only because the kernels run without reference counting (see
``_OPTIONS``).
"""

from collections.abc import Callable
from typing import Any, NamedTuple, TypeAlias, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

F = TypeVar("F", bound=Callable[..., object])
#: Any numpy array: the kernels are internal, and numba checks their types when it compiles.
Array: TypeAlias = npt.NDArray[Any]


#: The kernels run without numba's reference counting (NRT): they never allocate, and the
#: arrays they get live in their callers for the whole call. With it, numba counts a
#: reference to every array handed to a per-game function at each call (an atomic
#: increment and decrement per array per game; its pruning pass removes them only in
#: straight code). That was most of the engine's time: with it, ``batch.simulate`` played
#: about 135,000 games/s when the kernels took separate arrays and 77,000 with the named
#: tuples (every array handed over); without it, about 370,000 (docs/batch.md).
#: ``_nrt`` is numba's own switch (its tests use it); a kernel that needs an allocation
#: fails to compile without it (a ``TypingError``), it does not misbehave.
_OPTIONS: dict[str, object] = {"cache": True, "nogil": True, "_nrt": False}
#: ``numba.njit`` as an untyped callable: its type stubs do not list ``_nrt``.
_njit: Callable[..., Any] = numba.njit


def _jit_inline(fn: F) -> F:
    """``_jit``, inlined into its callers by numba: the per-game functions of the hot loops
    (more games per second for the same compile time)."""
    return cast(F, _njit(inline="always", **_OPTIONS)(fn))


def _jit(fn: F) -> F:
    """``numba.njit`` with the on-disk cache and without reference counting; for mypy the
    compiled function keeps its Python signature."""
    return cast(F, _njit(**_OPTIONS)(fn))


def _jit_allocating(fn: F) -> F:
    """``_jit`` with numba's reference counting, for the one kernel that allocates
    (:func:`bid_tables`, once per config)."""
    return cast(F, numba.njit(cache=True, nogil=True)(fn))


REVEAL = 0
AUCTION = 1
DISCARD = 2
OVER = 3

# Status card indexes: the order of ``list(StatusCard)``.
LUXURY_CARDS = 10  # luxury v is index v - 1
PRESTIGE = 10
FAUX_PAS = 11
PASSE = 12
SCANDALE = 13
NUM_CARDS = 14
PASSE_PENALTY = 5

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S33 = np.uint64(33)
_POLICY_SALT = np.uint64(0x5DEECE66D)  # a game's policy stream differs from its reveals'


class Games(NamedTuple):
    """The state of ``N`` games of ``players`` seats, one row per game.

    Attributes:
        hand: ``(N, players)`` int64: money cards in hand, as bitmasks of positions in
            ``config.money`` (bit ``i`` <-> ``config.money[i]``, as in the action ids).
        table: ``(N, players)`` int64: face-up money cards, likewise; a card in neither
            is spent.
        passed: ``(N, players)`` bool: the seat passed in the current auction.
        owned: ``(N, players, 14)`` int8: how many of status card ``c`` (index in
            ``list(StatusCard)``) the seat owns.
        deck: ``(N, 14)`` int8: the cards still face down, counted likewise.
        removed: ``(N, 14)`` int8: the cards out of the game (R8), likewise.
        phase: ``(N,)`` int8: ``REVEAL``, ``AUCTION``, ``DISCARD`` or ``OVER``.
        turn: ``(N,)`` int64: the seat to act (or to start the next auction).
        auction: ``(N,)`` int64: the card on auction, ``-1`` for none.
        ending: ``(N,)`` int64: the card that ended the game (R9), ``-1`` for none.
        highest: ``(N,)`` int64: the highest bid of the current auction.
        rng: ``(N,)`` uint64: the game's own splitmix64 state, for the reveals.
    """

    hand: npt.NDArray[np.int64]
    table: npt.NDArray[np.int64]
    passed: npt.NDArray[np.bool_]
    owned: npt.NDArray[np.int8]
    deck: npt.NDArray[np.int8]
    removed: npt.NDArray[np.int8]
    phase: npt.NDArray[np.int8]
    turn: npt.NDArray[np.int64]
    auction: npt.NDArray[np.int64]
    ending: npt.NDArray[np.int64]
    highest: npt.NDArray[np.int64]
    rng: npt.NDArray[np.uint64]


def new_arrays(num_games: int, players: int) -> Games:
    """Zeroed arrays for ``num_games`` games (start them with :func:`new_games`)."""
    n, p = num_games, players
    return Games(
        hand=np.zeros((n, p), dtype=np.int64),
        table=np.zeros((n, p), dtype=np.int64),
        passed=np.zeros((n, p), dtype=np.bool_),
        owned=np.zeros((n, p, NUM_CARDS), dtype=np.int8),
        deck=np.zeros((n, NUM_CARDS), dtype=np.int8),
        removed=np.zeros((n, NUM_CARDS), dtype=np.int8),
        phase=np.zeros(n, dtype=np.int8),
        turn=np.zeros(n, dtype=np.int64),
        auction=np.zeros(n, dtype=np.int64),
        ending=np.zeros(n, dtype=np.int64),
        highest=np.zeros(n, dtype=np.int64),
        rng=np.zeros(n, dtype=np.uint64),
    )


class Rules(NamedTuple):
    """One config's constants, never written after :func:`bid_tables` fills them.

    Attributes:
        num_bids: ``2**m``: ids below are Pass and the bids, the ten ids from it discards.
        full_hand: ``2**m - 1``, every money card.
        sums: ``sums[s]``: what the money cards of position mask ``s`` add up to.
        deck0: the config's deck as counts per status card index.
        offsets, bid_totals, bid_ids: the bid table of hand ``h`` is
            ``bid_ids[offsets[h]:offsets[h + 1]]``, sorted by ``bid_totals``.
    """

    num_bids: int
    full_hand: int
    sums: npt.NDArray[np.int64]
    deck0: npt.NDArray[np.int8]
    offsets: npt.NDArray[np.int64]
    bid_totals: npt.NDArray[np.int64]
    bid_ids: npt.NDArray[np.int64]


class Outcome(NamedTuple):
    """R10-R12 per game, one row per game (``BatchResults`` gives them to the user).

    Attributes:
        scores: ``(N, players)`` float64: each seat's status.
        money: ``(N, players)`` int64: each seat's money left.
        cast_out: ``(N, players)`` bool: the seats cast out.
        winners: ``(N, players)`` bool: the winning seats.
    """

    scores: npt.NDArray[np.float64]
    money: npt.NDArray[np.int64]
    cast_out: npt.NDArray[np.bool_]
    winners: npt.NDArray[np.bool_]


def new_outcome(num_games: int, players: int) -> Outcome:
    """Arrays for the results of ``num_games`` games (filled by :func:`results`)."""
    shape = (num_games, players)
    return Outcome(
        scores=np.zeros(shape, dtype=np.float64),
        money=np.zeros(shape, dtype=np.int64),
        cast_out=np.zeros(shape, dtype=np.bool_),
        winners=np.zeros(shape, dtype=np.bool_),
    )


class Summary(NamedTuple):
    """What :func:`play_uniform` sums up over its games.

    Attributes:
        histogram: ``histogram[n]``: games of ``n`` auctions.
        wins: per seat, the games it won (alone or shared).
        cast_out: per seat, the games it was cast out of.
        counts: decisions, reveals, games with a shared win, games without a winner.
        status_total: ``[0]``: the winners' status summed over the games with a winner.
    """

    histogram: npt.NDArray[np.int64]
    wins: npt.NDArray[np.int64]
    cast_out: npt.NDArray[np.int64]
    counts: npt.NDArray[np.int64]
    status_total: npt.NDArray[np.float64]


@_jit_inline
def _splitmix(rng: Array, g: int) -> Any:
    """The next 64 random bits of game ``g``'s stream (splitmix64)."""
    z = rng[g] + _GOLDEN
    rng[g] = z
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@_jit_inline
def _below(rng: Array, g: int, n: int) -> int:
    """A number in ``0 .. n - 1`` from game ``g``'s stream, for ``1 <= n <= 2**31``.

    The top 31 bits modulo ``n``: the bias is below ``n / 2**31``, under 1e-6 for every
    ``n`` the rules produce (at most 2,048 actions or 16 cards).
    """
    return int(_splitmix(rng, g) >> _S33) % n


@_jit
def seed_streams(rng: Array, policy_rng: Array, seeds: Array) -> None:
    """Set each game's reveal stream and policy stream from its seed (one splitmix64 step
    mixes the seed)."""
    for g in range(rng.shape[0]):
        rng[g] = np.uint64(seeds[g])
        _splitmix(rng, g)
        policy_rng[g] = np.uint64(seeds[g]) ^ _POLICY_SALT
        _splitmix(policy_rng, g)


@_jit_inline
def _next_in(passed: Array, g: int, seat: int, players: int) -> int:
    """The next seat after ``seat`` that has not passed (R3: to the left, wrapping)."""
    nxt = (seat + 1) % players
    while passed[g, nxt]:
        nxt = (nxt + 1) % players
    return nxt


@_jit
def _reveal(g: int, games: Games) -> None:
    """R4, R9: chance turns a card of game ``g``'s deck face up, each card equally likely."""
    deck = games.deck
    left = 0
    for c in range(NUM_CARDS):
        left += deck[g, c]
    r = _below(games.rng, g, left)
    card = 0
    while r >= deck[g, card]:
        r -= deck[g, card]
        card += 1
    deck[g, card] -= 1
    if card in (PRESTIGE, SCANDALE) and deck[g, PRESTIGE] == 0 and deck[g, SCANDALE] == 0:
        # R9: the last dark-green card ends the game at once and goes to nobody.
        games.phase[g] = OVER
        games.ending[g] = card
        games.auction[g] = -1
    else:
        games.phase[g] = AUCTION
        games.auction[g] = card


@_jit
def reveal_due(games: Games) -> None:
    """Draw the reveal of every game that waits for one (after :meth:`set_state`)."""
    for g in range(games.phase.shape[0]):
        if games.phase[g] == REVEAL:
            _reveal(g, games)


@_jit
def _new_one(g: int, rules: Rules, games: Games) -> None:
    """Start a new game in game ``g``: ``new_game(players, config)`` (R3: seat 0 starts),
    then its first reveal."""
    for p in range(games.hand.shape[1]):
        games.hand[g, p] = rules.full_hand
        games.table[g, p] = 0
        games.passed[g, p] = False
        for c in range(NUM_CARDS):
            games.owned[g, p, c] = 0
    for c in range(NUM_CARDS):
        games.deck[g, c] = rules.deck0[c]
        games.removed[g, c] = 0
    games.phase[g] = REVEAL
    games.turn[g] = 0
    games.auction[g] = -1
    games.ending[g] = -1
    games.highest[g] = 0
    _reveal(g, games)


@_jit
def new_games(which: Array, rules: Rules, games: Games) -> None:
    """Start a new game (and reveal its first card) in every game ``g`` with ``which[g]``."""
    for g in range(which.shape[0]):
        if which[g]:
            _new_one(g, rules, games)


@_jit
def first_illegal(actions: Array, rules: Rules, games: Games) -> int:
    """The first game whose action id is not legal there, or ``-1``; changes nothing.

    A finished game accepts any id (it is ignored). ``rules.num_bids`` is ``2**m``: ids
    below it are Pass (0) and the bids, the ten ids from it are the discards.
    """
    num_bids, sums = rules.num_bids, rules.sums
    for g in range(actions.shape[0]):
        a = actions[g]
        ph = games.phase[g]
        if ph == OVER:
            continue
        seat = games.turn[g]
        if ph == AUCTION:
            if a == 0:
                continue  # the seat to act never has passed
            if (
                0 < a < num_bids
                and (a & ~games.hand[g, seat]) == 0
                and sums[games.table[g, seat]] + sums[a] > games.highest[g]
            ):
                continue
            return g
        # DISCARD
        v = a - num_bids
        if 0 <= v < LUXURY_CARDS and games.owned[g, seat, v] > 0:
            continue
        return g
    return -1


@_jit_inline
def _apply_one(g: int, a: int, rules: Rules, games: Games) -> bool:
    """Apply legal action id ``a`` to unfinished game ``g``, then draw the reveal if one is
    due; return whether the game ended."""
    hand, table, passed, owned = games.hand, games.table, games.passed, games.owned
    removed, phase, turn, highest = games.removed, games.phase, games.turn, games.highest
    sums = rules.sums
    players = hand.shape[1]
    ph = phase[g]
    seat = turn[g]
    if ph == DISCARD:
        # R8: the luxury card and the Faux Pas leave the game; the same seat starts.
        v = a - rules.num_bids
        owned[g, seat, v] -= 1
        owned[g, seat, FAUX_PAS] -= 1
        removed[g, v] += 1
        removed[g, FAUX_PAS] += 1
        phase[g] = REVEAL
    elif a != 0:
        # R5: the bid adds cards; the bidder's total is now the highest.
        hand[g, seat] ^= a
        table[g, seat] |= a
        highest[g] = sums[table[g, seat]]
        turn[g] = _next_in(passed, g, seat, players)
    else:
        card = games.auction[g]
        if card in (FAUX_PAS, PASSE, SCANDALE):
            # R7: the first pass ends it; the passer keeps their money and takes the card,
            # everyone else's face-up cards are spent.
            hand[g, seat] |= table[g, seat]
            for p in range(players):
                table[g, p] = 0
                passed[g, p] = False
            owned[g, seat, card] += 1
            luxury = 0
            for v in range(LUXURY_CARDS):
                luxury += owned[g, seat, v]
            phase[g] = DISCARD if card == FAUX_PAS and luxury > 0 else REVEAL
            games.auction[g] = -1
            highest[g] = 0
        else:
            # R6: the passer takes their cards back and is out of this round.
            hand[g, seat] |= table[g, seat]
            table[g, seat] = 0
            passed[g, seat] = True
            nxt = _next_in(passed, g, seat, players)
            if _next_in(passed, g, nxt, players) == nxt:
                # The last player in pays with their face-up cards and takes the card.
                table[g, nxt] = 0
                for p in range(players):
                    passed[g, p] = False
                if owned[g, nxt, FAUX_PAS] > 0 and card < LUXURY_CARDS:
                    # R8: a pending Faux Pas takes this luxury card at once.
                    owned[g, nxt, FAUX_PAS] -= 1
                    removed[g, FAUX_PAS] += 1
                    removed[g, card] += 1
                else:
                    owned[g, nxt, card] += 1
                phase[g] = REVEAL
                turn[g] = nxt
                games.auction[g] = -1
                highest[g] = 0
            else:
                turn[g] = nxt
                best = 0
                for p in range(players):
                    best = max(best, sums[table[g, p]])
                highest[g] = best
    if phase[g] == REVEAL:
        _reveal(g, games)
        return bool(phase[g] == OVER)
    return False


@_jit
def step(actions: Array, rules: Rules, games: Games, ended: Array) -> None:
    """Apply every game's (legal) action, then reveal wherever a reveal is due.

    ``ended[g]`` is set to whether game ``g`` ended in this step. Finished games are left
    alone. The caller has checked the actions with :func:`first_illegal`.
    """
    for g in range(actions.shape[0]):
        ended[g] = games.phase[g] != OVER and _apply_one(g, actions[g], rules, games)


@_jit
def step_where(actions: Array, where: Array, rules: Rules, games: Games, ended: Array) -> None:
    """:func:`step` in the games ``where`` selects only; the others are left as they are
    (``ended`` false)."""
    for g in range(actions.shape[0]):
        ended[g] = where[g] and games.phase[g] != OVER and _apply_one(g, actions[g], rules, games)


@_jit_inline
def _legal_bids(g: int, seat: int, rules: Rules, games: Games) -> tuple[int, int]:
    """``start, end``: the legal bids of seat ``seat`` in game ``g`` are
    ``rules.bid_ids[start:end]``.

    The legal bids of a hand are a suffix of its bid table sorted by total (R5), found by
    one bisection, so the cost is the number of legal actions, not of all ids.
    """
    h = games.hand[g, seat]
    lo = rules.offsets[h]
    hi = rules.offsets[h + 1]
    above = games.highest[g] - rules.sums[games.table[g, seat]]
    return lo + np.searchsorted(rules.bid_totals[lo:hi], above, side="right"), hi


@_jit
def legal_mask(out: Array, rules: Rules, games: Games) -> None:
    """Write every game's legal-action mask into ``out`` (``(N, num_actions)``, int8 0/1)."""
    for g in range(out.shape[0]):
        out[g, :] = 0
        ph = games.phase[g]
        if ph == OVER:
            continue
        seat = games.turn[g]
        if ph == AUCTION:
            out[g, 0] = 1
            start, end = _legal_bids(g, seat, rules, games)
            for k in range(start, end):
                out[g, rules.bid_ids[k]] = 1
        else:
            for v in range(LUXURY_CARDS):
                if games.owned[g, seat, v] > 0:
                    out[g, rules.num_bids + v] = 1


@_jit_inline
def _sample_one(g: int, rules: Rules, games: Games, rng: Array) -> int:
    """One legal action id of unfinished game ``g``, uniform among all its legal actions."""
    seat = games.turn[g]
    if games.phase[g] == AUCTION:
        start, end = _legal_bids(g, seat, rules, games)
        k = _below(rng, g, 1 + end - start)
        return 0 if k == 0 else rules.bid_ids[start + k - 1]
    owned = games.owned
    luxury = 0
    for v in range(LUXURY_CARDS):
        luxury += owned[g, seat, v]
    k = _below(rng, g, luxury)
    v = 0
    while k >= owned[g, seat, v]:
        k -= owned[g, seat, v]
        v += 1
    return rules.num_bids + v


@_jit
def sample_legal(out: Array, rules: Rules, games: Games, rng: Array) -> None:
    """Write into ``out`` one legal action id per game, uniform among all legal actions.

    Finished games get ``0``. ``rng`` is the policy's stream, not the reveals'.
    """
    for g in range(out.shape[0]):
        if games.phase[g] == OVER:
            out[g] = 0
        else:
            out[g] = _sample_one(g, rules, games, rng)


@_jit_inline
def _top_luxury(owned: Array, g: int, p: int) -> int:
    """The value of seat ``p``'s most valuable luxury card, 0 for none (R12's last tie-break)."""
    top = 0
    for v in range(LUXURY_CARDS):
        if owned[g, p, v] > 0:
            top = v + 1
    return top


@_jit_inline
def _clear_row(g: int, outcome: Outcome) -> None:
    """Zeros and ``False`` in row ``g`` of the results."""
    for p in range(outcome.scores.shape[1]):
        outcome.scores[g, p] = 0.0
        outcome.money[g, p] = 0
        outcome.cast_out[g, p] = False
        outcome.winners[g, p] = False


@_jit
def _result_one(g: int, sums: Array, games: Games, outcome: Outcome) -> None:
    """R10-R12 for finished game ``g``, written into row ``g`` of ``outcome``.

    Statuses are floats: luxury sums, doubled or halved once, are exact in binary.
    """
    owned = games.owned
    scores, money, cast_out, winners = outcome
    players = games.hand.shape[1]
    _clear_row(g, outcome)
    least = -1
    for p in range(players):
        m = sums[games.hand[g, p]] + sums[games.table[g, p]]
        money[g, p] = m
        if least < 0 or m < least:
            least = m
        luxury = 0
        for v in range(LUXURY_CARDS):
            luxury += (v + 1) * owned[g, p, v]
        value = float((luxury - PASSE_PENALTY * owned[g, p, PASSE]) << owned[g, p, PRESTIGE])
        if owned[g, p, SCANDALE] > 0:
            value /= 2.0
        scores[g, p] = value
    # R12: highest status, then most money, then the most valuable luxury card.
    best_score = 0.0
    best_money = 0
    best_top = 0
    found = False
    for p in range(players):
        if money[g, p] == least:
            cast_out[g, p] = True
            continue
        top = _top_luxury(owned, g, p)
        s = scores[g, p]
        m = money[g, p]
        if (
            not found
            or s > best_score
            or (s == best_score and (m > best_money or (m == best_money and top > best_top)))
        ):
            best_score, best_money, best_top, found = s, m, top, True
    for p in range(players):
        if cast_out[g, p]:
            continue
        top = _top_luxury(owned, g, p)
        winners[g, p] = scores[g, p] == best_score and money[g, p] == best_money and top == best_top


@_jit
def results(rules: Rules, games: Games, outcome: Outcome) -> None:
    """R10-R12 for every finished game; unfinished games get zeros and ``False``."""
    for g in range(games.phase.shape[0]):
        if games.phase[g] == OVER:
            _result_one(g, rules.sums, games, outcome)
        else:
            _clear_row(g, outcome)


@_jit_allocating
def bid_tables(rules: Rules) -> None:
    """Fill, for every hand ``h``, ``bid_ids[offsets[h]:offsets[h + 1]]`` with the non-empty
    subsets of ``h`` sorted by total, and ``bid_totals`` with their totals."""
    offsets = rules.offsets
    for h in range(offsets.shape[0] - 1):
        lo = offsets[h]
        n = offsets[h + 1] - lo
        ids = np.empty(n, dtype=np.int64)
        totals = np.empty(n, dtype=np.int64)
        k = 0
        s = h
        while s:
            ids[k] = s
            totals[k] = rules.sums[s]
            k += 1
            s = (s - 1) & h
        order = np.argsort(totals, kind="mergesort")
        for i in range(n):
            rules.bid_ids[lo + i] = ids[order[i]]
            rules.bid_totals[lo + i] = totals[order[i]]


#: The global block of an observation: phase (4), auction card (14), deck (14), removed
#: (14), highest bid (1); then one block of ``2 * m + 16`` per seat (observation-layout).
GLOBAL_SIZE = 47


@_jit
def observe(out: Array, seats: Array, m: int, games: Games) -> None:
    """Write game ``g``'s observation for seat ``seats[g]`` into ``out[g]``, in the layout of
    ``high_society.observation.observation_tensor`` (R14: every hand, seats rotated so
    that the observer comes first)."""
    for g in range(out.shape[0]):
        _observe_one(out, g, seats[g], m, games)


@_jit
def observe_rows(out: Array, rows: Array, seats: Array, m: int, games: Games) -> None:
    """:func:`observe` for the games ``rows`` only (the other rows of ``out`` are left)."""
    for g in rows:
        _observe_one(out, g, seats[g], m, games)


@_jit_inline
def _observe_one(out: Array, g: int, seat: int, m: int, games: Games) -> None:
    hand, table, owned = games.hand, games.table, games.owned
    players = hand.shape[1]
    block = 2 * m + 16
    out[g, :] = 0.0
    out[g, games.phase[g]] = 1.0
    if games.auction[g] >= 0:
        out[g, 4 + games.auction[g]] = 1.0
    for c in range(NUM_CARDS):
        out[g, 18 + c] = games.deck[g, c]
        out[g, 32 + c] = games.removed[g, c]
    out[g, 46] = games.highest[g]
    for k in range(players):
        p = (seat + k) % players
        base = GLOBAL_SIZE + k * block
        for i in range(m):
            if hand[g, p] >> i & 1:
                out[g, base + i] = 1.0
            if table[g, p] >> i & 1:
                out[g, base + m + i] = 1.0
        if games.passed[g, p]:
            out[g, base + 2 * m] = 1.0
        if games.turn[g] == p:
            out[g, base + 2 * m + 1] = 1.0
        for c in range(NUM_CARDS):
            out[g, base + 2 * m + 2 + c] = owned[g, p, c]


@_jit
def play_uniform(
    count: int,
    rules: Rules,
    games: Games,
    policy_rng: Array,
    outcome: Outcome,
    summary: Summary,
) -> None:
    """Play ``count`` uniform-random games one after the other in game 0 of ``games``, with
    the same per-game functions as :func:`step` and :func:`sample_legal`, and sum them up
    in ``summary`` (see :class:`Summary`).
    """
    players = games.hand.shape[1]
    cards = 0
    for c in range(NUM_CARDS):
        cards += rules.deck0[c]
    for _ in range(count):
        _new_one(0, rules, games)
        decisions = 0
        while games.phase[0] != OVER:
            _apply_one(0, _sample_one(0, rules, games, policy_rng), rules, games)
            decisions += 1
        left = 0
        for c in range(NUM_CARDS):
            left += games.deck[0, c]
        revealed = cards - left
        summary.histogram[revealed - 1] += 1  # the ending card is revealed, not auctioned
        summary.counts[0] += decisions
        summary.counts[1] += revealed
        _result_one(0, rules.sums, games, outcome)
        won = 0
        first = -1
        for p in range(players):
            if outcome.cast_out[0, p]:
                summary.cast_out[p] += 1
            if outcome.winners[0, p]:
                summary.wins[p] += 1
                won += 1
                if first < 0:
                    first = p
        if won > 1:
            summary.counts[2] += 1
        if won == 0:
            summary.counts[3] += 1
        else:
            summary.status_total[0] += outcome.scores[0, first]


# --- Compiled opponents -----------------------------------------------------------------------

#: Policy codes of :func:`advance`: who plays a seat.
CALLER = 0
UNIFORM = 1
HEURISTIC = 2
PASSING = 3
CHEAPEST = 4
CLASSIC = 5
CAUTIOUS = 6

#: ``HeuristicBot``'s constants (``high_society.bots``), as the compiled copy reads them.
HEURISTIC_SLACK = np.array([0.0, 8.0, 16.0, 26.0, 34.0])
HEURISTIC_LUXURY_RATE = 1.4
HEURISTIC_PRIOR_SPENDING = 10.0
HEURISTIC_NOISE = 0.1
_DRAW_SCALE = 1.0 / 9007199254740992.0  # 2**-53
_S11 = np.uint64(11)


@_jit_inline
def _draw(rng: Array, g: int) -> float:
    """A float in ``[0, 1)`` from game ``g``'s stream: the top 53 bits of the next draw."""
    return float(_splitmix(rng, g) >> _S11) * _DRAW_SCALE


@_jit_inline
def _lowest_luxury(owned: Array, g: int, seat: int) -> int:
    """The index of seat ``seat``'s lowest luxury card (it owns one)."""
    v = 0
    while owned[g, seat, v] == 0:
        v += 1
    return v


@_jit_inline
def _heuristic_price(g: int, seat: int, games: Games, boldness: float) -> float:
    """``HeuristicBot.price``: what the seat would have face up for the card on auction."""
    owned = games.owned
    card = games.auction[g]
    luxury_sum = 0
    for v in range(LUXURY_CARDS):
        luxury_sum += (v + 1) * owned[g, seat, v]
    passe = 1 if owned[g, seat, PASSE] > 0 else 0
    factor = 2.0 ** owned[g, seat, PRESTIGE] * (0.5 if owned[g, seat, SCANDALE] > 0 else 1.0)
    luxury = float(max(luxury_sum - 5 * passe, 0))
    if card < LUXURY_CARDS:
        if owned[g, seat, FAUX_PAS] > 0:
            return 0.0
        worth = HEURISTIC_LUXURY_RATE * (card + 1) * factor + 1.0
    elif card == PRESTIGE:
        worth = 10.0 + luxury * factor
    elif card == PASSE:
        worth = 5.0 * factor + 1.0
    elif card == FAUX_PAS:
        lowest = 0
        for v in range(LUXURY_CARDS - 1, -1, -1):
            if owned[g, seat, v] > 0:
                lowest = v + 1
        worth = lowest * factor + 1.0
    else:
        worth = luxury * factor / 2.0 + 1.0
    price: float = worth * boldness
    return price


@_jit_inline
def _heuristic_affordable(g: int, seat: int, new_total: int, rules: Rules, games: Games) -> bool:
    """``HeuristicBot.affordable``: paying ``new_total`` keeps the seat above the lowest
    expected final money of its opponents."""
    deck = games.deck
    ends = deck[g, PRESTIGE] + deck[g, SCANDALE]
    cards = 0
    dealt = 0
    for c in range(NUM_CARDS):
        cards += deck[g, c]
        dealt += rules.deck0[c]
    slack = HEURISTIC_SLACK[min(ends, 4)]
    left = ends * (cards + 1) / (ends + 1) - 1.0 if ends else 0.0
    sums = rules.sums
    start = sums[rules.full_hand]
    auctions = dealt - cards - (1 if games.ending[g] >= 0 else 0) + 1
    lowest = np.inf
    for p in range(games.hand.shape[1]):
        if p != seat:
            money = sums[games.hand[g, p]] + sums[games.table[g, p]]
            rate = (start - money + HEURISTIC_PRIOR_SPENDING) / auctions
            lowest = min(lowest, money - min(slack, rate * left))
    mine = sums[games.hand[g, seat]] + sums[games.table[g, seat]]
    keeps_above: bool = mine - new_total > lowest
    return keeps_above


@_jit_inline
def _heuristic_bid(
    g: int,
    seat: int,
    start: int,
    new_total: int,
    draw: float,
    boldness: float,
    rules: Rules,
    games: Games,
) -> int:
    """``HeuristicBot.choose_with(state, draw)`` in an auction of game ``g`` where ``seat``
    may bid (its legal bids start at ``start``; the cheapest makes ``new_total``)."""
    price = _heuristic_price(g, seat, games, boldness) * (
        1.0 + HEURISTIC_NOISE * (2.0 * draw - 1.0)
    )
    if new_total > price or not _heuristic_affordable(g, seat, new_total, rules, games):
        return 0
    # The bid table lists a total's card sets largest id first: the cheapest bid of the
    # largest id, as HeuristicBot picks.
    bid: int = rules.bid_ids[start]
    return bid


@_jit_inline
def _first_cheapest(start: int, end: int, rules: Rules) -> int:
    """The bid that ``legal_actions(state).bids()[0]`` is: of the cheapest legal total, the
    first by cards in ascending order. Of two card sets of one total, that is the one
    holding the lowest card they do not share (the lowest differing bit of their ids)."""
    ids, totals = rules.bid_ids, rules.bid_totals
    best = ids[start]
    k = start + 1
    while k < end and totals[k] == totals[start]:
        other = ids[k]
        differ = best ^ other
        if other & (differ & -differ):
            best = other
        k += 1
    first: int = best
    return first


@_jit_inline
def _luxury_sum(owned: Array, g: int, seat: int) -> int:
    total = 0
    for v in range(LUXURY_CARDS):
        total += (v + 1) * owned[g, seat, v]
    return total


@_jit_inline
def _poorest_other(g: int, seat: int, rules: Rules, games: Games) -> int:
    """The least money of the seats other than ``seat``."""
    sums = rules.sums
    poorest = -1
    for p in range(games.hand.shape[1]):
        if p != seat:
            money = sums[games.hand[g, p]] + sums[games.table[g, p]]
            if poorest < 0 or money < poorest:
                poorest = money
    return poorest


#: ``ClassicHeuristicBot``'s slack below the poorest opponent, by dark-green cards left.
CLASSIC_SLACK = np.array([0, 6, 14, 24, 30])


@_jit_inline
def _classic_bid(
    g: int,
    seat: int,
    start: int,
    end: int,
    new_total: int,
    draw: float,
    boldness: float,
    rules: Rules,
    games: Games,
) -> int:
    """``ClassicHeuristicBot.choose_with(state, draw)`` in an auction where ``seat`` may bid
    (its legal bids are ``start:end``; the cheapest makes ``new_total``)."""
    owned, sums = games.owned, rules.sums
    noise = (0.8 + (1.2 - 0.8) * draw) * boldness
    card = games.auction[g]
    luxury_sum = _luxury_sum(owned, g, seat)
    if card < LUXURY_CARDS:
        price = 0.0 if owned[g, seat, FAUX_PAS] > 0 else (2.0 * (card + 1) + 2.0) * noise
    elif card == PRESTIGE:
        price = (14.0 + 1.2 * luxury_sum) * noise
    elif card == PASSE:
        price = 6.0 * noise
    elif card == FAUX_PAS:
        lowest = 2
        for v in range(LUXURY_CARDS - 1, -1, -1):
            if owned[g, seat, v] > 0:
                lowest = v + 1
        price = (2.0 + lowest) * noise
    else:
        factor = 1 << owned[g, seat, PRESTIGE]
        price = (4.0 + 0.5 * luxury_sum * factor) * noise
    if new_total > price:
        return 0
    ends = games.deck[g, PRESTIGE] + games.deck[g, SCANDALE]
    slack = CLASSIC_SLACK[min(ends, 4)]
    mine = sums[games.hand[g, seat]] + sums[games.table[g, seat]]
    if mine - new_total < _poorest_other(g, seat, rules, games) - slack:
        return 0
    return _first_cheapest(start, end, rules)


@_jit_inline
def _cautious_bid(
    g: int,
    seat: int,
    start: int,
    end: int,
    new_total: int,
    draw: float,
    rules: Rules,
    games: Games,
) -> int:
    """``CautiousBot.choose_with(state, draw)`` in an auction where ``seat`` may bid (its
    legal bids are ``start:end``; the cheapest makes ``new_total``)."""
    owned, sums = games.owned, rules.sums
    card = games.auction[g]
    if card < LUXURY_CARDS:
        price = 0.0 if owned[g, seat, FAUX_PAS] > 0 else 1.2 * (card + 1)
    elif card == PRESTIGE:
        price = 8.0 + 0.8 * _luxury_sum(owned, g, seat)
    else:
        price = 3.0
    price *= 0.9 + 0.2 * draw
    mine = sums[games.hand[g, seat]] + sums[games.table[g, seat]]
    after = mine - new_total
    if (
        new_total > price
        or after < 0.6 * sums[rules.full_hand]
        or after <= _poorest_other(g, seat, rules, games)
    ):
        return 0
    return _first_cheapest(start, end, rules)


@_jit_inline
def _policy_one(
    g: int, policy: int, draw: float, boldness: float, rules: Rules, games: Games, rng: Array
) -> int:
    """The action id of compiled ``policy`` in unfinished game ``g``. Every policy but the
    uniform one discards its lowest luxury card for Faux Pas and passes without a legal
    bid; only an auction with a legal bid is theirs to decide."""
    if policy == UNIFORM:
        return _sample_one(g, rules, games, rng)
    seat = games.turn[g]
    if games.phase[g] == DISCARD:
        return rules.num_bids + _lowest_luxury(games.owned, g, seat)
    if policy == PASSING:
        return 0
    start, end = _legal_bids(g, seat, rules, games)
    if start == end:
        return 0
    new_total = rules.sums[games.table[g, seat]] + rules.bid_totals[start]
    if policy == HEURISTIC:
        return _heuristic_bid(g, seat, start, new_total, draw, boldness, rules, games)
    if policy == CLASSIC:
        return _classic_bid(g, seat, start, end, new_total, draw, boldness, rules, games)
    if policy == CAUTIOUS:
        return _cautious_bid(g, seat, start, end, new_total, draw, rules, games)
    cheapest: int = rules.bid_ids[start]  # CHEAPEST
    return cheapest


@_jit
def policy_actions(
    out: Array, policy: int, draws: Array, boldness: float, rules: Rules, games: Games, rng: Array
) -> None:
    """Write into ``out`` the action id that ``policy`` plays in each game (``0`` in
    finished games). ``draws[g]`` is the heuristic's draw in game ``g``, or when ``draws``
    is empty, the draw comes from the game's policy stream ``rng``."""
    given = draws.shape[0] > 0
    for g in range(out.shape[0]):
        if games.phase[g] == OVER:
            out[g] = 0
            continue
        draw = 0.5
        if policy in (HEURISTIC, CLASSIC, CAUTIOUS):
            draw = draws[g] if given else _draw(rng, g)
        out[g] = _policy_one(g, policy, draw, boldness, rules, games, rng)


@_jit
def advance(
    policies: Array, boldness: Array, rules: Rules, games: Games, rng: Array, ended: Array
) -> None:
    """Play every game until a seat of policy ``CALLER`` must act or the game is over;
    ``policies[g, p]`` is who plays seat ``p`` of game ``g``, with ``boldness[g, p]``.
    ``ended[g]`` is set when game ``g`` ended here (a finished game stays as it is,
    ``ended[g]`` false)."""
    for g in range(policies.shape[0]):
        ended[g] = False
        while games.phase[g] != OVER:
            policy = policies[g, games.turn[g]]
            if policy == CALLER:
                break
            draw = _draw(rng, g) if policy in (HEURISTIC, CLASSIC, CAUTIOUS) else 0.5
            seat = games.turn[g]
            a = _policy_one(g, policy, draw, boldness[g, seat], rules, games, rng)
            if _apply_one(g, a, rules, games):
                ended[g] = True


@_jit
def sample_masked(out: Array, logits: Array, mask: Array, rng: Array) -> None:
    """Write into ``out[g]`` an action id drawn from the softmax of ``logits[g]`` over the
    ids that ``mask[g]`` allows (``0`` where none is allowed, as in a finished game)."""
    for g in range(out.shape[0]):
        top = -np.inf
        for a in range(logits.shape[1]):
            if mask[g, a] and logits[g, a] > top:
                top = logits[g, a]
        if top == -np.inf:
            out[g] = 0
            # A finished game's row, or logits all -inf: the first allowed id, if any.
            for a in range(logits.shape[1]):
                if mask[g, a]:
                    out[g] = a
                    break
            continue
        total = 0.0
        for a in range(logits.shape[1]):
            if mask[g, a]:
                total += np.exp(logits[g, a] - top)
        r = _draw(rng, g) * total
        chosen = -1
        for a in range(logits.shape[1]):
            if mask[g, a]:
                chosen = a
                r -= np.exp(logits[g, a] - top)
                if r < 0.0:
                    break
        out[g] = chosen

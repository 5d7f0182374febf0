"""The batch engine's compiled loops: the rules over arrays, one game per row.

Every function here is compiled by numba (``njit``) and works on the arrays of
:class:`~high_society.batch.GameBatch`; nothing here allocates per step. They are written
as plain loops over one game at a time, in the order of the reducer's transitions
(``rules.py``), so that each can be read side by side with the rule it implements.

All compiled code and the constants it captures live in this one file: numba's on-disk
cache (``cache=True``) checks the stamp of the file that holds a function, not of the
files it calls into, so keeping everything here makes a stale cache impossible.

Layout (see ``_tables.py`` for the constants):

- ``hand[g, p]``, ``table[g, p]``: money cards as bitmasks of positions in
  ``config.money`` (bit ``i`` <-> ``config.money[i]``, as in the action ids); a card in
  neither is spent.
- ``passed[g, p]``: the seat passed in the current auction.
- ``owned[g, p, c]``: how many of status card ``c`` (index in ``list(StatusCard)``) the
  seat owns; ``deck[g, c]`` and ``removed[g, c]`` likewise.
- ``phase[g]``: ``REVEAL``, ``AUCTION``, ``DISCARD`` or ``OVER``; ``turn[g]``,
  ``auction[g]`` (``-1`` for none), ``ending[g]`` (``-1`` for none), ``highest[g]``.
- ``rng[g]``: the game's own splitmix64 state, for the reveals.
"""

from collections.abc import Callable
from typing import Any, TypeAlias, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

F = TypeVar("F", bound=Callable[..., object])
#: Any numpy array: the kernels are internal, and numba checks their types when it compiles.
Array: TypeAlias = npt.NDArray[Any]


def _jit_inline(fn: F) -> F:
    """``_jit``, inlined into its callers by numba: the per-game functions of the hot loops
    (about 25% more games per second for the same compile time)."""
    return cast(F, numba.njit(cache=True, nogil=True, inline="always")(fn))


def _jit(fn: F) -> F:
    """``numba.njit`` with the on-disk cache, typed for mypy (numba itself is untyped)."""
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
def seed_streams(rng: Array, seeds: Array) -> None:
    """Set each game's stream from its seed (one splitmix64 step mixes the seed)."""
    for g in range(rng.shape[0]):
        rng[g] = np.uint64(seeds[g])
        _splitmix(rng, g)


@_jit_inline
def _next_in(passed: Array, g: int, seat: int, players: int) -> int:
    """The next seat after ``seat`` that has not passed (R3: to the left, wrapping)."""
    nxt = (seat + 1) % players
    while passed[g, nxt]:
        nxt = (nxt + 1) % players
    return nxt


@_jit
def _reveal(
    g: int,
    deck: Array,
    phase: Array,
    auction: Array,
    ending: Array,
    rng: Array,
) -> None:
    """R4, R9: chance turns a card of game ``g``'s deck face up, each card equally likely."""
    left = 0
    for c in range(NUM_CARDS):
        left += deck[g, c]
    r = _below(rng, g, left)
    card = 0
    while r >= deck[g, card]:
        r -= deck[g, card]
        card += 1
    deck[g, card] -= 1
    if card in (PRESTIGE, SCANDALE) and deck[g, PRESTIGE] == 0 and deck[g, SCANDALE] == 0:
        # R9: the last dark-green card ends the game at once and goes to nobody.
        phase[g] = OVER
        ending[g] = card
        auction[g] = -1
    else:
        phase[g] = AUCTION
        auction[g] = card


@_jit
def reveal_due(
    deck: Array,
    phase: Array,
    auction: Array,
    ending: Array,
    rng: Array,
) -> None:
    """Draw the reveal of every game that waits for one (after :meth:`set_state`)."""
    for g in range(phase.shape[0]):
        if phase[g] == REVEAL:
            _reveal(g, deck, phase, auction, ending, rng)


@_jit
def _new_one(
    g: int,
    full_hand: int,
    deck0: Array,
    hand: Array,
    table: Array,
    passed: Array,
    owned: Array,
    deck: Array,
    removed: Array,
    phase: Array,
    turn: Array,
    auction: Array,
    ending: Array,
    highest: Array,
    rng: Array,
) -> None:
    """Start a new game in game ``g``: ``new_game(players, config)`` (R3: seat 0 starts),
    then its first reveal."""
    for p in range(hand.shape[1]):
        hand[g, p] = full_hand
        table[g, p] = 0
        passed[g, p] = False
        for c in range(NUM_CARDS):
            owned[g, p, c] = 0
    for c in range(NUM_CARDS):
        deck[g, c] = deck0[c]
        removed[g, c] = 0
    phase[g] = REVEAL
    turn[g] = 0
    auction[g] = -1
    ending[g] = -1
    highest[g] = 0
    _reveal(g, deck, phase, auction, ending, rng)


@_jit
def new_games(
    which: Array,
    full_hand: int,
    deck0: Array,
    hand: Array,
    table: Array,
    passed: Array,
    owned: Array,
    deck: Array,
    removed: Array,
    phase: Array,
    turn: Array,
    auction: Array,
    ending: Array,
    highest: Array,
    rng: Array,
) -> None:
    """Start a new game (and reveal its first card) in every game ``g`` with ``which[g]``."""
    for g in range(which.shape[0]):
        if which[g]:
            _new_one(
                g,
                full_hand,
                deck0,
                hand,
                table,
                passed,
                owned,
                deck,
                removed,
                phase,
                turn,
                auction,
                ending,
                highest,
                rng,
            )


@_jit
def first_illegal(
    actions: Array,
    num_bids: int,
    sums: Array,
    hand: Array,
    table: Array,
    owned: Array,
    phase: Array,
    turn: Array,
    highest: Array,
) -> int:
    """The first game whose action id is not legal there, or ``-1``; changes nothing.

    A finished game accepts any id (it is ignored). ``num_bids`` is ``2**m``: ids below it
    are Pass (0) and the bids, the ten ids from it are the discards.
    """
    for g in range(actions.shape[0]):
        a = actions[g]
        ph = phase[g]
        if ph == OVER:
            continue
        seat = turn[g]
        if ph == AUCTION:
            if a == 0:
                continue  # the seat to act never has passed
            if (
                0 < a < num_bids
                and (a & ~hand[g, seat]) == 0
                and sums[table[g, seat]] + sums[a] > highest[g]
            ):
                continue
            return g
        # DISCARD
        v = a - num_bids
        if 0 <= v < LUXURY_CARDS and owned[g, seat, v] > 0:
            continue
        return g
    return -1


@_jit_inline
def _apply_one(
    g: int,
    a: int,
    num_bids: int,
    sums: Array,
    hand: Array,
    table: Array,
    passed: Array,
    owned: Array,
    deck: Array,
    removed: Array,
    phase: Array,
    turn: Array,
    auction: Array,
    ending: Array,
    highest: Array,
    rng: Array,
) -> bool:
    """Apply legal action id ``a`` to unfinished game ``g``, then draw the reveal if one is
    due; return whether the game ended."""
    players = hand.shape[1]
    ph = phase[g]
    seat = turn[g]
    if ph == DISCARD:
        # R8: the luxury card and the Faux Pas leave the game; the same seat starts.
        v = a - num_bids
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
        card = auction[g]
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
            auction[g] = -1
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
                auction[g] = -1
                highest[g] = 0
            else:
                turn[g] = nxt
                best = 0
                for p in range(players):
                    best = max(best, sums[table[g, p]])
                highest[g] = best
    if phase[g] == REVEAL:
        _reveal(g, deck, phase, auction, ending, rng)
        return bool(phase[g] == OVER)
    return False


@_jit
def step(
    actions: Array,
    num_bids: int,
    sums: Array,
    hand: Array,
    table: Array,
    passed: Array,
    owned: Array,
    deck: Array,
    removed: Array,
    phase: Array,
    turn: Array,
    auction: Array,
    ending: Array,
    highest: Array,
    rng: Array,
    ended: Array,
) -> None:
    """Apply every game's (legal) action, then reveal wherever a reveal is due.

    ``ended[g]`` is set to whether game ``g`` ended in this step. Finished games are left
    alone. The caller has checked the actions with :func:`first_illegal`.
    """
    for g in range(actions.shape[0]):
        ended[g] = phase[g] != OVER and _apply_one(
            g,
            actions[g],
            num_bids,
            sums,
            hand,
            table,
            passed,
            owned,
            deck,
            removed,
            phase,
            turn,
            auction,
            ending,
            highest,
            rng,
        )


@_jit
def legal_mask(
    out: Array,
    num_bids: int,
    sums: Array,
    offsets: Array,
    bid_totals: Array,
    bid_ids: Array,
    hand: Array,
    table: Array,
    owned: Array,
    phase: Array,
    turn: Array,
    highest: Array,
) -> None:
    """Write every game's legal-action mask into ``out`` (``(N, num_actions)``, bool).

    The legal bids of a hand are a suffix of its bid table sorted by total (R5), found by
    one bisection, so the cost is the number of legal actions, not of all ids.
    """
    for g in range(out.shape[0]):
        out[g, :] = False
        ph = phase[g]
        if ph == OVER:
            continue
        seat = turn[g]
        if ph == AUCTION:
            out[g, 0] = True
            h = hand[g, seat]
            lo = offsets[h]
            hi = offsets[h + 1]
            above = highest[g] - sums[table[g, seat]]
            start = lo + np.searchsorted(bid_totals[lo:hi], above, side="right")
            for k in range(start, hi):
                out[g, bid_ids[k]] = True
        else:
            for v in range(LUXURY_CARDS):
                if owned[g, seat, v] > 0:
                    out[g, num_bids + v] = True


@_jit_inline
def _sample_one(
    g: int,
    num_bids: int,
    sums: Array,
    offsets: Array,
    bid_totals: Array,
    bid_ids: Array,
    hand: Array,
    table: Array,
    owned: Array,
    phase: Array,
    turn: Array,
    highest: Array,
    rng: Array,
) -> int:
    """One legal action id of unfinished game ``g``, uniform among all its legal actions."""
    seat = turn[g]
    if phase[g] == AUCTION:
        h = hand[g, seat]
        lo = offsets[h]
        hi = offsets[h + 1]
        above = highest[g] - sums[table[g, seat]]
        start = lo + np.searchsorted(bid_totals[lo:hi], above, side="right")
        k = _below(rng, g, 1 + hi - start)
        return 0 if k == 0 else bid_ids[start + k - 1]
    luxury = 0
    for v in range(LUXURY_CARDS):
        luxury += owned[g, seat, v]
    k = _below(rng, g, luxury)
    v = 0
    while k >= owned[g, seat, v]:
        k -= owned[g, seat, v]
        v += 1
    return num_bids + v


@_jit
def sample_legal(
    out: Array,
    num_bids: int,
    sums: Array,
    offsets: Array,
    bid_totals: Array,
    bid_ids: Array,
    hand: Array,
    table: Array,
    owned: Array,
    phase: Array,
    turn: Array,
    highest: Array,
    rng: Array,
) -> None:
    """Write into ``out`` one legal action id per game, uniform among all legal actions.

    Finished games get ``0``. ``rng`` is the policy's stream, not the reveals'.
    """
    for g in range(out.shape[0]):
        if phase[g] == OVER:
            out[g] = 0
        else:
            out[g] = _sample_one(
                g,
                num_bids,
                sums,
                offsets,
                bid_totals,
                bid_ids,
                hand,
                table,
                owned,
                phase,
                turn,
                highest,
                rng,
            )


@_jit
def _result_one(
    g: int,
    sums: Array,
    hand: Array,
    table: Array,
    owned: Array,
    scores: Array,
    money: Array,
    cast_out: Array,
    winners: Array,
) -> None:
    """R10-R12 for finished game ``g``, written into row ``g`` of the four outputs.

    Statuses are floats: luxury sums, doubled or halved once, are exact in binary.
    """
    players = hand.shape[1]
    for p in range(players):
        scores[g, p] = 0.0
        money[g, p] = 0
        cast_out[g, p] = False
        winners[g, p] = False
    least = -1
    for p in range(players):
        m = sums[hand[g, p]] + sums[table[g, p]]
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
        top = 0
        for v in range(LUXURY_CARDS):
            if owned[g, p, v] > 0:
                top = v + 1
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
        top = 0
        for v in range(LUXURY_CARDS):
            if owned[g, p, v] > 0:
                top = v + 1
        winners[g, p] = scores[g, p] == best_score and money[g, p] == best_money and top == best_top


@_jit
def results(
    sums: Array,
    hand: Array,
    table: Array,
    owned: Array,
    phase: Array,
    scores: Array,
    money: Array,
    cast_out: Array,
    winners: Array,
) -> None:
    """R10-R12 for every finished game; unfinished games get zeros and ``False``."""
    for g in range(hand.shape[0]):
        if phase[g] == OVER:
            _result_one(g, sums, hand, table, owned, scores, money, cast_out, winners)
        else:
            for p in range(hand.shape[1]):
                scores[g, p] = 0.0
                money[g, p] = 0
                cast_out[g, p] = False
                winners[g, p] = False


@_jit
def bid_tables(
    sums: Array,
    offsets: Array,
    bid_totals: Array,
    bid_ids: Array,
) -> None:
    """Fill, for every hand ``h``, ``bid_ids[offsets[h]:offsets[h + 1]]`` with the non-empty
    subsets of ``h`` sorted by total, and ``bid_totals`` with their totals."""
    for h in range(offsets.shape[0] - 1):
        lo = offsets[h]
        n = offsets[h + 1] - lo
        ids = np.empty(n, dtype=np.int64)
        totals = np.empty(n, dtype=np.int64)
        k = 0
        s = h
        while s:
            ids[k] = s
            totals[k] = sums[s]
            k += 1
            s = (s - 1) & h
        order = np.argsort(totals, kind="mergesort")
        for i in range(n):
            bid_ids[lo + i] = ids[order[i]]
            bid_totals[lo + i] = totals[order[i]]


#: The global block of an observation: phase (4), auction card (14), deck (14), removed
#: (14), highest bid (1); then one block of ``2 * m + 16`` per seat (observation-layout).
GLOBAL_SIZE = 47


@_jit
def observe(
    out: Array,
    seats: Array,
    m: int,
    hand: Array,
    table: Array,
    passed: Array,
    owned: Array,
    deck: Array,
    removed: Array,
    phase: Array,
    turn: Array,
    auction: Array,
    highest: Array,
) -> None:
    """Write game ``g``'s observation for seat ``seats[g]`` into ``out[g]``, in the layout of
    ``high_society.observation.observation_tensor`` (R14: every hand, seats rotated so
    that the observer comes first)."""
    players = hand.shape[1]
    block = 2 * m + 16
    for g in range(out.shape[0]):
        out[g, :] = 0.0
        out[g, phase[g]] = 1.0
        if auction[g] >= 0:
            out[g, 4 + auction[g]] = 1.0
        for c in range(NUM_CARDS):
            out[g, 18 + c] = deck[g, c]
            out[g, 32 + c] = removed[g, c]
        out[g, 46] = highest[g]
        for k in range(players):
            p = (seats[g] + k) % players
            base = GLOBAL_SIZE + k * block
            for i in range(m):
                if hand[g, p] >> i & 1:
                    out[g, base + i] = 1.0
                if table[g, p] >> i & 1:
                    out[g, base + m + i] = 1.0
            if passed[g, p]:
                out[g, base + 2 * m] = 1.0
            if turn[g] == p:
                out[g, base + 2 * m + 1] = 1.0
            for c in range(NUM_CARDS):
                out[g, base + 2 * m + 2 + c] = owned[g, p, c]


@_jit
def play_uniform(
    games: int,
    full_hand: int,
    deck0: Array,
    num_bids: int,
    sums: Array,
    offsets: Array,
    bid_totals: Array,
    bid_ids: Array,
    hand: Array,
    table: Array,
    passed: Array,
    owned: Array,
    deck: Array,
    removed: Array,
    phase: Array,
    turn: Array,
    auction: Array,
    ending: Array,
    highest: Array,
    rng: Array,
    policy_rng: Array,
    scores: Array,
    money: Array,
    cast_out: Array,
    winners: Array,
    histogram: Array,
    wins: Array,
    cast_out_counts: Array,
    counts: Array,
    status_total: Array,
) -> None:
    """Play ``games`` uniform-random games one after the other in game 0 of the arrays,
    with the same per-game functions as :func:`step` and :func:`sample_legal`, and sum
    them up: ``histogram[n]`` games of ``n`` auctions, ``wins`` and ``cast_out_counts`` per
    seat, ``counts`` = decisions, reveals, shared wins, games without a winner, and
    ``status_total[0]`` the winners' status summed over games with a winner.
    """
    players = hand.shape[1]
    cards = 0
    for c in range(NUM_CARDS):
        cards += deck0[c]
    for _ in range(games):
        _new_one(
            0,
            full_hand,
            deck0,
            hand,
            table,
            passed,
            owned,
            deck,
            removed,
            phase,
            turn,
            auction,
            ending,
            highest,
            rng,
        )
        decisions = 0
        while phase[0] != OVER:
            a = _sample_one(
                0,
                num_bids,
                sums,
                offsets,
                bid_totals,
                bid_ids,
                hand,
                table,
                owned,
                phase,
                turn,
                highest,
                policy_rng,
            )
            _apply_one(
                0,
                a,
                num_bids,
                sums,
                hand,
                table,
                passed,
                owned,
                deck,
                removed,
                phase,
                turn,
                auction,
                ending,
                highest,
                rng,
            )
            decisions += 1
        left = 0
        for c in range(NUM_CARDS):
            left += deck[0, c]
        revealed = cards - left
        histogram[revealed - 1] += 1  # the ending card is revealed, not auctioned
        counts[0] += decisions
        counts[1] += revealed
        _result_one(0, sums, hand, table, owned, scores, money, cast_out, winners)
        won = 0
        first = -1
        for p in range(players):
            if cast_out[0, p]:
                cast_out_counts[p] += 1
            if winners[0, p]:
                wins[p] += 1
                won += 1
                if first < 0:
                    first = p
        if won > 1:
            counts[2] += 1
        if won == 0:
            counts[3] += 1
        else:
            status_total[0] += scores[0, first]

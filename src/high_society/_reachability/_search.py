"""The search's driver: which searches run, with how much work each (internal).

The state may leave open who took Faux Pas (out of the game with a luxury card) and who
started the running auction: each pair is a search of its own. Each pair is first tried
with an equal share of a quarter of the work, then the pairs left open again in turn, each
share twice the one before, so that one pair whose orders are many to refute does not use
up the work another would decide with (what a pair refuted stays known: each Faux Pas taker
has one ``Order`` for all its tries).

Within a try, a first pass caps the work of each ``settle`` (:data:`SETTLE_FIRST`) and takes
at most :data:`FIRST_SHARE` eighths of the work, so that an end whose payments are many to
refute does not use up the work an easy witness elsewhere needs. The ends it cut short are
then settled in turn with caps growing (:data:`DEEPER`), then none; once one fits, a second
pass finds its history. If none fits, a first pass that ended stands.
"""

import functools
from typing import NamedTuple

from high_society._reachability._meter import CutShort, Meter, Undecided
from high_society._reachability._money import Spent
from high_society._reachability._order import Order, Pass
from high_society._reachability._rounds import PastRound, Position, rounds_of
from high_society._reachability._running import auction_starters
from high_society._reachability._settle import witness
from high_society.cards import StatusCard
from high_society.state import GameState, Phase

#: How many units of work (positions visited plus payments tried) :func:`find_history`
#: may spend before it gives up with :class:`Undecided`.
WORK_LIMIT = 50_000
#: The work each ``settle`` may take in the first pass.
SETTLE_FIRST = 500
#: The eighths of its work the first pass may take, and the caps on each ``settle`` the
#: ends it cut short are then tried with, in turn (then none).
FIRST_SHARE = 7
DEEPER = (2_000, 8_000)

_UNDECIDED = "undecided"
_Seats = tuple[tuple[frozenset[int], tuple[StatusCard, ...]], ...]
_Key = tuple[tuple[int, ...], _Seats, tuple[StatusCard, ...], tuple[int, ...], bool]


def find_history(state: GameState, limit: int = WORK_LIMIT) -> list[PastRound] | None:
    """The completed rounds of a game that leads to ``state``, earliest first, or None if
    no game does. ``state`` must already satisfy every other check of
    :func:`~high_society.invariants.state_problems` (cards in place, the phase's rules).

    Only the seats' status cards and spent money, the cards out of the game and who may
    have started the current round matter, and they change once a round: every state of
    one auction asks the same question, so the answers are cached.

    Raises:
        Undecided: the search needed more than ``limit`` units of work.
    """
    phase = state.phase
    starters = auction_starters(state) if phase is Phase.AUCTION else [state.turn]
    seats = tuple((p.spent, p.status_cards) for p in state.players)
    key = (state.config.money, seats, state.removed, tuple(starters), phase is Phase.DISCARD)
    found = _search(key, limit)
    if found is _UNDECIDED:
        raise Undecided
    assert not isinstance(found, str)
    return None if found is None else list(found)


def clear_cache() -> None:
    """Forget the answers :func:`find_history` cached (for measurements)."""
    _search.cache_clear()


class _Try(NamedTuple):
    """One Faux Pas taker's search: its money, its meter, its round-ordering stage."""

    spent: Spent
    meter: Meter
    order: Order


@functools.lru_cache(maxsize=256)
def _search(key: _Key, limit: int) -> tuple[PastRound, ...] | str | None:
    money, seats, removed, starters, discarding = key
    spent_money = tuple(spent for spent, _ in seats)
    owned = tuple(cards for _, cards in seats)
    takers = list(range(len(seats))) if StatusCard.FAUX_PAS in removed else [None]
    searches = []
    for lost_by in takers:
        spent = Spent.of(money, spent_money, lost_by)
        meter = Meter(money, limit)
        searches.append(_Try(spent, meter, Order(spent, rounds_of(owned, lost_by), meter)))
    tries = [(search, s_next) for search in searches for s_next in starters]
    share = limit // (4 * len(tries)) if len(tries) > 1 else limit
    while tries:
        left_open = []
        for search, s_next in tries:
            work = min(share, limit - sum(s.meter.work for s in searches))
            if work <= 0:
                return _UNDECIDED
            found = _search_from(search, s_next, discarding, search.meter.work + work)
            if found == _UNDECIDED:
                left_open.append((search, s_next))
            elif found is not None:
                return found
        tries = left_open
        share *= 2
    return None


def _search_from(
    search: _Try, s_next: int, discarding: bool, limit: int
) -> tuple[PastRound, ...] | str | None:
    """The history ``search`` finds from ``s_next`` within ``limit`` units of its work
    (counted from its start), None if there is none, or ``_UNDECIDED``."""
    meter, order = search.meter, search.order
    start = order.start(s_next)
    first = Pass(SETTLE_FIRST, [])
    meter.limit = meter.stop = meter.work + (limit - meter.work) * FIRST_SHARE // 8
    try:
        found = order.search(start, first, faux_pas_last=discarding)
        ended = True
    except Undecided:
        found, ended = None, False
    meter.limit = meter.stop = limit
    try:
        cut = first.cut
        for cap in (*DEEPER, None):
            if found is not None or not cut:
                break
            again = Pass(cap, [])
            if any(_fits(order, at, again) for at in cut):
                found = order.search(start, again, faux_pas_last=discarding)
                break
            cut = again.cut
    except Undecided:
        return _UNDECIDED
    if found is None:
        return None if ended else _UNDECIDED
    rounds, settled = found
    return tuple(witness(search.spent, rounds, settled))


def _fits(order: Order, at: Position, run: Pass) -> bool:
    """Whether the end ``at`` settles within the pass's cap (cut short: it joins
    ``run.cut``)."""
    try:
        return order.settle.settle(at, run.cap) is not None
    except CutShort:
        run.cut.append(at)
        return False

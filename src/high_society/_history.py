"""Whether some game leads to a state: a search over the rounds already played (internal).

A state keeps each seat's status cards in canonical order and its spent money as a set, so
the order of the past auctions and who paid what in each are not in it. :func:`find_history`
searches for them. It works backward from the state: the round to take back is one won by
the seat that started the round after it (R6, R7), its own starter is any seat that took
an earlier card (seat 0 for the first round, R3), and its payments come out of the
payers' spent money. A history is found exactly when the state is reachable, for the
search follows what each kind of round can do (docs/verification.md derives each case):

- **Normal auction** (R6), won by ``w`` and started by ``s``: ``w`` pays any non-empty
  set of its money, or nothing when ``w`` is the seat before ``s`` (everyone else passed
  first). That seat, acting last, can pay only if some other seat first bid below its
  payment: a card that other seat held then.
- **Disgrace auction** (R7), taken by ``p`` and started by ``s``: every action before the
  pass is a bid. Either the seats from ``s`` up to ``p`` bid once each, totals rising, and
  pay (no lap); or every seat acted (a lap): all seats but ``p`` pay, their totals rising
  from the seat after ``p``; the seats from ``s`` up to ``p`` bid twice, first a part of
  their payment (rising), then ``p`` bid from its own hand below the first payment. More
  laps only add bids to rise above, so one is enough.
- **Faux Pas** (R8): the luxury card out of the game was won by the seat that took Faux
  Pas, either before it (and discarded for it) or as that seat's first luxury card after.

Payments are decided as late as they can be. A normal auction paid for with no bound on
its price only needs one card of the winner's: the search counts it (an open payment) and
gives out the winner's cards left at the end (``settle``), each open payment at least
one. Payments with a bound (a disgrace auction's rising totals; the least price above a
lower bid) are chosen as sets when their round is taken back (for a price above a lower
bid, a least set, which the end may add to), only among the sets the rest of the history
leaves possible (``budgets``: each seat keeps a card for each payment still to make; the
seats after a payer can still rise; a seat that bids twice has a part to bid first). A
seat's hand at the time of a round is its
money less what it paid before: less what the search has not yet given to a later round
(its pool). A card still in the pool then may really have been paid later in an open
payment: where a hand needs such a card (the lower bid, the taker's bid in a lap), the
search keeps it out of the pool for one of the seat's later normal auctions, which the end
checks. So the hands are exact, and the search is exact: it finds a history exactly when
the state is reachable. A history found is a witness: :func:`history_actions` turns it
into actions, and the tests replay them through the rules to the state.

The search memoises the positions it has refuted and counts its work; past
:data:`WORK_LIMIT` units (at most about 0.1 s measured, docs/verification.md) it stops and
says so (:class:`Undecided`), so that hostile input costs bounded time. The answer is then "not
refuted": callers accept the state, never refusing a reachable one. On the explored games
the search always ends within the limit; on standard games it may not (the state's cards
then allow too many orders and payments to try: docs/verification.md gives the figures).
"""

import bisect
import functools
import itertools
from collections.abc import Callable, Iterator
from typing import NamedTuple, TypeVar

import attrs

from high_society.actions import Action, Bid, Discard, Pass, Reveal
from high_society.cards import StatusCard
from high_society.state import GameState, Phase

__all__ = [
    "WORK_LIMIT",
    "PastRound",
    "Undecided",
    "auction_starters",
    "clear_cache",
    "current_partials",
    "find_history",
    "greedy_partials",
    "history_actions",
]

#: How many units of work (positions visited plus payments tried) :func:`find_history`
#: may spend before it gives up with :class:`Undecided`.
WORK_LIMIT = 20_000

_T = TypeVar("_T")
_FP = StatusCard.FAUX_PAS
_PASSE = StatusCard.PASSE
_SCANDALE = StatusCard.SCANDALE
#: The kinds of normal rounds: a luxury card kept, a prestige card, the luxury card that
#: went out of the game with Faux Pas.
LUXURY, PRESTIGE, LOST_LUXURY = "luxury", "prestige", "lost luxury"


class Undecided(Exception):
    """The search reached :data:`WORK_LIMIT` before it found a history or refuted all."""


@attrs.frozen
class PastRound:
    """One completed round of a history found by :func:`find_history`, in time order.

    Money is given as bit masks over the positions of ``config.money``.

    Attributes:
        kind: ``"luxury"``, ``"prestige"``, ``"lost luxury"`` or the disgrace card.
        starter: the seat that started the round.
        taker: the seat that won the card or took the disgrace card.
        paid: what each seat paid in this round.
        lap: in a disgrace auction, whether every seat acted before the pass.
        partial: in a disgrace auction of one lap, the first bid of each seat from the
            starter up to the taker (0 for the others).
        taker_bid: in a disgrace auction of one lap, the taker's bid (taken back).
        lower: in a normal auction the winner paid as the last seat to act, the seat and
            the card it bid first.
        slot: in a normal auction paid for, its place among the winner's paid normal
            auctions, latest first (the search settles those payments last); else -1.
    """

    kind: str | StatusCard
    starter: int
    taker: int
    paid: tuple[int, ...]
    lap: bool = False
    partial: tuple[int, ...] = ()
    taker_bid: int = 0
    lower: tuple[int, int] | None = None
    slot: int = -1


@functools.lru_cache(maxsize=16)
def _subset_sums(money: tuple[int, ...]) -> tuple[int, ...]:
    """The total of every bit mask over ``money``'s positions (4,096 at most)."""
    sums = [0] * (1 << len(money))
    for mask in range(1, len(sums)):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + money[low.bit_length() - 1]
    return tuple(sums)


def _submasks(mask: int) -> Iterator[int]:
    """The non-empty submasks of ``mask``, largest first."""
    sub = mask
    while sub:
        yield sub
        sub = (sub - 1) & mask


def greedy_partials(blocks: list[int], sums: tuple[int, ...], floor: int = 0) -> list[int] | None:
    """For seats that bid twice, each first a part of its final cards: the parts, each
    with the lowest total above the one before (above ``floor`` for the first), or None
    when some seat has no such part. Lowest-first leaves the most room to the next seat,
    so this finds parts whenever any exist."""
    parts = []
    last = floor
    for block in blocks:
        best = 0
        for sub in _submasks(block):
            if sub != block and last < sums[sub] and (not best or sums[sub] < sums[best]):
                best = sub
        if not best:
            return None
        parts.append(best)
        last = sums[best]
    return parts


def auction_starters(state: GameState) -> list[int]:
    """The seats that could have started the running auction, given its face-up cards and
    passes (empty when no order of bids and passes from any start leads here).

    A seat that passed may be taken to have passed at its first turn without bidding:
    its bid, taken back, only raised what the others had to beat. Then, walking from the
    seat to act: first the seats that have not acted yet (not passed, nothing face up),
    which end the first lap; then seats that all acted, whose face-up totals rise in the
    order of their last bids. When every seat acted, the auction could have begun at
    ``s`` if the seats still in from the first one after ``s`` on, up to the seat to act,
    first bid parts of their cards, rising, below the seat to act's bid.
    """
    players = state.players
    n = len(players)
    order = [(state.turn + i) % n for i in range(n)]
    waiting = 0
    while waiting < n and not players[order[waiting]].passed and not players[order[waiting]].table:
        waiting += 1
    acted = order[waiting:]
    if any(not players[i].passed and not players[i].table for i in acted):
        return []
    totals = [players[i].bid for i in acted if not players[i].passed]
    if any(a >= b for a, b in itertools.pairwise(totals)):
        return []
    if waiting == n:
        return [state.turn]
    if waiting:
        return [order[waiting]]  # the first lap is still going: it began there
    return [s for s in range(n) if current_partials(state, s) is not None]


def current_partials(state: GameState, starter: int) -> list[tuple[int, frozenset[int]]] | None:
    """For a running auction where every seat has acted and that ``starter`` began: the
    seats that bid twice with the first part each bid, or None when it cannot have begun
    there (see :func:`auction_starters`)."""
    players = state.players
    n = len(players)
    active = [(state.turn + i) % n for i in range(n) if not players[(state.turn + i) % n].passed]
    first = next(i for i in ((starter + d) % n for d in range(n)) if not players[i].passed)
    position = active.index(first)
    twice = active[position:] if position else []
    parts: list[tuple[int, frozenset[int]]] = []
    last = 0
    for seat in twice:
        table = sorted(players[seat].table)
        best: frozenset[int] | None = None
        for mask in range(1, (1 << len(table)) - 1):
            cards = frozenset(c for k, c in enumerate(table) if mask >> k & 1)
            if last < sum(cards) and (best is None or sum(cards) < sum(best)):
                best = cards
        if best is None:
            return None
        parts.append((seat, best))
        last = sum(best)
    if twice and last >= players[active[0]].bid:
        return None
    return parts


#: Per seat, its luxury and its prestige rounds left; whether the lost luxury card's round
#: is left; the taker of each disgrace card (Faux Pas, Passé, Scandale) whose round is
#: left, else -1. Plain ints: positions are hashed often.
_Rounds = tuple[tuple[int, ...], tuple[int, ...], bool, tuple[int, int, int]]
_DISGRACE = (_FP, _PASSE, _SCANDALE)
_Reserved = tuple[tuple[tuple[int, int], ...], ...]
_Tokens = tuple[tuple[bool, ...], ...]


class _Position(NamedTuple):
    """What is left to explain, going backward in time.

    ``pools``: each seat's spent money not yet given to a later round (so, for the hand
    of a seat at the time of the round taken back next, spent before it). ``tokens``: per
    seat, the normal auctions it paid for after that time, latest first, ``True`` for one
    whose payment is still open (any non-empty set: decided at the end) and ``False`` for
    one that paid a fixed core and may take more. ``reserved``: per seat, (count, cards)
    pairs: money kept out of the pools because a hand needed it at some time, to be paid
    in one of the seat's ``count`` latest normal auctions.
    """

    rounds: _Rounds
    s_next: int
    pools: tuple[int, ...]
    reserved: _Reserved
    tokens: _Tokens


class _Search:
    """One backward search; see the module's docstring."""

    def __init__(
        self,
        money: tuple[int, ...],
        seats: tuple[tuple[frozenset[int], tuple[StatusCard, ...]], ...],
        lost_by: int | None,
        limit: int,
    ) -> None:
        self.n = n = len(seats)
        self.money = money
        self.sums = _subset_sums(money)
        self.full = (1 << len(money)) - 1
        self.position = {v: i for i, v in enumerate(money)}
        self.lost_by = lost_by
        self.limit = limit
        self.work = 0
        self.refuted: set[tuple[_Position, bool]] = set()
        self.ladders: dict[tuple[int, bool, int, bool], tuple[int, ...]] = {}
        # The order in which the starters of a round taken by ``w`` are tried, per ``w``: for
        # a disgrace round, fewer payers first (fewer payments to choose); for a normal one,
        # the seat after ``w`` last (``w`` then acted last: a price above a lower bid).
        self.disgrace_starters = [tuple((w - d) % n for d in range(n)) for w in range(n)]
        self.starters = [
            (*(s for s in range(n) if s != (w + 1) % n), (w + 1) % n) for w in range(n)
        ]
        lux = [0] * n
        prestige = [0] * n
        disgrace = [-1, -1, -1]
        for seat, (_, owned) in enumerate(seats):
            for card in owned:
                if card.is_luxury:
                    lux[seat] += 1
                elif card is StatusCard.PRESTIGE:
                    prestige[seat] += 1
                else:
                    disgrace[_DISGRACE.index(card)] = seat
        if lost_by is not None:
            disgrace[0] = lost_by
        self.start_rounds: _Rounds = (
            tuple(lux),
            tuple(prestige),
            lost_by is not None,
            (disgrace[0], disgrace[1], disgrace[2]),
        )
        self.pools = tuple(self.mask(spent) for spent, _ in seats)

    def start(self, s_next: int) -> _Position:
        n = self.n
        return _Position(self.start_rounds, s_next, self.pools, ((),) * n, ((),) * n)

    def mask(self, cards: frozenset[int]) -> int:
        out = 0
        for c in cards:
            out |= 1 << self.position[c]
        return out

    def tick(self, units: int = 1) -> None:
        self.work += units
        if self.work > self.limit:
            raise Undecided

    def takers(self, rounds: _Rounds) -> list[int]:
        lux, prestige, lost, disgrace = rounds
        count = [a + b for a, b in zip(lux, prestige, strict=True)]
        if lost:
            assert self.lost_by is not None
            count[self.lost_by] += 1
        for seat in disgrace:
            if seat >= 0:
                count[seat] += 1
        return count

    def hopeless(self, at: _Position) -> bool:
        """Necessary conditions on what is left, cheap to check (see ``budgets``)."""
        budgets = self.budgets(at.rounds, at.s_next, at)
        return budgets is None or any(
            spare < 0 or (closed and at.pools[a]) for a, (spare, closed) in enumerate(budgets)
        )

    def budgets(self, rounds: _Rounds, s_next: int, at: _Position) -> list[tuple[int, bool]] | None:
        """What ``rounds`` left, the latest taken by ``s_next``, ask of each seat's money in
        ``at``: None when some are left and ``s_next`` took none of them; else per seat,
        how many of its cards (pool and reserved) are spare beyond one for each open
        payment and each normal auction it must still pay for (it may win free only after
        a round the next seat took), and whether no round is left to pay its pool in
        (``closed``). A disgrace round taken back now may take at most the spare cards of
        a seat, and must take all of a closed seat's pool."""
        self.tick()
        n = self.n
        lux, prestige, lost, disgrace = rounds
        lost_by = self.lost_by if lost and self.lost_by is not None else -1
        normal = [x + y for x, y in zip(lux, prestige, strict=True)]
        if lost_by >= 0:
            normal[lost_by] += 1
        count = list(normal)
        left = 0
        for seat in disgrace:
            if seat >= 0:
                count[seat] += 1
                left += 1
        if any(count):
            if count[s_next] == 0:
                return None
            count[s_next] -= 1
            count[0] += 1  # now: how many rounds left each seat starts
        pools = at.pools
        out = []
        for a in range(n):
            tokens = at.tokens[a]
            won = normal[a]
            cards = pools[a].bit_count()
            for _, m in at.reserved[a]:
                cards += m.bit_count()
            spare = cards - (sum(tokens) + won - min(won, count[(a + 1) % n]))
            out.append((spare, not (won or tokens or left - disgrace.count(a))))
        return out

    def search(self, at: _Position, faux_pas_last: bool = False) -> list[PastRound] | None:
        """A history of ``at.rounds`` ending with a round taken by ``at.s_next``, earliest
        first, whose payments account for what ``at`` leaves; None if there is none."""
        lux, prestige, lost, disgrace = at.rounds
        if not any(lux) and not any(prestige) and not lost and disgrace == (-1, -1, -1):
            if at.s_next != 0:
                return None
            return self.settle(at)
        key = (at, faux_pas_last)
        if key in self.refuted:
            return None
        self.tick(4)
        if not self.hopeless(at):
            for kind, rest in self.last_rounds(at.rounds, at.s_next, faux_pas_last):
                left = self.takers(rest)
                alone = not any(left)
                orders = self.disgrace_starters if isinstance(kind, StatusCard) else self.starters
                for s in orders[at.s_next]:
                    if (s != 0) if alone else not left[s]:
                        continue
                    self.tick()
                    budgets = self.budgets(rest, s, at)
                    if budgets is None:
                        continue
                    for done, after in self.outcomes(kind, s, at, budgets):
                        before = _Position(rest, s, after.pools, after.reserved, after.tokens)
                        earlier = self.search(before)
                        if earlier is not None:
                            return [*earlier, done()]
        self.refuted.add(key)
        return None

    def settle(self, at: _Position) -> list[PastRound] | None:
        """With every round taken back: give each seat's cards left to its normal
        auctions, each open one at least one card it may take; None if they do not fit.
        The returned list is empty: the caller fills in the payments (see ``fill``)."""
        self.tick(8)
        for a in range(self.n):
            if not at.tokens[a] and (at.pools[a] or at.reserved[a]):
                return None
        blocks: list[list[int]] = []
        for a in range(self.n):
            tokens = at.tokens[a]
            anywhere = len(tokens) + 1
            cards = [(anywhere, 1 << k) for k in range(len(self.money)) if at.pools[a] >> k & 1]
            for cap, mask in at.reserved[a]:
                cards += [(cap, 1 << k) for k in range(len(self.money)) if mask >> k & 1]
            if not tokens:
                if cards:
                    return None
                blocks.append([])
                continue
            extra = [0] * len(tokens)
            # The earliest open payment is the most constrained (fewest cards may go
            # there): serve it first; any card that fits it fits every later one.
            for i in sorted((i for i, is_open in enumerate(tokens) if is_open), reverse=True):
                fit = next((c for c in cards if c[0] > i), None)
                if fit is None:
                    return None
                cards.remove(fit)
                extra[i] |= fit[1]
            for _, bit in cards:
                extra[0] |= bit  # the latest normal auction may take any card
            blocks.append(extra)
        self.blocks = blocks
        return []

    def last_rounds(
        self, rounds: _Rounds, w: int, faux_pas_last: bool
    ) -> Iterator[tuple[str | StatusCard, _Rounds]]:
        """The rounds ``w`` took that can be the latest of ``rounds``, each with the rest."""
        lux, prestige, lost, disgrace = rounds
        faux_pas_left = disgrace[0] == w
        for k, seat in enumerate(disgrace):
            if seat == w and (k == 0 or not faux_pas_last):
                rest = (*disgrace[:k], -1, *disgrace[k + 1 :])
                yield _DISGRACE[k], (lux, prestige, lost, (rest[0], rest[1], rest[2]))
        if faux_pas_last:
            return
        if lux[w]:
            yield LUXURY, (_minus(lux, w), prestige, lost, disgrace)
        # Luxury and prestige rounds differ only for the seat R8 concerns.
        if prestige[w] and (not lux[w] or w == self.lost_by):
            yield PRESTIGE, (lux, _minus(prestige, w), lost, disgrace)
        # R8: the lost luxury card came before Faux Pas (discarded for it), or after it as
        # the taker's first luxury card: then every other luxury card it owns came later.
        if lost and w == self.lost_by and (not faux_pas_left or not lux[w]):
            yield LOST_LUXURY, (lux, prestige, False, disgrace)

    # --- what one round can do --------------------------------------------------------------

    def outcomes(
        self, kind: str | StatusCard, s: int, at: _Position, budgets: list[tuple[int, bool]]
    ) -> Iterator[tuple[Callable[[], PastRound], _Position]]:
        if isinstance(kind, StatusCard):
            yield from self.disgrace(kind, at.s_next, s, at, budgets)
        else:
            yield from self.normal(kind, at.s_next, s, at)

    def held(self, at: _Position, seat: int) -> int:
        """The cards ``seat`` surely held at the time of the round taken back now."""
        return self.full & ~at.pools[seat]

    def reserve(self, at: _Position, seat: int, mask: int) -> _Position:
        """``at`` with ``mask`` of ``seat``'s pool kept for its later normal auctions."""
        cap = len(at.tokens[seat])
        pools = _with(at.pools, seat, at.pools[seat] & ~mask)
        reserved = list(at.reserved)
        reserved[seat] = tuple(sorted((*reserved[seat], (cap, mask))))
        return _Position(at.rounds, at.s_next, pools, tuple(reserved), at.tokens)

    def normal(
        self, kind: str, w: int, s: int, at: _Position
    ) -> Iterator[tuple[Callable[[], PastRound], _Position]]:
        n = self.n
        nothing = (0,) * n
        token = len(at.tokens[w])
        if s != (w + 1) % n:
            # Any non-empty payment: which cards is settled at the end.
            tokens = _with(at.tokens, w, (*at.tokens[w], True))
            yield (
                functools.partial(PastRound, kind, s, w, nothing, slot=token),
                _Position(at.rounds, at.s_next, at.pools, at.reserved, tokens),
            )
            return
        yield functools.partial(PastRound, kind, s, w, nothing), at  # free: everyone else passed
        # Or the winner acted last: someone else bid first, below its payment. The lowest
        # card another seat surely held then, or one it held because it paid it later.
        options: list[tuple[int, int, int]] = []  # (card, seat, position)
        surely = [
            (self.money[k], a, k)
            for a in range(n)
            if a != w
            for k in range(len(self.money))
            if self.held(at, a) >> k & 1
        ]
        if surely:
            options.append(min(surely))
        ceiling = options[0][0] if options else self.money[-1] + 1
        for a in range(n):
            if a != w and at.tokens[a]:
                for k in range(len(self.money)):
                    if at.pools[a] >> k & 1 and self.money[k] < ceiling:
                        options.append((self.money[k], a, k))
        for value, a, k in options:
            base = at if self.held(at, a) >> k & 1 else self.reserve(at, a, 1 << k)
            pool = base.pools[w]
            for core in self.cores(pool, value):
                paid = list(nothing)
                paid[w] = core
                after = _Position(
                    base.rounds,
                    base.s_next,
                    _with(base.pools, w, pool ^ core),
                    base.reserved,
                    _with(base.tokens, w, (*base.tokens[w], False)),
                )
                yield (
                    functools.partial(
                        PastRound, kind, s, w, tuple(paid), lower=(a, value), slot=token
                    ),
                    after,
                )

    def disgrace(
        self,
        card: StatusCard,
        p: int,
        s: int,
        at: _Position,
        budgets: list[tuple[int, bool]],
    ) -> Iterator[tuple[Callable[[], PastRound], _Position]]:
        n = self.n
        d = (p - s) % n
        nothing = (0,) * n
        # A seat that pays nothing now must keep within its budget as it is.
        stuck = {
            a for a, (spare, closed) in enumerate(budgets) if spare < 0 or (closed and at.pools[a])
        }
        if p in stuck:
            return
        # No lap: the seats from s up to p bid once each, rising, and pay.
        first = [(s + i) % n for i in range(d)]
        for blocks in self.rising(first, at.pools, budgets) if stuck <= set(first) else ():
            paid = list(nothing)
            new = list(at.pools)
            for seat, block in blocks:
                paid[seat] = block
                new[seat] ^= block
            yield (
                functools.partial(PastRound, card, s, p, tuple(paid)),
                _Position(at.rounds, at.s_next, tuple(new), at.reserved, at.tokens),
            )
        if d == n - 1:
            return  # a lap from the seat after p pays the same as no lap, with more bids
        # (every seat but p pays in a lap, so no seat is stuck there)
        # p bids below the first payment, from its hand then (or cards it paid later).
        hand = self.held(at, p) | (at.pools[p] if at.tokens[p] else 0)
        if not hand:
            return
        lowest = self.money[(hand & -hand).bit_length() - 1]
        payers = [(p + 1 + i) % n for i in range(n - 1)]
        twice = [(s + i) % n for i in range(d)]
        for blocks in self.rising(payers, at.pools, budgets, lowest, set(twice)):
            paid = list(nothing)
            new = list(at.pools)
            for seat, block in blocks:
                paid[seat] = block
                new[seat] ^= block
            self.tick(sum(1 << paid[seat].bit_count() for seat in twice) >> 6)
            parts = greedy_partials([paid[seat] for seat in twice], self.sums)
            if parts is None:
                continue
            partial = list(nothing)
            for seat, part in zip(twice, parts, strict=True):
                partial[seat] = part
            after = _Position(at.rounds, at.s_next, tuple(new), at.reserved, at.tokens)
            floor = self.sums[parts[-1]] if parts else 0
            ceiling = self.sums[paid[payers[0]]]
            for bid, kept in self.taker_bids(after, p, floor, ceiling):
                yield (
                    functools.partial(
                        PastRound, card, s, p, tuple(paid), True, tuple(partial), bid
                    ),
                    kept,
                )

    def cores(self, pool: int, value: int) -> Iterator[int]:
        """The least payments from ``pool`` above ``value``: sets whose total is above it
        and at most it without their lowest card. Each is a lowest card and a set of
        higher cards whose total is at most ``value``."""
        for k in range(len(self.money)):
            low = 1 << k
            if pool & low:
                self.tick()
                higher = pool & ~((low << 1) - 1)
                if self.money[k] > value:
                    yield low
                for rest in self.below(higher, value + 1):
                    if self.sums[rest] + self.money[k] > value:
                        yield low | rest

    def taker_bids(
        self, at: _Position, p: int, floor: int, ceiling: int
    ) -> Iterator[tuple[int, _Position]]:
        """A bid of ``p`` from its hand then, above ``floor`` and below ``ceiling``: from
        the cards it surely held if it can, else for each least set of cards it paid in a
        later normal auction that makes one."""
        held = self.held(at, p)
        for bid in self.below(held, ceiling):
            if self.sums[bid] > floor:
                yield bid, at
                return
        if not at.tokens[p]:
            return
        needs: dict[int, int] = {}
        for bid in self.below(held | at.pools[p], ceiling):
            if self.sums[bid] > floor:
                needs.setdefault(bid & at.pools[p], bid)
        for need, bid in needs.items():
            if not any(other != need and other & need == other for other in needs):
                yield bid, self.reserve(at, p, need)

    def below(self, mask: int, ceiling: int, start: int = 0, chosen: int = 0) -> Iterator[int]:
        """The non-empty submasks of ``mask`` whose total is below ``ceiling``."""
        money = self.money
        for k in range(start, len(money)):
            if mask >> k & 1:
                more = chosen | 1 << k
                if self.sums[more] >= ceiling:
                    return  # money is ascending: every later card is too much as well
                self.tick()
                yield more
                yield from self.below(mask, ceiling, k + 1, more)

    def rising(
        self,
        seats: list[int],
        pools: tuple[int, ...],
        budgets: list[tuple[int, bool]],
        floor: int = 0,
        wide: set[int] | None = None,
    ) -> Iterator[list[tuple[int, int]]]:
        """Non-empty payments from the pools of ``seats``, totals rising in that order
        (within each seat's budget, see ``budgets``). The seats in ``wide`` bid twice in
        a lap: first a part of their payment, parts rising and below the first payment
        of all (the taker bid between), so each needs a part above the one before, the
        least such part being the best (see ``greedy_partials``). A branch is followed
        only while the seats after it can still rise: the least total above the one
        before, seat by seat, decides that."""
        wide = wide or set()
        self.tick(len(seats))
        ladders = [self.ladder(pools[seat], seat in wide, *budgets[seat]) for seat in seats]
        yield from self._rising(seats, pools, budgets, floor, wide, ladders, 0, 0, 0)

    def ladder(self, mask: int, wide: bool, spare: int, closed: bool) -> tuple[int, ...]:
        """``_ladder`` for this search, its cost counted once per search (so the work
        counted does not depend on what earlier searches cached)."""
        key = (mask, wide, spare, closed)
        found = self.ladders.get(key)
        if found is None:
            self.tick(1 + ((1 << mask.bit_count()) >> 6))
            found = self.ladders[key] = _ladder(self.money, mask, wide, spare, closed)
        return found

    def _rising(
        self,
        seats: list[int],
        pools: tuple[int, ...],
        budgets: list[tuple[int, bool]],
        floor: int,
        wide: set[int],
        ladders: list[tuple[int, ...]],
        k: int,
        part_floor: int,
        ceiling: int,
    ) -> Iterator[list[tuple[int, int]]]:
        if k == len(seats):
            yield []
            return
        if not _can_rise(ladders, k, floor):
            return
        seat = seats[k]
        spare, closed = budgets[seat]
        for block in (pools[seat],) if closed else _by_size(pools[seat]):
            if block.bit_count() > spare:
                break  # fewest cards first: every later block is too large as well
            self.tick()
            total = self.sums[block]
            if total <= floor:
                continue
            part = part_floor
            if seat in wide:
                parts = _ladder(self.money, block, False, block.bit_count() - 1, False)
                at = bisect.bisect_right(parts, part_floor)
                if at == len(parts) or parts[at] >= (ceiling or total):
                    continue
                part = parts[at]
            more_rising = self._rising(
                seats, pools, budgets, total, wide, ladders, k + 1, part, ceiling or total
            )
            for more in more_rising:
                yield [(seat, block), *more]

    def fill(self, rounds: list[PastRound]) -> list[PastRound]:
        """``rounds`` with the normal auctions' payments settled (see ``settle``)."""
        out = []
        for past in rounds:
            if past.slot < 0:
                out.append(past)
                continue
            w = past.taker
            paid = list(past.paid)
            paid[w] |= self.blocks[w][past.slot]
            out.append(attrs.evolve(past, paid=tuple(paid)))
        return out


@functools.lru_cache(maxsize=4096)
def _by_size(mask: int) -> tuple[int, ...]:
    """The non-empty submasks of ``mask``, fewest cards first (a disgrace auction's bids
    are mostly small, so a history is found sooner this way)."""
    return tuple(sorted(_submasks(mask), key=int.bit_count))


@functools.lru_cache(maxsize=4096)
def _ladder(
    money: tuple[int, ...], mask: int, wide: bool, spare: int, closed: bool
) -> tuple[int, ...]:
    """The totals of the non-empty submasks of ``mask`` of at most ``spare`` cards (of two
    at least when ``wide``; all of ``mask`` when ``closed``), ascending and distinct."""
    sums = _subset_sums(money)
    return tuple(
        sorted(
            {
                sums[sub]
                for sub in ((mask,) if closed else _submasks(mask))
                if sub and sub.bit_count() <= spare and (not wide or sub & (sub - 1))
            }
        )
    )


def _can_rise(ladders: list[tuple[int, ...]], k: int, floor: int) -> bool:
    """Whether the seats from ``k`` on can pay totals rising above ``floor``: taking the
    least total above the one before leaves the most room, so it finds a way if any."""
    for ladder in ladders[k:]:
        at = bisect.bisect_right(ladder, floor)
        if at == len(ladder):
            return False
        floor = ladder[at]
    return True


def _minus(counts: tuple[int, ...], seat: int) -> tuple[int, ...]:
    return (*counts[:seat], counts[seat] - 1, *counts[seat + 1 :])


def _with(values: tuple[_T, ...], seat: int, value: _T) -> tuple[_T, ...]:
    return (*values[:seat], value, *values[seat + 1 :])


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


_UNDECIDED = "undecided"
_Key = tuple[
    tuple[int, ...],
    tuple[tuple[frozenset[int], tuple[StatusCard, ...]], ...],
    tuple[StatusCard, ...],
    tuple[int, ...],
    bool,
]


@functools.lru_cache(maxsize=256)
def _search(key: _Key, limit: int) -> tuple[PastRound, ...] | str | None:
    money, seats, removed, starters, discarding = key
    # The state may leave open who took Faux Pas (out of the game) and who started the
    # running auction: each pair is first tried with an equal share of a quarter of the
    # work, then the pairs left open with the rest in turn, so that one hard pair does not
    # use up the work another would decide with. Refuted positions are kept per Faux Pas
    # taker, so a pair tried again does not redo them.
    takers = list(range(len(seats))) if StatusCard.FAUX_PAS in removed else [None]
    searches = [_Search(money, seats, lost_by, limit) for lost_by in takers]
    tries = [(search, s_next) for search in searches for s_next in starters]
    share = limit // (4 * len(tries)) if len(tries) > 1 else limit
    left_open = []
    for search, s_next in tries:
        found = _search_from(search, s_next, discarding, search.work + share)
        if found == _UNDECIDED:
            left_open.append((search, s_next))
        elif found is not None:
            return found
    for search, s_next in left_open:
        spent = sum(s.work for s in searches)
        found = _search_from(search, s_next, discarding, search.work + limit - spent)
        if found is not None:
            return found
    return None


def _search_from(
    search: _Search, s_next: int, discarding: bool, limit: int
) -> tuple[PastRound, ...] | str | None:
    """The history ``search`` finds from ``s_next`` within ``limit`` units of its work
    (counted from its start), None if there is none, or ``_UNDECIDED``."""
    search.limit = limit
    try:
        found = search.search(search.start(s_next), faux_pas_last=discarding)
    except Undecided:
        return _UNDECIDED
    return None if found is None else tuple(search.fill(found))


def _cards(money: tuple[int, ...], mask: int) -> frozenset[int]:
    return frozenset(v for k, v in enumerate(money) if mask >> k & 1)


def history_actions(state: GameState, rounds: list[PastRound]) -> list[Action]:
    """The actions of a game that plays ``rounds`` (from :func:`find_history` on
    ``state``) and then the current round up to ``state``: replaying them with
    :func:`~high_society.apply` from :func:`~high_society.new_game` gives ``state`` back
    (the tests check it, so a history found is checked against the rules themselves)."""
    n = len(state.players)
    money = state.config.money
    luxury = [[c for c in p.status_cards if c.is_luxury] for p in state.players]
    lost = [c for c in state.removed if c.is_luxury]
    actions: list[Action] = []
    for k, past in enumerate(rounds):
        s, w = past.starter, past.taker
        kind = past.kind
        if kind == LUXURY:
            card = luxury[w].pop()
        elif kind == PRESTIGE:
            card = StatusCard.PRESTIGE
        elif kind == LOST_LUXURY:
            card = lost[0]
        else:
            assert isinstance(kind, StatusCard)
            card = kind
        actions.append(Reveal(card))
        seats = [(s + i) % n for i in range(n)]
        if not card.is_disgrace:
            block = _cards(money, past.paid[w])
            if past.lower is not None:
                first, value = past.lower
                actions += [
                    Bid(i, frozenset({value})) if i == first else Pass(i) for i in seats if i != w
                ]
                actions += [Bid(w, block), Pass(first)]
            elif block:
                before = seats[: seats.index(w)]
                after = seats[seats.index(w) + 1 :]
                actions += [*map(Pass, before), Bid(w, block), *map(Pass, after)]
            else:
                actions += [Pass(i) for i in seats if i != w]
            continue
        upto = seats[: seats.index(w)]
        if not past.lap:
            actions += [Bid(i, _cards(money, past.paid[i])) for i in upto]
        else:
            actions += [Bid(i, _cards(money, past.partial[i])) for i in upto]
            actions.append(Bid(w, _cards(money, past.taker_bid)))
            actions += [Bid(i, _cards(money, past.paid[i])) for i in seats[len(upto) + 1 :]]
            actions += [Bid(i, _cards(money, past.paid[i] ^ past.partial[i])) for i in upto]
        actions.append(Pass(w))
        last = k == len(rounds) - 1
        if card is StatusCard.FAUX_PAS and lost and not (last and state.phase is Phase.DISCARD):
            owned_before = any(r.kind == LOST_LUXURY for r in rounds[:k])
            if owned_before:
                actions.append(Discard(w, lost[0]))
    actions += _current_round(state, rounds[-1].taker if rounds else 0)
    return actions


def _current_round(state: GameState, starter: int) -> list[Action]:
    """The actions of the round ``state`` is in, from its start at ``starter``."""
    if state.phase is Phase.OVER:
        assert state.ending_card is not None
        return [Reveal(state.ending_card)]
    if state.phase is not Phase.AUCTION:
        return []
    assert state.auction is not None
    players = state.players
    n = len(players)
    actions: list[Action] = [Reveal(state.auction)]
    everyone_acted = all(p.passed or p.table for p in players)
    twice = dict(current_partials(state, starter) or []) if everyone_acted else {}
    for i in ((starter + d) % n for d in range(n)):
        p = players[i]
        if p.passed:
            actions.append(Pass(i))
        elif not p.table:
            break  # the first lap is still going: this seat is to act
        else:
            actions.append(Bid(i, twice.get(i, p.table)))
    actions += [Bid(i, players[i].table - part) for i, part in twice.items()]
    return actions

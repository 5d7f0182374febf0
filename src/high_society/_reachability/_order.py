"""The first stage: take the rounds back one by one, latest first (internal).

The round to take back is one taken by the seat that started the round after it (R6, R7);
its own starter is any seat that took an earlier card, seat 0 for the first (R3). Each
kind of round can do exactly this:

- *normal auction* (R6) won by ``w``, started by ``s``: ``w`` pays any non-empty set of its
  cards, or nothing when ``w`` is the seat before ``s`` (everyone else passed first). That
  seat acts last in the first lap, so it pays only above a lower bid someone else made
  first: the least card another seat held then.
- *disgrace auction* (R7) taken by ``p``, started by ``s``: with no lap, the seats from
  ``s`` up to ``p`` bid once each, totals rising, and pay; with a lap, every seat but ``p``
  pays, totals rising from the seat after ``p``, the seats from ``s`` up to ``p`` having
  first bid parts of their payments, and ``p`` bid between. More laps only add bids to
  rise above: one is enough. From ``s`` = the seat after ``p`` a lap pays what no lap pays.
- *Faux Pas* (R8): the luxury card out of the game was won by the seat that took Faux Pas,
  before it (discarded for it) or as that seat's first luxury card after it.

Taking a round back records only what it asks of its payers (tokens); the payments are
given out once every round is taken back (``_settle``), so orders that differ only in who
paid what meet in one position and are searched once. Before a position's rounds are
ordered, the necessary conditions of ``_conditions`` may refute it. The stage remembers the
positions it refuted: by their canonical form, or by their shape (the rounds left, the
next starter, who owes payments) when only counts refuted them.
"""

import functools
from collections.abc import Callable, Iterator
from typing import NamedTuple

from high_society._reachability import _conditions as conditions
from high_society._reachability._meter import CutShort, Meter
from high_society._reachability._money import Spent
from high_society._reachability._rounds import (
    DISGRACE,
    LOST_LUXURY,
    LUXURY,
    OPEN,
    PRESTIGE,
    Deferred,
    Lower,
    PastRound,
    Position,
    Rounds,
    canonical,
    chain,
    takers,
)
from high_society._reachability._settle import Settle, Settlement
from high_society._reachability._tables import bits, can_rise, one_less, replaced
from high_society.cards import StatusCard

#: A history found: its rounds, earliest first, their payments still to fill in.
Found = tuple[list[PastRound], Settlement]
Outcome = tuple[Callable[[], PastRound], Position]


class Pass(NamedTuple):
    """One pass of the search: the work each ``settle`` may take (None: any), and the ends
    it cut short (appended to as they are)."""

    cap: int | None
    cut: list[Position]


class Order:
    """The round-ordering stage of one search, on ``meter``'s work."""

    def __init__(self, spent: Spent, rounds: Rounds, meter: Meter) -> None:
        self.spent = spent
        self.rounds = rounds
        self.meter = meter
        self.settle = Settle(spent, meter)
        n = self.n = spent.n
        self.refuted: set[tuple[Position, bool]] = set()
        self.misshapen: dict[tuple[Rounds, int, tuple[bool, ...], bool], list[tuple[int, ...]]]
        self.misshapen = {}
        self.leaves = 0  # how often the search reached the game's start, to ask ``settle``
        # The order in which the starters of a round taken by ``w`` are tried: for a
        # disgrace round, fewer payers first (fewer payments to choose); for a normal one,
        # the seat after ``w`` last (``w`` then acted last: a price above a lower bid).
        self.disgrace_starters = [tuple((w - d) % n for d in range(n)) for w in range(n)]
        self.starters = [
            (*(s for s in range(n) if s != (w + 1) % n), (w + 1) % n) for w in range(n)
        ]

    def start(self, s_next: int) -> Position:
        """The state's position: every round left, the latest taken by ``s_next``."""
        return Position(self.rounds, s_next, ((),) * self.n)

    def search(self, at: Position, run: Pass, faux_pas_last: bool = False) -> Found | None:
        """A history of ``at.rounds`` ending with a round taken by ``at.s_next`` whose
        payments account for what ``at`` leaves; None if there is none (in this pass)."""
        lux, prestige, lost, disgrace = at.rounds
        if not any(lux) and not any(prestige) and not lost and disgrace == (-1, -1, -1):
            return self.leaf(at, run)
        # Which rounds are left, who took the latest and how many payments each seat owes
        # decide every branch below, but not whether the payments fit (``settle``). So a
        # position refuted before any of them was asked refutes every one of its shape
        # whose seats owe as many payments or more (each owes a card: less room).
        owed = tuple(map(len, at.tokens))
        shape = (at.rounds, at.s_next, tuple(map(bool, owed)), faux_pas_last)
        fewer = self.misshapen.get(shape, [])
        if any(all(map(int.__le__, other, owed)) for other in fewer):
            return None
        key = (canonical(at), faux_pas_last)
        if key in self.refuted:
            self.leaves += 1  # refuted after asking ``settle`` (else its shape would be)
            return None
        leaves, cut = self.leaves, len(run.cut)
        self.meter.tick(2)  # a position costs little time next to the end's checks
        budget = self.hopeful(at)
        if budget is None or self.counted_out(at, budget):
            pass
        elif self.short_of_money(at):
            self.leaves += 1  # it looks at the payments, not only at how many: not the shape's
        else:
            found = self.earlier(at, run, faux_pas_last)
            if found is not None:
                return found
        if len(run.cut) != cut:
            pass  # an end left open below: not refuted
        elif self.leaves == leaves:
            fewer[:] = [o for o in fewer if not all(map(int.__le__, owed, o))]
            fewer.append(owed)
            self.misshapen[shape] = fewer
        else:
            self.refuted.add(key)
        return None

    def leaf(self, at: Position, run: Pass) -> Found | None:
        """Every round taken back: the game's start if seat 0 starts it (R3), and then
        ``settle`` gives the money out."""
        if at.s_next != 0:
            return None
        self.leaves += 1
        try:
            settled = self.settle.settle(at, run.cap)
        except CutShort:
            run.cut.append(at)  # left for later: nothing is refuted meanwhile
            return None
        return None if settled is None else ([], settled)

    def hopeful(self, at: Position) -> conditions.Budgets | None:
        """The budgets of ``at``, or None where they refute it."""
        self.meter.tick()
        budget = conditions.budgets(self.spent, at.rounds, at.s_next, at.tokens)
        if budget is None or conditions.over_budget(self.spent, budget):
            return None
        return budget

    def counted_out(self, at: Position, budget: conditions.Budgets) -> bool:
        """Whether the conditions that read only counts refute ``at``."""
        self.meter.tick()
        if conditions.short_by_count(self.spent, at, budget):
            return True
        self.meter.tick()
        return conditions.short_of_starters(self.spent, at, budget)

    def short_of_money(self, at: Position) -> bool:
        self.meter.tick()
        return conditions.short_of_money(self.spent, at)

    def earlier(self, at: Position, run: Pass, faux_pas_last: bool) -> Found | None:
        """Take back each round that can be the latest, from each starter it may have had."""
        for kind, rest in self.last_rounds(at.rounds, at.s_next, faux_pas_last):
            left = takers(rest, self.spent.lost_by)
            alone = not any(left)
            orders = self.disgrace_starters if isinstance(kind, StatusCard) else self.starters
            for s in orders[at.s_next]:
                if (s != 0) if alone else not left[s]:
                    continue
                self.meter.tick()
                self.meter.tick()
                budget = conditions.budgets(self.spent, rest, s, at.tokens)
                if budget is None:
                    continue
                for done, after in self.outcomes(kind, s, at, budget):
                    before = after._replace(rounds=rest, s_next=s)
                    found = self.search(before, run)
                    if found is not None:
                        rounds, settled = found
                        return [*rounds, done()], settled
        return None

    def last_rounds(
        self, rounds: Rounds, w: int, faux_pas_last: bool
    ) -> Iterator[tuple[str | StatusCard, Rounds]]:
        """The rounds ``w`` took that can be the latest of ``rounds``, each with the rest."""
        lux, prestige, lost, disgrace = rounds
        faux_pas_left = disgrace[0] == w
        if faux_pas_last:
            if disgrace[0] == w:
                yield DISGRACE[0], (lux, prestige, lost, (-1, disgrace[1], disgrace[2]))
            return
        if lux[w]:
            yield LUXURY, (one_less(lux, w), prestige, lost, disgrace)
        # Luxury and prestige rounds differ only for the seat R8 concerns.
        if prestige[w] and (not lux[w] or w == self.spent.lost_by):
            yield PRESTIGE, (lux, one_less(prestige, w), lost, disgrace)
        # Disgrace rounds last: their payments, decided at the end, constrain the most, so
        # a disgrace round taken back early leaves the most positions to refute below it.
        for k, seat in enumerate(disgrace):
            if seat == w and not (k == 2 and disgrace[1] == w):
                # (Passé and Scandale auctions are alike (R7): taken by one seat, which
                # came last does not matter, so Passé is taken back first.)
                rest = (*disgrace[:k], -1, *disgrace[k + 1 :])
                yield DISGRACE[k], (lux, prestige, lost, (rest[0], rest[1], rest[2]))
        # R8: the lost luxury card came before Faux Pas (discarded for it), or after it as
        # the taker's first luxury card: then every other luxury card it owns came later.
        # Tried after the seat's disgrace rounds: taken back first, it leaves many orders
        # to refute below it, and it was mostly won before them (discarded for Faux Pas).
        if lost and w == self.spent.lost_by and (not faux_pas_left or not lux[w]):
            yield LOST_LUXURY, (lux, prestige, False, disgrace)

    def outcomes(
        self, kind: str | StatusCard, s: int, at: Position, budget: conditions.Budgets
    ) -> Iterator[Outcome]:
        """What the round of ``kind`` taken by ``at.s_next`` and started by ``s`` may have
        asked of its payers: the round (to fill in) and the position before it."""
        if isinstance(kind, StatusCard):
            yield from self.disgrace(kind, at.s_next, s, at, budget)
        else:
            yield from self.normal(kind, at.s_next, s, at)

    def normal(self, kind: str, w: int, s: int, at: Position) -> Iterator[Outcome]:
        n = self.n
        spent = self.spent
        nothing = (0,) * n
        token = len(at.tokens[w])
        if s != (w + 1) % n:
            # Any non-empty payment: which cards is settled at the end.
            tokens = replaced(at.tokens, w, (*at.tokens[w], OPEN))
            yield (
                functools.partial(PastRound, kind, s, w, nothing, slot=token),
                at._replace(tokens=tokens),
            )
            return
        yield functools.partial(PastRound, kind, s, w, nothing), at  # free: everyone else passed
        # Or the winner acted last: someone else bid first, below its payment: the lowest
        # card another seat surely held then, or a lower one it held because it paid it
        # later. Which one, and which cards pay, is settled at the end.
        surely = min(
            ((spent.lowest(bit), a) for a in range(n) if a != w for bit in bits(spent.hands[a])),
            default=(spent.money[-1] + 1, -1),
        )
        lowest = surely[0]
        for a in range(n):
            if a != w and at.tokens[a] and spent.pools[a]:
                lowest = min(lowest, spent.lowest(spent.pools[a]))
        if spent.sums[spent.pools[w]] <= lowest:
            return  # the payment comes out of that pool
        later = tuple(len(tokens) for tokens in at.tokens)
        record = Lower(w, token, later, *surely)
        yield (
            functools.partial(PastRound, kind, s, w, nothing, slot=token),
            at._replace(
                tokens=replaced(at.tokens, w, (*at.tokens[w], OPEN - surely[0])),
                lowers=(*at.lowers, record),
            ),
        )

    def disgrace(
        self, card: StatusCard, p: int, s: int, at: Position, budget: conditions.Budgets
    ) -> Iterator[Outcome]:
        """Each payer owes one payment, if the payers can still pay totals rising."""
        n = self.n
        spent = self.spent
        d = (p - s) % n
        nothing = (0,) * n
        # A seat that pays nothing now must keep within its budget as it is.
        stuck = {
            a
            for a, (spare, closed) in enumerate(budget)
            if spare < 0 or (closed and spent.pools[a])
        }
        if p in stuck:
            return
        # No lap: the seats from s up to p bid once each, rising, and pay.
        ways = [(False, 0)]
        # A lap from the seat after p pays the same as no lap, with more bids. In a lap
        # every seat but p pays; p bids below the first payment, from its hand then (or
        # cards it paid later).
        hand = spent.hands[p] | (spent.pools[p] if at.tokens[p] else 0)
        if d != n - 1 and hand:
            ways.append((True, spent.lowest(hand)))
        j = len(at.deferred)
        for lap, floor in ways:
            payers, wide = chain(n, s, p, lap)
            if not stuck <= set(payers):
                continue
            self.meter.tick(len(payers))
            ladders = [self.meter.ladder(spent.pools[a], a in wide, *budget[a]) for a in payers]
            if not can_rise(ladders, 0, floor):
                continue
            tokens = list(at.tokens)
            for a in payers:
                tokens[a] = (*tokens[a], j)
            later = Deferred(DISGRACE.index(card), s, p, lap, len(at.tokens[p]))
            yield (
                functools.partial(PastRound, card, s, p, nothing, lap, slot=j),
                at._replace(tokens=tuple(tokens), deferred=(*at.deferred, later)),
            )

"""The second stage: with every round taken back, give each seat's spent money out to its
payments (internal).

The order stage (``_order``) only records what each round asks of its payers (tokens).
Here, at the game's start, the cards are given out in this order, each step asking exactly
what the rules ask (a seat's hand at the time of a round is what it had not paid before):

- the disgrace rounds' payments (R7): a set per payer, totals rising along the payers, and
  in a lap a part for each seat that bids twice (parts rising, below the first payment),
  with room for the taker's bid between them; after each seat's set, every later disgrace
  round it pays in must still be able to rise with the cards left;
- each lower bid (R6: the winner acted last, above a card another seat held then): one it
  surely held, one it paid in a later disgrace round, or one a later normal auction of its
  takes (which then must);
- each lap taker's bid, from its hand then, likewise;
- the normal auctions: a least set above each lower bid, a card for each other, any card
  left to the latest.

Two payments of a seat with the same total lead to the same answers when the rest sees
only their total or count: one is tried. The stage remembers the positions it settled and
those it refuted; it keeps nothing else between calls.
"""

import bisect
from collections.abc import Callable, Iterator, Mapping
from typing import NamedTuple

import attrs

from high_society._reachability import _conditions as conditions
from high_society._reachability._meter import Meter
from high_society._reachability._money import Spent
from high_society._reachability._rounds import (
    OPEN,
    PastRound,
    Position,
    canonical,
    chain,
)
from high_society._reachability._tables import (
    Groups,
    bits,
    by_size,
    can_rise,
    greedy_partials,
    headroom,
    ladder,
    replaced,
    replaced_in_list,
)
from high_society.cards import StatusCard

#: Per disgrace round taken back, its payments: (seat, cards) per payer.
Chosen = tuple[list[tuple[int, int]], ...]


@attrs.frozen
class Settlement:
    """What ``settle`` gave out: per seat, its normal auctions' cards by token; per disgrace
    round, its payments; each lap taker's bid by round; each lower bid (seat and card) by
    (winner, token)."""

    blocks: tuple[tuple[int, ...], ...]
    chosen: Chosen
    bids: Mapping[int, int]
    lowered: Mapping[tuple[int, int], tuple[int, int]]


class _Given(NamedTuple):
    """What ``settle`` has decided so far: the cards each seat has ``left``; ``caps``, per
    seat and card, how many of its latest payments it may go to; the disgrace rounds'
    payments; each seat's tokens (their bounds); the lower bids and taker's bids chosen."""

    left: tuple[int, ...]
    caps: list[dict[int, int]]
    chosen: Chosen
    tokens: list[tuple[int, ...]]
    lowered: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = ()
    bids: tuple[tuple[int, int], ...] = ()


class Settle:
    """The payments stage of one search, on ``meter``'s work."""

    def __init__(self, spent: Spent, meter: Meter) -> None:
        self.spent = spent
        self.meter = meter
        self.n = spent.n
        self.settled: dict[Position, Settlement] = {}
        self.unsettled: set[Position] = set()

    def settle(self, at: Position, cap: int | None) -> Settlement | None:
        """The payments of ``at`` (every round taken back), or None if they do not fit.

        Raises:
            CutShort: it needed more than ``cap`` units of work (nothing is refuted then).
        """
        meter = self.meter
        meter.tick(8)
        key = canonical(at)
        if key in self.unsettled:
            return None
        meter.tick()
        if conditions.short_of_money(self.spent, at):
            self.unsettled.add(key)
            return None
        if at in self.settled:  # (by the position itself: the payments follow its order)
            return self.settled[at]
        pools = self.spent.pools
        caps: list[dict[int, int]] = []
        for a in range(self.n):
            if not at.tokens[a] and pools[a]:
                return None
            caps.append(dict.fromkeys(bits(pools[a]), len(at.tokens[a])))
        if cap is not None:
            meter.stop = min(meter.limit, meter.work + cap)
        try:
            found = self.disgrace_payments(at, 0, pools, caps, ())
        finally:
            meter.stop = meter.limit
        if found is not None:
            self.settled[at] = found
            return found
        self.unsettled.add(key)
        return None

    # --- the disgrace rounds --------------------------------------------------------------

    def disgrace_payments(
        self,
        at: Position,
        j: int,
        left: tuple[int, ...],
        caps: list[dict[int, int]],
        chosen: Chosen,
    ) -> Settlement | None:
        """Choose the payments of the ``j``-th disgrace round taken back and of the ones
        after it, from the cards ``left``; then the rest."""
        if j == len(at.deferred):
            return self.lower_bids(at, 0, _Given(left, caps, chosen, list(at.tokens)))
        _, s, p, lap, _ = at.deferred[j]
        payers, wide = chain(self.n, s, p, lap)
        budgets = [(0, False)] * self.n
        for a in payers:
            budgets[a] = _room(at.tokens[a], j, left[a], False)
        ladders = [self.meter.ladder(left[a], a in wide, *budgets[a]) for a in payers]
        # Seats whose payment here matters to the rest only by its total (see ``trace``)
        # and its count (the fewer cards the better): one least payment per total.
        least = {a for a in payers if a not in wide and self.by_total(at, j, a)}

        def follow(k: int, block: int, after: tuple[int, ...]) -> object:
            if not self.can_follow(at, j, payers, k, after):
                return None
            return self.trace(at, j, left, payers[k], block)

        for blocks in self.rising(payers, left, budgets, 0, wide, ladders, follow, left, least):
            after = list(left)
            for a, block in blocks:
                after[a] ^= block
            now = (*chosen, blocks)
            if lap and not self.may_bid(at, j, after, now):
                continue
            found = self.disgrace_payments(at, j + 1, tuple(after), caps, now)
            if found is not None:
                return found
        return None

    def may_bid(self, at: Position, j: int, left: list[int], chosen: Chosen) -> bool:
        """Whether the taker of the ``j``-th disgrace round, a lap whose payments are
        ``chosen``, can bid between the parts bid first and the first payment from what it
        may have held then: the cards it never spent, those it paid in later disgrace
        rounds, and, if it pays for a normal auction after the round, the cards ``left``."""
        self.meter.tick()
        _, s, p, _, later = at.deferred[j]
        floor, ceiling = self.bid_window(s, p, dict(chosen[j]))
        owed = at.tokens[p][:later]
        hand = self.held(p, owed, chosen) | (left[p] if any(t < 0 for t in owed) else 0)
        return bool(self.bid_between(hand, floor, ceiling))

    def held(self, p: int, owed: tuple[int, ...], chosen: Chosen) -> int:
        """The cards seat ``p`` surely held at the time of a round, ``owed`` the payments it
        made after it: those it never spent and those it paid in later disgrace rounds."""
        hand = self.spent.hands[p]
        for t in owed:
            if t >= 0:
                hand |= dict(chosen[t])[p]
        return hand

    def bid_between(self, hand: int, floor: int, ceiling: int) -> int:
        """A set of ``hand`` whose total is above ``floor`` and below ``ceiling`` (the
        least such total), or 0 if there is none."""
        if not hand:
            return 0
        totals, masks = self.meter.per_total(hand)
        i = bisect.bisect_right(totals, floor)
        return masks[i] if i < len(totals) and totals[i] < ceiling else 0

    def bid_window(self, s: int, p: int, paid: dict[int, int]) -> tuple[int, int]:
        """In a lap started by ``s`` and taken by ``p`` with the payments ``paid``: the
        total the taker bid above (the last of the least parts the seats that bid twice
        bid first) and the one it bid below (the first payment)."""
        twice = chain(self.n, s, p, True)[1]
        self.meter.tick(sum(1 << paid[a].bit_count() for a in twice) >> 6)
        parts = greedy_partials([paid[a] for a in twice], self.spent.sums)
        assert parts is not None  # ``rising`` gave each of them a part
        floor = self.spent.sums[parts[-1]] if parts else 0
        return floor, self.spent.sums[paid[(p + 1) % self.n]]

    def can_follow(
        self, at: Position, j: int, payers: list[int], k: int, after: tuple[int, ...]
    ) -> bool:
        """Whether, the first ``k + 1`` of ``payers`` having paid in the ``j``-th disgrace
        round with the cards ``after`` left, each later disgrace round the last of them
        pays in can still rise."""
        pending = set(payers[k + 1 :])
        for t in at.tokens[payers[k]]:
            if t <= j:
                continue
            self.meter.tick()
            _, s, p, lap, _ = at.deferred[t]
            later, wide = chain(self.n, s, p, lap)
            ladders = []
            for a in later:
                others = tuple(u for u in at.tokens[a] if u != t)
                spare, closed = _room(others, j, after[a], a in pending)
                ladders.append(self.meter.ladder(after[a], a in wide, spare, closed))
            if not can_rise(ladders, 0, 0):
                return False
        return True

    def owed_after(self, at: Position, j: int, seat: int) -> tuple[list[int], int] | None:
        """The disgrace rounds after the ``j``-th that ``seat`` pays in, and how many normal
        auctions it pays for; None when a lower bid or a lap the seat took may need one of
        its cards (then ``settle`` sees the cards themselves)."""
        if at.lowers or any(d.lap and d.taker == seat for d in at.deferred):
            return None
        tokens = at.tokens[seat]
        return [t for t in tokens if t > j], sum(t < 0 for t in tokens)

    def bids_twice(self, at: Position, t: int, seat: int) -> bool:
        """Whether ``seat`` bids twice in the ``t``-th disgrace round."""
        _, s, p, lap, _ = at.deferred[t]
        return seat in chain(self.n, s, p, lap)[1]

    def by_total(self, at: Position, j: int, seat: int) -> bool:
        """Whether ``trace`` sees only the total and count of ``seat``'s payment in the
        ``j``-th disgrace round (the fewer cards, the more room left)."""
        owed = self.owed_after(at, j, seat)
        if owed is None:
            return False
        others, normal = owed
        if not others:
            return True
        return len(others) == 1 and not normal and not self.bids_twice(at, others[0], seat)

    def trace(self, at: Position, j: int, left: tuple[int, ...], seat: int, block: int) -> object:
        """What the rest of ``settle`` sees of ``seat``'s cards when it pays ``block`` in
        the ``j``-th disgrace round, the cards ``left`` before: the cards themselves,
        unless only their count or totals matter (no lower bid and no lap of the seat's
        own may need one of them; then its other payments may take any cards: the normal
        auctions' open ones just one each, a last disgrace payment, if no normal auction
        is left, all)."""
        rest = left[seat] ^ block
        owed = self.owed_after(at, j, seat)
        if owed is None:
            return block, rest
        others, normal = owed
        if not others:
            return rest.bit_count() if normal else rest
        if len(others) == 1:
            # It pays in one more round: what totals it can pay there (leaving a card for
            # each normal auction); with none left, all it has, and in a lap where it
            # bids twice, the totals of the parts it can bid first.
            count = rest.bit_count()
            if not self.bids_twice(at, others[0], seat):
                return self.meter.ladder(rest, False, count - normal, not normal)
            if not normal:
                return self.spent.sums[rest], self.meter.ladder(rest, False, count - 1, False)
        return rest

    def rising(
        self,
        seats: list[int],
        pools: tuple[int, ...],
        budgets: list[tuple[int, bool]],
        floor: int,
        wide: list[int],
        ladders: list[tuple[int, ...]],
        follow: Callable[[int, int, tuple[int, ...]], object],
        after: tuple[int, ...],
        least: set[int],
        k: int = 0,
        part_floor: int = 0,
        ceiling: int = 0,
    ) -> Iterator[list[tuple[int, int]]]:
        """Non-empty payments from ``pools`` of ``seats``, totals rising in that order
        above ``floor`` (within each seat's budget). The seats in ``wide`` bid twice in a
        lap: first a part of their payment, parts rising and below the first payment of
        all (the taker bid between), so each needs a part above the one before, the least
        such part being the best (``greedy_partials``). A branch is followed only while the
        seats after it can still rise. ``follow(k, block, after)`` is None where the rest
        cannot follow the ``k``-th seat's payment ``block`` (``after``: the cards left
        then), else what the rest sees of that seat's cards: two payments of a seat with
        the same total, part and view lead to the same answers, so one is tried."""
        if k == len(seats):
            yield []
            return
        if not can_rise(ladders, k, floor):
            return
        seat = seats[k]
        spare, closed = budgets[seat]
        sums = self.spent.sums
        tried = set()
        groups: Groups
        if closed:
            groups = ((sums[pools[seat]], sums[pools[seat]], (pools[seat],)),)
        elif seat in least:
            groups = self.meter.least_blocks(pools[seat])
        else:
            groups = by_size(self.spent.money, pools[seat])
        # The seats after this one can rise above a total exactly when it is below this.
        upper = headroom(ladders, k + 1)
        skipped = 0
        for bottom, top, blocks in groups:
            if blocks[0].bit_count() > spare or bottom >= upper:
                break  # fewest cards first: every later block is too large as well
            self.meter.tick()
            if top <= floor:
                continue  # (where the floor is high, most sizes are below it)
            for block in blocks:
                total = sums[block]
                if not floor < total < upper:
                    skipped += 1
                    if not skipped & 31:
                        self.meter.tick()  # a block passed over costs little
                    continue
                self.meter.tick()
                part = part_floor
                if seat in wide:
                    parts = ladder(self.spent.money, block, False, block.bit_count() - 1, False)
                    at = bisect.bisect_right(parts, part_floor)
                    if at == len(parts) or parts[at] >= (ceiling or total):
                        continue
                    part = parts[at]
                now = replaced(after, seat, after[seat] ^ block)
                view = follow(k, block, now)
                if view is None or (total, part, view) in tried:
                    continue
                tried.add((total, part, view))
                more_rising = self.rising(
                    seats,
                    pools,
                    budgets,
                    total,
                    wide,
                    ladders,
                    follow,
                    now,
                    least,
                    k + 1,
                    part,
                    ceiling or total,
                )
                for more in more_rising:
                    yield [(seat, block), *more]

    # --- the lower bids, the lap takers' bids and the normal auctions ------------------------

    def lower_bids(self, at: Position, r: int, given: _Given) -> Settlement | None:
        """For each normal auction paid above a lower bid, from the ``r``-th in
        ``at.lowers`` on: the card bid, and so the payment's bound in ``given.tokens``.
        Either the least card another seat held then without a condition (it surely held
        it, or paid it in a later disgrace round), or a lower card left that a later
        normal auction of that seat may take (``given.caps`` then keeps it for one)."""
        left, caps, chosen, tokens, lowered, _ = given
        if r == len(at.lowers):
            return self.taker_bids(at, 0, given)
        w, place, later, least, surely_by = at.lowers[r]
        bid = (least, surely_by)
        for j, blocks in enumerate(chosen):
            for a, block in blocks:
                if a != w and at.tokens[a].index(j) < later[a] and block:
                    bid = min(bid, (self.spent.lowest(block), a))
        options = [(*bid, 0)] if bid[1] >= 0 else []
        for a in range(self.n):
            normal = [i for i, t in enumerate(at.tokens[a][: later[a]]) if t < 0]
            if a == w or not normal:
                continue
            for bit in bits(left[a]):
                value = self.spent.money[bit.bit_length() - 1]
                if value >= bid[0]:
                    break
                if caps[a][bit] > normal[0]:
                    options.append((value, a, bit))
        options.sort()
        for value, a, bit in options:
            self.meter.tick()
            bound = replaced_in_list(tokens, w, replaced(tokens[w], place, OPEN - value))
            kept = caps
            if bit:
                cap = dict(caps[a])
                cap[bit] = min(cap[bit], later[a])
                kept = replaced_in_list(caps, a, cap)
            more = (*lowered, ((w, place), (a, value)))
            found = self.lower_bids(
                at, r + 1, given._replace(caps=kept, tokens=bound, lowered=more)
            )
            if found is not None:
                return found
        return None

    def taker_bids(self, at: Position, j: int, given: _Given) -> Settlement | None:
        """In each lap from the ``j``-th disgrace round on: the seats that bid twice bid
        parts first, and the taker then bids from its hand above the last part and below
        the first payment. Its hand then: the cards it surely held, those it paid in later
        disgrace rounds or has left for later payments only, or cards left that a later
        normal auction of its may take (each least set of those: ``given.caps`` then keeps
        them for such an auction)."""
        left, caps, chosen, tokens, _, bids = given
        deferred = at.deferred
        while j < len(deferred) and not deferred[j].lap:
            j += 1
        if j == len(deferred):
            return self.normal_payments(given)
        _, s, p, _, later = deferred[j]
        floor, ceiling = self.bid_window(s, p, dict(chosen[j]))
        owed = tokens[p]
        sure = self.held(p, owed[:later], chosen)
        # A card left that only payments after the round may take is paid after it too.
        sure |= sum(bit for bit, cap in caps[p].items() if left[p] & bit and cap <= later)
        bid = self.bid_between(sure, floor, ceiling)
        if bid:
            return self.taker_bids(at, j + 1, given._replace(bids=(*bids, (j, bid))))
        normal = [i for i, t in enumerate(owed) if t < 0]
        if not normal or normal[0] >= later:
            return None
        maybe = sum(bit for bit, cap in caps[p].items() if left[p] & bit and cap > normal[0])
        maybe &= ~sure
        needs: dict[int, int] = {}
        for bid in self.below(sure | maybe, ceiling):
            if self.spent.sums[bid] > floor:
                needs.setdefault(bid & maybe, bid)
        # Fewest cards first: a need that holds one tried before only keeps more cards.
        tried: list[int] = []
        for need in sorted(needs, key=int.bit_count):
            self.meter.tick(1 + (len(tried) >> 4))
            if any(other & need == other for other in tried):
                continue
            tried.append(need)
            kept = dict(caps[p])
            for bit in bits(need):
                kept[bit] = min(kept[bit], later)
            more = given._replace(
                caps=replaced_in_list(caps, p, kept), bids=(*bids, (j, needs[need]))
            )
            found = self.taker_bids(at, j + 1, more)
            if found is not None:
                return found
        return None

    def normal_payments(self, given: _Given) -> Settlement | None:
        """Give the cards left to the normal auctions, each a total above its bound."""
        blocks: list[tuple[int, ...]] = []
        for a in range(self.n):
            extra = self.seat_payments(given.tokens[a], given.left[a], given.caps[a])
            if extra is None:
                return None
            blocks.append(tuple(extra))
        return Settlement(tuple(blocks), given.chosen, dict(given.bids), dict(given.lowered))

    def seat_payments(
        self, tokens: tuple[int, ...], cards: int, caps: dict[int, int]
    ) -> list[int] | None:
        """One seat's ``cards``, each to one of its normal auctions it may go to, each a
        total above its bound; None if they do not fit. Extra cards only raise a total,
        so the latest normal auction takes every card no bound needs."""
        normal = [i for i, t in enumerate(tokens) if t < 0]
        if any(not normal or caps[bit] <= normal[0] for bit in bits(cards)):
            return None
        extra = [0] * len(tokens)
        # The earliest payments are the most constrained (fewest cards may go there).
        bounded = [i for i in reversed(normal) if tokens[i] < OPEN]
        if not self.bounded_payments(tokens, normal, bounded, cards, caps, extra):
            return None
        return extra

    def bounded_payments(
        self,
        tokens: tuple[int, ...],
        normal: list[int],
        bounded: list[int],
        cards: int,
        caps: dict[int, int],
        extra: list[int],
    ) -> bool:
        """Give each payment of ``bounded`` (places in ``tokens``, among the ``normal``
        auctions') a least set of ``cards`` above its bound (any set above it holds one),
        then each open payment one card, the latest normal auction the rest; fill
        ``extra``."""
        if bounded:
            place, rest = bounded[0], bounded[1:]
            fits = sum(bit for bit in bits(cards) if caps[bit] > place)
            for core in self.cores(fits, OPEN - tokens[place]):
                extra[place] = core
                if self.bounded_payments(tokens, normal, rest, cards ^ core, caps, extra):
                    return True
            extra[place] = 0
            return False
        ordered = sorted((caps[bit], bit) for bit in bits(cards))
        # Any card that fits the earliest open payment fits every later one.
        for i in reversed(normal):
            if tokens[i] == OPEN:
                fit = next((c for c in ordered if c[0] > i), None)
                if fit is None:
                    return False
                ordered.remove(fit)
                extra[i] = fit[1]
        for _, bit in ordered:
            extra[normal[0]] |= bit
        return True

    def cores(self, pool: int, value: int) -> Iterator[int]:
        """The least payments from ``pool`` above ``value``: sets whose total is above it
        and at most it without their lowest card. Each is a lowest card and a set of
        higher cards whose total is at most ``value``."""
        money = self.spent.money
        for k in range(len(money)):
            low = 1 << k
            if pool & low:
                self.meter.tick()
                higher = pool & ~((low << 1) - 1)
                if money[k] > value:
                    yield low
                for rest in self.below(higher, value + 1):
                    if self.spent.sums[rest] + money[k] > value:
                        yield low | rest

    def below(self, mask: int, ceiling: int, start: int = 0, chosen: int = 0) -> Iterator[int]:
        """The non-empty submasks of ``mask`` whose total is below ``ceiling``."""
        money = self.spent.money
        for k in range(start, len(money)):
            if mask >> k & 1:
                more = chosen | 1 << k
                if self.spent.sums[more] >= ceiling:
                    return  # money is ascending: every later card is too much as well
                self.meter.tick()
                yield more
                yield from self.below(mask, ceiling, k + 1, more)


def _room(tokens: tuple[int, ...], j: int, cards: int, pending: bool) -> tuple[int, bool]:
    """A seat's budget for its payment in the ``j``-th disgrace round, with ``cards`` left
    and its earlier disgrace payments made (but for one more if ``pending``): how many
    cards it may pay, beyond one for each other payment left, and whether it must pay them
    all (no other payment left)."""
    other = sum(t < 0 or t > j for t in tokens) + pending
    return cards.bit_count() - other, not other


def witness(spent: Spent, rounds: list[PastRound], settled: Settlement) -> list[PastRound]:
    """``rounds`` with the payments ``settled`` gave out filled in."""
    out = []
    n = spent.n
    for past in rounds:
        if past.slot < 0:
            out.append(past)
            continue
        w = past.taker
        paid = list(past.paid)
        if not isinstance(past.kind, StatusCard):
            paid[w] |= settled.blocks[w][past.slot]
            lower = settled.lowered.get((w, past.slot)) if past.starter == (w + 1) % n else None
            out.append(attrs.evolve(past, paid=tuple(paid), lower=lower))
            continue
        for a, block in settled.chosen[past.slot]:
            paid[a] = block
        if not past.lap:
            out.append(attrs.evolve(past, paid=tuple(paid), slot=-1))
            continue
        twice = chain(n, past.starter, w, True)[1]
        parts = greedy_partials([paid[a] for a in twice], spent.sums)
        assert parts is not None  # settle checked it
        partial = [0] * n
        for a, part in zip(twice, parts, strict=True):
            partial[a] = part
        bid = settled.bids[past.slot]
        out.append(
            attrs.evolve(past, paid=tuple(paid), partial=tuple(partial), taker_bid=bid, slot=-1)
        )
    return out

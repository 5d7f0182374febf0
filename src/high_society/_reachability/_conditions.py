"""Necessary conditions on what is left to explain: cheap checks that refute a position of
the backward search before its rounds are ordered (internal).

Each is a pure function of the seats' money (``Spent``) and the position, and each
docstring gives the argument that makes it necessary; ``tests/test_reachability.py`` has,
for each, a state it refutes at once and the search left undecided without it. Those that
read only how many payments each seat owes (the counts) refute every position of the same
shape whose seats owe as many payments or more: the order stage remembers them by shape.
"""

import bisect
import itertools

from high_society._reachability._money import Spent
from high_society._reachability._rounds import (
    OPEN,
    Position,
    Rounds,
    Tokens,
    chain,
    normal_left,
    paid_wins,
    starts,
    takers,
)
from high_society._reachability._tables import bits, one_less

#: Per seat: how many of its cards are spare beyond one for each payment it must still make,
#: and whether no round is left to pay its pool in (``closed``).
Budgets = list[tuple[int, bool]]


def budgets(spent: Spent, rounds: Rounds, s_next: int, tokens: Tokens) -> Budgets | None:
    """What ``rounds`` left, the latest taken by ``s_next``, ask of each seat's money: None
    when some are left and ``s_next`` took none of them; else each seat's spare cards and
    whether it is closed.

    A seat pays a card at least for each token and for each normal round left that it
    cannot have won free: a seat wins free only in a round the next seat started (R6), and
    the next seat starts as many of the rounds left as it took (``starts``)."""
    disgrace = rounds[3]
    normal = normal_left(rounds, spent.lost_by)
    took = takers(rounds, spent.lost_by)
    if any(took) and not took[s_next]:
        return None
    count = starts(took, s_next)
    left = sum(seat >= 0 for seat in disgrace)
    out = []
    for a in range(spent.n):
        won = normal[a]
        owed = len(tokens[a])
        spare = spent.pools[a].bit_count() - (owed + won - min(won, count[(a + 1) % spent.n]))
        out.append((spare, not (won or tokens[a] or left - disgrace.count(a))))
    return out


def over_budget(spent: Spent, budget: Budgets) -> bool:
    """Some seat has fewer cards than payments to make, or spent money and has no round
    left to pay it in."""
    return any(spare < 0 or (closed and spent.pools[a]) for a, (spare, closed) in enumerate(budget))


def short_of_starters(spent: Spent, at: Position, budget: Budgets) -> bool:
    """The rounds left cannot each have a starter.

    The first round was started by seat 0 and every other by the seat that took the round
    before it (R3, R6, R7), so of the rounds left each seat started as many as it took
    (``starts``). Some rounds allow few starters: a normal round won free was started by
    the seat after its winner, and a seat with more rounds to pay for than cards won the
    excess free; a disgrace round whose payers would include a seat with no card to spare
    was started, with no lap, by a seat between that seat and the taker. By Hall's theorem
    starters can be given out exactly when no set of seats is asked to start more rounds
    than it starts; only unions of the rounds' sets of starters need checking. Example:
    seat 0 spent nothing and owns two luxury cards, seat 1 took Passé, Scandale and one
    luxury card; seat 0 won both free, in rounds seat 1 started, and paid in no disgrace
    round, so seat 1 started those too: four rounds for its three starts."""
    n = spent.n
    won = normal_left(at.rounds, spent.lost_by)
    # Rounds by the set of seats (a bit mask) that may have started them.
    asked: dict[int, int] = {}
    for w in range(n):
        free = won[w] + len(at.tokens[w]) - spent.pools[w].bit_count()
        if free > 0:
            seat = 1 << (w + 1) % n
            asked[seat] = asked.get(seat, 0) + free
    short = [spare < 1 for spare, _ in budget]
    for p in at.rounds[3]:
        if p < 0 or not any(short[b] for b in range(n) if b != p):
            continue  # a lap (every seat but p pays) may follow any start
        # With no lap the seats from the starter up to p pay: the starters from p back
        # to the first seat with no card to spare.
        allowed = 1 << p
        s = (p - 1) % n
        while s != p and not short[s]:
            allowed |= 1 << s
            s = (s - 1) % n
        asked[allowed] = asked.get(allowed, 0) + 1
    if not asked:
        return False
    started = starts(takers(at.rounds, spent.lost_by), at.s_next)
    kinds = list(asked.items())
    seen = set()
    for pick in range(1, 1 << len(kinds)):
        group = 0
        for i, (allowed, _) in enumerate(kinds):
            if pick >> i & 1:
                group |= allowed
        if group in seen:
            continue
        seen.add(group)
        demand = sum(k for allowed, k in kinds if not allowed & ~group)
        if demand > sum(started[x] for x in range(n) if group >> x & 1):
            return True
    return False


def short_by_count(spent: Spent, at: Position, budget: Budgets) -> bool:
    """The checks of the disgrace payers that read only counts of payments: each seat that
    owes no payment yet, wins no normal round left and spent money pays all it spent in the
    disgrace rounds left; it must pay in one of them, above the seat before it, and the
    seats after it must be able to pay more."""
    won = normal_left(at.rounds, spent.lost_by)
    payers = [a for a in range(spent.n) if spent.pools[a] and not won[a] and not at.tokens[a]]
    if not payers:
        return False
    took = takers(at.rounds, spent.lost_by)
    started = starts(took, at.s_next)
    disgrace = at.rounds[3]
    return (
        cheaper_than_the_seat_before(spent, disgrace, payers, started)
        or nowhere_to_pay(spent, disgrace, payers, tuple(took), budget)
        or outpaid_by_count(spent, at, payers, won, started)
    )


def cheaper_than_the_seat_before(
    spent: Spent, disgrace: tuple[int, int, int], payers: list[int], started: list[int]
) -> bool:
    """A disgrace payer that started none of the rounds left (``started``) spent no more
    than the seat before it bid.

    It started none of them, so in any disgrace round it paid in, the seat before it bid
    first: as a payer, below it, a card that seat spent at least (if that seat takes no
    disgrace round left, ``disgrace``); or, as the taker of a lap, a card at least.
    Example: seat 4 took no card and spent only the 2, seat 3 took no disgrace card and
    spent nothing below 3."""
    for a in payers:
        if started[a]:
            continue
        b = (a - 1) % spent.n
        if b in disgrace:
            least = spent.money[0]
        else:
            least = spent.lowest(spent.pools[b]) if spent.pools[b] else spent.totals[a]
        if spent.totals[a] <= least:
            return True
    return False


def nowhere_to_pay(
    spent: Spent,
    disgrace: tuple[int, int, int],
    payers: list[int],
    takes: tuple[int, ...],
    budget: Budgets,
) -> bool:
    """A disgrace payer can pay in none of the disgrace rounds left (taken by
    ``disgrace``): one taken by another seat, from a starter that takes another round left
    (``takes``; or seat 0, first), with or without a lap, whose payers all have a card to
    spare for it. Example: a seat that took no card and spent money, whose only ways to pay
    (in Passé, taken by a seat two after it) have the seat before it pay too, with no card
    left."""
    return any(not _may_pay_in_disgrace(spent, disgrace, takes, a, budget) for a in payers)


def _may_pay_in_disgrace(
    spent: Spent, disgrace: tuple[int, int, int], takes: tuple[int, ...], a: int, budget: Budgets
) -> bool:
    for p in disgrace:
        if p < 0 or p == a:
            continue
        others = one_less(takes, p)
        for s in range(spent.n):
            if s and not others[s]:
                continue
            for lap in (False, True):
                payers = chain(spent.n, s, p, lap)[0]
                if a in payers and all(budget[b][0] >= 1 for b in payers):
                    return True
    return False


def outpaid_by_count(
    spent: Spent, at: Position, payers: list[int], won: list[int], started: list[int]
) -> bool:
    """:func:`outpaid_in_disgrace_rounds` for the disgrace payers, the other seats' payments
    counted by their number only (each at least one of their lowest cards, for each token
    and each normal round left they cannot have won free): it places no payment."""
    paid = paid_wins(won, started)
    need = [
        _least_spent(spent, spent.pools[b], len(at.tokens[b]) + paid[b]) for b in range(spent.n)
    ]
    return any(outbid(spent, a, at.rounds[3], [], need) for a in payers)


def _least_spent(spent: Spent, pool: int, count: int) -> int:
    """The least total of ``count`` payments from ``pool``: its ``count`` lowest cards."""
    total = 0
    for bit in bits(pool)[:count]:
        total += spent.money[bit.bit_length() - 1]
    return total


#: Each seat's least total of the payments it owes, each disgrace round's least payment
#: per payer, each disgrace round's payers, and the normal rounds left each seat takes.
Needs = tuple[list[int], dict[tuple[int, int], int], list[list[int]], list[int]]


def least_payments(spent: Spent, at: Position) -> Needs | None:
    """Each seat's least total of the payments it owes, with each disgrace round's least
    payment per payer and its payers; None when some payment cannot be made at all.

    A payment is a card at least; along a disgrace round's payers each pays more than the
    one before; in a lap the first payment is above the taker's bid, which is above the
    parts the seats that bid twice bid first, rising from a card at least. A normal round
    left that a seat cannot have won free (``paid_wins``) costs it a card at least."""
    n = spent.n
    pools = spent.pools
    won = normal_left(at.rounds, spent.lost_by)
    need = [0] * n
    started = starts(takers(at.rounds, spent.lost_by), at.s_next)
    for a, paid in enumerate(paid_wins(won, started)):
        if paid:
            if not pools[a]:
                return None
            need[a] = paid * spent.lowest(pools[a])
    least: dict[tuple[int, int], int] = {}
    chains = []
    for j, past in enumerate(at.deferred):
        payers, wide = chain(n, past.starter, past.taker, past.lap)
        chains.append(payers)
        floor = spent.money[0] + len(wide) if past.lap else 0
        for a in payers:
            ladder = spent.paid_totals[a]
            k = bisect.bisect_right(ladder, floor)
            if k == len(ladder):
                return None
            floor = least[a, j] = ladder[k]
            need[a] += floor
    for a in range(n):
        for t in at.tokens[a]:
            if t < 0:
                # Above its lower bid at least, any card (settle may lower the bound).
                ladder = spent.paid_totals[a]
                k = bisect.bisect_right(ladder, min(OPEN - t, spent.money[0]))
                if k == len(ladder):
                    return None
                need[a] += ladder[k]
    return need, least, chains, won


def short_of_money(spent: Spent, at: Position) -> bool:
    """The payments do not fit in what the seats spent: :func:`more_than_spent` or
    :func:`outpaid_in_disgrace_rounds`."""
    found = least_payments(spent, at)
    return (
        found is None
        or more_than_spent(spent, found)
        or outpaid_in_disgrace_rounds(spent, at, found)
    )


def more_than_spent(spent: Spent, found: Needs) -> bool:
    """A seat's payments take distinct cards of its pool, so their least totals
    (:func:`least_payments`) must add up to no more than it spent."""
    need = found[0]
    return any(need[a] > spent.totals[a] for a in range(spent.n))


def outpaid_in_disgrace_rounds(spent: Spent, at: Position, found: Needs) -> bool:
    """A seat ``a`` that won no normal round left and owes no normal payment pays exactly
    its total in disgrace rounds; in each, the seats after it up to the taker each pay more
    than ``a`` does (1 more for the next seat, 2 for the one after, ...). So for a set of
    seats with one of them after ``a`` in every disgrace round it pays in or may still pay
    in, their spent money must hold ``a``'s, plus those distances, plus the least totals of
    their other payments. Example (4 seats): seat 1 took Passé and Scandale, seat 2 owns
    nothing and spent all 106, seat 3 spent all 106 and won a luxury card: in each round
    seat 2 paid in, seat 3 bid after it, so it paid 108 at least there."""
    need, least, chains, won = found
    for a in range(spent.n):
        if not spent.pools[a] or won[a] or any(t < 0 for t in at.tokens[a]):
            continue
        follow = []
        for j in at.tokens[a]:
            payers = chains[j]
            after = payers[payers.index(a) + 1 :]
            follow.append([(b, d - least[b, j]) for d, b in enumerate(after, 1)])
        if outbid(spent, a, at.rounds[3], follow, need):
            return True
    return False


def outbid(
    spent: Spent,
    a: int,
    disgrace: tuple[int, int, int],
    taken: list[list[tuple[int, int]]],
    need: list[int],
) -> bool:
    """Whether seat ``a``, paying all it spent in disgrace rounds, cannot have: some set of
    the seats after it is :func:`outpaid`. ``taken``: per round taken back that it pays in,
    the seats after it with what each pays beyond it there; the rounds left, taken by
    ``disgrace``, it may pay in."""
    n = spent.n
    follow = [
        *taken,
        *([((a + d) % n, d) for d in range(1, (p - a) % n)] for p in disgrace if p >= 0 and p != a),
    ]
    if not follow:
        return True  # money spent and no round left to pay it in
    if not all(follow):
        return False  # it may pay last before the taker somewhere
    after = sorted({b for f in follow for b, _ in f})
    for size in range(1, len(after) + 1):
        for group in itertools.combinations(after, size):
            if outpaid(a, group, follow, len(taken), need, spent.totals):
                return True
    return False


def outpaid(
    a: int,
    group: tuple[int, ...],
    follow: list[list[tuple[int, int]]],
    taken: int,
    need: list[int],
    totals: tuple[int, ...],
) -> bool:
    """Whether the seats of ``group`` would pay more than they spent, if one of them
    follows seat ``a`` in each round of ``follow`` (the first ``taken`` are rounds ``a``
    pays in; it may pay in the others, and pays in one at least if it pays in none of
    those): each pays what ``a`` does there and its extra, and ``a`` pays all it spent."""
    bound = totals[a] + sum(need[b] for b in group)
    least_extra = None
    for k, seats in enumerate(follow):
        extras = [extra for b, extra in seats if b in group]
        if not extras:
            return False  # ``a`` may pay there with no seat of ``group`` after it
        if k < taken:
            bound += max(extras)
        elif least_extra is None or max(extras) < least_extra:
            least_extra = max(extras)
    if not taken and least_extra is not None:
        bound += least_extra
    return bound > sum(totals[b] for b in group)

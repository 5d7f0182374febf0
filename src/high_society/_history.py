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

Every payment is decided at the end, once every round is taken back (``settle``). Taking
a round back only records what it asks: each payer owes a payment (``_Position.tokens``):
at least one card; above the lower bid, for a normal auction its winner paid acting last;
totals rising along the payers, for a disgrace round. The seats' spent money is left
whole, so orders of the rounds that differ only in who paid what meet in one position,
searched once. Cheap checks prune on the way: counts (``budgets``: each seat keeps a card
for each payment still to make; ``disgrace``: the payers can still rise;
``short_of_starters``: each round left has a starter, the taker of the round before it,
and a round won free or whose payers must leave a seat out has few) and totals
(``short_of_money``: a seat's payments add up to what it spent, and the seats after a
payer in a disgrace round pay more than it; so a seat that pays only in disgrace rounds
cannot have spent more than the seats after it there can hold above it; and such a seat
needs a disgrace round left whose payers can all still pay: ``short_by_count``). At the end,
``settle`` gives each seat's spent money out to its payments: first the disgrace rounds'
sets, totals rising (and in a lap, parts to bid first, with room for the taker's bid
between them and the first payment); then each lower bid, a card
another seat held then: one it surely held, or one it paid in a later disgrace round, or
one a later normal auction of its takes (which it then must); then each lap taker's bid
from its hand then, likewise; last the normal auctions, each a card at least (a total
above its lower bid), any card left to the latest one. A seat's hand at the time of a round is
what it had not paid before, so each of those steps asks exactly what the rules ask, and
the search is exact: it finds a history exactly when the state is reachable. A history
found is a witness: :func:`history_actions` turns it into actions, and the tests replay
them through the rules to the state.

The search memoises the positions it has refuted (a position refuted by the counts alone,
``budgets``, ``short_by_count`` and ``short_of_starters``, refutes every position of its
shape whose seats owe as many payments or more) and counts its work; past
:data:`WORK_LIMIT` units (docs/verification.md gives the time measured) it stops and says
so (:class:`Undecided`), so that hostile input costs bounded time. The answer is then "not
refuted": callers accept the state, never refusing a reachable one. A first pass caps the
work of each ``settle`` (:data:`SETTLE_FIRST`), so that one end whose payments are many to
refute does not use up the work an easy witness elsewhere needs, and takes most of the
work (:data:`FIRST_SHARE`); the ends it cut short are then settled with caps growing
(:data:`DEEPER`), then none, and once one fits, a second pass finds its history. On the
explored games and on the first sample of standard games in docs/verification.md the
search always ends within the limit; on a few other standard states and on hostile ones
it may not (their cards may allow too many orders and payments to try).
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
    "outpaid",
]

#: How many units of work (positions visited plus payments tried) :func:`find_history`
#: may spend before it gives up with :class:`Undecided`.
WORK_LIMIT = 50_000
#: The work each ``settle`` (the payments given out once every round is taken back) may
#: take in the search's first pass.
SETTLE_FIRST = 500
#: The eighths of its work the first pass may take, and the caps on each ``settle`` the
#: ends it cut short are then tried with, in turn (then none).
FIRST_SHARE = 7
DEEPER = (2_000, 8_000)

_T = TypeVar("_T")
_FP = StatusCard.FAUX_PAS
_PASSE = StatusCard.PASSE
_SCANDALE = StatusCard.SCANDALE
#: The kinds of normal rounds: a luxury card kept, a prestige card, the luxury card that
#: went out of the game with Faux Pas.
LUXURY, PRESTIGE, LOST_LUXURY = "luxury", "prestige", "lost luxury"


class Undecided(Exception):
    """The search reached :data:`WORK_LIMIT` before it found a history or refuted all."""


class _Deep(Exception):
    """A ``settle`` reached the work its pass allows it."""


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
        slot: in a normal auction paid for, its place among the winner's payments,
            latest first; -1 in a free one and in a disgrace auction (the search settles
            every payment last, and uses the slot on the way).
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
_Tokens = tuple[tuple[int, ...], ...]
#: Submasks in groups of one number of cards, each with the least and largest total of
#: that many.
_Groups = tuple[tuple[int, int, tuple[int, ...]], ...]
#: Payments a seat made after the time of the round taken back next (``_Position.tokens``):
#: a number ``j`` >= 0 is a payment in the ``j``-th disgrace round taken back; ``_OPEN - v``
#: a normal auction's payment, of a total above ``v`` (0: any non-empty set).
_OPEN = -1


class _Deferred(NamedTuple):
    """A disgrace round taken back whose payments the end decides (see ``settle``).

    ``later``: how many of the taker's payments (``_Position.tokens``) came after the
    round. In a lap, the taker's bid comes from the cards it never spent and the ones it
    paid in those payments.
    """

    card: int
    starter: int
    taker: int
    lap: bool
    later: int


class _Lower(NamedTuple):
    """A normal auction whose winner acted last, paying above the bid of a seat that
    passed then (see ``settle``).

    ``place``: the payment's place among the winner's (``_Position.tokens``); ``later``:
    per seat, how many of its payments came after the round; ``least``: the lowest card
    another seat surely held then (``surely_by`` held it), above the money's top if none.
    """

    winner: int
    place: int
    later: tuple[int, ...]
    least: int
    surely_by: int


class _Position(NamedTuple):
    """What is left to explain, going backward in time (the seats' spent money is given out
    at the end: ``_Search.pools``).

    ``tokens``: per seat, the payments it made after the time of the round taken back
    next, latest first (``_OPEN - v`` or a disgrace round's number). ``deferred``: the
    disgrace rounds taken back, in the order they were; ``lowers``: the normal auctions
    paid above another seat's bid.
    """

    rounds: _Rounds
    s_next: int
    tokens: _Tokens
    deferred: tuple[_Deferred, ...] = ()
    lowers: tuple[_Lower, ...] = ()


class _Given(NamedTuple):
    """What ``settle`` has decided so far: the cards each seat has ``left`` to give;
    ``caps``, per seat and card, how many of its latest payments it may go to; the
    disgrace rounds' payments ``chosen``; each seat's payments' bounds, ``tokens``."""

    left: tuple[int, ...]
    caps: list[dict[int, int]]
    chosen: dict[int, list[tuple[int, int]]]
    tokens: list[tuple[int, ...]]


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
        self.unsettled: set[_Position] = set()
        self.misshapen: dict[
            tuple[_Rounds, int, tuple[bool, ...], bool], list[tuple[int, ...]]
        ] = {}
        self.leaves = 0  # how often the search reached the game's start, to ask ``settle``
        # A pass may cap each ``settle``'s work at ``deep`` units (``stop``: where the
        # work stops); ``cut`` holds the ends it cut short.
        self.deep: int | None = None
        self.cut: list[_Position] = []
        self.settled: dict[
            _Position,
            tuple[
                list[list[int]],
                dict[int, list[tuple[int, int]]],
                dict[int, int],
                dict[tuple[int, int], tuple[int, int]],
            ],
        ] = {}
        self.stop = limit
        # What the last ``settle`` that fits chose: normal auctions' cards per seat and
        # payment, disgrace rounds' payments and lap takers' bids by round number.
        self.blocks: list[list[int]] = []
        self.chosen: dict[int, list[tuple[int, int]]] = {}
        self.bids: dict[int, int] = {}
        self.lowered: dict[tuple[int, int], tuple[int, int]] = {}
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
        # Each seat's spent money, given out to its payments at the end, and the cards it
        # never spent: it held those at the time of every round.
        self.pools = tuple(self.mask(spent) for spent, _ in seats)
        self.hands = tuple(self.full & ~pool for pool in self.pools)
        self.totals = tuple(self.sums[pool] for pool in self.pools)
        # Each pool's payment totals (any non-empty part of it), ascending.
        self.paid_totals = tuple(
            _ladder(money, pool, False, len(money), False) for pool in self.pools
        )

    def start(self, s_next: int) -> _Position:
        n = self.n
        return _Position(self.start_rounds, s_next, ((),) * n)

    def lowest(self, mask: int) -> int:
        """The value of the lowest card of the non-empty ``mask``."""
        return self.money[(mask & -mask).bit_length() - 1]

    def mask(self, cards: frozenset[int]) -> int:
        out = 0
        for c in cards:
            out |= 1 << self.position[c]
        return out

    def tick(self, units: int = 1) -> None:
        self.work += units
        if self.work > self.stop:
            if self.work > self.limit:
                raise Undecided
            raise _Deep

    def takers(self, rounds: _Rounds) -> list[int]:
        """How many of ``rounds`` each seat takes."""
        count = self.normal_left(rounds)
        for seat in rounds[3]:
            if seat >= 0:
                count[seat] += 1
        return count

    def hopeful(self, at: _Position) -> list[tuple[int, bool]] | None:
        """Necessary conditions on what is left, cheap to check: the ``budgets``, or None
        where they fail."""
        budgets = self.budgets(at.rounds, at.s_next, at)
        if budgets is None or any(
            spare < 0 or (closed and self.pools[a]) for a, (spare, closed) in enumerate(budgets)
        ):
            return None
        return budgets

    def normal_left(self, rounds: _Rounds) -> list[int]:
        """How many normal rounds (a luxury card, a prestige card, the luxury card out of
        the game) each seat takes among ``rounds``."""
        lux, prestige, lost, _ = rounds
        won = [x + y for x, y in zip(lux, prestige, strict=True)]
        if lost and self.lost_by is not None:
            won[self.lost_by] += 1
        return won

    def short_by_count(self, at: _Position, budgets: list[tuple[int, bool]]) -> bool:
        """Checks by counts for each seat that owes no payment yet and wins no normal round
        left, so that it pays all it spent in the disgrace rounds left: it must be able to
        pay in one (``may_pay_in_disgrace``); having started no round, it paid more than
        the seat before it bid there (a card that seat spent, if it takes no disgrace round
        left; else the lowest card); and ``short_of_money``'s second check, each other
        seat's payments counted only by their number (at least its lowest cards, one
        each). More payments owed only leave fewer cards to spare and raise those totals,
        so a position this refutes refutes its shape, as ``budgets`` does."""
        self.tick()
        n = self.n
        pools = self.pools
        disgrace = at.rounds[3]
        won = self.normal_left(at.rounds)
        seats = [a for a in range(n) if pools[a] and not won[a] and not at.tokens[a]]
        if not seats:
            return False
        took = self.takers(at.rounds)
        starts = self.starts(took, at.s_next)
        paid = self.paid_wins(won, starts)
        need = [self.least_spent(pools[b], len(at.tokens[b]) + paid[b]) for b in range(n)]
        takes = tuple(took)
        for a in seats:
            if not starts[a]:
                # In each round it pays in, the seat before it bid first (it started
                # none of them): as a payer, below it, a card it spent at least; or as
                # the taker of a lap, a card at least.
                b = (a - 1) % n
                if b in disgrace:
                    least = self.money[0]
                else:
                    least = self.lowest(pools[b]) if pools[b] else self.totals[a]
                if self.totals[a] <= least:
                    return True
            if not self.may_pay_in_disgrace(disgrace, takes, a, budgets):
                return True
            if self.outbid(a, disgrace, [], need):
                return True
        return False

    def starts(self, took: list[int], s_next: int) -> list[int]:
        """How many of the rounds left each seat started, ``took`` how many each took
        (``takers``): seat 0 the first, then the taker of each round the next (R6, R7),
        but for the latest, taken by ``s_next``."""
        count = list(took)
        if any(count):
            count[s_next] -= 1
            count[0] += 1
        return count

    def paid_wins(self, won: list[int], starts: list[int]) -> list[int]:
        """How many of the normal rounds left each seat (``won``) paid for at least: it won
        the others free, each started by the seat after it (``starts``)."""
        n = self.n
        return [max(0, won[w] - starts[(w + 1) % n]) for w in range(n)]

    def short_of_starters(self, at: _Position, budgets: list[tuple[int, bool]]) -> bool:
        """Whether the rounds left cannot each have a starter (``starts``): a normal round
        won free was started by the seat after its winner, and a seat with more rounds to
        pay for than cards (``at.tokens`` included) won the excess free; a disgrace round
        whose payers would include a seat with no card to spare (``budgets``) was started
        by a seat nearer its taker, with no lap. By Hall's theorem, starters can be given
        out exactly when no set of seats is asked to start more rounds than it starts. More
        payments owed only leave fewer cards, so a position this refutes refutes its shape."""
        self.tick()
        n = self.n
        won = self.normal_left(at.rounds)
        # Rounds by the set of seats (a bit mask) that may have started them.
        asked: dict[int, int] = {}
        for w in range(n):
            free = won[w] + len(at.tokens[w]) - self.pools[w].bit_count()
            if free > 0:
                seat = 1 << (w + 1) % n
                asked[seat] = asked.get(seat, 0) + free
        short = [spare < 1 for spare, _ in budgets]
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
        # A set of seats asked too much is the union of the starters of some of the rounds.
        starts = self.starts(self.takers(at.rounds), at.s_next)
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
            if demand > sum(starts[x] for x in range(n) if group >> x & 1):
                return True
        return False

    def may_pay_in_disgrace(
        self,
        disgrace: tuple[int, int, int],
        takes: tuple[int, ...],
        a: int,
        budgets: list[tuple[int, bool]],
    ) -> bool:
        """Whether seat ``a`` can pay in one of the disgrace rounds left, taken by
        ``disgrace``: one taken by another seat, from a starter that takes another round
        left (``takes``: how many each seat takes; or seat 0, in the first round), with or
        without a lap, whose payers all have a card to spare for it (``budgets``)."""
        for p in disgrace:
            if p < 0 or p == a:
                continue
            others = _minus(takes, p)
            for s in range(self.n):
                if s and not others[s]:
                    continue
                for lap in (False, True):
                    payers = self.chain(s, p, lap)[0]
                    if a in payers and all(budgets[b][0] >= 1 for b in payers):
                        return True
        return False

    def least_spent(self, pool: int, count: int) -> int:
        """The least total of ``count`` payments from ``pool``: its ``count`` lowest cards."""
        total = 0
        for bit in _bits(pool)[:count]:
            total += self.money[bit.bit_length() - 1]
        return total

    def short_of_money(self, at: _Position) -> bool:
        """Whether the payments' totals cannot add up to the seats' spent money: a seat's
        payments take distinct cards of its pool, so their least totals must fit in its
        total (a normal round left it cannot have won free, ``paid_wins``, a card at least);
        and a seat ``a`` that pays only in disgrace rounds pays exactly its total
        there, while in each such round the seats after it, up to the taker, pay more. So
        for a set of seats that follow ``a`` in every round it may pay in (those taken
        back and those left), their totals must hold ``a``'s total, plus for each round the
        distance to the follower, plus the least totals of their other payments."""
        self.tick()
        n = self.n
        pools, totals = self.pools, self.totals
        disgrace = at.rounds[3]
        won = self.normal_left(at.rounds)
        need = [0] * n
        starts = self.starts(self.takers(at.rounds), at.s_next)
        for a, paid in enumerate(self.paid_wins(won, starts)):
            if paid:  # normal rounds left it paid for: a card at least each
                if not pools[a]:
                    return True
                need[a] = paid * self.lowest(pools[a])
        least: dict[tuple[int, int], int] = {}
        chains = []
        for j, past in enumerate(at.deferred):
            payers, wide = self.chain(past.starter, past.taker, past.lap)
            chains.append(payers)
            # In a lap the first payment is above the taker's bid, which is above the
            # parts the seats that bid twice bid first, rising from a card at least.
            floor = self.money[0] + len(wide) if past.lap else 0
            for a in payers:
                ladder = self.paid_totals[a]
                k = bisect.bisect_right(ladder, floor)
                if k == len(ladder):
                    return True
                floor = least[a, j] = ladder[k]
                need[a] += floor
        for a in range(n):
            for t in at.tokens[a]:
                if t < 0:
                    # Above its lower bid at least, any card (settle may lower the bound).
                    ladder = self.paid_totals[a]
                    k = bisect.bisect_right(ladder, min(_OPEN - t, self.money[0]))
                    if k == len(ladder):
                        return True
                    need[a] += ladder[k]
            if need[a] > totals[a]:
                return True
        for a in range(n):
            if not pools[a] or won[a] or any(t < 0 for t in at.tokens[a]):
                continue
            # Per disgrace round taken back that ``a`` pays in: the seats after it up to the
            # taker, each with what it must pay beyond ``a`` there (its distance after
            # ``a``, less its least total already counted); ``outbid`` adds the rounds left.
            follow = []
            for j in at.tokens[a]:
                payers = chains[j]
                after = payers[payers.index(a) + 1 :]
                follow.append([(b, d - least[b, j]) for d, b in enumerate(after, 1)])
            if self.outbid(a, disgrace, follow, need):
                return True
        return False

    def outbid(
        self,
        a: int,
        disgrace: tuple[int, int, int],
        taken: list[list[tuple[int, int]]],
        need: list[int],
    ) -> bool:
        """Whether seat ``a``, paying all it spent in disgrace rounds, cannot have: some set
        of the seats after it is ``outpaid``. ``taken``: per round taken back that it pays
        in, the seats after it with what each pays beyond it there; the rounds left, taken
        by ``disgrace``, it may pay in."""
        n = self.n
        follow = [
            *taken,
            *(
                [((a + d) % n, d) for d in range(1, (p - a) % n)]
                for p in disgrace
                if p >= 0 and p != a
            ),
        ]
        if not follow:
            return True  # money spent and no round left to pay it in
        if not all(follow):
            return False  # it may pay last before the taker somewhere
        after = sorted({b for f in follow for b, _ in f})
        for size in range(1, len(after) + 1):
            for group in itertools.combinations(after, size):
                if outpaid(a, group, follow, len(taken), need, self.totals):
                    return True
        return False

    def budgets(self, rounds: _Rounds, s_next: int, at: _Position) -> list[tuple[int, bool]] | None:
        """What ``rounds`` left, the latest taken by ``s_next``, ask of each seat's money in
        ``at``: None when some are left and ``s_next`` took none of them; else per seat,
        how many of its cards are spare beyond one for each open
        payment and each normal auction it must still pay for (it may win free only after
        a round the next seat took), and whether no round is left to pay its pool in
        (``closed``). A disgrace round taken back now may take at most the spare cards of
        a seat, and must take all of a closed seat's pool."""
        self.tick()
        n = self.n
        disgrace = rounds[3]
        normal = self.normal_left(rounds)
        took = self.takers(rounds)
        if any(took) and not took[s_next]:
            return None
        count = self.starts(took, s_next)
        left = sum(seat >= 0 for seat in disgrace)
        pools = self.pools
        out = []
        for a in range(n):
            tokens = at.tokens[a]
            won = normal[a]
            cards = pools[a].bit_count()
            owed = len(tokens)
            spare = cards - (owed + won - min(won, count[(a + 1) % n]))
            out.append((spare, not (won or tokens or left - disgrace.count(a))))
        return out

    def search(self, at: _Position, faux_pas_last: bool = False) -> list[PastRound] | None:
        """A history of ``at.rounds`` ending with a round taken by ``at.s_next``, earliest
        first, whose payments account for what ``at`` leaves; None if there is none."""
        lux, prestige, lost, disgrace = at.rounds
        if not any(lux) and not any(prestige) and not lost and disgrace == (-1, -1, -1):
            if at.s_next != 0:
                return None
            self.leaves += 1
            return self.settle(at)
        # Which rounds are left, who took the latest and how many payments each seat owes
        # decide every branch below, but not whether the payments fit (``settle``). So a
        # position refuted before any of them was asked refutes every one of its shape
        # whose seats owe as many payments or more (each owes a card: less room).
        owed = tuple(map(len, at.tokens))
        shape = (at.rounds, at.s_next, tuple(map(bool, owed)), faux_pas_last)
        fewer = self.misshapen.get(shape, [])
        if any(all(map(int.__le__, other, owed)) for other in fewer):
            return None
        key = (_canonical(at), faux_pas_last)
        if key in self.refuted:
            self.leaves += 1  # refuted after asking ``settle`` (else its shape would be)
            return None
        leaves, cut = self.leaves, len(self.cut)
        self.tick(2)  # a position costs little time next to the end's checks
        budgets = self.hopeful(at)
        if (
            budgets is None
            or self.short_by_count(at, budgets)
            or self.short_of_starters(at, budgets)
        ):
            pass
        elif self.short_of_money(at):
            self.leaves += 1  # it looks at the payments, not only at how many: not the shape's
        else:
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
                        before = after._replace(rounds=rest, s_next=s)
                        earlier = self.search(before)
                        if earlier is not None:
                            return [*earlier, done()]
        if len(self.cut) != cut:
            pass  # an end left open below: not refuted
        elif self.leaves == leaves:
            fewer[:] = [o for o in fewer if not all(map(int.__le__, owed, o))]
            fewer.append(owed)
            self.misshapen[shape] = fewer
        else:
            self.refuted.add(key)
        return None

    def settle(self, at: _Position) -> list[PastRound] | None:
        """With every round taken back: give each seat's spent money out to its payments
        (see the module's docstring for the order), each card to one it may go to (a card
        a hand needed at some time: one of the payments after that time). None if they do
        not fit. The returned list is empty: the caller fills in the payments (``fill``).
        In a pass that caps it (``deep``), a ``settle`` cut short answers None and joins
        ``cut``."""
        self.tick(8)
        key = _canonical(at)
        if key in self.unsettled:
            return None
        if self.short_of_money(at):
            self.unsettled.add(key)
            return None
        if at in self.settled:  # (by the position itself: the payments follow its order)
            blocks, chosen, bids, lowered = self.settled[at]
            self.blocks, self.chosen, self.bids, self.lowered = (
                blocks,
                chosen,
                {**bids},
                {**lowered},
            )
            return []
        caps: list[dict[int, int]] = []
        for a in range(self.n):
            if not at.tokens[a] and self.pools[a]:
                return None
            caps.append(dict.fromkeys(_bits(self.pools[a]), len(at.tokens[a])))
        if self.deep is not None:
            self.stop = min(self.limit, self.work + self.deep)
        try:
            if self.disgrace_payments(at, 0, self.pools, caps, {}):
                self.settled[at] = (self.blocks, self.chosen, dict(self.bids), dict(self.lowered))
                return []
        except _Deep:
            self.cut.append(at)  # left for later: nothing is refuted meanwhile
            return None
        finally:
            self.stop = self.limit
        self.unsettled.add(key)
        return None

    def disgrace_payments(
        self,
        at: _Position,
        j: int,
        left: tuple[int, ...],
        caps: list[dict[int, int]],
        chosen: dict[int, list[tuple[int, int]]],
    ) -> bool:
        """Choose the payments of the ``j``-th disgrace round taken back and of the ones
        after it in ``at.deferred``, from the cards ``left``; then the lower bids, the
        taker's bids and the normal auctions' payments. (Any card may go to any disgrace
        payment: only those steps keep cards for some payments.)"""
        if j == len(at.deferred):
            return self.lower_bids(at, 0, _Given(left, caps, chosen, list(at.tokens)))
        _, s, p, lap, _ = at.deferred[j]
        payers, wide = self.chain(s, p, lap)
        budgets = [(0, False)] * self.n
        for a in payers:
            budgets[a] = self.room(at.tokens[a], j, left[a], False)
        ladders = [self.ladder(left[a], a in wide, *budgets[a]) for a in payers]
        # Seats whose payment here matters to the rest only by its total (see ``trace``)
        # and its count (the fewer cards the better): one least payment per total.
        least = {a for a in payers if a not in wide and self.by_total(at, j, a)}

        def follow(k: int, block: int, after: tuple[int, ...]) -> object:
            if not self.can_follow(at, j, payers, k, after):
                return None
            return self.trace(at, j, left, payers[k], block)

        for blocks in self._rising(payers, left, budgets, 0, wide, ladders, follow, left, least):
            after = list(left)
            for a, block in blocks:
                after[a] ^= block
            chosen[j] = blocks
            if lap and not self.may_bid(at, j, after, chosen):
                continue
            if self.disgrace_payments(at, j + 1, tuple(after), caps, chosen):
                return True
        return False

    def may_bid(
        self, at: _Position, j: int, left: list[int], chosen: dict[int, list[tuple[int, int]]]
    ) -> bool:
        """Whether the taker of the ``j``-th disgrace round, a lap whose payments are
        ``chosen``, can bid between the parts bid first and the first payment (see
        ``taker_bids``) from what it may have held then: the cards it never spent, those
        it paid in later disgrace rounds, and, if it pays for a normal auction after the
        round, the cards ``left``. Asked as soon as the round's payments are chosen."""
        self.tick()
        _, s, p, _, later = at.deferred[j]
        floor, ceiling = self.bid_window(s, p, dict(chosen[j]))
        owed = at.tokens[p][:later]
        hand = self.held(p, owed, chosen) | (left[p] if any(t < 0 for t in owed) else 0)
        return bool(self.bid_between(hand, floor, ceiling))

    def held(self, p: int, owed: tuple[int, ...], chosen: dict[int, list[tuple[int, int]]]) -> int:
        """The cards seat ``p`` surely held at the time of a round, ``owed`` the payments it
        made after it: those it never spent and those it paid in later disgrace rounds."""
        hand = self.hands[p]
        for t in owed:
            if t >= 0:
                hand |= dict(chosen[t])[p]
        return hand

    def bid_between(self, hand: int, floor: int, ceiling: int) -> int:
        """A set of ``hand`` whose total is above ``floor`` and below ``ceiling`` (the
        least such total), or 0 if there is none."""
        if not hand:
            return 0
        totals, masks = self.per_total(hand)
        i = bisect.bisect_right(totals, floor)
        return masks[i] if i < len(totals) and totals[i] < ceiling else 0

    def bid_window(self, s: int, p: int, paid: dict[int, int]) -> tuple[int, int]:
        """In a lap started by ``s`` and taken by ``p`` with the payments ``paid``: the
        total the taker bid above (the last of the least parts the seats that bid twice
        bid first) and the one it bid below (the first payment)."""
        twice = self.chain(s, p, True)[1]
        self.tick(sum(1 << paid[a].bit_count() for a in twice) >> 6)
        parts = greedy_partials([paid[a] for a in twice], self.sums)
        assert parts is not None  # ``_rising`` gave each of them a part
        floor = self.sums[parts[-1]] if parts else 0
        return floor, self.sums[paid[(p + 1) % self.n]]

    def chain(self, s: int, p: int, lap: bool) -> tuple[list[int], list[int]]:
        """A disgrace round's payers, started by ``s`` and taken by ``p``, in the order
        their totals rise, and the seats that bid twice, in order (in a lap: the seats from
        ``s`` up to ``p``; none with no lap, where those are the payers)."""
        n = self.n
        first = [(s + i) % n for i in range((p - s) % n)]
        if lap:
            return [(p + 1 + i) % n for i in range(n - 1)], first
        return first, []

    def room(self, tokens: tuple[int, ...], j: int, cards: int, pending: bool) -> tuple[int, bool]:
        """A seat's budget for its payment in the ``j``-th disgrace round, with
        ``cards`` left and its earlier disgrace payments made (but for one more if
        ``pending``): how many cards it may pay, beyond one for each other payment left,
        and whether it must pay them all (no other payment left)."""
        other = sum(t < 0 or t > j for t in tokens) + pending
        return cards.bit_count() - other, not other

    def can_follow(
        self, at: _Position, j: int, payers: list[int], k: int, after: tuple[int, ...]
    ) -> bool:
        """Whether, the first ``k + 1`` of ``payers`` having paid in the ``j``-th disgrace
        round with the cards ``after`` left, each later disgrace round the last of them
        pays in can still rise (see ``_can_rise``)."""
        pending = set(payers[k + 1 :])
        for t in at.tokens[payers[k]]:
            if t <= j:
                continue
            self.tick()
            _, s, p, lap, _ = at.deferred[t]
            later, wide = self.chain(s, p, lap)
            ladders = []
            for a in later:
                tokens = at.tokens[a]
                others = tuple(u for u in tokens if u != t)
                spare, closed = self.room(others, j, after[a], a in pending)
                ladders.append(self.ladder(after[a], a in wide, spare, closed))
            if not _can_rise(ladders, 0, 0):
                return False
        return True

    def owed_after(self, at: _Position, j: int, seat: int) -> tuple[list[int], int] | None:
        """The disgrace rounds after the ``j``-th that ``seat`` pays in, and how many normal
        auctions it pays for; None when a lower bid or a lap the seat took may need one of
        its cards (then ``settle`` sees the cards themselves)."""
        if at.lowers or any(d.lap and d.taker == seat for d in at.deferred):
            return None
        tokens = at.tokens[seat]
        return [t for t in tokens if t > j], sum(t < 0 for t in tokens)

    def bids_twice(self, at: _Position, t: int, seat: int) -> bool:
        """Whether ``seat`` bids twice in the ``t``-th disgrace round."""
        _, s, p, lap, _ = at.deferred[t]
        return seat in self.chain(s, p, lap)[1]

    def by_total(self, at: _Position, j: int, seat: int) -> bool:
        """Whether ``trace`` sees only the total and count of ``seat``'s payment in the
        ``j``-th disgrace round (the fewer cards, the more room left)."""
        owed = self.owed_after(at, j, seat)
        if owed is None:
            return False
        others, normal = owed
        if not others:
            return True
        return len(others) == 1 and not normal and not self.bids_twice(at, others[0], seat)

    def trace(self, at: _Position, j: int, left: tuple[int, ...], seat: int, block: int) -> object:
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
                return self.ladder(rest, False, count - normal, not normal)
            if not normal:
                return self.sums[rest], self.ladder(rest, False, count - 1, False)
        return rest

    def lower_bids(self, at: _Position, r: int, given: _Given) -> bool:
        """For each normal auction paid above a lower bid, from the ``r``-th in
        ``at.lowers`` on: the card bid, and so the payment's bound in ``given.tokens``.
        Either the least card another seat held then without a condition (it surely held
        it, or paid it in a later disgrace round), or a lower card left that a later
        normal auction of that seat may take (``given.caps`` then keeps it for one)."""
        left, caps, chosen, tokens = given
        if r == len(at.lowers):
            return self.taker_bids(at, 0, given)
        w, place, later, least, surely_by = at.lowers[r]
        bid = (least, surely_by)
        for j, blocks in chosen.items():
            for a, block in blocks:
                if a != w and at.tokens[a].index(j) < later[a] and block:
                    bid = min(bid, (self.lowest(block), a))
        options = [(*bid, 0)] if bid[1] >= 0 else []
        for a in range(self.n):
            normal = [i for i, t in enumerate(at.tokens[a][: later[a]]) if t < 0]
            if a == w or not normal:
                continue
            for bit in _bits(left[a]):
                value = self.money[bit.bit_length() - 1]
                if value >= bid[0]:
                    break
                if caps[a][bit] > normal[0]:
                    options.append((value, a, bit))
        options.sort()
        for value, a, bit in options:
            self.tick()
            self.lowered[w, place] = (a, value)
            bound = _with_item(tokens, w, _with(tokens[w], place, _OPEN - value))
            kept = caps
            if bit:
                cap = dict(caps[a])
                cap[bit] = min(cap[bit], later[a])
                kept = _with_item(caps, a, cap)
            if self.lower_bids(at, r + 1, given._replace(caps=kept, tokens=bound)):
                return True
        return False

    def taker_bids(self, at: _Position, j: int, given: _Given) -> bool:
        """In each lap from the ``j``-th disgrace round on: the seats that bid twice bid
        parts first, and the taker then bids from its hand above the last part and below
        the first payment. Its hand then: the cards it surely held, those it paid in later
        disgrace rounds or has left for later payments only, or cards left that a later
        normal auction of its may take (each least set of those: ``given.caps`` then keeps
        them for such an auction)."""
        left, caps, chosen, tokens = given
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
            self.bids[j] = bid
            return self.taker_bids(at, j + 1, given)
        normal = [i for i, t in enumerate(owed) if t < 0]
        if not normal or normal[0] >= later:
            return False
        maybe = sum(bit for bit, cap in caps[p].items() if left[p] & bit and cap > normal[0])
        maybe &= ~sure
        needs: dict[int, int] = {}
        for bid in self.below(sure | maybe, ceiling):
            if self.sums[bid] > floor:
                needs.setdefault(bid & maybe, bid)
        # Fewest cards first: a need that holds one tried before only keeps more cards.
        tried: list[int] = []
        for need in sorted(needs, key=int.bit_count):
            self.tick(1 + (len(tried) >> 4))
            if any(other & need == other for other in tried):
                continue
            tried.append(need)
            kept = dict(caps[p])
            for bit in _bits(need):
                kept[bit] = min(kept[bit], later)
            self.bids[j] = needs[need]
            if self.taker_bids(at, j + 1, given._replace(caps=_with_item(caps, p, kept))):
                return True
        return False

    def normal_payments(self, given: _Given) -> bool:
        """Give the cards left to the normal auctions, each a total above its bound."""
        left, caps, chosen, tokens = given
        blocks: list[list[int]] = []
        for a in range(self.n):
            extra = self.seat_payments(tokens[a], left[a], caps[a])
            if extra is None:
                return False
            blocks.append(extra)
        self.blocks = blocks
        self.chosen = dict(chosen)
        return True

    def seat_payments(
        self, tokens: tuple[int, ...], cards: int, caps: dict[int, int]
    ) -> list[int] | None:
        """One seat's ``cards``, each to one of its normal auctions it may go to, each a
        total above its bound; None if they do not fit. Extra cards only raise a total,
        so the latest normal auction takes every card no bound needs."""
        normal = [i for i, t in enumerate(tokens) if t < 0]
        if any(not normal or caps[bit] <= normal[0] for bit in _bits(cards)):
            return None
        extra = [0] * len(tokens)
        # The earliest payments are the most constrained (fewest cards may go there).
        bounded = [i for i in reversed(normal) if tokens[i] < _OPEN]
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
            fits = sum(bit for bit in _bits(cards) if caps[bit] > place)
            for core in self.cores(fits, _OPEN - tokens[place]):
                extra[place] = core
                if self.bounded_payments(tokens, normal, rest, cards ^ core, caps, extra):
                    return True
            extra[place] = 0
            return False
        ordered = sorted((caps[bit], bit) for bit in _bits(cards))
        # Any card that fits the earliest open payment fits every later one.
        for i in reversed(normal):
            if tokens[i] == _OPEN:
                fit = next((c for c in ordered if c[0] > i), None)
                if fit is None:
                    return False
                ordered.remove(fit)
                extra[i] = fit[1]
        for _, bit in ordered:
            extra[normal[0]] |= bit
        return True

    def last_rounds(
        self, rounds: _Rounds, w: int, faux_pas_last: bool
    ) -> Iterator[tuple[str | StatusCard, _Rounds]]:
        """The rounds ``w`` took that can be the latest of ``rounds``, each with the rest."""
        lux, prestige, lost, disgrace = rounds
        faux_pas_left = disgrace[0] == w
        if faux_pas_last:
            if disgrace[0] == w:
                yield _DISGRACE[0], (lux, prestige, lost, (-1, disgrace[1], disgrace[2]))
            return
        if lux[w]:
            yield LUXURY, (_minus(lux, w), prestige, lost, disgrace)
        # Luxury and prestige rounds differ only for the seat R8 concerns.
        if prestige[w] and (not lux[w] or w == self.lost_by):
            yield PRESTIGE, (lux, _minus(prestige, w), lost, disgrace)
        # Disgrace rounds last: their payments, decided at the end, constrain the most, so
        # a disgrace round taken back early leaves the most positions to refute below it.
        for k, seat in enumerate(disgrace):
            if seat == w and not (k == 2 and disgrace[1] == w):
                # (Passé and Scandale auctions are alike (R7): taken by one seat, which
                # came last does not matter, so Passé is taken back first.)
                rest = (*disgrace[:k], -1, *disgrace[k + 1 :])
                yield _DISGRACE[k], (lux, prestige, lost, (rest[0], rest[1], rest[2]))
        # R8: the lost luxury card came before Faux Pas (discarded for it), or after it as
        # the taker's first luxury card: then every other luxury card it owns came later.
        # Tried after the seat's disgrace rounds: taken back first, it leaves many orders
        # to refute below it, and it was mostly won before them (discarded for Faux Pas).
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

    def normal(
        self, kind: str, w: int, s: int, at: _Position
    ) -> Iterator[tuple[Callable[[], PastRound], _Position]]:
        n = self.n
        nothing = (0,) * n
        token = len(at.tokens[w])
        if s != (w + 1) % n:
            # Any non-empty payment: which cards is settled at the end.
            tokens = _with(at.tokens, w, (*at.tokens[w], _OPEN))
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
            ((self.lowest(bit), a) for a in range(n) if a != w for bit in _bits(self.hands[a])),
            default=(self.money[-1] + 1, -1),
        )
        lowest = surely[0]
        for a in range(n):
            if a != w and at.tokens[a] and self.pools[a]:
                lowest = min(lowest, self.lowest(self.pools[a]))
        if self.sums[self.pools[w]] <= lowest:
            return  # the payment comes out of that pool
        later = tuple(len(tokens) for tokens in at.tokens)
        record = _Lower(w, token, later, *surely)
        yield (
            functools.partial(PastRound, kind, s, w, nothing, slot=token),
            at._replace(
                tokens=_with(at.tokens, w, (*at.tokens[w], _OPEN - surely[0])),
                lowers=(*at.lowers, record),
            ),
        )

    def disgrace(
        self,
        card: StatusCard,
        p: int,
        s: int,
        at: _Position,
        budgets: list[tuple[int, bool]],
    ) -> Iterator[tuple[Callable[[], PastRound], _Position]]:
        """The round's payments are decided at the end, with the others' (``settle``):
        here each payer only owes one, if the payers can still pay totals rising."""
        n = self.n
        d = (p - s) % n
        nothing = (0,) * n
        # A seat that pays nothing now must keep within its budget as it is.
        stuck = {
            a
            for a, (spare, closed) in enumerate(budgets)
            if spare < 0 or (closed and self.pools[a])
        }
        if p in stuck:
            return
        # No lap: the seats from s up to p bid once each, rising, and pay.
        ways = [(False, 0)]
        # A lap from the seat after p pays the same as no lap, with more bids. In a lap
        # every seat but p pays; p bids below the first payment, from its hand then (or
        # cards it paid later).
        hand = self.hands[p] | (self.pools[p] if at.tokens[p] else 0)
        if d != n - 1 and hand:
            ways.append((True, self.lowest(hand)))
        j = len(at.deferred)
        for lap, floor in ways:
            payers, wide = self.chain(s, p, lap)
            if not stuck <= set(payers):
                continue
            self.tick(len(payers))
            ladders = [self.ladder(self.pools[a], a in wide, *budgets[a]) for a in payers]
            if not _can_rise(ladders, 0, floor):
                continue
            tokens = list(at.tokens)
            for a in payers:
                tokens[a] = (*tokens[a], j)
            later = _Deferred(_DISGRACE.index(card), s, p, lap, len(at.tokens[p]))
            yield (
                functools.partial(PastRound, card, s, p, nothing, lap, slot=j),
                at._replace(tokens=tuple(tokens), deferred=(*at.deferred, later)),
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
        above ``floor`` (within each seat's budget, see ``budgets``). The seats in
        ``wide`` bid twice in a lap: first a part of their payment, parts rising and
        below the first payment of all (the taker bid between), so each needs a part
        above the one before, the least such part being the best (see
        ``greedy_partials``). A branch is followed only while the seats after it can
        still rise: the least total above the one before, seat by seat, decides that.
        ``follow(k, block, after)`` is None where the rest cannot follow the ``k``-th
        seat's payment ``block`` (``after``: the cards left then), else what the rest
        sees of that seat's cards: two payments of a seat with the same total, part and
        view lead to the same answers, so one is tried."""
        if k == len(seats):
            yield []
            return
        if not _can_rise(ladders, k, floor):
            return
        seat = seats[k]
        spare, closed = budgets[seat]
        tried = set()
        groups: _Groups
        if closed:
            groups = ((self.sums[pools[seat]], self.sums[pools[seat]], (pools[seat],)),)
        elif seat in least:
            groups = self.least_blocks(pools[seat])
        else:
            groups = _by_size(self.money, pools[seat])
        # The seats after this one can rise above a total exactly when it is below this.
        upper = _headroom(ladders, k + 1)
        skipped = 0
        for bottom, top, blocks in groups:
            if blocks[0].bit_count() > spare or bottom >= upper:
                break  # fewest cards first: every later block is too large as well
            self.tick()
            if top <= floor:
                continue  # (where the floor is high, most sizes are below it)
            for block in blocks:
                total = self.sums[block]
                if not floor < total < upper:
                    skipped += 1
                    if not skipped & 31:
                        self.tick()  # a block passed over costs little
                    continue
                self.tick()
                part = part_floor
                if seat in wide:
                    parts = _ladder(self.money, block, False, block.bit_count() - 1, False)
                    at = bisect.bisect_right(parts, part_floor)
                    if at == len(parts) or parts[at] >= (ceiling or total):
                        continue
                    part = parts[at]
                now = _with(after, seat, after[seat] ^ block)
                view = follow(k, block, now)
                if view is None or (total, part, view) in tried:
                    continue
                tried.add((total, part, view))
                more_rising = self._rising(
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

    def least_blocks(self, mask: int) -> _Groups:
        """``_least_blocks`` for this search, its cost counted as a ladder's."""
        self.ladder(mask, False, mask.bit_count(), False)
        return _least_blocks(self.money, mask)

    def per_total(self, mask: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """``_per_total`` for this search, its cost counted as a ladder's."""
        self.ladder(mask, False, mask.bit_count(), False)
        return _per_total(self.money, mask)

    def fill(self, rounds: list[PastRound]) -> list[PastRound]:
        """``rounds`` with the payments settled (see ``settle``)."""
        out = []
        n = self.n
        for past in rounds:
            if past.slot < 0:
                out.append(past)
                continue
            w = past.taker
            paid = list(past.paid)
            if not isinstance(past.kind, StatusCard):
                paid[w] |= self.blocks[w][past.slot]
                lower = self.lowered.get((w, past.slot)) if past.starter == (w + 1) % n else None
                out.append(attrs.evolve(past, paid=tuple(paid), lower=lower))
                continue
            for a, block in self.chosen[past.slot]:
                paid[a] = block
            if not past.lap:
                out.append(attrs.evolve(past, paid=tuple(paid), slot=-1))
                continue
            twice = self.chain(past.starter, w, True)[1]
            parts = greedy_partials([paid[a] for a in twice], self.sums)
            assert parts is not None  # settle checked it
            partial = [0] * n
            for a, part in zip(twice, parts, strict=True):
                partial[a] = part
            bid = self.bids[past.slot]
            out.append(
                attrs.evolve(past, paid=tuple(paid), partial=tuple(partial), taker_bid=bid, slot=-1)
            )
        return out


@functools.lru_cache(maxsize=4096)
def _by_size(money: tuple[int, ...], mask: int) -> _Groups:
    """The non-empty submasks of ``mask`` by their number of cards, fewest first (a
    disgrace auction's bids are mostly small, so a history is found sooner this way),
    each number with the least and the largest total of that many cards (the lowest and
    the highest, over ``money``, which is ascending)."""
    groups: dict[int, list[int]] = {}
    for sub in _submasks(mask):
        groups.setdefault(sub.bit_count(), []).append(sub)
    values = [money[bit.bit_length() - 1] for bit in _bits(mask)]
    bottoms = list(itertools.accumulate(values))
    tops = list(itertools.accumulate(reversed(values)))
    return tuple(
        (bottoms[size - 1], tops[size - 1], tuple(groups[size])) for size in sorted(groups)
    )


@functools.lru_cache(maxsize=4096)
def _per_total(money: tuple[int, ...], mask: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The totals of the non-empty submasks of ``mask`` (over ``money``), ascending and
    distinct, and a submask with each."""
    sums = _subset_sums(money)
    one = {sums[sub]: sub for sub in _submasks(mask)}
    totals = tuple(sorted(one))
    return totals, tuple(one[total] for total in totals)


@functools.lru_cache(maxsize=4096)
def _least_blocks(money: tuple[int, ...], mask: int) -> _Groups:
    """``_by_size`` with, for each total, only its first submask (one with the fewest
    cards)."""
    sums = _subset_sums(money)
    seen: set[int] = set()
    out = []
    for bottom, top, blocks in _by_size(money, mask):
        firsts = []
        for sub in blocks:
            if sums[sub] not in seen:
                seen.add(sums[sub])
                firsts.append(sub)
        if firsts:
            out.append((bottom, top, tuple(firsts)))
    return tuple(out)


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


def _headroom(ladders: list[tuple[int, ...]], k: int) -> float:
    """The floor the seats from ``k`` on can rise above exactly when it is below this (of
    two floors, they rise above the lower whenever above the higher): each seat's highest
    total below the next seat's bound."""
    bound = float("inf")
    for ladder in reversed(ladders[k:]):
        i = bisect.bisect_left(ladder, bound)
        if not i:
            return 0
        bound = ladder[i - 1]
    return bound


def _can_rise(ladders: list[tuple[int, ...]], k: int, floor: int) -> bool:
    """Whether the seats from ``k`` on can pay totals rising above ``floor``: taking the
    least total above the one before leaves the most room, so it finds a way if any."""
    for ladder in ladders[k:]:
        at = bisect.bisect_right(ladder, floor)
        if at == len(ladder):
            return False
        floor = ladder[at]
    return True


def _canonical(at: _Position) -> _Position:
    """``at`` with each seat's payments in a canonical order where their order does not
    matter: between two places that a lap it took or a lower bid refers to, every payment
    may take the same cards (``settle``), so only how many of each kind matters there.
    For the memos of refuted positions only: a history follows the real order."""
    tokens = []
    for seat, owed in enumerate(at.tokens):
        if len(owed) < 2:
            tokens.append(owed)
            continue
        cuts = {later.later for later in at.deferred if later.taker == seat}
        for lower in at.lowers:
            cuts.add(lower.later[seat])
            if lower.winner == seat:
                cuts.update((lower.place, lower.place + 1))
        cuts.add(len(owed))
        out: list[int] = []
        for cut in sorted(cuts):
            if cut > len(out):
                out += sorted(owed[len(out) : cut])
        tokens.append(tuple(out))
    return at._replace(tokens=tuple(tokens))


def _bits(mask: int) -> list[int]:
    """The single bits of ``mask``."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def _with_item(values: list[_T], seat: int, value: _T) -> list[_T]:
    return [*values[:seat], value, *values[seat + 1 :]]


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
    # work, then the pairs left open again in turn, each share twice the one before, so
    # that one hard pair does not use up the work another would decide with. Refuted
    # positions are kept per Faux Pas taker, so a pair tried again does not redo them.
    takers = list(range(len(seats))) if StatusCard.FAUX_PAS in removed else [None]
    searches = [_Search(money, seats, lost_by, limit) for lost_by in takers]
    tries = [(search, s_next) for search in searches for s_next in starters]
    share = limit // (4 * len(tries)) if len(tries) > 1 else limit
    while tries:
        left_open = []
        for search, s_next in tries:
            work = min(share, limit - sum(s.work for s in searches))
            if work <= 0:
                return _UNDECIDED
            found = _search_from(search, s_next, discarding, search.work + work)
            if found == _UNDECIDED:
                left_open.append((search, s_next))
            elif found is not None:
                return found
        tries = left_open
        share *= 2
    return None


def _search_from(
    search: _Search, s_next: int, discarding: bool, limit: int
) -> tuple[PastRound, ...] | str | None:
    """The history ``search`` finds from ``s_next`` within ``limit`` units of its work
    (counted from its start), None if there is none, or ``_UNDECIDED``."""
    # A first pass caps each ``settle``: a history is mostly found at an end that fits at
    # once, while an end whose payments are many to refute could use up the work. It may
    # take a share of the work only, so that the ends it cut short get the rest: they are
    # settled in turn, with caps growing, and once one fits a second pass finds a history
    # (every end before it known by then). If none fits, a first pass that ended stands.
    start = search.start(s_next)
    search.deep = SETTLE_FIRST
    search.cut = []
    search.limit = search.stop = search.work + (limit - search.work) * FIRST_SHARE // 8
    try:
        found = search.search(start, faux_pas_last=discarding)
        ended = True
    except Undecided:
        found, ended = None, False
    search.limit = search.stop = limit
    try:
        cut = search.cut
        for deep in (*DEEPER, None):
            if found is not None or not cut:
                break
            search.deep = deep
            search.cut = []
            if any(search.settle(at) is not None for at in cut):
                found = search.search(start, faux_pas_last=discarding)
                break
            cut = search.cut
    except Undecided:
        return _UNDECIDED
    if found is None:
        return None if ended else _UNDECIDED
    return tuple(search.fill(found))


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

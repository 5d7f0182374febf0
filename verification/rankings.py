"""The scoring's domains: ``status_of`` over every holding, ``winners`` and ``result`` over
every ranking of the seats in every seat order, each with its symbolic twin.

A ranking (:func:`ranking_keys`) says how many seats there are, how many are cast out, and
how each other seat differs from the one before it, the seats sorted by (status, money, top
luxury card): not at all, by the top card only, by money, or by status. ``winners`` and its
conditions compare statuses with statuses, money with money and top cards with top cards,
and compare money only between seats of equal status, top cards only between seats of
equal status and money (tuples compare the next item only on equality); so in the twin each
is an unknown (:class:`~verification.symbolic.Number`) and the facts say only those
comparisons. A cast-out seat's status and luxury cards are opaque: nothing may read them.
Who is cast out is ``cast_out``'s answer, whose contract CrossHair confirms over all paths;
the twin's ``cast_out`` gives the key's cast-out seats for the twin's money and refuses any
other argument. ``result`` is glue: its twin reads each seat's status cards only through
``status_of`` and the statuses only through ``winners``, stand-ins that give, for exactly the
twin's arguments, answers their own confirmed contracts allow, every one of them in turn.
"""

import itertools
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any, NoReturn

from high_society import GameState, Phase, PlayerState, StatusCard, sort_cards
from high_society.cards import MAX_PLAYERS, MIN_PLAYERS
from high_society.scoring import StatusBreakdown, status_of
from verification import order
from verification.domains import opaque_state, seat_values, state_values
from verification.finite import holdings
from verification.schema import Domain, Part, Schema, Valuation
from verification.symbolic import Block, Money, Number, Opaque, Read, facts_of

SCORING = "high_society.scoring"

# --- status_of -------------------------------------------------------------------------------


def status_of_valuation(key: tuple[StatusCard, ...]) -> Valuation:
    return {}


def status_of_representative(cards: Sequence[StatusCard]) -> tuple[Any, Valuation]:
    """The holding in canonical order (the syntactic lemma of :mod:`verification.order`
    carries every order)."""
    return sort_cards(cards), {}


STATUS_OF = Domain(
    SCORING,
    "status_of",
    (
        Part(
            "every holding a seat can have, in canonical order",
            holdings,
            lambda cards: Schema({"cards": cards}),
            status_of_valuation,
            twin=False,
        ),
    ),
    "the same cards in any order: status_of and its conditions read the cards only through"
    " `in`, `count`, and values sorted or summed (verification/order.py)",
    status_of_representative,
    exact=False,
    syntactic=order.problems,
)


# --- rankings --------------------------------------------------------------------------------

#: How a seat not cast out differs from the one before it, the seats sorted by (status,
#: money, top luxury card): not at all, by the top luxury card only, by money, by status.
SAME, BY_TOP, BY_MONEY, BY_STATUS = range(4)
#: (seats, how many are cast out, the step from each seat not cast out to the next)
RankingKey = tuple[int, int, tuple[int, ...]]
#: A ranking, and the seat that each place of it is: seat ``order[j]`` has place ``j``.
OrderedKey = tuple[RankingKey, tuple[int, ...]]


def ranking_keys(max_seats: int = MAX_PLAYERS, min_seats: int = 1) -> Iterator[RankingKey]:
    """Every number of seats, of seats cast out (one at least: some seat has the least
    money), and of steps between the others: 117 keys for 1 to 5 seats."""
    for n in range(min_seats, max_seats + 1):
        for out in range(1, n + 1):
            for steps in itertools.product(range(4), repeat=max(n - out - 1, 0)):
                yield n, out, steps


def ordered_keys(min_seats: int = 1) -> Iterator[OrderedKey]:
    """Every ranking in every seat order: 10,889 for 1 to 5 seats."""
    for key in ranking_keys(MAX_PLAYERS, min_seats):
        for seats in itertools.permutations(range(key[0])):
            yield key, seats


def ranks(key: RankingKey) -> list[tuple[int, int, int]]:
    """Each place's (status, money, top luxury card) ranks: the seats cast out first, with
    (0, 0, 0); then the others from (0, 1, 0), each step raising its own rank and restarting
    the ones after it (money from 1, above the seats cast out)."""
    n, out, steps = key
    places = [(0, 0, 0)] * out
    if n > out:
        status, money, top = 0, 1, 0
        places.append((status, money, top))
        for step in steps:
            if step == BY_TOP:
                top += 1
            elif step == BY_MONEY:
                money, top = money + 1, 0
            elif step == BY_STATUS:
                status, money, top = status + 1, 1, 0
            places.append((status, money, top))
    return places


def seat_ranks(key: OrderedKey) -> list[tuple[int, int, int] | None]:
    """Each seat's ranks, ``None`` for a seat cast out."""
    ranking, order = key
    found: list[tuple[int, int, int] | None] = [None] * ranking[0]
    for place, r in enumerate(ranks(ranking)):
        found[order[place]] = None if place < ranking[1] else r
    return found


class LuxuryCard:
    """A stand-in luxury card: its value is an unknown, nothing else may be asked."""

    __slots__ = ("luxury_value",)

    def __init__(self, value: Number) -> None:
        self.luxury_value = value

    def __getattr__(self, name: str) -> NoReturn:
        raise Read(f"a luxury card's .{name} read (only its value may be)")

    def instantiate(self, valuation: Valuation, numbers: Any) -> StatusCard:
        return StatusCard.luxury(int(self.luxury_value.value(numbers)))


class Breakdown:
    """A stand-in breakdown: its status and its luxury cards, lowest first; nothing else."""

    __slots__ = ("luxury_cards", "status")

    def __init__(self, status: object, luxury_cards: object) -> None:
        self.status = status
        self.luxury_cards = luxury_cards

    def __getattr__(self, name: str) -> NoReturn:
        raise Read(f"a breakdown's .{name} read (only its status and luxury cards may be)")

    def instantiate(self, valuation: Valuation, numbers: Any) -> StatusBreakdown:
        from verification.schema import instantiate

        return status_of(instantiate(self.luxury_cards, valuation))


def twin_breakdown(seat: int, r: tuple[int, int, int] | None) -> Breakdown:
    """Seat ``seat``'s breakdown: opaque if it is cast out; no luxury card for top rank 0;
    else a card below its top card and the top card, each worth an unknown."""
    if r is None:
        return Breakdown(Opaque(f"seat {seat}'s status"), Opaque(f"seat {seat}'s luxury cards"))
    cards: tuple[LuxuryCard, ...] = ()
    if r[2]:
        cards = (
            LuxuryCard(Number.unknown(f"low {seat}")),
            LuxuryCard(Number.unknown(f"top {seat}")),
        )
    return Breakdown(Number.unknown(f"status {seat}"), cards)


def ranking_facts(key: OrderedKey, money: Sequence[Number]) -> dict[Any, int]:
    """The comparisons ``winners`` and its conditions make, decided by the ranks: statuses
    of seats not cast out; their money where statuses tie; their top cards where both tie,
    and against 0 (no card); each seat's lower card below its top card."""
    found = []
    seats = [(i, r) for i, r in enumerate(seat_ranks(key)) if r is not None]
    for (i, a), (j, b) in itertools.combinations(seats, 2):

        def sign(x: int, y: int) -> int:
            return (x > y) - (x < y)

        found.append(
            (Number.unknown(f"status {i}"), Number.unknown(f"status {j}"), sign(a[0], b[0]))
        )
        if a[0] == b[0]:
            found.append((money[i], money[j], sign(a[1], b[1])))
            if a[1] == b[1] and a[2] and b[2]:
                found.append(
                    (Number.unknown(f"top {i}"), Number.unknown(f"top {j}"), sign(a[2], b[2]))
                )
    for i, r in seats:
        if r[2]:
            top = Number.unknown(f"top {i}")
            found += [(top, Number(), 1), (Number.unknown(f"low {i}"), top, -1)]
    return facts_of(found)


def twin_cast_out(money: Sequence[Number], out: tuple[int, ...]) -> Any:
    """``cast_out`` for a twin whose seats ``out`` have the least money: that answer, for
    the twin's own money only (its contract, confirmed by CrossHair, gives no other)."""

    def cast_out(given: Sequence[object]) -> tuple[int, ...]:
        same = len(given) == len(money) and all(
            isinstance(m, Number) and m.terms == e.terms and m.const == e.const
            for m, e in zip(given, money, strict=True)
        )
        if not same:
            raise Read(f"cast_out asked about {given!r}, not the seats' money")
        return out

    return cast_out


def winners_schema(key: OrderedKey) -> Schema:
    n = key[0][0]
    money = tuple(Number.unknown(f"money {i}") for i in range(n))
    breakdowns = [twin_breakdown(i, r) for i, r in enumerate(seat_ranks(key))]
    inputs = {
        "scores": tuple(b.status for b in breakdowns),
        "money": money,
        "breakdowns": tuple(breakdowns),
    }
    out = tuple(i for i, r in enumerate(seat_ranks(key)) if r is None)
    patches = {"cast_out": twin_cast_out(money, out)}
    return Schema(inputs, ranking_facts(key, money), patches)


def ranking_valuation(key: OrderedKey) -> dict[str, object]:
    """Statuses, money and top cards as their ranks (top card 2 x rank beside Luxury 1, so
    that a reading by the lowest card would tie them); a seat cast out: status 20 + seat,
    above every other, Luxury 9 and 10, no money. Opaque parts get those values."""
    values: dict[str, object] = {}
    for i, r in enumerate(seat_ranks(key)):
        if r is None:
            values[f"seat {i}'s status"] = Fraction(20 + i)
            values[f"seat {i}'s luxury cards"] = (StatusCard.LUXURY_9, StatusCard.LUXURY_10)
            values[f"money {i}"] = 0
            continue
        values[f"status {i}"] = Fraction(r[0])
        values[f"money {i}"] = r[1]
        values[f"low {i}"] = 1
        values[f"top {i}"] = 2 * r[2]
    return values


def winners_representative(
    scores: Sequence[Fraction], money: Sequence[int], breakdowns: Sequence[StatusBreakdown]
) -> tuple[OrderedKey, Valuation]:
    """The ranking of an input of ``winners`` and its seat order: the seats cast out first,
    then the others sorted by (status, money, top luxury card)."""
    tops = [max((c.luxury_value for c in b.luxury_cards), default=0) for b in breakdowns]
    lows = [min((c.luxury_value for c in b.luxury_cards), default=0) for b in breakdowns]
    least = min(money)
    out = [i for i, m in enumerate(money) if m == least]
    rest = sorted(
        (i for i, m in enumerate(money) if m != least), key=lambda i: (scores[i], money[i], tops[i])
    )
    steps = []
    for a, b in itertools.pairwise(rest):
        if scores[a] != scores[b]:
            steps.append(BY_STATUS)
        elif money[a] != money[b]:
            steps.append(BY_MONEY)
        else:
            steps.append(BY_TOP if tops[a] != tops[b] else SAME)
    key = ((len(money), len(out), tuple(steps)), (*out, *rest))
    values: dict[str, object] = {}
    for i in range(len(money)):
        values[f"money {i}"] = money[i]
        values[f"seat {i}'s status"] = scores[i]
        values[f"seat {i}'s luxury cards"] = breakdowns[i].luxury_cards
        values[f"status {i}"] = scores[i]
        values[f"top {i}"] = tops[i]
        # A seat with one luxury card has none below its top: the twin's lower card is
        # then below it in value only (docs/verification.md, "What is not proved").
        values[f"low {i}"] = lows[i] if lows[i] < tops[i] else Fraction(tops[i], 2)
    return key, values


WINNERS = Domain(
    SCORING,
    "winners",
    (
        Part(
            "1 to 5 seats: how many are cast out, how each other seat differs from the one"
            " before it sorted by status, money and top luxury card, in every seat order",
            ordered_keys,
            winners_schema,
            ranking_valuation,
        ),
    ),
    "statuses, money and top luxury cards any values ranked alike; the lower luxury cards"
    " any values below their seat's top; a cast-out seat's status and luxury cards anything",
    winners_representative,
    exact=False,
)


# --- result ----------------------------------------------------------------------------------

#: (seats, the seats cast out, the seats that win: one answer ``winners`` may give)
ResultKey = tuple[int, tuple[int, ...], tuple[int, ...]]


def result_keys() -> Iterator[ResultKey]:
    """3 to 5 seats, every set of them cast out, every answer of ``winners`` its contract
    allows then: a non-empty set of the others, or none when every seat is cast out: 245."""
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        for k in range(1, n + 1):
            for out in itertools.combinations(range(n), k):
                rest = [i for i in range(n) if i not in out]
                answers = [
                    w for j in range(1, len(rest) + 1) for w in itertools.combinations(rest, j)
                ]
                for won in answers or [()]:
                    yield n, out, won


def result_schema(key: ResultKey) -> Schema:
    """Each seat's hand and face-up money a block of any cards; its status cards opaque,
    read through ``status_of``, whose twin gives an opaque breakdown; ``cast_out`` and
    ``winners`` give the key's answers for exactly these arguments (each function's contract
    is confirmed apart, and allows those answers)."""
    n, out, won = key
    players = []
    breakdowns = {}
    for i in range(n):
        cards = Opaque(f"seat {i}'s status cards")
        breakdowns[id(cards)] = Breakdown(
            Opaque(f"seat {i}'s status"), Opaque(f"seat {i}'s luxury cards")
        )
        players.append(
            PlayerState(
                Money(i, [Block(i, f"hand {i}", False)]),  # type: ignore[arg-type]
                Money(i, [Block(i, f"table {i}", False)]),  # type: ignore[arg-type]
                Opaque(f"seat {i}'s spent money"),  # type: ignore[arg-type]
                Opaque(f"seat {i}'s passed flag"),  # type: ignore[arg-type]
                cards,  # type: ignore[arg-type]
            )
        )
    state = opaque_state(tuple(players), Phase.OVER, Opaque("the turn"))
    money = [Number.unknown(f"Σhand {i}") + Number.unknown(f"Σtable {i}") for i in range(n)]
    ours = list(breakdowns.values())

    def twin_status_of(cards: object) -> Breakdown:
        found = breakdowns.get(id(cards))
        if found is None:
            raise Read(f"status_of asked about {cards!r}, not a seat's status cards")
        return found

    def twin_winners(scores: Any, given: Any, breakdowns: Any) -> tuple[int, ...]:
        twin_cast_out(money, out)(given)
        if list(breakdowns) != ours or list(scores) != [b.status for b in ours]:
            raise Read("winners asked about other statuses or breakdowns than the seats'")
        return won

    patches = {
        "status_of": twin_status_of,
        "cast_out": twin_cast_out(money, out),
        "winners": twin_winners,
    }
    return Schema({"state": state}, {}, patches)


def result_valuation(key: ResultKey) -> Valuation:
    """Money 1 in hand for a seat not cast out, none for one cast out; Luxury 5 for each
    seat that wins, nothing for the others; a seat cast out holds Luxury 10 and three
    prestige cards, the best status of all."""
    n, out, won = key
    values: dict[str, object] = {**state_values(), "the turn": 0}
    for i in range(n):
        cards = (L(10), *[PRESTIGE] * 3) if i in out else (L(5),) if i in won else ()
        hand = frozenset() if i in out else frozenset({1})
        values |= seat_values(i, PlayerState(hand, status_cards=cards))
    return values


def result_representative(state: GameState) -> tuple[ResultKey, Valuation]:
    """The seats cast out and the winners of the real answer; the stand-ins' values."""
    from high_society.scoring import result

    answer = result(state)
    values: dict[str, object] = dict(state_values(state))
    values["the turn"] = state.turn
    for i, p in enumerate(state.players):
        values |= seat_values(i, p)
    return (len(state.players), answer.cast_out, answer.winners), values


L = StatusCard.luxury
PRESTIGE = StatusCard.PRESTIGE

RESULT = Domain(
    SCORING,
    "result",
    (
        Part(
            "3 to 5 seats, every set of them cast out, every answer winners may give",
            result_keys,
            result_schema,
            result_valuation,
        ),
    ),
    "each seat's money any sets of cards in hand and face up; its status cards (any a seat can"
    " hold: status_of's domain), status and luxury cards anything, read only through"
    " status_of and winners, whose contracts are confirmed apart",
    result_representative,
)

SCORING_DOMAINS: Sequence[Domain] = (STATUS_OF, WINNERS, RESULT)

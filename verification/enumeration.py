"""Contracts checked by exhaustive enumeration, where CrossHair cannot exhaust its paths.

CrossHair confirms a condition only when it explores every execution path, and it forks
once per enum member and per sequence length, so a function that takes a sequence of
status cards or a game state has more paths than any budget (docs/verification.md). Some
of those functions have a finite domain in the game, or one that is finite up to changes
that change no answer (each argued in the docs and tested): the status cards one seat can
hold, a bid with the standard money. Here the SAME conditions (the ``pre:``/``post:``
lines of the function's docstring, evaluated as CrossHair evaluates them) are checked on
every input of such a domain. A result here is "confirmed by enumeration over N inputs",
never a CrossHair confirmation; the domain each one covers is stated in
:data:`ENUMERATIONS`.

Run: ``.venv/bin/python -m verification.enumeration`` (the deep run calls it too).
"""

import functools
import importlib
import inspect
import itertools
import sys
from collections.abc import Callable, Collection, Iterator, Mapping
from fractions import Fraction
from types import CodeType

import attrs

from high_society import (
    Bid,
    GameState,
    Phase,
    PlayerState,
    StatusCard,
    sort_cards,
)
from high_society.cards import STANDARD
from high_society.scoring import StatusBreakdown, status_of
from verification import domains
from verification.small_game import SMALL_GAME

#: A function's input, by parameter name.
Inputs = Mapping[str, object]


def conditions(function: Callable[..., object]) -> list[tuple[str, str]]:
    """The ``("pre" | "post", expression)`` conditions of ``function``'s docstring."""
    found = []
    for line in (inspect.getdoc(function) or "").splitlines():
        kind, colon, expression = line.strip().partition(":")
        if colon and kind in ("pre", "post"):
            found.append((kind, expression.strip()))
    return found


@attrs.frozen
class Outcome:
    """What the enumeration found for one condition."""

    condition: str
    inputs: int
    #: The first input on which the condition was false (``None`` when it always held).
    counterexample: Inputs | None


def check(
    function: Callable[..., object],
    inputs: Callable[[], Iterator[Inputs]],
    module: str | None = None,
) -> list[Outcome]:
    """Call ``function`` on every input; evaluate its conditions in its module's namespace
    (or in ``module``'s: a broken copy elsewhere is checked as the original would be).

    A precondition that is false on an input is reported too: the domain would then hold
    an input the contract does not admit, and "confirmed over N inputs" would overstate.
    """
    namespace = vars(sys.modules[module or function.__module__])
    compiled: list[tuple[str, str, CodeType]] = [
        (kind, text, compile(text, f"<{kind}: {text}>", "eval"))
        for kind, text in conditions(function)
    ]
    count = 0
    first_false: dict[str, Inputs] = {}
    for arguments in inputs():
        count += 1
        scope = {**namespace, **arguments}
        for kind, text, code in compiled:
            if kind == "pre" and not eval(code, scope):  # our own docstrings
                first_false.setdefault(f"pre: {text}", arguments)
        scope["__return__"] = function(**arguments)
        for kind, text, code in compiled:
            if kind == "post" and not eval(code, scope):  # our own docstrings
                first_false.setdefault(f"post: {text}", arguments)
    return [
        Outcome(f"{kind}: {text}", count, first_false.get(f"{kind}: {text}"))
        for kind, text, _ in compiled
    ]


def seat_card_sets() -> Iterator[Inputs]:
    """Every set of status cards one seat can hold, in the canonical order a
    :class:`~high_society.PlayerState` keeps them: any of the ten luxury cards, 0 to 3
    prestige cards, any of Faux Pas, Passé and Scandale (2^10 x 4 x 2^3 = 32,768).

    Any deck is a subset of the standard one (``GameConfig`` refuses other decks), so this
    is every ``status_cards`` of every game."""
    for cards in domains.holdings():
        yield {"cards": cards}


#: The small game of the bid enumeration (the CrossHair gate's reduced configuration).
SMALL = SMALL_GAME
#: How many seats the bid enumeration plays.
BID_SEATS = 3


def small_game_bids() -> Iterator[Inputs]:
    """Every bid ``_check_bid`` can be asked about in :data:`SMALL` with 3 seats: every
    placement of each seat's money cards (each of 1, 2, 4 in hand, face up or spent: 27 per
    seat, 19,683 in all), every seat as the bidder (to act, not passed, in an auction of
    Luxury 3) and every non-empty set of money cards as its bid (7): 413,343 inputs.

    ``_check_bid`` reads only the money (the seat's hand and table, every seat's table), so
    the status cards stay where a first auction has them; the checks before it (the
    action's shape) admit only non-empty bids of the configuration's money values."""
    money = SMALL.money
    places = list(itertools.product(range(3), repeat=len(money)))  # 0 hand, 1 table, 2 spent
    seats = [
        PlayerState(
            frozenset(m for m, at in zip(money, where, strict=True) if at == 0),
            table=frozenset(m for m, at in zip(money, where, strict=True) if at == 1),
            spent=frozenset(m for m, at in zip(money, where, strict=True) if at == 2),
        )
        for where in places
    ]
    bids = [
        frozenset(c)
        for size in range(1, len(money) + 1)
        for c in itertools.combinations(money, size)
    ]
    auction, *deck = SMALL.deck
    for players in itertools.product(seats, repeat=BID_SEATS):
        for seat in range(BID_SEATS):
            state = GameState(
                SMALL, players, tuple(deck), phase=Phase.AUCTION, turn=seat, auction=auction
            )
            for cards in bids:
                yield {"state": state, "action": Bid(seat, cards)}


#: A value no standard money card has: a bid card that is in no hand and on no table.
NOT_MONEY = 5


@functools.cache
def _tables_by_total() -> dict[int, frozenset[int]]:
    money = STANDARD.money
    found: dict[int, frozenset[int]] = {}
    for size in range(len(money) + 1):
        for cards in itertools.combinations(money, size):
            found.setdefault(sum(cards), frozenset(cards))
    return found


def other_table(total: int) -> frozenset[int]:
    """A set of the standard money cards worth ``total`` (every total from 0 to 106 is one)."""
    return _tables_by_total()[total]


def bid_input(
    hand: frozenset[int], table: frozenset[int], spent: frozenset[int], others: int
) -> GameState:
    """The state of :func:`standard_bids`: seat 0 (to act, in an auction of the first card)
    holds ``hand``, ``table`` and ``spent``; seat 1 has :func:`other_table` of ``others`` face
    up, the rest of its money in hand; seat 2 holds all its money."""
    money = frozenset(STANDARD.money)
    up = other_table(others)
    players = (
        PlayerState(hand, table=table, spent=spent),
        PlayerState(money - up, table=up),
        PlayerState(money),
    )
    auction, *deck = STANDARD.deck
    return GameState(STANDARD, players, tuple(deck), phase=Phase.AUCTION, auction=auction)


def outside_bids(table: frozenset[int], spent: frozenset[int]) -> list[frozenset[int]]:
    """The cards a bid of :func:`standard_bids` adds from outside the bidder's hand: none; a
    face-up card (the least), if any; a card in neither hand nor table (the least spent card,
    else :data:`NOT_MONEY`)."""
    found: list[frozenset[int]] = [frozenset()]
    if table:
        found.append(frozenset({min(table)}))
    found.append(frozenset({min(spent)} if spent else {NOT_MONEY}))
    return found


def others_totals(total: int, outside: frozenset[int]) -> tuple[int, ...]:
    """The other seats' highest face-up totals :func:`standard_bids` tries for a bid whose
    new face-up total is ``total``: just below it and equal to it (0 alone when it is 0), or 0
    alone when the bid has cards from ``outside`` the hand (the total is then not read)."""
    return (0,) if outside or not total else (total - 1, total)


def standard_bids() -> Iterator[Inputs]:
    """Every bid ``_check_bid`` can be asked about with the standard money, up to changes that
    change neither its answer nor its conditions (docs/verification.md): every placement of
    the bidder's 11 money cards in hand, face up or spent (3^11 = 177,147); every set of its
    hand (the empty one too) as the bid's cards from the hand, with each of
    :func:`outside_bids`; the other seats' highest face-up total just below and at the bid's
    new total (or 0 for a bid with cards from outside the hand)."""
    money = STANDARD.money
    subsets = {
        mask: frozenset(m for i, m in enumerate(money) if mask >> i & 1)
        for mask in range(1 << len(money))
    }
    for where in itertools.product(range(3), repeat=len(money)):
        hand, table, spent = (
            frozenset(m for m, at in zip(money, where, strict=True) if at == place)
            for place in range(3)
        )
        states: dict[int, GameState] = {}
        hand_mask = sum(1 << i for i, at in enumerate(where) if at == 0)
        mask = hand_mask
        while True:  # every subset of the hand, by its mask
            own = subsets[mask]
            for outside in outside_bids(table, spent):
                for others in others_totals(sum(table) + sum(own), outside):
                    if others not in states:
                        states[others] = bid_input(hand, table, spent, others)
                    yield {"state": states[others], "action": Bid(0, own | outside)}
            if not mask:
                break
            mask = (mask - 1) & hand_mask


def small_game_ends() -> Iterator[Inputs]:
    """Every end of :data:`SMALL` with 3 seats, as ``result`` reads it: each seat's money
    cards each in hand or spent (8 per seat, 512 in all; nothing is face up once the game
    is over) and each of the 5 status cards owned by one of the seats or by none (4^5 =
    1,024): 524,288 inputs.

    ``result`` reads the seats' money and status cards only; a card owned by no seat is
    put out of the game (where it is, deck, out of the game or the ending card, does not
    change the result)."""
    money = SMALL.money
    wallets = [
        (
            frozenset(m for m, spent in zip(money, where, strict=True) if not spent),
            frozenset(m for m, spent in zip(money, where, strict=True) if spent),
        )
        for where in itertools.product((False, True), repeat=len(money))
    ]
    for owners in itertools.product(range(BID_SEATS + 1), repeat=len(SMALL.deck)):
        holdings = [
            sort_cards(c for c, o in zip(SMALL.deck, owners, strict=True) if o == seat)
            for seat in range(BID_SEATS)
        ]
        removed = sort_cards(c for c, o in zip(SMALL.deck, owners, strict=True) if o == BID_SEATS)
        for chosen in itertools.product(wallets, repeat=BID_SEATS):
            players = tuple(
                PlayerState(hand, spent=spent, status_cards=cards)
                for (hand, spent), cards in zip(chosen, holdings, strict=True)
            )
            yield {"state": GameState(SMALL, players, (), phase=Phase.OVER, removed=removed)}


def _dense_rankings(seats: int) -> list[tuple[int, ...]]:
    """Every weak order of ``seats`` seats as dense ranks: the values used are 0 to k - 1."""
    return [
        ranks
        for ranks in itertools.product(range(seats), repeat=seats)
        if set(ranks) == set(range(max(ranks) + 1))
    ]


def top_breakdown(rank: int) -> StatusBreakdown:
    """A breakdown whose top luxury card has rank ``rank`` among 0 to 4: none for 0, else
    Luxury 2 x ``rank`` beside Luxury 1 (a lower card, the same for all: a reading of R12
    that looked at any card but the top one would find ties the rule does not have)."""
    return _TOP[rank]


_TOP = [status_of([StatusCard.LUXURY_1, StatusCard.luxury(2 * r)] if r else []) for r in range(5)]


def every_ranking(max_seats: int = 5) -> Iterator[Inputs]:
    """Every input of ``winners``, up to two changes that change neither its answer nor
    any of its conditions (docs/verification.md):

    - ``winners`` and its conditions only compare statuses with statuses, money with money
      and top luxury cards with top luxury cards (``==``, ``<``, ``max``, ``min``), so
      each of the three can be replaced by its dense rank (0 for the least, ...);
    - they treat seats alike (the answer is the set of winners, in ascending order), so
      the seats can be renumbered so that the statuses are in ascending order.

    So: 1 to 5 seats; statuses every ascending dense ranking; money and top luxury card
    (:func:`top_breakdown` of each rank) every dense ranking each: 4,728,591 inputs."""
    for seats in range(1, max_seats + 1):
        orders = _dense_rankings(seats)
        for score_ranks in (o for o in orders if list(o) == sorted(o)):
            scores = tuple(Fraction(r) for r in score_ranks)
            for money in orders:
                for tops in orders:
                    breakdowns = tuple(_TOP[r] for r in tops)
                    yield {"scores": scores, "money": money, "breakdowns": breakdowns}


@attrs.frozen
class Enumeration:
    """The inputs of one function's enumeration."""

    inputs: Callable[[], Iterator[Inputs]]
    #: The domain, in words, for the report.
    domain: str
    #: Run by the CI gate too (cheap), or only by the deep run.
    in_gate: bool
    #: The domain is every input the preconditions admit (up to changes that change no
    #: answer), so that holding on it confirms the contract; else it is a part of it.
    whole: bool = True
    #: A part of the domain the gate enumerates when this one is for the deep run only.
    gate_part: "Enumeration | None" = None

    def for_run(self, deep: bool) -> "Enumeration | None":
        """What a run enumerates: the deep run all; the gate this if cheap, else its part."""
        return self if deep or self.in_gate else self.gate_part


#: Function (module, name, as ``crosshair_check`` names them) -> its enumeration.
ENUMERATIONS: dict[tuple[str, str], Enumeration] = {
    ("high_society.scoring", "status_of"): Enumeration(
        seat_card_sets,
        "every set of status cards one seat can hold, in canonical order (0.8 CPU s)",
        in_gate=True,
    ),
    ("high_society.scoring", "result"): Enumeration(
        small_game_ends,
        "every end of the small game (money 1, 2, 4), 3 seats: money and status cards (18 CPU s)",
        in_gate=False,
        whole=False,
    ),
    ("high_society.scoring", "winners"): Enumeration(
        every_ranking,
        "every input, up to ranks and the seats' order: 1 to 5 seats, every ascending"
        " ranking of statuses, every ranking of money and of top luxury cards",
        in_gate=False,
    ),
    ("high_society.rules", "_reveal"): Enumeration(
        domains.reveals,
        "every reveal up to changes that change no answer: 3 to 5 seats, every starter,"
        " every deck (a sub-multiset of the standard one), every card of it (38 CPU s)",
        in_gate=False,
        gate_part=Enumeration(
            domains.first_seat_reveals,
            "the same with 3 seats and seat 0 to start (3.7 CPU s): a part of the domain",
            in_gate=True,
            whole=False,
        ),
    ),
    ("high_society.rules", "_bid"): Enumeration(
        domains.bids,
        "every bid up to changes that change no answer: 3 to 5 seats, every bidder, every"
        " passed flag of the others, every place of 5 money cards (6 CPU s)",
        in_gate=True,
    ),
    ("high_society.rules", "_pass"): Enumeration(
        domains.passes,
        "every pass up to changes that change no answer: 3 to 5 seats, every passer, every"
        " passed flag, every kind of auction, every set of seats with money face up, Faux"
        " Pas and a luxury card held or not by the passer and the next seat in (3.5 CPU s)",
        in_gate=True,
    ),
    ("high_society.rules", "_discard"): Enumeration(
        domains.discards,
        "every discard up to changes that change no answer: 3 to 5 seats, every seat,"
        " every holding with Faux Pas and a luxury card, every luxury card of it (17 CPU s)",
        in_gate=False,
        gate_part=Enumeration(
            domains.three_seat_discards,
            "the same with 3 seats (4 CPU s): a part of the domain",
            in_gate=True,
            whole=False,
        ),
    ),
    ("high_society.rules", "_check_bid"): Enumeration(
        standard_bids,
        "every bid with the standard money, up to changes that change no answer: every"
        " placement of the bidder's money, every set of its hand with each kind of card from"
        " outside it, the others' highest total below and at the new total (170 CPU s)",
        in_gate=False,
        gate_part=Enumeration(
            small_game_bids,
            "every bid in the small game (money 1, 2, 4), 3 seats, every money placement"
            " (3 CPU s): a part of the domain",
            in_gate=True,
            whole=False,
        ),
    ),
}


def function_named(module: str, name: str) -> Callable[..., object]:
    """The checked function ``name`` of ``module`` (contracts sit on internal functions too,
    which are named here, as CrossHair names them, rather than imported)."""
    found: Callable[..., object] = getattr(importlib.import_module(module), name)
    return found


def enumerate_all(deep: bool, functions: Collection[str]) -> dict[str, list[Outcome]]:
    """The outcomes of every enumeration (``deep``) or of the gate's, by function name, for
    the ``functions`` named."""
    runs = {key: run.for_run(deep) for key, run in ENUMERATIONS.items()}
    return {
        name: check(function_named(module, name), run.inputs)
        for (module, name), run in runs.items()
        if run is not None and name in functions
    }


def main() -> int:
    failed = False
    for (module, name), run in ENUMERATIONS.items():
        for outcome in check(function_named(module, name), run.inputs):
            if outcome.counterexample is None and outcome.condition.startswith("pre:"):
                verdict = f"holds on all {outcome.inputs:,} inputs (the domain is admitted)"
            elif outcome.counterexample is None and not run.whole:
                verdict = f"holds on all {outcome.inputs:,} inputs (a part of its domain)"
            elif outcome.counterexample is None:
                verdict = f"confirmed by enumeration over {outcome.inputs:,} inputs"
            else:
                failed = True
                verdict = f"REFUTED on {outcome.counterexample!r}"
            print(f"  {name:10} {verdict}: {outcome.condition[:80]}")
        print(f"    ({run.domain})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

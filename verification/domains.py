"""The finite domains of the contracts, each with the map that sends any input the
preconditions admit to the domain's input that stands for it.

Most contracts take sequences or whole game states, which are not a finite set (any
configuration, any number of prestige cards: ``cards_in_place`` repeats only the other
cards). But each function reads little of its input, and reads it in ways stated per
function in docs/verification.md ("Why each domain loses nothing"). So each domain keeps
what the function and its conditions read, and puts everything else in one fixed place; the
``*_representative`` function of each computes, for any admitted input, the key of the
domain's input that stands for it (``tests/test_contract_domains.py`` checks on random
inputs outside the domains that every condition has the same truth on both, and that the
answer maps along). :mod:`verification.enumeration` runs the conditions over each domain.
"""

import itertools
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction

from high_society import (
    Bid,
    GameConfig,
    GameState,
    Phase,
    PlayerState,
    StatusCard,
    sort_cards,
)
from high_society._fast import set_highest_bid
from high_society.cards import LUXURY, MAX_PLAYERS, MIN_PLAYERS, STANDARD_DECK
from high_society.scoring import StatusBreakdown, status_of

#: A function's input, by parameter name (as :mod:`verification.enumeration` reads it).
Inputs = Mapping[str, object]

FAUX_PAS = StatusCard.FAUX_PAS
PRESTIGE = StatusCard.PRESTIGE
#: The disgrace cards and Scandale's dark-green partner, in canonical order.
_DISGRACE = (StatusCard.FAUX_PAS, StatusCard.PASSE, StatusCard.SCANDALE)
_LUXURY = sort_cards(LUXURY)

#: The domains' money: five cards, one per place a money card of a seat can be in a bid
#: (kept in hand, bid, face up, spent) and one more, which the others leave out.
MONEY = (1, 2, 4, 8, 16)
#: The configuration of every domain state (only ``cards_in_place`` reads it: the money).
CONFIG = GameConfig(money=MONEY, deck=STANDARD_DECK)
_ALL_MONEY = frozenset(MONEY)


def _seat(
    hand: frozenset[int] = _ALL_MONEY,
    table: frozenset[int] = frozenset(),
    spent: frozenset[int] = frozenset(),
    passed: bool = False,
    cards: tuple[StatusCard, ...] = (),
) -> PlayerState:
    return PlayerState(hand, table=table, spent=spent, passed=passed, status_cards=cards)


def holdings(prestige: int = 3) -> Iterator[tuple[StatusCard, ...]]:
    """Every sub-multiset of the standard deck, in canonical order: any of the ten luxury
    cards, 0 to ``prestige`` prestige cards, any of Faux Pas, Passé and Scandale (2^10 x 4 x
    2^3 = 32,768 for 3)."""
    for luxury in itertools.product((False, True), repeat=len(_LUXURY)):
        owned = [card for card, has in zip(_LUXURY, luxury, strict=True) if has]
        for count in range(prestige + 1):
            for bad in itertools.product((False, True), repeat=len(_DISGRACE)):
                cards = owned + [PRESTIGE] * count
                cards += [card for card, has in zip(_DISGRACE, bad, strict=True) if has]
                yield sort_cards(cards)


def capped(cards: tuple[StatusCard, ...], prestige: int = 3) -> tuple[StatusCard, ...]:
    """``cards`` in canonical order with at most ``prestige`` prestige cards."""
    others = [c for c in cards if c is not PRESTIGE]
    return sort_cards(others + [PRESTIGE] * min(prestige, cards.count(PRESTIGE)))


def seat_counts() -> Iterator[tuple[int, int]]:
    """Every number of seats and every seat of it: (3, 0) ... (5, 4)."""
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        for seat in range(n):
            yield n, seat


def passed_flags(n: int, seat: int, others_in: int) -> Iterator[tuple[bool, ...]]:
    """Every tuple of passed flags of ``n`` seats where ``seat`` has not passed and at least
    ``others_in`` of the other seats have not either."""
    for flags in itertools.product((False, True), repeat=n):
        if not flags[seat] and flags.count(False) - 1 >= others_in:
            yield flags


# --- status_of ------------------------------------------------------------------------------


def seat_holdings() -> Iterator[Inputs]:
    """Every input of ``status_of`` in canonical order: :func:`holdings` (32,768)."""
    for cards in holdings():
        yield {"cards": cards}


def status_of_representative(cards: Sequence[StatusCard]) -> tuple[StatusCard, ...]:
    """The holding that stands for ``cards`` (which ``holdable`` admits): the same cards in
    canonical order."""
    return sort_cards(cards)


# --- _discard --------------------------------------------------------------------------------

DiscardKey = tuple[tuple[StatusCard, ...], StatusCard]


def discard_keys() -> Iterator[DiscardKey]:
    """(holding, card): every holding (canonical, 0 to 3 prestige) with Faux Pas and a
    luxury card; every luxury card of it: 81,920."""
    for held in holdings():
        if FAUX_PAS in held:
            for card in held:
                if card.is_luxury:
                    yield held, card


def discard_input(key: DiscardKey) -> Inputs:
    """The discard of ``key``: 3 seats, seat 0 holds the holding and must discard; the other
    seats hold nothing but all their money in hand, and no card is anywhere else."""
    held, card = key
    players = (_seat(cards=held), _seat(), _seat())
    state = GameState(CONFIG, players, (), phase=Phase.DISCARD, turn=0)
    return {"state": state, "seat": 0, "card": card}


def discards() -> Iterator[Inputs]:
    """Every input of :func:`discard_keys`."""
    return map(discard_input, discard_keys())


def discard_representative(state: GameState, seat: int, card: StatusCard) -> DiscardKey:
    """The key of the domain's input that stands for an admitted discard: the seat's holding
    in canonical order with at most 3 prestige cards; nothing else kept."""
    return capped(state.players[seat].status_cards), card


# --- _reveal ---------------------------------------------------------------------------------

RevealKey = tuple[tuple[StatusCard, ...], StatusCard]


def reveal_keys() -> Iterator[RevealKey]:
    """(deck, card): every deck, canonical, a sub-multiset of the standard deck (0 to 3
    prestige cards); every distinct card of it: 237,568."""
    for deck in holdings():
        for card in dict.fromkeys(deck):
            yield deck, card


def reveal_input(key: RevealKey) -> Inputs:
    """The reveal of ``key``: 3 seats, seat 0 to start, every seat with all its money in
    hand and no status card."""
    deck, card = key
    state = GameState(CONFIG, (_seat(),) * MIN_PLAYERS, deck, phase=Phase.REVEAL)
    return {"state": state, "card": card}


def reveals() -> Iterator[Inputs]:
    """Every input of :func:`reveal_keys`."""
    return map(reveal_input, reveal_keys())


def reveal_representative(state: GameState, card: StatusCard) -> RevealKey:
    """The key that stands for an admitted reveal: the deck with at most 3 prestige cards."""
    return capped(state.deck), card


# --- _bid ------------------------------------------------------------------------------------

#: Where a money card of the bidder is: kept in hand, bid, face up, spent, or none of these.
KEPT, BID, TABLE, SPENT, NONE = range(5)
BidKey = tuple[int, int, tuple[bool, ...], tuple[int, ...]]


def bid_keys() -> Iterator[BidKey]:
    """(seats, seat, passed, places): every number of seats and bidder; every passed flag of
    the others; every place of each of the 5 money cards with at least one bid (5^5 - 4^5 =
    2,101): 124 x 2,101 = 260,524."""
    places = [p for p in itertools.product(range(5), repeat=len(MONEY)) if BID in p]
    for n, seat in seat_counts():
        for flags in passed_flags(n, seat, 0):
            for where in places:
                yield n, seat, flags, where


def bid_input(key: BidKey) -> Inputs:
    """The bid of ``key``: the bidder's money as placed (to act, in an auction); every other
    seat holds all its money in hand, with its passed flag."""
    n, seat, flags, where = key
    at = {
        place: frozenset(m for m, w in zip(MONEY, where, strict=True) if w == place)
        for place in range(5)
    }
    bidder = _seat(at[KEPT] | at[BID], at[TABLE], at[SPENT])
    players = tuple(bidder if i == seat else _seat(passed=flags[i]) for i in range(n))
    state = GameState(
        CONFIG, players, (), phase=Phase.AUCTION, turn=seat, auction=StatusCard.LUXURY_1
    )
    return {"state": state, "seat": seat, "cards": at[BID]}


def bids() -> Iterator[Inputs]:
    """Every input of :func:`bid_keys`."""
    return map(bid_input, bid_keys())


def bid_representative(state: GameState, seat: int, cards: frozenset[int]) -> BidKey:
    """The key that stands for an admitted bid: the passed flags as they are; one money card
    in each place where the bidder has one (kept, bid, face up, spent), the rest in none."""
    p = state.players[seat]
    present = [p.hand - cards, cards, p.table, p.spent]
    where = tuple(place if place < 4 and present[place] else NONE for place in range(5))
    return len(state.players), seat, tuple(q.passed for q in state.players), where


# --- _pass -----------------------------------------------------------------------------------

#: The auctions of the pass domain: a luxury card stands for all ten.
PASS_AUCTIONS = (StatusCard.LUXURY_1, PRESTIGE, *_DISGRACE)
#: The luxury cards the passer and the next seat in may hold (never the auction's).
PASSER_LUXURY, NEXT_LUXURY = StatusCard.LUXURY_9, StatusCard.LUXURY_10
#: What the passer and the next seat still in hold: (Faux Pas, a luxury card) each.
Holds = tuple[bool, bool, bool, bool]
PassKey = tuple[int, int, tuple[bool, ...], StatusCard, tuple[bool, ...], Holds]


def next_in(flags: tuple[bool, ...], seat: int) -> int:
    """The first seat after ``seat`` that has not passed."""
    n = len(flags)
    return next(i % n for i in range(seat + 1, seat + n + 1) if not flags[i % n])


def pass_keys() -> Iterator[PassKey]:
    """(seats, seat, passed, auction, tables, holds): every number of seats and passer; every
    passed flag of the others with one at least still in; every auction of
    :data:`PASS_AUCTIONS`; every set of seats with money face up; whether the passer and the
    next seat in hold Faux Pas (one at most, none in a Faux Pas auction) and a luxury card."""
    holds: list[Holds] = [
        (a, b, c, d) for a, b, c, d in itertools.product((False, True), repeat=4) if not (a and c)
    ]
    for n, seat in seat_counts():
        for flags in passed_flags(n, seat, 1):
            for auction in PASS_AUCTIONS:
                for tables in itertools.product((False, True), repeat=n):
                    for held in holds:
                        if auction is FAUX_PAS and (held[0] or held[2]):
                            continue
                        yield n, seat, flags, auction, tables, held


def pass_input(key: PassKey) -> Inputs:
    """The pass of ``key``: every seat has 1 in hand and 4 spent, 2 face up if it has money
    face up (else in hand), 8 and 16 in none of these; the passer holds what ``holds`` says
    (Faux Pas, Luxury 9), the next seat in likewise (Luxury 10); nothing else is anywhere."""
    n, seat, flags, auction, tables, (p_fp, p_lux, n_fp, n_lux) = key
    nxt = next_in(flags, seat)
    cards = {
        seat: sort_cards([FAUX_PAS] * p_fp + [PASSER_LUXURY] * p_lux),
        nxt: sort_cards([FAUX_PAS] * n_fp + [NEXT_LUXURY] * n_lux),
    }
    players = tuple(
        _seat(
            frozenset({1}) if tables[i] else frozenset({1, 2}),
            frozenset({2}) if tables[i] else frozenset(),
            frozenset({4}),
            flags[i],
            cards.get(i, ()),
        )
        for i in range(n)
    )
    state = GameState(CONFIG, players, (), phase=Phase.AUCTION, turn=seat, auction=auction)
    return {"state": state, "seat": seat}


def passes() -> Iterator[Inputs]:
    """Every input of :func:`pass_keys`."""
    return map(pass_input, pass_keys())


def pass_representative(state: GameState, seat: int) -> PassKey:
    """The key that stands for an admitted pass: seats, passer and passed flags as they are;
    a luxury auction's card by Luxury 1; which seats have money face up; whether the passer
    and the next seat in hold Faux Pas and a luxury card."""
    assert state.auction is not None
    flags = tuple(p.passed for p in state.players)
    auction = StatusCard.LUXURY_1 if state.auction.is_luxury else state.auction
    tables = tuple(bool(p.table) for p in state.players)

    def holds(i: int) -> tuple[bool, bool]:
        owned = state.players[i].status_cards
        return FAUX_PAS in owned, any(c.is_luxury for c in owned)

    return (
        len(state.players),
        seat,
        flags,
        auction,
        tables,
        holds(seat) + holds(next_in(flags, seat)),
    )


# --- _check_bid ------------------------------------------------------------------------------

#: The places ``_check_bid`` tells a card by, relative to the bidder: in hand and bid, kept in
#: hand, face up and bid again, face up and not bid, spent and bid, spent and not bid, bid
#: but none of the bidder's (a value it never held, or one of the configuration it lacks).
HAND_BID, HAND_KEPT, TABLE_BID, TABLE_KEPT, SPENT_BID, SPENT_KEPT, NOWHERE_BID = range(7)
#: One card per place, ``2 ** place``; the configuration has all seven.
CHECK_MONEY = tuple(1 << place for place in range(7))
CHECK_CONFIG = GameConfig(money=CHECK_MONEY, deck=STANDARD_DECK)
#: (seats, bidder, the places in use, whether the new face-up total beats the highest bid)
CheckKey = tuple[int, int, tuple[bool, ...], bool]


def check_bid_keys() -> Iterator[CheckKey]:
    """Every number of seats and bidder, every set of the seven places in use, and both
    sides of the highest bid: 12 x 128 x 2 = 3,072."""
    for n, seat in seat_counts():
        for used in itertools.product((False, True), repeat=NOWHERE_BID + 1):
            for beats in (False, True):
                yield n, seat, used, beats


def check_bid_input(key: CheckKey) -> Inputs:
    """The bid of ``key``: the bidder holds the card of each place in use (the nowhere card
    in none) and bids those of the places that say "bid"; the highest bid is its new
    face-up total, less one when the bid beats it (the state's cached highest bid; every
    other seat holds all its money in hand)."""
    n, seat, used, beats = key
    at = [frozenset({CHECK_MONEY[k]}) if used[k] else frozenset() for k in range(len(used))]
    hand = at[HAND_BID] | at[HAND_KEPT]
    table = at[TABLE_BID] | at[TABLE_KEPT]
    spent = at[SPENT_BID] | at[SPENT_KEPT]
    bid = at[HAND_BID] | at[TABLE_BID] | at[SPENT_BID] | at[NOWHERE_BID]
    everything = frozenset(CHECK_MONEY)
    players = tuple(
        PlayerState(hand, table=table, spent=spent) if i == seat else PlayerState(everything)
        for i in range(n)
    )
    state = GameState(
        CHECK_CONFIG, players, (), phase=Phase.AUCTION, turn=seat, auction=StatusCard.LUXURY_1
    )
    set_highest_bid(state, sum(table) + sum(bid) - beats)
    return {"state": state, "action": Bid(seat, bid)}


def check_bids() -> Iterator[Inputs]:
    """Every input of :func:`check_bid_keys`."""
    return map(check_bid_input, check_bid_keys())


def check_bid_representative(state: GameState, action: Bid) -> CheckKey:
    """The key that stands for an admitted bid: the places its cards and the bidder's money
    are in, and whether the new face-up total beats the highest bid."""
    p, cards = state.players[action.seat], action.cards
    used = (
        bool(cards & p.hand),
        bool(p.hand - cards),
        bool(cards & p.table),
        bool(p.table - cards),
        bool(cards & p.spent),
        bool(p.spent - cards),
        bool(cards - p.hand - p.table - p.spent),
    )
    beats = sum(p.table) + sum(cards) > state.highest_bid
    return len(state.players), action.seat, used, beats


# --- winners ---------------------------------------------------------------------------------

#: How a seat not cast out differs from the one before it, the seats sorted by (status,
#: money, top luxury card): not at all, by the top luxury card only, by money, by status.
SAME, BY_TOP, BY_MONEY, BY_STATUS = range(4)
#: (seats, how many are cast out, the step from each seat not cast out to the next)
RankingKey = tuple[int, int, tuple[int, ...]]


def ranking_keys(max_seats: int = MAX_PLAYERS, min_seats: int = 1) -> Iterator[RankingKey]:
    """Every number of seats, of seats cast out (one at least: some seat has the least
    money), and of steps between the others: 117 keys for 1 to 5 seats."""
    for n in range(min_seats, max_seats + 1):
        for out in range(1, n + 1):
            for steps in itertools.product(range(4), repeat=max(n - out - 1, 0)):
                yield n, out, steps


def ranks(key: RankingKey) -> list[tuple[int, int, int]]:
    """Each seat's (status, money, top luxury card) of ``key``, as small ints: the seats
    cast out first, with (0, 0, 0); then the others from (0, 1, 0), each step raising its
    own rank and restarting the ones after it (money from 1, above the seats cast out)."""
    n, out, steps = key
    seats = [(0, 0, 0)] * out
    if n > out:
        status, money, top = 0, 1, 0
        seats.append((status, money, top))
        for step in steps:
            if step == BY_TOP:
                top += 1
            elif step == BY_MONEY:
                money, top = money + 1, 0
            elif step == BY_STATUS:
                status, money, top = status + 1, 1, 0
            seats.append((status, money, top))
    return seats


def top_breakdown(rank: int) -> StatusBreakdown:
    """A breakdown whose top luxury card has rank ``rank`` among 0 to 4: none for 0, else
    Luxury 2 x ``rank`` beside Luxury 1 (a lower card, the same for all: a reading of R12
    that looked at any card but the top one would find ties the rule does not have)."""
    return _TOP[rank]


_TOP = [status_of([StatusCard.LUXURY_1, StatusCard.luxury(2 * r)] if r else []) for r in range(5)]


def ranking_input(key: RankingKey) -> Inputs:
    """The input of ``winners`` of ``key``: statuses and money as :func:`ranks` gives them,
    each top luxury card by :func:`top_breakdown`."""
    seats = ranks(key)
    return {
        "scores": tuple(Fraction(status) for status, _, _ in seats),
        "money": tuple(money for _, money, _ in seats),
        "breakdowns": tuple(top_breakdown(top) for _, _, top in seats),
    }


def rankings(max_seats: int = MAX_PLAYERS) -> Iterator[Inputs]:
    """Every input of :func:`ranking_keys`."""
    return map(ranking_input, ranking_keys(max_seats))


def top_luxury(breakdown: StatusBreakdown) -> int:
    """The value of the most valuable luxury card of ``breakdown``, 0 for none (R12)."""
    return max((c.luxury_value for c in breakdown.luxury_cards), default=0)


def ranking_representative(
    scores: Sequence[Fraction], money: Sequence[int], breakdowns: Sequence[StatusBreakdown]
) -> tuple[RankingKey, tuple[int, ...]]:
    """The key that stands for an input of ``winners`` (or of ``result``, read per seat),
    and which seat of the input each seat of the key's input stands for: the seats cast out
    first, then the others sorted by (status, money, top luxury card)."""
    least = min(money)
    tops = [top_luxury(b) for b in breakdowns]
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
    return (len(money), len(out), tuple(steps)), (*out, *rest)


# --- result ----------------------------------------------------------------------------------

#: For each top luxury rank 0 to 4, a holding with that top card (Luxury 2 to 6) and status
#: 24: luxury cards worth 3, x8, or worth 6, x4. More prestige cards raise the status.
_STATUS_24 = tuple(
    sort_cards([*map(StatusCard.luxury, values), *[PRESTIGE] * prestige])
    for values, prestige in (((1, 2), 3), ((3,), 3), ((2, 4), 2), ((1, 5), 2), ((6,), 2))
)


def end_keys() -> Iterator[RankingKey]:
    """:func:`ranking_keys` of 3 to 5 seats: 114."""
    return ranking_keys(MAX_PLAYERS, MIN_PLAYERS)


def end_input(key: RankingKey) -> Inputs:
    """The end of a game of ``key``: each seat's money in hand, worth its money rank
    (nothing for the seats cast out); a seat not cast out holds the top luxury card of its
    rank in a holding of status 24, with one more prestige card per status rank (x2 each);
    a seat cast out holds nothing."""
    players = []
    for seat, (status, money, top) in enumerate(ranks(key)):
        cast_out = seat < key[1]
        cards = () if cast_out else sort_cards([*_STATUS_24[top], *[PRESTIGE] * status])
        players.append(PlayerState(frozenset({money} - {0}), status_cards=cards))
    return {"state": GameState(CONFIG, tuple(players), (), phase=Phase.OVER)}


def ends() -> Iterator[Inputs]:
    """Every input of :func:`end_keys`."""
    return map(end_input, end_keys())


def end_representative(state: GameState) -> tuple[RankingKey, tuple[int, ...]]:
    """The key that stands for an admitted end, as :func:`ranking_representative` reads
    each seat's money left (hand and table) and breakdown."""
    breakdowns = [status_of(p.status_cards) for p in state.players]
    money = [sum(p.hand) + sum(p.table) for p in state.players]
    return ranking_representative([b.status for b in breakdowns], money, breakdowns)

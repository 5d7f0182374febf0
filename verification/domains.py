"""The finite domains of the reducer's transitions, each with the map that sends any input
the preconditions admit to the domain's input that stands for it.

``_reveal``, ``_bid``, ``_pass`` and ``_discard`` take whole game states, which are not a
finite set (any configuration, any number of prestige cards: ``cards_in_place`` repeats only
the other cards). But each reads little of its state, and treats money cards and status cards
alike in ways stated per function in docs/verification.md. So each domain here keeps what
the function and its conditions read, and puts everything else in one fixed place; the
``*_representative`` function of each computes, for any admitted input, the parameters of the
domain's input that stands for it (``tests/test_contract_domains.py`` checks on random inputs
outside the domains that the conditions have the same truth on both, and the output maps
along). :mod:`verification.enumeration` runs the conditions over each domain.
"""

import itertools
from collections.abc import Iterator, Mapping

from high_society import GameConfig, GameState, Phase, PlayerState, StatusCard, sort_cards
from high_society.cards import LUXURY, MAX_PLAYERS, MIN_PLAYERS, STANDARD_DECK

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


# --- _discard --------------------------------------------------------------------------------

DiscardKey = tuple[int, int, tuple[StatusCard, ...], StatusCard]


def discard_keys() -> Iterator[DiscardKey]:
    """(seats, seat, holding, card): every number of seats and seat; every holding of the
    seat (canonical, 0 to 3 prestige) with Faux Pas and a luxury card; every luxury card of
    it: 12 x 81,920 = 983,040."""
    owning = [h for h in holdings() if FAUX_PAS in h and any(c.is_luxury for c in h)]
    for n, seat in seat_counts():
        for held in owning:
            for card in held:
                if card.is_luxury:
                    yield n, seat, held, card


def discard_input(key: DiscardKey) -> Inputs:
    """The discard of ``key``: the seat holds the holding and must discard; every other
    seat holds nothing but all its money in hand, and no card is anywhere else."""
    n, seat, held, card = key
    players = tuple(_seat(cards=held) if i == seat else _seat() for i in range(n))
    state = GameState(CONFIG, players, (), phase=Phase.DISCARD, turn=seat)
    return {"state": state, "seat": seat, "card": card}


def discards() -> Iterator[Inputs]:
    """Every input of :func:`discard_keys`."""
    return map(discard_input, discard_keys())


def three_seat_discards() -> Iterator[Inputs]:
    """The inputs of :func:`discard_keys` with 3 seats (245,760): the gate's part."""
    return map(discard_input, (k for k in discard_keys() if k[0] == MIN_PLAYERS))


def discard_representative(state: GameState, seat: int, card: StatusCard) -> DiscardKey:
    """The key of the domain's input that stands for an admitted discard: the seat's holding
    in canonical order with at most 3 prestige cards; nothing else kept."""
    return len(state.players), seat, capped(state.players[seat].status_cards), card


# --- _reveal ---------------------------------------------------------------------------------

RevealKey = tuple[int, int, tuple[StatusCard, ...], StatusCard]


def reveal_keys() -> Iterator[RevealKey]:
    """(seats, turn, deck, card): every number of seats and starter; every deck, canonical,
    a sub-multiset of the standard deck (0 to 3 prestige cards); every distinct card of it:
    12 x 237,568 = 2,850,816."""
    decks = list(holdings())
    for n, turn in seat_counts():
        for deck in decks:
            for card in dict.fromkeys(deck):
                yield n, turn, deck, card


def reveal_input(key: RevealKey) -> Inputs:
    """The reveal of ``key``: every seat holds all its money in hand and no status card."""
    n, turn, deck, card = key
    state = GameState(CONFIG, (_seat(),) * n, deck, phase=Phase.REVEAL, turn=turn)
    return {"state": state, "card": card}


def reveals() -> Iterator[Inputs]:
    """Every input of :func:`reveal_keys`."""
    return map(reveal_input, reveal_keys())


def first_seat_reveals() -> Iterator[Inputs]:
    """The inputs of :func:`reveal_keys` with 3 seats, seat 0 to start (237,568): the gate's
    part."""
    return map(reveal_input, (k for k in reveal_keys() if k[:2] == (MIN_PLAYERS, 0)))


def reveal_representative(state: GameState, card: StatusCard) -> RevealKey:
    """The key that stands for an admitted reveal: the deck with at most 3 prestige cards."""
    return len(state.players), state.turn, capped(state.deck), card


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

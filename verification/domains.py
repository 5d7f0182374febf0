"""The transitions' domains: every key of each, with its symbolic twin and the values that
make the domain's input (docs/verification.md, "The lemmas").

Each twin holds stand-ins (:mod:`verification.symbolic`) where the lemma says the function
and its conditions read nothing, or only what every instance shares: a seat the function
only copies is a :class:`~verification.symbolic.Opaque` seat; a seat's money is a union of
disjoint blocks of any cards (:class:`~verification.symbolic.Money`), its sums unknowns; the
highest bid an unknown; the configuration, the deck of a bid and the cards out of the game
opaque. What stays concrete is what the function branches on: the number of seats, the seat
acting, the passed flags, the card, the deck of a reveal, which tables are empty where that
is read, the status cards of the seat that takes or gives up a card.

Each ``*_representative`` maps an input the preconditions admit to its key and to its
twin's stand-ins' values (:mod:`verification.outside` checks the input is that instance).
"""

import itertools
from collections.abc import Iterator, Sequence

from high_society import Bid, GameState, Phase, PlayerState, StatusCard, sort_cards
from high_society._fast import set_highest_bid
from high_society.cards import STANDARD_DECK
from verification.finite import (
    CARDS,
    CONFIG,
    FAUX_PAS,
    MONEY,
    holdings,
    holdings_without,
    passed_flags,
    seat_counts,
)
from verification.schema import Domain, Part, Schema, Valuation
from verification.symbolic import Block, Money, Number, Opaque, facts_of

ALL_MONEY = frozenset(MONEY)
RULES = "high_society.rules"

# --- The parts of a state only copied ---------------------------------------------------------

#: The state's parts that a transition copies, opaque, and the values of the domain's inputs.
COPIED = {
    "the configuration": CONFIG,
    "the deck": (),
    "the cards out of the game": (),
    "the card up for auction": StatusCard.LUXURY_1,
    "the ending card": None,
}


def opaque_state(
    players: tuple[object, ...] | Opaque,
    phase: object,
    turn: object,
    *,
    deck: object = None,
    auction: object = None,
    removed: object = None,
    highest: object = None,
) -> GameState:
    """A state whose parts not given are opaque (``COPIED``), the highest bid cached when
    given."""
    state = GameState(
        Opaque("the configuration"),  # type: ignore[arg-type]
        players,  # type: ignore[arg-type]
        Opaque("the deck") if deck is None else deck,  # type: ignore[arg-type]
        phase,  # type: ignore[arg-type]
        turn,  # type: ignore[arg-type]
        Opaque("the card up for auction") if auction is None else auction,  # type: ignore[arg-type]
        Opaque("the cards out of the game") if removed is None else removed,  # type: ignore[arg-type]
        Opaque("the ending card"),  # type: ignore[arg-type]
    )
    if highest is not None:
        set_highest_bid(state, highest)  # type: ignore[arg-type]
    return state


def opaque_seat(i: int, passed: object = None) -> PlayerState:
    """Seat ``i`` with every part opaque but its passed flag, when given."""
    return PlayerState(
        Opaque(f"seat {i}'s hand"),  # type: ignore[arg-type]
        Opaque(f"seat {i}'s table"),  # type: ignore[arg-type]
        Opaque(f"seat {i}'s spent money"),  # type: ignore[arg-type]
        Opaque(f"seat {i}'s passed flag") if passed is None else passed,  # type: ignore[arg-type]
        Opaque(f"seat {i}'s status cards"),  # type: ignore[arg-type]
    )


def seat_values(i: int, p: PlayerState | None = None) -> dict[str, object]:
    """The values of seat ``i``'s stand-ins, under the names every twin gives them (the
    opaque parts of :func:`opaque_seat`, the money blocks ``hand i``, ``table i`` and
    ``spent i``): ``p``'s, or every money card in hand."""
    p = p or PlayerState(ALL_MONEY)
    return {
        f"seat {i}'s hand": p.hand,
        f"seat {i}'s table": p.table,
        f"seat {i}'s spent money": p.spent,
        f"seat {i}'s passed flag": p.passed,
        f"seat {i}'s status cards": p.status_cards,
        f"hand {i}": p.hand,
        f"table {i}": p.table,
        f"spent {i}": p.spent,
    }


def state_values(state: GameState | None = None) -> dict[str, object]:
    """The values of ``opaque_state``'s opaque parts: ``state``'s, or the domain's."""
    if state is None:
        return dict(COPIED)
    return {
        "the configuration": state.config,
        "the deck": state.deck,
        "the cards out of the game": state.removed,
        "the card up for auction": state.auction,
        "the ending card": state.ending_card,
    }


# --- _check_bid -------------------------------------------------------------------------------

#: The places ``_check_bid`` tells a card by, relative to the bidder: in hand and bid, kept in
#: hand, face up and bid again, face up and not bid, spent and bid, spent and not bid, bid
#: but none of the bidder's (a value it never held, or one of the configuration it lacks).
HAND_BID, HAND_KEPT, TABLE_BID, TABLE_KEPT, SPENT_BID, SPENT_KEPT, NOWHERE_BID = range(7)
PLACES = 7
#: (seats, bidder, the places holding cards, the sign of the new face-up total less the
#: highest bid)
CheckKey = tuple[int, int, tuple[bool, ...], int]


def check_bid_keys() -> Iterator[CheckKey]:
    """Every number of seats and bidder, every set of the seven places in use, and each
    side of the highest bid: 12 x 128 x 3 = 4,608."""
    for n, seat in seat_counts():
        for used in itertools.product((False, True), repeat=PLACES):
            for sign in (-1, 0, 1):
                yield n, seat, used, sign


def check_bid_schema(key: CheckKey) -> Schema:
    """The bidder's cards as one block per place in use; every other seat and part of the
    state opaque; the highest bid an unknown, on the key's side of the new total."""
    n, seat, used, sign = key
    blocks = [Block(seat, f"p{k}", True) for k in range(PLACES)]

    def money(*places: int) -> Money:
        return Money(seat, (blocks[k] for k in places if used[k]))

    hand, table = money(HAND_BID, HAND_KEPT), money(TABLE_BID, TABLE_KEPT)
    cards = money(HAND_BID, TABLE_BID, SPENT_BID, NOWHERE_BID)
    bidder = PlayerState(
        hand,  # type: ignore[arg-type]
        table,  # type: ignore[arg-type]
        money(SPENT_BID, SPENT_KEPT),  # type: ignore[arg-type]
        Opaque("the bidder's passed flag"),  # type: ignore[arg-type]
        Opaque("the bidder's status cards"),  # type: ignore[arg-type]
    )
    players = tuple(bidder if i == seat else Opaque(f"seat {i}") for i in range(n))
    highest = Number.unknown("the highest bid")
    state = opaque_state(players, Opaque("the phase"), Opaque("the turn"), highest=highest)
    facts = facts_of([(table.total() + cards.total(), highest, sign)])
    return Schema({"state": state, "action": Bid(seat, cards)}, facts)  # type: ignore[arg-type]


def check_bid_valuation(key: CheckKey) -> Valuation:
    """Place ``k`` holds the card ``2 ** k`` (all seven are the configuration's); the
    highest bid is the new total less the sign; every other seat holds all its money."""
    n, seat, used, sign = key
    values: dict[str, object] = {f"p{k}": frozenset({1 << k}) for k in range(PLACES)}
    total = sum((1 << k) for k in (HAND_BID, TABLE_BID, SPENT_BID, NOWHERE_BID) if used[k])
    total += sum((1 << k) for k in (TABLE_BID, TABLE_KEPT) if used[k])
    everything = frozenset(CHECK_MONEY)
    values |= {f"seat {i}": PlayerState(everything) for i in range(n)}
    return values | {
        **state_values(),
        "the configuration": CHECK_CONFIG,
        "the bidder's passed flag": False,
        "the bidder's status cards": (),
        "the phase": Phase.AUCTION,
        "the turn": seat,
        "the highest bid": total - sign,
    }


CHECK_MONEY = tuple(1 << k for k in range(PLACES))
CHECK_CONFIG = CONFIG.__class__(money=CHECK_MONEY, deck=STANDARD_DECK)


def check_bid_representative(state: GameState, action: Bid) -> tuple[CheckKey, Valuation]:
    p, cards = state.players[action.seat], action.cards
    at = (
        cards & p.hand,
        p.hand - cards,
        cards & p.table,
        p.table - cards,
        cards & p.spent,
        p.spent - cards,
        cards - p.hand - p.table - p.spent,
    )
    total = sum(p.table) + sum(cards) - state.highest_bid
    key = (len(state.players), action.seat, tuple(map(bool, at)), (total > 0) - (total < 0))
    values: dict[str, object] = {f"p{k}": at[k] for k in range(PLACES)}
    values |= {f"seat {i}": q for i, q in enumerate(state.players)}
    return key, values | {
        **state_values(state),
        "the bidder's passed flag": p.passed,
        "the bidder's status cards": p.status_cards,
        "the phase": state.phase,
        "the turn": state.turn,
        "the highest bid": state.highest_bid,
    }


CHECK_BID = Domain(
    RULES,
    "_check_bid",
    (
        Part(
            "3 to 5 seats, every bidder, every set of the seven places a card of the bid or"
            " of the bidder can be in, the new face-up total above, at or below the highest bid",
            check_bid_keys,
            check_bid_schema,
            check_bid_valuation,
        ),
    ),
    "the bidder's cards in each place any non-empty set of any values, the highest bid any"
    " number on the same side of the new total; every other seat, the configuration, the"
    " phase, the turn and the status cards anything",
    check_bid_representative,
)


# --- _reveal ---------------------------------------------------------------------------------

RevealKey = tuple[tuple[StatusCard, ...], StatusCard]


def reveal_keys() -> Iterator[RevealKey]:
    """(deck, card): every deck, canonical, a sub-multiset of the standard deck; every
    distinct card of it: 237,568."""
    for deck in holdings():
        for card in dict.fromkeys(deck):
            yield deck, card


def reveal_schema(key: RevealKey) -> Schema:
    """The deck and the card as they are; the seats, the starter and every other part of
    the state stand-ins."""
    deck, card = key
    state = opaque_state(
        Opaque("the seats"),
        Phase.REVEAL,
        Number.unknown("the starter"),
        deck=deck,
        highest=Opaque("the highest bid"),
    )
    return Schema({"state": state, "card": card})


def reveal_valuation(key: RevealKey) -> Valuation:
    """Three seats with all their money in hand and no status card; seat 0 starts."""
    return {
        **state_values(),
        "the card up for auction": None,
        "the seats": (PlayerState(ALL_MONEY),) * 3,
        "the starter": 0,
        "the highest bid": 0,
    }


def reveal_representative(state: GameState, card: StatusCard) -> tuple[RevealKey, Valuation]:
    return (state.deck, card), {
        **state_values(state),
        "the seats": state.players,
        "the starter": state.turn,
        "the highest bid": state.highest_bid,
    }


REVEAL = Domain(
    RULES,
    "_reveal",
    (
        Part(
            "every deck (a sub-multiset of the standard one, canonical), every card of it",
            reveal_keys,
            reveal_schema,
            reveal_valuation,
        ),
    ),
    "the seats, the starter, the cards out of the game, the configuration and the highest"
    " bid anything",
    reveal_representative,
)


# --- _bid ------------------------------------------------------------------------------------

BidKey = tuple[int, int, tuple[bool, ...]]


def bid_keys() -> Iterator[BidKey]:
    """(seats, bidder, passed flags): every bidder of 3 to 5 seats, every passed flag of
    the others: 124."""
    for n, seat in seat_counts():
        for flags in passed_flags(n, seat, 0):
            yield n, seat, flags


def bid_schema(key: BidKey) -> Schema:
    """The bidder's money as four blocks (kept in hand, bid, face up, spent: the bid known
    to hold a card, the others any set); every other seat opaque but its passed flag; the
    highest bid an unknown below the new face-up total."""
    n, seat, flags = key
    kept, bid, table, spent = (
        Block(seat, name, name == "bid") for name in ("kept", "bid", "table", "spent")
    )
    cards = Money(seat, [bid])
    bidder = PlayerState(
        Money(seat, [kept, bid]),  # type: ignore[arg-type]
        Money(seat, [table]),  # type: ignore[arg-type]
        Money(seat, [spent]),  # type: ignore[arg-type]
        False,
        Opaque("the bidder's status cards"),  # type: ignore[arg-type]
    )
    players = tuple(bidder if i == seat else opaque_seat(i, flags[i]) for i in range(n))
    highest = Number.unknown("the highest bid")
    state = opaque_state(players, Phase.AUCTION, seat, highest=highest)
    facts = facts_of([(table.total + bid.total, highest, 1)])
    return Schema({"state": state, "seat": seat, "cards": cards}, facts)


def bid_valuation(key: BidKey) -> Valuation:
    """Kept 1, bid 2, face up 4, spent 8; the highest bid 4 (what the tables give); every
    other seat all its money in hand."""
    n = key[0]
    values: dict[str, object] = {
        "kept": frozenset({1}),
        "bid": frozenset({2}),
        "table": frozenset({4}),
        "spent": frozenset({8}),
        "the highest bid": 4,
        "the bidder's status cards": (),
    }
    for i in range(n):
        values |= seat_values(i)
    return values | state_values()


def bid_representative(
    state: GameState, seat: int, cards: frozenset[int]
) -> tuple[BidKey, Valuation]:
    p = state.players[seat]
    values: dict[str, object] = {
        "kept": p.hand - cards,
        "bid": cards,
        "table": p.table,
        "spent": p.spent,
        "the highest bid": state.highest_bid,
        "the bidder's status cards": p.status_cards,
    }
    for i, q in enumerate(state.players):
        values |= seat_values(i, q)
    key = (len(state.players), seat, tuple(q.passed for q in state.players))
    return key, values | state_values(state)


BID = Domain(
    RULES,
    "_bid",
    (
        Part(
            "3 to 5 seats, every bidder, every passed flag of the others",
            bid_keys,
            bid_schema,
            bid_valuation,
        ),
    ),
    "the bidder's money any disjoint sets of any values (the bid not empty), the highest bid"
    " any number below the new face-up total; every other seat but its passed flag, the"
    " status cards, the configuration and the cards out of the game anything",
    bid_representative,
)


# --- _pass -----------------------------------------------------------------------------------

#: (seats, passer, passed flags (None in a disgrace auction: not read), the card, each
#: seat's table (True: cards face up, False: none, None: either), the status cards of the
#: seat that takes the card (None: nobody does))
PassKey = tuple[
    int,
    int,
    tuple[bool, ...] | None,
    StatusCard,
    tuple[bool | None, ...],
    tuple[StatusCard, ...] | None,
]


def taker(flags: tuple[bool, ...] | None, seat: int, card: StatusCard) -> int | None:
    """Who takes ``card`` when ``seat`` passes: the passer of a disgrace auction, the one
    seat left in a normal one, nobody while it goes on."""
    if card.is_disgrace or flags is None:
        return seat
    left = [i for i, passed in enumerate(flags) if i != seat and not passed]
    return left[0] if len(left) == 1 else None


def kinds_of_holding(card: StatusCard) -> list[tuple[StatusCard, ...]]:
    """One holding of each kind the taker's code tells apart: with or without Faux Pas and
    a luxury card (never ``card`` itself)."""
    luxury = StatusCard.LUXURY_9 if card is not StatusCard.LUXURY_9 else StatusCard.LUXURY_10
    kinds = [(), (luxury,), (FAUX_PAS,), sort_cards([luxury, FAUX_PAS])]
    return [h for h in kinds if card not in h]


def pass_structures() -> Iterator[PassKey]:
    """Every number of seats and passer, every card; in a normal auction every passed flag
    (one other seat in at least) and the passer's table empty or not; in a disgrace
    auction every seat's table empty or not; each kind of holding of the taker: 7,452."""
    for n, seat in seat_counts():
        for card in CARDS:
            if card.is_disgrace:
                for tables in itertools.product((False, True), repeat=n):
                    for held in kinds_of_holding(card):
                        yield n, seat, None, card, tables, held
                continue
            for flags in passed_flags(n, seat, 1):
                ends = taker(flags, seat, card) is not None
                for own in (False, True):
                    read: tuple[bool | None, ...] = tuple(
                        own if i == seat else None for i in range(n)
                    )
                    for kind in kinds_of_holding(card) if ends else [None]:
                        yield n, seat, flags, card, read, kind


def pass_holdings() -> Iterator[PassKey]:
    """Every holding of the taker, at three seats where seat 0 passes, seat 1 takes the
    card of a normal auction (seat 2 passed before) and seat 0 that of a disgrace auction:
    237,568."""
    for card in CARDS:
        if card.is_disgrace:
            for held in holdings_without(card):
                yield 3, 0, None, card, (True, True, True), held
        else:
            for held in holdings_without(card):
                yield 3, 0, (False, False, True), card, (True, None, None), held


def pass_holding_input(key: PassKey) -> Schema:
    """A pass of :func:`pass_holdings`, concrete: three seats with 1 in hand, 2 face up, 4
    spent; seat 1 (normal) or 0 (disgrace) holds the key's status cards, nobody else any."""
    _, seat, flags, card, _, held = key
    takes = taker(flags, seat, card)
    players = tuple(
        PlayerState(
            frozenset({1}),
            frozenset({2}),
            frozenset({4}),
            bool(flags and flags[i]),
            held if i == takes and held is not None else (),
        )
        for i in range(3)
    )
    state = GameState(CONFIG, players, (), Phase.AUCTION, seat, card)
    return Schema({"state": state, "seat": seat})


def pass_schema(key: PassKey) -> Schema:
    """Each seat's money as blocks (hand, table, spent: the table known empty or not where
    the key says, the others any set); the passed flags of a disgrace auction and the status
    cards of every seat but the taker opaque; the cards out of the game opaque unless a
    waiting Faux Pas may send cards there; the highest bid an unknown."""
    n, seat, flags, card, tables, held = key
    takes = taker(flags, seat, card)
    players = []
    for i in range(n):
        table: object = frozenset()
        if tables[i] is not False:
            table = Money(i, [Block(i, f"table {i}", tables[i] is True)])
        players.append(
            PlayerState(
                Money(i, [Block(i, f"hand {i}", False)]),  # type: ignore[arg-type]
                table,  # type: ignore[arg-type]
                Money(i, [Block(i, f"spent {i}", False)]),  # type: ignore[arg-type]
                Opaque(f"seat {i}'s passed flag") if flags is None else flags[i],  # type: ignore[arg-type]
                held if i == takes and held is not None else Opaque(f"seat {i}'s status cards"),  # type: ignore[arg-type]
            )
        )
    waiting = held is not None and FAUX_PAS in held and card.is_luxury
    state = opaque_state(
        tuple(players),
        Phase.AUCTION,
        seat,
        auction=card,
        removed=() if waiting else None,
        highest=Number.unknown("the highest bid"),
    )
    return Schema({"state": state, "seat": seat})


def pass_valuation(key: PassKey) -> Valuation:
    """Each seat: 1 in hand, 2 face up where its table is not empty, 4 spent; nobody has
    passed where that is not read; every other holding empty; the highest bid what the
    tables give."""
    n, _, _, _, tables, _ = key
    values: dict[str, object] = {}
    for i in range(n):
        values |= seat_values(i, PlayerState(frozenset({1}), frozenset({2}), frozenset({4})))
    values["the highest bid"] = 2 if any(t is not False for t in tables) else 0
    return values | state_values()


def pass_representative(state: GameState, seat: int) -> tuple[PassKey, Valuation]:
    card = state.auction
    assert card is not None
    disgrace = card.is_disgrace
    flags = None if disgrace else tuple(p.passed for p in state.players)
    takes = taker(flags, seat, card)
    tables = tuple(
        bool(p.table) if disgrace or i == seat else None for i, p in enumerate(state.players)
    )
    held = state.players[takes].status_cards if takes is not None else None
    values: dict[str, object] = {"the highest bid": state.highest_bid}
    for i, p in enumerate(state.players):
        values |= seat_values(i, p)
    key = (len(state.players), seat, flags, card, tables, held)
    return key, values | state_values(state)


PASS = Domain(
    RULES,
    "_pass",
    (
        Part(
            "3 to 5 seats, every passer and card, every passed flag of a normal auction,"
            " every table a pass reads empty or not, each kind of holding of the taker",
            pass_structures,
            pass_schema,
            pass_valuation,
        ),
        Part(
            "every holding of the seat that takes each card, at three seats",
            pass_holdings,
            pass_holding_input,
            pass_valuation,
            twin=False,
        ),
    ),
    "every seat's money any disjoint sets of any values (empty or not as the key says where"
    " a pass reads that), the highest bid any number; the passed flags of a disgrace"
    " auction, the other seats' status cards, the configuration and the cards out of the"
    " game (unless a waiting Faux Pas sends cards there) anything",
    pass_representative,
)


# --- _discard --------------------------------------------------------------------------------

DiscardKey = tuple[int, int, tuple[StatusCard, ...], StatusCard]
L = StatusCard.luxury
#: Holdings of a seat that must discard, of every size the structure part tries.
DISCARD_KINDS = (
    ((L(3), FAUX_PAS), L(3)),
    (sort_cards([L(3), L(8), StatusCard.PRESTIGE, FAUX_PAS, StatusCard.PASSE]), L(8)),
    (sort_cards([L(1), L(2), L(10), *[StatusCard.PRESTIGE] * 3, *CARDS[-3:]]), L(2)),
)


def discard_structures() -> Iterator[DiscardKey]:
    """Every seat of 3 to 5, each of three holdings: 36."""
    for n, seat in seat_counts():
        for held, card in DISCARD_KINDS:
            yield n, seat, held, card


def discard_holdings() -> Iterator[DiscardKey]:
    """Seat 0 of three, every holding with Faux Pas and a luxury card, every luxury card of
    it: 81,920."""
    for held in holdings():
        if FAUX_PAS in held:
            for card in held:
                if card.is_luxury:
                    yield 3, 0, held, card


def discard_schema(key: DiscardKey) -> Schema:
    """The seat's status cards as they are; everything else about every seat, and every
    part of the state but the cards out of the game (none, R8), a stand-in."""
    n, seat, held, card = key
    players = tuple(
        PlayerState(
            Opaque(f"seat {i}'s hand"),  # type: ignore[arg-type]
            Opaque(f"seat {i}'s table"),  # type: ignore[arg-type]
            Opaque(f"seat {i}'s spent money"),  # type: ignore[arg-type]
            Opaque(f"seat {i}'s passed flag"),  # type: ignore[arg-type]
            held,
        )
        if i == seat
        else opaque_seat(i)
        for i in range(n)
    )
    state = opaque_state(players, Phase.DISCARD, seat, removed=())
    return Schema({"state": state, "seat": seat, "card": card})


def discard_holding_input(key: DiscardKey) -> Schema:
    """A discard of :func:`discard_holdings`, concrete: the other seats hold all their money
    in hand and no status card."""
    _, seat, held, card = key
    players = (
        PlayerState(ALL_MONEY, status_cards=held),
        PlayerState(ALL_MONEY),
        PlayerState(ALL_MONEY),
    )
    state = GameState(CONFIG, players, (), Phase.DISCARD, seat)
    return Schema({"state": state, "seat": seat, "card": card})


def discard_valuation(key: DiscardKey) -> Valuation:
    values: dict[str, object] = dict(state_values())
    for i in range(key[0]):
        values |= seat_values(i)
    return values | {"the card up for auction": None}


def discard_representative(
    state: GameState, seat: int, card: StatusCard
) -> tuple[DiscardKey, Valuation]:
    values: dict[str, object] = dict(state_values(state))
    for i, p in enumerate(state.players):
        values |= seat_values(i, p)
    key = (len(state.players), seat, state.players[seat].status_cards, card)
    return key, values


DISCARD = Domain(
    RULES,
    "_discard",
    (
        Part(
            "3 to 5 seats, every seat, three holdings",
            discard_structures,
            discard_schema,
            discard_valuation,
        ),
        Part(
            "every holding with Faux Pas and a luxury card, every luxury card of it, at seat"
            " 0 of three",
            discard_holdings,
            discard_holding_input,
            discard_valuation,
            twin=False,
        ),
    ),
    "every seat's money and passed flag, the other seats' status cards, the configuration"
    " and the deck anything",
    discard_representative,
)

TRANSITIONS: Sequence[Domain] = (CHECK_BID, REVEAL, BID, PASS, DISCARD)

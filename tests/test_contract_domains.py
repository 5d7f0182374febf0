"""The finite domains of the contracts (``verification/domains.py``) lose nothing.

Each domain's argument (docs/verification.md) says which input of the domain stands for any
input the preconditions admit. Here it is checked on random admitted inputs outside the
domains (any configuration's money, 3 to 5 seats, the standard deck's cards anywhere, extra
prestige cards, holdings out of canonical order, any statuses and money): each maps to a key
of its domain, the domain's input of that key meets the preconditions, every condition has
the same truth on both, and what the function returns maps along. Then each domain refutes a
planted wrong version of its function.
"""

import itertools
import random
import sys
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any, cast

import attrs

from high_society import (
    STANDARD,
    Bid,
    GameConfig,
    GameState,
    Phase,
    PlayerState,
    StatusCard,
    rules,
    scoring,
    sort_cards,
)
from high_society._fast import set_highest_bid
from high_society.cards import STANDARD_DECK
from high_society.state import GameState as State
from tests.builders import FAUX_PAS, PRESTIGE
from verification import domains
from verification.enumeration import Inputs, check, conditions, function_named
from verification.small_game import SMALL_GAME

#: Configurations the random inputs use: their money is all the transitions' domains ignore.
MONEY_CONFIGS = (STANDARD, SMALL_GAME, GameConfig(money=(3, 7, 50, 999)), domains.CONFIG)
RULES = "high_society.rules"


SCORING = "high_society.scoring"


def transition(name: str) -> Callable[..., State]:
    found: Callable[..., State] = function_named(RULES, name)  # type: ignore[assignment]
    return found


def truths(name: str, inputs: Inputs, module: str = RULES) -> tuple[list[bool], Any]:
    """Each condition's truth on ``inputs`` (preconditions first), and the answer."""
    function = function_named(module, name)
    scope = {**vars(sys.modules[module]), **inputs}
    texts = conditions(function)
    pres = [bool(eval(t, scope)) for k, t in texts if k == "pre"]  # our own docstrings
    scope["__return__"] = answer = function(**inputs)
    posts = [bool(eval(t, scope)) for k, t in texts if k == "post"]
    return pres + posts, answer


def random_state(rng: random.Random, phase: Phase, auction: bool) -> GameState:
    """A state with the standard deck's cards (and 0 to 3 more prestige cards) spread at
    random over the deck, the seats, the cards out of the game, the auction (``auction``)
    and the ending card; every seat's money placed at random."""
    config = rng.choice(MONEY_CONFIGS)
    n = rng.randint(3, 5)
    cards = [*STANDARD_DECK, *[PRESTIGE] * rng.randint(0, 3)]
    rng.shuffle(cards)
    deck: list[StatusCard] = []
    removed: list[StatusCard] = []
    held: list[list[StatusCard]] = [[] for _ in range(n)]
    up = ending = None
    if auction:
        up = cards.pop()
    if rng.random() < 0.2:
        ending = cards.pop()
    for card in cards:
        where = rng.randrange(n + 3)
        if where < n:
            held[where].append(card)
        elif where == n:
            deck.append(card)
        elif where == n + 1:
            removed.append(card)
    players = []
    for i in range(n):
        places = [rng.choice((0, 0, 1, 2, 3)) for _ in config.money]
        hand, table, spent = (
            frozenset(m for m, p in zip(config.money, places, strict=True) if p == k)
            for k in range(3)
        )
        owned = held[i] if rng.random() < 0.5 else sort_cards(held[i])
        players.append(
            PlayerState(
                hand, table=table, spent=spent, passed=rng.random() < 0.3, status_cards=tuple(owned)
            )
        )
    return GameState(
        config,
        tuple(players),
        sort_cards(deck),
        phase=phase,
        turn=rng.randrange(n),
        auction=up,
        removed=tuple(removed),
        ending_card=ending,
    )


def admitted(name: str, make: Callable[[random.Random], Inputs], count: int) -> Iterator[Inputs]:
    """``count`` random inputs of ``name`` that its preconditions admit."""
    rng = random.Random(name)
    found = 0
    while found < count:
        inputs = make(rng)
        scope = {**vars(rules), **inputs}
        if all(eval(t, scope) for k, t in conditions(transition(name)) if k == "pre"):
            found += 1
            yield inputs


def random_reveal(rng: random.Random) -> Inputs:
    state = random_state(rng, Phase.REVEAL, auction=rng.random() < 0.2)
    card = rng.choice(state.deck or (StatusCard.LUXURY_1,))
    return {"state": state, "card": card}


def cached_highest(rng: random.Random, state: GameState) -> GameState:
    """``state``, its highest bid cached above what the tables give a third of the time: as
    a pass by the seat holding the highest total leaves it (no game reaches that; the
    preconditions admit it, and the domains' argument holds whatever the cache holds)."""
    if rng.random() < 1 / 3:
        set_highest_bid(state, state.highest_bid + rng.randint(1, 30))
    return state


def random_bid(rng: random.Random) -> Inputs:
    state = cached_highest(rng, random_state(rng, Phase.AUCTION, auction=True))
    hand = sorted(state.players[state.turn].hand)
    cards = frozenset(rng.sample(hand, rng.randint(1, len(hand)))) if hand else frozenset()
    return {"state": state, "seat": state.turn, "cards": cards}


def random_pass(rng: random.Random) -> Inputs:
    state = cached_highest(rng, random_state(rng, Phase.AUCTION, auction=True))
    return {"state": state, "seat": state.turn}


def same_truths(name: str, x: Inputs, y: Inputs, module: str = RULES) -> tuple[Any, Any]:
    """Checks that the domain's input ``y`` meets the preconditions and that every condition
    has the same truth on ``x`` and ``y``; returns both answers."""
    truth_x, after_x = truths(name, x, module)
    truth_y, after_y = truths(name, y, module)
    pres = sum(k == "pre" for k, _ in conditions(function_named(module, name)))
    assert all(truth_y[:pres])
    assert truth_x == truth_y
    return after_x, after_y


def arguments(x: Inputs) -> tuple[GameState, int]:
    """The state and the seat of an input (its turn for a reveal)."""
    state = cast(GameState, x["state"])
    return state, cast(int, x.get("seat", state.turn))


def holds(cards: tuple[StatusCard, ...]) -> tuple[bool, bool]:
    return FAUX_PAS in cards, any(c.is_luxury for c in cards)


def test_the_discard_domain_loses_nothing() -> None:
    holdings = set(domains.holdings())
    made = 0
    for x in admitted("_discard", random_discard, 3_000):
        state, seat = arguments(x)
        card = cast(StatusCard, x["card"])
        key = domains.discard_representative(state, seat, card)
        held, k_card = key
        assert held in holdings
        assert FAUX_PAS in held
        assert k_card in held
        assert k_card.is_luxury
        y = domains.discard_input(key)
        after_x, after_y = same_truths("_discard", x, y)
        # The answer maps along, the seat to the domain's seat 0: the phase and turn, the
        # seat's holding as the key's.
        assert (after_x.phase, after_x.turn) == (after_y.phase, seat)
        assert after_y.turn == 0
        assert domains.capped(after_x.players[seat].status_cards) == (
            after_y.players[0].status_cards
        )
        made += state.players[seat].status_cards != held
    assert made > 1_000  # most inputs are outside the domain


def random_discard(rng: random.Random) -> Inputs:
    """A discard whose seat holds Faux Pas and Luxury 6 among its cards (else the
    precondition would refuse nearly every random state)."""
    state = random_state(rng, Phase.DISCARD, auction=False)
    seat = state.turn
    others: list[list[StatusCard]] = [
        [c for c in p.status_cards if c is not FAUX_PAS and c is not StatusCard.LUXURY_6]
        for p in state.players
    ]
    mine = [*others[seat], FAUX_PAS, StatusCard.LUXURY_6]
    rng.shuffle(mine)
    others[seat] = mine
    players = tuple(
        PlayerState(p.hand, p.table, p.spent, p.passed, tuple(cards))
        for p, cards in zip(state.players, others, strict=True)
    )
    rest = [c for c in state.deck if c not in (FAUX_PAS, StatusCard.LUXURY_6)]
    removed = tuple(c for c in state.removed if c not in (FAUX_PAS, StatusCard.LUXURY_6))
    luxury = [c for c in mine if c.is_luxury]
    return {
        "state": GameState(
            state.config, players, tuple(rest), Phase.DISCARD, seat, None, removed, None
        ),
        "seat": seat,
        "card": rng.choice(luxury),
    }


def test_the_reveal_domain_loses_nothing() -> None:
    decks = set(domains.holdings())
    outside = 0
    for x in admitted("_reveal", random_reveal, 3_000):
        state, _ = arguments(x)
        card = cast(StatusCard, x["card"])
        key = domains.reveal_representative(state, card)
        deck, k_card = key
        assert deck in decks
        assert k_card in deck
        y = domains.reveal_input(key)
        after_x, after_y = same_truths("_reveal", x, y)
        # The starter is copied: the domain's seat 0 stands for any.
        assert (after_x.phase, after_x.auction) == (after_y.phase, after_y.auction)
        assert (after_x.turn, after_y.turn) == (state.turn, 0)
        # The deck maps along up to its prestige cards beyond two (only "one more left"
        # is read of them).
        assert domains.capped(after_x.deck, 2) == domains.capped(after_y.deck, 2)
        outside += state.deck != deck or len(state.config.money) != len(domains.MONEY)
    assert outside > 2_000


def test_the_bid_domain_loses_nothing() -> None:
    for x in admitted("_bid", random_bid, 3_000):
        state, seat = arguments(x)
        cards = cast(frozenset[int], x["cards"])
        key = domains.bid_representative(state, seat, cards)
        n, k_seat, flags, where = key
        assert 3 <= n <= 5
        assert k_seat == seat
        assert not flags[seat]
        assert domains.BID in where
        y = domains.bid_input(key)
        after_x, after_y = same_truths("_bid", x, y)
        # The answer maps along: the seat to act, the passed flags, and the bidder's money
        # by place (kept cards stay in hand, the bid joins the face-up cards).
        assert after_x.turn == after_y.turn
        assert [p.passed for p in after_x.players] == [p.passed for p in after_y.players]
        before, after = state.players[seat], after_x.players[seat]
        y_after = after_y.players[seat]
        assert after.hand == before.hand - cards
        assert after.table == before.table | cards
        assert bool(y_after.hand) == bool(before.hand - cards)
        assert bool(y_after.table) == bool(before.table | cards)


def test_the_pass_domain_loses_nothing() -> None:
    ended = {Phase.AUCTION: 0, Phase.REVEAL: 0, Phase.DISCARD: 0}
    for x in admitted("_pass", random_pass, 4_000):
        state, seat = arguments(x)
        key = domains.pass_representative(state, seat)
        n, k_seat, flags, auction, _tables, held = key
        assert 3 <= n <= 5
        assert k_seat == seat
        assert auction in domains.PASS_AUCTIONS
        assert flags.count(False) >= 2
        assert not flags[seat]
        assert not (held[0] and held[2])
        y = domains.pass_input(key)
        after_x, after_y = same_truths("_pass", x, y)
        # The answer maps along: phase, turn, auction, passed flags, which seats have money
        # face up, and what the passer and the next seat in hold.
        assert (after_x.phase, after_x.turn) == (after_y.phase, after_y.turn)
        assert (after_x.auction is None) == (after_y.auction is None)
        for a, b in zip(after_x.players, after_y.players, strict=True):
            assert (a.passed, bool(a.table)) == (b.passed, bool(b.table))
        nxt = domains.next_in(flags, seat)
        for i in (seat, nxt):
            assert holds(after_x.players[i].status_cards) == holds(after_y.players[i].status_cards)
        ended[after_x.phase] += 1
    assert min(ended.values()) > 50  # auctions go on, end, and end in a discard


# --- Each domain refutes a planted wrong version ---------------------------------------------


def refuted(
    name: str, wrong: Callable[..., State], inputs: Callable[[], Iterator[Inputs]], first: int
) -> set[str]:
    """The postconditions of ``name`` that the ``first`` inputs refute on ``wrong`` (its
    contracts copied); the real function must hold on the same inputs."""
    taken = list(itertools.islice(inputs(), first))
    real = check(transition(name), lambda: iter(taken))
    assert [o.counterexample for o in real] == [None] * len(real)
    wrong.__doc__ = transition(name).__doc__
    return {
        o.condition
        for o in check(wrong, lambda: iter(taken), RULES)
        if o.counterexample is not None
    }


def test_the_discard_domain_refutes_a_discard_that_keeps_the_faux_pas() -> None:
    def keeps_faux_pas(state: GameState, seat: int, card: StatusCard) -> GameState:
        after = transition("_discard")(state, seat, card)
        players = list(after.players)
        p = players[seat]
        players[seat] = PlayerState(
            p.hand, p.table, p.spent, p.passed, sort_cards((*p.status_cards, FAUX_PAS))
        )
        removed = list(after.removed)
        removed.remove(FAUX_PAS)
        return attrs.evolve(after, players=tuple(players), removed=tuple(removed))

    assert refuted("_discard", keeps_faux_pas, domains.discards, 2_000) == {
        "post: discards_one_with_faux_pas(seat, card, __return__)"
    }


def test_the_reveal_domain_refutes_an_end_on_any_dark_green_card() -> None:
    # R9 read as "a dark-green card ends the game" (not only the last one).
    def ends_early(state: GameState, card: StatusCard) -> GameState:
        after = transition("_reveal")(state, card)
        if card.is_dark_green and after.phase is not Phase.OVER:
            return attrs.evolve(after, phase=Phase.OVER, auction=None, ending_card=card)
        return after

    found = refuted("_reveal", ends_early, domains.reveals, 5_000)
    assert "post: ends_on_last_dark_green(card, __return__)" in found


def test_the_bid_domain_refutes_a_turn_that_skips_no_passed_seat() -> None:
    # R6 forgotten: the seat after the bidder acts even if it passed.
    def next_seat_even_if_passed(state: GameState, seat: int, cards: frozenset[int]) -> State:
        after = transition("_bid")(state, seat, cards)
        turn = (seat + 1) % len(state.players)
        return attrs.evolve(after, turn=turn)

    assert refuted("_bid", next_seat_even_if_passed, domains.bids, 10_000) == {
        "post: next_seat_is_in(__return__)"
    }


def test_the_pass_domain_refutes_a_waiting_faux_pas_that_loses_the_card() -> None:
    # R8 misread: a Faux Pas waiting for a luxury card leaves the game alone.
    def loses_card(state: GameState, seat: int) -> GameState:
        after = transition("_pass")(state, seat)
        auction = state.auction
        if after.phase is Phase.REVEAL and auction is not None and auction.is_luxury:
            removed = list(after.removed)
            if auction in removed:
                removed.remove(auction)
                return attrs.evolve(after, removed=tuple(removed))
        return after

    def inputs() -> Iterator[Inputs]:  # the domain's luxury auctions (a fifth of it)
        keys = (k for k in domains.pass_keys() if k[3] is StatusCard.LUXURY_1)
        return map(domains.pass_input, keys)

    assert refuted("_pass", loses_card, inputs, 40_000) == {
        "post: ended_auction_gives_its_card(state, __return__)"
    }


# --- _check_bid: one card per place, and the side of the highest bid --------------------------

#: Bid cards that are no money card of any configuration used here.
NOT_MONEY = (5, 0, -3)


def random_check_bid(rng: random.Random) -> Inputs:
    """A bid ``_check_bid`` may be asked about: any seat, cards of the configuration's money
    or none of it, the highest bid as the tables give it or cached above or below."""
    state = random_state(rng, Phase.AUCTION, auction=True)
    if rng.random() < 1 / 3:
        set_highest_bid(state, max(0, state.highest_bid + rng.randint(-30, 30)))
    seat = rng.randrange(len(state.players))
    pool = [*state.config.money, *NOT_MONEY]
    cards = frozenset(rng.sample(pool, rng.choice((0, 1, 1, 2, 2, 3, 4))))
    return {"state": state, "action": Bid(seat, cards)}


def test_the_check_bid_domain_loses_nothing() -> None:
    kinds: dict[object, int] = {}
    for x in admitted("_check_bid", random_check_bid, 6_000):
        key = domains.check_bid_representative(**x)  # type: ignore[arg-type]
        n, seat, used, _ = key
        assert (n, seat) in set(domains.seat_counts())
        assert len(used) == 7
        y = domains.check_bid_input(key)
        answer_x, answer_y = same_truths("_check_bid", x, y)
        # The answer maps along: the reason the bid is refused, or none.
        reason = answer_x and answer_x[0]
        assert reason == (answer_y and answer_y[0])
        kinds[reason] = kinds.get(reason, 0) + 1
    assert len(kinds) == 4  # legal, and each of R5's three reasons
    assert min(kinds.values()) > 200


def test_the_check_bid_domain_refutes_an_equal_bid_accepted() -> None:
    check_bid = function_named(RULES, "_check_bid")

    def equal_is_enough(state: GameState, action: Bid) -> object:  # R5 read as ">="
        player = state.players[action.seat]
        total = sum(player.table) + sum(action.cards)
        if action.cards <= player.hand and total == state.highest_bid and action.cards:
            return None
        return check_bid(state, action)

    equal_is_enough.__doc__ = check_bid.__doc__
    found = check(equal_is_enough, domains.check_bids, RULES)
    assert [o.counterexample is not None for o in found] == [False, True]
    assert [o.counterexample for o in check(check_bid, domains.check_bids)] == [None, None]


# --- status_of: canonical order --------------------------------------------------------------


def test_the_status_of_domain_loses_nothing() -> None:
    holdings = set(domains.holdings())
    rng = random.Random(3)
    deck = [*STANDARD_DECK]
    outside = 0
    for _ in range(3_000):
        cards = rng.sample(deck, rng.randint(0, len(deck)))  # any order
        key = domains.status_of_representative(cards)
        assert key in holdings
        answer_x, answer_y = same_truths("status_of", {"cards": cards}, {"cards": key}, SCORING)
        assert answer_x == answer_y
        outside += tuple(cards) != key
    assert outside > 2_000


# --- winners and result: rankings ------------------------------------------------------------


def random_breakdown(rng: random.Random) -> scoring.StatusBreakdown:
    luxury = rng.sample(range(1, 11), rng.choice((0, 1, 1, 2, 3)))
    return scoring.status_of(sort_cards(map(StatusCard.luxury, luxury)))


def test_the_ranking_domain_loses_nothing_of_winners() -> None:
    # Statuses in halves, money of the game, luxury cards, any seat order; ties made likely.
    rng = random.Random(23)
    keys = set(domains.ranking_keys())
    for _ in range(4_000):
        n = rng.randint(1, 5)
        x = {
            "scores": tuple(Fraction(rng.randint(-4, 4), rng.choice((1, 2))) for _ in range(n)),
            "money": tuple(rng.choice((0, 3, 7, 7, 12, 40)) for _ in range(n)),
            "breakdowns": tuple(random_breakdown(rng) for _ in range(n)),
        }
        key, seat_of = domains.ranking_representative(**x)  # type: ignore[arg-type]
        assert key in keys
        assert sorted(seat_of) == list(range(n))
        won_x, won_y = same_truths("winners", x, domains.ranking_input(key), SCORING)
        assert sorted(seat_of[j] for j in won_y) == list(won_x)


def test_the_ranking_domain_counts_its_keys() -> None:
    # n seats, k of them cast out: 4 steps between each two of the others.
    expected = sum(4 ** max(n - k - 1, 0) for n in range(1, 6) for k in range(1, n + 1))
    assert sum(1 for _ in domains.ranking_keys()) == expected == 117


def test_the_ranking_domain_refutes_each_misread_tie_break() -> None:
    # R12's tie-breaks read by the lowest luxury card, or with money skipped: the domain
    # refutes both (each top card sits beside Luxury 1, so the lowest card ties them all).
    winners = scoring.winners

    def misread(top: Callable[[scoring.StatusBreakdown], int], money_counts: bool) -> Any:
        def wrong(scores: Any, money: Any, breakdowns: Any) -> tuple[int, ...]:
            out = set(scoring.cast_out(money))
            keys = {
                i: (scores[i], money[i] if money_counts else 0, top(breakdowns[i]))
                for i in range(len(scores))
                if i not in out
            }
            best = max(keys.values(), default=None)
            return tuple(i for i, k in keys.items() if k == best)

        wrong.__doc__ = winners.__doc__
        return wrong

    def lowest(b: scoring.StatusBreakdown) -> int:
        return min((c.luxury_value for c in b.luxury_cards), default=0)

    for wrong in (misread(lowest, True), misread(domains.top_luxury, False)):
        found = check(wrong, domains.rankings, SCORING)
        assert any(o.counterexample is not None for o in found)
    # The same code reading R12 right holds on the domain: the misreading is what fails.
    right = check(misread(domains.top_luxury, True), domains.rankings, SCORING)
    assert [o.counterexample for o in right] == [None] * len(right)


def random_end(rng: random.Random) -> GameState:
    """A random state of :func:`random_state`, over, some seats' face-up money taken back;
    a third of them with extra luxury cards and disgrace cards dealt again (result reads
    each seat alone: its precondition does not ask for the cards to be in place)."""
    state = random_state(rng, Phase.OVER, auction=False)
    players = []
    for p in state.players:
        if rng.random() < 0.5:
            p = attrs.evolve(p, hand=p.hand | p.table, table=frozenset())
        if rng.random() < 1 / 3:
            more = rng.sample([*STANDARD_DECK], rng.randint(0, 4))
            p = attrs.evolve(p, status_cards=sort_cards([*p.status_cards, *more]))
        players.append(p)
    return attrs.evolve(state, players=tuple(players))


def test_the_end_domain_loses_nothing_of_result() -> None:
    keys = set(domains.end_keys())
    rng = random.Random(11)
    for _ in range(3_000):
        state = random_end(rng)
        key, seat_of = domains.end_representative(state)
        assert key in keys
        x = {"state": state}
        answer_x, answer_y = same_truths("result", x, domains.end_input(key), SCORING)
        assert sorted(seat_of[j] for j in answer_y.winners) == list(answer_x.winners)
        assert sorted(seat_of[j] for j in answer_y.cast_out) == list(answer_x.cast_out)


def test_the_end_domain_realises_its_ranks() -> None:
    # Each seat of an end of the domain has the status, money and top luxury card its key
    # ranks give it (the result's breakdowns read back).
    for key in domains.end_keys():
        answer = scoring.result(domains.end_input(key)["state"])  # type: ignore[arg-type]
        again, seat_of = domains.ranking_representative(
            answer.scores, answer.money, answer.breakdowns
        )
        assert again == key
        assert list(seat_of[: key[1]]) == list(range(key[1]))

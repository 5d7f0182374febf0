"""The out-of-domain checks: random inputs the preconditions admit, far from the domains'
own (any configuration's money, 3 to 5 seats, the status cards anywhere they may lie, any
cached highest bid, holdings in any order, any statuses and money).

For each input: its key and its twin's stand-ins' values (``Domain.representative``); the
input must be that instance of its key's twin (rebuilt, it compares equal, cached highest
bid included, and the twin's facts hold), every postcondition true on the input, and every
postcondition true on the twin with nothing read. Where a domain's inputs are not all
instances (``Domain.exact`` is false: ``status_of``'s other orders, ``winners``' luxury
cards below the top), the input's truths are compared with its key's twin's instead.

The checks are seeded: the same inputs every run. :mod:`verification.crosshair_check` runs
them in the gate; ``tests/test_contract_domains.py`` checks the generators and the
instances.
"""

import random
from collections.abc import Callable, Iterator
from fractions import Fraction
from types import ModuleType
from typing import Any

import attrs

from high_society import (
    STANDARD,
    Bid,
    GameConfig,
    GameState,
    Phase,
    PlayerState,
    StatusCard,
    sort_cards,
)
from high_society._fast import set_highest_bid
from high_society.cards import STANDARD_DECK
from high_society.scoring import StatusBreakdown, status_of
from verification.enumeration import (
    compiled_conditions,
    evaluate,
    symbolic_modules,
    symbolic_truths,
)
from verification.finite import CONFIG, FAUX_PAS
from verification.schema import Domain, Inputs, cached_highest, facts_hold, instantiate
from verification.small_game import SMALL_GAME

#: Configurations the random inputs use: their money is all the transitions' domains ignore.
MONEY_CONFIGS = (STANDARD, SMALL_GAME, GameConfig(money=(3, 7, 50, 999)), CONFIG)
#: Bid cards that are no money card of any configuration used here.
NOT_MONEY = (5, 0, -3)


def random_state(rng: random.Random, phase: Phase, auction: bool) -> GameState:
    """A state with the standard deck's cards spread at random over the deck, the seats, the
    auction (``auction``) and the ending card, Faux Pas with a luxury card out of the game
    a fifth of the time; every seat's money placed at random."""
    config = rng.choice(MONEY_CONFIGS)
    n = rng.randint(3, 5)
    cards = list(STANDARD_DECK)
    rng.shuffle(cards)
    removed: tuple[StatusCard, ...] = ()
    if rng.random() < 0.2:
        luxury = next(c for c in cards if c.is_luxury)
        cards.remove(luxury)
        cards.remove(FAUX_PAS)
        removed = (luxury, FAUX_PAS)
    up = cards.pop() if auction else None
    ending = cards.pop() if rng.random() < 0.2 else None
    deck: list[StatusCard] = []
    held: list[list[StatusCard]] = [[] for _ in range(n)]
    for card in cards:
        where = rng.randrange(n + 2)
        if where < n:
            held[where].append(card)
        elif where == n:
            deck.append(card)
    players = []
    for i in range(n):
        places = [rng.choice((0, 0, 1, 2, 3)) for _ in config.money]
        hand, table, spent = (
            frozenset(m for m, p in zip(config.money, places, strict=True) if p == k)
            for k in range(3)
        )
        players.append(PlayerState(hand, table, spent, rng.random() < 0.3, sort_cards(held[i])))
    return GameState(
        config,
        tuple(players),
        sort_cards(deck),
        phase=phase,
        turn=rng.randrange(n),
        auction=up,
        removed=removed,
        ending_card=ending,
    )


def cached_above(rng: random.Random, state: GameState) -> GameState:
    """``state``, its highest bid cached above what the tables give a third of the time: as
    a pass by the seat holding the highest total leaves it (no game reaches that; the
    preconditions admit it)."""
    if rng.random() < 1 / 3:
        set_highest_bid(state, state.highest_bid + rng.randint(1, 30))
    return state


def random_reveal(rng: random.Random) -> Inputs:
    state = random_state(rng, Phase.REVEAL, auction=rng.random() < 0.2)
    return {"state": state, "card": rng.choice(state.deck or (StatusCard.LUXURY_1,))}


def random_bid(rng: random.Random) -> Inputs:
    state = cached_above(rng, random_state(rng, Phase.AUCTION, auction=True))
    hand = sorted(state.players[state.turn].hand)
    cards = frozenset(rng.sample(hand, rng.randint(1, len(hand)))) if hand else frozenset()
    return {"state": state, "seat": state.turn, "cards": cards}


def random_pass(rng: random.Random) -> Inputs:
    state = cached_above(rng, random_state(rng, Phase.AUCTION, auction=True))
    return {"state": state, "seat": state.turn}


def random_discard(rng: random.Random) -> Inputs:
    """A discard whose seat holds Faux Pas and a luxury card among its cards (else the
    precondition would refuse nearly every random state)."""
    state = random_state(rng, Phase.DISCARD, auction=False)
    seat = state.turn
    mine = {FAUX_PAS, StatusCard.LUXURY_6}
    players = []
    for i, p in enumerate(state.players):
        kept = [c for c in p.status_cards if c not in mine]
        players.append(
            attrs.evolve(p, status_cards=sort_cards([*kept, *mine] if i == seat else kept))
        )
    deck = tuple(c for c in state.deck if c not in mine)
    state = attrs.evolve(state, players=tuple(players), deck=deck, removed=())
    if state.ending_card in mine:
        state = attrs.evolve(state, ending_card=None)
    luxury = [c for c in state.players[seat].status_cards if c.is_luxury]
    return {"state": state, "seat": seat, "card": rng.choice(luxury)}


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


def random_holding(rng: random.Random) -> Inputs:
    """Cards of the standard deck in any order."""
    deck = list(STANDARD_DECK)
    return {"cards": rng.sample(deck, rng.randint(0, len(deck)))}


def random_breakdown(rng: random.Random) -> StatusBreakdown:
    luxury = rng.sample(range(1, 11), rng.choice((0, 1, 1, 2, 3)))
    return status_of(sort_cards(map(StatusCard.luxury, luxury)))


def random_ranking(rng: random.Random) -> Inputs:
    """Statuses in halves, money of the game, luxury cards, any seat order; ties likely."""
    n = rng.randint(1, 5)
    return {
        "scores": tuple(Fraction(rng.randint(-4, 4), rng.choice((1, 2))) for _ in range(n)),
        "money": tuple(rng.choice((0, 3, 7, 7, 12, 40)) for _ in range(n)),
        "breakdowns": tuple(random_breakdown(rng) for _ in range(n)),
    }


def random_end(rng: random.Random) -> Inputs:
    """A random state over, some seats' face-up money taken back, a third of the seats with
    more cards dealt again (``result`` reads each seat alone: its precondition asks only
    that each seat's cards be ones a seat can hold, not that they be in place)."""
    state = random_state(rng, Phase.OVER, auction=False)
    players = []
    for p in state.players:
        if rng.random() < 0.5:
            p = attrs.evolve(p, hand=p.hand | p.table, table=frozenset())
        if rng.random() < 1 / 3:
            more = rng.sample([*STANDARD_DECK], rng.randint(0, 4))
            p = attrs.evolve(p, status_cards=sort_cards([*p.status_cards, *more]))
        players.append(p)
    return {"state": attrs.evolve(state, players=tuple(players))}


#: Each domain's random inputs, and how many the gate checks.
RANDOM: dict[str, tuple[Callable[[random.Random], Inputs], int]] = {
    "status_of": (random_holding, 2_000),
    "winners": (random_ranking, 2_000),
    "result": (random_end, 1_000),
    "_check_bid": (random_check_bid, 2_000),
    "_reveal": (random_reveal, 1_500),
    "_bid": (random_bid, 1_500),
    "_pass": (random_pass, 2_000),
    "_discard": (random_discard, 1_500),
}


@attrs.frozen
class Outside:
    """What the out-of-domain check of one function found."""

    inputs: int
    #: How many distinct keys the inputs map to.
    keys: int
    #: The first failure: the input and what failed on it (``None`` when all passed).
    failure: tuple[Inputs, str] | None


def admitted(
    domain: Domain, module: ModuleType, make: Callable[[random.Random], Inputs], count: int
) -> Iterator[Inputs]:
    """``count`` random inputs that ``domain``'s preconditions admit, seeded by its name."""
    rng = random.Random(domain.name)
    compiled = [
        (t, c) for t, c in compiled_conditions(getattr(module, domain.name)) if t.startswith("pre")
    ]
    found = 0
    while found < count:
        inputs = make(rng)
        scope = {**vars(module), **inputs}
        if all(eval(code, scope) for _, code in compiled):  # our own docstrings
            found += 1
            yield inputs


def problem(domain: Domain, module: ModuleType, x: Inputs) -> tuple[Any, str | None]:
    """The key of ``x``, and what is wrong about it, if anything."""
    function = getattr(module, domain.name)
    compiled = compiled_conditions(function)
    key, valuation = domain.representative(**x)
    truths = evaluate(function, compiled, vars(module), x, pres=False)
    false = [text for text, truth in truths if not truth]
    if false:
        return key, f"false on the input: {false[0]}"
    part = domain.parts[0]
    schema = part.schema(key)
    if not facts_hold(schema.facts, valuation):
        return key, "its twin's facts are false on it"
    if domain.exact:
        made = instantiate(schema.inputs, valuation)
        if made != x or _highest(made) != _highest(x):
            return key, "not an instance of its key's twin"
    if not part.twin:
        again = evaluate(function, compiled, vars(module), schema.inputs, pres=False)
        return key, None if again == truths else "its key's input has other truths"
    twin = symbolic_truths(function, compiled, module, schema)
    if isinstance(twin, str):
        return key, f"its key's twin is read: {twin}"
    if [t for _, t in twin] != [t for _, t in truths]:
        return key, "its key's twin has other truths"
    return key, None


def _highest(inputs: Inputs) -> list[object]:
    return [cached_highest(v) or v.highest_bid for v in inputs.values() if isinstance(v, GameState)]


def outside(domain: Domain, module: ModuleType | None = None, first: bool = False) -> Outside:
    """The out-of-domain check of ``domain`` (``module`` replaces the function's own: a
    planted change); ``first`` stops at the first input on which a condition is false (the
    first failure of another kind is kept meanwhile)."""
    import importlib

    module = module or importlib.import_module(domain.module)
    make, count = RANDOM[domain.name]
    keys = set()
    failure = None
    checked = 0
    with symbolic_modules(module):
        for x in admitted(domain, module, make, count):
            checked += 1
            key, wrong = problem(domain, module, x)
            keys.add(repr(key))
            if wrong is not None and (failure is None or wrong.startswith("false")):
                failure = (x, wrong)
                if first and wrong.startswith("false"):
                    break
    return Outside(checked, len(keys), failure)

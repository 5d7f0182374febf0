"""The machinery of the contracts' lemmas (``verification/``) says true things.

The gate (``verification.crosshair_check``) confirms each contract on a finite domain whose
inputs each stand for every instance of a symbolic twin. Here: each stand-in operation
agrees with real sets and numbers on random instances (the facts of algebra the lemmas rest
on, checked rather than trusted); every twin has the truths of its own input; the domains
have the sizes the docs give; the syntactic lemma of ``status_of`` tells order-blind reads
from the others; a planted change is compiled from the source it names.
"""

import ast
import importlib
import itertools
import random
from collections.abc import Callable
from typing import Any

import pytest

from verification import changes, domains, order, rankings
from verification.enumeration import (
    DOMAINS,
    compiled_conditions,
    evaluate,
    symbolic_modules,
    symbolic_truths,
)
from verification.outside import RANDOM, admitted, outside
from verification.schema import Domain, facts_hold, instantiate
from verification.symbolic import (
    Block,
    Money,
    Number,
    Opaque,
    Read,
    Undecided,
    deciding,
    facts_of,
)

# --- The stand-ins agree with what they stand for ---------------------------------------------

OPERATIONS: dict[str, Callable[[Any, Any], object]] = {
    "|": lambda a, b: a | b,
    "&": lambda a, b: a & b,
    "-": lambda a, b: a - b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<=": lambda a, b: a <= b,
    ">=": lambda a, b: a >= b,
    "<": lambda a, b: a < b,
    "isdisjoint": lambda a, b: a.isdisjoint(b),
}


def random_blocks(rng: random.Random) -> tuple[list[Block], dict[str, frozenset[int]]]:
    """Up to five blocks of one seat, each known non-empty or not, with disjoint random
    cards that honour what each block says (a block of unknown size may be empty)."""
    blocks = [Block(0, f"b{k}", rng.random() < 0.5) for k in range(rng.randint(1, 5))]
    cards = iter(rng.sample(range(1, 100), 40))
    values = {
        b.name: frozenset(next(cards) for _ in range(rng.randint(1 if b.nonempty else 0, 3)))
        for b in blocks
    }
    return blocks, values


def test_money_operations_agree_with_real_sets_whenever_they_answer() -> None:
    rng = random.Random(1)
    answered = undecided = 0
    for _ in range(4_000):
        blocks, values = random_blocks(rng)
        a = Money(0, rng.sample(blocks, rng.randint(0, len(blocks))))
        b = Money(0, rng.sample(blocks, rng.randint(0, len(blocks))))
        real_a, real_b = instantiate(a, values), instantiate(b, values)
        for name, operation in OPERATIONS.items():
            try:
                found = operation(a, b)
            except Undecided:
                undecided += 1
                continue
            answered += 1
            expected = operation(real_a, real_b)
            assert instantiate(found, values) == expected, (name, a, b, values)
        try:
            assert bool(a) == bool(real_a)
        except Undecided:
            assert not any(block.nonempty for block in a.blocks)
    assert answered > 20_000
    assert undecided > 1_000  # unknown sizes do leave some questions open


def test_money_refuses_what_its_lemma_does_not_allow() -> None:
    money = Money(0, [Block(0, "b", True)])
    for read in (len, iter, hash, lambda m: 3 in m, lambda m: Money(1, [Block(1, "c", True)]) | m):
        with pytest.raises(Read):
            read(money)
    assert money.total().terms == {"Σb": 1}


def test_numbers_agree_with_integers_under_every_valuation_of_their_facts() -> None:
    rng = random.Random(2)
    names = ["a", "b", "c"]
    checked = 0
    for _ in range(2_000):
        values = {n: rng.randint(-5, 5) for n in names}
        x = sum((Number.unknown(n) * rng.randint(-2, 2) for n in names), start=Number())
        y = sum((Number.unknown(n) * rng.randint(-2, 2) for n in names), start=Number())
        x += rng.randint(-3, 3)
        difference = instantiate(x, values) - instantiate(y, values)
        sign = (difference > 0) - (difference < 0)
        if not (x - y).terms:
            continue
        facts = facts_of([(x, y, sign)])
        assert facts_hold(facts, values)
        with deciding(facts):
            for operation in ("==", "!=", "<=", ">=", "<"):
                compare = OPERATIONS[operation]
                assert compare(x, y) == compare(instantiate(x, values), instantiate(y, values))
                # The same comparison written the other way round, or scaled, is decided too.
                assert compare(y * 2, x * 2) == compare(
                    2 * instantiate(y, values), 2 * instantiate(x, values)
                )
        checked += 1
    assert checked > 1_500
    with pytest.raises(Undecided):
        Number.unknown("a") < Number.unknown("b")  # noqa: B015 (no fact decides it)


def test_an_opaque_part_is_equal_to_itself_and_nothing_more() -> None:
    part = Opaque("a part")
    assert part == part
    assert (part,) == (part,)
    for read in (bool, hash, len, iter, lambda p: p == 1, lambda p: p.x, lambda p: p < 1):
        with pytest.raises(Read):
            read(part)


# --- Every twin has the truths of its own input ----------------------------------------------


@pytest.mark.parametrize("domain", DOMAINS, ids=[d.name for d in DOMAINS])
def test_every_twin_has_the_truths_of_its_input(domain: Domain) -> None:
    # The gate runs a twin's input only where the twin fails: here both run, on the first
    # keys of every part, so that a stand-in that answered wrong would show.
    module = importlib.import_module(domain.module)
    target = getattr(module, domain.name)
    compiled = compiled_conditions(target)
    checked = 0
    with symbolic_modules(module):
        for part in domain.parts:
            for key in itertools.islice(part.all_keys(), 1_500):
                schema = part.schema(key)
                concrete = instantiate(schema.inputs, part.valuation(key)) if part.twin else None
                if concrete is None:
                    continue
                truths = evaluate(target, compiled, vars(module), concrete, pres=True)
                assert all(t for _, t in truths), (key, truths)
                twin = symbolic_truths(target, compiled, module, schema)
                assert twin == [t for t in truths if t[0].startswith("post:")], (key, twin)
                assert facts_hold(schema.facts, part.valuation(key))
                checked += 1
    assert checked or domain.name == "status_of"


@pytest.mark.parametrize(
    ("keys", "count"),
    [
        (rankings.ranking_keys, 117),
        (rankings.ordered_keys, 10_889),
        (rankings.result_keys, 245),
        (domains.check_bid_keys, 4_608),
        (domains.reveal_keys, 237_568),
        (domains.bid_keys, 124),
        (domains.pass_structures, 7_452),
        (domains.pass_holdings, 237_568),
        (domains.discard_structures, 36),
        (domains.discard_holdings, 81_920),
    ],
    ids=lambda x: getattr(x, "__name__", str(x)),
)
def test_the_domains_have_the_sizes_the_docs_give(keys: Callable[[], Any], count: int) -> None:
    assert sum(1 for _ in keys()) == count


def test_the_ranking_keys_count_as_the_docs_say() -> None:
    # n seats, k of them cast out: 4 steps between each two of the others.
    expected = sum(4 ** max(n - k - 1, 0) for n in range(1, 6) for k in range(1, n + 1))
    assert expected == 117


def test_the_random_inputs_are_admitted_and_reach_many_keys() -> None:
    for domain in DOMAINS:
        module = importlib.import_module(domain.module)
        make, _ = RANDOM[domain.name]
        inputs = list(admitted(domain, module, make, 200))
        keys = {repr(domain.representative(**x)[0]) for x in inputs}
        assert len(keys) > 30 or domain.name == "_bid", domain.name


def test_the_pass_outside_check_ends_auctions_of_every_kind() -> None:
    found = outside(next(d for d in DOMAINS if d.name == "_pass"))
    assert found.failure is None
    assert found.keys > 1_000


# --- status_of's syntactic lemma ---------------------------------------------------------------


@pytest.mark.parametrize(
    "code",
    [
        "x = cards[0]",
        "x = cards.index(StatusCard.PASSE)",
        "for card in cards:\n    x = card",
        "x = list(cards)",
        "x = [c.luxury_value for c in cards]",
        "x = next(iter(cards))",
        "x = sorted(cards)[-1]",
        "x = zip(cards, range(3))",
    ],
)
def test_the_order_lemma_refuses_a_read_that_sees_the_order(code: str) -> None:
    assert order.order_reads(ast.parse(code), "cards", set())


@pytest.mark.parametrize(
    "code",
    [
        "x = StatusCard.PASSE in cards",
        "x = cards.count(StatusCard.PRESTIGE)",
        "x = sorted([c.luxury_value for c in cards])",
        "x = sum(c.luxury_value for c in cards)",
        "x = len(set(cards))",
        "x = list(reversed(cards)).count(StatusCard.PRESTIGE)",
        "x = status_of(list(reversed(cards)))",
    ],
)
def test_the_order_lemma_accepts_a_read_that_does_not(code: str) -> None:
    assert order.order_reads(ast.parse(code), "cards", {"status_of"}) == []


def test_status_of_reads_no_order() -> None:
    from high_society import scoring

    assert order.problems(scoring) == []


# --- Planted changes ---------------------------------------------------------------------------


def test_every_planted_change_is_compiled_from_the_source_it_names() -> None:
    for change in changes.CHANGES:
        module = changes.planted(change)
        assert callable(getattr(module, change.function))
        real = importlib.import_module(changes.module_of(change.function))
        assert getattr(module, change.function) is not getattr(real, change.function)
    assert {c.function for c in changes.CHANGES if c.outside} == {d.name for d in DOMAINS}


def test_a_change_whose_text_is_not_in_the_source_is_refused() -> None:
    missing = changes.Change("_pass", "nothing", (("no such text", ""),))
    with pytest.raises(ValueError, match="occurs 0 times"):
        changes.planted(missing)


def test_each_new_condition_has_a_change_that_it_alone_refutes() -> None:
    proven = {c.only for c in changes.CHANGES if c.only}
    assert proven == {
        "post: pays_as_r6_r7(state, seat, __return__)",
        "post: card_goes_to_taker(state, seat, __return__)",
        "post: waiting_faux_pas_takes_a_luxury_card(state, seat, __return__)",
        "post: next_round_starts_right(state, seat, __return__)",
        "post: next_seat_after(seat, __return__)",
        "post: discards_only_the_card(state, seat, card, __return__)",
        "post: __return__.scores == tuple(status_of(p.status_cards).status for p in state.players)",
    }


def test_the_pass_twin_sees_a_table_of_two_cards_read() -> None:
    # The audit's planted change: a pass that loses a card only when two or more are face
    # up. No input of the domain has two face up, and the twin refuses to be measured.
    change = next(c for c in changes.CHANGES if "two or more cards face up" in c.name)
    ok, how = changes.refuted(change)
    assert ok
    assert "measured" in how

"""The CrossHair contracts (PEP 316 docstrings of ``rules`` and ``scoring``) are well formed:
every name a condition uses resolves in its module (a misspelt predicate fails here, in
seconds, and not only in the CrossHair gate, where it shows as "Unable to meet
precondition"); each condition is one short line naming its predicates, defined once in
``high_society._contracts``; and importing the library does not load the history search
that only ``state_problems`` needs. Then the enumerations of ``verification/``."""

import ast
import builtins
import inspect
import itertools
import random
import subprocess
import sys
import typing
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from types import ModuleType
from typing import cast

import attrs
import pytest

from high_society import (
    STANDARD,
    Bid,
    GameState,
    Phase,
    PlayerState,
    StatusCard,
    _contracts,
    rules,
    scoring,
    sort_cards,
    why_illegal,
)
from high_society._contracts import (  # the contracts the broken copies below copy
    bid_follows_r5,
    bid_to_check,
    r11_status,
)
from high_society.errors import Reason
from high_society.invariants import cards_in_place
from high_society.scoring import StatusBreakdown, status_of
from verification import enumeration
from verification.crosshair_check import STATS_PATTERN, TARGETS, crash_line, crash_report
from verification.crosshair_entry import STATS
from verification.enumeration import (
    NOT_MONEY,
    bid_input,
    check,
    every_ranking,
    others_totals,
    outside_bids,
    seat_card_sets,
    small_game_bids,
    small_game_ends,
    standard_bids,
    top_breakdown,
)
from verification.small_game import SMALL_GAME

MODULES = {"src/high_society/rules.py": rules, "src/high_society/scoring.py": scoring}


def conditions() -> list[tuple[str, str, str]]:
    found = []
    for path, names in TARGETS.items():
        module = MODULES[path]
        for name in names:
            doc = inspect.getdoc(getattr(module, name)) or ""
            for line in doc.splitlines():
                stripped = line.strip()
                if stripped.startswith(("pre:", "post:")):
                    found.append((path, name, stripped.partition(":")[2].strip()))
    return found


CONDITIONS = conditions()


def test_every_checked_function_has_contracts() -> None:
    assert {name for _, name, _ in CONDITIONS} == {n for ns in TARGETS.values() for n in ns}


def free_names(expression: str) -> set[str]:
    tree = ast.parse(expression, mode="eval")
    bound = {
        target.id
        for node in ast.walk(tree)
        if isinstance(node, ast.comprehension)
        for target in ast.walk(node.target)
        if isinstance(target, ast.Name)
    } | {
        arg.arg for node in ast.walk(tree) if isinstance(node, ast.Lambda) for arg in node.args.args
    }
    loaded = {
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }
    return loaded - bound


@pytest.mark.parametrize(
    ("path", "function", "condition"), CONDITIONS, ids=[f"{f}: {c[:40]}" for _, f, c in CONDITIONS]
)
def test_every_name_in_a_condition_resolves(path: str, function: str, condition: str) -> None:
    module: ModuleType = MODULES[path]
    target: Callable[..., object] = getattr(module, function)
    known = set(vars(module)) | set(dir(builtins)) | {"__return__"}
    known |= set(inspect.signature(target).parameters)
    assert free_names(condition) - known == set()


@pytest.mark.parametrize(
    ("path", "function", "condition"), CONDITIONS, ids=[f"{f}: {c[:40]}" for _, f, c in CONDITIONS]
)
def test_every_condition_reads_in_one_short_line(path: str, function: str, condition: str) -> None:
    # "    post: " and the condition fit in a line of 100: anything longer is a predicate
    # of high_society._contracts.
    assert len(condition) <= 90, condition


def test_the_predicates_the_contracts_name_are_defined_once_in_the_contracts_module() -> None:
    named: set[str] = set()
    for path, _function, condition in CONDITIONS:
        module = MODULES[path]
        for name in free_names(condition):
            value = getattr(module, name, None)
            if inspect.isfunction(value) and value.__module__ == "high_society._contracts":
                named.add(name)
    assert named
    assert named <= set(_contracts.__all__)
    # The transitions' contracts name nothing but predicates, their arguments and builtins.
    for path, function, condition in CONDITIONS:
        if path.endswith("rules.py"):
            assert free_names(condition) - {"__return__"} <= named | set(dir(builtins)) | set(
                inspect.signature(getattr(rules, function)).parameters
            ), condition


def test_importing_the_library_does_not_load_the_history_search() -> None:
    # The search behind state_problems is 800 lines: loaded when asked for, not before.
    show = "import sys; print(sorted(m for m in sys.modules if m.startswith('high_society')))"
    loaded = {
        "import high_society": "import high_society",
        "games": "from high_society.simulate import simulate; simulate(3, 5, seed=1)",
        "state_problems": "from high_society.invariants import state_problems",
    }
    found = {
        name: ast.literal_eval(
            subprocess.run(
                [sys.executable, "-c", f"{code}; {show}"],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        )
        for name, code in loaded.items()
    }
    assert "high_society._history" not in found["import high_society"]
    assert "high_society.invariants" not in found["import high_society"]
    assert "high_society._contracts" in found["import high_society"]
    assert "high_society._history" not in found["games"]
    assert "high_society._history" in found["state_problems"]


def test_a_contract_taking_fractions_admits_only_halves() -> None:
    # crosshair_entry builds every Fraction input as n/2 (denominator 1 or 2): a contract
    # taking fractions must say so, or CrossHair would check less than the contract claims.
    taking = []
    for path, names in TARGETS.items():
        for name in names:
            function = getattr(MODULES[path], name)
            doc = inspect.getdoc(function) or ""
            pres = [line.strip() for line in doc.splitlines() if line.strip().startswith("pre:")]
            for parameter, hint in typing.get_type_hints(function).items():
                if parameter != "return" and Fraction in (hint, *typing.get_args(hint)):
                    taking.append(name)
                    assert any(parameter in c and "denominator <= 2" in c for c in pres), name
    assert taking == ["winners"]


# --- The enumeration (verification/enumeration.py) and the deep run's report ----------------


def broken_status_of(cards: Sequence[StatusCard]) -> StatusBreakdown:
    """``status_of`` with the x6 bug for three prestige cards (R11), its contracts copied."""
    found = status_of(cards)
    if found.prestige == 3:
        return attrs.evolve(found, status=found.status * 6 / 8)
    return found


broken_status_of.__doc__ = status_of.__doc__


def test_the_enumeration_refutes_a_broken_copy_with_the_same_contract() -> None:
    first = list(itertools.islice(seat_card_sets(), 64))  # holds 0 to 3 prestige cards
    formula, order = check(broken_status_of, lambda: iter(first))
    assert formula.condition == "post: __return__.status == r11_status(cards)"
    assert formula.inputs == 64
    assert formula.counterexample is not None
    cards = formula.counterexample["cards"]
    assert isinstance(cards, tuple)
    assert cards.count(StatusCard.PRESTIGE) == 3
    # The order condition compares with the real status_of: false there too.
    assert order.counterexample == formula.counterexample


def test_the_enumeration_confirms_the_real_function_on_the_same_inputs() -> None:
    first = list(itertools.islice(seat_card_sets(), 64))
    outcomes = check(status_of, lambda: iter(first))
    assert [o.counterexample for o in outcomes] == [None, None]


def test_a_precondition_false_on_the_domain_is_reported() -> None:
    def halve(n: int) -> int:
        """pre: n % 2 == 0
        post: __return__ * 2 == n"""
        return n // 2

    pre, post = check(halve, lambda: iter([{"n": 2}, {"n": 3}, {"n": 4}]))
    assert pre.counterexample == {"n": 3}
    assert post.counterexample == {"n": 3}
    assert pre.inputs == post.inputs == 3


def test_the_seat_domain_is_every_set_of_status_cards_a_seat_can_hold() -> None:
    sets = [cast(tuple[StatusCard, ...], inputs["cards"]) for inputs in seat_card_sets()]
    assert len(sets) == len(set(sets)) == 2**10 * 4 * 2**3
    assert all(cards == sort_cards(cards) for cards in sets)
    # Every holding is a sub-multiset of the standard deck, and the whole deck is one.
    deck = Counter(STANDARD.deck)
    assert all(not Counter(cards) - deck for cards in sets)
    assert STANDARD.deck in sets


#: The legality check of a bid, which the contract under test describes (read by name, as
#: CrossHair and the enumerations read it).
CHECK_BID = cast(
    Callable[[GameState, Bid], tuple[Reason, str, tuple[int, ...]] | None],
    enumeration.function_named("high_society.rules", "_check_bid"),
)


def test_the_bid_domain_is_what_the_legality_check_hands_to_check_bid() -> None:
    # Every 997th input: each is a bid that passed the checks before _check_bid (seat,
    # turn, phase, shape), so the legality check refuses it only for R5's reasons.
    r5 = {None, Reason.CARD_ALREADY_BID, Reason.CARD_NOT_IN_HAND, Reason.BID_TOO_LOW}
    sample = list(itertools.islice(small_game_bids(), 0, None, 997))
    assert len(sample) == 415  # 413,343 inputs in all
    legal = set()
    for inputs in sample:
        state, action = inputs["state"], inputs["action"]
        assert isinstance(state, GameState)
        problem = why_illegal(state, action)
        assert (problem.reason if problem else None) in r5
        legal.add(problem is None)
    assert legal == {True, False}


def _bid_reduced(state: GameState, action: Bid) -> tuple[GameState, Bid]:
    """The input of standard_bids that stands for ``state`` and ``action`` (the argument in
    docs/verification.md): the bidder's money as it is; the bid's cards from outside the
    hand replaced by one face-up card if any is face up, else by one that is not; the others'
    highest total by one on the same side of the bid's new total."""
    player = state.players[action.seat]
    hand, table, spent = player.hand, player.table, player.spent
    own, outside = action.cards & hand, action.cards - hand
    if outside & table:
        outside = frozenset({min(table)})
    elif outside:
        outside = frozenset({min(spent)} if spent else {NOT_MONEY})
    assert outside in outside_bids(table, spent)
    total = sum(table) + sum(own)
    others = max(sum(p.table) for i, p in enumerate(state.players) if i != action.seat)
    low, *high = others_totals(total, outside)
    reduced_others = high[0] if high and others >= total else low
    return bid_input(hand, table, spent, reduced_others), Bid(0, own | outside)


def test_the_bid_domain_loses_nothing_of_check_bid() -> None:
    # standard_bids' argument, checked on inputs it does not hold: 3 to 5 seats, any bidder,
    # every seat's money placed at random, bids of any cards (money, outside it, none). Each
    # maps to the domain's input that stands for it: _check_bid gives the same answer (the
    # same reason too) and every condition has the same truth on both.
    rng = random.Random(5)
    money = STANDARD.money
    namespace = vars(rules)
    texts = enumeration.conditions(CHECK_BID)
    auction, *deck = STANDARD.deck
    kinds = {True: 0, False: 0}
    for _ in range(20_000):
        seats = []
        for _ in range(rng.randint(3, 5)):
            where = [rng.choice((0, 0, 1, 2)) for _ in money]
            hand, table, spent = (
                frozenset(m for m, at in zip(money, where, strict=True) if at == place)
                for place in range(3)
            )
            seats.append(PlayerState(hand, table=table, spent=spent))
        seat = rng.randrange(len(seats))
        pool = [*money, NOT_MONEY, 7, 0, -3]
        cards = frozenset(rng.sample(pool, rng.choice((0, 1, 1, 2, 2, 3, 4))))
        state = GameState(
            STANDARD, tuple(seats), tuple(deck), phase=Phase.AUCTION, turn=seat, auction=auction
        )
        action = Bid(seat, cards)
        low_state, low_action = _bid_reduced(state, action)
        answer = CHECK_BID(state, action)
        low_answer = CHECK_BID(low_state, low_action)
        assert (answer and answer[0]) == (low_answer and low_answer[0])
        kinds[answer is None] += 1
        for kind, text in texts:
            truth = [
                eval(text, {**namespace, "state": s, "action": a, "__return__": r})
                for s, a, r in ((state, action, answer), (low_state, low_action, low_answer))
            ]
            assert truth[0] == truth[1], (kind, text, state, action)
    assert min(kinds.values()) > 1_000  # legal and illegal bids alike


def broken_check_bid(state: GameState, action: Bid) -> object:
    """``_check_bid`` accepting a bid that only equals the highest (R5 read as ``>=``), its
    contract copied."""
    player = state.players[action.seat]
    total = sum(player.table) + sum(action.cards)
    if action.cards <= player.hand and total == state.highest_bid and total:
        return None
    return CHECK_BID(state, action)


broken_check_bid.__doc__ = CHECK_BID.__doc__


def test_the_bid_domain_refutes_an_equal_bid_accepted() -> None:
    first = list(itertools.islice(standard_bids(), 2_000))
    pre, post = check(broken_check_bid, lambda: iter(first))
    assert pre.counterexample is None
    assert post.counterexample is not None
    assert [o.counterexample for o in check(CHECK_BID, lambda: iter(first))] == [None] * 2


def test_the_gate_enumerates_a_part_of_the_bid_domain_and_the_deep_run_all_of_it() -> None:
    bids = enumeration.ENUMERATIONS[("high_society.rules", "_check_bid")]
    gate, deep = bids.for_run(deep=False), bids.for_run(deep=True)
    assert gate is not None
    assert gate.inputs is small_game_bids
    assert not gate.whole
    assert deep is bids
    assert deep.inputs is standard_bids
    assert deep.whole


def test_the_end_domain_holds_ends_of_the_small_game() -> None:
    # The first 5,000 inputs: every seat's money in hand or spent, the deck's cards each in
    # exactly one place, the game over: states result's precondition admits.
    sample = [cast(GameState, i["state"]) for i in itertools.islice(small_game_ends(), 5_000)]
    assert len(set(sample)) == len(sample)
    for state in sample:
        assert state.is_over
        assert cards_in_place(state)
        assert all(not p.table and p.hand | p.spent == set(SMALL_GAME.money) for p in state.players)
        owned = [c for p in state.players for c in p.status_cards]
        assert Counter(owned + list(state.removed)) == Counter(SMALL_GAME.deck)
    assert {len(p.status_cards) for s in sample for p in s.players} == set(range(6))


def _ranks(values: Sequence[object]) -> tuple[int, ...]:
    order = sorted(set(values))  # type: ignore[type-var]
    return tuple(order.index(v) for v in values)


def test_the_ranking_domain_loses_nothing_of_winners() -> None:
    # every_ranking's argument, checked on inputs it does not hold: statuses in halves,
    # money and luxury cards of the game, any order of seats. Each maps to its domain's
    # input by ranks and by seats sorted by status; the winners map along, and every
    # condition of winners has the same truth on both.
    rng = random.Random(23)
    domain = {
        (i["scores"], i["money"], tuple(b.luxury_cards for b in i["breakdowns"]))  # type: ignore[attr-defined]
        for i in every_ranking(4)
    }
    namespace = vars(scoring)
    texts = [text for kind, text in enumeration.conditions(scoring.winners) if kind == "post"]
    for _ in range(3_000):
        seats = rng.randint(1, 4)
        scores = tuple(Fraction(rng.randint(-20, 20), rng.choice((1, 2))) for _ in range(seats))
        money = tuple(rng.choice((0, 3, 7, 7, 12, 40)) for _ in range(seats))
        breakdowns = tuple(
            status_of(sort_cards(StatusCard.luxury(v) for v in rng.sample(range(1, 11), k)))
            for k in (rng.choice((0, 1, 1, 2)) for _ in range(seats))
        )
        tops = [max((c.luxury_value for c in b.luxury_cards), default=0) for b in breakdowns]
        seat_of = sorted(range(seats), key=lambda i: scores[i])  # new seat j is old seat_of[j]
        r_scores, r_money, r_tops = _ranks(scores), _ranks(money), _ranks(tops)
        low_scores = tuple(Fraction(r_scores[i]) for i in seat_of)
        low_money = tuple(r_money[i] for i in seat_of)
        low_breakdowns = tuple(top_breakdown(r_tops[i]) for i in seat_of)
        assert (low_scores, low_money, tuple(b.luxury_cards for b in low_breakdowns)) in domain
        won = scoring.winners(scores, money, breakdowns)
        won_reduced = scoring.winners(low_scores, low_money, low_breakdowns)
        assert sorted(seat_of[j] for j in won_reduced) == list(won)
        original = {"scores": scores, "money": money, "breakdowns": breakdowns}
        reduced = {"scores": low_scores, "money": low_money, "breakdowns": low_breakdowns}
        for text in texts:
            truth = [
                eval(text, {**namespace, **inputs, "__return__": answer})  # our own docstrings
                for inputs, answer in ((original, won), (reduced, won_reduced))
            ]
            assert truth[0] == truth[1], text


def test_the_ranking_domain_counts_every_weak_order() -> None:
    # Weak orders of n seats: 1, 3, 13, 75 (the Fubini numbers); statuses ascending only.
    assert sum(1 for _ in every_ranking(4)) == 1 * 1 * 1 + 2 * 3 * 3 + 4 * 13 * 13 + 8 * 75 * 75


def test_the_deep_report_reads_path_counts_and_crashes() -> None:
    line = STATS.format(
        file="src/high_society/scoring.py", line=7, paths=82, end="exhausted", cpu=6.04
    )
    found = STATS_PATTERN.match(line)
    assert found is not None
    assert (found["file"], found["line"], found["paths"], found["end"], found["cpu"]) == (
        "src/high_society/scoring.py",
        "7",
        "82",
        "exhausted",
        "6.0",
    )
    crash = [
        "src/high_society/scoring.py:3: info: Confirmed over all paths.",
        "Traceback (most recent call last):",
        '  File "x.py", line 1, in <module>',
        "    assert_true(x)",
        "crosshair.util.CrossHairInternal: Attempted to call assert_true on a non-symbolic",
    ]
    assert crash_line(crash) == crash[-1]
    assert crash_line(crash[:1]) is None
    report = crash_report("winners", "high_society.scoring.winners", "60", crash)
    assert report[0].startswith("CrossHair 0.0.113 crashed on winners, Python 3.")
    assert "--per_condition_timeout=60 high_society.scoring.winners" in report[1]
    assert report[2:] == crash[1:]

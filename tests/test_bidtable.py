"""Bid tables (``high_society._bidtable``): every subset of a hand, in the documented order,
whatever the money values."""

import random

import pytest

from high_society._bidtable import TABLES, BidTable, bid_table


def subsets_by_definition(hand: frozenset[int]) -> list[frozenset[int]]:
    """Every non-empty subset, by total, ties by their cards in ascending order."""
    cards = sorted(hand)
    subsets = [
        [c for i, c in enumerate(cards) if mask >> i & 1] for mask in range(1, 1 << len(cards))
    ]
    return [frozenset(s) for s in sorted(subsets, key=lambda s: (sum(s), s))]


@pytest.mark.parametrize("seed", range(6))
def test_bid_tables_list_every_subset_in_the_documented_order(seed: int) -> None:
    rng = random.Random(seed)
    money = (1, 2, 3, 4, 6, 8, 10, 12, 15, 20, 25) if seed % 2 else tuple(range(1, 70))
    hand = frozenset(rng.sample(money, rng.randrange(0, 10)))
    table = BidTable(hand)
    subsets = [table.cards_at(i) for i in range(len(table.totals))]
    assert subsets == subsets_by_definition(hand)
    assert list(table.totals) == [sum(s) for s in subsets]


@pytest.mark.parametrize("hand", [{1, 3}, {4, 25}, {2, 63, 64}, {100, 7}])
def test_each_entry_stands_for_its_money_values_small_or_large(hand: set[int]) -> None:
    table = bid_table(frozenset(hand))
    assert {table.cards_at(i) for i in range(len(table.totals))} == set(
        subsets_by_definition(frozenset(hand))
    )


def test_subsets_no_table_has_handed_out_yet_are_built_right() -> None:
    # Subsets are shared between tables through a cache; values no other test uses make
    # sure these are built here, not found (so this test pins how a subset is built).
    table = BidTable(frozenset({991, 993, 997}))
    assert [sorted(table.cards_at(i)) for i in range(len(table.totals))] == [
        [991],
        [993],
        [997],
        [991, 993],
        [991, 997],
        [993, 997],
        [991, 993, 997],
    ]


def test_the_tables_kept_stay_within_their_memory_budget() -> None:
    # Hands from outside (states read from JSON, each with its own config) can be many and
    # large. Tables of 12 wide cards are estimated at about 0.8 MB each, so the 64 MiB
    # budget keeps well under a hundred of them; the count limit alone would keep 8,192.
    # Counted among this test's own hands: other tests leave tables of their own behind.
    rng = random.Random(7)
    hands = [frozenset(rng.sample(range(900, 1001), 12)) for _ in range(200)]
    most = 0
    for hand in hands:
        bid_table(hand)
        most = max(most, sum(h in TABLES for h in hands))
    assert most <= 100


def test_starts_gives_where_the_bids_above_each_total_begin() -> None:
    table = BidTable(frozenset({1, 2, 3}))
    for above in range(7):
        assert table.starts[above] == sum(1 for t in table.totals if t <= above)


def test_tables_are_built_once_per_hand_and_found_by_the_hot_path() -> None:
    hand = frozenset({1, 2, 4, 8})
    first = bid_table(hand)
    assert bid_table(frozenset([8, 4, 2, 1])) is first
    assert TABLES[hand] is first


@pytest.mark.parametrize("seed", range(20))
def test_fewest_gives_each_totals_first_subset_of_fewest_cards(seed: int) -> None:
    rng = random.Random(seed)
    hand = frozenset(rng.sample([1, 2, 3, 4, 6, 8, 10, 12, 15, 20, 25], rng.randint(1, 11)))
    table = BidTable(hand)
    subsets = [table.cards_at(i) for i in range(len(table.totals))]
    wanted: dict[int, frozenset[int]] = {}
    for cards in subsets:  # in the table's order: the first of fewest cards stays
        best = wanted.get(sum(cards))
        if best is None or len(cards) < len(best):
            wanted[sum(cards)] = cards
    assert table.fewest() == tuple((t, tuple(sorted(wanted[t]))) for t in sorted(wanted))
    assert table.fewest() is table.fewest()  # made once

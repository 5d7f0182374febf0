"""The search bot's reduced action set, on states of whole generated games: legal, without
repeats, ``Pass`` first in an auction, exactly the lowest reachable totals, and per total
the card sets with the fewest and the most cards (checked against every subset of the hand,
computed here without the engine's bid tables)."""

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from high_society import Bid, Pass, Phase, is_legal, legal_actions
from high_society.search import search_actions
from property_tests.strategies import Game, games


@settings(max_examples=100)  # each example plays a whole game; the engine is covered elsewhere
@given(games(), st.data(), st.integers(1, 4), st.integers(1, 2))
def test_search_actions_are_the_lowest_totals_with_their_extreme_card_sets(
    game: Game, data: st.DataObject, bid_totals: int, cards_per_total: int
) -> None:
    state = data.draw(st.sampled_from(game.states), label="state")
    actions = search_actions(state, bid_totals=bid_totals, cards_per_total=cards_per_total)
    assert len(set(actions)) == len(actions)
    assert all(is_legal(state, action) for action in actions)
    if state.phase is Phase.DISCARD:
        assert actions == tuple(legal_actions(state))
        return
    if state.phase is not Phase.AUCTION:
        assert actions == ()
        return
    seat = state.turn
    assert actions[0] == Pass(seat)
    player = state.players[seat]
    need = state.highest_bid + 1 - player.bid  # the least a bid must add (R5)
    sizes: dict[int, list[int]] = {}  # total -> the size of every subset that makes it
    hand = sorted(player.hand)
    for k in range(1, len(hand) + 1):
        for cards in combinations(hand, k):
            if sum(cards) >= need:
                sizes.setdefault(sum(cards), []).append(k)
    lowest = sorted(sizes)[:bid_totals]
    bids = [a for a in actions[1:] if isinstance(a, Bid)]
    assert len(bids) == len(actions) - 1
    assert sorted({b.total for b in bids}) == lowest
    for total in lowest:
        counts = sorted(len(b.cards) for b in bids if b.total == total)
        if cards_per_total == 1 or len(sizes[total]) == 1:
            assert counts == [min(sizes[total])]
        else:  # two different sets, even when they have as many cards
            assert counts == [min(sizes[total]), max(sizes[total])]

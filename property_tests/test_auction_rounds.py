"""Within a round the highest bid strictly rises (R5); a player who passed a normal auction
does not act again in that round (R6); the first pass ends a disgrace auction (R7)."""

from hypothesis import given

from high_society import Bid, Pass, Phase, Reveal
from property_tests.strategies import Game, games


@given(games())
def test_each_bid_strictly_raises_the_highest_bid_and_a_pass_never_does(game: Game) -> None:
    for before, action, after in game.steps:
        if isinstance(action, Bid):
            assert after.highest_bid > before.highest_bid
            assert after.players[action.seat].bid == after.highest_bid
        elif isinstance(action, Pass) and after.phase is Phase.AUCTION:
            assert after.highest_bid == before.highest_bid


@given(games())
def test_a_player_who_passed_a_normal_auction_does_not_act_again_that_round(game: Game) -> None:
    passed: set[int] = set()
    for before, action in zip(game.states, game.actions, strict=False):
        if isinstance(action, Reveal):
            passed = set()
            continue
        assert action.seat not in passed
        if isinstance(action, Pass) and before.auction and not before.auction.is_disgrace:
            passed.add(action.seat)


@given(games())
def test_the_first_pass_ends_a_disgrace_auction(game: Game) -> None:
    for before, action, after in game.steps:
        if before.auction is not None and before.auction.is_disgrace:
            assert not any(p.passed for p in before.players)
            if isinstance(action, Pass):
                assert after.phase in (Phase.REVEAL, Phase.DISCARD)
                assert after.turn == action.seat
                gained = list(after.players[action.seat].status_cards)
                for card in before.players[action.seat].status_cards:
                    gained.remove(card)
                assert gained == [before.auction]


@given(games())
def test_a_normal_auction_ends_when_one_player_is_left(game: Game) -> None:
    for before, action, after in game.steps:
        if before.auction is not None and not before.auction.is_disgrace:
            in_after = [p for p in after.players if not p.passed]
            if after.phase is Phase.AUCTION:
                assert len(in_after) >= 2
            else:
                assert isinstance(action, Pass)
                assert sum(not p.passed for p in before.players) == 2

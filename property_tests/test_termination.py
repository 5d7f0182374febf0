"""Every game ends: at most 15 auctions (16 cards, the last dark-green one is not auctioned),
and at most ``action_bound`` actions.

The bound: a game has at most ``len(deck) - 1`` auctions (R9: the deck cannot run out
before the last dark-green card). In one auction each player's bids add at least one card
of their hand each, and no card comes back to the hand until the player passes and is out
(R5, R6), so a player bids at most ``len(money)`` times; at most ``players - 1`` seats pass
in a normal auction, one in a disgrace auction. Each auction has its reveal, the game at
most one Faux Pas discard and the final reveal:
``(len(deck) - 1) * (1 + players * len(money) + players - 1) + 2``; 902 for five players
of the standard game. The exhaustive exploration finds the true longest games of its
reduced games well below this bound.
"""

from hypothesis import given

from high_society import Reveal
from property_tests.strategies import Game, games


def action_bound(deck: int, money: int, players: int) -> int:
    return (deck - 1) * (1 + players * money + players - 1) + 2


def test_the_bound_of_the_standard_game() -> None:
    assert action_bound(16, 11, 5) == 902


@given(games())
def test_every_game_ends_within_the_bounds(game: Game) -> None:
    final = game.final
    config = final.config
    auctions = sum(isinstance(a, Reveal) for a in game.actions) - 1
    assert final.is_over
    assert auctions == final.auctions_started <= len(config.deck) - 1 <= 15
    assert len(game.actions) <= action_bound(
        len(config.deck), len(config.money), len(final.players)
    )


@given(games())
def test_each_auction_is_within_its_own_bound(game: Game) -> None:
    start = 0
    reveals = [i for i, a in enumerate(game.actions) if isinstance(a, Reveal)]
    for start, end in zip(reveals, [*reveals[1:], len(game.actions)], strict=True):
        round_start = game.states[start + 1]
        hands = sum(len(p.hand) for p in round_start.players)
        # bids, passes (or one pass and a Faux Pas discard)
        assert end - start - 1 <= hands + round_start.num_players - 1

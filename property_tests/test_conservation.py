"""Conservation: every money card of every player is in exactly one place (hand, face up,
spent), and every status card in exactly one place (deck, up for auction, owned, out of the
game, the ending card), in every state of every game."""

from collections import Counter

from hypothesis import given

from high_society import GameState
from property_tests.strategies import Game, games


def money_places(state: GameState) -> list[Counter[int]]:
    return [Counter([*p.hand, *p.table, *p.spent]) for p in state.players]


def status_places(state: GameState) -> Counter[object]:
    places: Counter[object] = Counter(state.deck)
    places.update(state.removed)
    for p in state.players:
        places.update(p.status_cards)
    places.update(c for c in (state.auction, state.ending_card) if c is not None)
    return places


@given(games())
def test_every_money_card_is_in_exactly_one_place(game: Game) -> None:
    for state in game.states:
        every_card_once = Counter(state.config.money)
        assert money_places(state) == [every_card_once] * state.num_players


@given(games())
def test_every_status_card_is_in_exactly_one_place(game: Game) -> None:
    for state in game.states:
        assert status_places(state) == Counter(state.config.deck)


@given(games())
def test_money_is_only_ever_spent_never_returned_once_spent(game: Game) -> None:
    for before, after in zip(game.states, game.states[1:], strict=False):
        for p, q in zip(before.players, after.players, strict=True):
            assert p.spent <= q.spent

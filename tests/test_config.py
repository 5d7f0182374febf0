"""Game parameters: the standard game by default; reduced games validated when built."""

import pydoc

import pytest

from high_society import (
    STANDARD,
    STANDARD_DECK,
    GameConfig,
    HighSocietyError,
    InvalidConfigError,
    Pass,
    Reveal,
    StatusCard,
    apply,
    new_game,
    result,
    sort_cards,
)
from high_society.bots import RandomBot
from high_society.host import play_game
from tests.builders import FAUX_PAS, PASSE, PRESTIGE, SCANDALE, L

SMALL_DECK = sort_cards([L(2), L(5), PRESTIGE, FAUX_PAS, PASSE, SCANDALE])


def test_the_default_is_the_standard_game() -> None:
    assert GameConfig() == STANDARD
    assert STANDARD.deck == STANDARD_DECK
    assert hash(GameConfig()) == hash(STANDARD)


@pytest.mark.parametrize(
    ("money", "match"),
    [
        ((), "non-empty"),
        ([1, 2, 3], "non-empty tuple"),
        ((1, 2, 2), "distinct"),
        ((2, 1), "ascending"),
        ((0, 1), "int from 1 to 1000"),
        ((-1, 1), "int from 1 to 1000"),
        ((True, 2), "int from 1 to 1000"),
        ((1.0, 2), "int from 1 to 1000"),
        (("1", 2), "int from 1 to 1000"),
    ],
)
def test_bad_money_is_refused(money: object, match: str) -> None:
    with pytest.raises(InvalidConfigError, match=match):
        GameConfig(money=money)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("deck", "match"),
    [
        ((L(1),), "dark-green"),
        ((), "dark-green"),
        ((PRESTIGE, L(1)), "canonical"),
        ((L(1), L(1), PRESTIGE), "only prestige"),
        ((PRESTIGE, SCANDALE, SCANDALE), "only prestige"),
        (("prestige",), "tuple of StatusCard"),
        ([PRESTIGE], "tuple of StatusCard"),
    ],
)
def test_bad_decks_are_refused(deck: object, match: str) -> None:
    with pytest.raises(InvalidConfigError, match=match):
        GameConfig(deck=deck)  # type: ignore[arg-type]


def test_config_errors_are_library_errors_and_value_errors() -> None:
    with pytest.raises(HighSocietyError):
        GameConfig(money=(3, 3))
    with pytest.raises(ValueError, match="distinct"):
        GameConfig(money=(3, 3))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_reduced_game_plays_to_the_end(players: int) -> None:
    config = GameConfig(money=(1, 2, 4), deck=SMALL_DECK)
    for seed in range(20):
        bots = [RandomBot(seed * 10 + i) for i in range(players)]
        final, _actions = play_game(bots, seed=seed, config=config)
        assert final.is_over
        assert final.ending_card in (PRESTIGE, SCANDALE)
        assert all(p.money <= 7 for p in final.players)
        assert len(result(final).scores) == players


def test_the_game_ends_on_the_last_dark_green_card_of_the_deck() -> None:
    config = GameConfig(money=(1, 2), deck=sort_cards([L(1), PRESTIGE, PRESTIGE]))
    state = new_game(3, config)
    state = apply(state, Reveal(PRESTIGE))
    assert not state.is_over  # the first of two dark-green cards is auctioned
    state = apply(apply(apply(state, Pass(0)), Pass(1)), Reveal(PRESTIGE))
    assert state.is_over
    assert state.deck == (StatusCard.LUXURY_1,)


@pytest.mark.parametrize(
    ("money", "deck", "message"),
    [
        ((), (StatusCard.PRESTIGE,), "money must be a non-empty tuple of card values"),
        ((1,), [StatusCard.PRESTIGE], "deck must be a tuple of StatusCard"),
        ((1,), (StatusCard.SCANDALE, StatusCard.PRESTIGE), "deck must be in canonical order"),
        (
            (1,),
            (StatusCard.LUXURY_1,),
            "the deck needs a dark-green card, or the game could not end",
        ),
    ],
)
def test_invalid_configs_say_what_is_wrong(money: object, deck: object, message: str) -> None:
    with pytest.raises(InvalidConfigError, match=f"^{message}"):
        GameConfig(money=money, deck=deck)  # type: ignore[arg-type]


def test_a_config_shows_only_what_differs_from_the_standard_game() -> None:
    assert repr(STANDARD) == "GameConfig()"
    small = GameConfig(money=(1, 2, 4))
    assert repr(small) == "GameConfig(money=(1, 2, 4))"
    assert eval(repr(small), {"GameConfig": GameConfig}) == small
    tiny = GameConfig(money=(1,), deck=(StatusCard.LUXURY_1, StatusCard.SCANDALE))
    assert repr(tiny) == (
        "GameConfig(money=(1,), deck=(<StatusCard.LUXURY_1: 'luxury-1'>,"
        " <StatusCard.SCANDALE: 'scandale'>))"
    )
    # help(new_game) shows the default config in a few characters, not the whole deck.
    assert "config: high_society.cards.GameConfig = GameConfig()" in pydoc.render_doc(new_game)


def test_each_card_knows_its_luxury_value_from_its_name() -> None:
    # The value is kept on the member (set once, read by scoring for every card): it must
    # be the number in the card's name, and 0 for the other cards.
    for card in StatusCard:
        number = card.value.removeprefix("luxury-")
        assert card.luxury_value == (int(number) if number != card.value else 0)
        assert card.is_luxury == (card.value.startswith("luxury-"))
    assert [StatusCard.luxury(v).luxury_value for v in range(1, 11)] == list(range(1, 11))

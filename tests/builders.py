"""Short ways to write game situations in tests: every state comes from real actions."""

from collections.abc import Iterable

import attrs

from high_society import (
    STANDARD,
    Action,
    Bid,
    GameConfig,
    GameState,
    Pass,
    Phase,
    Reveal,
    StatusCard,
    apply,
    new_game,
    sort_cards,
)

L = StatusCard.luxury
PRESTIGE = StatusCard.PRESTIGE
FAUX_PAS = StatusCard.FAUX_PAS
PASSE = StatusCard.PASSE
SCANDALE = StatusCard.SCANDALE
#: A small game: three money cards and four status cards, every kind but Faux Pas.
FOUR_CARD_GAME = GameConfig(money=(1, 2, 4), deck=sort_cards([L(3), PRESTIGE, PASSE, SCANDALE]))


def bid(seat: int, *cards: int) -> Bid:
    """``Bid(seat, frozenset(cards))``."""
    return Bid(seat, frozenset(cards))


def play_actions(*actions: Action, players: int = 3, config: GameConfig = STANDARD) -> GameState:
    """The state after ``actions`` from a new game."""
    return then(new_game(players, config), *actions)


def then(state: GameState, *actions: Action) -> GameState:
    """The state after ``actions`` from ``state``."""
    for action in actions:
        state = apply(state, action)
    return state


def auction() -> GameState:
    """A new 3-player game with Luxury 5 up; seat 0 must act."""
    return play_actions(Reveal(L(5)))


def discard_due() -> GameState:
    """Seat 0 owns Luxury 3 and Luxury 8 and has just taken Faux Pas: it must discard."""
    return play_actions(*won(L(3), 0, 1), *won(L(8), 0, 2), Reveal(FAUX_PAS), Pass(0))


def won(card: StatusCard, seat: int, *price: int, players: int = 3) -> list[Action]:
    """A normal auction that ``seat`` starts and wins: reveal ``card``, ``seat`` bids
    ``price``, everyone else passes in turn. ``seat`` must be the round's starter."""
    others = [Pass((seat + k) % players) for k in range(1, players)]
    return [Reveal(card), bid(seat, *price), *others]


def finished(
    owned: Iterable[Iterable[StatusCard]],
    money: Iterable[Iterable[int]],
    config: GameConfig = STANDARD,
) -> GameState:
    """A hand-built finished game in which seat i owns ``owned[i]`` and holds ``money[i]``.

    For scoring tests only: the rest of the state is filled in plausibly, not reached by play.
    """
    owned_t = [sort_cards(cards) for cards in owned]
    hands = [frozenset(m) for m in money]
    start = new_game(len(owned_t), config)
    players = tuple(
        attrs.evolve(p, hand=h, spent=frozenset(config.money) - h, status_cards=c)
        for p, h, c in zip(start.players, hands, owned_t, strict=True)
    )
    return attrs.evolve(start, players=players, phase=Phase.OVER, ending_card=SCANDALE)

"""ObservationWriter (high_society.observation): the observation tensor as bytes, remade
only where a state's parts were replaced, always equal to observation_tensor."""

import random

import pytest

from high_society import GameConfig, GameState, Phase, StatusCard, apply, legal_actions, new_game
from high_society.errors import EncodingError, InvalidConfigError, InvalidSeatError
from high_society.host import Dealer
from high_society.observation import ObservationWriter, observation_tensor


def _game(players: int, seed: int, config: GameConfig | None = None) -> list[GameState]:
    """Every state of one uniformly random game."""
    rng, dealer = random.Random(seed), Dealer(seed)
    state = new_game(players) if config is None else new_game(players, config)
    states = [state]
    while not state.is_over:
        if state.phase is Phase.REVEAL:
            state = apply(state, dealer.draw(state))
        else:
            legal = legal_actions(state)
            state = apply(state, legal[rng.randrange(len(legal))])
        states.append(state)
    return states


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_writer_agrees_with_observation_tensor_at_every_state_and_seat(players: int) -> None:
    writer = ObservationWriter()
    for seed in range(3):
        for state in _game(players, seed):
            for seat in range(players):
                assert list(writer.values(state, seat)) == observation_tensor(state, seat)


def test_the_writer_agrees_whatever_order_the_states_come_in() -> None:
    # One writer over states of several games, shuffled, and 3- and 5-seat games mixed:
    # every part whose object changed is remade, whatever came before.
    states = _game(3, 7) + _game(5, 8) + _game(3, 9)
    random.Random(1).shuffle(states)
    writer = ObservationWriter()
    for state in states:
        seat = len(state.players) - 1
        assert list(writer.values(state, seat)) == observation_tensor(state, seat)


def test_the_writer_takes_reduced_configs_whose_values_fit_a_byte() -> None:
    tiny = GameConfig(
        money=(1, 2, 4),
        deck=(StatusCard.LUXURY_3, StatusCard.PRESTIGE, StatusCard.PASSE, StatusCard.SCANDALE),
    )
    writer = ObservationWriter(tiny)
    for state in _game(3, 2, tiny):
        assert list(writer.values(state, 1)) == observation_tensor(state, 1)
    with pytest.raises(EncodingError, match="another game config"):
        writer.values(new_game(3), 0)


def test_the_writer_refuses_configs_with_more_money_than_a_byte_holds() -> None:
    rich = GameConfig(money=(100, 200), deck=(StatusCard.PRESTIGE, StatusCard.SCANDALE))
    with pytest.raises(InvalidConfigError, match="300 in money"):
        ObservationWriter(rich)


@pytest.mark.parametrize("seat", [-1, 3, True, 1.0])
def test_the_writer_refuses_a_seat_that_is_not_one(seat: object) -> None:
    with pytest.raises(InvalidSeatError):
        ObservationWriter().values(new_game(3), seat)  # type: ignore[arg-type]

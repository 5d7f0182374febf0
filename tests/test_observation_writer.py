"""ObservationWriter (high_society.observation): the observation tensor as bytes, remade
only where a state's parts were replaced, always equal to observation_tensor."""

import random
from array import array

import attrs
import pytest

from high_society import GameConfig, GameState, Phase, StatusCard, apply, legal_actions, new_game
from high_society.errors import EncodingError, InvalidConfigError, InvalidSeatError
from high_society.host import Dealer
from high_society.observation import ObservationWriter, observation_size, observation_tensor


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


def _read(values: bytes, item_format: str) -> list[float]:
    """The values a writer gave, as numbers."""
    numbers = array(item_format)
    numbers.frombytes(values)
    return list(map(float, numbers))


FORMATS = pytest.mark.parametrize("item_format", ["B", "f"])


@FORMATS
@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_writer_agrees_with_observation_tensor_at_every_state_and_seat(
    players: int, item_format: str
) -> None:
    writer = ObservationWriter(item_format=item_format)
    assert writer.item_format == item_format
    for seed in range(3):
        for state in _game(players, seed):
            for seat in range(players):
                values = writer.values(state, seat)
                assert len(values) == array(item_format).itemsize * observation_size(players)
                assert _read(values, item_format) == observation_tensor(state, seat)


@FORMATS
def test_the_writer_agrees_whatever_order_the_states_come_in(item_format: str) -> None:
    # One writer over states of several games, shuffled, and 3- and 5-seat games mixed:
    # every part whose object changed is remade, whatever came before.
    states = _game(3, 7) + _game(5, 8) + _game(3, 9)
    random.Random(1).shuffle(states)
    writer = ObservationWriter(item_format=item_format)
    for state in states:
        seat = len(state.players) - 1
        assert _read(writer.values(state, seat), item_format) == observation_tensor(state, seat)


@FORMATS
def test_the_writer_takes_reduced_configs_whose_values_fit_a_byte(item_format: str) -> None:
    tiny = GameConfig(
        money=(1, 2, 4),
        deck=(StatusCard.LUXURY_3, StatusCard.PRESTIGE, StatusCard.PASSE, StatusCard.SCANDALE),
    )
    writer = ObservationWriter(tiny, item_format)
    for state in _game(3, 2, tiny):
        assert _read(writer.values(state, 1), item_format) == observation_tensor(state, 1)
    with pytest.raises(EncodingError, match="another game config"):
        writer.values(new_game(3), 0)


@pytest.mark.parametrize("turn", [3, 7, -1])
def test_a_turn_that_names_no_seat_flags_no_block(turn: int) -> None:
    # Not a state the rules reach: the writer still agrees with observation_tensor.
    state = attrs.evolve(_game(3, 4)[5], turn=turn)
    for item_format in ("B", "f"):
        writer = ObservationWriter(item_format=item_format)
        assert _read(writer.values(state, 0), item_format) == observation_tensor(state, 0)


@pytest.mark.parametrize("item_format", ["b", "d", "F", "", None, b"f"])
def test_the_writer_refuses_an_item_format_it_does_not_write(item_format: object) -> None:
    with pytest.raises(InvalidConfigError, match="item_format"):
        ObservationWriter(item_format=item_format)  # type: ignore[arg-type]


def test_the_writer_refuses_configs_with_more_money_than_a_byte_holds() -> None:
    rich = GameConfig(money=(100, 200), deck=(StatusCard.PRESTIGE, StatusCard.SCANDALE))
    with pytest.raises(InvalidConfigError, match="300 in money"):
        ObservationWriter(rich)


@pytest.mark.parametrize("seat", [-1, 3, True, 1.0])
def test_the_writer_refuses_a_seat_that_is_not_one(seat: object) -> None:
    with pytest.raises(InvalidSeatError):
        ObservationWriter().values(new_game(3), seat)  # type: ignore[arg-type]

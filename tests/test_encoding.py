"""The integer encoding (high_society.encoding): the fixed ids, decoding for the seat to act,
legal-id lists in ascending order, masks written into callers' buffers, chance outcome ids,
and the errors for what cannot be encoded."""

import struct
from array import array
from fractions import Fraction

import pytest

from high_society import (
    STANDARD,
    Bid,
    Discard,
    GameConfig,
    GameState,
    Pass,
    Reveal,
    StatusCard,
    chance_outcomes,
    legal_actions,
    new_game,
)
from high_society import encoding as enc
from high_society.encoding import (
    EncodingError,
    action_feature_names,
    action_features,
    action_from_id,
    action_id,
    legal_action_ids,
    legal_action_mask,
    num_actions,
    player_action,
)
from high_society.errors import HighSocietyError
from tests.builders import (
    FAUX_PAS,
    FOUR_CARD_GAME,
    PRESTIGE,
    SCANDALE,
    L,
    bid,
    play_actions,
    then,
    won,
)

#: 2**9 - 1 distinct totals: more than a byte ranks, so the slow path serves.
POWERS = GameConfig(money=(1, 2, 4, 8, 16, 32, 64, 128, 256))


def ids_of_legal_actions(state: GameState) -> list[int]:
    return sorted(action_id(a, state.config) for a in legal_actions(state))


# --- The fixed ids --------------------------------------------------------------------------


def test_the_standard_game_has_2058_action_ids() -> None:
    assert num_actions() == num_actions(STANDARD) == 1 + 2047 + 10
    assert num_actions(FOUR_CARD_GAME) == 1 + 7 + 10
    assert enc.first_discard_id() == 2048
    assert enc.first_discard_id(FOUR_CARD_GAME) == 8


def test_pass_is_id_0_whatever_the_seat() -> None:
    assert enc.PASS_ID == 0
    assert {action_id(Pass(seat)) for seat in range(5)} == {0}


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ({1}, 0b1),
        ({2}, 0b10),
        ({1, 3}, 0b101),
        ({25}, 1 << 10),
        ({4, 25}, (1 << 3) | (1 << 10)),
        ({1, 2, 3, 4, 6, 8, 10, 12, 15, 20, 25}, 2047),
    ],
)
def test_a_bid_id_is_the_bitmask_of_the_positions_of_the_cards_it_adds(
    cards: set[int], expected: int
) -> None:
    assert action_id(Bid(3, frozenset(cards))) == expected


def test_bid_ids_follow_the_config_money() -> None:
    assert action_id(Bid(0, frozenset({4})), FOUR_CARD_GAME) == 0b100
    assert action_id(Bid(0, frozenset({1, 4})), FOUR_CARD_GAME) == 0b101


@pytest.mark.parametrize("value", range(1, 11))
def test_discard_ids_follow_the_bids(value: int) -> None:
    expected = 2048 + value - 1
    assert action_id(Discard(2, L(value))) == expected == enc.discard_id(value)
    assert (
        action_id(Discard(2, L(value)), FOUR_CARD_GAME)
        == 8 + value - 1
        == enc.discard_id(value, FOUR_CARD_GAME)
    )


def test_a_reveal_is_encoded_by_its_chance_id() -> None:
    assert [action_id(Reveal(card)) for card in StatusCard] == list(range(14))
    assert enc.NUM_CHANCE_OUTCOMES == 14
    assert enc.chance_id(PRESTIGE) == 10
    assert enc.card_from_chance_id(11) is FAUX_PAS


# --- Decoding -------------------------------------------------------------------------------


def test_ids_decode_for_the_seat_to_act() -> None:
    state = play_actions(Reveal(L(5)), bid(0, 3))  # seat 1 to act
    assert action_from_id(state, 0) == Pass(1)
    assert action_from_id(state, 0b101) == Bid(1, frozenset({1, 3}))
    assert action_from_id(state, 2047) == Bid(1, frozenset(STANDARD.money))
    assert action_from_id(state, 2057) == Discard(1, L(10))  # decoded, not checked


def test_ids_decode_as_chance_outcomes_when_a_card_must_be_revealed() -> None:
    state = new_game(4)
    assert action_from_id(state, 0) == Reveal(L(1))
    assert action_from_id(state, 13) == Reveal(SCANDALE)


def test_every_legal_action_of_a_discard_comes_back_from_its_id() -> None:
    state = play_actions(
        *won(L(3), 0, 1),
        *won(L(7), 0, 2),
        Reveal(FAUX_PAS),
        Pass(0),
    )
    legal = list(legal_actions(state))
    assert legal == [Discard(0, L(3)), Discard(0, L(7))]
    ids = legal_action_ids(state)
    assert ids == (2050, 2054)
    assert [action_from_id(state, i) for i in ids] == legal


@pytest.mark.parametrize("bad", [-1, 2058, 10**30, True, 1.0, "0", None])
def test_an_id_outside_the_player_space_is_refused(bad: object) -> None:
    state = play_actions(Reveal(L(5)))
    with pytest.raises(EncodingError, match="not an action id"):
        action_from_id(state, bad)  # type: ignore[arg-type]  # deliberately wrong


@pytest.mark.parametrize("bad", [-1, 14, True, 2.0])
def test_an_id_outside_the_chance_space_is_refused(bad: object) -> None:
    with pytest.raises(EncodingError, match="not a chance outcome id"):
        action_from_id(new_game(3), bad)  # type: ignore[arg-type]  # deliberately wrong


def test_no_id_decodes_once_the_game_is_over() -> None:
    over = play_actions(Reveal(PRESTIGE), Pass(0), Pass(1), Reveal(SCANDALE), config=FOUR_CARD_GAME)
    assert over.is_over
    with pytest.raises(EncodingError, match="game is over"):
        action_from_id(over, 0)


# --- What cannot be encoded -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Bid(0, frozenset()), "not a non-empty frozenset"),
        (Bid(0, {1, 2}), "not a non-empty frozenset"),  # type: ignore[arg-type]
        (Bid(0, frozenset({5})), "the money values are"),
        (Bid(0, frozenset({True})), "the money values are"),
        (Bid(0, frozenset({2.0})), "the money values are"),  # type: ignore[arg-type]
        (Discard(0, PRESTIGE), "not luxury"),
        (Discard(0, "luxury-3"), "not luxury"),  # type: ignore[arg-type]
        (Reveal("prestige"), "not a status card"),  # type: ignore[arg-type]
    ],
)
def test_what_cannot_be_encoded_is_refused(action: object, message: str) -> None:
    with pytest.raises(EncodingError, match=message) as caught:
        action_id(action)  # type: ignore[arg-type]  # deliberately wrong
    assert isinstance(caught.value, HighSocietyError)
    assert isinstance(caught.value, ValueError)


def test_a_bid_of_a_card_outside_a_reduced_config_is_refused() -> None:
    with pytest.raises(EncodingError):
        action_id(Bid(0, frozenset({3})), FOUR_CARD_GAME)


@pytest.mark.parametrize("bad", [0, 11, True, "3"])
def test_discard_id_refuses_what_is_not_a_luxury_value(bad: object) -> None:
    with pytest.raises(EncodingError, match="not a luxury value"):
        enc.discard_id(bad)  # type: ignore[arg-type]  # deliberately wrong


@pytest.mark.parametrize("bad", [-1, 14, True, None])
def test_card_from_chance_id_refuses_other_ids(bad: object) -> None:
    with pytest.raises(EncodingError):
        enc.card_from_chance_id(bad)  # type: ignore[arg-type]  # deliberately wrong


def test_chance_id_refuses_what_is_not_a_status_card() -> None:
    with pytest.raises(EncodingError):
        enc.chance_id("prestige")  # type: ignore[arg-type]  # deliberately wrong


# --- Legal ids ------------------------------------------------------------------------------


def test_a_full_hand_first_to_bid_may_play_every_id_up_to_2047() -> None:
    state = play_actions(Reveal(L(5)))
    assert legal_action_ids(state) == tuple(range(2048))


def test_legal_ids_after_a_bid_are_the_ids_of_the_legal_actions_ascending() -> None:
    state = play_actions(Reveal(L(5)), bid(0, 1, 2))  # seat 1 must beat 3
    ids = legal_action_ids(state)
    assert list(ids) == ids_of_legal_actions(state)
    assert list(ids) == sorted(ids)
    assert 0b11 not in ids  # 1 + 2 only equals the bid
    assert 0b100 not in ids  # so does 3
    assert 0b1000 in ids  # 4 beats it
    assert len(ids) == len(legal_actions(state))


def test_legal_ids_of_a_raise_count_only_the_cards_added() -> None:
    # Seat 0 has 3 face up and must beat seat 2's 8: it adds cards worth more than 5.
    state = play_actions(Reveal(L(5)), bid(0, 3), bid(1, 6), bid(2, 8))
    ids = legal_action_ids(state)
    assert list(ids) == ids_of_legal_actions(state)
    assert 0b100 not in ids  # 3 is face up already: not in the hand
    assert action_id(Bid(0, frozenset({4}))) not in ids  # 3 + 4 = 7 does not beat 8
    assert action_id(Bid(0, frozenset({1, 4}))) not in ids  # 3 + 5 = 8 only equals it
    assert action_id(Bid(0, frozenset({6}))) in ids  # 3 + 6 = 9 beats it


@pytest.mark.parametrize(
    "bid_cards",
    [(1,), (10,), (25, 4), (25, 20, 15), (25, 20, 15, 12, 10, 8), (25, 20, 15, 12, 10, 8, 6, 4, 3)],
)
def test_legal_ids_facing_any_bid_are_the_ids_of_the_legal_actions(
    bid_cards: tuple[int, ...],
) -> None:
    # Seat 1's full hand against bids from 1 to 103: runs of ids wholly legal, wholly
    # illegal and mixed all occur.
    state = play_actions(Reveal(L(5)), bid(0, *bid_cards))
    ids = legal_action_ids(state)
    assert list(ids) == ids_of_legal_actions(state)
    assert len(ids) == len(legal_actions(state))


def test_legal_ids_are_the_same_when_asked_again() -> None:
    # The second answer comes from the cache.
    state = play_actions(Reveal(L(5)), bid(0, 1, 2))
    first = legal_action_ids(state)
    assert legal_action_ids(state) == first
    again = then(new_game(3), Reveal(L(9)), bid(0, 1, 2))
    assert legal_action_ids(again) == first


def test_the_cache_of_legal_ids_is_emptied_when_full_and_answers_stay_right(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(enc, "_CACHE_LIMIT", 3000)
    first = play_actions(Reveal(L(5)), bid(0, 1, 2))
    second = play_actions(Reveal(L(5)), bid(0, 1, 2, 3))
    for state in (first, second, first, second):
        assert list(legal_action_ids(state)) == ids_of_legal_actions(state)


def test_a_seat_that_cannot_beat_the_bid_may_only_pass() -> None:
    # Seat 1 spent 25, 20 and 15 on three luxury cards; seat 0 bids everything it has.
    state = play_actions(
        Reveal(L(1)),
        Pass(0),
        bid(1, 25, 20, 15),
        Pass(2),
        Reveal(L(2)),
        bid(1, 12),
        Pass(2),
        Pass(0),
        Reveal(L(3)),
        Pass(1),
        bid(2, 1),
        Pass(0),
        Reveal(L(4)),
        bid(2, 25, 20, 15, 12, 10, 8),
        Pass(0),
    )
    assert state.turn == 1
    assert legal_action_ids(state) == (0,)


def test_legal_ids_at_a_reveal_are_the_chance_ids_of_the_cards_left() -> None:
    state = play_actions(*won(L(5), 0, 1))
    expected = tuple(i for i in range(14) if i != 4)
    assert legal_action_ids(state) == expected


def test_there_are_no_legal_ids_once_the_game_is_over() -> None:
    over = play_actions(Reveal(PRESTIGE), Pass(0), Pass(1), Reveal(SCANDALE), config=FOUR_CARD_GAME)
    assert legal_action_ids(over) == ()


def test_legal_ids_take_the_slow_path_when_a_hand_has_over_254_distinct_totals() -> None:
    state = play_actions(Reveal(L(5)), bid(0, 1, 2, 4), config=POWERS)  # seat 1 must beat 7
    ids = legal_action_ids(state)
    assert num_actions(POWERS) == 512 + 10
    assert list(ids) == ids_of_legal_actions(state)
    assert len(ids) == 1 + 511 - 7
    mask = bytearray(num_actions(POWERS))
    legal_action_mask(state, mask)
    assert [i for i, b in enumerate(mask) if b] == list(ids)


def test_chance_outcome_ids_carry_float_probabilities() -> None:
    state = new_game(3)
    outcomes = enc.chance_outcome_ids(state)
    assert [i for i, _ in outcomes] == list(range(14))
    assert dict(outcomes)[10] == 3 / 16
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    exact = {action_id(r): p for r, p in chance_outcomes(state)}
    assert {i: Fraction(p) for i, p in outcomes} == exact
    assert enc.chance_outcome_ids(play_actions(Reveal(L(5)))) == ()


# --- Masks ----------------------------------------------------------------------------------


def _ones(mask: object) -> list[int]:
    return [i for i, v in enumerate(memoryview(mask).tolist()) if v]  # type: ignore[arg-type]


AUCTION = play_actions(Reveal(L(5)), bid(0, 1, 2))


@pytest.mark.parametrize("code", ["B", "b", "h", "H", "i", "I", "l", "L", "q", "Q", "f", "d"])
def test_a_mask_is_written_into_an_array_of_any_numeric_type(code: str) -> None:
    mask = array(code, [7] * num_actions())
    legal_action_mask(AUCTION, mask)
    assert _ones(mask) == list(legal_action_ids(AUCTION))
    assert set(mask) == {0, 1}


def test_a_mask_is_written_into_a_bytearray_and_a_memoryview() -> None:
    mask = bytearray(b"\x07" * num_actions())
    legal_action_mask(AUCTION, mask)
    assert _ones(mask) == list(legal_action_ids(AUCTION))
    assert set(mask) == {0, 1}
    again = bytearray(num_actions())
    legal_action_mask(AUCTION, memoryview(again))
    assert again == mask


def test_a_mask_of_booleans() -> None:
    booleans = memoryview(bytearray(num_actions())).cast("?")
    legal_action_mask(AUCTION, booleans)
    assert _ones(booleans) == list(legal_action_ids(AUCTION))


def test_a_discard_mask_marks_the_discard_ids() -> None:
    state = play_actions(*won(L(3), 0, 1), *won(L(7), 0, 2), Reveal(FAUX_PAS), Pass(0))
    mask = bytearray(num_actions())
    legal_action_mask(state, mask)
    assert _ones(mask) == [2050, 2054]


def test_a_mask_is_all_zero_when_no_seat_acts() -> None:
    mask = bytearray(b"\x01" * num_actions())
    legal_action_mask(new_game(3), mask)
    assert not any(mask)
    over = play_actions(Reveal(PRESTIGE), Pass(0), Pass(1), Reveal(SCANDALE), config=FOUR_CARD_GAME)
    mask = bytearray(b"\x01" * num_actions(FOUR_CARD_GAME))
    legal_action_mask(over, mask)
    assert not any(mask)


@pytest.mark.parametrize(
    ("state", "config"),
    [
        (AUCTION, STANDARD),
        (play_actions(*won(L(3), 0, 1), *won(L(7), 0, 2), Reveal(FAUX_PAS), Pass(0)), STANDARD),
        (new_game(3), STANDARD),
        (
            play_actions(
                Reveal(PRESTIGE), Pass(0), Pass(1), Reveal(SCANDALE), config=FOUR_CARD_GAME
            ),
            FOUR_CARD_GAME,
        ),
        (play_actions(Reveal(L(5)), bid(0, 1, 2, 4), config=POWERS), POWERS),
    ],
    ids=["auction", "discard", "reveal", "over", "many totals"],
)
def test_mask_bytes_are_the_mask_legal_action_mask_writes(
    state: GameState, config: GameConfig
) -> None:
    written = bytearray(b"\x07" * num_actions(config))
    legal_action_mask(state, written)
    mask = enc.legal_action_bytes(state)
    assert type(mask) is bytes
    assert mask == written


@pytest.mark.parametrize(
    ("out", "message"),
    [
        (bytes(2058), "writable"),
        (bytearray(2057), "holds 2057 items, not 2058"),
        (bytearray(2059), "holds 2059 items, not 2058"),
        (memoryview(bytearray(2 * 2058)).cast("B", (2, 2058)), "one-dimensional"),
        (memoryview(bytearray(2 * 2058))[::2], "contiguous"),
        # Pointers: a format the mask has no meaning in (array's "u" is deprecated in 3.13).
        (memoryview(bytearray(2058 * struct.calcsize("P"))).cast("P"), "format"),
        (memoryview(bytearray(2058)).cast("c"), "format"),
        ([0] * 2058, "cannot write a mask into a list"),
        (None, "cannot write a mask into a NoneType"),
    ],
)
def test_a_buffer_that_cannot_take_the_mask_is_refused(out: object, message: str) -> None:
    with pytest.raises(EncodingError, match=message):
        legal_action_mask(AUCTION, out)


def test_nothing_is_written_into_a_refused_buffer() -> None:
    short = bytearray(b"\x07" * 100)
    with pytest.raises(EncodingError):
        legal_action_mask(AUCTION, short)
    assert short == bytearray(b"\x07" * 100)


def test_the_action_feature_table_describes_every_id_as_its_action() -> None:
    for config in (STANDARD, GameConfig(money=(1, 2, 4, 8, 16), deck=STANDARD.deck)):
        names = action_feature_names(config)
        rows = action_features(config)
        assert len(rows) == num_actions(config)
        for action, row in enumerate(rows):
            features = dict(zip(names, row, strict=True))
            decoded = player_action(action, 0, config)
            assert features["pass"] == isinstance(decoded, Pass)
            assert features["bid"] == isinstance(decoded, Bid)
            assert features["discard"] == isinstance(decoded, Discard)
            if isinstance(decoded, Bid):
                assert features["total"] == decoded.total
                assert features["cards"] == len(decoded.cards)
                assert {v for v in config.money if features[f"money_{v}"]} == decoded.cards
            elif isinstance(decoded, Discard):
                assert features["luxury"] == decoded.card.luxury_value

"""What a seat sees and gets (high_society.observation): the R13 view and its JSON, the R14
observation tensor and string in their documented layout, returns, the published bounds,
cheap copies of immutable values and the short str of a state."""

import copy
import json
from array import array
from fractions import Fraction

import attrs
import pytest

from high_society import (
    STANDARD,
    Bid,
    Discard,
    GameConfig,
    Pass,
    Phase,
    PlayerState,
    Reveal,
    apply,
    new_game,
)
from high_society.errors import EncodingError, InvalidConfigError, InvalidSeatError
from high_society.observation import (
    GLOBAL_SIZE,
    PublicPlayer,
    SeatView,
    max_chance_nodes,
    max_game_length,
    observation_size,
    observation_string,
    observation_tensor,
    returns,
    returns_exact,
    seat_size,
    view,
    view_to_json,
    write_observation,
)
from tests.builders import (
    FAUX_PAS,
    FOUR_CARD_GAME,
    PRESTIGE,
    SCANDALE,
    L,
    bid,
    finished,
    play_actions,
    won,
)

#: Seat 0 won luxury 5 paying 1 + 2; seat 1 bid 6 on Prestige and seat 2 bid 8; seat 0 acts.
MIDGAME = play_actions(*won(L(5), 0, 1, 2), Reveal(PRESTIGE), bid(0, 3), bid(1, 6), bid(2, 8))


# --- R13: the view --------------------------------------------------------------------------


def test_R13_a_seat_sees_its_own_hand_and_no_other() -> None:
    seen = view(MIDGAME, 1)
    assert seen.hand == MIDGAME.players[1].hand
    assert seen.seat == 1
    names = {f.name for f in attrs.fields(SeatView)}
    assert names == {
        "seat",
        "config",
        "hand",
        "players",
        "phase",
        "turn",
        "auction",
        "deck",
        "removed",
        "ending_card",
    }
    assert {f.name for f in attrs.fields(PublicPlayer)} == {
        "table",
        "passed",
        "hand_size",
        "status_cards",
    }


def test_R13_every_seat_sees_the_table_the_counts_and_the_status_cards() -> None:
    seen = view(MIDGAME, 2)
    assert [p.table for p in seen.players] == [frozenset({3}), frozenset({6}), frozenset({8})]
    assert [p.hand_size for p in seen.players] == [8, 10, 10]  # seat 0 spent 1 and 2
    assert seen.players[0].status_cards == (L(5),)
    assert seen.auction is PRESTIGE
    assert seen.turn == 0
    assert seen.highest_bid == 8
    assert seen.players[2].bid == 8
    assert len(seen.deck) == 14
    assert seen.deck.count(PRESTIGE) == 2


def test_R13_a_view_does_not_tell_another_hand_or_spent_cards() -> None:
    # Seat 0 paid 1 + 2 for luxury 5; a state where it paid 3 instead (same counts) looks
    # the same to seat 1, though seat 0's hand differs.
    paid_1_2 = play_actions(*won(L(5), 0, 1, 2))
    paid_3 = play_actions(*won(L(5), 0, 3))
    assert paid_1_2.players[0].hand != paid_3.players[0].hand
    assert len(paid_1_2.players[0].hand) != len(paid_3.players[0].hand)
    swapped = play_actions(*won(L(5), 0, 1, 3))
    other = play_actions(*won(L(5), 0, 2, 4))
    assert swapped.players[0].hand != other.players[0].hand
    assert view(swapped, 1) == view(other, 1)
    assert view(swapped, 0) != view(other, 0)


def test_R13_the_view_json_is_plain_json_with_card_names() -> None:
    data = view_to_json(view(MIDGAME, 1))
    assert json.loads(json.dumps(data)) == data
    assert data["hand"] == sorted(MIDGAME.players[1].hand)
    assert data["auction"] == "prestige"
    assert data["highest_bid"] == 8
    assert data["players"] == [
        {"table": [3], "passed": False, "hand_size": 8, "status_cards": ["luxury-5"]},
        {"table": [6], "passed": False, "hand_size": 10, "status_cards": []},
        {"table": [8], "passed": False, "hand_size": 10, "status_cards": []},
    ]
    assert data["ending_card"] is None
    assert data["removed"] == []
    assert data["config"] == {
        "money": list(STANDARD.money),
        "deck": [c.value for c in STANDARD.deck],
    }
    assert "spent" not in json.dumps(data)


def test_the_view_str_is_one_line() -> None:
    text = str(view(MIDGAME, 1))
    assert text.startswith("Seat 1 sees: hand 1 2 3 4 8 10 12 15 20 25;")
    assert "auction of Prestige, Seat 0 to act, highest 8" in text
    assert "\n" not in text


@pytest.mark.parametrize("bad", [-1, 3, True, "0", None])
def test_a_view_or_observation_of_a_seat_that_does_not_exist_is_refused(bad: object) -> None:
    for ask in (view, observation_tensor, observation_string):
        with pytest.raises(InvalidSeatError, match="not a seat") as caught:
            ask(MIDGAME, bad)  # type: ignore[arg-type]  # deliberately wrong
        assert isinstance(caught.value, IndexError)


# --- R14: the observation tensor ------------------------------------------------------------


def test_observation_sizes_per_player_count() -> None:
    assert GLOBAL_SIZE == 47
    assert seat_size() == 38
    assert [observation_size(n) for n in (3, 4, 5)] == [161, 199, 237]
    assert observation_size(3, FOUR_CARD_GAME) == 47 + 3 * (2 * 3 + 16)
    for n in (3, 4, 5):
        assert len(observation_tensor(new_game(n), 0)) == observation_size(n)


@pytest.mark.parametrize("bad", [2, 6, True, "4"])
def test_observation_size_refuses_other_player_counts(bad: object) -> None:
    with pytest.raises(InvalidConfigError):
        observation_size(bad)  # type: ignore[arg-type]  # deliberately wrong


def _seat_block(tensor: list[float], k: int, m: int = 11) -> list[float]:
    start = GLOBAL_SIZE + k * (2 * m + 16)
    return tensor[start : start + 2 * m + 16]


def _bits(values: set[int], money: tuple[int, ...] = STANDARD.money) -> list[float]:
    return [1.0 if v in values else 0.0 for v in money]


def test_R14_the_tensor_layout_in_an_auction() -> None:
    t = observation_tensor(MIDGAME, 1)
    assert t[0:4] == [0.0, 1.0, 0.0, 0.0]  # auction
    assert t[4:18] == [0.0] * 10 + [1.0, 0.0, 0.0, 0.0]  # prestige up
    deck = [1.0] * 14
    deck[4] = 0.0  # luxury 5 is gone
    deck[10] = 2.0  # two prestige cards left
    assert t[18:32] == deck
    assert t[32:46] == [0.0] * 14  # nothing out of the game
    assert t[46] == 8.0
    me, left, right = (_seat_block(t, k) for k in range(3))  # seats 1, 2, 0
    everything = set(STANDARD.money)
    assert me[0:11] == _bits(everything - {6})
    assert me[11:22] == _bits({6})
    assert me[22:24] == [0.0, 0.0]  # not passed, not to act
    assert left[0:11] == _bits(everything - {8})
    assert right[0:11] == _bits(everything - {1, 2, 3})  # R14: seat 0's hand is known
    assert right[11:22] == _bits({3})
    assert right[23] == 1.0  # seat 0 acts
    assert right[24:38] == [0.0] * 4 + [1.0] + [0.0] * 9  # luxury 5


def test_R14_seats_are_rotated_so_the_observer_comes_first() -> None:
    tensors = [observation_tensor(MIDGAME, seat) for seat in range(3)]
    for seat in range(3):
        for k in range(3):
            assert _seat_block(tensors[seat], k) == _seat_block(tensors[0], (seat + k) % 3)
        assert tensors[seat][:GLOBAL_SIZE] == tensors[0][:GLOBAL_SIZE]


def test_R14_passed_and_removed_cards_and_pending_faux_pas_in_the_tensor() -> None:
    state = play_actions(Reveal(FAUX_PAS), Pass(0), *won(L(2), 0, 1)[:2], Pass(1))
    # Seat 0 took Faux Pas with no luxury card: pending. Luxury 2: seat 0 bid 1, seat 1 passed.
    t = observation_tensor(state, 0)
    me, nxt = _seat_block(t, 0), _seat_block(t, 1)
    assert me[24 + 11] == 1.0  # a Faux Pas in front of seat 0
    assert nxt[22] == 1.0  # seat 1 passed
    finished_faux_pas = play_actions(
        Reveal(FAUX_PAS), Pass(0), Reveal(L(2)), bid(0, 1), Pass(1), Pass(2)
    )
    t = observation_tensor(finished_faux_pas, 0)
    assert t[32 + 1] == 1.0  # luxury 2 is out of the game
    assert t[32 + 11] == 1.0  # and Faux Pas
    assert t[0] == 1.0  # a reveal is due


def test_R14_the_discard_phase_in_the_tensor() -> None:
    state = play_actions(*won(L(3), 0, 1), Reveal(FAUX_PAS), Pass(0))
    t = observation_tensor(state, 2)
    assert t[0:4] == [0.0, 0.0, 1.0, 0.0]
    assert _seat_block(t, 1)[23] == 1.0  # seat 0, block 1 from seat 2, must discard


def test_R14_observation_string() -> None:
    text = observation_string(MIDGAME, 1)
    assert text.split(" | ")[0] == "auction P high=8 turn=+2"
    assert "+0 hand=1,2,3,4,8,10,12,15,20,25 up=6" in text
    assert "+2 hand=4,6,8,10,12,15,20,25 up=3 cards=L5" in text
    assert text.endswith("out=-")
    over = play_actions(Reveal(PRESTIGE), Pass(0), Pass(1), Reveal(SCANDALE), config=FOUR_CARD_GAME)
    assert observation_string(over, 0).startswith("over turn=+2 ended=S |")


def test_R14_states_that_differ_give_different_observations() -> None:
    seen: dict[tuple[float, ...], object] = {}
    state = new_game(3)
    for action in [*won(L(5), 0, 1, 2), Reveal(PRESTIGE), bid(0, 3), bid(1, 6), Pass(2)]:
        state = apply(state, action)
        key = tuple(observation_tensor(state, 0))
        assert key not in seen
        seen[key] = state


# --- Returns --------------------------------------------------------------------------------


def test_returns_are_zero_before_the_end() -> None:
    assert returns(MIDGAME) == (0.0, 0.0, 0.0)


def test_a_single_winner_gets_1() -> None:
    state = finished([[L(5)], [L(3)], []], [[25], [25], [1]])
    assert returns(state) == (1.0, 0.0, 0.0)


def test_tied_winners_share_1() -> None:
    state = finished([[L(5)], [L(5)], [L(9)]], [[25], [25], [1]], config=STANDARD)
    assert returns(state) == (0.5, 0.5, 0.0)
    three = finished([[L(5)]] * 3 + [[]], [[25]] * 3 + [[1]])
    third = Fraction(1, 3)
    assert returns_exact(three) == (third, third, third, Fraction(0))
    assert returns(three) == (1 / 3, 1 / 3, 1 / 3, 0.0)


def test_nobody_wins_when_everyone_is_cast_out() -> None:
    state = finished([[L(5)], [L(3)], []], [[1], [1], [1]])
    assert returns(state) == (0.0, 0.0, 0.0)


# --- Bounds ---------------------------------------------------------------------------------


def test_published_bounds() -> None:
    assert [max_game_length(n) for n in (3, 4, 5)] == [526, 706, 886]
    assert max_game_length(3, FOUR_CARD_GAME) == 3 * (3 * 3 + 2)  # no Faux Pas in FOUR_CARD_GAME
    assert max_chance_nodes() == 16
    assert max_chance_nodes(FOUR_CARD_GAME) == 4


def test_max_game_length_refuses_other_player_counts() -> None:
    with pytest.raises(InvalidConfigError):
        max_game_length(6)


# --- Copies and str -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        MIDGAME,
        MIDGAME.players[0],
        STANDARD,
        Bid(0, frozenset({1})),
        Pass(1),
        Reveal(PRESTIGE),
        Discard(0, L(3)),
        view(MIDGAME, 0),
        view(MIDGAME, 0).players[0],
    ],
    ids=type,
)
def test_copies_of_immutable_values_are_the_values_themselves(value: object) -> None:
    assert copy.copy(value) is value
    assert copy.deepcopy(value) is value
    assert copy.deepcopy([value, value]) == [value, value]


def test_a_copied_state_plays_on_like_the_original() -> None:
    state = copy.deepcopy(MIDGAME)
    assert apply(state, Pass(0)) == apply(MIDGAME, Pass(0))
    assert state.highest_bid == 8
    assert isinstance(copy.copy(PlayerState(frozenset())), PlayerState)


@pytest.mark.parametrize(
    ("state", "expected"),
    [
        (new_game(4), "4 players; reveal due, Seat 0 starts the round; 16 cards in the deck"),
        (
            MIDGAME,
            "3 players; auction of Prestige, Seat 0 to act, highest bid 8; 14 cards in the deck",
        ),
        (
            play_actions(*won(L(3), 0, 1), Reveal(FAUX_PAS), Pass(0)),
            "3 players; Seat 0 must discard a luxury card for Faux Pas; 14 cards in the deck",
        ),
        (
            play_actions(
                Reveal(PRESTIGE), Pass(0), Pass(1), Reveal(SCANDALE), config=FOUR_CARD_GAME
            ),
            "3 players; game over, ended by Scandale; 2 cards in the deck",
        ),
    ],
)
def test_the_str_of_a_state_is_one_short_line(state: object, expected: str) -> None:
    assert str(state) == expected


def test_the_str_of_a_hand_built_state_over_without_an_ending_card_names_none() -> None:
    # No game reaches it (state_problems refuses it), but str() of any state must read well.
    broken = attrs.evolve(new_game(3), phase=Phase.OVER)
    assert str(broken) == "3 players; game over; 16 cards in the deck"


# --- Observations written into buffers ------------------------------------------------------


@pytest.mark.parametrize("code", ["B", "b", "h", "H", "i", "I", "l", "L", "q", "Q", "f", "d"])
def test_write_observation_fills_any_numeric_buffer_with_the_tensor(code: str) -> None:
    out = array(code, [7] * observation_size(3))
    write_observation(MIDGAME, 1, out)
    assert list(map(float, out)) == observation_tensor(MIDGAME, 1)


def test_write_observation_refuses_booleans_and_wrong_sizes_and_writes_nothing() -> None:
    booleans = memoryview(bytearray(observation_size(3))).cast("?")
    with pytest.raises(EncodingError, match="values above 1"):
        write_observation(MIDGAME, 0, booleans)  # the deck counts 2 prestige cards
    assert not any(booleans.tolist())
    short = array("f", [7.0] * 10)
    with pytest.raises(EncodingError, match="holds 10 items, not 161"):
        write_observation(MIDGAME, 0, short)
    assert list(short) == [7.0] * 10
    with pytest.raises(InvalidSeatError):
        write_observation(MIDGAME, 3, array("f", [0.0] * 161))


def test_a_signed_byte_buffer_refuses_a_bid_above_127() -> None:
    big = GameConfig(
        money=(40, 50, 60), deck=FOUR_CARD_GAME.deck
    )  # 150 in all: fits a byte, not "b"
    state = play_actions(Reveal(L(3)), bid(0, 40, 50, 60), config=big)
    out = array("b", [0] * observation_size(3, big))
    with pytest.raises(EncodingError, match="values above 127"):
        write_observation(state, 1, out)
    wide = array("B", [0] * observation_size(3, big))
    write_observation(state, 1, wide)
    assert wide[46] == 150


def test_observations_of_games_with_more_than_255_in_money_need_wide_items() -> None:
    rich = GameConfig(money=(100, 200), deck=FOUR_CARD_GAME.deck)
    state = play_actions(Reveal(L(3)), bid(0, 100, 200), config=rich)
    tensor = observation_tensor(state, 1)
    assert tensor[46] == 300.0
    out = array("d", [0.0] * observation_size(3, rich))
    write_observation(state, 1, out)
    assert list(out) == tensor
    with pytest.raises(EncodingError, match="wider items"):
        write_observation(state, 1, array("B", [0] * observation_size(3, rich)))

"""Actions, states and results as JSON: exact shapes, round trips, strict reading."""

import json
from fractions import Fraction

import pytest

from high_society import (
    Bid,
    Discard,
    GameConfig,
    GameState,
    Pass,
    Phase,
    Reason,
    RecordError,
    Reveal,
    StatusCard,
    new_game,
    result,
    sort_cards,
)
from high_society.bots import HeuristicBot
from high_society.errors import RecordCode
from high_society.host import play
from high_society.serial import (
    JSON,
    action_from_json,
    action_to_json,
    parse_json,
    result_to_json,
    score_to_json,
    state_from_json,
    state_to_json,
)
from tests.builders import FAUX_PAS, PRESTIGE, L, bid, play_actions, won

# --- Actions ---------------------------------------------------------------------------------

ACTIONS: list[tuple[object, JSON]] = [
    (Reveal(StatusCard.LUXURY_7), {"type": "reveal", "card": "luxury-7"}),
    (Reveal(StatusCard.PASSE), {"type": "reveal", "card": "passe"}),
    (Bid(0, frozenset({3, 1})), {"type": "bid", "player": 0, "cards": [1, 3]}),
    (Pass(2), {"type": "pass", "player": 2}),
    (Discard(1, StatusCard.LUXURY_3), {"type": "discard", "player": 1, "card": "luxury-3"}),
]


@pytest.mark.parametrize(("action", "data"), ACTIONS)
def test_action_json_shape_and_round_trip(action: Bid, data: JSON) -> None:
    assert action_to_json(action) == data
    assert action_from_json(data) == action
    assert action_from_json(json.loads(json.dumps(action_to_json(action)))) == action


def test_every_status_card_name_round_trips() -> None:
    for card in StatusCard:
        assert action_from_json({"type": "reveal", "card": card.value}) == Reveal(card)


def test_bid_cards_are_written_in_ascending_order() -> None:
    assert action_to_json(Bid(0, frozenset({25, 1, 8})))["cards"] == [1, 8, 25]


BAD_ACTIONS: list[tuple[object, str, str]] = [
    ([], RecordCode.WRONG_TYPE, "$"),
    ({}, RecordCode.MISSING_KEY, "$.type"),
    ({"type": 3}, RecordCode.WRONG_TYPE, "$.type"),
    ({"type": "shuffle"}, Reason.NOT_AN_ACTION, "$.type"),
    ({"type": "pass"}, RecordCode.MISSING_KEY, "$.player"),
    ({"type": "pass", "player": 0, "seat": 0}, RecordCode.UNKNOWN_KEY, "$.seat"),
    ({"type": "pass", "player": 0, "two words": 0}, RecordCode.UNKNOWN_KEY, '$["two words"]'),
    ({"type": "pass", "player": True}, RecordCode.WRONG_TYPE, "$.player"),
    ({"type": "pass", "player": 0.0}, RecordCode.WRONG_TYPE, "$.player"),
    ({"type": "pass", "player": "0"}, RecordCode.WRONG_TYPE, "$.player"),
    ({"type": "pass", "player": None}, RecordCode.WRONG_TYPE, "$.player"),
    ({"type": "bid", "player": 0, "cards": 3}, RecordCode.WRONG_TYPE, "$.cards"),
    ({"type": "bid", "player": 0, "cards": [1, False]}, RecordCode.WRONG_TYPE, "$.cards[1]"),
    ({"type": "bid", "player": 0, "cards": [3.0]}, RecordCode.WRONG_TYPE, "$.cards[0]"),
    ({"type": "bid", "player": 0, "cards": [1, 3, 1]}, RecordCode.DUPLICATE_CARD, "$.cards[2]"),
    ({"type": "reveal", "card": "luxury-11"}, RecordCode.UNKNOWN_CARD, "$.card"),
    ({"type": "reveal", "card": "Prestige"}, RecordCode.UNKNOWN_CARD, "$.card"),
    ({"type": "reveal", "card": 7}, RecordCode.WRONG_TYPE, "$.card"),
    ({"type": "discard", "player": 0, "card": "joker"}, RecordCode.UNKNOWN_CARD, "$.card"),
]


@pytest.mark.parametrize(("data", "code", "path"), BAD_ACTIONS)
def test_malformed_actions_are_refused_with_code_and_path(
    data: object, code: str, path: str
) -> None:
    with pytest.raises(RecordError) as caught:
        action_from_json(data)
    assert (caught.value.code, caught.value.path, caught.value.index) == (code, path, None)
    assert isinstance(caught.value, ValueError)


def test_action_error_carries_the_given_place() -> None:
    with pytest.raises(RecordError) as caught:
        action_from_json({"type": "pass", "player": True}, path="$.actions[4]", index=4)
    assert (caught.value.path, caught.value.index) == ("$.actions[4].player", 4)


def test_form_is_checked_not_legality() -> None:
    # An empty bid, a seat that no table has and a money value no game has are well formed:
    # the engine judges them when they are applied.
    assert action_from_json({"type": "bid", "player": 9, "cards": []}) == Bid(9, frozenset())
    assert action_from_json({"type": "bid", "player": 0, "cards": [5]}) == bid(0, 5)


# --- States ----------------------------------------------------------------------------------


def _states_of_a_game(players: int, seed: int) -> list[GameState]:
    bots = [HeuristicBot(seed + seat) for seat in range(players)]
    return [new_game(players)] + [step.after for step in play(bots, seed=seed)]


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3)])
def test_every_state_of_a_game_round_trips(players: int, seed: int) -> None:
    states = _states_of_a_game(players, seed)
    phases = set()
    for state in states:
        data = state_to_json(state)
        text = json.dumps(data)
        assert state_from_json(json.loads(text)) == state
        phases.add(data["phase"])
    assert phases >= {"reveal", "auction", "over"}


def test_state_json_shape() -> None:
    state = play_actions(*won(L(4), 0, 3), Reveal(StatusCard.LUXURY_7), bid(0, 1, 2))
    data = state_to_json(state)
    assert data["phase"] == "auction"
    assert data["turn"] == 1
    assert data["auction"] == "luxury-7"
    assert data["ending_card"] is None
    assert data["removed"] == []
    assert data["players"][0] == {  # type: ignore[index]
        "hand": [4, 6, 8, 10, 12, 15, 20, 25],
        "table": [1, 2],
        "spent": [3],
        "passed": False,
        "status_cards": ["luxury-4"],
    }
    assert data["config"] == {
        "money": [1, 2, 3, 4, 6, 8, 10, 12, 15, 20, 25],
        "deck": [c.value for c in state.config.deck],
    }


def test_a_state_with_a_discard_due_and_a_reduced_config_round_trips() -> None:
    config = GameConfig(
        money=(1, 2, 4),
        deck=sort_cards([L(2), L(5), PRESTIGE, FAUX_PAS, StatusCard.PASSE, StatusCard.SCANDALE]),
    )
    state = play_actions(*won(L(2), 0, 1), Reveal(FAUX_PAS), Pass(0), players=3, config=config)
    assert state.phase is Phase.DISCARD
    assert state_from_json(state_to_json(state)) == state


def _state_data() -> dict[str, JSON]:
    return state_to_json(play_actions(*won(L(4), 0, 3)))


def _players(data: dict[str, JSON]) -> list[dict[str, JSON]]:
    players = data["players"]
    assert isinstance(players, list)
    return players  # type: ignore[return-value]


def test_an_inconsistent_state_is_refused_with_the_invariant() -> None:
    data = _state_data()
    _players(data)[1]["hand"] = [1, 2, 3]  # money cards vanished
    with pytest.raises(RecordError) as caught:
        state_from_json(data)
    assert caught.value.code == RecordCode.BAD_STATE
    assert "seat 1: each money card must be in exactly one of hand, table and spent" in str(
        caught.value
    )


def test_a_state_whose_turn_is_no_seat_is_refused() -> None:
    data = _state_data()
    data["turn"] = 7
    with pytest.raises(RecordError, match="turn 7 is not a seat") as caught:
        state_from_json(data)
    assert caught.value.code == RecordCode.BAD_STATE


def test_a_state_that_lost_a_status_card_is_refused() -> None:
    data = _state_data()
    _players(data)[0]["status_cards"] = []
    with pytest.raises(RecordError, match="exactly one place"):
        state_from_json(data)


@pytest.mark.parametrize(
    ("change", "code", "path"),
    [
        (lambda d: d.update(phase="bidding"), RecordCode.BAD_STATE, "$.phase"),
        (lambda d: d.update(phase=1), RecordCode.WRONG_TYPE, "$.phase"),
        (lambda d: d.update(turn=True), RecordCode.WRONG_TYPE, "$.turn"),
        (lambda d: d.update(auction="joker"), RecordCode.UNKNOWN_CARD, "$.auction"),
        (lambda d: d.update(extra=1), RecordCode.UNKNOWN_KEY, "$.extra"),
        (lambda d: d.pop("deck"), RecordCode.MISSING_KEY, "$.deck"),
        (
            lambda d: d.update(config={"money": [2, 1], "deck": ["prestige"]}),
            RecordCode.BAD_STATE,
            "$.config",
        ),
        (lambda d: d.update(config={"money": [1], "deck": []}), RecordCode.BAD_STATE, "$.config"),
        (lambda d: _players(d)[0].update(passed=0), RecordCode.WRONG_TYPE, "$.players[0].passed"),
        (
            lambda d: _players(d)[2].update(hand=[1, 1]),
            RecordCode.DUPLICATE_CARD,
            "$.players[2].hand[1]",
        ),
        (lambda d: _players(d)[2].pop("spent"), RecordCode.MISSING_KEY, "$.players[2].spent"),
        (lambda d: d.update(players={}), RecordCode.WRONG_TYPE, "$.players"),
    ],
)
def test_malformed_states_are_refused(change: object, code: str, path: str) -> None:
    data = _state_data()
    change(data)  # type: ignore[operator]
    with pytest.raises(RecordError) as caught:
        state_from_json(data)
    assert (caught.value.code, caught.value.path) == (code, path)


@pytest.mark.parametrize(
    ("read", "value", "message"),
    [
        (
            lambda v: action_from_json({"type": v}),
            3,
            "WRONG_TYPE at $.type: an action type must be a string, not an integer",
        ),
        (
            lambda v: action_from_json({"type": v}),
            "jump",
            'NOT_AN_ACTION at $.type: "jump" is not an action type (reveal, bid, pass, discard)',
        ),
        (
            lambda v: state_from_json({**_state_data(), "phase": v}),
            None,
            "WRONG_TYPE at $.phase: a phase must be a string, not null",
        ),
        (
            lambda v: state_from_json({**_state_data(), "phase": v}),
            "Auction",
            'BAD_STATE at $.phase: "Auction" is not a phase (reveal, auction, discard, over)',
        ),
        (
            lambda v: action_from_json({"type": "reveal", "card": v}),
            ["prestige"],
            "WRONG_TYPE at $.card: a status card must be a string, not a list",
        ),
        (
            lambda v: action_from_json({"type": "reveal", "card": v}),
            "luxury-11",
            'UNKNOWN_CARD at $.card: "luxury-11" is not a status card'
            " (luxury-1 ... luxury-10, prestige, faux-pas, passe, scandale)",
        ),
    ],
)
def test_a_name_from_a_closed_set_is_refused_with_the_names_it_may_be(
    read: object, value: object, message: str
) -> None:
    # Action types, phases and status cards are read by one reader; each says what it
    # expected and lists the names it knows.
    with pytest.raises(RecordError) as caught:
        read(value)  # type: ignore[operator]
    assert str(caught.value) == message


def test_status_cards_are_read_in_any_order_and_kept_canonical() -> None:
    state = play_actions(*won(L(4), 0, 3), *won(PRESTIGE, 0, 1))
    data = state_to_json(state)
    _players(data)[0]["status_cards"] = ["prestige", "luxury-4"]
    assert state_from_json(data) == state


# --- Results ---------------------------------------------------------------------------------


def test_scores_are_json_numbers_with_half_points() -> None:
    assert score_to_json(Fraction(14)) == 14
    assert type(score_to_json(Fraction(14))) is int
    assert score_to_json(Fraction(15, 2)) == 7.5
    assert score_to_json(Fraction(-5, 2)) == -2.5
    assert json.dumps([score_to_json(Fraction(15, 2)), score_to_json(Fraction(4))]) == "[7.5, 4]"


def test_result_json_lists_seats_in_order() -> None:
    states = _states_of_a_game(4, 5)
    final = states[-1]
    outcome = result(final)
    data = result_to_json(outcome)
    assert list(data) == ["scores", "money", "cast_out", "winners"]
    assert data["money"] == list(outcome.money)
    assert data["cast_out"] == sorted(outcome.cast_out)
    assert data["winners"] == sorted(outcome.winners)
    assert [Fraction(s) for s in data["scores"]] == list(outcome.scores)  # type: ignore[union-attr, arg-type]


# --- Strict JSON text ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "code", "path"),
    [
        ("", RecordCode.NOT_JSON, "$"),
        ("   \n", RecordCode.NOT_JSON, "$"),
        ("{", RecordCode.NOT_JSON, "$"),
        ("[NaN]", RecordCode.NOT_JSON, "$"),
        ("[Infinity]", RecordCode.NOT_JSON, "$"),
        ("[-Infinity]", RecordCode.NOT_JSON, "$"),
        ("\ufeff{}", RecordCode.NOT_JSON, "$"),
        ("[1e999]", RecordCode.BAD_NUMBER, "$"),
        # Values the parser made, then refused: at their place.
        ("[" + "9" * 5000 + "]", RecordCode.BAD_NUMBER, "$[0]"),
        ('{"a": [0, ' + "9" * 30 + "]}", RecordCode.BAD_NUMBER, "$.a[1]"),
        ('{"a": 1, "a": 1}', RecordCode.DUPLICATE_KEY, "$"),
        ('["\\ud800"]', RecordCode.NOT_UTF8, "$[0]"),
        ('{"\\udfff": 1}', RecordCode.NOT_UTF8, "$"),
        ("[" * 65 + "]" * 65, RecordCode.TOO_DEEP, "$" + "[0]" * 64),
        ("[" * 100_000 + "]" * 100_000, RecordCode.TOO_DEEP, "$"),
    ],
)
def test_strict_json_refusals(text: str, code: str, path: str) -> None:
    with pytest.raises(RecordError) as caught:
        parse_json(text)
    assert (caught.value.code, caught.value.path, caught.value.index) == (code, path, None)


def test_nesting_up_to_the_limit_is_read() -> None:
    assert parse_json("[" * 64 + "]" * 64) is not None


def test_bytes_that_are_not_utf8_are_refused() -> None:
    with pytest.raises(RecordError) as caught:
        parse_json(b'{"a": "\xff"}')
    assert caught.value.code == RecordCode.NOT_UTF8
    assert "byte 7" in caught.value.message


def test_size_is_checked_before_parsing() -> None:
    with pytest.raises(RecordError) as caught:
        parse_json("[" + " " * 100 + "]", limit=50)
    assert caught.value.code == RecordCode.TOO_LARGE
    assert parse_json("[" + " " * 40 + "]", limit=50) == []


def test_a_record_error_pickles() -> None:
    import pickle

    error = RecordError(Reason.BID_TOO_LOW, "low", path="$.actions[3].cards", index=3)
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.code, copy.message, copy.path, copy.index) == (
        "BID_TOO_LOW",
        "low",
        "$.actions[3].cards",
        3,
    )
    assert copy.code is Reason.BID_TOO_LOW


@pytest.mark.parametrize(
    ("given", "code"),
    [
        (RecordCode.UNWRITABLE, RecordCode.UNWRITABLE),
        ("NOT_JSON", RecordCode.NOT_JSON),
        (Reason.BID_TOO_LOW, Reason.BID_TOO_LOW),
        ("INVALID_SEAT", Reason.INVALID_SEAT),
    ],
)
def test_a_record_error_code_is_a_record_code_or_a_reason(
    given: RecordCode | Reason | str, code: RecordCode | Reason
) -> None:
    error = RecordError(given, "message")
    assert error.code is code
    assert error.code == str(code)  # string enums: equal to their names


def test_a_record_error_refuses_an_unknown_code() -> None:
    with pytest.raises(ValueError, match="neither a RecordCode nor a Reason"):
        RecordError("NOT_A_CODE", "message")


def test_record_codes_live_beside_the_reasons() -> None:
    import high_society.errors
    import high_society.serial

    assert RecordCode.__module__ == "high_society.errors"
    assert high_society.errors.RecordCode is RecordCode
    assert not hasattr(high_society.serial, "RecordCode")

"""A payload told as JSON text (``Table.payload_json``) is the payload itself, told: the
text of the legal bids kept per seat, face-up bid and hand, and bounded. The random
games' check is ``property_tests/test_payload_text.py``; these pin the corners it rarely
draws."""

import json
from typing import Any

import pytest

from high_society._bidtable import fewest_cards
from high_society.bots import HeuristicBot, SeatOnly
from high_society.table import Seat, Table, TimeControl, _payloads

_SEATS = [Seat("Ada"), Seat("Ben", bot="heuristic"), Seat("Cy", bot="heuristic")]


def _told(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@pytest.fixture(autouse=True)
def _cold() -> None:
    _payloads.BID_TEXTS.clear()


def _entry(seat: int, face_up: int, added: int, cards: tuple[int, ...]) -> str:
    """An entry of a payload's legal bids, as the wire states it (``wire.LEGAL``)."""
    action = {"type": "bid", "player": seat, "cards": [*cards]}
    return _told({"total": face_up + added, "action": action})


def test_the_same_hand_at_two_face_up_bids_and_two_seats_is_told_apart() -> None:
    texts = _payloads.BidTexts()
    hand = frozenset({1, 2, 3, 4, 6})
    fewest = fewest_cards(hand)
    for seat, face_up in [(0, 0), (0, 8), (1, 8), (1, 0), (0, 0)]:
        told = texts.entries(seat, face_up, hand, fewest)
        assert told == tuple(_entry(seat, face_up, *bid).encode() for bid in fewest)


def test_the_kept_text_is_bounded() -> None:
    texts = _payloads.BidTexts(limit=8)
    for value in range(3, 40):
        hand = frozenset({1, 2, value})
        texts.entries(0, 0, hand, fewest_cards(hand))
        texts.entries(0, 1, hand, fewest_cards(hand))
        assert 0 < len(texts) <= 8 + 8 * 8  # the hands' entries and the card lists
    texts.clear()
    assert len(texts) == 0


@pytest.mark.parametrize("fast", [False, True], ids=["dumps_json", "orjson"])
def test_a_timed_table_and_a_finished_game_are_told_as_their_payloads(fast: bool) -> None:
    dumps = pytest.importorskip("orjson").dumps if fast else None
    table = Table(_SEATS, seed=4, time_control=TimeControl(bank=30.25, increment=2.5))
    table.deal(now=1_700_000_000.125)
    bots = {1: SeatOnly(HeuristicBot(1)), 2: SeatOnly(HeuristicBot(2))}
    while not table.is_over:
        for seat in range(3):
            since = table.number // 2
            told = _told(table.payload(seat, since)).encode()
            assert table.payload_json(seat, since, dumps=dumps) == told
        shown: Any = table.payload(0)  # JSON, read as a client reads it
        legal = shown["legal"]
        if legal is not None:  # a legal action, sent back as it came
            if legal["bids"]:
                action = legal["bids"][0]["action"]
            else:
                action = legal["discards"][0] if legal["discards"] else legal["pass"]
            table.submit(0, {"action": action}, now=1_700_000_001.5)
        table.advance(bots, now=1_700_000_002.75)
    assert table.payload(0)["result"] is not None
    assert table.payload_json(0, dumps=dumps) == _told(table.payload(0)).encode()

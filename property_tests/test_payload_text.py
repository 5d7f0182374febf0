"""``Table.payload_json`` is ``Table.payload`` told as compact JSON text, byte for byte,
though it tells a hand's legal bids from text it keeps (``table/_payloads.py``).

Random tables (3 to 5 seats, names with quotes, backslashes, markup and letters beyond
ASCII), played to a random moment by the steered policy; every seat and a
random starting point of the history, at every step of the game, asked twice (the rest
told by the standard library, then by orjson, as the server tells it), with the kept text
cleared or kept from the examples before.
"""

import json

import orjson  # the server's encoder: the server extra installs it
from hypothesis import given, settings
from hypothesis import strategies as st

from high_society.table import Table, _payloads
from property_tests.strategies import tables

#: Names that the JSON text must escape, or must not.
_NAMES = st.text(st.sampled_from('Aa "\\\u00eb\u674e</>'), min_size=1, max_size=6).map(
    lambda name: name.strip() or "x"
)


def _told(table: Table, seat: int, since: int) -> bytes:
    payload = table.payload(seat, since)
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()


@settings(max_examples=60)
@given(tables(_NAMES), st.data())
def test_the_text_is_the_payload_told_at_every_step(table: Table, data: st.DataObject) -> None:
    if data.draw(st.booleans(), label="cold"):  # else warm from the examples before
        _payloads.BID_TEXTS.clear()
    twin = Table.restore({**table.snapshot(), "actions": []})  # the same deal, from the start
    for number, action in enumerate([*table.history, None]):
        since = data.draw(st.integers(0, number), label="since")
        for seat in range(len(twin.seats)):
            told = _told(twin, seat, since)
            assert twin.payload_json(seat, since) == told
            assert twin.payload_json(seat, since, dumps=orjson.dumps) == told  # kept, and fast
        if action is not None:
            twin.play(action)

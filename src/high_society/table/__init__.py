"""A table for a server: the game, its secret shuffle, its record and its seats, and what
each seat is sent.

A server keeps one :class:`Table` per game. The table owns:

- the state and the public history (every action so far, reveals included: R14);
- the secret order of the deck, shuffled when the table is made by a cryptographic
  generator (``secrets.SystemRandom``), or by ``random.Random`` when a seed is
  given (for tests). The state itself never holds that order (R4);
- the seats: each a person's or a bot's name, in seat order.

Three calls carry a server:

- :meth:`Table.payload` is what one seat is sent: its view of the table (R13), who acts,
  who holds the highest bid, the cards revealed so far, that seat's legal actions, the
  public history since a given action, and at the end the result with each breakdown. It
  is built from what the seat knows (:func:`seat_payload` takes only its
  :class:`~high_society.bots.Seen`), so it never holds another seat's hand, anyone's spent
  cards, or the deck's order.
- :meth:`Table.submit` takes a seat and untrusted input (bytes, text or parsed JSON) and
  returns the :class:`Accepted` action or a :class:`Refusal` saying why not: its
  :class:`RefusalKind`, a stable code, a message and a JSON path. A refusal changes
  nothing.
- :meth:`Table.snapshot` and :meth:`Table.restore` save and load the table as JSON, secret
  included: what a server stores.

:meth:`Table.advance` plays the reveals and the bots' turns (any bot of the
:mod:`high_society.bots` protocol, asked through :func:`~high_society.bots.decide`) until a
person must act or the game is over, through the library's one game loop
(:func:`~high_society.host.turns`); :meth:`Table.deal` plays only the reveals due (after a
person's move that ended an auction), and :attr:`Table.waiting_for` says who must act: a
person, a bot, chance or nobody. :func:`rematch_seats` seats a rematch (R3;
:func:`rematch_seat`: where one player sits). Every shape sent or taken is
:mod:`high_society.wire`'s.

A table may have a clock (:class:`TimeControl`, as data): given the time with each action
(``now``), it knows the deadline of the seat to act (:attr:`Table.deadline`), and
:meth:`Table.time_out` plays a seat's default action when it has passed
(:func:`default_action` says which, and why). Clocks are a table's policy, not a
rule: they never change what the rules allow.

>>> from high_society.bots import HeuristicBot, SeatOnly
>>> table = Table([Seat("Ada"), Seat("Ben", bot="heuristic"), Seat("Cy", bot="heuristic")], seed=3)
>>> table.reveal()
Reveal(card=<StatusCard.LUXURY_5: 'luxury-5'>)
>>> table.submit(0, b'{"action": {"type": "bid", "player": 0, "cards": [2]}, "number": 1}')
Accepted(action=Bid(seat=0, cards=frozenset({2})), number=1, duplicate=False)
>>> refusal = table.submit(0, '{"action": {"type": "pass", "player": 1}}')
>>> refusal.kind, refusal.code, refusal.message
(<RefusalKind.NOT_YOUR_SEAT: 'not_your_seat'>, 'NOT_YOUR_SEAT', 'seat 0 cannot act for seat 1')
>>> table.advance({1: SeatOnly(HeuristicBot(1)), 2: SeatOnly(HeuristicBot(2))})
[Bid(seat=1, cards=frozenset({3})), Bid(seat=2, cards=frozenset({4}))]
>>> payload = table.payload(0, since=2)
>>> payload["to_act"], payload["highest_bidder"], payload["min_bid_total"]
(0, 2, 5)
>>> payload["legal"]["bids"][0]  # each legal action as it is sent back
{'total': 5, 'action': {'type': 'bid', 'player': 0, 'cards': [3]}}
>>> [entry["text"] for entry in payload["log"]]
['Ben bids 3 (3 face up)', 'Cy bids 4 (4 face up)']
"""

from high_society._clock import Clocks, SeatClock, TimeControl, default_action
from high_society._json import JSONObject
from high_society.table._payloads import (
    dumps_json,
    replay_steps,
    seat_payload,
    spectator_payload,
    to_act_json,
)
from high_society.table._seats import MAX_BOT_LENGTH, Seat, rematch_seat, rematch_seats
from high_society.table._table import (
    FORMAT,
    MAX_META_BYTES,
    MAX_MOVE_BYTES,
    VERSION,
    Accepted,
    Refusal,
    Table,
    TableCode,
    Waiting,
    read_move,
)
from high_society.wire import (
    REFUSAL,
    REPLAY_STEP,
    SEAT_PAYLOAD,
    SPECTATOR_PAYLOAD,
    Move,
    RefusalKind,
    check_name,
    json_schema,
)

__all__ = [
    "FORMAT",
    "MAX_BOT_LENGTH",
    "MAX_META_BYTES",
    "MAX_MOVE_BYTES",
    "VERSION",
    "Accepted",
    "Clocks",
    "Move",
    "Refusal",
    "RefusalKind",
    "Seat",
    "SeatClock",
    "Table",
    "TableCode",
    "TimeControl",
    "Waiting",
    "check_name",
    "default_action",
    "dumps_json",
    "payload_schema",
    "read_move",
    "refusal_schema",
    "rematch_seat",
    "rematch_seats",
    "replay_step_schema",
    "replay_steps",
    "seat_payload",
    "spectator_payload",
    "spectator_payload_schema",
    "to_act_json",
]


def payload_schema() -> JSONObject:
    """The JSON Schema (draft 2020-12) of :func:`seat_payload`'s object
    (:data:`high_society.wire.SEAT_PAYLOAD`'s). Every object in it is closed
    (``additionalProperties: false``): a payload holds nothing else.

    >>> payload_schema()["$id"]
    'urn:high-society:seat-payload:v2'
    """
    return json_schema(SEAT_PAYLOAD)


def spectator_payload_schema() -> JSONObject:
    """The JSON Schema (draft 2020-12) of :func:`spectator_payload`'s object
    (:data:`high_society.wire.SPECTATOR_PAYLOAD`'s): the seat payload's keys, with
    ``seat``, the view's ``seat`` and ``hand``, and ``legal`` always ``null``.

    >>> spectator_payload_schema()["properties"]["seat"]["type"]
    'null'
    """
    return json_schema(SPECTATOR_PAYLOAD)


def replay_step_schema() -> JSONObject:
    """The JSON Schema (draft 2020-12) of one of :func:`replay_steps`' objects
    (:data:`high_society.wire.REPLAY_STEP`'s).

    >>> replay_step_schema()["required"]
    ['number', 'action', 'log', 'view', 'to_act', 'highest_bidder', 'min_bid_total']
    """
    return json_schema(REPLAY_STEP)


def refusal_schema() -> JSONObject:
    """The JSON Schema of :meth:`Refusal.to_json` (:data:`high_society.wire.REFUSAL`'s)."""
    return json_schema(REFUSAL)

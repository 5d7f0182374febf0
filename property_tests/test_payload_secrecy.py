"""What a server sends a seat (high_society.table) never holds another seat's hand, anyone's
spent cards, or the deck's order (R13; the public history is public, R14).

Random tables (3 to 5 seats, any shuffle), played to a random moment by the steered policy,
and a random seat and starting point of the history:

- the payload is a function of what the seat knows: equal to ``seat_payload`` of its
  ``Seen`` (its R13 view and the public history) alone;
- it has the documented shape, every object closed, and holds one hand, the seat's own; no
  ``spent`` key anywhere; every other player as the table shows them;
- it does not depend on the order of the cards not yet dealt: a twin table whose deck
  differs only there sends every seat the same payload;
- asked again and again as the game goes (the table then tells only the new actions), it
  is still the payload of the seat's knowledge alone;
- a spectator's payload holds no hand at all: exactly what every seat's payload shares,
  a function of the public history alone, the same whatever the undealt cards' order.
"""

from collections.abc import Iterator

import jsonschema  # type: ignore[import-untyped]  # no stubs; a dev dependency only
import referencing
from hypothesis import given, settings
from hypothesis import strategies as st

from high_society.bots import Seen
from high_society.observation import view
from high_society.record import action_schema
from high_society.serial import JSON
from high_society.table import (
    Seat,
    Table,
    payload_schema,
    seat_payload,
    spectator_payload,
    spectator_payload_schema,
)
from property_tests.strategies import choose_action, tables

_REGISTRY = referencing.Registry().with_resource(
    "urn:high-society:action:v1", referencing.Resource.from_contents(action_schema())
)
_VALIDATOR = jsonschema.Draft202012Validator(payload_schema(), registry=_REGISTRY)


def keys(value: JSON, path: str = "$") -> Iterator[tuple[str, JSON]]:
    """Every ``(path, value)`` of a JSON value's objects."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield f"{path}.{key}", item
            yield from keys(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from keys(item, f"{path}[{i}]")


def twin(table: Table) -> Table:
    """The same game, its undealt cards in another order (reversed, then rotated by one)."""
    snapshot = table.snapshot()
    order = snapshot["order"]
    assert isinstance(order, list)
    dealt = sum(1 for a in table.history if a.__class__.__name__ == "Reveal")
    rest = order[dealt:][::-1]
    snapshot["order"] = order[:dealt] + rest[1:] + rest[:1]
    return Table.restore(snapshot)


@settings(max_examples=200)
@given(tables(), st.data())
def test_a_payload_holds_only_what_its_seat_knows_r13_r14(
    table: Table, data: st.DataObject
) -> None:
    seat = data.draw(st.integers(0, len(table.seats) - 1))
    since = data.draw(st.integers(0, table.number))
    payload = table.payload(seat, since)
    state = table.state

    # A function of the seat's knowledge alone: its view and the public history.
    assert payload == seat_payload(Seen(view(state, seat), table.history), table.seats, since)

    # The documented shape, every object closed; one hand, the seat's own; nobody's spent cards.
    _VALIDATOR.validate(payload)
    found = list(keys(payload))
    assert [path for path, _ in found if path.endswith(".hand")] == ["$.view.hand"]
    assert not [path for path, _ in found if "spent" in path]
    shown = payload["view"]
    assert isinstance(shown, dict)
    assert shown["hand"] == sorted(state.players[seat].hand)
    for other, (player, public) in enumerate(zip(state.players, shown["players"], strict=True)):  # type: ignore[arg-type]
        assert public == {
            "table": sorted(player.table),
            "passed": player.passed,
            "hand_size": len(player.hand),
            "status_cards": [card.value for card in player.status_cards],
        }, other

    # Not the deck's order: a table that deals the rest of the deck otherwise looks the same.
    other_deal = twin(table)
    for anyone in range(len(table.seats)):
        assert other_deal.payload(anyone, since) == table.payload(anyone, since)


@settings(max_examples=50)
@given(st.integers(3, 5), st.integers(0, 2**32), st.data())
def test_payloads_asked_as_the_game_goes_are_those_of_the_seats_knowledge_r13_r14(
    players: int, seed: int, data: st.DataObject
) -> None:
    # A table tells only the actions played since its last payload; what it sends is the
    # same as the payload made from the whole public history at once.
    seats = [Seat(f"P{i}") for i in range(players)]
    table = Table(seats, seed=seed)
    while not table.is_over:
        if table.state.phase.value == "reveal":
            table.reveal()
        else:
            table.play(choose_action(data.draw, table.state))
        if data.draw(st.integers(0, 3)) == 0:
            seat = data.draw(st.integers(0, players - 1))
            since = data.draw(st.integers(0, table.number))
            known = Seen(view(table.state, seat), table.history)
            assert table.payload(seat, since) == seat_payload(known, table.seats, since)
            if data.draw(st.booleans()):  # a copy goes on from what the table worked out
                table = table.copy()


_SPECTATOR_VALIDATOR = jsonschema.Draft202012Validator(
    spectator_payload_schema(), registry=_REGISTRY
)


@settings(max_examples=150)
@given(tables(), st.data())
def test_a_spectator_payload_holds_no_hand_and_only_what_every_seat_sees_r13_r14(
    table: Table, data: st.DataObject
) -> None:
    since = data.draw(st.integers(0, table.number))
    watched = table.spectator_payload(since)

    # A function of the public history alone (R14), as spectator_payload makes it.
    assert watched == spectator_payload(table.history, table.seats, since)
    _SPECTATOR_VALIDATOR.validate(watched)
    found = list(keys(watched))
    assert [value for path, value in found if path.endswith(".hand")] == [None]
    assert not [path for path, _ in found if "spent" in path]
    assert watched["seat"] is None
    assert watched["legal"] is None

    # Exactly what every seat's payload shares: all but the seat, its hand and its actions.
    for seat in range(len(table.seats)):
        mine = table.payload(seat, since)
        view_mine, view_watched = mine.pop("view"), watched["view"]
        assert isinstance(view_mine, dict)
        assert isinstance(view_watched, dict)
        assert {k: v for k, v in view_mine.items() if k not in ("seat", "hand")} == {
            k: v for k, v in view_watched.items() if k not in ("seat", "hand")
        }
        for key, value in mine.items():
            if key not in ("seat", "legal"):
                assert watched[key] == value, key

    # Not the deck's order.
    assert twin(table).spectator_payload(since) == watched

"""The library's JSON Schemas as components of the OpenAPI document: an action, a record, the
seat and spectator payloads and a replay's step, with every reference inside the document.

The library's schemas are standalone (draft 2020-12): each has an ``$id``, its pieces in
``$defs``, and the payload and the record refer to the action by its ``$id``. In the
document those become components (``Action``, ``Record``, ``SeatPayload``,
``SpectatorPayload``, ``ReplayStep``, and the pieces,
``StatusCard``, ``Money`` ...), and every ``$ref`` points into ``#/components/schemas``. An
action's four forms become components of their own (``RevealAction`` ...), chosen by
their ``type`` (a discriminator), which client generators turn into a tagged union.
"""

import copy
from collections.abc import Callable

from high_society.record import action_schema, record_schema
from high_society.serial import JSON, JSONObject
from high_society.table import payload_schema, replay_step_schema, spectator_payload_schema

__all__ = ["LIBRARY_SCHEMA", "add_library_components", "library_components"]

#: The key of the mark a model puts where a library schema goes (see
#: :func:`add_library_components`).
LIBRARY_SCHEMA = "x-high-society-schema"

#: The components the library's schemas become, by their ``$id``.
_BY_ID = {
    "urn:high-society:action:v1": "Action",
    "urn:high-society:record:v1": "Record",
    "urn:high-society:seat-payload:v1": "SeatPayload",
    "urn:high-society:spectator-payload:v1": "SpectatorPayload",
    "urn:high-society:replay-step:v1": "ReplayStep",
}
_PREFIX = "#/components/schemas/"


def _pascal(name: str) -> str:
    return name[:1].upper() + name[1:]


def _rewritten(value: JSON, ref: Callable[[str], str]) -> JSON:
    """``value`` with each ``$ref`` replaced by ``ref($ref)``."""
    if isinstance(value, dict):
        return {
            key: (ref(item) if key == "$ref" and isinstance(item, str) else _rewritten(item, ref))
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_rewritten(item, ref) for item in value]
    return value


def _reference(target: str) -> str:
    if target.startswith("#/$defs/"):
        name = target.removeprefix("#/$defs/")
        return _PREFIX + ("Action" if name == "action" else _pascal(name))
    if target in _BY_ID:
        return _PREFIX + _BY_ID[target]
    raise ValueError(f"a library schema refers to {target!r}, which the document lacks")


def _component(schema: JSONObject, into: dict[str, JSONObject]) -> JSONObject:
    """``schema`` as a component: its ``$defs`` moved to ``into``, references rewritten."""
    body = copy.deepcopy(schema)
    for key in ("$schema", "$id"):
        body.pop(key, None)
    defs = body.pop("$defs", {})
    assert isinstance(defs, dict)
    for name, part in defs.items():
        if name != "action":  # the record's copy of the action: the Action component
            assert isinstance(part, dict)
            into[_pascal(name)] = _as_object(_rewritten(part, _reference))
    return _as_object(_rewritten(body, _reference))


def _as_object(value: JSON) -> JSONObject:
    assert isinstance(value, dict)
    return value


def _action(schema: JSONObject, into: dict[str, JSONObject]) -> JSONObject:
    """The action as a tagged union of its forms, each a component."""
    forms = schema.pop("oneOf")
    assert isinstance(forms, list)
    refs: list[JSON] = []
    mapping: JSONObject = {}
    for form in forms:
        assert isinstance(form, dict)
        name = f"{_pascal(str(form['title']))}Action"
        into[name] = form
        refs.append({"$ref": _PREFIX + name})
        properties = form["properties"]
        assert isinstance(properties, dict)
        tag = properties["type"]
        assert isinstance(tag, dict)
        mapping[str(tag["const"])] = _PREFIX + name
    return {
        "title": schema.get("title", "Action"),
        "description": schema.get("description", ""),
        "oneOf": refs,
        "discriminator": {"propertyName": "type", "mapping": mapping},
    }


def library_components() -> dict[str, JSONObject]:
    """Every component the library's schemas give the document, by name. Each is titled
    with its name (client generators name their types after titles); the library's title
    leads its description."""
    found: dict[str, JSONObject] = {}
    found["Action"] = _action(_component(action_schema(), found), found)
    found["Record"] = _component(record_schema(), found)
    found["SeatPayload"] = _component(payload_schema(), found)
    found["SpectatorPayload"] = _component(spectator_payload_schema(), found)
    found["ReplayStep"] = _component(replay_step_schema(), found)
    for name, schema in found.items():
        title = schema.get("title")
        if title is not None and title != name:
            described = schema.get("description")
            schema["description"] = f"{title}." if described is None else f"{title}: {described}"
        schema["title"] = name
    return found


def _consts_as_enums(value: JSON, in_union: bool = False) -> JSON:
    """``value`` with each string ``const`` that is a member of a union (``anyOf``,
    ``oneOf``) written as a one-value ``enum``: the same values, in a form client
    generators can tell from the union's other members (some check a ``const`` first and
    refuse whatever differs, an integer seat of ``to_act`` among them)."""
    if isinstance(value, dict):
        if in_union and isinstance(value.get("const"), str):
            made: JSONObject = {k: v for k, v in value.items() if k != "const"}
            return {**made, "type": "string", "enum": [value["const"]]}
        return {
            key: (
                [_consts_as_enums(item, True) for item in item_list]
                if key in ("anyOf", "oneOf") and isinstance(item_list := item, list)
                else _consts_as_enums(item)
            )
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_consts_as_enums(item) for item in value]
    return value


def add_library_components(document: JSONObject) -> None:
    """Put :func:`library_components` into an OpenAPI document, and turn each mark of
    one (an object holding :data:`LIBRARY_SCHEMA`, with the component's name) into a
    reference to it; a string ``const`` in a union becomes a one-value ``enum`` (in
    place).

    Raises:
        ValueError: a mark names no component, or the document has one of those names.
    """
    made = library_components()

    def replace(value: JSON) -> JSON:
        if isinstance(value, dict):
            name = value.get(LIBRARY_SCHEMA)
            if name is not None:
                if name not in made:
                    raise ValueError(f"no library schema is called {name!r}")
                return {"$ref": _PREFIX + str(name)}
            return {key: replace(item) for key, item in value.items()}
        if isinstance(value, list):
            return [replace(item) for item in value]
        return value

    for key in list(document):
        document[key] = replace(document[key])
    components = document.setdefault("components", {})
    assert isinstance(components, dict)
    schemas = components.setdefault("schemas", {})
    assert isinstance(schemas, dict)
    for name, schema in made.items():
        if name in schemas:
            raise ValueError(f"the document has a component {name} of its own")
        schemas[name] = schema
    for key in list(document):
        document[key] = _consts_as_enums(document[key])

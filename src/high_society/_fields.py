"""Typed fields of parsed JSON: objects with exactly their keys, integers, cards, lists.

Each reader takes the value, its JSON path and the index of the action it belongs to (for
the error), and returns the value typed or raises :class:`~high_society.errors.RecordError`.
"""

from collections.abc import Mapping, Sequence
from typing import NoReturn, TypeVar

from high_society._json import key_path, kind, show
from high_society.cards import StatusCard, sort_cards
from high_society.errors import Reason, RecordCode, RecordError

__all__ = [
    "fail",
    "read_bool",
    "read_int",
    "read_list",
    "read_money",
    "read_name",
    "read_object",
    "read_status_card",
    "read_status_cards",
]

_C = RecordCode
_T = TypeVar("_T")


def fail(code: RecordCode | Reason, message: str, path: str, index: int | None) -> NoReturn:
    """Raise the :class:`RecordError` for ``code`` at ``path``."""
    raise RecordError(code, message, path=path, index=index)


def read_object(
    value: object,
    path: str,
    index: int | None,
    required: Sequence[str],
    optional: Sequence[str] = (),
    what: str = "",
) -> dict[str, object]:
    """``value`` as an object with exactly the ``required`` keys (and maybe ``optional``)."""
    if type(value) is not dict:
        fail(_C.WRONG_TYPE, f"{what or path} must be an object, not {kind(value)}", path, index)
    for key in value:
        if key not in required and key not in optional:
            allowed = ", ".join(f'"{k}"' for k in (*required, *optional))
            fail(
                _C.UNKNOWN_KEY,
                f"unknown key {show(key)}{' in ' + what if what else ''} (the keys are {allowed})",
                key_path(path, str(key)),
                index,
            )
    for key in required:
        if key not in value:
            fail(
                _C.MISSING_KEY,
                f'the key "{key}" is missing{" from " + what if what else ""}',
                key_path(path, key),
                index,
            )
    return value


def read_int(value: object, path: str, index: int | None, what: str) -> int:
    """``value`` as an integer (not ``true``, not ``3.0``)."""
    if type(value) is not int:
        fail(_C.WRONG_TYPE, f"{what} must be an integer, not {kind(value)}", path, index)
    return value


def read_bool(value: object, path: str, index: int | None, what: str) -> bool:
    """``value`` as ``true`` or ``false``."""
    if type(value) is not bool:
        fail(_C.WRONG_TYPE, f"{what} must be true or false, not {kind(value)}", path, index)
    return value


def read_list(value: object, path: str, index: int | None, what: str) -> list[object]:
    """``value`` as a list."""
    if type(value) is not list:
        fail(_C.WRONG_TYPE, f"{what} must be a list, not {kind(value)}", path, index)
    return value


def read_name(
    value: object,
    path: str,
    index: int | None,
    what: str,
    names: Mapping[str, _T],
    unknown: RecordCode | Reason,
    listing: str,
) -> _T:
    """``value`` as one of a closed set of ``names`` (``"bid"``, ``"auction"``, ``"prestige"``).

    ``what`` names the field with its article (``"a phase"``); ``listing`` shows the names in
    the error when ``value`` is none of them, which is reported with the code ``unknown``.
    """
    if type(value) is not str:
        fail(_C.WRONG_TYPE, f"{what} must be a string, not {kind(value)}", path, index)
    found = names.get(value)
    if found is None:
        fail(unknown, f"{show(value)} is not {what} ({listing})", path, index)
    return found


_CARDS = {card.value: card for card in StatusCard}


def read_status_card(value: object, path: str, index: int | None) -> StatusCard:
    """``value`` as a status card, by its name (``"luxury-7"``, ``"prestige"`` ...)."""
    listing = "luxury-1 ... luxury-10, prestige, faux-pas, passe, scandale"
    return read_name(value, path, index, "a status card", _CARDS, _C.UNKNOWN_CARD, listing)


def read_status_cards(value: object, path: str, index: int | None) -> tuple[StatusCard, ...]:
    """``value`` as a list of status cards, returned in canonical order."""
    items = read_list(value, path, index, "status cards")
    return sort_cards(read_status_card(item, f"{path}[{i}]", index) for i, item in enumerate(items))


def read_money(value: object, path: str, index: int | None = None) -> list[int]:
    """``value`` as a list of distinct money values (JSON integers), in the order given.

    Raises:
        RecordError: ``WRONG_TYPE`` or ``DUPLICATE_CARD``, at the offending element.
    """
    items = read_list(value, path, index, "money cards")
    cards: list[int] = []
    seen: set[int] = set()  # a set: a hostile list may be long
    for i, item in enumerate(items):
        card = read_int(item, f"{path}[{i}]", index, "a money card")
        if card in seen:
            fail(
                _C.DUPLICATE_CARD,
                f"the money card {show(card)} is listed twice",
                f"{path}[{i}]",
                index,
            )
        cards.append(card)
        seen.add(card)
    return cards

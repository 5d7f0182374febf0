"""Actions, states and results as plain JSON values, and strict JSON reading.

A server sends states and actions to a browser as JSON; these functions turn them into
plain values (``dict``, ``list``, ``str``, ``int``, ``bool``, ``None``) that :func:`json.dumps`
writes as they are, and back. Round trips give equal values:
``action_from_json(action_to_json(a)) == a`` and ``state_from_json(state_to_json(s)) == s``.

Reading is strict, because the values come from outside: ``true`` and ``3.0`` are not
integers, unknown keys are refused at every level, and a state that breaks an invariant
(:func:`~high_society.invariants.state_problems`) is refused. Every refusal is a
:class:`~high_society.RecordError` naming the place (a JSON path) and a stable code.

>>> from high_society import Bid
>>> action_to_json(Bid(1, frozenset({3, 1})))
{'type': 'bid', 'player': 1, 'cards': [1, 3]}
>>> action_from_json({"type": "pass", "player": 2})
Pass(seat=2)
"""

import enum
import json
import math
import re
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import NoReturn, TypeAlias, assert_never

from high_society.actions import Action, Bid, Discard, Pass, Reveal
from high_society.cards import GameConfig, StatusCard, sort_cards
from high_society.errors import InvalidConfigError, Reason, RecordError
from high_society.invariants import state_problems
from high_society.scoring import GameResult
from high_society.state import GameState, Phase, PlayerState

__all__ = [
    "JSON",
    "MAX_JSON_BYTES",
    "MAX_JSON_DEPTH",
    "JSONObject",
    "RecordCode",
    "action_from_json",
    "action_to_json",
    "parse_json",
    "result_to_json",
    "score_to_json",
    "state_from_json",
    "state_to_json",
]

JSON: TypeAlias = "bool | int | float | str | list[JSON] | dict[str, JSON] | None"
"""A plain JSON value, as :func:`json.loads` returns it."""
JSONObject: TypeAlias = "dict[str, JSON]"
"""A JSON object."""

#: The largest JSON text read, in bytes of UTF-8 (8 MiB); checked before parsing.
MAX_JSON_BYTES = 8 * 1024 * 1024
#: The deepest nesting of lists and objects read (a record itself needs 4 levels).
MAX_JSON_DEPTH = 64


class RecordCode(enum.StrEnum):
    """Why JSON input is malformed: a stable, machine-readable code.

    Illegal actions in a well-formed record use the engine's :class:`~high_society.Reason`
    codes instead. The docs page "Recorded games" explains each code with an example.
    """

    #: The file is missing, a directory, not a regular file or cannot be read.
    UNREADABLE = "UNREADABLE"
    #: The input is larger than :data:`MAX_JSON_BYTES`.
    TOO_LARGE = "TOO_LARGE"
    #: The bytes are not UTF-8, or a string holds a lone surrogate escape (``"\\ud800"``).
    NOT_UTF8 = "NOT_UTF8"
    #: The text is empty or not JSON (``NaN`` and ``Infinity`` are not JSON either).
    NOT_JSON = "NOT_JSON"
    #: Lists and objects nest deeper than :data:`MAX_JSON_DEPTH`.
    TOO_DEEP = "TOO_DEEP"
    #: An integer longer than Python reads (4,300 digits) or a number too large for a float.
    BAD_NUMBER = "BAD_NUMBER"
    #: An object has the same key twice.
    DUPLICATE_KEY = "DUPLICATE_KEY"
    #: The top level of a record is not an object.
    BAD_TOP_LEVEL = "BAD_TOP_LEVEL"
    #: ``format`` is missing or is not ``"high-society"``.
    BAD_FORMAT = "BAD_FORMAT"
    #: ``version`` is missing or is not the integer ``1``.
    BAD_VERSION = "BAD_VERSION"
    #: ``players`` is not a list of 3 to 5 distinct non-empty strings.
    BAD_PLAYERS = "BAD_PLAYERS"
    #: An object has a key its kind does not have.
    UNKNOWN_KEY = "UNKNOWN_KEY"
    #: An object lacks a key its kind needs.
    MISSING_KEY = "MISSING_KEY"
    #: A value of the wrong JSON type (``true`` or ``3.0`` where an integer is expected ...).
    WRONG_TYPE = "WRONG_TYPE"
    #: A status card name that does not exist.
    UNKNOWN_CARD = "UNKNOWN_CARD"
    #: The same card twice in a list of money cards.
    DUPLICATE_CARD = "DUPLICATE_CARD"
    #: An action follows the one that ended the game (R9).
    ACTION_AFTER_END = "ACTION_AFTER_END"
    #: A state that no game can reach: a bad config, a bad phase, a broken invariant.
    BAD_STATE = "BAD_STATE"


_C = RecordCode


# --- Strict JSON text --------------------------------------------------------------------------


class _DuplicateKeyError(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


class _BadConstantError(Exception):
    def __init__(self, name: str) -> None:
        self.name = name


class _BadFloatError(Exception):
    def __init__(self, text: str) -> None:
        self.text = text


def _pairs(pairs: list[tuple[str, JSON]]) -> JSONObject:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKeyError(key)
            seen.add(key)
    return obj


def _constant(name: str) -> NoReturn:
    raise _BadConstantError(name)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _BadFloatError(text)
    return value


def parse_json(data: str | bytes, *, limit: int = MAX_JSON_BYTES) -> JSON:
    """Parse JSON text strictly, with limits that make hostile input harmless.

    The size is checked before parsing; nesting, numbers, duplicate keys and lone surrogates
    are refused. Nothing but :class:`~high_society.RecordError` escapes.

    >>> parse_json('{"a": [1, 2.5, null]}')
    {'a': [1, 2.5, None]}
    >>> parse_json('{"a": 1, "a": 2}')
    Traceback (most recent call last):
    high_society.errors.RecordError: DUPLICATE_KEY at $: the key "a" appears twice in one object

    Raises:
        RecordError: codes ``TOO_LARGE``, ``NOT_UTF8``, ``NOT_JSON``, ``TOO_DEEP``,
            ``BAD_NUMBER`` or ``DUPLICATE_KEY``; ``index`` is ``None`` and ``path`` is ``$``.
    """
    if isinstance(data, str):
        if len(data) > limit:
            raise RecordError(_C.TOO_LARGE, _too_large(limit))
        try:
            raw = data.encode("utf-8")
        except UnicodeEncodeError as error:
            raise RecordError(
                _C.NOT_UTF8, f"character {error.start} is a lone surrogate, not Unicode text"
            ) from None
    else:
        raw = bytes(data)
    if len(raw) > limit:
        raise RecordError(_C.TOO_LARGE, _too_large(limit))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RecordError(_C.NOT_UTF8, f"byte {error.start} is not UTF-8 text") from None
    if not text.strip():
        raise RecordError(_C.NOT_JSON, "the input is empty")
    try:
        value: JSON = json.loads(
            text, object_pairs_hook=_pairs, parse_constant=_constant, parse_float=_float
        )
    except RecursionError:
        raise RecordError(_C.TOO_DEEP, _too_deep()) from None
    except json.JSONDecodeError as error:
        raise RecordError(
            _C.NOT_JSON, f"not JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    except _DuplicateKeyError as error:
        raise RecordError(
            _C.DUPLICATE_KEY, f"the key {_show(error.key)} appears twice in one object"
        ) from None
    except _BadConstantError as error:
        raise RecordError(_C.NOT_JSON, f"not JSON: {error.name} is not a JSON number") from None
    except _BadFloatError as error:
        raise RecordError(
            _C.BAD_NUMBER, f"the number {error.text[:40]} is too large for a float"
        ) from None
    except ValueError as error:  # Python's limit on the digits of an int
        raise RecordError(_C.BAD_NUMBER, f"a number is too long: {error}") from None
    _check_tree(value, text)
    return value


def _too_large(limit: int) -> str:
    return f"the input is larger than the limit of {limit:,} bytes"


def _too_deep() -> str:
    return f"lists and objects nest deeper than the limit of {MAX_JSON_DEPTH} levels"


#: A ``\\uD800``-``\\uDFFF`` escape: only text holding one can decode to a lone surrogate.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _check_tree(value: JSON, text: str) -> None:
    """Depth and lone surrogates, without recursion (the value may be large). The strings are
    only looked at when the text has a surrogate escape at all, which is rare."""
    strings = _SURROGATE_ESCAPE.search(text) is not None
    if isinstance(value, str) and strings:
        _check_text(value)
    stack: list[tuple[JSON, int]] = [(value, 0)] if isinstance(value, list | dict) else []
    while stack:
        item, depth = stack.pop()
        if depth >= MAX_JSON_DEPTH:
            raise RecordError(_C.TOO_DEEP, _too_deep())
        children: Iterable[JSON]
        if isinstance(item, dict):
            if strings:
                for key in item:
                    _check_text(key)
            children = item.values()
        else:
            assert isinstance(item, list)
            children = item
        for child in children:
            kind = type(child)
            if kind is dict or kind is list:
                stack.append((child, depth + 1))
            elif strings and isinstance(child, str):
                _check_text(child)


def _check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise RecordError(
            _C.NOT_UTF8, "a string holds a lone surrogate escape, which is not Unicode text"
        ) from None


# --- Reading helpers ---------------------------------------------------------------------------

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _key_path(path: str, key: str) -> str:
    """``$.a`` for a plain key, ``$["odd key"]`` otherwise."""
    if _IDENTIFIER.fullmatch(key):
        return f"{path}.{key}"
    return f"{path}[{_show(key)}]"


def _show(value: object) -> str:
    """A short rendering of a JSON value for a message, never huge."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int):
        return str(value) if value.bit_length() <= 200 else "a very long integer"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        text = json.dumps(value[:40], ensure_ascii=False)
        return text[:-1] + '..."' if len(value) > 40 else text
    return _kind(value)


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"


def _fail(code: str, message: str, path: str, index: int | None) -> NoReturn:
    raise RecordError(code, message, path=path, index=index)


def _object(
    value: object,
    path: str,
    index: int | None,
    required: Sequence[str],
    optional: Sequence[str] = (),
    what: str = "",
) -> dict[str, object]:
    """``value`` as an object with exactly the ``required`` keys (and maybe ``optional``)."""
    if type(value) is not dict:
        _fail(_C.WRONG_TYPE, f"{what or path} must be an object, not {_kind(value)}", path, index)
    for key in value:
        if key not in required and key not in optional:
            allowed = ", ".join(f'"{k}"' for k in (*required, *optional))
            _fail(
                _C.UNKNOWN_KEY,
                f"unknown key {_show(key)}{' in ' + what if what else ''} (the keys are {allowed})",
                _key_path(path, str(key)),
                index,
            )
    for key in required:
        if key not in value:
            _fail(
                _C.MISSING_KEY,
                f'the key "{key}" is missing{" from " + what if what else ""}',
                _key_path(path, key),
                index,
            )
    return value


def _int(value: object, path: str, index: int | None, what: str) -> int:
    if type(value) is not int:
        _fail(_C.WRONG_TYPE, f"{what} must be an integer, not {_kind(value)}", path, index)
    return value


def _bool(value: object, path: str, index: int | None, what: str) -> bool:
    if type(value) is not bool:
        _fail(_C.WRONG_TYPE, f"{what} must be true or false, not {_kind(value)}", path, index)
    return value


def _list(value: object, path: str, index: int | None, what: str) -> list[object]:
    if type(value) is not list:
        _fail(_C.WRONG_TYPE, f"{what} must be a list, not {_kind(value)}", path, index)
    return value


_CARDS = {card.value: card for card in StatusCard}


def _status_card(value: object, path: str, index: int | None) -> StatusCard:
    if type(value) is not str:
        _fail(_C.WRONG_TYPE, f"a status card must be a string, not {_kind(value)}", path, index)
    card = _CARDS.get(value)
    if card is None:
        _fail(
            _C.UNKNOWN_CARD,
            f"{_show(value)} is not a status card (luxury-1 ... luxury-10, prestige,"
            " faux-pas, passe, scandale)",
            path,
            index,
        )
    return card


def _status_cards(value: object, path: str, index: int | None) -> tuple[StatusCard, ...]:
    items = _list(value, path, index, "status cards")
    return sort_cards(_status_card(item, f"{path}[{i}]", index) for i, item in enumerate(items))


def _money_list(value: object, path: str, index: int | None = None) -> list[int]:
    """A list of distinct money values (JSON integers), in the order given.

    Raises:
        RecordError: ``WRONG_TYPE`` or ``DUPLICATE_CARD``, at the offending element.
    """
    items = _list(value, path, index, "money cards")
    cards: list[int] = []
    seen: set[int] = set()  # a set: a hostile list may be long
    for i, item in enumerate(items):
        card = _int(item, f"{path}[{i}]", index, "a money card")
        if card in seen:
            _fail(
                _C.DUPLICATE_CARD,
                f"the money card {_show(card)} is listed twice",
                f"{path}[{i}]",
                index,
            )
        cards.append(card)
        seen.add(card)
    return cards


# --- Actions -----------------------------------------------------------------------------------

_ACTION_KEYS: dict[str, tuple[str, ...]] = {
    "reveal": ("type", "card"),
    "bid": ("type", "player", "cards"),
    "pass": ("type", "player"),
    "discard": ("type", "player", "card"),
}


def action_to_json(action: Action) -> JSONObject:
    """One action as a JSON object; bid cards in ascending order.

    >>> from high_society import Reveal, StatusCard
    >>> action_to_json(Reveal(StatusCard.FAUX_PAS))
    {'type': 'reveal', 'card': 'faux-pas'}
    """
    match action:
        case Reveal(card):
            return {"type": "reveal", "card": card.value}
        case Bid(seat, cards):
            return {"type": "bid", "player": seat, "cards": _sorted(cards)}
        case Pass(seat):
            return {"type": "pass", "player": seat}
        case Discard(seat, card):
            return {"type": "discard", "player": seat, "card": card.value}
        case _:
            assert_never(action)


def action_from_json(value: object, *, path: str = "$", index: int | None = None) -> Action:
    """The action a JSON object describes. Only its form is checked, not its legality.

    ``path`` and ``index`` say where the object sits, for the error.

    >>> action_from_json({"type": "bid", "player": 0, "cards": [3, 1]})
    Bid(seat=0, cards=frozenset({1, 3}))
    >>> action_from_json({"type": "pass", "player": True})
    Traceback (most recent call last):
    high_society.errors.RecordError: WRONG_TYPE at $.player: a seat must be an integer, not true

    Raises:
        RecordError: ``WRONG_TYPE``, ``MISSING_KEY``, ``UNKNOWN_KEY``, ``NOT_AN_ACTION`` (an
            unknown ``type``), ``UNKNOWN_CARD`` or ``DUPLICATE_CARD``.
    """
    if type(value) is not dict:
        _fail(_C.WRONG_TYPE, f"an action must be an object, not {_kind(value)}", path, index)
    if "type" not in value:
        _fail(_C.MISSING_KEY, 'the key "type" is missing from the action', f"{path}.type", index)
    kind = value["type"]
    if type(kind) is not str:
        _fail(
            _C.WRONG_TYPE,
            f"the action type must be a string, not {_kind(kind)}",
            f"{path}.type",
            index,
        )
    keys = _ACTION_KEYS.get(kind)
    if keys is None:
        _fail(
            Reason.NOT_AN_ACTION,
            f"{_show(kind)} is not an action type (reveal, bid, pass, discard)",
            f"{path}.type",
            index,
        )
    obj = _object(value, path, index, keys, what=f"a {kind} action")
    if kind == "reveal":
        return Reveal(_status_card(obj["card"], f"{path}.card", index))
    seat = _int(obj["player"], f"{path}.player", index, "a seat")
    if kind == "pass":
        return Pass(seat)
    if kind == "bid":
        return Bid(seat, frozenset(_money_list(obj["cards"], f"{path}.cards", index)))
    return Discard(seat, _status_card(obj["card"], f"{path}.card", index))


# --- States ------------------------------------------------------------------------------------

_STATE_KEYS = ("config", "players", "deck", "phase", "turn", "auction", "removed", "ending_card")
_PLAYER_KEYS = ("hand", "table", "spent", "passed", "status_cards")
_PHASES = {phase.value: phase for phase in Phase}


def _names(cards: Sequence[StatusCard]) -> list[JSON]:
    return [card.value for card in cards]


def _sorted(cards: frozenset[int]) -> list[JSON]:
    return [*sorted(cards)]


def state_to_json(state: GameState) -> JSONObject:
    """A state as a JSON object: every field, money cards in ascending order, status cards
    by name in canonical order.

    >>> from high_society import new_game
    >>> data = state_to_json(new_game(3))
    >>> data["phase"], data["turn"], data["players"][0]["hand"][:4]
    ('reveal', 0, [1, 2, 3, 4])
    """
    return {
        "config": {"money": list(state.config.money), "deck": _names(state.config.deck)},
        "players": [
            {
                "hand": _sorted(p.hand),
                "table": _sorted(p.table),
                "spent": _sorted(p.spent),
                "passed": p.passed,
                "status_cards": _names(p.status_cards),
            }
            for p in state.players
        ],
        "deck": _names(state.deck),
        "phase": state.phase.value,
        "turn": state.turn,
        "auction": None if state.auction is None else state.auction.value,
        "removed": _names(state.removed),
        "ending_card": None if state.ending_card is None else state.ending_card.value,
    }


def state_from_json(value: object, *, path: str = "$") -> GameState:
    """The state a JSON object describes (see :func:`state_to_json`), refusing any state that
    no game can reach.

    >>> from high_society import new_game
    >>> state_from_json(state_to_json(new_game(4))) == new_game(4)
    True

    Raises:
        RecordError: the form is wrong (``WRONG_TYPE``, ``MISSING_KEY``, ``UNKNOWN_KEY``,
            ``UNKNOWN_CARD``, ``DUPLICATE_CARD``) or the state is inconsistent (``BAD_STATE``:
            a config that is not a game, an unknown phase, a broken invariant).
    """
    obj = _object(value, path, None, _STATE_KEYS, what="a state")
    config_path = f"{path}.config"
    config_obj = _object(obj["config"], config_path, None, ("money", "deck"), what="a config")
    money = _money_list(config_obj["money"], f"{config_path}.money")
    deck = _status_cards(config_obj["deck"], f"{config_path}.deck", None)
    try:
        config = GameConfig(money=tuple(money), deck=deck)
    except InvalidConfigError as error:
        raise RecordError(_C.BAD_STATE, str(error), path=config_path) from None
    players_path = f"{path}.players"
    players = []
    for i, item in enumerate(_list(obj["players"], players_path, None, "players")):
        p_path = f"{players_path}[{i}]"
        p = _object(item, p_path, None, _PLAYER_KEYS, what="a player")
        players.append(
            PlayerState(
                hand=frozenset(_money_list(p["hand"], f"{p_path}.hand")),
                table=frozenset(_money_list(p["table"], f"{p_path}.table")),
                spent=frozenset(_money_list(p["spent"], f"{p_path}.spent")),
                passed=_bool(p["passed"], f"{p_path}.passed", None, "passed"),
                status_cards=_status_cards(p["status_cards"], f"{p_path}.status_cards", None),
            )
        )
    phase_value = obj["phase"]
    if type(phase_value) is not str:
        _fail(
            _C.WRONG_TYPE,
            f"the phase must be a string, not {_kind(phase_value)}",
            f"{path}.phase",
            None,
        )
    phase = _PHASES.get(phase_value)
    if phase is None:
        _fail(
            _C.BAD_STATE,
            f"{_show(phase_value)} is not a phase (reveal, auction, discard, over)",
            f"{path}.phase",
            None,
        )
    state = GameState(
        config=config,
        players=tuple(players),
        deck=_status_cards(obj["deck"], f"{path}.deck", None),
        phase=phase,
        turn=_int(obj["turn"], f"{path}.turn", None, "turn"),
        auction=_optional_card(obj["auction"], f"{path}.auction"),
        removed=_status_cards(obj["removed"], f"{path}.removed", None),
        ending_card=_optional_card(obj["ending_card"], f"{path}.ending_card"),
    )
    problems = state_problems(state)
    if problems:
        raise RecordError(
            _C.BAD_STATE, "no game reaches this state: " + "; ".join(problems), path=path
        )
    return state


def _optional_card(value: object, path: str) -> StatusCard | None:
    return None if value is None else _status_card(value, path, None)


# --- Results -----------------------------------------------------------------------------------


def score_to_json(score: Fraction) -> int | float:
    """A status as a JSON number: an int when whole, else a float (``7.5``; exact, since
    Scandale halves a whole number at most once).

    >>> score_to_json(Fraction(14)), score_to_json(Fraction(-5, 2))
    (14, -2.5)
    """
    return score.numerator if score.denominator == 1 else float(score)


def result_to_json(outcome: GameResult) -> JSONObject:
    """A finished game's result as the JSON object ``validate --json`` prints: scores and
    money one per seat in seat order, cast-out seats and winners ascending.

    >>> from high_society import HeuristicBot, play_game, result
    >>> final, _ = play_game([HeuristicBot(s) for s in range(3)], seed=2)
    >>> sorted(result_to_json(result(final)))
    ['cast_out', 'money', 'scores', 'winners']
    """
    return {
        "scores": [score_to_json(s) for s in outcome.scores],
        "money": list(outcome.money),
        "cast_out": list(outcome.cast_out),
        "winners": list(outcome.winners),
    }

"""Recorded games: the record, its JSON form and text, replay, validation and the writer.

The public entry is :mod:`high_society.record`, where the format is described.
"""

import json
import re
import unicodedata
import warnings
from collections.abc import Iterable, Mapping, Sequence

import attrs

from high_society._convert import action_from_json, action_to_json, check_action, result_to_json
from high_society._fields import read_object
from high_society._json import (
    JSON,
    MAX_JSON_BYTES,
    MAX_JSON_INT,
    MIN_JSON_INT,
    JSONObject,
    check_text_limits,
    copy_json,
    is_text,
    kind,
    parse_json,
    show,
)
from high_society._text import is_unsafe_char, short_repr
from high_society.actions import Action, Bid, Discard, Pass, Reveal
from high_society.cards import MAX_PLAYERS, MIN_PLAYERS, StatusCard
from high_society.errors import IllegalActionError, Reason, RecordCode, RecordError
from high_society.rules import apply, new_game
from high_society.scoring import GameResult, result
from high_society.state import GameState

__all__ = [
    "FORMAT",
    "MAX_NAME_LENGTH",
    "MAX_RECORD_BYTES",
    "VERSION",
    "GameRecord",
    "RecordWriter",
    "Validation",
    "check_players",
    "dumps_record",
    "loads_record",
    "record_from_json",
    "record_to_json",
    "replay",
    "validate_record",
]

#: The value of the ``format`` key.
FORMAT = "high-society"
#: The format version this library reads and writes.
VERSION = 1
#: The largest record read, in bytes (8 MiB); a finished game takes a few kilobytes.
MAX_RECORD_BYTES = MAX_JSON_BYTES
#: The longest player's name, in characters.
MAX_NAME_LENGTH = 64

_C = RecordCode
_TOP_KEYS = ("format", "version", "players", "actions")
#: ``meta`` lies one level inside the record: its nesting counts from the record's top.
_META_DEPTH = 1
#: The path of a value inside an action, and that action's index.
_IN_ACTION = re.compile(r"\$\.actions\[(\d+)\]")


# --- The record ----------------------------------------------------------------------------


def check_players(value: object, path: str = "$.players") -> tuple[str, ...]:
    """The players' names as a tuple, when they are 3 to 5 distinct names: strings of 1 to
    :data:`MAX_NAME_LENGTH` characters, not only spaces, holding no control character
    (newlines, ANSI escapes, NUL, bidi controls ...) and no lone surrogate.

    Raises:
        RecordError: ``BAD_PLAYERS`` at the offending name (or at ``path``).
    """
    if type(value) is not list and type(value) is not tuple:
        raise RecordError(
            _C.BAD_PLAYERS, f"players must be a list of names, not {kind(value)}", path=path
        )
    if len(value) > MAX_PLAYERS:  # before looking at each: a hostile list may be long
        raise RecordError(
            _C.BAD_PLAYERS,
            f"{len(value):,} players: High Society is for {MIN_PLAYERS} to {MAX_PLAYERS} (R3)",
            path=path,
        )
    names: list[str] = []
    for i, name in enumerate(value):
        where = f"{path}[{i}]"
        problem = _name_problem(name)
        if problem is not None:
            raise RecordError(_C.BAD_PLAYERS, problem, path=where)
        assert isinstance(name, str)
        if name in names:
            raise RecordError(
                _C.BAD_PLAYERS, f"the name {show(name)} is given to two seats", path=where
            )
        names.append(name)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise RecordError(
            _C.BAD_PLAYERS,
            f"{len(names)} players: High Society is for {MIN_PLAYERS} to {MAX_PLAYERS} (R3)",
            path=path,
        )
    return tuple(names)


def _name_problem(name: object) -> str | None:
    if type(name) is not str:
        return f"a player's name must be a string, not {kind(name)}"
    if not name:
        return "a player's name must not be empty"
    if len(name) > MAX_NAME_LENGTH:
        return f"a player's name must be at most {MAX_NAME_LENGTH} characters, not {len(name):,}"
    if not is_text(name):
        return "a player's name must be Unicode text (it holds a lone surrogate)"
    if not name.strip():
        return "a player's name must not be only spaces"
    for char in name:
        if is_unsafe_char(char):
            return (
                f"a player's name must not hold control characters, such as"
                f" U+{ord(char):04X} ({unicodedata.name(char, 'a control character')})"
            )
    return None


def _own_meta(meta: Mapping[str, JSON] | None) -> JSONObject:
    if meta is None:
        return {}
    if not isinstance(meta, Mapping):
        raise RecordError(_C.WRONG_TYPE, f"meta must be an object, not {kind(meta)}", path="$.meta")
    copy = copy_json(meta, "$.meta", depth=_META_DEPTH)
    assert isinstance(copy, dict)
    return copy


def _own_players(players: Sequence[str]) -> tuple[str, ...]:
    return check_players(players)


def _own_actions(actions: Iterable[Action]) -> tuple[Action, ...]:
    if isinstance(actions, str | bytes | Mapping) or not isinstance(actions, Iterable):
        raise RecordError(
            _C.WRONG_TYPE,
            f"actions must be a sequence of actions, not {short_repr(actions)}",
            path="$.actions",
        )
    kept = tuple(actions)
    for i, action in enumerate(kept):
        if not _plainly_well_formed(action):
            check_action(action, f"$.actions[{i}]", i)
    return kept


def _plainly_well_formed(action: object) -> bool:
    """True for the common well-formed actions, in a few tests (the rest: check_action)."""
    kind = type(action)
    if kind is Pass or kind is Bid or kind is Discard:
        assert isinstance(action, Pass | Bid | Discard)
        seat = action.seat
        if type(seat) is not int or not 0 <= seat <= MAX_JSON_INT:
            return False
        if isinstance(action, Bid):
            cards: object = action.cards
            return type(cards) is frozenset and all(
                type(c) is int and MIN_JSON_INT <= c <= MAX_JSON_INT for c in cards
            )
        return kind is Pass or type(action.card) is StatusCard  # type: ignore[union-attr]
    return kind is Reveal and type(action.card) is StatusCard  # type: ignore[attr-defined]


@attrs.frozen
class GameRecord:
    """A recorded game: the players in seat order, every action, and free-form ``meta``.

    Building one checks the form, not the legality (:func:`replay` checks that): the
    players (3 to 5 distinct names: see the docs page "Recorded games"); each action is
    one of the four classes with fields of the declared types, which JSON can carry
    (``Bid(0, {1})``, a ``set``, is refused, as is a seat beyond 64 bits); ``meta`` is a
    JSON object, kept as a private copy that takes no part in hashing. What a record holds,
    its JSON text holds: a round trip through :func:`dumps_record` and :func:`loads_record`
    gives an equal record.

    >>> GameRecord(["Ada", "Ben", "Cy"]).players
    ('Ada', 'Ben', 'Cy')

    Raises:
        RecordError: ``BAD_PLAYERS``; ``NOT_AN_ACTION``, ``WRONG_TYPE`` or ``BAD_NUMBER`` for
            an action; ``WRONG_TYPE``, ``NOT_UTF8``, ``BAD_NUMBER``, ``TOO_LARGE`` or
            ``TOO_DEEP`` for a ``meta`` that is not a JSON object the reader would accept.
    """

    players: tuple[str, ...] = attrs.field(converter=_own_players)
    actions: tuple[Action, ...] = attrs.field(default=(), converter=_own_actions)
    meta: JSONObject = attrs.field(factory=dict, converter=_own_meta, hash=False)


def record_to_json(record: GameRecord) -> JSONObject:
    """The record as a JSON object (``meta`` only when it is not empty).

    >>> record_to_json(GameRecord(["Ada", "Ben", "Cy"]))
    {'format': 'high-society', 'version': 1, 'players': ['Ada', 'Ben', 'Cy'], 'actions': []}

    Raises:
        RecordError: ``WRONG_TYPE``: ``record`` is not a :class:`GameRecord`.
    """
    _check_record(record)
    data: JSONObject = {"format": FORMAT, "version": VERSION, "players": [*record.players]}
    if record.meta:
        data["meta"] = copy_json(record.meta, "$.meta", depth=_META_DEPTH)
    data["actions"] = [action_to_json(a) for a in record.actions]
    return data


def _check_record(record: object) -> None:
    if not isinstance(record, GameRecord):
        raise RecordError(_C.WRONG_TYPE, f"expected a GameRecord, not {short_repr(record)}")


def _check_header(value: object) -> tuple[tuple[str, ...], JSONObject, list[object]]:
    """Everything outside the actions: players, meta and the raw list of actions."""
    if type(value) is not dict:
        raise RecordError(_C.BAD_TOP_LEVEL, f"a record must be a JSON object, not {kind(value)}")
    if value.get("format") != FORMAT:
        shown = show(value["format"]) if "format" in value else "missing"
        raise RecordError(_C.BAD_FORMAT, f'format must be "{FORMAT}", not {shown}', path="$.format")
    version = value.get("version")
    if type(version) is not int or version != VERSION:
        shown = show(version) if "version" in value else "missing"
        raise RecordError(
            _C.BAD_VERSION,
            f"version must be the integer {VERSION} (this library reads format v{VERSION}),"
            f" not {shown}",
            path="$.version",
        )
    obj = read_object(value, "$", None, _TOP_KEYS, ("meta",), what="a record")
    players = check_players(obj["players"])
    meta: JSONObject = {}
    if "meta" in obj:
        raw_meta = obj["meta"]
        if type(raw_meta) is not dict:
            raise RecordError(
                _C.WRONG_TYPE, f"meta must be an object, not {kind(raw_meta)}", path="$.meta"
            )
        meta = raw_meta
    actions = obj["actions"]
    if type(actions) is not list:
        raise RecordError(
            _C.WRONG_TYPE, f"actions must be a list, not {kind(actions)}", path="$.actions"
        )
    return players, meta, actions


def record_from_json(value: object) -> GameRecord:
    """The record a JSON value describes. Only the form is checked, not legality.

    Raises:
        RecordError: the value is not a well-formed v1 record.
    """
    players, meta, raw = _check_header(value)
    actions = [
        action_from_json(item, path=f"$.actions[{i}]", index=i) for i, item in enumerate(raw)
    ]
    return GameRecord(players, actions, meta)


def dumps_record(record: GameRecord) -> str:
    """The record as JSON text: the header on a few lines, then one action per line, and a
    final newline. Non-ASCII names are written as they are (the text is UTF-8).

    >>> from high_society import Reveal, StatusCard
    >>> print(dumps_record(GameRecord(["Ada", "Ben", "Cy"], [Reveal(StatusCard.PASSE)])), end="")
    {"format": "high-society", "version": 1,
     "players": ["Ada", "Ben", "Cy"],
     "actions": [
      {"type": "reveal", "card": "passe"}]}

    Raises:
        RecordError: ``WRONG_TYPE``: ``record`` is not a :class:`GameRecord`; ``TOO_LARGE``:
            the text would be larger than the reader reads (:data:`MAX_RECORD_BYTES`, or more
            than ``MAX_JSON_VALUES`` lists, objects and commas, those in strings included).
    """
    data = record_to_json(record)
    lines = [
        f'{{"format": {json.dumps(FORMAT)}, "version": {VERSION},',
        f' "players": {json.dumps(data["players"], ensure_ascii=False)},',
    ]
    if "meta" in data:
        lines.append(f' "meta": {json.dumps(data["meta"], ensure_ascii=False)},')
    actions = data["actions"]
    assert isinstance(actions, list)
    if not actions:
        lines.append(' "actions": []}')
    else:
        lines.append(' "actions": [')
        lines.append(",\n".join(f"  {json.dumps(a, ensure_ascii=False)}" for a in actions) + "]}")
    text = "\n".join(lines) + "\n"
    # The reader's own limits, on the very text it would read: whatever is written is read.
    check_text_limits(text.encode("utf-8"), MAX_RECORD_BYTES)
    return text


def loads_record(data: str | bytes) -> GameRecord:
    """The record in JSON text (well formed; not checked for legality: see :func:`replay`).

    Raises:
        RecordError: the text is too large, not JSON, or not a well-formed v1 record.
    """
    return record_from_json(_parse(data))


def _parse(data: str | bytes) -> JSON:
    """The JSON of a record's text. A value the JSON reader refuses inside an action (a
    number beyond 64 bits) is blamed on that action, with its index, as a field of the
    wrong form would be."""
    try:
        return parse_json(data, limit=MAX_RECORD_BYTES)
    except RecordError as error:
        action = _IN_ACTION.match(error.path)
        if action is None:
            raise
        raise RecordError(
            error.code, error.message, path=error.path, index=int(action[1])
        ) from None


# --- Replay and validation -----------------------------------------------------------------


def _blame(reason: Reason, action: Action, state: GameState, cards: Sequence[int]) -> str:
    """The field an illegal action is to blame for, as a JSON path suffix."""
    if reason is Reason.INVALID_SEAT or reason in (Reason.NOT_YOUR_TURN, Reason.ALREADY_PASSED):
        return ".player"
    if reason in (Reason.CARD_NOT_IN_DECK, Reason.NOT_A_LUXURY_YOU_OWN):
        return ".card"
    if reason in (Reason.EMPTY_BID, Reason.BID_TOO_LOW):
        return ".cards"
    if isinstance(action, Bid):
        for i, card in enumerate(cards):
            if reason is Reason.INVALID_CARD:
                blamed = card not in state.config.money
            else:  # the seat is valid: the engine checks it first
                player = state.players[action.seat]
                if reason is Reason.CARD_ALREADY_BID:
                    blamed = card in player.table
                else:
                    blamed = reason is Reason.CARD_NOT_IN_HAND and card not in player.hand
            if blamed:
                return f".cards[{i}]"
        return ".cards"
    if reason is Reason.INVALID_CARD:
        return ".card"
    return ".type"  # a reveal, a discard or a player action at the wrong moment


class _Replayer:
    """Applies actions in turn, turning the first problem into a RecordError."""

    def __init__(self, players: tuple[str, ...]) -> None:
        self.players = players
        self.state = new_game(len(players))
        self.ended_at: int | None = None

    def check_not_over(self, index: int) -> None:
        if self.ended_at is not None:
            raise RecordError(
                _C.ACTION_AFTER_END,
                f"the game ended with action {self.ended_at}: nothing may follow it (R9)",
                path=f"$.actions[{index}]",
                index=index,
            )

    def step(self, index: int, action: Action, cards: Sequence[int] | None = None) -> None:
        path = f"$.actions[{index}]"
        self.check_not_over(index)
        try:
            self.state = apply(self.state, action)
        except IllegalActionError as error:
            if cards is None:
                cards = sorted(action.cards) if isinstance(action, Bid) else ()
            where = path + _blame(error.reason, action, self.state, cards)
            raise RecordError(
                error.reason, error.message_with_names(self.players), path=where, index=index
            ) from error
        if self.state.is_over:
            self.ended_at = index


def replay(record: GameRecord) -> GameState:
    """The state after every action of the record, from a new game of its players.

    >>> from high_society import Pass, Reveal, StatusCard
    >>> replay(GameRecord(["Ada", "Ben", "Cy"], [Reveal(StatusCard.PASSE)])).auction
    <StatusCard.PASSE: 'passe'>
    >>> try:
    ...     replay(GameRecord(["Ada", "Ben", "Cy"], [Pass(0)]))
    ... except RecordError as error:
    ...     print(error.index, error.path, error.code)
    ...     print(error.message)
    0 $.actions[0].type REVEAL_DUE
    Ada cannot pass: a status card must be revealed first

    Raises:
        RecordError: the first illegal action (its ``index``, the engine's :class:`Reason`
            as ``code``, a message naming the players), or ``ACTION_AFTER_END``;
            ``WRONG_TYPE`` when ``record`` is not a :class:`GameRecord`.
    """
    _check_record(record)
    replayer = _Replayer(record.players)
    for index, action in enumerate(record.actions):
        replayer.step(index, action)
    return replayer.state


@attrs.frozen
class Validation:
    """What validating a record found: the record and its final state, or the error.

    Attributes:
        record: the record when it is valid, else ``None``.
        state: the state after its last action when it is valid, else ``None``.
        error: the first problem when it is not valid, else ``None``.
    """

    record: GameRecord | None = None
    state: GameState | None = None
    error: RecordError | None = None

    @property
    def valid(self) -> bool:
        """True when the record is well formed and every action is legal in turn."""
        return self.error is None

    @property
    def finished(self) -> bool:
        """True when the record is valid and its last action ended the game."""
        return self.state is not None and self.state.is_over

    @property
    def action_count(self) -> int:
        """How many actions a valid record holds (0 for an invalid one)."""
        return len(self.record.actions) if self.record is not None else 0

    @property
    def actions(self) -> int:
        """Deprecated: :attr:`action_count`. The name reads as the actions themselves, which
        are ``record.actions``; this is their number."""
        warnings.warn(
            "Validation.actions is deprecated: use Validation.action_count (the actions "
            "themselves are Validation.record.actions)",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.action_count

    @property
    def result(self) -> GameResult | None:
        """The result of a finished game, else ``None``."""
        return result(self.state) if self.state is not None and self.state.is_over else None

    def to_json(self, file: str) -> JSONObject:
        """The line ``high-society validate --json`` prints for ``file``.

        >>> Validation(error=RecordError("NOT_JSON", "the input is empty")).to_json("a.json")
        ... # doctest: +NORMALIZE_WHITESPACE
        {'file': 'a.json', 'valid': False,
         'error': {'index': None, 'path': '$', 'code': 'NOT_JSON', 'message': 'the input is empty'}}
        """
        if self.error is not None:
            e = self.error
            error: JSONObject = {
                "index": e.index,
                "path": e.path,
                "code": e.code.value,
                "message": e.message,
            }
            return {"file": file, "valid": False, "error": error}
        outcome = self.result
        return {
            "file": file,
            "valid": True,
            "finished": self.finished,
            "actions": self.action_count,
            "result": None if outcome is None else result_to_json(outcome),
        }


def _validate_json(value: JSON) -> Validation:
    players, meta, raw = _check_header(value)
    replayer = _Replayer(players)
    actions: list[Action] = []
    for index, item in enumerate(raw):
        replayer.check_not_over(index)  # nothing may follow the end, well formed or not
        action = action_from_json(item, path=f"$.actions[{index}]", index=index)
        cards = item.get("cards") if isinstance(item, dict) else None
        replayer.step(index, action, cards if isinstance(cards, list) else None)
        actions.append(action)
    return Validation(record=GameRecord(players, actions, meta), state=replayer.state)


def validate_record(source: GameRecord | str | bytes) -> Validation:
    """Check a record (an object, or JSON text) and report instead of raising.

    Anything else (``None``, a number, a file object) is reported as ``WRONG_TYPE``.

    >>> v = validate_record('{"format": "high-society", "version": 1, '
    ...     '"players": ["Ada", "Ben"], "actions": []}')
    >>> print(v.valid, v.error.code, v.error.path)
    False BAD_PLAYERS $.players
    """
    try:
        if isinstance(source, GameRecord):
            dumps_record(source)  # the verdict on its text: what cannot be read is not valid
            return Validation(record=source, state=replay(source))
        if not isinstance(source, str | bytes | bytearray):
            raise RecordError(
                _C.WRONG_TYPE,
                f"a record must be a GameRecord, JSON text or bytes, not {short_repr(source)}",
            )
        return _validate_json(_parse(source))
    except RecordError as error:
        return Validation(error=error)


# --- Writing as a game is played ---------------------------------------------------------


class RecordWriter:
    """Records a game as a host plays it: each action is checked and applied, so the record
    is always a valid game.

    >>> from high_society import Pass, Reveal, StatusCard
    >>> writer = RecordWriter(["Ada", "Ben", "Cy"], meta={"event": "club night"})
    >>> _ = writer.add(Reveal(StatusCard.PRESTIGE))
    >>> writer.add(Pass(1))
    Traceback (most recent call last):
    high_society.errors.IllegalActionError: Seat 1 cannot pass: it is Seat 0's turn
    >>> len(writer.record().actions)
    1

    Raises:
        RecordError: ``BAD_PLAYERS``, or a ``meta`` that is not a JSON object.
    """

    def __init__(self, players: Sequence[str], *, meta: Mapping[str, JSON] | None = None) -> None:
        self._record = GameRecord(players, (), meta)
        self._actions: list[Action] = []
        self._state = new_game(len(self._record.players))

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names, in seat order."""
        return self._record.players

    @property
    def state(self) -> GameState:
        """The state after the actions added so far."""
        return self._state

    def add(self, action: Action) -> GameState:
        """Apply ``action`` and record it; return the new state.

        Raises:
            IllegalActionError: the action is not legal now; nothing is recorded.
        """
        self._state = apply(self._state, action)
        self._actions.append(action)
        return self._state

    def record(self) -> GameRecord:
        """The record of the game so far."""
        return attrs.evolve(self._record, actions=tuple(self._actions))

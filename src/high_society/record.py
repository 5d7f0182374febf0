"""Recorded games, format v1: read, write, replay and validate.

A record is the players' names in seat order and every action of the game, reveals included
(a saved game is its action history). It is JSON::

    {"format": "high-society", "version": 1,
     "players": ["Ada", "Ben", "Cy"],
     "meta": {"event": "club night"},
     "actions": [
      {"type": "reveal", "card": "luxury-7"},
      {"type": "bid", "player": 0, "cards": [1, 3]}]}

:func:`replay` raises on the first problem; :func:`validate_record` and
:func:`validate_file` report it in a :class:`Validation` instead. A host fills a
:class:`RecordWriter` as it plays. The docs page "Recorded games" describes every field and
code; the JSON Schemas are :func:`record_schema` and :func:`action_schema`.

>>> from high_society import Reveal, StatusCard, Bid
>>> writer = RecordWriter(["Ada", "Ben", "Cy"])
>>> _ = writer.add(Reveal(StatusCard.LUXURY_7))
>>> _ = writer.add(Bid(0, frozenset({1, 3})))
>>> text = dumps_record(writer.record())
>>> validation = validate_record(text)
>>> validation.valid, validation.finished, validation.actions
(True, False, 2)
"""

import json
import os
import stat
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from importlib import resources
from pathlib import Path

import attrs

from high_society.actions import Action, Bid, Discard, Pass, Reveal
from high_society.cards import MAX_PLAYERS, MIN_PLAYERS
from high_society.errors import IllegalActionError, Reason, RecordError
from high_society.rules import apply, new_game
from high_society.scoring import GameResult, result
from high_society.serial import (
    JSON,
    MAX_JSON_BYTES,
    MAX_JSON_DEPTH,
    JSONObject,
    RecordCode,
    _key_path,
    _kind,
    _object,
    _show,
    action_from_json,
    action_to_json,
    parse_json,
    result_to_json,
)
from high_society.state import GameState

__all__ = [
    "FORMAT",
    "MAX_RECORD_BYTES",
    "VERSION",
    "GameRecord",
    "RecordWriter",
    "Validation",
    "action_schema",
    "dumps_record",
    "loads_record",
    "read_record",
    "record_from_json",
    "record_schema",
    "record_to_json",
    "replay",
    "validate_file",
    "validate_record",
    "write_record",
]

#: The value of the ``format`` key.
FORMAT = "high-society"
#: The format version this library reads and writes.
VERSION = 1
#: The largest record read, in bytes (8 MiB); a finished game takes a few kilobytes.
MAX_RECORD_BYTES = MAX_JSON_BYTES

_C = RecordCode
_TOP_KEYS = ("format", "version", "players", "actions")


# --- The record --------------------------------------------------------------------------------


def _check_players(value: object, path: str = "$.players") -> tuple[str, ...]:
    if type(value) is not list and type(value) is not tuple:
        raise RecordError(
            _C.BAD_PLAYERS, f"players must be a list of names, not {_kind(value)}", path=path
        )
    names: list[str] = []
    seen: set[str] = set()  # a set: a hostile list may be long
    for i, name in enumerate(value):
        where = f"{path}[{i}]"
        if type(name) is not str:
            raise RecordError(
                _C.BAD_PLAYERS, f"a player's name must be a string, not {_kind(name)}", path=where
            )
        if not name:
            raise RecordError(_C.BAD_PLAYERS, "a player's name must not be empty", path=where)
        if not _is_text(name):
            raise RecordError(_C.BAD_PLAYERS, "a player's name must be Unicode text", path=where)
        if name in seen:
            raise RecordError(
                _C.BAD_PLAYERS, f"the name {_show(name)} is given to two seats", path=where
            )
        names.append(name)
        seen.add(name)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise RecordError(
            _C.BAD_PLAYERS,
            f"{len(names)} players: High Society is for {MIN_PLAYERS} to {MAX_PLAYERS} (R3)",
            path=path,
        )
    return tuple(names)


def _is_text(text: str) -> bool:
    """False for a string holding a lone surrogate, which UTF-8 cannot encode."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _copy_json(value: object, path: str, depth: int = 0) -> JSON:
    """A private deep copy of a JSON value, refusing anything JSON cannot hold."""
    if depth > MAX_JSON_DEPTH:
        raise RecordError(_C.TOO_DEEP, f"meta nests deeper than {MAX_JSON_DEPTH} levels", path=path)
    if type(value) is str and not _is_text(value):
        raise RecordError(_C.NOT_UTF8, "a string holds a lone surrogate", path=path)
    if value is None or type(value) is bool or type(value) is int or type(value) is str:
        return value
    if type(value) is float:
        if value != value or value in (float("inf"), float("-inf")):
            raise RecordError(_C.BAD_NUMBER, f"{value!r} is not a JSON number", path=path)
        return value
    if type(value) is list or type(value) is tuple:
        return [_copy_json(item, f"{path}[{i}]", depth + 1) for i, item in enumerate(value)]
    if isinstance(value, Mapping):
        copy: JSONObject = {}
        for key, item in value.items():
            if type(key) is not str or not _is_text(key):
                raise RecordError(_C.WRONG_TYPE, f"a key must be a string, not {key!r}", path=path)
            copy[key] = _copy_json(item, _key_path(path, key), depth + 1)
        return copy
    raise RecordError(_C.WRONG_TYPE, f"{_kind(value)} is not a JSON value", path=path)


def _own_meta(meta: Mapping[str, JSON] | None) -> JSONObject:
    if meta is None:
        return {}
    if not isinstance(meta, Mapping):
        raise RecordError(
            _C.WRONG_TYPE, f"meta must be an object, not {_kind(meta)}", path="$.meta"
        )
    copy = _copy_json(meta, "$.meta")
    assert isinstance(copy, dict)
    return copy


def _own_players(players: Sequence[str]) -> tuple[str, ...]:
    return _check_players(players)


def _own_actions(actions: Iterable[Action]) -> tuple[Action, ...]:
    kept = tuple(actions)
    for i, action in enumerate(kept):
        if type(action) not in (Reveal, Bid, Pass, Discard):
            raise RecordError(
                Reason.NOT_AN_ACTION,
                f"{action!r} is not an action",
                path=f"$.actions[{i}]",
                index=i,
            )
    return kept


@attrs.frozen
class GameRecord:
    """A recorded game: the players in seat order, every action, and free-form ``meta``.

    Building one checks the players (3 to 5 distinct non-empty names) and that each action
    is an action, but not that the actions are legal: :func:`replay` does that.
    ``meta`` is kept as a private copy of a JSON object; it takes no part in hashing.

    >>> GameRecord(["Ada", "Ben", "Cy"]).players
    ('Ada', 'Ben', 'Cy')

    Raises:
        RecordError: ``BAD_PLAYERS``; ``NOT_AN_ACTION``; ``WRONG_TYPE``, ``BAD_NUMBER`` or
            ``TOO_DEEP`` for a ``meta`` that is not a JSON object.
    """

    players: tuple[str, ...] = attrs.field(converter=_own_players)
    actions: tuple[Action, ...] = attrs.field(default=(), converter=_own_actions)
    meta: JSONObject = attrs.field(factory=dict, converter=_own_meta, hash=False)


def record_to_json(record: GameRecord) -> JSONObject:
    """The record as a JSON object (``meta`` only when it is not empty).

    >>> record_to_json(GameRecord(["Ada", "Ben", "Cy"]))
    {'format': 'high-society', 'version': 1, 'players': ['Ada', 'Ben', 'Cy'], 'actions': []}
    """
    data: JSONObject = {"format": FORMAT, "version": VERSION, "players": [*record.players]}
    if record.meta:
        data["meta"] = _copy_json(record.meta, "$.meta")
    data["actions"] = [action_to_json(a) for a in record.actions]
    return data


def _check_header(value: object) -> tuple[tuple[str, ...], JSONObject, list[object]]:
    """Everything outside the actions: players, meta and the raw list of actions."""
    if type(value) is not dict:
        raise RecordError(_C.BAD_TOP_LEVEL, f"a record must be a JSON object, not {_kind(value)}")
    if value.get("format") != FORMAT:
        shown = _show(value["format"]) if "format" in value else "missing"
        raise RecordError(_C.BAD_FORMAT, f'format must be "{FORMAT}", not {shown}', path="$.format")
    version = value.get("version")
    if type(version) is not int or version != VERSION:
        shown = _show(version) if "version" in value else "missing"
        raise RecordError(
            _C.BAD_VERSION,
            f"version must be the integer {VERSION} (this library reads format v{VERSION}),"
            f" not {shown}",
            path="$.version",
        )
    obj = _object(value, "$", None, _TOP_KEYS, ("meta",), what="a record")
    players = _check_players(obj["players"])
    meta: JSONObject = {}
    if "meta" in obj:
        raw_meta = obj["meta"]
        if type(raw_meta) is not dict:
            raise RecordError(
                _C.WRONG_TYPE, f"meta must be an object, not {_kind(raw_meta)}", path="$.meta"
            )
        meta = raw_meta
    actions = obj["actions"]
    if type(actions) is not list:
        raise RecordError(
            _C.WRONG_TYPE, f"actions must be a list, not {_kind(actions)}", path="$.actions"
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

    >>> from high_society import StatusCard
    >>> print(dumps_record(GameRecord(["Ada", "Ben", "Cy"], [Reveal(StatusCard.PASSE)])), end="")
    {"format": "high-society", "version": 1,
     "players": ["Ada", "Ben", "Cy"],
     "actions": [
      {"type": "reveal", "card": "passe"}]}
    """
    data = record_to_json(record)
    lines = [
        f'{{"format": {json.dumps(FORMAT)}, "version": {VERSION},',
        f' "players": {json.dumps(data["players"], ensure_ascii=False)},',
    ]
    if "meta" in data:
        lines.append(f' "meta": {json.dumps(data["meta"], ensure_ascii=False)},')
    actions = [json.dumps(action_to_json(a), ensure_ascii=False) for a in record.actions]
    if not actions:
        lines.append(' "actions": []}')
    else:
        lines.append(' "actions": [')
        lines.append(",\n".join(f"  {a}" for a in actions) + "]}")
    return "\n".join(lines) + "\n"


def loads_record(data: str | bytes) -> GameRecord:
    """The record in JSON text (well formed; not checked for legality: see :func:`replay`).

    Raises:
        RecordError: the text is too large, not JSON, or not a well-formed v1 record.
    """
    return record_from_json(parse_json(data, limit=MAX_RECORD_BYTES))


def _read_bytes(path: str | os.PathLike[str]) -> bytes:
    """At most ``MAX_RECORD_BYTES`` of a regular file; every failure is a RecordError."""
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise RecordError(_C.UNREADABLE, f"cannot read {os.fsdecode(path)!r}: it is {kind}")
        with open(path, "rb") as handle:
            data = handle.read(MAX_RECORD_BYTES + 1)
    except OSError as error:
        why = error.strerror or str(error)
        raise RecordError(_C.UNREADABLE, f"cannot read {os.fsdecode(path)!r}: {why}") from None
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(
            _C.TOO_LARGE, f"the file is larger than the limit of {MAX_RECORD_BYTES:,} bytes"
        )
    return data


def read_record(path: str | os.PathLike[str]) -> GameRecord:
    """The record in a file (well formed; not checked for legality: see :func:`replay`).

    Raises:
        RecordError: ``UNREADABLE`` (missing, a directory, no permission ...), or what
            :func:`loads_record` raises.
    """
    return loads_record(_read_bytes(path))


def write_record(record: GameRecord, path: str | os.PathLike[str]) -> None:
    """Write the record to a file, all or nothing: a temporary file in the same directory is
    renamed over ``path`` once complete, so a failure leaves no partial file.

    Raises:
        OSError: the file cannot be written.
    """
    text = dumps_record(record).encode("utf-8")
    target = Path(path)
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with open(fd, "wb") as handle:
            handle.write(text)
        os.chmod(temp, 0o666 & ~_umask())  # mkstemp makes it private; a record is not
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    """The process's umask, read without changing it (Linux); else the usual 022."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o022


# --- Replay and validation ---------------------------------------------------------------------


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

    >>> from high_society import Pass, StatusCard
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
            as ``code``, a message naming the players), or ``ACTION_AFTER_END``.
    """
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
    def actions(self) -> int:
        """How many actions a valid record holds (0 for an invalid one)."""
        return len(self.record.actions) if self.record is not None else 0

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
                "code": e.code,
                "message": e.message,
            }
            return {"file": file, "valid": False, "error": error}
        outcome = self.result
        return {
            "file": file,
            "valid": True,
            "finished": self.finished,
            "actions": self.actions,
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

    >>> v = validate_record('{"format": "high-society", "version": 1, '
    ...     '"players": ["Ada", "Ben"], "actions": []}')
    >>> v.valid, v.error.code, v.error.path
    (False, 'BAD_PLAYERS', '$.players')
    """
    try:
        if isinstance(source, GameRecord):
            return Validation(record=source, state=replay(source))
        return _validate_json(parse_json(source, limit=MAX_RECORD_BYTES))
    except RecordError as error:
        return Validation(error=error)


def validate_file(path: str | os.PathLike[str]) -> Validation:
    """Check the record in a file and report instead of raising. Nothing is written.

    A missing or unreadable file is reported with code ``UNREADABLE``.
    """
    try:
        data = _read_bytes(path)
    except RecordError as error:
        return Validation(error=error)
    return validate_record(data)


# --- Writing as a game is played ---------------------------------------------------------------


class RecordWriter:
    """Records a game as a host plays it: each action is checked and applied, so the record
    is always a valid game.

    >>> from high_society import Pass, StatusCard
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


# --- Schemas -----------------------------------------------------------------------------------


def _schema(name: str) -> JSONObject:
    text = resources.files("high_society").joinpath("schemas", name).read_text("utf-8")
    value: JSONObject = json.loads(text)
    return value


def record_schema() -> JSONObject:
    """The JSON Schema (draft 2020-12) of a v1 record, shipped in the package.

    It sees the form of a record, not the legality of its actions; see the docs for what
    only the library checks (``3.0`` where an integer is due, seats beyond the players ...).

    >>> record_schema()["$id"]
    'urn:high-society:record:v1'
    """
    return _schema("record-v1.json")


def action_schema() -> JSONObject:
    """The JSON Schema (draft 2020-12) of one v1 action, shipped in the package.

    >>> action_schema()["$id"]
    'urn:high-society:action:v1'
    """
    return _schema("action-v1.json")

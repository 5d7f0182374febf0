"""Actions, states and results as plain JSON values, and back.

The public entry is :mod:`high_society.serial`, where the examples are.
"""

import re
from collections.abc import Sequence
from fractions import Fraction
from typing import assert_never

from high_society._fields import (
    fail,
    read_bool,
    read_int,
    read_list,
    read_money,
    read_name,
    read_object,
    read_status_card,
    read_status_cards,
)
from high_society._json import JSON, MAX_JSON_INT, MIN_JSON_INT, JSONObject, kind
from high_society._text import describe_int, short_repr
from high_society.actions import Action, Bid, Discard, Pass, Reveal
from high_society.cards import MAX_PLAYERS, MIN_PLAYERS, GameConfig, StatusCard
from high_society.errors import (
    HighSocietyError,
    IllegalActionError,
    InvalidConfigError,
    Reason,
    RecordCode,
    RecordError,
)
from high_society.invariants import state_problems
from high_society.scoring import GameResult
from high_society.state import GameState, Phase, PlayerState

__all__ = [
    "action_from_json",
    "action_to_json",
    "bid_json",
    "check_action",
    "error_code",
    "error_to_json",
    "result_to_json",
    "score_to_json",
    "state_from_json",
    "state_to_json",
]

_C = RecordCode


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

    Raises:
        RecordError: ``NOT_AN_ACTION``, ``WRONG_TYPE`` or ``BAD_NUMBER``: the action holds
            a field of the wrong type (``Bid(0, {1})``, a ``set``) or an integer beyond 64 bits.
    """
    check_action(action)
    match action:
        case Reveal(card):
            return {"type": "reveal", "card": card._value_}  # .value, faster
        case Bid(seat, cards):
            return bid_json(seat, _sorted(cards))
        case Pass(seat):
            return {"type": "pass", "player": seat}
        case Discard(seat, card):
            return {"type": "discard", "player": seat, "card": card._value_}
        case _:
            assert_never(action)


def bid_json(seat: int, cards: list[JSON]) -> JSONObject:
    """A bid's JSON object, its ``cards`` (ascending) given: :func:`action_to_json`'s form
    of a bid, for a caller that holds the cards sorted already (a payload's legal bids,
    many of them, built without making each bid)."""
    return {"type": "bid", "player": seat, "cards": cards}


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
            unknown ``type``), ``UNKNOWN_CARD``, ``DUPLICATE_CARD`` or ``BAD_NUMBER`` (an
            integer outside 64 bits).
    """
    if type(value) is not dict:
        fail(_C.WRONG_TYPE, f"an action must be an object, not {kind(value)}", path, index)
    if "type" not in value:
        fail(_C.MISSING_KEY, 'the key "type" is missing from the action', f"{path}.type", index)
    name = value["type"]
    keys = read_name(
        name,
        f"{path}.type",
        index,
        "an action type",
        _ACTION_KEYS,
        Reason.NOT_AN_ACTION,
        ", ".join(_ACTION_KEYS),
    )
    obj = read_object(value, path, index, keys, what=f"a {name} action")
    if name == "reveal":
        return Reveal(read_status_card(obj["card"], f"{path}.card", index))
    seat = read_int(obj["player"], f"{path}.player", index, "a seat")
    if not MIN_JSON_INT <= seat <= MAX_JSON_INT:  # JSON text never has one (parse_json)
        _read_json_int(seat, f"{path}.player", index, "a seat")
    if name == "pass":
        return Pass(seat)
    if name == "bid":
        cards = read_money(obj["cards"], f"{path}.cards", index)
        if cards and not MIN_JSON_INT <= min(cards) <= max(cards) <= MAX_JSON_INT:
            for i, card in enumerate(cards):
                _read_json_int(card, f"{path}.cards[{i}]", index, "a money card")
        return Bid(seat, frozenset(cards))
    return Discard(seat, read_status_card(obj["card"], f"{path}.card", index))


def _read_json_int(value: object, path: str, index: int | None, what: str) -> int:
    """An integer that JSON text can carry here: in the 64-bit range."""
    number = read_int(value, path, index, what)
    if not MIN_JSON_INT <= number <= MAX_JSON_INT:
        fail(_C.BAD_NUMBER, f"{what} {describe_int(number)} is outside 64 bits", path, index)
    return number


def check_action(action: object, path: str = "$", index: int | None = None) -> Action:
    """``action`` itself when it is an action that a record can hold: one of the four
    classes, with fields of the declared types (``int`` seats and money values in 64 bits,
    not ``bool``; bid cards a ``frozenset``; :class:`StatusCard` cards). Legality is not
    checked: ``Pass(7)`` is well formed.

    Raises:
        RecordError: ``NOT_AN_ACTION``, ``WRONG_TYPE`` or ``BAD_NUMBER``, at ``path``.
    """
    match action:
        case Reveal():
            _check_card(action.card, f"{path}.card", index)
        case Bid():
            _check_seat(action.seat, path, index)
            cards: object = action.cards
            if type(cards) is not frozenset:
                fail(
                    _C.WRONG_TYPE,
                    f"bid cards must be a frozenset of ints, not {short_repr(cards)}",
                    f"{path}.cards",
                    index,
                )
            for card in sorted(cards, key=_order):
                if type(card) is not int:
                    fail(
                        _C.WRONG_TYPE,
                        f"a money card must be an int, not {short_repr(card)}",
                        f"{path}.cards",
                        index,
                    )
                _read_json_int(card, f"{path}.cards", index, "a money card")
        case Pass():
            _check_seat(action.seat, path, index)
        case Discard():
            _check_seat(action.seat, path, index)
            _check_card(action.card, f"{path}.card", index)
        case _:
            fail(Reason.NOT_AN_ACTION, f"{short_repr(action)} is not an action", path, index)
    return action


def _order(card: object) -> tuple[int, int]:
    """Ints first, in order; anything else after, as it comes (it is refused anyway)."""
    return (0, card) if type(card) is int else (1, 0)


def _check_seat(seat: object, path: str, index: int | None) -> None:
    if type(seat) is not int:
        fail(
            _C.WRONG_TYPE, f"a seat must be an int, not {short_repr(seat)}", f"{path}.player", index
        )
    _read_json_int(seat, f"{path}.player", index, "a seat")


def _check_card(card: object, path: str, index: int | None) -> None:
    if type(card) is not StatusCard:
        fail(
            _C.WRONG_TYPE,
            f"a status card must be a StatusCard, not {short_repr(card)}",
            path,
            index,
        )


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

    The config must be within the bounds of :class:`~high_society.GameConfig` (at most
    :data:`~high_society.cards.MAX_MONEY_CARDS` money cards, values up to
    :data:`~high_society.cards.MAX_MONEY_VALUE`), so every bid table of the state is small.

    Raises:
        RecordError: the form is wrong (``WRONG_TYPE``, ``MISSING_KEY``, ``UNKNOWN_KEY``,
            ``UNKNOWN_CARD``, ``DUPLICATE_CARD``) or the state is inconsistent (``BAD_STATE``:
            a config that is not a game or is beyond the bounds, 3 to 5 players, a turn that
            is not a seat, an unknown phase, a broken invariant).
    """
    obj = read_object(value, path, None, _STATE_KEYS, what="a state")
    config_path = f"{path}.config"
    config_obj = read_object(obj["config"], config_path, None, ("money", "deck"), what="a config")
    money = read_money(config_obj["money"], f"{config_path}.money")
    deck = read_status_cards(config_obj["deck"], f"{config_path}.deck", None)
    try:
        config = GameConfig(money=tuple(money), deck=deck)
    except InvalidConfigError as error:
        raise RecordError(_C.BAD_STATE, str(error), path=config_path) from None
    players_path = f"{path}.players"
    items = read_list(obj["players"], players_path, None, "players")
    if not MIN_PLAYERS <= len(items) <= MAX_PLAYERS:
        fail(
            _C.BAD_STATE,
            f"{len(items):,} players: the game is for {MIN_PLAYERS} to {MAX_PLAYERS}",
            players_path,
            None,
        )
    turn = read_int(obj["turn"], f"{path}.turn", None, "turn")
    if not 0 <= turn < len(items):  # before the invariants, which would show a huge int
        fail(_C.BAD_STATE, f"turn {describe_int(turn)} is not a seat", f"{path}.turn", None)
    players = []
    for i, item in enumerate(items):
        p_path = f"{players_path}[{i}]"
        p = read_object(item, p_path, None, _PLAYER_KEYS, what="a player")
        players.append(
            PlayerState(
                hand=frozenset(read_money(p["hand"], f"{p_path}.hand")),
                table=frozenset(read_money(p["table"], f"{p_path}.table")),
                spent=frozenset(read_money(p["spent"], f"{p_path}.spent")),
                passed=read_bool(p["passed"], f"{p_path}.passed", None, "passed"),
                status_cards=read_status_cards(p["status_cards"], f"{p_path}.status_cards", None),
            )
        )
    phase = read_name(
        obj["phase"], f"{path}.phase", None, "a phase", _PHASES, _C.BAD_STATE, ", ".join(_PHASES)
    )
    state = GameState(
        config=config,
        players=tuple(players),
        deck=read_status_cards(obj["deck"], f"{path}.deck", None),
        phase=phase,
        turn=turn,
        auction=_optional_card(obj["auction"], f"{path}.auction"),
        removed=read_status_cards(obj["removed"], f"{path}.removed", None),
        ending_card=_optional_card(obj["ending_card"], f"{path}.ending_card"),
    )
    problems = state_problems(state)
    if problems:
        raise RecordError(
            _C.BAD_STATE, "no game reaches this state: " + "; ".join(problems), path=path
        )
    return state


def _optional_card(value: object, path: str) -> StatusCard | None:
    return None if value is None else read_status_card(value, path, None)


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

    >>> from high_society import GameConfig, StatusCard, apply, new_game, result
    >>> config = GameConfig(money=(1, 2), deck=(StatusCard.PRESTIGE,))
    >>> result_to_json(result(apply(new_game(3, config), Reveal(StatusCard.PRESTIGE))))
    {'scores': [0, 0, 0], 'money': [3, 3, 3], 'cast_out': [0, 1, 2], 'winners': []}
    """
    return {
        "scores": [score_to_json(s) for s in outcome.scores],
        "money": list(outcome.money),
        "cast_out": list(outcome.cast_out),
        "winners": list(outcome.winners),
    }


# --- Errors ------------------------------------------------------------------------------------


def error_code(error: HighSocietyError) -> str:
    """The stable code of a library error: the :class:`~high_society.Reason` of an
    :class:`~high_society.IllegalActionError`, the code of a
    :class:`~high_society.RecordError`, else the error class's name in capitals, without
    ``Error`` (``INVALID_CONFIG``, ``GAME_NOT_OVER``, ``NO_REVEAL_DUE``,
    ``NO_SEAT_TO_ACT``, ``OUT_OF_RANGE``, ``INVALID_SEAT``, ``ENCODING`` ...); ``ERROR``
    for the root class itself.

    >>> from high_society import GameNotOverError
    >>> error_code(GameNotOverError("not yet"))
    'GAME_NOT_OVER'
    """
    if isinstance(error, IllegalActionError):
        return error.reason.value
    if isinstance(error, RecordError):
        return error.code.value
    name = type(error).__name__.removesuffix("Error")
    if type(error) is HighSocietyError or not name:
        return "ERROR"
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).upper()


def error_to_json(error: HighSocietyError, names: Sequence[str] | None = None) -> JSONObject:
    """A library error as a JSON object: ``error`` (its class's name), ``code``
    (:func:`error_code`) and ``message``; a :class:`~high_society.RecordError` adds
    ``path`` and ``index``, an :class:`~high_society.IllegalActionError` adds ``seats``
    and, with ``names`` (the players' names in seat order), says them in its message.

    >>> from high_society import Pass, apply, new_game
    >>> try:
    ...     apply(new_game(3), Pass(0))
    ... except IllegalActionError as error:
    ...     print(error_to_json(error, ["Ada", "Ben", "Cy"]))
    {'error': 'IllegalActionError', 'code': 'REVEAL_DUE', 'message': 'Ada cannot pass: a status card must be revealed first', 'seats': [0]}

    Raises:
        RecordError: ``WRONG_TYPE``: ``error`` is not a library error.
    """  # noqa: E501 (a doctest's output is one line)
    if not isinstance(error, HighSocietyError):
        raise RecordError(_C.WRONG_TYPE, f"{short_repr(error)} is not a HighSocietyError")
    data: JSONObject = {"error": type(error).__name__, "code": error_code(error)}
    if isinstance(error, IllegalActionError):
        data["message"] = error.message if names is None else error.message_with_names(names)
        data["seats"] = list(error.seats)
    elif isinstance(error, RecordError):
        data["message"] = error.message
        data["path"] = error.path
        data["index"] = error.index
    else:
        data["message"] = str(error)
    return data

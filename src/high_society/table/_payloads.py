"""What a table sends: a seat's payload (its view, R13, and the public history, R14), a
spectator's (no hand), and a recorded game's steps as a viewer is shown them. Each is
built from what its receiver may know and nothing else; their shapes are
:mod:`high_society.wire`'s (``SEAT_PAYLOAD``, ``SPECTATOR_PAYLOAD``, ``REPLAY_STEP``).
"""

import json
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence

import attrs

from high_society._bidtable import fewest_cards
from high_society._convert import bid_json
from high_society._json import JSON, JSONObject
from high_society._text import short_repr
from high_society.actions import Action, Discard, Pass, Reveal
from high_society.bots import Seen
from high_society.cards import MAX_PLAYERS, MIN_PLAYERS
from high_society.errors import InvalidConfigError, OutOfRangeError
from high_society.host import Step
from high_society.observation import view, view_to_json
from high_society.rules import CHANCE, LegalActions, apply, min_bid_total, new_game, to_act
from high_society.scoring import result
from high_society.serial import action_to_json, result_to_json, score_to_json
from high_society.state import GameState, Phase
from high_society.table._seats import Seat
from high_society.text import narrate

Cards = tuple[int, ...]
#: An encoder of JSON values as :func:`dumps_json` tells them.
Dumps = Callable[[JSON], bytes]

__all__ = [
    "BID_TEXTS",
    "BidTexts",
    "Public",
    "built_payload",
    "dumps_json",
    "public_view",
    "replay_steps",
    "seat_payload",
    "sent",
    "sent_text",
    "spectator_payload",
    "to_act_json",
]


def seat_payload(seen: Seen, seats: Sequence[Seat], since: int = 0) -> JSONObject:
    """What a server sends one seat, built from what that seat knows and nothing else: its
    view (R13) and the public history (R14), both in ``seen``, and who sits where.

    The keys:

    - ``seat``, ``players`` (``{"name", "bot"}`` per seat), ``number`` (actions so far);
    - ``view``: :func:`~high_society.observation.view_to_json` of the seat's view: its own
      hand, and of every player the cards face up, whether they passed, how many money
      cards they hold and their status cards; the card up for auction, the deck's
      contents in canonical order, the cards out of the game;
    - ``to_act`` (a seat, ``"chance"`` or ``null``), ``highest_bidder`` (a seat or
      ``null``), ``min_bid_total``, ``revealed`` (the cards turned so far, in order);
    - ``legal``: ``null`` unless this seat must act; else ``count`` (how many legal
      actions), ``pass`` (a ``Pass`` is legal), ``bids`` (one entry per face-up total the
      seat can reach: ``{"total", "cards"}``, ``cards`` the fewest that reach it) and
      ``discards`` (the luxury cards it may give up for Faux Pas);
    - ``since``, ``history`` (the actions from number ``since`` on) and ``log`` (the same
      actions told in words, ``{"number", "text"}``);
    - ``result``: ``null`` until the game is over; then scores, money, cast-out seats,
      winners, and each seat's ``breakdown`` (R10-R12).

    Raises:
        OutOfRangeError: ``since`` is not 0 to the length of the history.
        InvalidConfigError: ``seats`` does not have one seat per player of the view.
    """
    history = seen.history
    if type(since) is not int or not 0 <= since <= len(history):
        raise OutOfRangeError(f"since must be 0 to {len(history)}, not {short_repr(since)}")
    if len(seats) != len(seen.view.players):
        raise InvalidConfigError(f"{len(seats)} seats for a game of {len(seen.view.players)}")
    return built_payload(seen, seats, since, Public.of(history, tuple(s.name for s in seats)))


@attrs.frozen
class Public:
    """What every seat's payload takes from the public history (R14), worked out once per
    history: the state it leads to, the cards revealed, each action in JSON and told in
    words (with its number), and how many rounds have opened (what the narration of
    later actions needs to number its rounds)."""

    state: GameState
    number: int
    revealed: tuple[str, ...]
    log: tuple[tuple[int, str], ...]
    rounds: int
    history: tuple[Action, ...] = ()

    @classmethod
    def of(
        cls, history: Sequence[Action], names: tuple[str, ...], steps: Sequence[Step] = ()
    ) -> "Public":
        """``steps``: the history replayed, if the caller has it (a table does)."""
        if len(steps) != len(history):
            steps = list(_steps(len(names), history))
        return Public(new_game(len(names)), 0, (), (), 0, ()).extend(steps, names)

    @classmethod
    def now(
        cls,
        kept: "Public | None",
        history: Sequence[Action],
        names: tuple[str, ...],
        steps: Sequence[Step],
    ) -> "Public":
        """The public part at the end of ``history`` (``steps`` its replay), from ``kept``,
        the one worked out last, by the actions played since; made anew when ``kept`` is
        none or later."""
        number = len(history)
        if kept is not None and kept.number == number:
            return kept
        if kept is None or kept.number > number:
            return cls.of(history, names, steps)
        return kept.extend(steps[kept.number :], names)

    def extend(self, steps: Sequence[Step], names: tuple[str, ...]) -> "Public":
        """This public part with ``steps``, the actions played since, added: only the new
        actions are told (after the reveals that opened the rounds, which number them)."""
        if not steps:
            return self
        first = self.number
        numbers = {id(step): first + i for i, step in enumerate(steps)}
        log = [
            (numbers[id(step)], line.strip())
            for line, step in narrate(steps, names, rounds_before=self.rounds)
            if line.strip()
        ]
        reveals = [(s, s.action) for s in steps if isinstance(s.action, Reveal)]
        opened = sum(1 for s, _ in reveals if s.after.phase is not Phase.OVER)
        return Public(
            steps[-1].after,
            first + len(steps),
            (*self.revealed, *(action.card._value_ for _, action in reveals)),
            (*self.log, *log),
            self.rounds + opened,
            (*self.history, *(step.action for step in steps)),
        )


def built_payload(
    seen: Seen, seats: Sequence[Seat], since: int, public: Public, clock: "JSONObject | None" = None
) -> JSONObject:
    """:func:`seat_payload`, ``public`` being ``Public.of(seen.history, names)``."""
    return sent(view_to_json(seen.view), seen.view.seat, seats, since, public, clock)


def sent(
    shown: JSONObject,
    seat: int | None,
    seats: Sequence[Seat],
    since: int,
    public: Public,
    clock: "JSONObject | None" = None,
) -> JSONObject:
    """A seat's payload (``seat``) or a spectator's (``None``), ``shown`` the view, with the
    table's ``clock`` (``None``: none)."""
    state = public.state
    acting = _acting(state, seat)
    legal = None if acting is None else _legal(state, acting)
    return {
        **_before_legal(shown, seat, seats, public),
        "legal": legal,
        **_after_legal(since, public, clock),
    }


def sent_text(
    shown: JSONObject,
    seat: int | None,
    seats: Sequence[Seat],
    since: int,
    public: Public,
    clock: "JSONObject | None" = None,
    dumps: "Dumps | None" = None,
) -> bytes:
    """:func:`sent` as compact JSON text in UTF-8, the same bytes as :func:`dumps_json` of
    it, made faster: the legal bids, most of a payload, are told from text kept per seat
    and hand, the rest by ``dumps`` (default :func:`dumps_json`)."""
    dumps = dumps or dumps_json
    state = public.state
    acting = _acting(state, seat)
    legal = b"null" if acting is None else _legal_text(state, acting, dumps)
    head = dumps(_before_legal(shown, seat, seats, public))
    tail = dumps(_after_legal(since, public, clock))
    return b'%b,"legal":%b,%b' % (head[:-1], legal, tail[1:])


def dumps_json(value: JSON) -> bytes:
    """Compact JSON text in UTF-8, characters beyond ASCII as they are: what a server sends
    (``json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()``)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def _acting(state: GameState, seat: int | None) -> int | None:
    """``seat`` if it must act in ``state``, else ``None`` (a spectator never acts)."""
    return seat if seat is not None and to_act(state) == seat else None


def _before_legal(
    shown: JSONObject, seat: int | None, seats: Sequence[Seat], public: Public
) -> JSONObject:
    """A payload's keys before ``legal``, in order."""
    state = public.state
    return {
        "seat": seat,
        "players": [{"name": s.name, "bot": s.bot} for s in seats],
        "number": public.number,
        "view": shown,
        "to_act": to_act_json(state),
        "highest_bidder": _highest_bidder(state),
        "min_bid_total": min_bid_total(state),
        "revealed": [*public.revealed],
    }


def _after_legal(since: int, public: Public, clock: "JSONObject | None") -> JSONObject:
    """A payload's keys after ``legal``, in order."""
    state = public.state
    return {
        "since": since,
        "history": [action_to_json(action) for action in public.history[since:]],
        "log": [
            {"number": number, "text": text}
            for number, text in public.log[bisect_left(public.log, (since,)) :]
        ],
        "result": _result(state) if state.is_over else None,
        "clock": clock,
    }


def spectator_payload(
    history: Sequence[Action], seats: Sequence[Seat], since: int = 0
) -> JSONObject:
    """What a spectator is sent: what every seat sees alike (R13's public part) and the
    public history (R14), and no hand: the keys of :func:`seat_payload`, with ``seat``
    ``null``, the view's ``seat`` and ``hand`` ``null``, and ``legal`` ``null``.

    >>> from high_society import Reveal, StatusCard
    >>> seen = spectator_payload([Reveal(StatusCard.LUXURY_4)], [Seat("A"), Seat("B"), Seat("C")])
    >>> seen["seat"], seen["view"]["hand"], seen["view"]["players"][0]["hand_size"]
    (None, None, 11)

    Raises:
        OutOfRangeError: ``since`` is not 0 to the length of the history.
        InvalidConfigError: ``seats`` is not one seat per player (3 to 5).
        IllegalActionError: ``history`` is not a game's history.
    """
    if type(since) is not int or not 0 <= since <= len(history):
        raise OutOfRangeError(f"since must be 0 to {len(history)}, not {short_repr(since)}")
    names = tuple(s.name for s in seats)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise InvalidConfigError(f"{len(names)} seats: a game has 3 to 5")
    public = Public.of(history, names)
    return sent(public_view(public.state), None, seats, since, public)


def to_act_json(state: GameState) -> int | str | None:
    """Who acts in ``state`` as the wire says it (the payload's ``to_act``): a
    seat, ``"chance"`` (a card is to be revealed) or ``None`` (the game is over)."""
    actor = to_act(state)
    return "chance" if actor is CHANCE else actor


def _highest_bidder(state: GameState) -> int | None:
    highest = state.highest_bid
    return next((i for i, p in enumerate(state.players) if highest and p.bid == highest), None)


def replay_steps(history: Sequence[Action], seats: Sequence[Seat]) -> list[JSONObject]:
    """What a viewer of a recorded game is shown after each of its actions, as a spectator
    sees the table (R13's public part, no hand): for each action its ``number``, the
    ``action`` (as recorded), the ``log`` lines that tell it, and after it the ``view``,
    ``to_act``, ``highest_bidder`` and ``min_bid_total`` (the keys of
    :func:`spectator_payload`). The result at the end is the last spectator payload's.

    >>> from high_society import Bid, Reveal, StatusCard
    >>> steps = replay_steps(
    ...     [Reveal(StatusCard.LUXURY_4), Bid(0, frozenset({3}))], [Seat("A"), Seat("B"), Seat("C")]
    ... )
    >>> [(step["number"], step["log"], step["to_act"]) for step in steps]
    [(0, ['Round 1: Luxury 4, A starts'], 0), (1, ['A bids 3 (3 face up)'], 1)]

    Raises:
        InvalidConfigError: ``seats`` is not one seat per player (3 to 5).
        IllegalActionError: ``history`` is not a game's history.
    """
    names = tuple(s.name for s in seats)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise InvalidConfigError(f"{len(names)} seats: a game has 3 to 5")
    steps = list(_steps(len(names), history))
    told: dict[int, list[JSON]] = {}
    for number, text in Public.of(history, names, steps).log:
        told.setdefault(number, []).append(text)
    shown: list[JSONObject] = []
    for number, step in enumerate(steps):
        shown.append(
            {
                "number": number,
                "action": action_to_json(step.action),
                "log": told.get(number, []),
                "view": public_view(step.after),
                "to_act": to_act_json(step.after),
                "highest_bidder": _highest_bidder(step.after),
                "min_bid_total": min_bid_total(step.after),
            }
        )
    return shown


def public_view(state: GameState) -> JSONObject:
    """The view every seat shares (R13), no hand: a seat's view without its seat and hand."""
    shown = view_to_json(view(state, 0))
    shown["seat"] = None
    shown["hand"] = None
    return shown


def _steps(players: int, history: Sequence[Action]) -> Iterator[Step]:
    """The public history replayed from the deal (R14), step by step."""
    state = new_game(players)
    for action in history:
        after = apply(state, action)
        yield Step(state, action, after)
        state = after


@attrs.frozen
class _Legal:
    """What a payload's ``legal`` says, before it is told: ``passing`` (the ``Pass``, in
    JSON, or ``None``), the ``discards`` in JSON, and the bids: every face-up total the
    seat can reach from its ``face_up`` bid, the fewest cards that reach it
    (``fewest[start:]`` of its ``hand``'s table, each ``(added, cards)``)."""

    count: int
    passing: "JSONObject | None"
    discards: list[JSON]
    hand: frozenset[int]
    face_up: int
    fewest: tuple[tuple[int, Cards], ...] = ()
    start: int = 0


def _legal_of(state: GameState, seat: int) -> _Legal:
    legal = LegalActions(state)
    player = state.players[seat]
    if state.phase is Phase.DISCARD:
        discards: list[JSON] = [action_to_json(a) for a in legal if isinstance(a, Discard)]
        return _Legal(len(legal), None, discards, player.hand, player.bid)
    passing = Pass(seat)
    told = action_to_json(passing) if passing in legal else None
    legal_bids = legal.bids()
    if not legal_bids:
        return _Legal(len(legal), told, [], player.hand, player.bid)
    # The legal bids are every subset of the hand adding at least the first one's total.
    fewest = fewest_cards(player.hand)
    start = bisect_left(fewest, (legal_bids[0].total,))
    return _Legal(len(legal), told, [], player.hand, player.bid, fewest, start)


def _legal(state: GameState, seat: int) -> JSONObject:
    """The legal actions of ``seat``, each as it is sent (:data:`~high_society.wire.LEGAL`)."""
    legal = _legal_of(state, seat)
    return {
        "count": legal.count,
        "pass": legal.passing,
        "bids": [_bid_entry(seat, legal.face_up, *bid) for bid in legal.fewest[legal.start :]],
        "discards": legal.discards,
    }


def _legal_text(state: GameState, seat: int, dumps: "Dumps") -> bytes:
    """:func:`_legal` as compact JSON text, its bids from :data:`BID_TEXTS`."""
    legal = _legal_of(state, seat)
    head = dumps({"count": legal.count, "pass": legal.passing})
    told: Sequence[bytes] = ()
    if legal.fewest:  # else no bid is legal
        told = BID_TEXTS.entries(seat, legal.face_up, legal.hand, legal.fewest)[legal.start :]
    discards = dumps(legal.discards)
    return b'%b,"bids":[%b],"discards":%b}' % (head[:-1], b",".join(told), discards)


def _bid_entry(seat: int, face_up: int, added: int, cards: Cards) -> JSONObject:
    """One entry of ``legal.bids``: the total face up after it, and the bid as it is sent."""
    return {"total": face_up + added, "action": bid_json(seat, [*cards])}


class BidTexts:
    """The text of each entry of a payload's legal bids (:func:`_bid_entry`), kept by seat,
    face-up bid and hand, and made from the text of each bid's card list, kept by cards.
    The bids are most of a payload, and a seat is often sent the same ones again: each
    round opens at a face-up bid of 0, mostly with the hand of the round before. An entry
    is told by formatting, not by an encoder: ``json.dumps`` of each of a whole hand's
    hundred bids costs about twelve times as much as formatting them from kept card lists
    (``tests/test_table_payloads.py`` and ``property_tests/test_payload_text.py`` hold the
    text to :func:`dumps_json` of the entry). At most ``limit`` hands' entries and
    ``8 * limit`` card lists are kept (a few MiB at the default; the standard game has
    2,048 card lists): each is cleared when full."""

    def __init__(self, limit: int = 512) -> None:
        self.limit = limit
        self._entries: dict[tuple[int, int, frozenset[int]], tuple[bytes, ...]] = {}
        self._cards: dict[Cards, bytes] = {}

    def __len__(self) -> int:
        """How many texts of entries and of card lists are kept."""
        return len(self._entries) + len(self._cards)

    def clear(self) -> None:
        """Forget every text kept."""
        self._entries.clear()
        self._cards.clear()

    def entries(
        self, seat: int, face_up: int, hand: frozenset[int], fewest: Sequence[tuple[int, Cards]]
    ) -> tuple[bytes, ...]:
        """The text of :func:`_bid_entry` for each of ``fewest``, ``hand``'s fewest cards."""
        key = (seat, face_up, hand)
        found = self._entries.get(key)
        if found is None:
            found = tuple(
                _ENTRY_TEXT % (face_up + added, seat, self._card_list(cards))
                for added, cards in fewest
            )
            if len(self._entries) >= self.limit:
                self._entries.clear()
            self._entries[key] = found
        return found

    def _card_list(self, cards: Cards) -> bytes:
        """The items of ``cards``' JSON list: the money values, ascending."""
        found = self._cards.get(cards)
        if found is None:
            found = b",".join([b"%d" % card for card in cards])
            if len(self._cards) >= 8 * self.limit:
                self._cards.clear()
            self._cards[cards] = found
        return found


def _entry_text() -> bytes:
    """:func:`_bid_entry`'s text with its total, seat and card list left to fill in
    (``%d``, ``%d``, ``%b``): made from the entry itself, so its shape is stated once."""
    told = dumps_json(_bid_entry(-2, -1, 0, (-3,))).replace(b"%", b"%%")
    return told.replace(b":-1,", b":%d,").replace(b":-2,", b":%d,").replace(b"[-3]", b"[%b]")


_ENTRY_TEXT = _entry_text()

#: The texts every table's payloads are told from.
BID_TEXTS = BidTexts()


def _result(state: GameState) -> JSONObject:
    outcome = result(state)
    data = result_to_json(outcome)
    data["breakdowns"] = [
        {
            "luxury_cards": [card.value for card in b.luxury_cards],
            "luxury_sum": b.luxury_sum,
            "passe": b.passe,
            "prestige": b.prestige,
            "scandale": b.scandale,
            "holds_faux_pas": b.holds_faux_pas,
            "status": score_to_json(b.status),
            "explain": b.explain(),
        }
        for b in outcome.breakdowns
    ]
    return data

"""The rounds a history is made of, and what is left to explain going backward (internal).

A position of the backward search says which rounds are still to take back, who took the
latest of them (it starts the round after), and what each seat owes: one *token* per
payment it made after that time (its cards are given out to the tokens at the end, by
``_settle``). Counting the rounds left gives who took and who started how many of them.
"""

from typing import NamedTuple

import attrs

from high_society.cards import StatusCard

#: The kinds of normal rounds: a luxury card kept, a prestige card, the luxury card that
#: went out of the game with Faux Pas.
LUXURY, PRESTIGE, LOST_LUXURY = "luxury", "prestige", "lost luxury"
#: The disgrace cards, in the order ``Rounds`` counts them.
DISGRACE = (StatusCard.FAUX_PAS, StatusCard.PASSE, StatusCard.SCANDALE)
#: Per seat, its luxury and its prestige rounds left; whether the lost luxury card's round
#: is left; the taker of each disgrace card (Faux Pas, Passé, Scandale) whose round is
#: left, else -1. Plain ints: positions are hashed often.
Rounds = tuple[tuple[int, ...], tuple[int, ...], bool, tuple[int, int, int]]
Tokens = tuple[tuple[int, ...], ...]
#: A token ``j >= 0`` is a payment in the ``j``-th disgrace round taken back; ``OPEN - v`` a
#: normal auction's payment, of a total above ``v`` (``OPEN``: any non-empty set).
OPEN = -1


@attrs.frozen
class PastRound:
    """One completed round of a history found by ``find_history``, in time order.

    Money is given as bit masks over the positions of ``config.money``.

    Attributes:
        kind: ``"luxury"``, ``"prestige"``, ``"lost luxury"`` or the disgrace card.
        starter: the seat that started the round.
        taker: the seat that won the card or took the disgrace card.
        paid: what each seat paid in this round.
        lap: in a disgrace auction, whether every seat acted before the pass.
        partial: in a disgrace auction of one lap, the first bid of each seat from the
            starter up to the taker (0 for the others).
        taker_bid: in a disgrace auction of one lap, the taker's bid (taken back).
        lower: in a normal auction the winner paid as the last seat to act, the seat and
            the card it bid first.
        slot: while the search runs, where the round's payments are settled: its place
            among the winner's tokens, or the disgrace round's number; -1 once filled in
            (and in a round won free).
    """

    kind: str | StatusCard
    starter: int
    taker: int
    paid: tuple[int, ...]
    lap: bool = False
    partial: tuple[int, ...] = ()
    taker_bid: int = 0
    lower: tuple[int, int] | None = None
    slot: int = -1


class Deferred(NamedTuple):
    """A disgrace round taken back, whose payments ``settle`` decides: the card's place in
    :data:`DISGRACE`, starter, taker, lap, and ``later``, how many of the taker's tokens
    came after it (in a lap the taker bid from the cards it never spent and those it paid
    in those payments)."""

    card: int
    starter: int
    taker: int
    lap: bool
    later: int


class Lower(NamedTuple):
    """A normal auction whose winner acted last, paying above the bid of a seat that passed
    then: ``place``, the payment's place among the winner's tokens; ``later``, per seat, how
    many of its tokens came after the round; ``least``, the lowest card another seat surely
    held then (``surely_by`` held it), above the money's top if none."""

    winner: int
    place: int
    later: tuple[int, ...]
    least: int
    surely_by: int


class Position(NamedTuple):
    """What is left to explain, going backward in time: the rounds left, ``s_next`` (the
    taker of the latest of them), each seat's tokens (latest first), the disgrace rounds
    taken back (in the order they were) and the normal auctions paid above a lower bid."""

    rounds: Rounds
    s_next: int
    tokens: Tokens
    deferred: tuple[Deferred, ...] = ()
    lowers: tuple[Lower, ...] = ()


def rounds_of(owned: tuple[tuple[StatusCard, ...], ...], lost_by: int | None) -> Rounds:
    """The rounds the seats' status cards (``owned``) and the cards out of the game took:
    Faux Pas out of the game is ``lost_by``'s, with its lost luxury card."""
    n = len(owned)
    lux, prestige, disgrace = [0] * n, [0] * n, [-1, -1, -1]
    for seat, cards in enumerate(owned):
        for card in cards:
            if card.is_luxury:
                lux[seat] += 1
            elif card is StatusCard.PRESTIGE:
                prestige[seat] += 1
            else:
                disgrace[DISGRACE.index(card)] = seat
    if lost_by is not None:
        disgrace[0] = lost_by
    return tuple(lux), tuple(prestige), lost_by is not None, (disgrace[0], disgrace[1], disgrace[2])


def chain(n: int, s: int, p: int, lap: bool) -> tuple[list[int], list[int]]:
    """A disgrace round's payers, started by ``s`` and taken by ``p``, in the order their
    totals rise, and the seats that bid twice, in order (in a lap: the seats from ``s`` up
    to ``p``; none with no lap, where those are the payers)."""
    first = [(s + i) % n for i in range((p - s) % n)]
    if lap:
        return [(p + 1 + i) % n for i in range(n - 1)], first
    return first, []


def normal_left(rounds: Rounds, lost_by: int | None) -> list[int]:
    """How many normal rounds (a luxury card, a prestige card, the luxury card out of the
    game) each seat takes among ``rounds``."""
    lux, prestige, lost, _ = rounds
    won = [x + y for x, y in zip(lux, prestige, strict=True)]
    if lost and lost_by is not None:
        won[lost_by] += 1
    return won


def takers(rounds: Rounds, lost_by: int | None) -> list[int]:
    """How many of ``rounds`` each seat takes."""
    count = normal_left(rounds, lost_by)
    for seat in rounds[3]:
        if seat >= 0:
            count[seat] += 1
    return count


def starts(took: list[int], s_next: int) -> list[int]:
    """How many of the rounds left each seat started, ``took`` how many each took: seat 0
    the first, then the taker of each round the next (R3, R6, R7), but for the latest,
    taken by ``s_next``."""
    count = list(took)
    if any(count):
        count[s_next] -= 1
        count[0] += 1
    return count


def paid_wins(won: list[int], started: list[int]) -> list[int]:
    """How many of the normal rounds left each seat (``won``) paid for at least: it won
    the others free, each started by the seat after it (``started``, R6)."""
    n = len(won)
    return [max(0, won[w] - started[(w + 1) % n]) for w in range(n)]


def canonical(at: Position) -> Position:
    """``at`` with each seat's tokens in a canonical order where their order does not
    matter: between two places that a lap it took or a lower bid refers to, every token
    may take the same cards (``settle``), so only how many of each kind matters there. For
    the memos of refuted positions only: a history follows the real order."""
    tokens = []
    for seat, owed in enumerate(at.tokens):
        if len(owed) < 2:
            tokens.append(owed)
            continue
        cuts = {later.later for later in at.deferred if later.taker == seat}
        for lower in at.lowers:
            cuts.add(lower.later[seat])
            if lower.winner == seat:
                cuts.update((lower.place, lower.place + 1))
        cuts.add(len(owed))
        out: list[int] = []
        for cut in sorted(cuts):
            if cut > len(out):
                out += sorted(owed[len(out) : cut])
        tokens.append(tuple(out))
    return at._replace(tokens=tuple(tokens))

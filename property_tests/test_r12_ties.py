"""R12's tie-breaks, each one deciding: finished games built so that two contenders tie up
to a chosen step (status, then money, then the single most valuable luxury card, or all
three so that they share the win), beside seats that are cast out (R10) whatever their
status. The ranking is checked against R12 as the rulebook words it ("the highest status
... on a tie, the most money left ... then the single most valuable luxury card (none
counts as 0). Players still tied share the win"), written here as a sequence of filters,
not as the engine's sort key; the statuses against R11, computed here too."""

import functools
import itertools
from collections.abc import Callable
from fractions import Fraction

import attrs
import pytest
from hypothesis import assume, event, given
from hypothesis import strategies as st

from high_society import (
    STANDARD,
    STANDARD_MONEY,
    GameState,
    Phase,
    StatusCard,
    new_game,
    result,
    sort_cards,
)

STEPS = ("status", "money", "luxury", "shared")


def r11(cards: list[StatusCard]) -> Fraction:
    """R11 in its order: luxury sum, minus 5 with Passé, x2 per prestige, halved with
    Scandale, exact."""
    points = sum(c.luxury_value for c in cards)
    if StatusCard.PASSE in cards:
        points -= 5
    points *= 2 ** cards.count(StatusCard.PRESTIGE)
    return Fraction(points, 2) if StatusCard.SCANDALE in cards else Fraction(points)


def r12(state: GameState) -> tuple[list[int], str | None]:
    """The winners as R10 and R12 read, and the step that left one seat (``None`` when the
    field was one seat or none before any step; "shared" when the steps leave several)."""
    money = [sum(p.hand) + sum(p.table) for p in state.players]
    poorest = min(money)
    field = [seat for seat, m in enumerate(money) if m != poorest]  # R10: cast out
    if len(field) <= 1:
        return field, None
    steps: dict[str, Callable[[int], Fraction]] = {
        "status": lambda seat: r11(list(state.players[seat].status_cards)),
        "money": lambda seat: Fraction(money[seat]),
        # "the single most valuable luxury card (none counts as 0)"
        "luxury": lambda seat: Fraction(
            max([c.luxury_value for c in state.players[seat].status_cards if c.is_luxury] or [0])
        ),
    }
    for name, value in steps.items():
        best = max(value(seat) for seat in field)
        field = [seat for seat in field if value(seat) == best]
        if len(field) == 1:
            return field, name
    return field, "shared"


def _subsets_with_sum(pool: list[int], total: int) -> list[tuple[int, ...]]:
    return [
        subset
        for size in range(len(pool) + 1)
        for subset in itertools.combinations(pool, size)
        if sum(subset) == total
    ]


#: Money left, as hands: several hands per total (1 + 4 = 2 + 3), so equal money is often
#: made of different cards.
_HANDS = st.lists(st.sampled_from(STANDARD_MONEY), min_size=1, max_size=4, unique=True)


@st.composite
def tie_at(draw: st.DrawFn, step: str) -> GameState:
    """A finished game whose two contenders (the best seats not cast out) tie on every
    R12 step before ``step`` and differ at ``step`` (or share the win)."""
    players = draw(st.integers(3, 5))
    a, b = draw(st.permutations(range(players)))[:2]
    pool = list(range(1, 11))
    prestige = draw(st.integers(0, 1))  # each contender's; three cards in the deck
    cards: dict[int, list[StatusCard]] = {a: [], b: []}
    if step == "shared":
        # Equal top luxury card: neither owns one (each luxury card is unique). Scandale
        # halves 0 to 0, so it may sit with either.
        if draw(st.booleans()):
            cards[draw(st.sampled_from((a, b)))].append(StatusCard.SCANDALE)
    else:
        luxury_a = list(draw(st.lists(st.sampled_from(pool), min_size=1, max_size=4, unique=True)))
        rest = [v for v in pool if v not in luxury_a]
        # b's luxury sum, so that the statuses tie (the same prestige): the same, or 5 less
        # when a holds Passé, or half when a holds Scandale (a's sum even).
        shift = draw(st.sampled_from(("same", "passe", "scandale")))
        target = {
            "same": sum(luxury_a),
            "passe": sum(luxury_a) - 5,
            "scandale": sum(luxury_a) // 2 if sum(luxury_a) % 2 == 0 else -99,
        }[shift]
        if step == "status":
            target += draw(st.sampled_from((-2, -1, 1, 3)))
        options = [s for s in _subsets_with_sum(rest, target) if len(s) <= 4] if target >= 0 else []
        luxury_b = list(draw(st.sampled_from(options))) if options else None
        if luxury_b is None:  # no such cards left
            assume(step == "status")  # b owns none, a's status is above it
            luxury_b = []
            shift = "same"
        cards[a] += [StatusCard.luxury(v) for v in luxury_a]
        cards[b] += [StatusCard.luxury(v) for v in luxury_b]
        if shift == "passe":
            cards[a].append(StatusCard.PASSE)
        elif shift == "scandale":
            cards[a].append(StatusCard.SCANDALE)
        pool = [v for v in rest if v not in luxury_b]
    for seat in (a, b):
        cards[seat] += [StatusCard.PRESTIGE] * prestige
    # Money: equal up to the money step.
    hand_a = frozenset(draw(_HANDS))
    if step in ("status", "luxury", "shared"):
        hand_b = frozenset(
            draw(st.sampled_from([h for h in _hand_options() if sum(h) == sum(hand_a)]))
        )
    else:
        hand_b = frozenset(draw(_HANDS.filter(lambda h: sum(h) != sum(hand_a))))
    hands = {a: hand_a, b: hand_b}
    # The others: whatever is left, dealt out; a seat that would outrank the contenders is
    # cast out with the poorest (no money), and the first other seat is always poorest.
    top = max(r11(cards[a]), r11(cards[b]))
    left = [StatusCard.luxury(v) for v in pool] + [StatusCard.PRESTIGE] * (3 - 2 * prestige)
    left += [c for c in (StatusCard.PASSE, StatusCard.SCANDALE) if c not in cards[a] + cards[b]]
    faux_pas = True
    for n, seat in enumerate(s for s in range(players) if s not in (a, b)):
        taken = [draw(st.integers(0, players - 1)) == 0 for _ in left]
        mine = [c for c, t in zip(left, taken, strict=True) if t]
        left = [c for c, t in zip(left, taken, strict=True) if not t]
        if not any(c.is_luxury for c in mine) and faux_pas and draw(st.booleans()):
            mine.append(StatusCard.FAUX_PAS)  # pending at the end: it does not count (R8)
            faux_pas = False
        cards[seat] = mine
        rich = n > 0 and r11(mine) < top and draw(st.booleans())
        hands[seat] = frozenset(draw(_HANDS)) if rich else frozenset()
    return _finished([cards[s] for s in range(players)], [hands[s] for s in range(players)])


@functools.cache
def _hand_options() -> list[tuple[int, ...]]:
    return [h for size in range(1, 5) for h in itertools.combinations(STANDARD_MONEY, size)]


def _finished(owned: list[list[StatusCard]], hands: list[frozenset[int]]) -> GameState:
    start = new_game(len(owned), STANDARD)
    players = tuple(
        attrs.evolve(p, hand=h, spent=frozenset(STANDARD_MONEY) - h, status_cards=sort_cards(c))
        for p, h, c in zip(start.players, hands, owned, strict=True)
    )
    owned_dark = sum(1 for c in itertools.chain(*owned) if c.is_dark_green)
    ending = StatusCard.SCANDALE if owned_dark < 3 else StatusCard.PRESTIGE
    return attrs.evolve(start, players=players, phase=Phase.OVER, ending_card=ending)


@pytest.mark.parametrize("step", STEPS)
@given(data=st.data())
def test_R12_each_tie_break_decides_as_the_rulebook_words_it(
    step: str, data: st.DataObject
) -> None:
    state = data.draw(tie_at(step), label="game")
    expected, decided_by = r12(state)
    event(f"decided by {decided_by}")
    assert decided_by == step, "the generator built the tie it meant to"
    outcome = result(state)
    assert list(outcome.scores) == [r11(list(p.status_cards)) for p in state.players]
    assert list(outcome.winners) == expected

"""The necessary conditions of the history search (``high_society._reachability._conditions``)
each bite: for each, a state the search refutes within a small amount of work, which it
leaves undecided within the same work without that condition (each condition's argument is
in its docstring). Two overlap where the search starts, and are also checked on positions
built by hand."""

from collections.abc import Callable, Iterator

import pytest

from high_society import STANDARD, GameState
from high_society._reachability import Undecided, clear_cache, find_history
from high_society._reachability import _conditions as conditions
from high_society._reachability._money import Spent
from high_society._reachability._rounds import Deferred, Position
from tests.builders import FAUX_PAS, PASSE, PRESTIGE, SCANDALE, L
from tests.test_history import seat_0_spent_nothing, seat_2_took_nothing, seat_4_took_nothing
from verification.history_limits import between_rounds

EVERYTHING = frozenset(STANDARD.money)


def decided(state: GameState, limit: int) -> bool:
    """Whether the search refutes ``state`` within ``limit`` units of work (the other
    answers fail: every state here is unreachable)."""
    clear_cache()
    try:
        assert find_history(state, limit) is None
    except Undecided:
        return False
    return True


@pytest.fixture
def without(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., None]]:
    """``without(name, ...)``: the search with those conditions never refuting."""

    def drop(*names: str) -> None:
        for name in names:
            monkeypatch.setattr(conditions, name, lambda *args: False)

    yield drop
    clear_cache()


def _over_budget() -> GameState:
    # Seat 1 spent nothing: as soon as a round taken back would have it pay (a card it won
    # not free, a disgrace round it bid in), its budget refutes the position. Seat 3 spent
    # all but the 3 and the 6, and took only Passé. No order fits.
    owned = [[L(7), SCANDALE], [L(6), PRESTIGE], [L(1), L(8)], [PASSE], [L(3), L(4)]]
    spent = [EVERYTHING, frozenset(), EVERYTHING, EVERYTHING - {3, 6}, EVERYTHING]
    return between_rounds(STANDARD, owned, spent, 4)


def _outpaid_by_count() -> GameState:
    # Seat 1 took no card and spent all 106, in Passé and Faux Pas: the seats after it there
    # cannot all have paid more with what they spent beside their own cards won.
    owned = [[L(2), L(5), L(8), PRESTIGE], [], [L(6), PRESTIGE, PASSE], [FAUX_PAS]]
    owned.append([L(3), L(9), PRESTIGE])
    spent = [EVERYTHING - {12}, EVERYTHING, EVERYTHING - {20}, EVERYTHING - {20}]
    return between_rounds(STANDARD, owned, [*spent, EVERYTHING - {12}], 0)


def _outpaid() -> GameState:
    # Seat 2 owns nothing and spent all 106 in Passé and Scandale (taken by seat 1); seat
    # 3 bid after it in both, paying more, but spent only 106 and won Luxury 2 too.
    owned = [[L(1)], [L(10), PASSE, SCANDALE], [], [L(2)]]
    return between_rounds(STANDARD, owned, [EVERYTHING] * 4, 3)


@pytest.mark.parametrize(
    ("condition", "state", "limit"),
    [
        ("over_budget", _over_budget, 2_000),
        ("short_of_starters", lambda: seat_0_spent_nothing([L(3)], {1}), 1_000),
        (
            "cheaper_than_the_seat_before",
            lambda: seat_4_took_nothing({3, 4, 6, 10, 15}, {2}),
            1_000,
        ),
        ("nowhere_to_pay", seat_2_took_nothing, 1_000),
        ("outpaid_by_count", _outpaid_by_count, 2_000),
    ],
)
def test_each_condition_refutes_a_state_the_search_leaves_undecided_without_it(
    condition: str, state: Callable[[], GameState], limit: int, without: Callable[..., None]
) -> None:
    found = state()
    assert decided(found, limit)
    without(condition)
    assert not decided(found, limit)


def test_the_two_outpaid_checks_each_refute_a_seat_outbid_in_its_disgrace_rounds(
    without: Callable[..., None],
) -> None:
    # Where the search starts nobody owes a payment yet, and both checks see the same seat:
    # each refutes the state alone, and without both the search runs out of work.
    state = _outpaid()
    without("outpaid_by_count")
    assert decided(state, 1_000)
    without("outpaid_in_disgrace_rounds")
    assert not decided(state, 1_000)


def two_disgrace_rounds(seat_0: set[int], seat_1: set[int]) -> tuple[Spent, Position]:
    """3 seats; Passé and Scandale taken back, both taken by seat 2 and started by seat 0
    with no lap: seat 0 bid first, then seat 1 above it, in each; nothing else is left."""
    spent = Spent.of(STANDARD.money, (frozenset(seat_0), frozenset(seat_1), frozenset()), None)
    rounds = ((0, 0, 0), (0, 0, 0), False, (-1, -1, -1))
    deferred = (Deferred(1, 0, 2, False, 0), Deferred(2, 0, 2, False, 0))
    return spent, Position(rounds, 0, ((0, 1), (0, 1), ()), deferred)


def test_more_than_spent_adds_the_least_totals_of_a_seats_payments() -> None:
    # Seat 1 paid above seat 0 twice: 2 at least each time, 4 in all; with the 1 and the 2
    # it spent 3.
    spent, at = two_disgrace_rounds({1, 2}, {1, 2})
    found = conditions.least_payments(spent, at)
    assert found is not None
    assert found[0] == [2, 4, 0]
    assert conditions.more_than_spent(spent, found)
    spent, at = two_disgrace_rounds({1, 2}, {1, 2, 3})  # 2 and 2, of 6: it fits
    found = conditions.least_payments(spent, at)
    assert found is not None
    assert not conditions.more_than_spent(spent, found)


def test_outpaid_in_disgrace_rounds_where_a_seat_paid_all_it_spent() -> None:
    # One such round: seat 0 paid all it spent there (3), so seat 1, after it, paid 4 at
    # least, more than its 1 and 2; with the 1 and the 3 (4), it fits.
    spent, at = two_disgrace_rounds({1, 2}, {1, 2})
    one = at._replace(tokens=((0,), (0,), ()), deferred=at.deferred[:1])
    found = conditions.least_payments(spent, one)
    assert found is not None
    assert not conditions.more_than_spent(spent, found)
    assert conditions.outpaid_in_disgrace_rounds(spent, one, found)
    spent, at = two_disgrace_rounds({1, 2}, {1, 3})
    one = at._replace(tokens=((0,), (0,), ()), deferred=at.deferred[:1])
    found = conditions.least_payments(spent, one)
    assert found is not None
    assert not conditions.outpaid_in_disgrace_rounds(spent, one, found)

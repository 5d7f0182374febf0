"""Scoring (R10-R12): status = ((luxury sum - 5 * Passé) * 2**prestige) / 2**Scandale,
exactly and whatever the order the cards were won in; cast out <=> least money; winners
are never cast out and the tie-breaks follow R12."""

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from high_society import LUXURY, StatusBreakdown, StatusCard, result, status_of
from high_society.scoring import cast_out, winners
from property_tests.checks import result_problems
from property_tests.strategies import Game, games


@st.composite
def owned_cards(draw: st.DrawFn) -> list[StatusCard]:
    """Any cards one player could own: distinct luxury cards, up to three prestige cards,
    and each disgrace card at most once, in any order."""
    cards = draw(st.lists(st.sampled_from(sorted(LUXURY, key=lambda c: c.value)), unique=True))
    cards += [StatusCard.PRESTIGE] * draw(st.integers(0, 3))
    cards += [
        c
        for c in (StatusCard.FAUX_PAS, StatusCard.PASSE, StatusCard.SCANDALE)
        if draw(st.booleans())
    ]
    return draw(st.permutations(cards))


def expected_status(cards: list[StatusCard]) -> Fraction:
    luxury = sum(c.luxury_value for c in cards)
    passe = 5 if StatusCard.PASSE in cards else 0
    prestige = cards.count(StatusCard.PRESTIGE)
    scandale = 1 if StatusCard.SCANDALE in cards else 0
    return Fraction((luxury - passe) * 2**prestige, 2**scandale)


@given(owned_cards(), st.randoms(use_true_random=False))
def test_status_is_exact_and_independent_of_order(cards: list[StatusCard], rnd: object) -> None:
    got = status_of(cards)
    assert got.status == expected_status(cards)
    assert isinstance(got.status, Fraction)
    shuffled = list(reversed(cards))
    assert status_of(shuffled) == got
    assert got.holds_faux_pas == (StatusCard.FAUX_PAS in cards)  # R8: it does not count
    assert status_of([c for c in cards if c is not StatusCard.FAUX_PAS]).status == got.status


@given(owned_cards())
def test_the_breakdown_counts_each_kind_of_card(cards: list[StatusCard]) -> None:
    # Each field from the cards' names, not from the facts status_of reads.
    luxury = sorted(
        (c for c in cards if c in LUXURY), key=lambda c: int(c.value.removeprefix("luxury-"))
    )
    assert status_of(cards) == StatusBreakdown(
        luxury_cards=tuple(luxury),
        luxury_sum=sum(int(c.value.removeprefix("luxury-")) for c in luxury),
        passe=StatusCard.PASSE in cards,
        prestige=sum(1 for c in cards if c.value == "prestige"),
        scandale=StatusCard.SCANDALE in cards,
        holds_faux_pas=StatusCard.FAUX_PAS in cards,
        status=expected_status(cards),
    )


@st.composite
def table_results(
    draw: st.DrawFn,
) -> tuple[list[Fraction], list[int], list[StatusBreakdown]]:
    """Scores, money and breakdowns of 3 to 5 seats, from few values so that ties abound."""
    n = draw(st.integers(3, 5))
    hands = [draw(owned_cards()) for _ in range(n)]
    breakdowns = [status_of(cards) for cards in hands]
    money = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    return [b.status for b in breakdowns], money, breakdowns


@given(st.lists(st.integers(0, 5), min_size=3, max_size=5))
def test_cast_out_is_exactly_the_least_money(money: list[int]) -> None:
    out = cast_out(money)
    assert out == tuple(i for i, m in enumerate(money) if m == min(money))  # R10


@given(table_results())
def test_winners_follow_r12(table: tuple[list[Fraction], list[int], list[StatusBreakdown]]) -> None:
    scores, money, breakdowns = table
    won = winners(scores, money, breakdowns)
    out = set(cast_out(money))
    assert not out & set(won)  # R10: the cast out cannot win
    in_game = [i for i in range(len(scores)) if i not in out]
    if not in_game:
        assert won == ()
        return

    def key(i: int) -> tuple[Fraction, int, int]:
        top = max((c.luxury_value for c in breakdowns[i].luxury_cards), default=0)
        return (scores[i], money[i], top)  # R12, in order

    best = max(key(i) for i in in_game)
    assert won == tuple(i for i in in_game if key(i) == best)
    assert won == tuple(sorted(won))
    assert len(won) >= 1


@given(games())
def test_the_result_of_a_played_game_agrees_with_its_cards_and_money(game: Game) -> None:
    final = game.final
    outcome = result(final)
    assert outcome.money == tuple(sum(p.hand) + sum(p.table) for p in final.players)
    assert outcome.scores == tuple(expected_status(list(p.status_cards)) for p in final.players)
    assert outcome.cast_out == cast_out(outcome.money)
    assert outcome.winners == winners(outcome.scores, outcome.money, outcome.breakdowns)
    assert not set(outcome.winners) & set(outcome.cast_out)
    assert result_problems(final) == []

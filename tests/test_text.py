"""Words for people (``high_society.text``, ``describe_action``, ``format_status``): what the
demo and the terminal client print."""

from fractions import Fraction

from high_society import Bid, Discard, Pass, Reveal, StatusCard, describe_action
from high_society.bots import HeuristicBot, RandomBot
from high_society.host import Step, play
from high_society.scoring import format_status
from high_society.text import final_table, narrate, says
from tests.builders import FAUX_PAS, PASSE, L, bid, play_actions, won

NAMES = ("Ada", "Ben", "Cy")


def told(*actions: Bid | Pass | Reveal | Discard, names: tuple[str, ...] = NAMES) -> list[str]:
    """The lines narrate gives for the steps of ``actions`` from a new 3-player game."""
    steps: list[Step] = []
    state = play_actions()
    for action in actions:
        after = play_actions(*[s.action for s in steps], action)
        steps.append(Step(state, action, after))
        state = after
    return [line for line, _ in narrate(steps, names)]


def test_describe_action_uses_the_players_names_for_every_kind() -> None:
    names = ("Ada", "Ben", "Cy")
    assert describe_action(Bid(2, frozenset({1, 3})), names) == "Cy bids 1 + 3"
    assert describe_action(Pass(1), names) == "Ben passes"
    assert describe_action(Discard(0, StatusCard.LUXURY_4), names) == "Ada discards Luxury 4"
    assert describe_action(Pass(1)) == "Seat 1 passes"


def test_says_speaks_to_the_player_named_you_in_the_second_person() -> None:
    names = ("You", "Ben")
    assert [says(names, 0, v) for v in ("passes", "bids", "takes", "loses", "discards")] == [
        "You pass",
        "You bid",
        "You take",
        "You lose",
        "You discard",
    ]
    assert says(names, 1, "passes") == "Ben passes"


def test_a_normal_round_is_told_bid_by_bid_with_who_took_the_card_and_for_what() -> None:
    lines = told(*won(L(5), 0, 3, 4))
    assert lines == [
        "",
        "Round 1: Luxury 5, Ada starts",
        "  Ada bids 3 + 4 (7 face up)",
        "  Ben passes",
        "  Cy passes",
        "  -> Ada takes Luxury 5 for 3 + 4",
    ]


def test_a_card_nobody_bid_for_goes_for_free() -> None:
    lines = told(Reveal(L(2)), Pass(0), Pass(1))
    assert lines[-1] == "  -> Cy takes Luxury 2 for free: everyone else passed"


def test_a_disgrace_round_names_the_taker_and_what_the_others_lose() -> None:
    lines = told(Reveal(PASSE), bid(0, 2), bid(1, 3), Pass(2))
    assert lines[1] == "Round 1: Passé (disgrace), Ada starts"
    assert lines[-3:] == ["  -> Cy takes Passé", "     Ada loses 2", "     Ben loses 3"]


def test_a_pending_faux_pas_and_the_discard_are_told() -> None:
    pending = told(Reveal(FAUX_PAS), Pass(0))
    assert pending[-1] == "  -> Ada takes Faux Pas (pending: no luxury card to discard yet)"
    taken = told(Reveal(FAUX_PAS), Pass(0), *won(L(4), 0, 1))
    assert taken[-1] == "  -> Ada takes Luxury 4 for 1; the pending Faux Pas discards it at once"
    discard = told(*won(L(3), 0, 1), Reveal(FAUX_PAS), Pass(0), Discard(0, L(3)))
    assert discard[-1] == "  Ada discards Luxury 3 for Faux Pas"


def test_only_the_faux_pas_just_taken_is_told_as_pending() -> None:  # R8
    # Ada's Faux Pas waits for a luxury card; taking Passé next says nothing of it.
    passe = told(Reveal(FAUX_PAS), Pass(0), Reveal(PASSE), Pass(0))
    assert passe[-1] == "  -> Ada takes Passé"
    # Taken with a luxury card to discard, the Faux Pas does not wait: no "pending".
    choosing = told(*won(L(3), 0, 1), Reveal(FAUX_PAS), Pass(0))
    assert choosing[-1] == "  -> Ada takes Faux Pas"


def test_the_ending_card_is_told_with_its_ordinal() -> None:
    steps = list(play([RandomBot(1), RandomBot(2), RandomBot(3)], seed=4))
    lines = [line for line, _ in narrate(steps, NAMES)]
    assert lines[-1].endswith("is the 4th dark-green card: the game ends at once.")
    assert sum(1 for line in lines if line.startswith("Round ")) == steps[-1].after.auctions_started


def test_each_line_comes_with_the_step_it_tells() -> None:
    steps = list(play([HeuristicBot(s) for s in range(3)], seed=2))
    pairs = list(narrate(steps, NAMES))
    assert list(dict.fromkeys(step for _, step in pairs)) == steps


def test_the_final_table_shows_status_money_cast_out_and_winner() -> None:
    steps = list(play([HeuristicBot(s) for s in range(3)], seed=2))
    final = steps[-1].after
    table = final_table(final, NAMES)
    assert table[:2] == ["", "Final table"]
    rows = table[2:5]
    for name, row in zip(NAMES, rows, strict=True):
        assert row.startswith(f"  {name}")
        assert "status" in row
        assert "money" in row
    assert table[-2].startswith("Cast out: ")
    assert table[-1].startswith("Winner: ")
    assert sum("[" in row and "WINNER" in row for row in rows) == table[-1].count(",") + 1


def test_status_is_written_whole_or_with_its_one_exact_decimal() -> None:
    assert format_status(Fraction(14)) == "14"
    assert format_status(Fraction(15, 2)) == "7.5"
    assert format_status(Fraction(-5, 2)) == "-2.5"
    assert format_status(Fraction(0)) == "0"


def test_a_game_told_in_parts_numbers_its_rounds_as_told_whole() -> None:
    steps = list(play((HeuristicBot(), HeuristicBot(), RandomBot(seed=2)), seed=5))
    whole = [line for line, _ in narrate(steps, NAMES)]
    for cut in (1, 7, len(steps) // 2, len(steps) - 1):
        opened = sum(1 for s in steps[:cut] if isinstance(s.action, Reveal))
        first = [line for line, _ in narrate(steps[:cut], NAMES)]
        rest = [line for line, _ in narrate(steps[cut:], NAMES, rounds_before=opened)]
        assert first + rest == whole, cut

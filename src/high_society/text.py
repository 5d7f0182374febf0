"""A game in words, for people: what each step did, and the final table.

Shared by ``high-society demo`` and ``high-society play``, and public so that a client (the
terminal client of the client guide, or your own) tells games the same way without copying
it. Players are named by ``names[seat]``; a player named ``"You"`` is told in the second
person ("You pass", "You take ..."). Statuses are written by
:func:`~high_society.scoring.format_status`.

>>> from high_society.bots import RandomBot
>>> from high_society.host import play
>>> steps = list(play([RandomBot(1), RandomBot(2), RandomBot(3)], seed=4))
>>> for line, _ in narrate(steps[:3], ("Ada", "Ben", "Cy")):
...     print(line)
<BLANKLINE>
Round 1: Luxury 8, Ada starts
  Ada bids 1 + 3 + 6 + 10 + 20 (40 face up)
  Ben bids 1 + 4 + 6 + 8 + 25 (44 face up)
"""

from collections.abc import Iterable, Iterator, Sequence
from typing import assert_never

from high_society.actions import Bid, Discard, Pass, Reveal
from high_society.cards import StatusCard
from high_society.host import Step
from high_society.scoring import format_status, result
from high_society.state import GameState, Phase

__all__ = ["final_table", "narrate", "says"]


def says(names: Sequence[str], seat: int, verb: str) -> str:
    """``"Ben passes"``, but ``"You pass"`` for the player named ``"You"``.

    >>> says(("Ada", "You"), 0, "takes"), says(("Ada", "You"), 1, "passes")
    ('Ada takes', 'You pass')
    """
    name = names[seat]
    if name == "You":
        verb = verb.removesuffix("es") if verb.endswith("sses") else verb.removesuffix("s")
    return f"{name} {verb}"


def _cards(cards: Iterable[int]) -> str:
    values = sorted(cards)
    return " + ".join(map(str, values)) if values else "nothing"


def narrate(
    steps: Iterable[Step], names: Sequence[str], *, rounds_before: int = 0
) -> Iterator[tuple[str, Step]]:
    """One or more lines per step, as a person would tell the game, each with its step.

    Lazy: the lines of a step are yielded as soon as the step is, so a host can print them
    while the game goes on. A reveal opens a round with an empty line. ``rounds_before``:
    the rounds opened before the first step (to go on telling a game told in part).
    """
    round_no = rounds_before
    for step in steps:
        before, action, after = step
        lines: list[str]
        match action:
            case Reveal(card):
                if after.phase is Phase.OVER:
                    nth = sum(1 for c in after.config.deck if c.is_dark_green)
                    ordinal = {1: "1st", 2: "2nd", 3: "3rd"}.get(nth, f"{nth}th")
                    ends = f"{card.label} is the {ordinal} dark-green card: the game ends at once."
                    lines = ["", ends]
                else:
                    round_no += 1
                    kind = " (disgrace)" if card.is_disgrace else ""
                    starts = says(names, after.turn, "starts")
                    lines = ["", f"Round {round_no}: {card.label}{kind}, {starts}"]
            case Bid(seat, cards):
                total = after.players[seat].bid
                lines = [f"  {says(names, seat, 'bids')} {_cards(cards)} ({total} face up)"]
            case Pass(seat):
                lines = [f"  {says(names, seat, 'passes')}"]
                if after.phase is not Phase.AUCTION:
                    lines += _round_end(before, after, seat, names)
            case Discard(seat, card):
                lines = [f"  {says(names, seat, 'discards')} {card.label} for Faux Pas"]
            case _:
                assert_never(action)
        for line in lines:
            yield line, step


def _round_end(before: GameState, after: GameState, passer: int, names: Sequence[str]) -> list[str]:
    """Who took the card, for what, and who lost face-up cards to a disgrace (R6, R7, R8)."""
    card = before.auction
    assert card is not None
    if card.is_disgrace:
        line = f"  -> {says(names, passer, 'takes')} {card.label}"
        if card is StatusCard.FAUX_PAS and after.players[passer].faux_pas_waits_for_luxury:
            line += " (pending: no luxury card to discard yet)"
        lost = [
            f"     {says(names, i, 'loses')} {_cards(p.table)}"
            for i, p in enumerate(before.players)
            if i != passer and p.table
        ]
        return [line, *lost]
    winner = after.turn
    paid = before.players[winner].table
    price = f"for {_cards(paid)}" if paid else "for free: everyone else passed"
    line = f"  -> {says(names, winner, 'takes')} {card.label} {price}"
    if card.is_luxury and StatusCard.FAUX_PAS in before.players[winner].status_cards:
        line += "; the pending Faux Pas discards it at once"
    return [line]


def final_table(state: GameState, names: Sequence[str]) -> list[str]:
    """The final table: each player's status with its breakdown, money left, who is cast
    out and who wins (R10-R12); the first line is empty.

    Raises:
        GameNotOverError: the game is not over.
    """
    outcome = result(state)
    width = max(len(n) for n in names)
    lines = ["", "Final table"]
    for seat, name in enumerate(names):
        tags = ["cast out"] if seat in outcome.cast_out else []
        tags += ["WINNER"] if seat in outcome.winners else []
        shown = format_status(outcome.scores[seat])
        lines.append(
            f"  {name:<{width}}  status {shown:>6}  money {outcome.money[seat]:>3}  "
            f"{outcome.breakdowns[seat].explain()}" + (f"  [{', '.join(tags)}]" if tags else "")
        )
    cast = ", ".join(names[i] for i in outcome.cast_out)
    won = ", ".join(names[i] for i in outcome.winners) or "nobody (everyone is cast out)"
    lines += [f"Cast out: {cast}", f"Winner: {won}"]
    return lines

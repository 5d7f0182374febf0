"""``high-society demo``: one complete game between built-in bots, told round by round."""

import argparse
from collections.abc import Iterable
from typing import TextIO, assert_never

from high_society.actions import Bid, Discard, Pass, Reveal, describe_action
from high_society.bots import Bot, HeuristicBot, RandomBot
from high_society.cards import StatusCard
from high_society.cli._options import add_players_option
from high_society.host import Step, play
from high_society.record import GameRecord, write_record
from high_society.scoring import result
from high_society.state import GameState, Phase

__all__ = ["NAMES", "narrate", "register", "run"]

#: Default player names, in seat order.
NAMES = ("Ada", "Ben", "Cy", "Dee", "Eve")


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``demo`` subcommand."""
    parser = subparsers.add_parser(
        "demo",
        help="play one game between built-in bots and print it",
        description="Play one complete game between built-in bots and print it round by "
        "round, then the final table. The same seed always gives the same game.",
    )
    add_players_option(parser, "number of players (3 to 5, default 4)")
    parser.add_argument("--seed", type=int, default=1, help="seed for bots and deck (default 1)")
    parser.add_argument(
        "--bots",
        choices=("heuristic", "random", "mixed"),
        default="heuristic",
        help="heuristic bots, uniformly random bots, or both in turn (default heuristic)",
    )
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="also write the game to FILE as a recorded game (JSON, format v1); only a "
        "regular file is replaced (exit code 1 otherwise, nothing written)",
    )
    parser.set_defaults(handler=run)


def make_bots(kind: str, players: int, seed: int) -> list[Bot]:
    """The demo's bots: ``mixed`` seats heuristic bots at even seats, random ones at odd."""
    bots: list[Bot] = []
    for seat in range(players):
        bot_seed = seed * 100 + seat
        if kind == "heuristic" or (kind == "mixed" and seat % 2 == 0):
            bots.append(HeuristicBot(bot_seed))
        else:
            bots.append(RandomBot(bot_seed))
    return bots


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Play and print the game that ``args`` describe."""
    import sys

    stream = out if out is not None else sys.stdout
    names = NAMES[: args.players]
    bots = make_bots(args.bots, args.players, args.seed)
    kinds = ", ".join(f"{n} ({type(b).__name__})" for n, b in zip(names, bots, strict=True))
    print(f"High Society, {args.players} players, seed {args.seed}: {kinds}", file=stream)
    final: GameState | None = None
    actions = []
    for line, step in narrate(play(bots, seed=args.seed), names):
        print(line, file=stream)
        if step.after is not final:  # a step may give several lines
            actions.append(step.action)
        final = step.after
    assert final is not None
    for line in final_table(final, names):
        print(line, file=stream)
    path = getattr(args, "record", None)
    if path is not None:
        meta = {"generator": "high-society demo", "seed": args.seed, "bots": args.bots}
        # All or nothing, and only a regular file is replaced: a FIFO, a device or a link
        # is refused with a RecordError, which the command line reports (exit code 1).
        write_record(GameRecord(names, actions, meta), path)
        print(f"Recorded the game in {path}", file=stream)
    return 0


def _cards(cards: Iterable[int]) -> str:
    values = sorted(cards)
    return " + ".join(map(str, values)) if values else "nothing"


def narrate(steps: Iterable[Step], names: tuple[str, ...]) -> Iterable[tuple[str, Step]]:
    """One or more lines per step, as a person would tell the game."""
    round_no = 0
    for step in steps:
        before, action, after = step.before, step.action, step.after
        lines: list[str] = []
        match action:
            case Reveal(card):
                if after.phase is Phase.OVER:
                    nth = sum(1 for c in after.config.deck if c.is_dark_green)
                    ordinal = {1: "1st", 2: "2nd", 3: "3rd"}.get(nth, f"{nth}th")
                    lines += ["", f"{card.label} is the {ordinal} dark-green card: the game ends."]
                else:
                    round_no += 1
                    kind = " (disgrace)" if card.is_disgrace else ""
                    lines += [
                        "",
                        f"Round {round_no}: {card.label}{kind}, {names[after.turn]} starts",
                    ]
            case Bid(seat, _):
                total = after.players[seat].bid
                lines.append(f"  {describe_action(action, names)}: {total} face up")
            case Pass(seat):
                lines.append(f"  {describe_action(action, names)}")
                if after.phase is not Phase.AUCTION:
                    lines += _round_end(before, after, seat, names)
            case Discard(seat, card):
                lines.append(f"  {names[seat]} discards {card.label} for Faux Pas")
            case _:
                assert_never(action)
        for line in lines:
            yield line, step


def _round_end(
    before: GameState, after: GameState, passer: int, names: tuple[str, ...]
) -> list[str]:
    card = before.auction
    assert card is not None
    if card.is_disgrace:
        lost = [
            f"{names[i]} loses {_cards(p.table)}"
            for i, p in enumerate(before.players)
            if i != passer and p.table
        ]
        line = f"  -> {names[passer]} takes {card.label}"
        if after.players[passer].faux_pas_pending and after.phase is Phase.REVEAL:
            line += " (pending: no luxury card to discard yet)"
        return [line] + [f"     {text}" for text in lost]
    winner = after.turn
    paid = before.players[winner].table
    price = f"for {_cards(paid)}" if paid else "for free: everyone else passed"
    line = f"  -> {names[winner]} takes {card.label} {price}"
    if card.is_luxury and StatusCard.FAUX_PAS in before.players[winner].status_cards:
        line += "; the pending Faux Pas discards it at once"
    return [line]


def final_table(state: GameState, names: tuple[str, ...]) -> list[str]:
    """The final table: status with its breakdown, money left, cast out and winners."""
    outcome = result(state)
    width = max(len(n) for n in names)
    lines = ["", "Final table"]
    for seat, name in enumerate(names):
        b = outcome.breakdowns[seat]
        score = b.status
        shown = str(score.numerator) if score.denominator == 1 else str(float(score))
        tags = []
        if seat in outcome.cast_out:
            tags.append("cast out")
        if seat in outcome.winners:
            tags.append("WINNER")
        lines.append(
            f"  {name:<{width}}  status {shown:>6}  money {outcome.money[seat]:>3}  "
            f"{b.explain()}{'  [' + ', '.join(tags) + ']' if tags else ''}"
        )
    cast = ", ".join(names[i] for i in outcome.cast_out)
    won = ", ".join(names[i] for i in outcome.winners) or "nobody (everyone is cast out)"
    lines += [f"Cast out: {cast}", f"Winner: {won}"]
    return lines

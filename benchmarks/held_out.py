"""Bots against outsiders: each candidate alone at a table of one style of
:mod:`benchmarks.outsiders` (bots written by another author, from the rulebook and the
public API only, who never saw the package's bots, strangers, league or figures), or of
outsiders drawn at random; reducer games (docs/bots.md, "Against outsiders").

    .venv/bin/python -m benchmarks.held_out [--players 3 4 5] [--games 2000] [--seed 1]
        [--bots learned heuristic classic] [--tables saver mixed ...] [--jobs 2]
        [--figures PATH]

A table of ``P`` seats holds the candidate and ``P - 1`` copies of one style, rotated as
``high-society tournament`` rotates them (game ``i``: the candidate at seat ``i mod P``),
or in the last column ``P - 1`` outsiders drawn at random per seat and game. The candidate's
wins (a shared win counts for each winner) with the 95% Wilson interval, per table; then the
games nobody won (R10: every seat tied for least money). Candidates are named as for
``high-society tournament``. Every game and bot is seeded from ``(seed + column, game)``:
the same arguments give the same figures on any machine. Not part of CI.
"""

import benchmarks.one_thread  # noqa: F401  (before numpy loads)

# isort: split
import argparse
import random
import shlex
import sys
from collections.abc import Sequence

from benchmarks.figures import Recorder, markdown, table
from benchmarks.outsiders import OUTSIDERS
from high_society.bots import AnyBot
from high_society.tournament import Entrant, parse_entrant, tournament, wilson_interval


def random_outsider(seed: int | None = None) -> AnyBot:
    """An outsider of a style drawn from ``seed`` (each seat of each game its own draw)."""
    chosen = sorted(OUTSIDERS)[random.Random(seed).randrange(len(OUTSIDERS))]
    return OUTSIDERS[chosen](seed)


def columns() -> list[tuple[str, Entrant]]:
    """Each table's name and the entrant of its other seats: every style, then the mix."""
    styles = [(name, Entrant(name, OUTSIDERS[name])) for name in sorted(OUTSIDERS)]
    return [*styles, ("mixed", Entrant("mixed", random_outsider))]


def cells(
    candidate: str, players: int, games: int, seed: int, jobs: int, tables: Sequence[str] = ()
) -> tuple[list[str], list[str]]:
    """The candidate's wins at each table (of ``tables`` only, when given), and the share of
    each table's games nobody won."""
    wins, nobody = [], []
    for column, (name, others) in enumerate(columns(), start=1):
        if tables and name not in tables:
            continue
        lineup = [parse_entrant(candidate), *[others] * (players - 1)]
        outcome = tournament(lineup, games, seed + column, jobs=jobs)
        row = outcome.rows[0]
        low, high = wilson_interval(row.wins, row.games)
        wins.append(f"{row.wins / row.games:.1%} ({low:.1%}-{high:.1%})")
        nobody.append(f"{outcome.no_winner / outcome.games:.1%}")
    return wins, nobody


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5])
    parser.add_argument("--games", type=int, default=2000, help="per table (2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", nargs="+", default=["learned", "heuristic", "classic"])
    parser.add_argument("--jobs", type=int, default=1, help="processes (1)")
    names = [name for name, _ in columns()]
    parser.add_argument("--tables", nargs="+", choices=names, default=names, metavar="TABLE")
    parser.add_argument("--figures", metavar="PATH", help="also write the figures to PATH (JSON)")
    args = parser.parse_args()
    shown = [a for a in sys.argv[1:] if a != "--figures" and a != args.figures]
    recorder = Recorder(args.figures, shlex.join(["python", "-m", "benchmarks.held_out", *shown]))
    header = ["bot", *(name for name in names if name in args.tables)]
    nobody_rows: list[list[str]] = []
    for players in args.players:
        print(
            f"\n{players} players: the bot alone against {players - 1} of each outsider "
            f"({args.games:,} games each, seed {args.seed}); fair share {1 / players:.1%}\n"
        )
        rows = []
        for candidate in args.bots:
            wins, nobody = cells(candidate, players, args.games, args.seed, args.jobs, args.tables)
            rows.append([candidate, *wins])
            nobody_rows.append([str(players), candidate, *nobody])
        print(markdown(header, rows))
        recorder[f"{players}p"] = table(header, rows)
    print("\nThe same games, those nobody won (R10: every seat cast out)\n")
    print(markdown(["players", *header], nobody_rows))
    recorder["nobody"] = table(["players", *header], nobody_rows)
    recorder.write(
        title="Bots alone at tables of outsiders (bots by another author)",
        notes=(
            "Reducer games, seats rotated; each cell is the candidate's share of the games "
            "it won (a shared win counts) with its 95% Wilson interval."
        ),
    )


if __name__ == "__main__":
    main()

"""Bots against strangers: each candidate alone at a table of one held-out style
(:mod:`high_society.strangers`), or of strangers drawn at random, in batch-engine games
(docs/bots.md); with ``--own``, also alone at a table of each of the package's own bots.

    .venv/bin/python -m benchmarks.strangers [--players 3 4 5] [--games 4000] [--seed 1]
        [--bots learned heuristic ...] [--own]

The candidate's seat rotates from game to game (game ``g``: seat ``g mod players``); its
wins (a shared win counts) with the 95% Wilson interval, per table; then, of the same
games, those nobody won (every seat cast out, tied for least money: R10), which tell a
table where nobody can win from one the candidate loses. The own bots' columns
come after the mix, each seeded as its column's place says, so that the strangers'
columns are the same with ``--own`` or without. Candidates are named
as for ``high-society ratings`` (a saved network's ``.npz`` too, for a baseline such as a
former learned bot). The strangers never took part in training (the league of
:mod:`high_society.batch.league` does not import them).
"""

import benchmarks.one_thread  # noqa: F401  (before numpy loads)

# isort: split
import argparse

import numpy as np

from benchmarks.figures import markdown
from high_society.batch.ratings import play_tables, roster_entry
from high_society.strangers import STRANGERS
from high_society.tournament import wilson_interval

#: The package's own bots, for ``--own``: each alone at the table of the candidate.
OWN = ("heuristic", "classic", "cautious", "pass", "random")


def table(
    players: int, candidates: list[str], games: int, seed: int, own: bool = False
) -> tuple[list[list[str]], list[list[str]]]:
    """One row per candidate: its wins against each stranger, then against a mix, then
    (``own``) against each of :data:`OWN`; and a row of the games of each that nobody won."""
    names = list(STRANGERS)
    rows, nobody_rows = [], []
    for candidate in candidates:
        roster = [roster_entry(candidate, players)] + [roster_entry(n, players) for n in names]
        roster += [roster_entry(n, players) for n in OWN] if own else []
        cells, nobody = [], []
        seat = np.arange(games) % players
        rng = np.random.default_rng(seed)
        mixed = range(1, len(names) + 1)
        for column in [*mixed, None, *range(len(names) + 1, len(roster))]:
            if column is None:  # each other seat a stranger drawn at random
                lineups = rng.integers(1, len(names) + 1, size=(games, players))
            else:
                lineups = np.full((games, players), column, dtype=np.int64)
            lineups[np.arange(games), seat] = 0
            shares = play_tables(players, roster, lineups, seed + (column or 0))
            wins = int((shares[np.arange(games), seat] > 0).sum())
            low, high = wilson_interval(wins, games)
            cells.append(f"{wins / games:.1%} ({low:.1%}-{high:.1%})")
            nobody.append(f"{(shares.sum(axis=1) == 0).mean():.1%}")
        rows.append([candidate, *cells])
        nobody_rows.append([candidate, *nobody])
    return rows, nobody_rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", nargs="+", default=["learned", "heuristic"])
    parser.add_argument("--own", action="store_true", help="also against the package's bots")
    args = parser.parse_args()
    header = ["bot", *STRANGERS, "mixed", *(OWN if args.own else ())]
    for players in args.players:
        others = players - 1
        print(
            f"\n{players} players: the bot alone against {others} of each stranger "
            f"({args.games:,} games each, seed {args.seed}); fair share {1 / players:.1%}\n"
        )
        rows, nobody = table(players, args.bots, args.games, args.seed, args.own)
        print(markdown(header, rows))
        print("\nThe same games, those nobody won (R10: every seat cast out)\n")
        print(markdown(header, nobody))


if __name__ == "__main__":
    main()

"""The running auction: which seats could have started it, given its face-up cards and
passes (internal). ``state_problems`` refuses a running auction no start leads to; the
history search takes each possible starter as the taker of the round before."""

import itertools

from high_society.state import GameState


def auction_starters(state: GameState) -> list[int]:
    """The seats that could have started the running auction, given its face-up cards and
    passes (empty when no order of bids and passes from any start leads here).

    A seat that passed may be taken to have passed at its first turn without bidding:
    its bid, taken back, only raised what the others had to beat. Then, walking from the
    seat to act: first the seats that have not acted yet (not passed, nothing face up),
    which end the first lap; then seats that all acted, whose face-up totals rise in the
    order of their last bids. When every seat acted, the auction could have begun at
    ``s`` if the seats still in from the first one after ``s`` on, up to the seat to act,
    first bid parts of their cards, rising, below the seat to act's bid.
    """
    players = state.players
    n = len(players)
    order = [(state.turn + i) % n for i in range(n)]
    waiting = 0
    while waiting < n and not players[order[waiting]].passed and not players[order[waiting]].table:
        waiting += 1
    acted = order[waiting:]
    if any(not players[i].passed and not players[i].table for i in acted):
        return []
    totals = [players[i].bid for i in acted if not players[i].passed]
    if any(a >= b for a, b in itertools.pairwise(totals)):
        return []
    if waiting == n:
        return [state.turn]
    if waiting:
        return [order[waiting]]  # the first lap is still going: it began there
    return [s for s in range(n) if current_partials(state, s) is not None]


def current_partials(state: GameState, starter: int) -> list[tuple[int, frozenset[int]]] | None:
    """For a running auction where every seat has acted and that ``starter`` began: the
    seats that bid twice with the first part each bid, or None when it cannot have begun
    there (see :func:`auction_starters`)."""
    players = state.players
    n = len(players)
    active = [(state.turn + i) % n for i in range(n) if not players[(state.turn + i) % n].passed]
    first = next(i for i in ((starter + d) % n for d in range(n)) if not players[i].passed)
    position = active.index(first)
    twice = active[position:] if position else []
    parts: list[tuple[int, frozenset[int]]] = []
    last = 0
    for seat in twice:
        table = sorted(players[seat].table)
        best: frozenset[int] | None = None
        for mask in range(1, (1 << len(table)) - 1):
            cards = frozenset(c for k, c in enumerate(table) if mask >> k & 1)
            if last < sum(cards) and (best is None or sum(cards) < sum(best)):
                best = cards
        if best is None:
            return None
        parts.append((seat, best))
        last = sum(best)
    if twice and last >= players[active[0]].bid:
        return None
    return parts

"""Exhaustive exploration: every reachable state of small games, every invariant on each.

Run: ``.venv/bin/python -m verification.explore`` (``python3 tasks.py test`` runs it). It
exits 1 and prints the first problems if any state or transition breaks an invariant.

For each configuration in :data:`CONFIGS` a breadth-first search starts from
:func:`~high_society.new_game` and follows every legal action, every chance reveal
included. On every state it checks :func:`~property_tests.checks.state_and_turn_problems`
(``state_problems``, who acts, legal actions = the rules' brute-force list, empty only at
the end, so no state is stuck), on every state a set of mostly illegal actions with
:func:`~property_tests.checks.legality_problems`, on every transition
:func:`~property_tests.checks.transition_problems`, that ``apply`` left its input
unchanged, and on every end state the result against R10-R12
(:func:`~property_tests.checks.result_problems`). The reachable states form a DAG
(each action moves the game forward; a cycle is reported), so it also computes the
longest game, far below the bound derived in ``property_tests/test_termination.py``.
Around every ``BOUNDARY_STRIDE``-th state it checks the boundary of ``state_problems``
(``verification/boundary.py``): a single change of a reachable state must be accepted
exactly when the exploration reached it (``--full-boundary``: around every state).

The explorer lives here and not in the library: it is a test of the rules, tied to the
checks of ``property_tests/checks.py``; a user who wants to solve a small game needs
little more than ``legal_actions`` and ``apply``.
"""

import sys
import time
from collections import Counter, deque
from collections.abc import Iterator

import attrs

from high_society import (
    Action,
    Bid,
    Discard,
    GameConfig,
    GameState,
    Pass,
    Reveal,
    StatusCard,
    apply,
    is_legal,
    legal_actions,
    new_game,
    result,
    sort_cards,
)
from property_tests.checks import (
    legality_problems,
    result_problems,
    state_and_turn_problems,
    transition_problems,
)
from verification.boundary import check_boundary

PRESTIGE = StatusCard.PRESTIGE
FAUX_PAS = StatusCard.FAUX_PAS
PASSE = StatusCard.PASSE
SCANDALE = StatusCard.SCANDALE
L = StatusCard.luxury


@attrs.frozen
class Reduced:
    """A reduced game to explore."""

    name: str
    players: int
    config: GameConfig
    #: Corners the exploration must reach: a game that stops reaching one checks less.
    must_reach: tuple[str, ...] = ()


CONFIGS = (
    Reduced(
        "money 1+2; luxury 3, prestige, Faux Pas, Passé, Scandale",
        3,
        GameConfig(
            money=(1, 2),
            deck=sort_cards([L(3), PRESTIGE, FAUX_PAS, PASSE, SCANDALE]),
        ),
    ),
    Reduced(
        "money 1; luxury 2 and 5, 2 prestige, Faux Pas, Passé, Scandale",
        3,
        GameConfig(
            money=(1,),
            deck=sort_cards([L(2), L(5), PRESTIGE, PRESTIGE, FAUX_PAS, PASSE, SCANDALE]),
        ),
    ),
    # All three prestige cards, Passé and Scandale: one seat can end with x8 and Passé
    # (R11's order: (3 - 5) x 8, not 3 x 8 - 5, not x6), or with Scandale's half point.
    Reduced(
        "money 1; luxury 3, 3 prestige, Passé, Scandale",
        3,
        GameConfig(
            money=(1,),
            deck=sort_cards([L(3), PRESTIGE, PRESTIGE, PRESTIGE, PASSE, SCANDALE]),
        ),
        must_reach=("3 prestige and Passé", "half a point (Scandale)"),
    ),
)


@attrs.frozen
class Exploration:
    """What one exploration visited and found."""

    name: str
    states: int
    transitions: int
    ends: int
    illegal_checked: int
    longest_game: int
    corners: dict[str, int]
    problems: tuple[str, ...]
    #: What ``state_problems`` said of single changes of reachable states (boundary.py).
    boundary: dict[str, int]


#: How many of the other actions each state is offered, in rotation: every one of them is
#: still offered in thousands of states, at a tenth of the cost of offering all everywhere.
OFFERED_PER_STATE = 7


def _other_actions(config: GameConfig, players: int) -> Iterator[object]:
    """Actions to offer: every seat (and two that do not exist) trying every kind of action
    with every card of the game, plus objects that are not actions."""
    seats = range(-1, players + 1)
    for seat in seats:
        yield Pass(seat)
        for card in sorted(set(config.deck), key=lambda c: c.value):
            yield Discard(seat, card)
        for value in (*config.money, 7):
            yield Bid(seat, frozenset({value}))
        yield Bid(seat, frozenset(config.money))
        yield Bid(seat, frozenset())
    for card in StatusCard:
        yield Reveal(card)
    yield "pass"
    yield None


#: In CI, the boundary of ``state_problems`` is checked around every BOUNDARY_STRIDE-th
#: reachable state (in the fixed order of the search): each state costs about 4.5 ms (the
#: history search of every changed state), so 50 keeps the check at about 12 CPU s.
#: ``python -m verification.explore --full-boundary`` checks around every state.
BOUNDARY_STRIDE = 50


def explore(reduced: Reduced, max_problems: int = 10, stride: int = BOUNDARY_STRIDE) -> Exploration:
    """Visit every state reachable in ``reduced`` and check every invariant on it, and the
    boundary of ``state_problems`` around every ``stride``-th state."""
    start = new_game(reduced.players, reduced.config)
    seen: set[GameState] = {start}
    order: list[GameState] = []
    successors: dict[GameState, list[GameState]] = {}
    queue = deque([start])
    problems: list[str] = []
    transitions = ends = illegal = 0
    corners: Counter[str] = Counter()
    others = list(_other_actions(reduced.config, reduced.players))

    def report(state: GameState, what: list[str], action: Action | None = None) -> None:
        for problem in what[: max_problems - len(problems)]:
            at = f" after {action!r}" if action is not None else ""
            problems.append(f"{problem}{at} in {state!r}")

    while queue and len(problems) < max_problems:
        state = queue.popleft()
        order.append(state)
        snapshot = attrs.astuple(state, recurse=True)
        report(state, state_and_turn_problems(state))
        first = len(order) * OFFERED_PER_STATE % len(others)
        candidates = (others + others)[first : first + OFFERED_PER_STATE]
        illegal += len(candidates)
        report(state, legality_problems(state, candidates))
        nexts = successors[state] = []
        legal = list(legal_actions(state))
        if not all(is_legal(state, action) for action in legal):
            report(state, ["a listed action is not legal"])
        if not legal:
            ends += 1
            report(state, result_problems(state))
            outcome = result(state)
            corners[f"{len(outcome.cast_out)} cast out"] += 1
            corners[f"{len(outcome.winners)} winners"] += 1
            if any(p.faux_pas_waits_for_luxury for p in state.players):
                corners["pending Faux Pas at the end"] += 1
            for p in state.players:
                if p.status_cards.count(PRESTIGE) == 3:
                    corners["3 prestige"] += 1
                    if PASSE in p.status_cards:
                        corners["3 prestige and Passé"] += 1
            if any(s.denominator == 2 for s in outcome.scores):
                corners["half a point (Scandale)"] += 1
        for action in legal:
            after = apply(state, action)
            transitions += 1
            report(state, transition_problems(state, action, after), action)
            if isinstance(action, Discard) and len(state.players[action.seat].luxury_cards) > 1:
                corners["Faux Pas discard with a choice"] += 1
            nexts.append(after)
            if after not in seen:
                seen.add(after)
                queue.append(after)
        if attrs.astuple(state, recurse=True) != snapshot:
            report(state, ["apply changed its input"])
    problems += [f"no end state reaches {c!r}" for c in reduced.must_reach if not corners[c]]
    ranked = _topological(order, successors)
    if len(ranked) != len(order):
        problems.append("the states reached form a cycle: some game would never end")
    longest: dict[GameState, int] = {}
    for state in reversed(ranked):
        longest[state] = max((1 + longest[t] for t in successors.get(state, ())), default=0)
    counts, wrong = check_boundary(order[::stride], seen)
    # state_problems is exact: a reachable state refused or an unreachable one accepted
    # is a bug (docs/verification.md).
    problems += wrong[: max(0, max_problems - len(problems))]
    return Exploration(
        reduced.name,
        len(seen),
        transitions,
        ends,
        illegal,
        longest.get(start, 0),
        dict(sorted(corners.items())),
        tuple(problems),
        dict(counts),
    )


def _topological(
    order: list[GameState], successors: dict[GameState, list[GameState]]
) -> list[GameState]:
    """The states in an order where each comes before its successors; states on a cycle
    (a game that could go on for ever) are left out."""
    indegree: Counter[GameState] = Counter()
    for nexts in successors.values():
        indegree.update(nexts)
    ready = [s for s in order if indegree[s] == 0]
    out = []
    while ready:
        state = ready.pop()
        out.append(state)
        for t in successors.get(state, ()):
            indegree[t] -= 1
            if indegree[t] == 0:
                ready.append(t)
    return out


def main(argv: list[str]) -> int:
    total = 0
    failed = False
    stride = 1 if argv == ["--full-boundary"] else BOUNDARY_STRIDE
    for reduced in CONFIGS:
        began = time.perf_counter()
        found = explore(reduced, stride=stride)
        seconds = time.perf_counter() - began
        total += found.states
        print(
            f"{found.name}, {reduced.players} players: {found.states:,} states,"
            f" {found.transitions:,} transitions, {found.ends:,} end states,"
            f" {found.illegal_checked:,} other actions offered, longest game"
            f" {found.longest_game} actions ({seconds:.1f} s)"
        )
        print("  " + ", ".join(f"{k}: {v:,}" for k, v in found.corners.items()))
        b = found.boundary
        print(
            f"  boundary of state_problems around every {stride}th state:"
            f" {b['changes']:,} single changes, {b['distinct']:,} distinct changed states;"
            f" accepted {b['accepted reachable']:,} reachable and"
            f" {b['accepted unreachable']:,} unreachable, refused"
            f" {b['refused unreachable']:,} unreachable and {b['refused reachable']:,}"
            " reachable"
        )
        for problem in found.problems:
            failed = True
            print(f"  PROBLEM: {problem}")
    print(f"explored {total:,} distinct states in all")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

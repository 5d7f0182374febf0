"""How long ``state_problems`` takes on hostile states, and how its history search ends on
standard games' states and on single changes to them, and how long it takes on those it
stops on (docs/verification.md, "The work limit, and what is exact where"). Not part of CI: it
measures time, and only reports.

Run: ``nice -n 10 .venv/bin/python -m verification.history_limits [STATES [STRIDE]]``;
with ``--further [STRIDE]``, the same verdicts on twelve further samples of standard games
(about ten minutes of CPU); with ``--hostile [STATES]``, how many random states (1,000 by
default) the search stops on, in the standard game and the two largest configurations;
with ``--undecided [COUNT]``, the first random states it stops on (4 by default), as JSON
(``tests/data/undecided-states.json``).
"""

import json
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator

from high_society import (
    STANDARD,
    STANDARD_DECK,
    GameConfig,
    GameState,
    Phase,
    PlayerState,
    StatusCard,
    apply,
    legal_actions,
    new_game,
    sort_cards,
)
from high_society import _reachability as history
from high_society.bots import CautiousBot, ClassicHeuristicBot, HeuristicBot, RandomBot
from high_society.host import play
from high_society.invariants import state_problems
from high_society.serial import state_to_json
from verification.boundary import single_changes

NO_HISTORY = "no order of the past auctions"

#: The largest configurations allowed: 12 money cards (MAX_MONEY_CARDS), 5 players.
LARGEST = {
    "standard values and 30": (1, 2, 3, 4, 6, 8, 10, 12, 15, 20, 25, 30),
    "twelve values up to 997": tuple(sorted(v * 83 % 997 + 1 for v in range(1, 13))),
}


def _timed(state: GameState) -> float:
    """CPU seconds of ``state_problems(state)``, with no answer cached."""
    history.clear_cache()
    began = time.process_time()
    state_problems(state)
    return time.process_time() - began


def hand_built(config: GameConfig) -> GameState:
    """Seats 1 to 4 spent all their money with one luxury card each; the three disgrace
    cards are taken and a luxury card is out of the game: very many orders and payments."""
    money = frozenset(config.money)
    owned = [
        [StatusCard.PASSE],
        [StatusCard.SCANDALE],
        [StatusCard.LUXURY_1],
        [StatusCard.LUXURY_2],
        [StatusCard.LUXURY_4],
    ]
    spent = [frozenset(), money, money, money, money]
    return between_rounds(config, owned, spent, 0, (StatusCard.LUXURY_3, StatusCard.FAUX_PAS))


def between_rounds(
    config: GameConfig,
    owned: list[list[StatusCard]],
    spent: list[frozenset[int]],
    turn: int,
    removed: tuple[StatusCard, ...] = (),
) -> GameState:
    """A state between rounds, ``turn`` to reveal: each seat owns ``owned`` and spent
    ``spent`` (the rest of its money in hand), ``removed`` is out of the game and every
    other status card in the deck."""
    money = frozenset(config.money)
    deck = list(config.deck)
    for card in [c for cards in owned for c in cards] + list(removed):
        deck.remove(card)
    players = tuple(
        PlayerState(hand=money - s, spent=s, status_cards=sort_cards(o))
        for o, s in zip(owned, spent, strict=True)
    )
    return GameState(config, players, sort_cards(deck), Phase.REVEAL, turn, None, removed)


def random_states(config: GameConfig, rng: random.Random, count: int) -> Iterator[GameState]:
    """States of 5 seats between rounds with 8 to 14 auctions done: status cards dealt to
    random seats (Faux Pas with a luxury card out of the game), random spent money (none,
    all, all but one card, or a random number of cards)."""
    money = list(config.money)
    every = len(money)
    while count:
        deck = list(config.deck)
        rng.shuffle(deck)
        cut = rng.randint(8, 14)
        if not any(c.is_dark_green for c in deck[cut:]):
            continue
        owned: list[list[StatusCard]] = [[] for _ in range(5)]
        for card in deck[:cut]:
            owned[rng.randrange(5)].append(card)
        removed: tuple[StatusCard, ...] = ()
        for cards in owned:
            luxury = [c for c in cards if c.is_luxury]
            if StatusCard.FAUX_PAS in cards and luxury:
                cards.remove(StatusCard.FAUX_PAS)
                cards.remove(luxury[0])
                removed = (luxury[0], StatusCard.FAUX_PAS)
        sizes = [0, every - 1, every, rng.randint(1, every)]
        spent = [frozenset(rng.sample(money, rng.choice(sizes))) for _ in range(5)]
        yield between_rounds(config, owned, spent, rng.randrange(5), removed)
        count -= 1


def undecided(states: list[GameState]) -> Counter[str]:
    """How the history search ends on states ``state_problems`` accepts (reachable ones,
    say): a history found, or its limit (``REFUTED`` would contradict the acceptance)."""
    ends: Counter[str] = Counter()
    for state in states:
        try:
            ends["found" if history.find_history(state) is not None else "REFUTED"] += 1
        except history.Undecided:
            ends["undecided"] += 1
    return ends


def stopped_on(count: int, seed: int = 19) -> list[GameState]:
    """The first ``count`` random states of the standard game (``random_states``, from
    ``seed``) that ``state_problems`` accepts only because the search stopped at its limit
    (one in about 1,500 random states): ``tests/data/undecided-states.json``."""
    found: list[GameState] = []
    for state in random_states(STANDARD, random.Random(seed), 10**9):
        if state_problems(state):
            continue
        try:
            history.find_history(state)
        except history.Undecided:
            found.append(state)
            if len(found) == count:
                return found
    raise AssertionError("unreachable: random_states never ends")


def bot_games(games: int, first: int = 0) -> list[list[GameState]]:
    """The states of seeded games of 3 to 5 seats (seeds from ``first`` on), each game
    played by one kind of bot (ClassicHeuristicBot, HeuristicBot, CautiousBot, RandomBot
    in turn)."""
    kinds = [ClassicHeuristicBot, HeuristicBot, CautiousBot, RandomBot]
    out = []
    for seed in range(first, first + games):
        kind = kinds[seed % len(kinds)]
        bots = [kind(seed * 5 + i) for i in range(3 + seed % 3)]
        out.append([step.after for step in play(bots, seed=seed)])
    return out


def walks(games: int, seed: int = 2) -> list[list[GameState]]:
    """The states of random-walk games of 3 to 5 seats (passes and small bids favoured)."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        state = new_game(rng.randint(3, 5))
        states = []
        while legal := legal_actions(state):
            pick = 0 if rng.random() < 0.4 else rng.randrange(min(len(legal), 8))
            state = apply(state, legal[pick])
            states.append(state)
        out.append(states)
    return out


def replays(state: GameState, rounds: list[history.PastRound]) -> bool:
    """Whether the game the witness ``rounds`` describes leads to ``state`` under ``apply``."""
    after = new_game(len(state.players), state.config)
    for action in history.history_actions(state, rounds):
        after = apply(after, action)
    return after == state


def verdicts(
    games: list[list[GameState]], stride: int, stopped: list[GameState] | None = None
) -> Counter[str]:
    """Every state of ``games`` and every single change (verification.boundary) of every
    ``stride``-th state, each asked once: how ``state_problems`` and its history search
    answer. The games' own states are reachable: ``REFUSED REACHABLE`` counts the wrong
    answers. A state accepted comes with a witness that must replay to it (else
    ``WITNESS FAILED``); ``undecided`` counts the states accepted only because the search
    stopped at its limit (the games' own states apart), and ``stopped`` (if given) collects
    every state the search stopped on."""
    counts: Counter[str] = Counter()
    asked: set[GameState] = set()
    for states in games:
        for k, state in enumerate(states):
            todo = [(state, True)]
            if k % stride == 0:
                todo += [(c, False) for c in single_changes(state)]
            for candidate, known in todo:
                if candidate in asked:
                    continue
                asked.add(candidate)
                verdict = _verdict(candidate, known)
                counts[verdict] += 1
                if stopped is not None and verdict.startswith("undecided"):
                    stopped.append(candidate)
    return counts


def _verdict(state: GameState, known_reachable: bool) -> str:
    problems = state_problems(state)
    if problems:
        if known_reachable:
            return "REFUSED REACHABLE"
        if any(NO_HISTORY in p for p in problems) and len(problems) == 1:
            return "refused by the history search"
        return "refused by the other checks"
    try:
        rounds = history.find_history(state)
    except history.Undecided:
        return "undecided (accepted), reachable" if known_reachable else "undecided (accepted)"
    if rounds is None or not replays(state, rounds):
        return "WITNESS FAILED"
    return "accepted with a witness, reachable" if known_reachable else "accepted with a witness"


def further(stride: int) -> None:
    """Print the verdicts on the twelve further samples: 40 bot games each of seeds 40 to
    279, 40 random walks each of seeds 5 to 15 (odd), their states and the single changes
    of every ``stride``-th; then how the search ends with 40 times the work on every
    ``stride``-th state it stopped on."""
    stopped: list[GameState] = []
    for k, first in enumerate(range(40, 280, 40)):
        for name, sample in [
            (f"40 bot games of seeds {first} to {first + 39}", bot_games(40, first)),
            (f"40 random walks of seed {5 + 2 * k}", walks(40, 5 + 2 * k)),
        ]:
            found = verdicts(sample, stride, stopped)
            print(f"{name} ({found.total()} distinct states): {dict(found)}", flush=True)
    more = 40 * history.WORK_LIMIT
    ends, worst = more_work(stopped[::stride], more)
    print(
        f"every {stride}th of the {len(stopped)} states the search stopped on, again with"
        f" {more:,} units of work: {dict(ends)}; at most {1000 * worst:.0f} ms a state"
    )


def hostile(count: int) -> None:
    """Print, of ``count`` random states (seed 1) the other checks accept, how many the
    search stops on, in the standard game and the two largest configurations."""
    configs = {"the standard game": GameConfig()}
    configs.update(
        {name: GameConfig(money=money, deck=STANDARD_DECK) for name, money in LARGEST.items()}
    )
    for name, config in configs.items():
        states = random_states(config, random.Random(1), count)
        accepted = [state for state in states if not state_problems(state)]
        stopped = undecided(accepted)["undecided"]
        print(f"{name}: of {count} random states, {len(accepted)} accepted, {stopped} undecided")


def main(argv: list[str]) -> int:
    if argv[:1] == ["--further"]:
        further(int(argv[1]) if len(argv) > 1 else 10)
        return 0
    if argv[:1] == ["--undecided"]:
        examples = stopped_on(int(argv[1]) if len(argv) > 1 else 4)
        lines = [json.dumps(state_to_json(state)) for state in examples]
        print("[\n" + ",\n".join(lines) + "\n]")
        return 0
    if argv[:1] == ["--hostile"]:
        hostile(int(argv[1]) if len(argv) > 1 else 1000)
        return 0
    count = int(argv[0]) if argv else 300
    stride = int(argv[1]) if len(argv) > 1 else 10
    for name, money in LARGEST.items():
        config = GameConfig(money=money, deck=STANDARD_DECK)
        built = _timed(hand_built(config))
        times = [_timed(s) for s in random_states(config, random.Random(1), count)]
        print(
            f"5 players, {name}: hand-built {1000 * built:.0f} ms;"
            f" {count} random states: mean {1000 * sum(times) / count:.1f} ms,"
            f" max {1000 * max(times):.0f} ms"
        )
    games: list[GameState] = []
    for seed in range(20):
        bots = [ClassicHeuristicBot(seed * 5 + i) for i in range(3 + seed % 3)]
        games += [step.after for step in play(bots, seed=seed)]
    print(f"every state of 20 ClassicHeuristicBot games ({len(games)}): {dict(undecided(games))}")
    walked = [state for game in walks(20) for state in game]
    print(f"every state of 20 random-walk games ({len(walked)}): {dict(undecided(walked))}")
    stopped: list[GameState] = []
    for name, sample in [("40 bot games", bot_games(40)), ("40 random walks", walks(40, 3))]:
        found = verdicts(sample, stride, stopped)
        print(f"{name}, their states and single changes of every {stride}th: {dict(found)}")
    times = [_timed(s) for s in stopped]
    print(
        f"the {len(stopped)} states the search stopped on, again with no answer cached:"
        f" mean {1000 * sum(times) / max(len(times), 1):.0f} ms,"
        f" max {1000 * max(times, default=0):.0f} ms"
    )
    more = 10 * history.WORK_LIMIT
    ends, worst = more_work(stopped[::stride], more)
    print(
        f"every {stride}th of the {len(stopped)} states the search stopped on, again with"
        f" {more:,} units of work: {dict(ends)}; at most {1000 * worst:.0f} ms a state"
    )
    return 0


def more_work(states: list[GameState], limit: int) -> tuple[Counter[str], float]:
    """How the search ends on ``states`` with ``limit`` units of work (no answer cached),
    and the most CPU seconds one took: whether the limit or the search is what stops it."""
    ends: Counter[str] = Counter()
    worst = 0.0
    for state in states:
        history.clear_cache()
        began = time.process_time()
        try:
            found = history.find_history(state, limit)
            ends["found" if found is not None else "refuted"] += 1
        except history.Undecided:
            ends["undecided"] += 1
        worst = max(worst, time.process_time() - began)
    return ends, worst


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

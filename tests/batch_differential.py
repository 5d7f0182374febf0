"""The batch engine against the reducer: the same choices through both, compared at every step.

:func:`play_both` plays games in a :class:`~high_society.batch.GameBatch` and, for each of
them, a ``GameState`` through :func:`~high_society.apply`, with the same actions (chosen
by a steered random policy) and the same reveals (drawn by the batch, replayed as
``Reveal`` actions). Before every step it compares each game's legal-action ids with the
reducer's legal actions and its observation with the documented layout; after every step
the converted state with the reducer's state; at the end the results (R10-R12) and the
returns. Any difference raises :class:`Mismatch`.

``tests/test_batch_differential.py`` runs it briefly in CI; the long run is a command
(figures in docs/batch.md)::

    python3 tasks.py batch-diff [--steps 2000000] [--seed 1]
"""

import argparse
import functools
import sys
import time
from collections.abc import Sequence

import attrs
import numpy as np
import numpy.typing as npt

from high_society import (
    STANDARD,
    Action,
    Bid,
    Discard,
    GameConfig,
    GameState,
    Pass,
    Phase,
    Reveal,
    StatusCard,
    apply,
    legal_actions,
    new_game,
    result,
)
from high_society.batch import GameBatch

# --- Reference conversions --------------------------------------------------------------------
# Written from COMMON.md's action ids and the observation layout of issue 12.
# TODO(lead): switch to high_society.encoding (action_id, action_from_id, legal_action_ids)
# and high_society.observation (observation_tensor, returns) once they are merged.

CARDS = tuple(StatusCard)


def action_id(action: Action, config: GameConfig) -> int:
    """The id of a Pass, Bid or Discard (COMMON.md)."""
    match action:
        case Pass():
            return 0
        case Bid(_, cards):
            return _bid_id(config.money, cards)
        case Discard(_, card):
            return (1 << len(config.money)) + card.luxury_value - 1
        case Reveal():
            raise ValueError("a reveal has a chance id, not a player action id")


@functools.lru_cache(maxsize=1 << 16)
def _bid_id(money: tuple[int, ...], cards: frozenset[int]) -> int:
    return sum(1 << i for i, v in enumerate(money) if v in cards)


def action_from_id(state: GameState, action: int) -> Action:
    """The player action of id ``action`` for the seat to act in ``state``."""
    config, seat = state.config, state.turn
    num_bids = 1 << len(config.money)
    if action == 0:
        return Pass(seat)
    if action < num_bids:
        return Bid(seat, frozenset(v for i, v in enumerate(config.money) if action >> i & 1))
    return Discard(seat, StatusCard.luxury(action - num_bids + 1))


def reducer_legal_ids(state: GameState) -> list[int]:
    """The ids of ``legal_actions(state)``, ascending."""
    return sorted(action_id(a, state.config) for a in legal_actions(state))


@functools.lru_cache(maxsize=4)
def _subset_sums(money: tuple[int, ...]) -> npt.NDArray[np.int64]:
    ids = np.arange(1 << len(money), dtype=np.int64)
    return sum((((ids >> i) & 1) * v for i, v in enumerate(money)), np.zeros_like(ids))


def quick_legal_check(state: GameState, row: npt.NDArray[np.bool_]) -> bool:
    """Whether ``row`` holds exactly the legal ids of ``state``, without building actions
    (for the long run): as many ids as ``legal_actions`` has, and in an auction exactly Pass
    and the subsets of the hand whose total reaches the reducer's ``min_total`` with the
    seat's face-up cards (R5); in a discard exactly the discards of ``legal_actions``."""
    legal = legal_actions(state)
    ids = np.flatnonzero(row)
    if len(ids) != len(legal):
        return False
    if state.phase is not Phase.AUCTION:
        return ids.tolist() == reducer_legal_ids(state)
    config, player = state.config, state.players[state.turn]
    assert legal.min_total is not None
    sums = _subset_sums(config.money)
    everything = np.arange(len(sums))
    hand = sum(1 << i for i, v in enumerate(config.money) if v in player.hand)
    wanted = ((everything & ~hand) == 0) & (sums + sum(player.table) >= legal.min_total)
    wanted[0] = True  # Pass
    return bool((row[: len(sums)] == wanted).all()) and not row[len(sums) :].any()


def observation_reference(state: GameState, seat: int) -> list[float]:
    """``observation_tensor(state, seat)`` as the layout document describes it."""
    config, n = state.config, state.num_players
    counts = [0.0] * 14
    out = [0.0] * 4
    out[list(Phase).index(state.phase)] = 1.0
    auction = [0.0] * 14
    if state.auction is not None:
        auction[CARDS.index(state.auction)] = 1.0
    out += auction
    out += [float(state.deck.count(c)) for c in CARDS]
    out += [float(state.removed.count(c)) for c in CARDS]
    out.append(float(state.highest_bid))
    for k in range(n):
        p = (seat + k) % n
        player = state.players[p]
        out += [float(v in player.hand) for v in config.money]
        out += [float(v in player.table) for v in config.money]
        out.append(float(player.passed))
        out.append(float(state.turn == p))
        counts = [float(player.status_cards.count(c)) for c in CARDS]
        out += counts
    return out


def reference_returns(state: GameState) -> list[float]:
    """Winners share 1; everyone else 0 (issue 12's convention)."""
    won = result(state).winners
    return [1 / len(won) if p in won else 0.0 for p in range(state.num_players)]


# --- The differential run ---------------------------------------------------------------------


class Mismatch(AssertionError):
    """The engines disagree."""


@attrs.frozen
class Tally:
    """What a differential run compared."""

    games: int
    steps: int
    states_compared: int
    bids: int
    passes: int
    discards: int


def _choose(
    mask: npt.NDArray[np.bool_], over: npt.NDArray[np.bool_], rng: np.random.Generator
) -> npt.NDArray[np.int64]:
    """A steered policy: often pass, often one of the four cheapest-id bids, sometimes any
    legal action; it reaches Faux Pas choices and free cards that uniform play rarely does."""
    actions = np.zeros(len(mask), dtype=np.int64)
    for g in np.flatnonzero(~over):
        ids = np.flatnonzero(mask[g])
        move = rng.integers(6)
        if move < 2 and ids[0] == 0:
            actions[g] = 0
        elif move < 5:
            actions[g] = ids[rng.integers(min(len(ids), 5))]
        else:
            actions[g] = ids[rng.integers(len(ids))]
    return actions


def _revealed(after: GameState) -> StatusCard:
    """The card the batch revealed to reach ``after``."""
    card = after.auction if after.phase is Phase.AUCTION else after.ending_card
    assert card is not None
    return card


def _check_game(g: int, batch: GameBatch, state: GameState, where: str) -> None:
    converted = batch.to_state(g)
    if converted != state:
        raise Mismatch(f"game {g} {where}: batch {converted!r} != reducer {state!r}")


def play_both(
    players: int,
    games: int,
    seed: int,
    config: GameConfig = STANDARD,
    *,
    compare_observations: bool = True,
    uniform: bool = False,
    quick: bool = False,
) -> Tally:
    """Play ``games`` games of ``players`` seats through both engines (see the module doc),
    choosing with the steered policy or, with ``uniform``, the batch's own uniform sampler.
    ``quick`` compares the legal ids with :func:`quick_legal_check` instead of building
    every legal action (the long run; the CI tests build them).

    Raises:
        Mismatch: the engines disagree somewhere; the message says where.
    """
    rng = np.random.default_rng(seed)
    batch = GameBatch(games, players, config=config, seed=seed)
    states = []
    for g in range(games):
        converted = batch.to_state(g)
        states.append(apply(new_game(players, config), Reveal(_revealed(converted))))
        _check_game(g, batch, states[g], "after the first reveal")
    steps = bids = passes = discards = compared = 0
    over = batch.is_over
    while not over.all():
        mask = batch.legal_action_mask()
        seats = rng.integers(players, size=games)
        observations = batch.observations(seats) if compare_observations else None
        for g in np.flatnonzero(~over).tolist():
            if quick:
                if not quick_legal_check(states[g], mask[g]):
                    raise Mismatch(f"game {g}: legal ids differ in {states[g]!r}")
            else:
                expected = reducer_legal_ids(states[g])
                got = np.flatnonzero(mask[g]).tolist()
                if got != expected:
                    raise Mismatch(f"game {g}: legal ids {got[:20]}... != {expected[:20]}...")
            if observations is not None:
                reference = observation_reference(states[g], int(seats[g]))
                if observations[g].tolist() != reference:
                    raise Mismatch(f"game {g}: observation for seat {seats[g]} differs")
        actions = batch.sample_actions() if uniform else _choose(mask, over, rng)
        ended = batch.step(actions)
        for g in np.flatnonzero(~over).tolist():
            action = action_from_id(states[g], int(actions[g]))
            state = apply(states[g], action)
            match action:
                case Bid():
                    bids += 1
                case Pass():
                    passes += 1
                case Discard():
                    discards += 1
            if state.phase is Phase.REVEAL:
                state = apply(state, Reveal(_revealed(batch.to_state(g))))
            _check_game(g, batch, state, f"after {action!r}")
            if bool(ended[g]) != state.is_over:
                raise Mismatch(f"game {g}: ended {ended[g]} but reducer over {state.is_over}")
            states[g] = state
            steps += 1
            compared += 1
        over = batch.is_over
    outcome = batch.results()
    returns = batch.returns()
    for g, state in enumerate(states):
        expected_result = result(state)
        if (
            outcome.scores[g].tolist() != [float(s) for s in expected_result.scores]
            or outcome.money[g].tolist() != list(expected_result.money)
            or np.flatnonzero(outcome.cast_out[g]).tolist() != list(expected_result.cast_out)
            or np.flatnonzero(outcome.winners[g]).tolist() != list(expected_result.winners)
            or returns[g].tolist() != reference_returns(state)
        ):
            raise Mismatch(f"game {g}: results differ from {expected_result!r}")
    return Tally(games, steps, compared, bids, passes, discards)


def main(argv: Sequence[str]) -> int:
    """The long run: ``--steps`` decisions at least, round-robin over 3, 4 and 5 players,
    the steered and the uniform policy in turn."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=2_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=500, help="games per batch")
    args = parser.parse_args(argv)
    start = time.process_time()
    steps = games = 0
    seed = args.seed
    while steps < args.steps:
        for players in (3, 4, 5):
            tally = play_both(players, args.games, seed, uniform=seed % 2 == 0, quick=True)
            steps += tally.steps
            games += tally.games
            seed += 1
        cpu = time.process_time() - start
        print(f"{steps:,} steps, {games:,} games, {cpu:.0f} CPU s", flush=True)
    print(f"OK: {games:,} games, {steps:,} steps compared, no mismatch")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The batch engine against the reducer: the same choices through both, compared at every step.

:func:`play_both` plays games in a :class:`~high_society.batch.GameBatch` and, for each of
them, a ``GameState`` through :func:`~high_society.apply`, with the same actions (chosen
by a steered random policy) and the same reveals (drawn by the batch, replayed as
``Reveal`` actions). Before every step it compares each game's legal-action ids with the
reducer's, in the library's one encoding (:func:`~high_society.encoding.legal_action_ids`,
tied to ``legal_actions`` by tests/test_encoding.py and
property_tests/test_encoding_properties.py), and its observation with
:func:`~high_society.observation.observation_tensor`; it decodes the chosen ids with
:func:`~high_society.encoding.action_from_id`; after every step it compares the converted
state with the reducer's state; at the end the results (R10-R12) with
:func:`~high_society.result` and the returns with :func:`~high_society.observation.returns`.
Any difference raises :class:`Mismatch`.

``tests/test_batch_differential.py`` runs it briefly in CI; the long run is a command
(figures in docs/batch.md)::

    python3 tasks.py batch-diff [--steps 2000000] [--seed 1]
"""

import argparse
import sys
import time
from collections.abc import Sequence

import attrs
import numpy as np
import numpy.typing as npt

from high_society import (
    STANDARD,
    Bid,
    Discard,
    GameConfig,
    GameState,
    Pass,
    Phase,
    Reveal,
    StatusCard,
    apply,
    new_game,
    result,
)
from high_society.batch import GameBatch
from high_society.encoding import action_from_id, legal_action_ids
from high_society.observation import observation_tensor, returns

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
    mask: npt.NDArray[np.int8], over: npt.NDArray[np.bool_], rng: np.random.Generator
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
) -> Tally:
    """Play ``games`` games of ``players`` seats through both engines (see the module doc),
    choosing with the steered policy or, with ``uniform``, the batch's own uniform sampler.

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
            expected = list(legal_action_ids(states[g]))
            got = np.flatnonzero(mask[g]).tolist()
            if got != expected:
                raise Mismatch(f"game {g}: legal ids {got[:20]}... != {expected[:20]}...")
            if observations is not None:
                reference = observation_tensor(states[g], int(seats[g]))
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
    batch_returns = batch.returns()
    for g, state in enumerate(states):
        expected_result = result(state)
        if (
            outcome.scores[g].tolist() != [float(s) for s in expected_result.scores]
            or outcome.money[g].tolist() != list(expected_result.money)
            or np.flatnonzero(outcome.cast_out[g]).tolist() != list(expected_result.cast_out)
            or np.flatnonzero(outcome.winners[g]).tolist() != list(expected_result.winners)
            or batch_returns[g].tolist() != list(returns(state))
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
            tally = play_both(players, args.games, seed, uniform=seed % 2 == 0)
            steps += tally.steps
            games += tally.games
            seed += 1
        cpu = time.process_time() - start
        print(f"{steps:,} steps, {games:,} games, {cpu:.0f} CPU s", flush=True)
    print(f"OK: {games:,} games, {steps:,} steps compared, no mismatch")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

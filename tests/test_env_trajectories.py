"""The environments play as they always have: trajectories recorded from the PettingZoo
environments and the Gymnasium one before their reveals and bots went through the library's
one loop (:func:`high_society.host.turns`) are played again step by step, and every step
must agree.

``tests/data/env-trajectories.json`` holds, for each run below, the action of every step and
what followed it: each agent's observation and mask (digests of their bytes, with their
dtypes, shapes and writeable flags), the rewards, terminations, truncations and infos, the
global state, the game itself (a digest of its JSON), and for ``SoloEnv`` the sb3 masks and
the hooks its opponents were called with. The runs cover 3, 4 and 5 players, ``env()`` and
``raw_env`` (an illegal action in each, a reset in the middle of a game, resets without a
seed that go on with the last seed's reveals) and ``SoloEnv`` with state bots, seat bots and
hooks, every seat, ``normalize``, an illegal id, a step after the end and resets without a
seed (the same bots play on).

Run ``python -m tests.test_env_trajectories`` to record them again: only when the
environments' behaviour changes on purpose, which the changelog then says.
"""

import hashlib
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest

from high_society import Action, GameResult, IllegalActionError
from high_society.bots import AnyBot, GameStart, HeuristicBot, RandomBot, SeatOnly, Seen
from high_society.encoding import action_from_id
from high_society.gymnasium_env import SoloEnv
from high_society.pettingzoo import HighSocietyEnv, env, raw_env
from high_society.serial import state_to_json
from high_society.state import GameState

STORED = Path(__file__).parent / "data" / "env-trajectories.json"

Record = dict[str, object]
#: A run's choice of action: from the step's index and the legal ids (``None``: an illegal
#: id is wanted), an action id.
Choose = Callable[[int, "np.ndarray | None"], int]


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def array(values: np.ndarray) -> str:
    """An array's bytes, dtype, shape and writeable flag, in one string."""
    return f"{values.dtype}{values.shape}{'w' if values.flags.writeable else 'r'}:" + digest(
        values.tobytes()
    )


def game(state: GameState) -> str:
    return digest(json.dumps(state_to_json(state), sort_keys=True).encode())


# --- PettingZoo: env() and raw_env ------------------------------------------------------------


def aec_record(environment: HighSocietyEnv) -> Record:
    """Everything an agent or a trainer may read of ``environment`` now."""
    observed = [environment.observe(agent) for agent in environment.possible_agents]
    return {
        "agents": list(environment.agents),
        "selected": environment.agent_selection if environment.agents else None,
        "observed": digest(
            " ".join(
                array(o[key]) for o in observed for key in ("observation", "action_mask")
            ).encode()
        ),
        "rewards": repr(list(environment.rewards.values())),
        "bookkeeping": digest(
            repr(
                (
                    environment.rewards,
                    environment._cumulative_rewards,
                    environment.terminations,
                    environment.truncations,
                    environment.infos,
                )
            ).encode()
        ),
        "state": array(environment.state()),
        "game": game(environment.game),
    }


def aec_run(kind: str, players: int, choose: Choose) -> Iterator[Record]:
    """Four episodes: seeded; reset without a seed in the middle of the game, then
    without a seed; seeded, with an illegal id at its 12th step (``env()`` ends the game,
    ``raw_env`` raises and plays on)."""
    environment = env(players) if kind == "env" else raw_env(players)
    index = 0
    for seed, cut, illegal in ((players * 10 + 1, 25, None), (None, None, None), (7, None, 12)):
        environment.reset(seed=seed)
        yield {"reset": seed, **aec_record(environment)}
        for step in range(500):
            if not environment.agents or step == cut:
                break
            _, _, termination, truncation, _ = environment.last()
            mask = environment.observe(environment.agent_selection)["action_mask"]
            if termination or truncation:
                action = None
            else:
                action = choose(index, None if step == illegal else np.flatnonzero(mask))
                index += 1
            try:
                environment.step(action)
            except IllegalActionError as error:
                yield {"action": action, "raised": error.reason.value}
                continue
            yield {"action": action, **aec_record(environment)}
    # HighSocietyEnv.play: the game after an action and its reveals, the environment as it was.
    play = raw_env(players)
    play.reset(seed=players)
    while not play.game.is_over:
        action = choose(index, np.flatnonzero(play.observe(play.agent_selection)["action_mask"]))
        index += 1
        after = play.play(action_from_id(play.game, action))
        yield {"action": action, "play": game(after), "unchanged": game(play.game)}
        play.step(action)


# --- Gymnasium: SoloEnv -------------------------------------------------------------------------


class Logged:
    """A seat bot that plays ``bot`` (through :class:`~high_society.bots.SeatOnly`) and logs
    its hooks."""

    log: ClassVar[list[str]] = []

    def __init__(self, seed: int | None = None) -> None:
        self.inner = SeatOnly(HeuristicBot(seed))
        self.seed = seed

    def choose_seen(self, seen: Seen) -> Action:
        self.log.append(f"choose {self.seed} {len(seen.history)}")
        return self.inner.choose_seen(seen)

    def start(self, start: GameStart) -> None:
        self.log.append(f"start {self.seed} {start.seat} {start.players}")

    def end(self, outcome: GameResult) -> None:
        self.log.append(f"end {self.seed} {outcome.winners}")


OPPONENTS: dict[str, Callable[[int | None], AnyBot]] = {
    "heuristic": HeuristicBot,
    "random": RandomBot,
    "logged": Logged,
}

#: The SoloEnv runs: players, the learner's seat, the opponents, normalize.
SOLO_RUNS = [
    (3, 0, "heuristic", False),
    (3, 2, "logged", True),
    (4, 1, "random", False),
    (4, 3, "heuristic", True),
    (5, 0, "logged", False),
    (5, 4, "random", False),
]


def solo_record(solo: SoloEnv, answer: tuple[object, ...]) -> Record:
    observation = answer[0]
    assert isinstance(observation, dict)
    record: Record = {
        "observation": array(observation["observation"]),
        "mask": array(observation["action_mask"]),
        "rest": repr(answer[1:]),
        "action_masks": array(solo.action_masks()),
        "game": game(solo.game),
        "log": Logged.log[:],
    }
    Logged.log.clear()
    return record


def solo_run(
    players: int, seat: int, opponent: str, normalize: bool, choose: Choose
) -> Iterator[Record]:
    """Four episodes: seeded; without a seed; seeded, with an illegal id at its third step,
    then one more step; seeded again; each played to its end and one step past it."""
    Logged.log.clear()
    solo = SoloEnv(players, seat, OPPONENTS[opponent], normalize=normalize)
    index = 0
    for seed, illegal in ((players + seat, None), (None, None), (11, 2), (players + seat, None)):
        yield {"reset": seed, **solo_record(solo, solo.reset(seed=seed))}
        for step in range(200):
            done = solo.game.is_over
            mask = solo.action_masks()
            action = choose(index, None if step == illegal else np.flatnonzero(mask))
            index += 1
            answer = solo.step(action)
            yield {"action": action, **solo_record(solo, answer)}
            if done:  # one step past the end
                break


# --- Recording and replaying ---------------------------------------------------------------------


def runs(choose: Callable[[str], Choose]) -> dict[str, list[Record]]:
    """Every run's records, each run's actions from ``choose(name)``."""
    played: dict[str, list[Record]] = {}
    for kind in ("env", "raw"):
        for players in (3, 4, 5):
            name = f"{kind} {players}"
            played[name] = list(aec_run(kind, players, choose(name)))
    for players, seat, opponent, normalize in SOLO_RUNS:
        name = f"solo {players} {seat} {opponent} {normalize}"
        played[name] = list(solo_run(players, seat, opponent, normalize, choose(name)))
    return played


def random_choice(name: str) -> Choose:
    rng = random.Random(name)

    def choose(index: int, legal: np.ndarray | None) -> int:
        if legal is None:  # an illegal id: a discard, during an auction
            return 2057
        if len(legal) == 0:  # the game is over
            return 0
        return int(legal[rng.randrange(len(legal))])

    return choose


def recorded_choice(actions: dict[str, list[int]]) -> Callable[[str], Choose]:
    def of(name: str) -> Choose:
        def choose(index: int, legal: np.ndarray | None) -> int:
            return actions[name][index]

        return choose

    return of


@pytest.fixture(scope="module")
def stored() -> dict[str, list[Record]]:
    data: dict[str, list[Record]] = json.loads(STORED.read_text(encoding="utf-8"))
    return data


def actions_of(records: list[Record]) -> list[int]:
    return [r["action"] for r in records if "action" in r and r["action"] is not None]  # type: ignore[misc]


def test_every_run_is_played_again_step_by_step_as_recorded(
    stored: dict[str, list[Record]],
) -> None:
    actions = {name: actions_of(records) for name, records in stored.items()}
    played = runs(recorded_choice(actions))
    assert played.keys() == stored.keys()
    for name, records in stored.items():
        again = played[name]
        for index, (now, then) in enumerate(zip(again, records, strict=False)):
            assert now == then, f"{name}, step {index}"
        assert len(again) == len(records), name


def test_the_recording_covers_what_it_says(stored: dict[str, list[Record]]) -> None:
    everything = [r for records in stored.values() for r in records]
    assert sum("raised" in r for r in everything) == 3  # raw_env, 3 to 5 players
    assert any("-1" in str(r.get("rewards")) for r in everything)  # env(): illegal
    assert any("illegal_action" in str(r.get("rest")) for r in everything)  # SoloEnv
    assert any(any(e.startswith("end") for e in r.get("log", ())) for r in everything)  # type: ignore[attr-defined]
    assert sum(len(records) for records in stored.values()) > 1000


if __name__ == "__main__":
    recorded = runs(random_choice)
    lines = ",\n".join(
        f"{json.dumps(name)}: [\n"
        + ",\n".join(json.dumps(r, sort_keys=True) for r in records)
        + "\n]"
        for name, records in recorded.items()
    )
    STORED.write_text("{\n" + lines + "\n}\n", encoding="utf-8")
    print(f"{sum(map(len, recorded.values()))} steps in {len(recorded)} runs -> {STORED}")

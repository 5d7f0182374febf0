"""The batch engine's compiled opponents, tied to the reducer's bots.

The compiled heuristic must make :class:`~high_society.bots.HeuristicBot`'s decision on
every state of many played games, at equal draws (the bot's one random number per
decision): the states come from games of several bots and player counts, each state is
loaded into a batch, and the compiled decision is compared with ``choose_with``.
"""

import random

import numpy as np
import pytest

from high_society import GameState, Phase, Reveal, apply, new_game
from high_society.bots import (
    AnyBot,
    CautiousBot,
    ClassicHeuristicBot,
    HeuristicBot,
    PassBot,
    RandomBot,
)
from high_society.cards import STANDARD, GameConfig, StatusCard
from high_society.encoding import action_id
from high_society.host import play

pytest.importorskip("numba")
from high_society.batch import POLICIES, BatchError, GameBatch

REDUCED = GameConfig(money=(1, 2, 4, 8, 16), deck=STANDARD.deck)


def decision_states(games: int, seed: int, config: GameConfig = STANDARD) -> list[GameState]:
    """Every state of ``games`` games, played by a mix of bots, in which a seat must act."""
    makers = (HeuristicBot, ClassicHeuristicBot, RandomBot, CautiousBot, PassBot)
    rng = random.Random(seed)
    states: list[GameState] = []
    for index in range(games):
        players = 3 + index % 3
        bots: list[AnyBot] = [rng.choice(makers)(rng.getrandbits(32)) for _ in range(players)]
        states += [
            step.before
            for step in play(bots, seed=rng.getrandbits(32), config=config)
            if step.before.phase in (Phase.AUCTION, Phase.DISCARD)
        ]
    return states


BOTS = {"heuristic": HeuristicBot, "classic": ClassicHeuristicBot, "cautious": CautiousBot}


def compare(
    states: list[GameState], draws: list[float], boldness: float = 1.0, policy: str = "heuristic"
) -> int:
    """Compare the compiled ``policy`` with the reducer's bot on every state; the count."""
    by_players: dict[int, list[int]] = {}
    for i, state in enumerate(states):
        by_players.setdefault(state.num_players, []).append(i)
    compared = 0
    for indexes in by_players.values():
        batch = GameBatch.from_states([states[i] for i in indexes])
        got = batch.policy_actions(
            policy, draws=np.array([draws[i] for i in indexes]), boldness=boldness
        )
        bot = BOTS[policy](0, boldness=boldness) if policy != "cautious" else CautiousBot(0)
        for k, i in enumerate(indexes):
            expected = action_id(bot.choose_with(states[i], draws[i]), states[i].config)
            assert int(got[k]) == expected, (states[i], draws[i])
            compared += 1
    return compared


@pytest.mark.parametrize("config", [STANDARD, REDUCED], ids=["standard", "reduced"])
def test_the_compiled_heuristic_decides_as_the_reducers_on_every_state(
    config: GameConfig,
) -> None:
    states = decision_states(120 if config is STANDARD else 40, seed=1, config=config)
    rng = random.Random(2)
    draws = [rng.random() for _ in states]
    # The ends of the draw's range too: where a price is at its lowest and highest.
    draws[::7] = [0.0] * len(draws[::7])
    draws[3::7] = [1.0 - 2.0**-53] * len(draws[3::7])
    assert compare(states, draws) == len(states) > 3000 // (1 if config is STANDARD else 3)


@pytest.mark.parametrize("policy", ["classic", "cautious"])
def test_the_other_compiled_bots_decide_as_the_reducers(policy: str) -> None:
    states = decision_states(60, seed=4)
    rng = random.Random(5)
    draws = [rng.random() for _ in states]
    draws[::5] = [0.0] * len(draws[::5])
    assert compare(states, draws, policy=policy) == len(states) > 1500
    if policy == "classic":
        assert compare(states[:800], [0.5] * 800, boldness=1.3, policy=policy) == 800


def test_the_compiled_heuristic_follows_boldness() -> None:
    states = decision_states(20, seed=3)
    draws = [0.5] * len(states)
    assert compare(states, draws, boldness=1.7) == len(states)
    assert compare(states, draws, boldness=0.4) == len(states)


def test_the_comparison_bites_on_a_one_point_price_difference() -> None:
    # A state where the price is the whole decision: a luxury 5 against an empty table.
    state = apply(new_game(4), _reveal(StatusCard.LUXURY_5))
    batch = GameBatch.from_states([state])
    bot = HeuristicBot(0)
    # HeuristicBot prices it 1.4 * 5 + 1 = 8, so 1 is bid at every draw ...
    assert action_id(bot.choose_with(state, 0.0)) == 1
    got = batch.policy_actions("heuristic", draws=np.array([0.0]))
    assert int(got[0]) == action_id(bot.choose_with(state, 0.0))
    # ... and a bot twenty times less bold passes, in both engines.
    timid = HeuristicBot(0, boldness=0.05)
    assert int(batch.policy_actions("heuristic", draws=np.array([0.5]), boldness=0.05)[0]) == 0
    assert action_id(timid.choose_with(state, 0.5)) == 0


def _reveal(card: StatusCard) -> Reveal:
    return Reveal(card)


def test_policies_are_refused_by_name_and_shape() -> None:
    batch = GameBatch(2, players=3)
    with pytest.raises(BatchError, match="policy must be one of"):
        batch.policy_actions("caller")
    with pytest.raises(BatchError, match="draws must be 2 floats"):
        batch.policy_actions("heuristic", draws=np.array([0.5, 1.0]))
    with pytest.raises(BatchError, match="unknown policy"):
        batch.advance(["caller", "heuristic", "smart"])
    with pytest.raises(BatchError, match="policies must be 3 names"):
        batch.advance(["caller", "heuristic"])
    with pytest.raises(BatchError, match="boldness"):
        batch.advance(["caller"] * 3, boldness=0)
    assert POLICIES[batch.policy_codes(["caller", "uniform", "pass"])[0, 2]] == "pass"


def test_advance_stops_at_the_callers_seats_and_plays_the_others_legally() -> None:
    batch = GameBatch(200, players=4, seed=5)
    policies = np.array([["caller", "heuristic", "uniform", "pass"]] * 200)
    policies[::2] = ["heuristic", "caller", "pass", "heuristic"]
    callers = np.where(np.arange(200) % 2 == 0, 1, 0)
    ended_total = 0
    for _ in range(200):
        ended = batch.advance(policies)
        ended_total += int(ended.sum())
        live = ~batch.is_over
        assert (batch.to_act[live] == callers[live]).all()
        if not live.any():
            break
        batch.step(batch.sample_actions())
    assert batch.is_over.all()
    assert ended_total > 0


def test_the_masked_sampler_draws_only_allowed_ids_in_proportion() -> None:
    batch = GameBatch(4000, players=3, seed=9)
    logits = np.zeros((4000, batch.num_actions))
    logits[:, 0] = np.log(3.0)  # Pass three times as likely as each other legal id
    mask = np.zeros((4000, batch.num_actions), dtype=np.bool_)
    mask[:, [0, 1, 2]] = True
    drawn = batch.sample_masked(logits, mask)
    counts = np.bincount(drawn, minlength=3)
    assert counts.sum() == 4000
    assert set(np.flatnonzero(counts)) <= {0, 1, 2}
    # 3/5, 1/5, 1/5 of 4,000 draws; five standard deviations apart at most (seeded).
    assert abs(counts[0] - 2400) < 5 * np.sqrt(4000 * 0.6 * 0.4)
    legal = batch.legal_action_mask()
    chosen = batch.sample_masked(np.random.default_rng(1).normal(size=logits.shape))
    assert legal[np.arange(4000), chosen].all()


def test_step_where_leaves_the_other_games_as_they_are() -> None:
    batch = GameBatch(3, players=3, seed=4)
    before = [batch.to_state(g) for g in range(3)]
    bids = batch.policy_actions("cheapest")
    batch.step(bids, where=np.array([True, False, True]))
    assert batch.to_state(1) == before[1]
    assert batch.to_state(0) != before[0]
    assert batch.to_state(2) != before[2]
    # An unselected game's id is not checked: 2057 is illegal in every game here.
    batch.step(np.array([0, 2057, 0]), where=np.array([True, False, True]))
    with pytest.raises(BatchError, match="where must be"):
        batch.step(bids, where=np.array([1, 0, 1]))


def test_the_self_play_env_takes_gymnasiums_reset_options_and_numpy_seeds() -> None:
    from high_society.batch import VectorEnv

    env = VectorEnv(3, players=3, seed=1)
    first, infos = env.reset(seed=np.uint32(5))  # type: ignore[arg-type]
    again, _ = VectorEnv(3, players=3).reset(seed=5)
    assert (first == again).all()
    assert infos["action_mask"].dtype == np.int8
    env.step(env.batch.sample_actions())
    kept = env.batch.to_state(1)
    env.reset(options={"reset_mask": np.array([True, False, True])})
    assert env.batch.to_state(1) == kept
    with pytest.raises(BatchError, match="unknown reset option"):
        env.reset(options={"mask": None})

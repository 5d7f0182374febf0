"""The PettingZoo environments (high_society.pettingzoo): PettingZoo's own api_test,
seed_test, render_test and state_test for 3, 4 and 5 players, the environments tied to the
library move by move, and env() tied to the raw environment inside PettingZoo's own classic
wrappers step by step. The Gymnasium environment's tests are in test_gymnasium_env.py."""

from collections.abc import Callable

import numpy as np
import pytest
from pettingzoo import AECEnv
from pettingzoo.test import api_test, render_test, seed_test, state_test
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

import high_society._env_observation
from high_society import (
    Bid,
    GameState,
    IllegalActionError,
    Pass,
    Phase,
    Reveal,
    StatusCard,
    apply,
    legal_actions,
    new_game,
    to_act,
)
from high_society.encoding import (
    action_id,
    legal_action_ids,
    legal_action_mask,
    num_actions,
)
from high_society.errors import InvalidConfigError
from high_society.observation import observation_size, observation_tensor, returns
from high_society.pettingzoo import ENV_NAME, ClassicEnv, HighSocietyEnv, env, raw_env


@pytest.mark.parametrize("players", [3, 4, 5])
def test_pettingzoo_api_test_passes(players: int) -> None:
    # The test warns about dictionary observations, which the classic games use too.
    with pytest.warns(UserWarning, match="Observation"):
        api_test(env(players=players), num_cycles=200)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_pettingzoo_seed_test_passes(players: int) -> None:
    seed_test(lambda: env(players=players), num_cycles=100)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_pettingzoo_render_test_passes(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode=None: env(players=players, render_mode=render_mode))
    assert "players; " in capsys.readouterr().out  # "human" prints the table


@pytest.mark.parametrize("players", [3, 4, 5])
def test_pettingzoo_state_test_passes(players: int) -> None:
    state_test(env(players=players), turn_based_aec_to_parallel(env(players=players)), 30)


def test_the_environment_as_pettingzoo_sees_it() -> None:
    environment = env(players=5)
    environment.reset(seed=1)
    assert environment.metadata["name"] == ENV_NAME == "high_society_v0"
    assert environment.possible_agents == [f"player_{i}" for i in range(5)]
    assert environment.action_space("player_0").n == num_actions() == 2058
    space = environment.observation_space("player_3")
    assert space["observation"].shape == (observation_size(5),)
    assert space["action_mask"].shape == (2058,)
    assert environment.state().shape == (observation_size(5),)


def test_every_step_agrees_with_the_library() -> None:
    environment = raw_env(4)
    environment.reset(seed=11)
    rng = np.random.default_rng(11)
    steps = 0
    for agent in environment.agent_iter():
        observation, reward, termination, _, _ = environment.last()
        game = environment.game
        if termination:
            assert reward == returns(game)[int(agent.removeprefix("player_"))]
            environment.step(None)
            continue
        seat = int(agent.removeprefix("player_"))
        assert game.turn == seat
        assert legal_action_ids(game) == tuple(np.flatnonzero(observation["action_mask"]))
        assert observation["observation"].tolist() == observation_tensor(game, seat)
        assert observation["observation"].dtype == np.float32
        others = [a for a in environment.agents if a != agent]
        assert not environment.observe(others[0])["action_mask"].any()
        move = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        action = next(a for a in legal_actions(game) if action_id(a) == move)
        environment.step(move)
        expected, after = apply(game, action), environment.game
        # Only chance may have moved since: at most one reveal, which changes no seat.
        assert after.players == expected.players
        assert after.removed == expected.removed
        assert len(expected.deck) - len(after.deck) == (expected.phase is Phase.REVEAL)
        steps += 1
    assert environment.game.is_over
    assert environment.agents == []
    assert steps > 10


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_observation_is_the_librarys_own_across_many_games(
    players: int, caplog: pytest.LogCaptureFixture
) -> None:
    # The environment shares auction masks between states with the same key and remakes
    # only the changed parts of the tensor: over many games through env() and last(), some
    # ended by an illegal action and some cut short by a reset, every agent's mask and
    # tensor is still legal_action_mask's and observation_tensor's for that state and seat.
    environment = env(players)
    rng = np.random.default_rng(players)
    fresh = bytearray(num_actions())
    checked = illegal = cut = 0
    for seed in range(25):
        environment.reset(seed=seed)
        stop = rng.integers(5, 80) if seed % 5 == 1 else None  # then reset mid-game
        for step, agent in enumerate(environment.agent_iter()):
            if step == stop:
                cut += 1
                break
            game, seat = environment.game, int(agent.removeprefix("player_"))
            observation, _, termination, truncation, _ = environment.last()
            legal_action_mask(game, fresh)
            if to_act(game) != seat:  # as PettingZoo's wrappers give it: after an illegal
                fresh[:] = bytes(len(fresh))  # action, the seat to act still sees its mask
            assert observation["action_mask"].tobytes() == bytes(fresh)
            assert observation["observation"].tolist() == observation_tensor(game, seat)
            checked += 1
            if termination or truncation:
                environment.step(None)
            elif seed % 5 == 3 and rng.random() < 0.02:
                illegal += 1
                environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"] == 0))))
            else:
                environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert checked > 500
    assert illegal
    assert cut
    assert "Illegal move" in caplog.text


def _played(*rounds: tuple[StatusCard, tuple[tuple[int, set[int]], ...]]) -> GameState:
    """A 4-player game from the start: each round a reveal, then its moves as (seat, cards
    of a bid; no cards for a pass)."""
    state = new_game(4)
    for card, moves in rounds:
        state = apply(state, Reveal(card))
        for seat, cards in moves:
            state = apply(state, Bid(seat, frozenset(cards)) if cards else Pass(seat))
    return state


def test_masks_are_shared_by_hand_and_amount_to_beat_alone() -> None:
    # The kept masks are keyed by the bidder's hand and the highest bid less its face-up
    # total. States that agree on those share one array; a state with the same hand and
    # highest bid but another face-up total (so another amount to beat) does not. In each
    # game seat 3 takes a Passé (seat 1 paying 1 and 2, or 2 alone), then seat 1 bids in
    # the Luxury 5 auction holding 3, 4, 6, ... 25.
    Round = tuple[StatusCard, tuple[tuple[int, set[int]], ...]]
    passe: Round = (StatusCard.PASSE, ((0, {1}), (1, {1, 2}), (2, {4}), (3, set())))
    passe_2: Round = (StatusCard.PASSE, ((0, {1}), (1, {2}), (2, {3}), (3, set())))
    luxury = StatusCard.LUXURY_5
    states = {
        "beat 3, nothing up": _played(passe, (luxury, ((3, {3}), (0, set())))),
        "beat 3, nothing up, other rival": _played(passe, (luxury, ((3, {1, 2}), (0, set())))),
        "beat 3, 1 up": _played(passe_2, (luxury, ((3, set()), (0, set()), (1, {1}), (2, {4})))),
        "beat 2, 1 up": _played(passe_2, (luxury, ((3, set()), (0, set()), (1, {1}), (2, {1, 2})))),
    }
    environment = raw_env(4)
    environment.reset(seed=0)
    masks = {}
    for name, state in states.items():
        assert (state.turn, state.players[1].hand) == (1, frozenset(state.config.money) - {1, 2})
        environment.game = state
        mask = environment.observe("player_1")["action_mask"]
        expected = bytearray(num_actions())
        legal_action_mask(state, expected)
        assert mask.tobytes() == bytes(expected), name
        masks[name] = mask
    assert masks["beat 3, nothing up"].tobytes() != masks["beat 2, 1 up"].tobytes()
    # Equal masks, each the agent's own writable array (the kept one is copied).
    shared = masks["beat 3, nothing up"]
    for name in ("beat 3, nothing up, other rival", "beat 3, 1 up"):
        assert masks[name].tobytes() == shared.tobytes()
        assert masks[name].flags.writeable
        assert not np.shares_memory(masks[name], shared)


def test_the_kept_masks_are_bounded_and_stay_right_when_evicted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # With room for 3 masks, the cache evicts at almost every step: every mask is still
    # the encoding's own, a mask seen again at once is the kept array, and one seen again
    # after masks of other hands made room is made anew.
    monkeypatch.setattr(high_society._env_observation, "MASK_CACHE_SIZE", 3)
    environment = raw_env(4)
    rng = np.random.default_rng(9)
    written = bytearray(num_actions())
    for seed in range(4):
        environment.reset(seed=seed)
        while not environment.game.is_over:
            game, agent = environment.game, environment.agent_selection
            mask = environment.observe(agent)["action_mask"]
            legal_action_mask(game, written)
            assert mask.tobytes() == bytes(written)
            if game.phase is Phase.AUCTION:
                again = environment.observe(agent)["action_mask"]
                assert again.tobytes() == mask.tobytes()
                assert not np.shares_memory(again, mask)
            environment.step(int(rng.choice(np.flatnonzero(mask))))
    first = _played((StatusCard.LUXURY_5, ()))  # seat 0, every card in hand
    others: dict[frozenset[int], GameState] = {}
    environment.reset(seed=5)
    while len(others) < 4:  # auction states of four other hands
        game = environment.game
        hand = game.players[game.turn].hand
        if game.phase is Phase.AUCTION and hand != first.players[0].hand:
            others.setdefault(hand, game)
        mask = environment.observe(environment.agent_selection)["action_mask"]
        environment.step(int(rng.choice(np.flatnonzero(mask))))
    environment.game = first
    kept = environment.observe("player_0")["action_mask"]
    for state in others.values():  # each of another hand: the first hand's mask makes room
        environment.game = state
        environment.observe(f"player_{state.turn}")
    environment.game = first
    again = environment.observe("player_0")["action_mask"]
    assert again.tobytes() == kept.tobytes()


def _auction_cards(seed: int) -> list[StatusCard | None]:
    """The cards auctioned in a game where every seat plays its first legal id (Pass, or
    the cheapest discard), for one seed."""
    environment = raw_env(3)
    environment.reset(seed=seed)
    cards = [environment.game.auction]
    while not environment.game.is_over:
        environment.step(legal_action_ids(environment.game)[0])
        cards.append(environment.game.auction)
    return cards


def test_the_same_seed_reveals_the_same_cards_and_other_seeds_others() -> None:
    assert _auction_cards(5) == _auction_cards(5)
    assert len({tuple(_auction_cards(seed)) for seed in range(8)}) > 1


def test_a_raw_environment_refuses_an_illegal_action_and_changes_nothing() -> None:
    environment = raw_env(3)
    environment.reset(seed=2)
    before = environment.game
    with pytest.raises(IllegalActionError):
        environment.step(2057)  # a discard, during an auction
    assert environment.game == before


def test_the_wrapped_environment_ends_the_game_on_an_illegal_action() -> None:
    environment = env(players=3)
    environment.reset(seed=2)
    offender = environment.agent_selection
    environment.step(2057)
    assert all(environment.terminations.values())
    assert environment.rewards[offender] == -1
    assert sorted(environment.rewards.values()) == [-1, 0, 0]


@pytest.mark.parametrize(("players", "mode"), [(2, None), (6, None), (3, "rgb_array")])
def test_bad_environment_settings_are_refused(players: int, mode: str | None) -> None:
    with pytest.raises(InvalidConfigError):
        HighSocietyEnv(players, mode)


def test_render_without_a_mode_warns_and_returns_nothing() -> None:
    environment = raw_env(3)
    environment.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert environment.render() is None
    ansi = raw_env(3, render_mode="ansi")
    ansi.reset(seed=0)
    text = ansi.render()
    assert isinstance(text, str)
    assert text.startswith("3 players; auction of ")


# --- env(): the classic wrappers' behaviour, built in ---------------------------------------


def _classic_wrapped(players: int) -> AECEnv:
    """The raw environment inside PettingZoo's own wrappers, as the classic games build it:
    the behaviour ClassicEnv must reproduce."""
    wrapped = wrappers.TerminateIllegalWrapper(raw_env(players), illegal_reward=-1)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(wrapped))


def _snapshot(environment: AECEnv) -> tuple[object, ...]:
    return (
        list(environment.agents),
        environment.agent_selection if environment.agents else None,
        dict(environment.rewards),
        dict(environment.terminations),
        dict(environment.truncations),
        dict(environment.unwrapped._cumulative_rewards),
        environment.unwrapped.game,
    )


@pytest.mark.parametrize(
    ("players", "seed", "illegal_at"),
    [(3, 0, None), (4, 1, None), (5, 2, 0), (4, 3, 17), (3, 4, 30)],
)
def test_env_behaves_as_the_raw_environment_inside_pettingzoos_wrappers(
    players: int, seed: int, illegal_at: int | None, caplog: pytest.LogCaptureFixture
) -> None:
    # Same seed, same actions (one illegal at step ``illegal_at``): every observation,
    # reward, termination, truncation and agent agrees at every step, to the end of the loop.
    ours, theirs = env(players), _classic_wrapped(players)
    assert type(ours) is ClassicEnv
    assert ours.unwrapped is ours
    ours.reset(seed=seed)
    theirs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for step, (agent, other) in enumerate(zip(ours.agent_iter(), theirs.agent_iter(), strict=True)):
        assert agent == other
        (obs, reward, term, trunc, info), expected = ours.last(), theirs.last()
        assert (reward, term, trunc, info) == expected[1:]
        assert (obs["observation"] == expected[0]["observation"]).all()
        assert (obs["action_mask"] == expected[0]["action_mask"]).all()
        if term or trunc:
            move = None
        elif step == illegal_at:
            move = int(rng.choice(np.flatnonzero(obs["action_mask"] == 0)))
        else:
            move = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        ours.step(move)
        theirs.step(move)
        assert _snapshot(ours) == _snapshot(theirs)
    assert ours.agents == theirs.agents == []
    if illegal_at is None:
        assert ours.game.is_over
    else:  # the illegal move ended it: each agent then steps once, with None
        assert step == illegal_at + players
        assert not ours.game.is_over
    assert ("Illegal move" in caplog.text) == (illegal_at is not None)


def test_an_illegal_action_ends_the_game_and_leaves_it_as_it_was(
    caplog: pytest.LogCaptureFixture,
) -> None:
    environment = env(players=4)
    environment.reset(seed=3)
    before, offender = environment.game, environment.agent_selection
    environment.step(2050)  # a discard, during an auction
    assert "Illegal move" in caplog.text
    assert environment.game is before
    assert environment.rewards[offender] == -1.0
    assert all(environment.terminations.values())
    assert all(environment.truncations.values())
    _, reward, termination, truncation, _ = environment.last()
    assert termination
    assert truncation
    assert reward == (-1.0 if environment.agent_selection == offender else 0)
    with pytest.raises(ValueError, match="only valid action is None"):
        environment.step(0)
    while environment.agents:
        environment.step(None)
    environment.step(None)  # once everyone is done: a warning, nothing else
    assert "called after all agents are terminated" in caplog.text
    assert environment.agents == []


@pytest.mark.parametrize("move", [2058, -1, None, 1.5, "0"])
def test_env_refuses_an_action_outside_the_space_and_changes_nothing(move: object) -> None:
    environment = env(players=3)
    environment.reset(seed=5)
    before, agent = environment.game, environment.agent_selection
    with pytest.raises(AssertionError, match="not in action space"):
        environment.step(move)  # type: ignore[arg-type]
    assert environment.game is before
    assert environment.agent_selection == agent
    assert not any(environment.terminations.values())


def test_env_takes_numpy_integers_as_the_action_space_samples_them() -> None:
    environment = env(players=3)
    environment.reset(seed=5)
    agent = environment.agent_selection
    environment.step(np.int64(0))  # Pass
    assert environment.game.players[int(agent.removeprefix("player_"))].passed


@pytest.mark.parametrize(
    "name",
    [
        "agents",
        "agent_selection",
        "rewards",
        "terminations",
        "truncations",
        "infos",
        "num_agents",
    ],
)
def test_env_has_no_episode_before_its_first_reset(name: str) -> None:
    with pytest.raises(AttributeError):
        getattr(env(players=3), name)


@pytest.mark.parametrize("call", ["step", "observe", "state", "render", "agent_iter"])
def test_env_refuses_calls_before_its_first_reset(call: str) -> None:
    environment = env(players=3, render_mode="ansi")
    arguments = {"step": (0,), "observe": ("player_0",)}.get(call, ())
    with pytest.raises(AssertionError, match="reset"):
        getattr(environment, call)(*arguments)


def test_a_loop_over_agent_iter_must_step() -> None:
    environment = env(players=3)
    environment.reset(seed=0)
    loop = iter(environment.agent_iter())
    next(loop)
    with pytest.raises(AssertionError, match="need to call step"):
        next(loop)
    environment.step(0)
    assert next(loop) == environment.agent_selection
    assert list(environment.agent_iter(max_iter=0)) == []


@pytest.mark.parametrize("make", [env, raw_env])
def test_a_kept_observation_never_changes_and_its_mask_is_the_agents_own(
    make: Callable[[int], AECEnv],
) -> None:
    # The tensor is read-only (read in place from bytes); the mask follows the package's
    # convention, int8 in a new writable array: writing into it changes nothing the
    # environment gives later, and the game going on changes neither array.
    environment = make(3)
    environment.reset(seed=6)
    agent = environment.agent_selection
    kept = environment.observe(agent)
    copies = {key: value.copy() for key, value in kept.items()}
    assert not kept["observation"].flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        kept["observation"][0] = 0
    assert kept["action_mask"].flags.writeable
    assert kept["action_mask"].dtype == np.int8
    kept["action_mask"][:] = 0
    assert (environment.observe(agent)["action_mask"] == copies["action_mask"]).all()
    kept["action_mask"][:] = copies["action_mask"]
    for _ in range(5):
        environment.step(
            int(np.flatnonzero(environment.observe(environment.agent_selection)["action_mask"])[-1])
        )
    assert (kept["action_mask"] == copies["action_mask"]).all()
    assert (kept["observation"] == copies["observation"]).all()
    assert (environment.observe(agent)["observation"] != copies["observation"]).any()


def test_the_mask_of_an_agent_not_to_act_is_empty_and_its_own() -> None:
    environment = raw_env(4)
    environment.reset(seed=1)
    waiting = next(a for a in environment.agents if a != environment.agent_selection)
    mask = environment.observe(waiting)["action_mask"]
    assert mask.dtype == np.int8
    assert mask.shape == (2058,)
    assert not mask.any()
    mask[0] = 1  # the agent's own array: the next observation is still empty
    assert not environment.observe(waiting)["action_mask"].any()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_kept_masks_stay_right_through_many_games(players: int) -> None:
    # Masks are kept between states with the same key and copied out: every mask an agent
    # kept, checked again after many later games (the kept arrays copied out again and
    # again), is still the encoding's mask of the state it was given for.
    environment = env(players)
    rng = np.random.default_rng(100 + players)
    kept: list[tuple[bytes, np.ndarray]] = []
    for seed in range(12):
        environment.reset(seed=seed)
        for _ in environment.agent_iter():
            observation, _, termination, truncation, _ = environment.last()
            if termination or truncation:
                environment.step(None)
                continue
            mask = observation["action_mask"]
            written = bytearray(num_actions())
            legal_action_mask(environment.game, written)
            kept.append((bytes(written), mask))
            environment.step(int(rng.choice(np.flatnonzero(mask))))
    for expected, mask in kept:
        assert mask.tobytes() == expected
        assert mask.flags.writeable

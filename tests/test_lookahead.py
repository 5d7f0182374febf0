"""The lookahead bot: its candidates, its knobs, and that its imagined games are the games
the reducer plays (a differential test on positions whose future is certain)."""

import numpy as np
import pytest

from high_society import (
    Discard,
    GameState,
    InvalidConfigError,
    NoSeatToActError,
    Pass,
    Phase,
    Reveal,
    apply,
    is_legal,
    legal_actions,
    new_game,
)
from high_society.batch import GameBatch
from high_society.bots import cheapest_bid
from high_society.learned import LearnedBot, PolicyNetwork, shipped_network
from high_society.lookahead import (
    DEFAULT_MARGINS,
    MAX_ROLLOUTS,
    LookaheadBot,
    lookahead_candidates,
)
from high_society.search import search_actions, win_share
from tests.builders import L, auction, discard_due


def _sharp(players: int) -> PolicyNetwork:
    """The shipped network with its outputs scaled so far apart that its probabilities are
    0 or 1: sampling it plays its greedy moves."""
    *hidden, (w, b) = shipped_network(players).layers
    return PolicyNetwork([*hidden, (w * 1e4, b * 1e4)], players)


def _last_auctions(players: int, count: int) -> list[GameState]:
    """``count`` positions of the last auction of games whose last card is certain: the
    reveals put the dark-green cards last, so one dark-green card is left in the deck, and
    its reveal ends the game (R9); the seats play the learned bot. One position a game, a
    decision with two candidates or more."""
    found: list[GameState] = []
    bot = LearnedBot()
    for seed in range(100):
        rng = np.random.default_rng(seed)
        state = new_game(players)
        while state.phase is not Phase.OVER:
            if state.phase is Phase.REVEAL:
                light = [c for c in state.deck if not c.is_dark_green] or list(state.deck)
                state = apply(state, Reveal(light[int(rng.integers(len(light)))]))
                continue
            if len(state.deck) == 1 and len(lookahead_candidates(state)) > 1:
                found.append(state)
                break
            state = apply(state, bot.choose(state))
        if len(found) == count:
            return found
    raise AssertionError("too few games reach such a position")


def _playout(state: GameState, network: PolicyNetwork) -> GameState:
    bot = LearnedBot(network=network)
    while state.phase is not Phase.OVER:
        action = Reveal(state.deck[0]) if state.phase is Phase.REVEAL else bot.choose(state)
        state = apply(state, action)
    return state


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_imagined_games_are_those_the_reducer_plays(players: int) -> None:
    network = _sharp(players)
    for seed, state in enumerate(_last_auctions(players, 4)):
        bot = LookaheadBot(seed, rollouts=3, network_share=1.0, margin=0.0, network=network)
        action = bot.choose(state)
        values = dict(bot.last_values)
        assert list(values) == list(lookahead_candidates(state, network))
        for candidate, value in values.items():
            final = _playout(apply(state, candidate), network)
            assert value == win_share(final, state.turn), (seed, candidate)
        best = max(values.values())
        assert action == next(a for a, v in values.items() if v == best)


def test_the_learned_move_stands_unless_another_is_worth_the_margin_more() -> None:
    state = apply(new_game(4), Reveal(L(8)))
    free = LookaheadBot(3, rollouts=16, margin=0.0)
    action = free.choose(state)
    values = dict(free.last_values)
    learned = lookahead_candidates(state)[0]
    assert values[action] == max(values.values())
    kept = LookaheadBot(3, rollouts=16, margin=1.0)
    assert kept.choose(state) == learned
    assert dict(kept.last_values) == values  # the same imagined games, another rule
    gain = values[action] - values[learned]
    assert LookaheadBot(3, rollouts=16, margin=gain).choose(state) == learned
    if gain > 0:
        assert LookaheadBot(3, rollouts=16, margin=gain / 2).choose(state) == action


@pytest.mark.parametrize(("players", "card", "seed"), [(4, 8, 1), (5, 8, 1)])
def test_a_bot_given_no_margin_takes_its_player_count_s(players: int, card: int, seed: int) -> None:
    # Positions where another move beats the learned one by 0.0625 (16 imagined games):
    # more than the 4-player default, less than the 5-player one.
    state = apply(new_game(players), Reveal(L(card)))
    free = LookaheadBot(seed, rollouts=16, margin=0.0)
    other = free.choose(state)
    values, learned = dict(free.last_values), lookahead_candidates(state)[0]
    gain = values[other] - values[learned]
    assert 0.05 < gain <= 0.15
    by_default = LookaheadBot(seed, rollouts=16)
    assert by_default.margin is None
    expected = learned if DEFAULT_MARGINS[players] >= gain else other
    assert by_default.choose(state) == expected
    assert (expected == learned) == (players == 5)


def test_the_other_seats_are_modelled_by_the_network_and_the_league_s_styles() -> None:
    state = apply(new_game(5), Reveal(L(8)))
    only_network = LookaheadBot(2, rollouts=8, network_share=1.0)
    only_network.choose(state)
    mixed = LookaheadBot(2, rollouts=8, network_share=0.0)
    mixed.choose(state)
    assert only_network.last_values != mixed.last_values


def test_the_candidates_are_learned_s_move_first_then_pass_the_cheapest_and_search_s() -> None:
    state = apply(new_game(4), Reveal(L(8)))
    candidates = lookahead_candidates(state)
    assert candidates[0] == LearnedBot().choose(state)
    assert set(candidates) == {Pass(0), cheapest_bid(state), *search_actions(state)}
    assert len(set(candidates)) == len(candidates) <= 8
    assert all(is_legal(state, a) for a in candidates)
    discard = discard_due()
    assert lookahead_candidates(discard) == tuple(legal_actions(discard))
    assert all(isinstance(a, Discard) for a in lookahead_candidates(discard))
    assert lookahead_candidates(new_game(3)) == ()


def test_it_plays_legal_moves_the_same_for_a_seed() -> None:
    state = auction()
    first = LookaheadBot(5, rollouts=4)
    action = first.choose(state)
    assert is_legal(state, action)
    assert len(first.last_values) == len(lookahead_candidates(state))
    assert all(0.0 <= v <= 1.0 for _, v in first.last_values)
    assert LookaheadBot(5, rollouts=4).choose(state) == action
    assert LookaheadBot(5, rollouts=4).choose(discard_due()) in legal_actions(discard_due())


def test_a_decision_with_one_candidate_is_played_at_once() -> None:
    state = auction()
    for seat in range(2):  # seats 0 and 1 pass: seat 2 must bid, or pass and take nothing
        state = apply(state, Pass(seat))
    only = lookahead_candidates(state)
    bot = LookaheadBot(1, rollouts=2)
    if len(only) == 1:
        assert bot.choose(state) == only[0]
        assert bot.last_values == ()
    bot.choose(auction())
    assert bot.last_values
    bot.choose(apply(new_game(3), Reveal(L(1))))
    assert bot.last_values


@pytest.mark.parametrize("rollouts", [0, -1, MAX_ROLLOUTS + 1, 2.0, True, "8", None])
def test_a_bad_budget_is_refused(rollouts: object) -> None:
    with pytest.raises(InvalidConfigError, match="rollouts must be an int"):
        LookaheadBot(1, rollouts=rollouts)  # type: ignore[arg-type]


_BAD_KNOBS = [-0.1, 1.5, float("nan"), True, "0.5"]


# ``margin=None`` is the player count's margin (the test above); a share must be given.
@pytest.mark.parametrize(
    ("knob", "value"),
    [("network_share", None)] + [(k, v) for k in ("network_share", "margin") for v in _BAD_KNOBS],
)
def test_a_bad_share_or_margin_is_refused(knob: str, value: object) -> None:
    with pytest.raises(InvalidConfigError, match=f"{knob} must be a number from 0 to 1"):
        LookaheadBot(1, **{knob: value})  # type: ignore[arg-type]


def test_a_network_of_another_count_or_kind_is_refused() -> None:
    with pytest.raises(InvalidConfigError, match="two-output"):
        LookaheadBot(network="learned")  # type: ignore[arg-type]
    bot = LookaheadBot(network=shipped_network(5), rollouts=2)
    with pytest.raises(InvalidConfigError, match="plays 5 players, not 3"):
        bot.choose(auction())


def test_no_seat_to_act_is_refused() -> None:
    with pytest.raises(NoSeatToActError):
        LookaheadBot(rollouts=2).choose(new_game(3))


def test_copies_of_a_state_continue_from_it_with_their_own_reveals() -> None:
    state = apply(apply(new_game(4), Reveal(L(3))), Pass(0))
    batch = GameBatch.copies(state, 5, seed=[7, 7, 8, 9, 7])
    assert all(batch.to_state(g) == state for g in range(5))
    batch.step(np.zeros(5, dtype=np.int64))
    for _ in range(2):
        batch.step(np.zeros(5, dtype=np.int64))
    revealed = [batch.to_state(g).auction for g in range(5)]
    assert revealed[0] == revealed[1] == revealed[4]  # the same seed, the same reveals
    with pytest.raises(Exception, match="not a GameState"):
        GameBatch.copies("state", 2)  # type: ignore[arg-type]

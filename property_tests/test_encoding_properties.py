"""The encodings agree with the engine on every state the steered games reach: legal ids are
the ids of the legal actions, ascending; the mask marks exactly them; every legal action
comes back from its id; views hold nothing R13 hides; observations, returns and the
published bounds hold."""

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

from high_society import GameState, Phase, Reveal, legal_actions, to_act
from high_society.encoding import (
    action_from_id,
    action_id,
    chance_outcome_ids,
    legal_action_bytes,
    legal_action_ids,
    legal_action_mask,
    num_actions,
)
from high_society.observation import (
    max_chance_nodes,
    max_game_length,
    observation_size,
    observation_tensor,
    returns_exact,
    view,
)
from property_tests.strategies import Game, games

# Listing and encoding every legal action of a full hand takes milliseconds: a tenth of the
# profile's games (50 under the CI profile, 2,000 under "deep") keeps CI's share small.
# No deadline in any profile: no verdict depends on timing.
FEWER = settings(max_examples=max(10, settings().max_examples // 10), deadline=None)


def encoding_problems(state: GameState) -> list[str]:
    """Where the ids, the mask and the decoding of ``state`` disagree with the engine."""
    problems = []
    config = state.config
    legal = list(legal_actions(state))
    ids = legal_action_ids(state)
    expected = sorted(action_id(a, config) for a in legal)
    if list(ids) != expected:
        problems.append(f"legal ids {ids[:8]}... are not the ids of the legal actions")
    if len(set(ids)) != len(ids):
        problems.append("an id is listed twice")
    mask = bytearray(num_actions(config))
    legal_action_mask(state, mask)
    marked = [i for i, bit in enumerate(mask) if bit]
    seat_acts = isinstance(to_act(state), int)
    if marked != (expected if seat_acts else []):
        problems.append("the mask does not mark exactly the legal player ids")
    if legal_action_bytes(state) != mask:
        problems.append("legal_action_bytes is not the mask legal_action_mask writes")
    # Every action of a small list, a spread of a long one (the ids are tested whole above).
    for action in legal[:: max(1, len(legal) // 64)]:
        if action_from_id(state, action_id(action, config)) != action:
            problems.append(f"{action} does not come back from its id")
    if state.phase is Phase.REVEAL:
        outcomes = chance_outcome_ids(state)
        if [i for i, _ in outcomes] != list(ids):
            problems.append("chance outcome ids are not the legal ids at a reveal")
        if abs(sum(p for _, p in outcomes) - 1.0) > 1e-9:
            problems.append("chance probabilities do not add up to 1")
    return problems


@FEWER
@given(games())
def test_legal_ids_masks_and_decoding_agree_with_the_engine(game: Game) -> None:
    n = game.first.num_players
    for state in game.states:
        assert encoding_problems(state) == [], state
        assert len(observation_tensor(state, state.turn)) == observation_size(n, state.config)


@given(games())
def test_games_stay_within_the_published_bounds_and_winners_share_1(game: Game) -> None:
    shares = returns_exact(game.final)
    assert sum(shares) in (0, 1)
    assert all(share >= 0 for share in shares)
    assert len({share for share in shares if share}) <= 1  # winners share equally
    config, n = game.first.config, game.first.num_players
    reveals = sum(isinstance(a, Reveal) for a in game.actions)
    assert reveals <= max_chance_nodes(config)
    assert len(game.actions) - reveals <= max_game_length(n, config)


def _scrambled(state: GameState, keep: int, data: st.DataObject) -> GameState:
    """``state`` with every seat but ``keep`` holding other money cards in hand (as many)
    and other spent cards: what R13 hides from ``keep``."""
    money = state.config.money
    players = list(state.players)
    for seat, p in enumerate(players):
        if seat == keep:
            continue
        free = sorted(set(money) - p.table)
        hand = data.draw(st.permutations(free)).__getitem__(slice(len(p.hand)))
        players[seat] = attrs.evolve(
            p, hand=frozenset(hand), spent=frozenset(free) - frozenset(hand)
        )
    return attrs.evolve(state, players=tuple(players))


@FEWER
@given(games(), st.data())
def test_R13_a_view_does_not_change_with_what_it_hides(game: Game, data: st.DataObject) -> None:
    state = data.draw(st.sampled_from(game.states), label="state")
    seat = data.draw(st.integers(0, state.num_players - 1), label="seat")
    seen = view(state, seat)
    assert seen.hand == state.players[seat].hand
    assert [p.hand_size for p in seen.players] == [len(p.hand) for p in state.players]
    assert view(_scrambled(state, seat, data), seat) == seen

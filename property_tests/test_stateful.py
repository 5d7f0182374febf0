"""A state machine that plays whole games through the public API, one action per step:
legal actions drawn from the engine's own list with the steered policy, and near-miss or
arbitrary actions that must be refused with the reason ``why_illegal`` gives. After every
step it checks the state's invariants and the transition against the rules; when a game
ends it checks the result and replays the history, then starts another game."""

from hypothesis import event
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from high_society import (
    Action,
    GameConfig,
    GameState,
    Pass,
    Reveal,
    apply,
    new_game,
    result,
)
from property_tests.checks import (
    legality_problems,
    state_and_turn_problems,
    transition_problems,
)
from property_tests.strategies import (
    SMALL,
    TINY,
    Game,
    any_actions,
    choose_action,
    corners,
    near_misses,
    player_counts,
)

#: Reduced games, so that a run of 100 steps plays whole games (a standard game takes about
#: 90 actions; the ``games()`` property tests play standard games whole).
short_games = st.sampled_from((SMALL, TINY))


class PlayGames(RuleBasedStateMachine):
    state: GameState
    states: list[GameState]
    actions: list[Action]
    passed: set[int]

    def _start(self, config: GameConfig, players: int) -> None:
        self.state = new_game(players, config)
        self.states = [self.state]
        self.actions = []
        self.passed = set()

    @initialize(config=short_games, players=player_counts)
    def first_game(self, config: GameConfig, players: int) -> None:
        self._start(config, players)

    @precondition(lambda self: not self.state.is_over)
    @rule(data=st.data())
    def play_a_legal_action(self, data: st.DataObject) -> None:
        before = self.state
        action = choose_action(data.draw, before)
        after = apply(before, action)
        assert transition_problems(before, action, after) == []
        # R6: a seat that passed a normal auction does not act again that round.
        if isinstance(action, Reveal):
            self.passed = set()
        else:
            assert action.seat not in self.passed
            if isinstance(action, Pass) and before.auction and not before.auction.is_disgrace:
                self.passed.add(action.seat)
        self.state = after
        self.states.append(after)
        self.actions.append(action)

    @rule(data=st.data(), anything=any_actions)
    def offer_other_actions(self, data: st.DataObject, anything: Action) -> None:
        near = data.draw(near_misses(self.state))
        assert legality_problems(self.state, [near, anything]) == []

    @precondition(lambda self: self.state.is_over)
    @rule(config=short_games, players=player_counts)
    def check_the_end_and_start_again(self, config: GameConfig, players: int) -> None:
        game = Game(tuple(self.states), tuple(self.actions))
        replayed = game.first
        for action in game.actions:  # the same history gives the same state
            replayed = apply(replayed, action)
        assert replayed == self.state
        outcome = result(self.state)
        assert not set(outcome.winners) & set(outcome.cast_out)
        for corner in corners(game):
            event(f"corner: {corner}")
        event("games finished in one run", len([s for s in self.states if s.is_over]))
        self._start(config, players)

    @invariant()
    def the_state_is_valid(self) -> None:
        assert state_and_turn_problems(self.state, brute_force=False) == []


TestPlayGames = PlayGames.TestCase

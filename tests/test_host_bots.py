"""The dealer, the game loop and the built-in bots."""

from collections import Counter

import pytest

from high_society import (
    CHANCE,
    Action,
    Discard,
    GameConfig,
    GameState,
    IllegalActionError,
    InvalidConfigError,
    NoRevealDueError,
    Pass,
    Reveal,
    apply,
    is_legal,
    new_game,
    result,
    sort_cards,
    to_act,
)
from high_society.bots import Bot, HeuristicBot, RandomBot
from high_society.host import Dealer, play, play_game
from high_society.invariants import state_problems
from tests.builders import FAUX_PAS, PRESTIGE, L, won
from tests.builders import play as play_actions


def test_the_dealer_draws_only_cards_left_in_the_deck() -> None:
    state = play_actions(*won(L(4), 0, 1))
    dealer = Dealer(seed=0)
    for _ in range(200):
        assert dealer.draw(state).card in state.deck
        assert dealer.draw(state).card is not L(4)


def test_the_dealer_draws_each_card_left_equally_often() -> None:
    config = GameConfig(money=(1,), deck=sort_cards([L(1), PRESTIGE, PRESTIGE, PRESTIGE]))
    state = new_game(3, config)
    dealer = Dealer(seed=1)
    counts = Counter(dealer.draw(state).card for _ in range(4000))
    # Three prestige cards out of four: expect 3000 +- a few standard deviations (~27).
    assert 2880 < counts[PRESTIGE] < 3120
    assert counts[L(1)] == 4000 - counts[PRESTIGE]


def test_the_same_seed_deals_the_same_cards() -> None:
    state = new_game(4)
    assert [Dealer(9).draw(state) for _ in range(5)] == [Dealer(9).draw(state) for _ in range(5)]
    one, two = Dealer(9), Dealer(9)
    assert [one.draw(state) for _ in range(5)] == [two.draw(state) for _ in range(5)]


def test_the_dealer_refuses_when_no_reveal_is_due() -> None:
    with pytest.raises(NoRevealDueError, match="auction"):
        Dealer(0).draw(play_actions(Reveal(L(3))))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_whole_games_between_bots_end_with_valid_states(players: int) -> None:
    for seed in range(8):
        bots: list[Bot] = [
            RandomBot(seed) if i % 2 else HeuristicBot(seed + i) for i in range(players)
        ]
        steps = list(play(bots, seed=seed))
        assert steps[-1].after.is_over
        auctions = sum(1 for s in steps if isinstance(s.action, Reveal) and not s.after.is_over)
        assert 3 <= auctions <= 15
        for step in steps:
            assert state_problems(step.after) == ()
            assert is_legal(step.before, step.action)
            assert apply(step.before, step.action) == step.after


def test_play_game_is_deterministic_for_a_seed() -> None:
    def once() -> object:
        bots: list[Bot] = [HeuristicBot(1), RandomBot(2), HeuristicBot(3), RandomBot(4)]
        return play_game(bots, seed=5)

    assert once() == once()


def test_play_game_replays_to_the_same_final_state() -> None:
    bots = [HeuristicBot(1), HeuristicBot(2), HeuristicBot(3)]
    final, actions = play_game(bots, seed=11)
    state = new_game(3)
    for action in actions:
        state = apply(state, action)
    assert state == final
    assert result(state) == result(final)


def test_play_needs_three_to_five_bots() -> None:
    with pytest.raises(InvalidConfigError):
        play_game([RandomBot(1), RandomBot(2)])


def test_a_bot_that_breaks_the_rules_is_stopped() -> None:
    class Cheat:
        def choose(self, state: GameState) -> Action:
            return Pass(0)  # always seat 0, whoever must act

    with pytest.raises(IllegalActionError):
        play_game([Cheat(), Cheat(), Cheat()], seed=1)


def test_bots_refuse_to_act_for_chance() -> None:
    with pytest.raises(ValueError, match="seat must act"):
        RandomBot(1).choose(new_game(3))
    with pytest.raises(ValueError, match="seat must act"):
        HeuristicBot(1).choose(new_game(3))


def test_the_heuristic_bot_discards_its_lowest_luxury_card() -> None:
    state = play_actions(*won(L(3), 0, 1), *won(L(9), 0, 2), Reveal(FAUX_PAS), Pass(0))
    assert HeuristicBot(0).choose(state) == Discard(0, L(3))


def test_the_heuristic_bot_beats_random_play() -> None:
    wins: Counter[str] = Counter()
    for seed in range(60):
        bots: list[Bot] = [
            HeuristicBot(seed),
            RandomBot(seed),
            HeuristicBot(seed + 1),
            RandomBot(seed + 1),
        ]
        final, _ = play_game(bots, seed=seed)
        for seat in result(final).winners:
            wins["heuristic" if seat % 2 == 0 else "random"] += 1
    assert wins["heuristic"] > 3 * wins["random"]


def test_random_bot_choices_are_legal_and_spread() -> None:
    state = play_actions(Reveal(L(5)))
    bot = RandomBot(3)
    chosen = {bot.choose(state) for _ in range(300)}
    assert len(chosen) > 250  # 2,048 choices: almost never the same one twice
    assert to_act(state) == 0
    assert to_act(new_game(3)) is CHANCE

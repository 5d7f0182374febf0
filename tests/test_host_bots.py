"""The dealer, the game loop and the built-in bots."""

import itertools
from collections import Counter

import attrs
import pytest

from high_society import (
    CHANCE,
    Action,
    Bid,
    Discard,
    GameConfig,
    GameState,
    HighSocietyError,
    IllegalActionError,
    InvalidConfigError,
    NoRevealDueError,
    NoSeatToActError,
    Pass,
    Reveal,
    apply,
    is_legal,
    new_game,
    result,
    sort_cards,
    to_act,
)
from high_society.bots import Bot, ClassicHeuristicBot, HeuristicBot, RandomBot
from high_society.host import Dealer, play, play_game
from high_society.invariants import state_problems
from tests.builders import FAUX_PAS, PRESTIGE, L, play_actions, won


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


def test_bots_refuse_to_act_for_chance_with_a_library_error() -> None:
    with pytest.raises(NoSeatToActError, match="seat must act, not in the reveal phase"):
        RandomBot(1).choose(new_game(3))
    with pytest.raises(NoSeatToActError, match="seat must act"):
        HeuristicBot(1).choose(new_game(3))
    assert issubclass(NoSeatToActError, HighSocietyError)
    assert issubclass(NoSeatToActError, ValueError)  # what the bots raised before


def _short_of_money(spent: int, dark_green_left: int) -> GameState:
    """Luxury 10 is up and seat 0 has spent its card ``spent``; the others hold all 106."""
    state = play_actions(Reveal(L(10)))
    me = state.players[0]
    me = attrs.evolve(me, hand=me.hand - {spent}, spent=frozenset({spent}))
    deck = list(state.deck)
    while sum(c.is_dark_green for c in deck) > dark_green_left:
        deck.remove(PRESTIGE)
    return attrs.evolve(state, players=(me, *state.players[1:]), deck=tuple(deck))


@pytest.mark.parametrize(
    ("dark_green_left", "spent", "bids"),
    [
        # Bidding 1 leaves it 106 - spent - 1 below the poorest opponent (106): it may fall
        # 30 behind with four dark-green cards to come, 24 with three, 14 with two, 6 with one.
        (4, 25, True),  # 26 behind
        (3, 25, False),
        (3, 20, True),  # 21 behind
        (2, 15, False),  # 16 behind
        (2, 12, True),  # 13 behind
        (1, 6, False),  # 7 behind
        (1, 4, True),  # 5 behind
    ],
)
def test_the_classic_heuristic_bot_may_fall_behind_the_poorest_only_early_and_only_so_far(
    dark_green_left: int, spent: int, bids: bool
) -> None:
    state = _short_of_money(spent, dark_green_left)
    for seed in range(10):
        choice = ClassicHeuristicBot(seed).choose(state)
        assert choice == (Bid(0, frozenset({1})) if bids else Pass(0))


def test_play_takes_a_dealer_or_a_seed_not_both() -> None:
    bots = [RandomBot(1), RandomBot(2), RandomBot(3)]
    with pytest.raises(InvalidConfigError, match="a dealer or a seed, not both"):
        next(play(bots, seed=1, dealer=Dealer(1)))


@pytest.mark.parametrize("count", [2, 4])
def test_play_from_a_start_wants_one_bot_per_seat_before_any_step(count: int) -> None:
    # Too few bots once failed mid-game with a bare IndexError; too many were ignored.
    bots = [RandomBot(i) for i in range(count)]
    steps = play(bots, seed=1, start=new_game(3))
    with pytest.raises(InvalidConfigError, match=f"{count} bots for a game of 3 seats"):
        next(steps)


def test_play_with_a_dealer_draws_from_it_so_one_dealer_serves_many_games() -> None:
    def reveals(dealer: Dealer, seed: int) -> list[Action]:
        bots = [RandomBot(seed + i) for i in range(3)]
        return [s.action for s in play(bots, dealer=dealer) if isinstance(s.action, Reveal)]

    shared = Dealer(5)
    first, second = reveals(shared, 1), reveals(shared, 1)
    assert first == reveals(Dealer(5), 1)  # a dealer of the same seed: the same cards
    assert second != first  # the shared dealer went on: the second game is dealt afresh


def test_play_asks_each_bot_only_for_its_own_seat_and_yields_every_step() -> None:
    asked: list[tuple[int, int]] = []

    class Recorder:
        def __init__(self, seat: int) -> None:
            self.seat, self.inner = seat, RandomBot(seat)

        def choose(self, state: GameState) -> Action:
            asked.append((self.seat, state.turn))
            return self.inner.choose(state)

    steps = list(play([Recorder(0), Recorder(1), Recorder(2)], seed=3))
    assert asked
    assert all(seat == turn for seat, turn in asked)
    assert len(asked) == sum(not isinstance(s.action, Reveal) for s in steps)
    assert all(a.after is b.before for a, b in itertools.pairwise(steps))
    assert steps[0].before == new_game(3)
    assert steps[-1].after.is_over


def test_play_continues_a_game_from_a_start_state() -> None:
    start = play_actions(*won(L(4), 0, 1))
    steps = list(play([RandomBot(1), RandomBot(2), RandomBot(3)], seed=2, start=start))
    assert steps[0].before is start
    assert steps[-1].after.is_over


def test_the_heuristic_bot_discards_its_lowest_luxury_card() -> None:
    state = play_actions(*won(L(3), 0, 1), *won(L(9), 0, 2), Reveal(FAUX_PAS), Pass(0))
    assert HeuristicBot(0).choose(state) == Discard(0, L(3))


def test_the_heuristic_bot_bids_nothing_for_luxury_a_waiting_faux_pas_would_take() -> None:
    state = play_actions(Reveal(FAUX_PAS), Pass(0), Reveal(L(10)))
    assert state.players[0].faux_pas_waits_for_luxury
    assert {HeuristicBot(seed).choose(state) for seed in range(10)} == {Pass(0)}
    # Without the Faux Pas, the same bots bid for it.
    assert Pass(0) not in {
        HeuristicBot(seed).choose(play_actions(Reveal(L(10)))) for seed in range(10)
    }


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

"""state_problems: silent on states the rules reach, loud on each kind of broken state."""

import attrs
import pytest

from high_society import Discard, GameState, Pass, Phase, Reveal, apply, new_game
from high_society.bots import HeuristicBot
from high_society.host import play
from high_society.invariants import cards_in_place, is_valid_state, state_problems
from tests.builders import FAUX_PAS, PASSE, PRESTIGE, SCANDALE, L, bid, play_actions, won


def test_states_reached_by_play_have_no_problems() -> None:
    for seed in range(10):
        bots = [HeuristicBot(seed * 5 + i) for i in range(3 + seed % 3)]
        for step in play(bots, seed=seed):
            assert state_problems(step.after) == ()
    assert is_valid_state(new_game(5))


def seat(state: GameState, i: int, **changes: object) -> GameState:
    players = list(state.players)
    players[i] = attrs.evolve(players[i], **changes)  # type: ignore[arg-type]
    return attrs.evolve(state, players=tuple(players))


AUCTION = play_actions(Reveal(L(5)), bid(0, 3), bid(1, 4))
OWNS = play_actions(*won(L(5), 0, 1))

BROKEN: list[tuple[str, object, str]] = [
    ("not a state", "state", "not a GameState"),
    ("two players", attrs.evolve(new_game(3), players=new_game(3).players[:2]), "2 players"),
    ("a card in two places", seat(OWNS, 0, hand=OWNS.players[0].hand | {1}), "exactly one of"),
    ("a lost money card", seat(OWNS, 0, spent=frozenset()), "exactly one of"),
    ("an unknown money card", seat(OWNS, 1, hand=frozenset({5})), "does not have"),
    ("a list hand", seat(OWNS, 1, hand=[1]), "frozenset of int"),
    ("a bool passed flag", seat(AUCTION, 2, passed=1), "passed must be a bool"),
    ("a duplicated status card", seat(OWNS, 1, status_cards=(L(5),)), "exactly one place"),
    ("a lost status card", seat(OWNS, 0, status_cards=()), "exactly one place"),
    ("unsorted cards", seat(OWNS, 0, status_cards=(PRESTIGE, L(5))), "canonical"),
    ("a turn off the table", attrs.evolve(OWNS, turn=3), "not a seat"),
    (
        "money face up between rounds",
        seat(OWNS, 1, table=frozenset({1}), hand=OWNS.players[1].hand - {1}),
        "face up outside",
    ),
    ("an auction without a card", attrs.evolve(AUCTION, auction=None), "exactly in the auction"),
    (
        "equal bids",
        seat(AUCTION, 1, table=frozenset({3}), hand=frozenset(AUCTION.config.money) - {3}),
        "equal",
    ),
    ("turn on the highest bidder", attrs.evolve(AUCTION, turn=1), "highest bid"),
    ("a passed bidder", seat(AUCTION, 0, passed=True), "passed still has money"),
    (
        "the game over too early",
        attrs.evolve(
            OWNS,
            phase=Phase.OVER,
            ending_card=SCANDALE,
            deck=tuple(c for c in OWNS.deck if c is not SCANDALE),
        ),
        "last dark-green",
    ),
    ("over without an ending card", attrs.evolve(OWNS, phase=Phase.OVER), "ending card"),
    ("a discard for nobody", attrs.evolve(OWNS, phase=Phase.DISCARD), "must discard"),
    (
        "Faux Pas and luxury kept",
        seat(
            attrs.evolve(OWNS, deck=tuple(c for c in OWNS.deck if c is not FAUX_PAS)),
            0,
            status_cards=(L(5), FAUX_PAS),
        ),
        "without discarding",
    ),
    (
        "Passé out of the game",
        attrs.evolve(OWNS, removed=(PASSE,), deck=tuple(c for c in OWNS.deck if c is not PASSE)),
        "only Faux Pas",
    ),
    ("a passed player outside an auction", seat(OWNS, 2, passed=True), "passed outside"),
    (
        "a passer in a disgrace auction",
        seat(play_actions(Reveal(PASSE)), 2, passed=True),
        "disgrace",
    ),
    (
        "a lone bidder left",
        seat(seat(play_actions(Reveal(L(5)), Pass(0)), 2, passed=True), 0, passed=True),
        "fewer than two",
    ),
    # A reported example: seat 2 is skipped, and after Pass(0) seat 1 would act on its
    # own highest bid.
    (
        "a seat skipped in the bidding",
        attrs.evolve(play_actions(Reveal(L(1)), bid(0, 1), bid(1, 2)), turn=0),
        "no order of bids",
    ),
    (
        "face-up totals falling in turn order",  # seat 1 bid after seat 0, but lower
        seat(
            seat(
                play_actions(Reveal(L(1)), bid(0, 1), bid(1, 2)),
                0,
                hand=frozenset(AUCTION.config.money) - {2},
                table=frozenset({2}),
            ),
            1,
            hand=frozenset(AUCTION.config.money) - {1},
            table=frozenset({1}),
        ),
        "no order of bids",
    ),
    ("the first round started by seat 1", attrs.evolve(new_game(3), turn=1), "cannot start"),
    ("a round started by a seat that took nothing", attrs.evolve(OWNS, turn=1), "cannot start"),
    (
        "an auction started by a seat that took nothing",
        # Seat 1 passed first, so it began the first round: only seat 0 may (R3).
        attrs.evolve(seat(play_actions(Reveal(L(5))), 1, passed=True), turn=2),
        "round was started by",
    ),
    (
        "money spent without an auction to pay in",
        seat(OWNS, 1, hand=frozenset(OWNS.config.money) - {1}, spent=frozenset({1})),
        "spent money",
    ),
]


@pytest.mark.parametrize(("what", "state", "expected"), BROKEN, ids=[b[0] for b in BROKEN])
def test_each_kind_of_broken_state_is_named(what: str, state: object, expected: str) -> None:
    problems = state_problems(state)
    assert any(expected in p for p in problems), (what, problems)
    if isinstance(state, GameState):
        assert not is_valid_state(state)


# --- cards_in_place: the precondition of the CrossHair contracts ---------------------------


def test_cards_are_in_place_in_every_state_play_reaches() -> None:
    for seed in range(5):
        bots = [HeuristicBot(seed * 5 + i) for i in range(3 + seed % 3)]
        for step in play(bots, seed=seed):
            assert cards_in_place(step.after)


MISPLACED: list[tuple[str, GameState]] = [
    ("a money card in hand and spent", seat(OWNS, 0, hand=OWNS.players[0].hand | {1})),
    ("a money card face up and in hand", seat(AUCTION, 0, hand=AUCTION.players[0].hand | {3})),
    ("a money card the game does not have", seat(OWNS, 1, hand=OWNS.players[1].hand | {5})),
    ("a luxury card in two seats", seat(OWNS, 1, status_cards=(L(5),))),
    ("Faux Pas in a seat and in the deck", seat(OWNS, 2, status_cards=(FAUX_PAS,))),
    ("Faux Pas twice in one seat", seat(OWNS, 0, status_cards=(L(5), FAUX_PAS, FAUX_PAS))),
    ("the auction card also in the deck", attrs.evolve(AUCTION, deck=(*AUCTION.deck, L(5)))),
]


@pytest.mark.parametrize(("what", "state"), MISPLACED, ids=[m[0] for m in MISPLACED])
def test_a_card_in_two_places_is_not_in_place(what: str, state: GameState) -> None:
    assert not cards_in_place(state)
    assert state_problems(state)  # what cards_in_place refuses, state_problems refuses too


def test_prestige_cards_may_repeat() -> None:
    state = seat(OWNS, 1, status_cards=(PRESTIGE,))
    deck = list(state.deck)
    deck.remove(PRESTIGE)
    assert cards_in_place(attrs.evolve(state, deck=tuple(deck)))
    assert cards_in_place(attrs.evolve(state, deck=(*state.deck, PRESTIGE)))


def test_a_discard_removes_exactly_one_faux_pas_and_one_luxury_card() -> None:
    # Unreachable (two Faux Pas, luxury 5 twice), but the discard must still move exactly
    # one of each out of the game: the CrossHair contract of _discard says so.
    state = play_actions(*won(L(5), 0, 1))
    deck = tuple(c for c in state.deck if c is not FAUX_PAS)
    owned = (L(5), L(5), FAUX_PAS, FAUX_PAS)
    state = attrs.evolve(seat(state, 0, status_cards=owned), phase=Phase.DISCARD, deck=deck)
    after = apply(state, Discard(0, L(5)))
    assert after.players[0].status_cards == (L(5), FAUX_PAS)
    assert after.removed == (L(5), FAUX_PAS)

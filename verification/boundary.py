"""The boundary of ``state_problems``: every single change of one field of a reachable state.

For each reachable state of an explored game (``verification/explore.py``),
:func:`single_changes` makes every state that differs from it in one thing: a money card
of a seat moved to another of hand, table and spent; a status card moved to another place
(the deck, a seat, out of the game, the auction or the ending card when empty); a passed
flag flipped; another turn; another phase; the auction card swapped with a card of the
deck. :func:`check_boundary` then asks ``state_problems`` about each changed state and
compares its answer with the truth, which the exploration knows: the changed state is
reachable exactly when the exploration visited it. ``state_problems`` is exact on these
games when it accepts every changed state that is reachable and refuses every other one.
"""

from collections import Counter
from collections.abc import Iterable, Iterator

import attrs

from high_society import GameState, Phase, PlayerState, StatusCard, sort_cards
from high_society.invariants import state_problems

#: Places a status card can be in, besides the seats (given by their index).
DECK, REMOVED, AUCTION, ENDING = "deck", "removed", "auction", "ending"


def _with_player(state: GameState, seat: int, player: PlayerState) -> GameState:
    players = (*state.players[:seat], player, *state.players[seat + 1 :])
    return attrs.evolve(state, players=players)


def _money_changes(state: GameState) -> Iterator[GameState]:
    for seat, p in enumerate(state.players):
        places = {"hand": p.hand, "table": p.table, "spent": p.spent}
        for source, cards in places.items():
            for card in cards:
                for target in places:
                    if target != source:
                        moved = dict(places)
                        moved[source] = cards - {card}
                        moved[target] = places[target] | {card}
                        hand, table, spent = moved["hand"], moved["table"], moved["spent"]
                        changed = PlayerState(hand, table, spent, p.passed, p.status_cards)
                        yield _with_player(state, seat, changed)


def _take(state: GameState, place: object, card: StatusCard) -> GameState:
    """``state`` without one ``card`` in ``place``."""
    if place == DECK:
        rest = list(state.deck)
        rest.remove(card)
        return attrs.evolve(state, deck=tuple(rest))
    if place == REMOVED:
        rest = list(state.removed)
        rest.remove(card)
        return attrs.evolve(state, removed=tuple(rest))
    if place == AUCTION:
        return attrs.evolve(state, auction=None)
    if place == ENDING:
        return attrs.evolve(state, ending_card=None)
    assert isinstance(place, int)
    p = state.players[place]
    owned = list(p.status_cards)
    owned.remove(card)
    return _with_player(state, place, attrs.evolve(p, status_cards=tuple(owned)))


def _put(state: GameState, place: object, card: StatusCard) -> GameState | None:
    """``state`` with ``card`` added to ``place``, or None when the place holds a card."""
    if place == DECK:
        return attrs.evolve(state, deck=sort_cards((*state.deck, card)))
    if place == REMOVED:
        return attrs.evolve(state, removed=sort_cards((*state.removed, card)))
    if place == AUCTION:
        return None if state.auction is not None else attrs.evolve(state, auction=card)
    if place == ENDING:
        return None if state.ending_card is not None else attrs.evolve(state, ending_card=card)
    assert isinstance(place, int)
    p = state.players[place]
    owned = sort_cards((*p.status_cards, card))
    return _with_player(state, place, attrs.evolve(p, status_cards=owned))


def _status_changes(state: GameState) -> Iterator[GameState]:
    places: list[object] = [DECK, REMOVED, AUCTION, ENDING, *range(len(state.players))]
    held: list[tuple[object, StatusCard]] = [(DECK, c) for c in dict.fromkeys(state.deck)]
    held += [(REMOVED, c) for c in dict.fromkeys(state.removed)]
    held += [(AUCTION, state.auction)] if state.auction is not None else []
    held += [(ENDING, state.ending_card)] if state.ending_card is not None else []
    for seat, p in enumerate(state.players):
        held += [(seat, c) for c in dict.fromkeys(p.status_cards)]
    for source, card in held:
        without = _take(state, source, card)
        for target in places:
            if target != source:
                moved = _put(without, target, card)
                if moved is not None:
                    yield moved
    if state.auction is not None:  # the auction card swapped with another card of the deck
        for card in dict.fromkeys(state.deck):
            if card is not state.auction:
                deck = list(state.deck)
                deck.remove(card)
                yield attrs.evolve(state, auction=card, deck=sort_cards((*deck, state.auction)))


def single_changes(state: GameState) -> Iterator[GameState]:
    """Every state that differs from ``state`` in one field (see the module's docstring)."""
    yield from _money_changes(state)
    yield from _status_changes(state)
    for seat, p in enumerate(state.players):
        yield _with_player(state, seat, attrs.evolve(p, passed=not p.passed))
    for turn in range(len(state.players)):
        if turn != state.turn:
            yield attrs.evolve(state, turn=turn)
    for phase in Phase:
        if phase is not state.phase:
            yield attrs.evolve(state, phase=phase)


def check_boundary(
    around: Iterable[GameState], reachable: set[GameState], max_problems: int = 10
) -> tuple[Counter[str], list[str]]:
    """Ask ``state_problems`` about every single change of every state of ``around``, where
    ``reachable`` is every reachable state of the game: the counts of changes (``changes``,
    ``distinct`` changed states, and each of ``accepted``/``refused`` ``reachable``/
    ``unreachable``), and the wrong answers (a reachable state refused, or an unreachable
    one accepted), at most ``max_problems`` of each."""
    counts: Counter[str] = Counter()
    for key in ("accepted", "refused"):
        for kind in ("reachable", "unreachable"):
            counts[f"{key} {kind}"] = 0
    wrong: dict[str, list[str]] = {"refused": [], "accepted": []}
    answered: dict[GameState, bool] = {}
    for state in around:
        for changed in single_changes(state):
            counts["changes"] += 1
            accepted = answered.get(changed)
            if accepted is None:
                accepted = answered[changed] = not state_problems(changed)
            truth = changed in reachable
            verdict = "accepted" if accepted else "refused"
            counts[f"{verdict} {'reachable' if truth else 'unreachable'}"] += 1
            if accepted != truth and len(wrong[verdict]) < max_problems:
                wrong[verdict].append(
                    f"{verdict}, but {'reachable' if truth else 'unreachable'}: {changed!r}"
                    f" (one change from {state!r})"
                )
    counts["distinct"] = len(answered)
    return counts, wrong["refused"] + wrong["accepted"]

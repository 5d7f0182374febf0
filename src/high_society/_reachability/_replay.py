"""A history found, as the actions of a whole game (internal): replayed through
:func:`~high_society.apply` from :func:`~high_society.new_game`, they give the state back,
so every history the search finds is checked against the rules themselves (the tests do)."""

from high_society._reachability._rounds import LOST_LUXURY, LUXURY, PRESTIGE, PastRound
from high_society._reachability._running import current_partials
from high_society._reachability._tables import cards
from high_society.actions import Action, Bid, Discard, Pass, Reveal
from high_society.cards import StatusCard
from high_society.state import GameState, Phase


def history_actions(state: GameState, rounds: list[PastRound]) -> list[Action]:
    """The actions of a game that plays ``rounds`` (from :func:`find_history` on
    ``state``) and then the current round up to ``state``: replaying them with
    :func:`~high_society.apply` from :func:`~high_society.new_game` gives ``state`` back
    (the tests check it, so a history found is checked against the rules themselves)."""
    n = len(state.players)
    money = state.config.money
    luxury = [[c for c in p.status_cards if c.is_luxury] for p in state.players]
    lost = [c for c in state.removed if c.is_luxury]
    actions: list[Action] = []
    for k, past in enumerate(rounds):
        s, w = past.starter, past.taker
        kind = past.kind
        if kind == LUXURY:
            card = luxury[w].pop()
        elif kind == PRESTIGE:
            card = StatusCard.PRESTIGE
        elif kind == LOST_LUXURY:
            card = lost[0]
        else:
            assert isinstance(kind, StatusCard)
            card = kind
        actions.append(Reveal(card))
        seats = [(s + i) % n for i in range(n)]
        if not card.is_disgrace:
            block = cards(money, past.paid[w])
            if past.lower is not None:
                first, value = past.lower
                actions += [
                    Bid(i, frozenset({value})) if i == first else Pass(i) for i in seats if i != w
                ]
                actions += [Bid(w, block), Pass(first)]
            elif block:
                before = seats[: seats.index(w)]
                after = seats[seats.index(w) + 1 :]
                actions += [*map(Pass, before), Bid(w, block), *map(Pass, after)]
            else:
                actions += [Pass(i) for i in seats if i != w]
            continue
        upto = seats[: seats.index(w)]
        if not past.lap:
            actions += [Bid(i, cards(money, past.paid[i])) for i in upto]
        else:
            actions += [Bid(i, cards(money, past.partial[i])) for i in upto]
            actions.append(Bid(w, cards(money, past.taker_bid)))
            actions += [Bid(i, cards(money, past.paid[i])) for i in seats[len(upto) + 1 :]]
            actions += [Bid(i, cards(money, past.paid[i] ^ past.partial[i])) for i in upto]
        actions.append(Pass(w))
        last = k == len(rounds) - 1
        if card is StatusCard.FAUX_PAS and lost and not (last and state.phase is Phase.DISCARD):
            owned_before = any(r.kind == LOST_LUXURY for r in rounds[:k])
            if owned_before:
                actions.append(Discard(w, lost[0]))
    actions += _current_round(state, rounds[-1].taker if rounds else 0)
    return actions


def _current_round(state: GameState, starter: int) -> list[Action]:
    """The actions of the round ``state`` is in, from its start at ``starter``."""
    if state.phase is Phase.OVER:
        assert state.ending_card is not None
        return [Reveal(state.ending_card)]
    if state.phase is not Phase.AUCTION:
        return []
    assert state.auction is not None
    players = state.players
    n = len(players)
    actions: list[Action] = [Reveal(state.auction)]
    everyone_acted = all(p.passed or p.table for p in players)
    twice = dict(current_partials(state, starter) or []) if everyone_acted else {}
    for i in ((starter + d) % n for d in range(n)):
        p = players[i]
        if p.passed:
            actions.append(Pass(i))
        elif not p.table:
            break  # the first lap is still going: this seat is to act
        else:
            actions.append(Bid(i, twice.get(i, p.table)))
    actions += [Bid(i, players[i].table - part) for i, part in twice.items()]
    return actions

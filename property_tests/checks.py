"""The invariants of the game as plain functions, shared by the property tests, the stateful
test and the exhaustive explorer.

Each function returns the problems it finds, one sentence each (empty when all is well), so
one checker serves both Hypothesis (``assert not problems``) and the explorer (which counts
and reports). :func:`reference_legal_actions` restates the rules from the rulebook (R4-R9)
by brute force, independently of the engine's bid tables and checks.
"""

from collections.abc import Iterable
from fractions import Fraction
from itertools import combinations
from typing import assert_never

from high_society import (
    CHANCE,
    Action,
    Bid,
    Discard,
    GameState,
    IllegalActionError,
    Pass,
    Phase,
    PlayerState,
    Reveal,
    StatusCard,
    apply,
    chance_outcomes,
    is_legal,
    legal_actions,
    result,
    to_act,
    why_illegal,
)
from high_society.invariants import state_problems

__all__ = [
    "legality_problems",
    "reference_legal_actions",
    "result_problems",
    "state_and_turn_problems",
    "transition_problems",
]


def reference_legal_actions(state: GameState) -> frozenset[Action]:
    """Every legal action of ``state``, straight from the rules (subsets by brute force)."""
    phase = state.phase
    if phase is Phase.OVER:
        return frozenset()
    if phase is Phase.REVEAL:  # R4: any card still in the deck
        return frozenset(Reveal(card) for card in state.deck)
    seat = state.turn
    player = state.players[seat]
    if phase is Phase.DISCARD:  # R8: one of the player's own luxury cards
        return frozenset(Discard(seat, c) for c in player.status_cards if c.is_luxury)
    # R5: add cards from the hand so that the face-up total beats the highest on the table.
    highest = max(sum(p.table) for p in state.players)
    hand = sorted(player.hand)
    actions: set[Action] = {Pass(seat)}
    for size in range(1, len(hand) + 1):
        for cards in combinations(hand, size):
            if sum(player.table) + sum(cards) > highest:
                actions.add(Bid(seat, frozenset(cards)))
    return frozenset(actions)


def state_and_turn_problems(state: GameState, *, brute_force: bool = True) -> list[str]:
    """``state_problems`` plus: exactly one of a seat must act, a reveal is due, the game is
    over; legal actions are empty exactly at the end; they all belong to whoever acts, come
    in the documented order and (with ``brute_force``) match :func:`reference_legal_actions`.
    """
    problems = list(state_problems(state))
    actor = to_act(state)
    legal = legal_actions(state)
    # A full hand has 2,047 bids: without the brute force, the first and last 32 will do.
    listed = list(legal) if brute_force or len(legal) <= 64 else [*legal[:32], *legal[-32:]]
    phase = state.phase
    seat_acts = isinstance(actor, int)
    if [seat_acts, actor is CHANCE, actor is None].count(True) != 1:
        problems.append(f"to_act gave {actor!r}: not exactly one of seat, chance, end")
    if seat_acts != (phase in (Phase.AUCTION, Phase.DISCARD)):
        problems.append("a seat acts exactly in an auction or a discard")
    if (actor is CHANCE) != (phase is Phase.REVEAL) or (actor is None) != state.is_over:
        problems.append("chance acts exactly when a reveal is due, nobody exactly at the end")
    if (not listed) != state.is_over:
        problems.append("legal actions must be empty exactly when the game is over")
    if len(set(listed)) != len(listed):
        problems.append("legal actions: duplicates")
    if len(listed) == len(legal) and (
        list(legal) != listed or [legal[i] for i in range(len(listed))] != listed
    ):
        problems.append("legal actions: len(), indexing and iteration disagree")
    if (phase is Phase.REVEAL) != bool(chance_outcomes(state)):
        problems.append("chance outcomes must be listed exactly when a reveal is due")
    for action in listed:
        owner = action.card if isinstance(action, Reveal) else action.seat
        if isinstance(action, Reveal) != (actor is CHANCE) or (seat_acts and owner != actor):
            problems.append(f"{action!r} does not belong to the actor {actor!r}")
            break
    if phase is Phase.AUCTION and listed:
        totals = [sum(a.cards) for a in listed[1:] if isinstance(a, Bid)]
        if not isinstance(listed[0], Pass) or totals != sorted(totals):
            problems.append("auction actions must be Pass, then bids by the total they add")
    if brute_force and set(listed) != reference_legal_actions(state):
        problems.append("legal actions differ from the rules' brute-force list")
    return problems


def result_problems(state: GameState) -> list[str]:
    """The result of a finished game against R10-R12, computed here from the cards and the
    money: status = ((luxury - 5 * Passé) * 2**prestige) / 2**Scandale; cast out <=> least
    money; winners: not cast out, then status, money and top luxury card, ties share."""
    outcome = result(state)
    problems = []
    money = [sum(p.hand) + sum(p.table) for p in state.players]
    scores = []
    for p in state.players:
        cards = p.status_cards
        luxury = sum(c.luxury_value for c in cards)
        passe = 5 if StatusCard.PASSE in cards else 0
        scandale = 2 if StatusCard.SCANDALE in cards else 1
        scores.append(Fraction((luxury - passe) * 2 ** cards.count(StatusCard.PRESTIGE), scandale))
    if list(outcome.scores) != scores or list(outcome.money) != money:
        problems.append("status or money differ from R11's formula")
    out = [i for i, m in enumerate(money) if m == min(money)]
    if list(outcome.cast_out) != out:
        problems.append(f"cast out {outcome.cast_out}, but R10 casts out {out}")

    def key(i: int) -> tuple[Fraction, int, int]:
        top = max((c.luxury_value for c in state.players[i].status_cards), default=0)
        return (scores[i], money[i], top)

    contenders = [i for i in range(len(money)) if i not in out]
    best = max((key(i) for i in contenders), default=None)
    won = [i for i in contenders if key(i) == best]
    if list(outcome.winners) != won:
        problems.append(f"winners {outcome.winners}, but R12 gives {won}")
    return problems


def legality_problems(state: GameState, candidates: Iterable[object]) -> list[str]:
    """For each candidate: ``a in legal_actions(s)`` (by enumeration) <=> ``is_legal(s, a)``
    <=> ``apply(s, a)`` does not raise, and a refusal has the reason ``why_illegal`` gives."""
    problems = []
    listed = set(legal_actions(state))
    view = legal_actions(state)
    for action in candidates:
        listed_ok = action in listed
        if view.__contains__(action) != listed_ok or is_legal(state, action) != listed_ok:
            problems.append(f"{action!r}: membership, is_legal and enumeration disagree")
            continue
        why = why_illegal(state, action)
        try:
            apply(state, action)  # type: ignore[arg-type]  # any object may be offered
        except IllegalActionError as error:
            if listed_ok:
                problems.append(f"{action!r} is listed as legal but apply refused it")
            elif why is None or error.reason is not why.reason or error.state is not state:
                problems.append(f"{action!r}: apply's reason differs from why_illegal's")
        else:
            if not listed_ok:
                problems.append(f"{action!r} is not listed as legal but apply accepted it")
    return problems


def _money_moves(before: PlayerState, after: PlayerState) -> bool:
    return (before.hand, before.table, before.spent) != (after.hand, after.table, after.spent)


def transition_problems(before: GameState, action: Action, after: GameState) -> list[str]:
    """What the rules say ``action`` does to ``before`` (R4-R9), compared with ``after``.

    Money never comes back once spent; only the acting seat's money moves, except when an
    auction ends; the highest bid strictly rises with a bid; a passer of a normal auction is
    out of it; the first pass ends a disgrace auction; and so on."""
    problems = []
    config = after.config
    if config != before.config or after.num_players != before.num_players:
        return ["the config or the number of seats changed"]
    for seat, (p, q) in enumerate(zip(before.players, after.players, strict=True)):
        if not p.spent <= q.spent:
            problems.append(f"seat {seat}: spent money came back")
    ended = after.phase is not Phase.AUCTION and before.phase is Phase.AUCTION
    if not ended and not isinstance(action, Reveal):
        acting = getattr(action, "seat", None)
        for seat, (p, q) in enumerate(zip(before.players, after.players, strict=True)):
            if seat != acting and p != q:
                problems.append(f"seat {seat} changed, but only seat {acting} acted")
    match action:
        case Reveal(card):
            left = list(before.deck)
            left.remove(card)
            if list(after.deck) != left or after.players != before.players:
                problems.append("a reveal must take exactly its card from the deck")
            if after.is_over != (card.is_dark_green and not any(c.is_dark_green for c in left)):
                problems.append("the game ends exactly on the last dark-green card (R9)")
            if not after.is_over and (after.auction is not card or after.turn != before.turn):
                problems.append("the revealed card goes up for auction; the starter acts (R4)")
        case Bid(seat, cards):
            p, q = before.players[seat], after.players[seat]
            if after.highest_bid <= before.highest_bid:
                problems.append("a bid must raise the highest bid strictly (R5)")
            if q.table != p.table | cards or q.hand != p.hand - cards or ended:
                problems.append("a bid moves its cards from hand to table (R5)")
            if after.turn != _next_in(after, seat):
                problems.append("after a bid, the next seat still in the auction acts")
        case Pass(seat):
            up = before.auction
            assert up is not None
            p, q = before.players[seat], after.players[seat]
            if up.is_disgrace:
                problems += _disgrace_end_problems(before, seat, up, after)
            elif not ended:
                if not q.passed or q.table or q.hand != p.hand | p.table:
                    problems.append("a passer takes their cards back and is out (R6)")
                if after.highest_bid > before.highest_bid or after.turn != _next_in(after, seat):
                    problems.append("after a pass, the next seat still in the auction acts")
            else:
                problems += _normal_end_problems(before, seat, up, after)
        case Discard(seat, card):
            p, q = before.players[seat], after.players[seat]
            gone = sorted(c.value for c in (StatusCard.FAUX_PAS, card))
            if sorted(c.value for c in after.removed) != sorted(
                [c.value for c in before.removed] + gone
            ):
                problems.append("a discard puts the luxury card and Faux Pas out of the game (R8)")
            if after.phase is not Phase.REVEAL or after.turn != seat or _money_moves(p, q):
                problems.append("after a discard the next card is revealed (R8)")
        case _:
            assert_never(action)
    return problems


def _next_in(state: GameState, seat: int) -> int:
    n = state.num_players
    for step in range(1, n + 1):
        nxt = (seat + step) % n
        if not state.players[nxt].passed:
            return nxt
    return seat


def _disgrace_end_problems(
    before: GameState, passer: int, card: StatusCard, after: GameState
) -> list[str]:
    problems = []
    if after.phase is Phase.AUCTION:
        return ["the first pass must end a disgrace auction (R7)"]
    for seat, (p, q) in enumerate(zip(before.players, after.players, strict=True)):
        if seat == passer:
            took = list(q.status_cards)
            for c in p.status_cards:
                took.remove(c)
            if took != [card] or q.hand != p.hand | p.table:
                problems.append("the passer takes the disgrace card and their money back (R7)")
        elif q.spent != p.spent | p.table or q.status_cards != p.status_cards:
            problems.append(f"seat {seat}: face-up money must be discarded (R7)")
    owner = after.players[passer]
    must_discard = card is StatusCard.FAUX_PAS and bool(owner.luxury_cards)
    if (after.phase is Phase.DISCARD) != must_discard or after.turn != passer:
        problems.append("Faux Pas with a luxury card asks the taker for a discard (R8)")
    return problems


def _normal_end_problems(
    before: GameState, passer: int, card: StatusCard, after: GameState
) -> list[str]:
    problems = []
    active = [i for i, p in enumerate(before.players) if not p.passed and i != passer]
    if len(active) != 1:
        return ["a normal auction ends only when one seat is left (R6)"]
    winner = active[0]
    p, q = before.players[winner], after.players[winner]
    if q.spent != p.spent | p.table or q.hand != p.hand or q.table:
        problems.append("the winner pays with their face-up cards (R6)")
    pending = StatusCard.FAUX_PAS in p.status_cards and card.is_luxury
    expected = list(p.status_cards)
    if pending:  # R8: the pending Faux Pas takes this luxury card at once
        expected.remove(StatusCard.FAUX_PAS)
        if len(after.removed) != len(before.removed) + 2:
            problems.append("a pending Faux Pas must take the luxury card won (R8)")
    else:
        expected.append(card)
    if sorted(c.value for c in q.status_cards) != sorted(c.value for c in expected):
        problems.append("the winner takes the card (R6)")
    for seat, (b, a) in enumerate(zip(before.players, after.players, strict=True)):
        if seat == winner:
            continue
        if (a.hand, a.spent, a.status_cards) != (b.hand | b.table, b.spent, b.status_cards):
            problems.append(f"seat {seat}: a loser keeps their money and cards (R6)")
        if a.table or a.passed:
            problems.append(f"seat {seat}: nothing stays face up or passed after the round")
    if after.phase is not Phase.REVEAL or after.turn != winner:
        problems.append("the winner starts the next round (R6)")
    return problems

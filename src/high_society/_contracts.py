"""The named predicates of the engine's contracts (internal).

A contract beside the code reads in one line, naming a predicate defined here:
``post: conserves_money(state, __return__)``. CrossHair (and the enumerations of
``verification/``) evaluate a condition in the namespace of the function's module, so that
module imports the predicates its contracts name; ruff knows these imports are used
(``allowed-unused-imports`` in pyproject.toml). docs/verification.md says how they are
checked.

Each predicate is plain code on the state's own values, so that CrossHair can run it on
symbolic ones, and reads a seat or the cards out of the game only where they may have
changed: one that is what it was (the same value, or equal status cards) is left out of a
multiset or a union, which would cancel it anyway. That is what lets the lemmas of
``verification/`` run the predicates on states whose other parts are stand-ins that may
only be compared with themselves. The
preconditions restate what the legality check accepts, in terms CrossHair can solve.
:func:`cards_in_place` is public as ``high_society.invariants.cards_in_place``.
"""

from collections.abc import Sequence
from fractions import Fraction
from typing import Protocol

from high_society.cards import MAX_PLAYERS, MIN_PLAYERS, StatusCard, sort_cards
from high_society.state import GameState, Phase, PlayerState

_PRESTIGE = StatusCard.PRESTIGE
_FAUX_PAS = StatusCard.FAUX_PAS

__all__ = [
    "adds_to_table",
    "best_status_wins",
    "bid_follows_r5",
    "bid_is_legal",
    "bid_to_check",
    "card_goes_to_taker",
    "cards_in_place",
    "conserves_money",
    "conserves_status_cards",
    "discard_is_legal",
    "discards_one_with_faux_pas",
    "discards_only_the_card",
    "disgrace_ends_at_first_pass",
    "ended_auction_gives_its_card",
    "ends_on_last_dark_green",
    "hand_and_table_apart",
    "highest_bid_not_raised",
    "holdable",
    "keeps_seats_and_removed",
    "money_ties_go_to_top_luxury",
    "next_round_starts_right",
    "next_seat_after",
    "next_seat_is_in",
    "opens_auction_unless_over",
    "others_unchanged",
    "pass_is_legal",
    "passer_is_out",
    "pays_as_r6_r7",
    "r11_status",
    "raises_highest_bid",
    "reveal_due_from",
    "reveal_is_legal",
    "spent_stays_spent",
    "status_cards_as_dealt",
    "status_ties_go_to_money",
    "takes_from_deck",
    "tied_seats_share_the_win",
    "waiting_faux_pas_takes_a_luxury_card",
]


def cards_in_place(state: GameState) -> bool:
    """True when no card of the game is in two places, and every money card is one of the
    configuration's.

    No seat's hand, table and spent share a money card, and none holds a value the
    configuration's money does not have; no status card but prestige occurs twice in the
    deck, the auction, the seats' cards, the cards out of the game and the ending card
    together. Every reachable state satisfies it
    (:func:`~high_society.invariants.state_problems` checks this and much more); the
    CrossHair contracts of the rules take it as a precondition: it is what the transitions
    rely on (docs/verification.md).

    >>> from high_society import new_game
    >>> cards_in_place(new_game(3))
    True
    """
    money = frozenset(state.config.money)
    for p in state.players:
        if not (p.hand | p.table | p.spent <= money):
            return False
        if p.hand & p.table or p.hand & p.spent or p.table & p.spent:
            return False
    placed = [*state.deck, *state.removed, *(c for p in state.players for c in p.status_cards)]
    placed += [c for c in (state.auction, state.ending_card) if c is not None]
    once = [c for c in placed if c is not StatusCard.PRESTIGE]
    return len(once) == len(set(once))


def status_cards_as_dealt(state: GameState) -> bool:
    """The status cards lie as the rules deal them: at most three prestige cards in all
    (R2), each seat's cards and the cards out of the game in canonical order (as every
    state keeps them), and out of the game only Faux Pas with the luxury card it took (R8),
    or nothing.

    Every reachable state satisfies it; the transitions' preconditions ask it beside
    :func:`cards_in_place`, which is what keeps the status cards of their domains finite
    (docs/verification.md).
    """
    removed = state.removed
    if removed and (len(removed) != 2 or removed[1] is not _FAUX_PAS or not removed[0].is_luxury):
        return False
    if any(p.status_cards != sort_cards(p.status_cards) for p in state.players):
        return False
    prestige = [state.auction, state.ending_card, *state.deck]
    prestige += [c for p in state.players for c in p.status_cards]
    return prestige.count(_PRESTIGE) <= 3


# --- Preconditions: the legal actions, in terms CrossHair can solve --------------------------
# The order of the tests decides how soon CrossHair builds a state that passes them all: each
# order here was chosen by measuring that (docs/verification.md); cards_in_place comes last.


def reveal_is_legal(state: GameState, card: StatusCard) -> bool:
    """A reveal is due and ``card`` is in the deck, kept in canonical order (R4)."""
    return (
        MIN_PLAYERS <= len(state.players) <= MAX_PLAYERS
        and state.phase is Phase.REVEAL
        and card in state.deck
        and state.deck == sort_cards(state.deck)
        and cards_in_place(state)
        and status_cards_as_dealt(state)
    )


def bid_is_legal(state: GameState, seat: int, cards: frozenset[int]) -> bool:
    """``seat`` acts in an auction, has not passed, and adds cards of its hand that lift
    its face-up total above the highest (R5)."""
    return (
        MIN_PLAYERS <= len(state.players) <= MAX_PLAYERS
        and state.phase is Phase.AUCTION
        and 0 <= seat < len(state.players)
        and seat == state.turn
        and bool(cards)
        and not state.players[seat].passed
        and cards <= state.players[seat].hand
        and state.players[seat].hand.isdisjoint(state.players[seat].table)
        and sum(state.players[seat].table) + sum(cards) > state.highest_bid
        and cards_in_place(state)
        and status_cards_as_dealt(state)
    )


def pass_is_legal(state: GameState, seat: int) -> bool:
    """``seat`` acts in an auction with at least two seats still in (R6, R7)."""
    return (
        state.auction is not None
        and MIN_PLAYERS <= len(state.players) <= MAX_PLAYERS
        and state.phase is Phase.AUCTION
        and 0 <= seat < len(state.players)
        and seat == state.turn
        and not state.players[seat].passed
        and sum(not p.passed for p in state.players) >= 2
        and cards_in_place(state)
        and status_cards_as_dealt(state)
    )


def discard_is_legal(state: GameState, seat: int, card: StatusCard) -> bool:
    """``seat`` must discard, and holds Faux Pas and the luxury card ``card`` (R8)."""
    return (
        state.phase is Phase.DISCARD
        and 0 <= seat < len(state.players)
        and seat == state.turn
        and MIN_PLAYERS <= len(state.players) <= MAX_PLAYERS
        and StatusCard.FAUX_PAS in state.players[seat].status_cards
        and card.is_luxury
        and card in state.players[seat].status_cards
        and cards_in_place(state)
        and status_cards_as_dealt(state)
    )


def bid_to_check(state: GameState, seat: int) -> bool:
    """A bid of a seat of the game, whose other checks have passed: what R5 is asked of."""
    return (
        MIN_PLAYERS <= len(state.players) <= MAX_PLAYERS
        and 0 <= seat < len(state.players)
        and cards_in_place(state)
    )


# --- Postconditions --------------------------------------------------------------------------


def bid_follows_r5(state: GameState, seat: int, cards: frozenset[int]) -> bool:
    """R5: the cards are in the bidder's hand, none already face up, and the new face-up
    total beats the highest."""
    player = state.players[seat]
    return (
        cards <= player.hand
        and cards.isdisjoint(player.table)
        and sum(player.table) + sum(cards) > state.highest_bid
    )


def takes_from_deck(state: GameState, card: StatusCard, after: GameState) -> bool:
    """``card`` left the deck, and nothing else did."""
    return sort_cards((*after.deck, card)) == state.deck


def keeps_seats_and_removed(state: GameState, after: GameState) -> bool:
    """No seat and no card out of the game changed."""
    return after.players == state.players and after.removed == state.removed


def ends_on_last_dark_green(card: StatusCard, after: GameState) -> bool:
    """R9: the game is over exactly when ``card`` was the last dark-green card."""
    last = card.is_dark_green and not any(c.is_dark_green for c in after.deck)
    return (after.phase is Phase.OVER) == last


def opens_auction_unless_over(state: GameState, card: StatusCard, after: GameState) -> bool:
    """R4: unless the game ended, ``card`` is up for auction and the starter acts first."""
    return after.phase is Phase.OVER or (after.auction is card and after.turn == state.turn)


def raises_highest_bid(state: GameState, after: GameState) -> bool:
    """R5: the highest bid strictly rose."""
    return after.highest_bid > state.highest_bid


def adds_to_table(state: GameState, seat: int, cards: frozenset[int], after: GameState) -> bool:
    """R5: the bidder's face-up cards are the ones it had plus ``cards``."""
    return after.players[seat].table == state.players[seat].table | cards


def hand_and_table_apart(seat: int, after: GameState) -> bool:
    """No card of ``seat`` is both in its hand and face up."""
    player: PlayerState = after.players[seat]
    return player.hand.isdisjoint(player.table)


def conserves_money(state: GameState, after: GameState) -> bool:
    """Every seat still has the same money cards, across hand, table and spent. (A seat the
    transition handed on as it was, the same value, is not read again.)"""
    return all(
        p is q or p.hand | p.table | p.spent == q.hand | q.table | q.spent
        for p, q in zip(state.players, after.players, strict=False)
    )


def others_unchanged(state: GameState, seat: int, after: GameState) -> bool:
    """Every seat but ``seat`` is as it was."""
    return all(
        p == q
        for i, (p, q) in enumerate(zip(state.players, after.players, strict=False))
        if i != seat
    )


def _first_in_after(players: Sequence[PlayerState], seat: int) -> int:
    """The first seat after ``seat``, in seat order and wrapping round, that has not passed
    (``seat`` itself if every other seat has)."""
    n = len(players)
    return next(i % n for i in range(seat + 1, seat + n + 1) if not players[i % n].passed)


def next_seat_is_in(after: GameState) -> bool:
    """The auction goes on, and the seat to act has not passed (R6)."""
    return after.phase is Phase.AUCTION and not after.players[after.turn].passed


def next_seat_after(seat: int, after: GameState) -> bool:
    """R3, R6: the seat to act is the first seat after ``seat`` (the next to the left) that
    has not passed."""
    return after.turn == _first_in_after(after.players, seat)


def spent_stays_spent(state: GameState, after: GameState) -> bool:
    """No spent money card came back."""
    return all(
        p is q or p.spent <= q.spent for p, q in zip(state.players, after.players, strict=False)
    )


def _moved_status_cards(
    state: GameState, after: GameState
) -> tuple[list[StatusCard], list[StatusCard]]:
    """The status cards before and after in the places that changed: the seats whose cards
    differ, and the cards out of the game if they do (the places that did not change hold
    the same cards on both sides, so leaving them out changes no multiset comparison)."""
    before: list[StatusCard] = []
    now: list[StatusCard] = []
    for p, q in zip(state.players, after.players, strict=False):
        if p.status_cards != q.status_cards:
            before += p.status_cards
            now += q.status_cards
    if after.removed != state.removed:
        before += state.removed
        now += after.removed
    return before, now


def ended_auction_gives_its_card(state: GameState, after: GameState) -> bool:
    """Unless the auction goes on, its card is now a seat's or out of the game, and no other
    status card moved (R6-R8)."""
    assert state.auction is not None
    if after.phase is Phase.AUCTION:
        return True
    before, now = _moved_status_cards(state, after)
    return sort_cards(now) == sort_cards([*before, state.auction])


def disgrace_ends_at_first_pass(state: GameState, after: GameState) -> bool:
    """R7: a pass in a disgrace auction ends it."""
    assert state.auction is not None
    return not state.auction.is_disgrace or after.phase is not Phase.AUCTION


def passer_is_out(seat: int, after: GameState) -> bool:
    """R6: if the auction goes on, the passer is out of it with nothing face up."""
    passer = after.players[seat]
    return after.phase is not Phase.AUCTION or (passer.passed and not passer.table)


def highest_bid_not_raised(state: GameState, after: GameState) -> bool:
    """If the auction goes on, a pass did not raise the highest bid."""
    return after.phase is not Phase.AUCTION or after.highest_bid <= state.highest_bid


def _taker(state: GameState, seat: int) -> int | None:
    """The seat that takes the auction's card when ``seat`` passes: the passer of a disgrace
    auction (R7), the one seat left in a normal one (R6); ``None`` while it goes on."""
    assert state.auction is not None
    if state.auction.is_disgrace:
        return seat
    left = [i for i, p in enumerate(state.players) if i != seat and not p.passed]
    return left[0] if len(left) == 1 else None


def pays_as_r6_r7(state: GameState, seat: int, after: GameState) -> bool:
    """Who pays. R6: the seat that takes a normal auction's card spends its face-up cards;
    R7: in a disgrace auction every seat but the passer spends its face-up cards. The passer
    takes its own back into its hand, and every other seat's money stays where it was."""
    assert state.auction is not None
    taker = _taker(state, seat)
    disgrace = state.auction.is_disgrace
    for i, (p, q) in enumerate(zip(state.players, after.players, strict=True)):
        if i == seat:
            moved = q.hand == p.hand | p.table and not q.table and q.spent == p.spent
        elif disgrace or i == taker:
            moved = q.hand == p.hand and not q.table and q.spent == p.spent | p.table
        else:
            moved = q.hand == p.hand and q.table == p.table and q.spent == p.spent
        if not moved:
            return False
    return True


def card_goes_to_taker(state: GameState, seat: int, after: GameState) -> bool:
    """Who takes the card (R6, R7): once the auction ends, the card joins the status cards
    of the seat that takes it, in canonical order, unless it left the game (R8); no other
    seat's status cards change, and while the auction goes on nobody's do."""
    card = state.auction
    assert card is not None
    taker = _taker(state, seat)
    for i, (p, q) in enumerate(zip(state.players, after.players, strict=True)):
        if i != taker and p.status_cards != q.status_cards:
            return False
    if taker is None:
        return True
    owned = after.players[taker].status_cards
    return owned == sort_cards((*state.players[taker].status_cards, card)) or card in after.removed


def waiting_faux_pas_takes_a_luxury_card(state: GameState, seat: int, after: GameState) -> bool:
    """R8: when a seat holding Faux Pas takes a luxury card, both leave the game at once; no
    other card leaves it. (A Faux Pas held while an auction runs waits for a luxury card: a
    seat that took it owning one discarded before the next reveal.)"""
    card = state.auction
    assert card is not None
    taker = _taker(state, seat)
    if taker is None or not card.is_luxury or _FAUX_PAS not in state.players[taker].status_cards:
        return after.removed == state.removed
    kept = tuple(c for c in state.players[taker].status_cards if c is not _FAUX_PAS)
    return (
        after.removed == sort_cards((*state.removed, _FAUX_PAS, card))
        and after.players[taker].status_cards == kept
    )


def next_round_starts_right(state: GameState, seat: int, after: GameState) -> bool:
    """Who acts next. While a normal auction goes on, the first seat after the passer that
    has not passed (R3, R6); once it ends, the seat that took the card starts the next
    round (R6, R7), first discarding a luxury card if it took Faux Pas owning one (R8)."""
    taker = _taker(state, seat)
    if taker is None:
        return after.phase is Phase.AUCTION and after.turn == _first_in_after(after.players, seat)
    discard = state.auction is _FAUX_PAS and bool(after.players[taker].luxury_cards)
    return after.turn == taker and after.phase is (Phase.DISCARD if discard else Phase.REVEAL)


def conserves_status_cards(state: GameState, after: GameState) -> bool:
    """The seats' status cards and those out of the game are the same cards as before."""
    before, now = _moved_status_cards(state, after)
    return sort_cards(now) == sort_cards(before)


def discards_one_with_faux_pas(seat: int, card: StatusCard, after: GameState) -> bool:
    """R8: ``seat`` no longer holds ``card`` nor Faux Pas."""
    owned = after.players[seat].status_cards
    return card not in owned and StatusCard.FAUX_PAS not in owned


def discards_only_the_card(state: GameState, seat: int, card: StatusCard, after: GameState) -> bool:
    """R8: ``card`` and the Faux Pas leave the game together, and ``seat`` keeps every other
    card it had, in canonical order."""
    kept = after.players[seat].status_cards
    return (
        kept == sort_cards(kept)
        and sort_cards((*kept, card, _FAUX_PAS)) == state.players[seat].status_cards
        and after.removed == sort_cards((*state.removed, _FAUX_PAS, card))
    )


def reveal_due_from(seat: int, after: GameState) -> bool:
    """A reveal is due, and ``seat`` starts the next round."""
    return after.phase is Phase.REVEAL and after.turn == seat


# --- Scoring (R10-R12) -----------------------------------------------------------------------


def holdable(cards: Sequence[StatusCard]) -> bool:
    """``cards`` could be one seat's: no card but prestige twice, at most three prestige
    cards (a sub-multiset of the standard deck, which every game's deck is, R2)."""
    prestige = cards.count(StatusCard.PRESTIGE)
    return prestige <= 3 and len(set(cards)) == len(cards) - max(prestige - 1, 0)


def r11_status(cards: Sequence[StatusCard]) -> Fraction:
    """R11 as the ruling states it: the luxury sum, minus 5 with Passé, doubled once per
    prestige card, halved with Scandale."""
    luxury = sum(c.luxury_value for c in cards)
    passe = StatusCard.PASSE in cards
    prestige = list(cards).count(StatusCard.PRESTIGE)
    return Fraction((luxury - 5 * passe) * pow(2, prestige), pow(2, StatusCard.SCANDALE in cards))


def best_status_wins(
    scores: Sequence[Fraction], out: Sequence[int], winners: Sequence[int]
) -> bool:
    """R12: no seat that is not cast out (``out``) has a higher status than a winner."""
    return all(scores[w] >= scores[i] for w in winners for i in range(len(scores)) if i not in out)


def status_ties_go_to_money(
    scores: Sequence[Fraction], money: Sequence[int], out: Sequence[int], winners: Sequence[int]
) -> bool:
    """R12: no seat that is not cast out and has a winner's status has more money."""
    return all(
        money[w] >= money[i]
        for w in winners
        for i in range(len(money))
        if i not in out and scores[i] == scores[w]
    )


class StatusBreakdownLike(Protocol):
    """What R12 reads of a :class:`~high_society.scoring.StatusBreakdown` (which imports
    this module, so it is not imported here)."""

    @property
    def luxury_cards(self) -> tuple[StatusCard, ...]: ...


def _top_luxury(breakdown: StatusBreakdownLike) -> int:
    return max((c.luxury_value for c in breakdown.luxury_cards), default=0)


def money_ties_go_to_top_luxury(
    scores: Sequence[Fraction],
    money: Sequence[int],
    breakdowns: Sequence[StatusBreakdownLike],
    out: Sequence[int],
    winners: Sequence[int],
) -> bool:
    """R12: no seat that is not cast out and has a winner's status and money owns a more
    valuable single luxury card (none counts as 0)."""
    return all(
        _top_luxury(breakdowns[w]) >= _top_luxury(breakdowns[i])
        for w in winners
        for i in range(len(money))
        if i not in out and scores[i] == scores[w] and money[i] == money[w]
    )


def tied_seats_share_the_win(
    scores: Sequence[Fraction],
    money: Sequence[int],
    breakdowns: Sequence[StatusBreakdownLike],
    out: Sequence[int],
    winners: Sequence[int],
) -> bool:
    """R12: somebody wins unless everyone is cast out, and every seat not cast out that
    ties a winner on status, money and top luxury card wins too (ascending seats)."""
    if len(set(out)) == len(money):
        return not winners
    if not winners or list(winners) != sorted(set(winners)):
        return False
    w = winners[0]
    return all(
        (i in winners)
        == (
            scores[i] == scores[w]
            and money[i] == money[w]
            and _top_luxury(breakdowns[i]) == _top_luxury(breakdowns[w])
        )
        for i in range(len(money))
        if i not in out
    )

"""Outsider bots: High Society opponents written by someone who never saw the package's bots.

Written by an AI assistant acting as an outside author, from the rulebook
(/work/shared/rules/rulebook-en.txt), the rulings R1-R14 and the engine's public API only
(docs/quickstart.md, docs/client-guide.md, docs/rulings.md and the engine modules), without
reading the package's bots, strangers, learned or lookahead policies, training league or any
of their results. The styles were tuned only against each other, in random mixed tables.

Styles (``OUTSIDERS`` maps each name to its class):

- ``appraiser``: prices every card in money and jumps straight to most of that price when it
  enters an auction, then raises by the minimum up to its price.
- ``accountant``: counts everyone's money (R14); never falls more than a few coins below the
  poorest, keeps strictly above them near the end, and spends its surplus above them then.
- ``prestige``: chases the prestige cards at a share of its money, buys luxury cheaply until
  it holds one, and fears Scandale once it does.
- ``saver``: buys only bargains while few dark-green cards are out, then spends late.
- ``dodger``: pays up to twice a disgrace card's harm to avoid it; a moderate buyer otherwise.
- ``steady``: a fixed price list and a fixed reserve; looks at nobody else's money.

Every style raises with the cheapest set of its cards that reaches the bid it wants (no
change is given, R5) and, for Faux Pas, discards its lowest luxury card (R8).
"""

from __future__ import annotations

import math
import random
from bisect import bisect_left, bisect_right
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from high_society import Action, Bid, Discard, GameState, Pass, Phase, StatusCard
from high_society.errors import NoSeatToActError

__all__ = [
    "OUTSIDERS",
    "Accountant",
    "Appraiser",
    "Dodger",
    "PrestigeHunter",
    "Saver",
    "Steady",
]

_PRESTIGE = StatusCard.PRESTIGE
_SCANDALE = StatusCard.SCANDALE
_PASSE = StatusCard.PASSE
_FAUX_PAS = StatusCard.FAUX_PAS


# --- Choosing which cards to put down ---------------------------------------------------------

#: Bits 1 to 30: the totals small enough that making each exactly is worth keeping cards for.
_SMALL_TOTALS = (1 << 31) - 2


@lru_cache(maxsize=4096)
def _menu(hand: frozenset[int]) -> tuple[tuple[int, ...], tuple[frozenset[int], ...]]:
    """Every total a subset of ``hand`` reaches (ascending), each with the set to play for it.

    Built once per distinct hand (at most 2,048 hands of the standard money, so the cache
    makes this nearly free after warm-up). For one total the set kept is the one that
    leaves the most flexible hand: the most totals up to 30 the remaining cards can still
    make, so that the player can later top a bid by a little; then the fewest cards.
    """
    cards = sorted(hand)
    size = 1 << len(cards)
    sums = [0] * size
    reach = [1] * size  # bit t set: the cards of the subset can make exactly t
    for mask in range(1, size):
        low = mask & -mask
        card = cards[low.bit_length() - 1]
        sums[mask] = sums[mask ^ low] + card
        reach[mask] = reach[mask ^ low] | reach[mask ^ low] << card
    full = size - 1
    best: dict[int, tuple[int, int, int]] = {}  # total -> (-flexibility left, cards, mask)
    for mask in range(1, size):
        key = (-(reach[full ^ mask] & _SMALL_TOTALS).bit_count(), mask.bit_count(), mask)
        kept = best.get(sums[mask])
        if kept is None or key < kept:
            best[sums[mask]] = key
    totals = tuple(sorted(best))
    chosen = (best[t][2] for t in totals)
    return totals, tuple(frozenset(c for i, c in enumerate(cards) if m >> i & 1) for m in chosen)


def _cards_for(hand: frozenset[int], least: int, most: int) -> frozenset[int] | None:
    """The cards to add so that they are worth at least ``least`` and at most ``most``,
    overshooting ``least`` as little as possible; ``None`` if no set of the hand fits."""
    totals, sets = _menu(hand)
    i = bisect_left(totals, max(least, 1))
    if i == len(totals) or totals[i] > most:
        return None
    return sets[i]


def _cards_below(hand: frozenset[int], least: int, most: int) -> frozenset[int] | None:
    """The cards worth the most that stay at or below ``most`` (and reach ``least``)."""
    totals, sets = _menu(hand)
    i = bisect_right(totals, most) - 1
    if i < 0 or totals[i] < max(least, 1):
        return None
    return sets[i]


# --- What a seat sees -------------------------------------------------------------------------

#: How far below the poorest other player the money-watching styles will go for a card
#: before the last stretch. Without it, players who all keep to the poorest freeze once their
#: money is level: nobody may bid, every card goes free, and level money at the end casts
#: everyone out (R10).
_NERVE = 3.0


@dataclass(frozen=True)
class _View:
    """The facts a player weighs at a decision, worked out once per decision."""

    seat: int
    players: int
    card: StatusCard
    money: int  # mine: hand plus face up
    table: int  # mine face up this round
    highest: int  # the highest face-up total this round
    others: tuple[int, ...]  # every other seat's money (R14: payments are made face up)
    luxury: int  # my luxury sum
    lowest_luxury: int  # my lowest luxury card, 0 if none
    prestige: int
    passe: bool
    scandale: bool
    faux_waiting: bool  # a Faux Pas waits to take my next luxury card
    dark_left: int  # dark-green cards still in the deck (the last one ends the game)
    dark_total: int
    luxury_to_come: float  # luxury points expected to be auctioned after this card
    prestige_to_come: float  # prestige cards expected to be auctioned after this card
    time_left: float  # auctions expected after this one, as a share of a whole game's

    @property
    def stage(self) -> float:
        """0 at the start, 1 when only the game-ending dark-green card is left."""
        return (self.dark_total - self.dark_left) / max(self.dark_total - 1, 1)

    @property
    def last_stretch(self) -> bool:
        """The next dark-green card ends the game: money left over then only keeps a player
        from being cast out."""
        return self.dark_left <= 1

    def room(self, others_spend: float) -> float:
        """The most I can pay now and still end richer than the poorest other player, if
        each of them spends ``others_spend`` of their money over a whole game (pro rata for
        the part of the game still to come). The poorest are cast out (R10), so this is the
        line that a player who watches the table keeps to."""
        poorest = min(self.others)
        # Near the end, nerve only while I am (level with) the poorest: I am cast out as
        # things stand, so a cheap card may still win if someone else spends after me.
        nerve = _NERVE if not self.last_stretch or self.money <= poorest else 0.0
        return self.money - 1 - poorest + others_spend * poorest * self.time_left + nerve

    @property
    def multiplier(self) -> float:
        """What one raw luxury point is worth to me at the end: my prestige doubles it, the
        prestige I may still win (a fair share) adds a little, Scandale halves it."""
        share = self.prestige_to_come / self.players
        return 2.0**self.prestige * (1.0 + share) * (0.5 if self.scandale else 1.0)

    @property
    def base(self) -> float:
        """My expected raw status at the end: my luxury, my fair share of the luxury to come,
        less Passé."""
        return self.luxury + self.luxury_to_come / self.players - 5.0 * self.passe

    def points(self, card: StatusCard) -> float:
        """What ``card`` changes in my final status: a gain for luxury and prestige, the
        loss I avoid for a disgrace card."""
        if card.is_luxury:
            # With a Faux Pas waiting the card is lost at once; winning it only clears the
            # Faux Pas, which is worth about a small luxury card.
            value = 2.5 if self.faux_waiting else float(card.luxury_value)
            return value * self.multiplier
        if card is _PRESTIGE:
            return max(self.base, 3.0) * self.multiplier
        if card is _PASSE:
            return 5.0 * self.multiplier
        if card is _FAUX_PAS:
            return (self.lowest_luxury or 2.5) * self.multiplier
        return 0.5 * max(self.base, 0.0) * self.multiplier  # Scandale halves it all


def _view(state: GameState) -> _View:
    seat = state.turn
    me = state.players[seat]
    card = state.auction
    assert card is not None
    lux = [c.luxury_value for c in me.status_cards if c.is_luxury]
    deck = state.deck
    dark_left = sum(1 for c in deck if c.is_dark_green)
    # Of the cards left, those that come out before the last dark-green one are auctioned:
    # each light card does so with chance d/(d+1); all but one dark-green card do.
    light_share = dark_left / (dark_left + 1)
    prestige_left = deck.count(_PRESTIGE)
    dark_total = sum(1 for c in state.config.deck if c.is_dark_green)
    whole_game = _auctions_ahead(len(state.config.deck) - dark_total, dark_total)
    return _View(
        seat=seat,
        players=state.num_players,
        card=card,
        money=me.money,
        table=me.bid,
        highest=state.highest_bid,
        others=tuple(p.money for i, p in enumerate(state.players) if i != seat),
        luxury=sum(lux),
        lowest_luxury=min(lux, default=0),
        prestige=me.status_cards.count(_PRESTIGE),
        passe=_PASSE in me.status_cards,
        scandale=_SCANDALE in me.status_cards,
        faux_waiting=me.faux_pas_waits_for_luxury,
        dark_left=dark_left,
        dark_total=dark_total,
        luxury_to_come=sum(c.luxury_value for c in deck) * light_share,
        prestige_to_come=prestige_left * (dark_left - 1) / max(dark_left, 1),
        time_left=_auctions_ahead(len(deck) - dark_left, dark_left) / max(whole_game, 1.0),
    )


def _auctions_ahead(light: int, dark: int) -> float:
    """How many of ``light`` + ``dark`` unrevealed cards are expected to be auctioned: every
    dark-green card but the last, and each light card with chance dark / (dark + 1), the
    chance that it lies before the last dark-green card."""
    return light * dark / (dark + 1) + max(dark - 1, 0)


# --- The shared skeleton ----------------------------------------------------------------------


class _Player:
    """Plays the turn: discards for Faux Pas, and in an auction bids up to ``cap`` (the most
    face-up money it will stand behind) or passes. Styles override ``cap`` and ``opening``."""

    #: How much a style's price wanders from one decision to the next (people are not exact).
    NOISE: ClassVar[float] = 0.08
    #: Whether the style keeps strictly above the poorest other player in the last stretch.
    KEEPS_LINE: ClassVar[bool] = True

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: GameState) -> Action:
        seat = state.turn
        if state.phase is Phase.DISCARD:
            # The lowest luxury card costs the least status, and keeps the top card for the
            # tie-break (R12).
            return Discard(seat, state.players[seat].luxury_cards[0])
        if state.phase is not Phase.AUCTION:
            raise NoSeatToActError(f"no seat must act: {state}")
        view = _view(state)
        jitter = 1.0 + self._rng.uniform(-self.NOISE, self.NOISE)
        cap = int(self.cap(view) * jitter)
        # Never stand behind more than the hand and face-up cards hold.
        cap = min(cap, view.money)
        if self.KEEPS_LINE and view.last_stretch and view.money > min(view.others):
            # Near the end, a hard line whatever the price: stay strictly richer than the
            # poorest other player, since a tie for the least money is cast out too (R10).
            cap = min(cap, view.money - 1 - min(view.others))
        hand = state.players[seat].hand
        least = view.highest + 1 - view.table
        most = cap - view.table
        if most < least:
            return Pass(seat)
        target = self.opening(view, cap)
        cards = None
        if target > view.highest + 1:
            # A jump: the cheapest cards reaching the target, else the most it will put down.
            cards = _cards_for(hand, target - view.table, most) or _cards_below(hand, least, most)
        # A minimum raise: no change is given (R5), so the cheapest cards that top the bid.
        cards = cards or _cards_for(hand, least, most)
        return Pass(seat) if cards is None else Bid(seat, cards)

    def cap(self, view: _View) -> float:
        """The largest face-up total this player will have on the table for this card."""
        raise NotImplementedError

    def opening(self, view: _View, cap: int) -> int:
        """The total to bid now; the default is the minimum raise."""
        return view.highest + 1

    # Helpers the styles share.

    @staticmethod
    def disgrace_cap(view: _View, rate: float) -> float:
        """In a disgrace auction the bidders who do not take the card lose what they put
        down, so the whole face-up total must be worth less than the card's harm."""
        return view.points(view.card) * rate


class Appraiser(_Player):
    """Knows what each card is worth to it and says so at once: it opens with a jump to
    most of its price, which shuts out players who raise by one, then raises by the
    minimum up to its price. Richer than the table, it prices higher. It lets itself fall
    a little further below the poorest than the accountant does. Strong when others creep;
    it overpays when nobody would have competed."""

    RATE = 1.15
    LATE = 0.6
    OTHERS = 0.1  # the share of their money it expects the others to spend (see room)
    JUMP = 0.75

    def cap(self, view: _View) -> float:
        # Richer than the others on average, it can afford to price higher (and vice versa).
        wealth = math.sqrt(view.money / max(sum(view.others) / len(view.others), 1.0))
        rate = self.RATE * wealth * (1.0 + self.LATE * view.stage)
        price = view.points(view.card) * rate * (0.8 if view.card.is_disgrace else 1.0)
        return min(price, view.room(self.OTHERS))

    def opening(self, view: _View, cap: int) -> int:
        if view.card.is_disgrace or view.table:
            return view.highest + 1
        return max(view.highest + 1, round(self.JUMP * cap))


class Accountant(_Player):
    """Counts everyone's money (R14). Its price for a card is what the card adds to its
    status, at a rate set by its money against the table's, and it never pays so much that
    it would fall more than a few coins below the poorest other player (the others will
    spend a little too). In the last stretch it keeps strictly above the poorest and spends
    much of what it holds above them (what is left at the end is wasted). Raises by the
    minimum. Rarely cast out; predictable, and slow to buy early on."""

    RATE = 1.0
    LATE = 0.5
    OTHERS = 0.05
    STRETCH = 0.6

    def cap(self, view: _View) -> float:
        average = (view.money + sum(view.others)) / view.players
        rate = self.RATE * view.money / max(average, 1.0)
        room = view.room(self.OTHERS)
        if view.card.is_disgrace:
            return min(self.disgrace_cap(view, rate), room)
        price = view.points(view.card) * rate * (1.0 + self.LATE * view.stage)
        if view.card is _PRESTIGE:
            price *= 1.15  # a doubling also denies a rival theirs
        if view.last_stretch:
            price = max(price, self.STRETCH * room)
        return min(price, room)


class PrestigeHunter(_Player):
    """Goes after prestige: pays up to a quarter of its money for a doubling (more for the
    second and third), whatever its luxury so far, since a doubling pays off on every card
    still to come, and goes a few coins past its cast-out line for it. Buys luxury below
    the going rate until it holds prestige, and fears Scandale once it does. Strong when
    prestige comes early; it can be left with a doubled zero."""

    SHARE = 0.25
    RATE = 1.4
    WITHOUT = 0.8
    OTHERS = 0.1
    EXTRA = 3.0

    def cap(self, view: _View) -> float:
        card = view.card
        room = view.room(self.OTHERS)
        if card is _PRESTIGE:
            # x4 and x8 are the dream: a larger share for each prestige card already held.
            return min(view.money * (self.SHARE + 0.1 * view.prestige), room + self.EXTRA)
        if card is _SCANDALE:
            # Halving a doubled score is what it fears most, whatever its luxury so far.
            return min(2.0 + 8.0 * view.prestige, room)
        rate = self.RATE * (1.0 if view.prestige else self.WITHOUT)
        if card.is_disgrace:
            return min(self.disgrace_cap(view, rate), room)
        return min(view.points(card) * rate, room)


class Saver(_Player):
    """Saves early and spends late: while few dark-green cards are out it buys only
    bargains, and each dark-green card loosens its purse; in the last stretch it spends
    much of what it holds above the poorest. Strong where money decides the cast out; it
    can miss the cards that went early."""

    RATES = (0.75, 0.95, 1.3, 1.8)  # by how many dark-green cards are out
    SCALE = 1.15
    OTHERS = 0.05
    LAST = 0.5

    def cap(self, view: _View) -> float:
        dark_seen = view.dark_total - view.dark_left
        rate = self.SCALE * self.RATES[min(dark_seen, 3)]
        room = view.room(self.OTHERS)
        if view.card.is_disgrace:
            return min(self.disgrace_cap(view, rate), room)
        price = view.points(view.card) * rate
        if view.last_stretch:
            price = max(price, self.LAST * room)
        return min(price, room)


class Dodger(_Player):
    """Hates disgrace: puts down up to twice a card's harm to avoid it (at least a few
    coins even with nothing to lose), whatever the table's money; buys luxury and prestige
    at a moderate price with a loose eye on the cast out. It rarely ends disgraced, and
    often ends poor."""

    KEEPS_LINE = False
    FEAR = 2.0
    LEAST = 4.0  # what it will put down even when the card would cost it nothing
    RATE = 1.25
    OTHERS = 0.2

    def cap(self, view: _View) -> float:
        card = view.card
        if card.is_disgrace:
            # No look at the cast-out line here: that is this style's blind spot.
            return max(self.FEAR * view.points(card), self.LEAST)
        return min(view.points(card) * self.RATE, view.room(self.OTHERS))


class Steady(_Player):
    """A fixed price list and a fixed reserve, a look at nobody: luxury at a set multiple
    of face value, prestige at a set price, a few coins to dodge disgrace, and never below
    its reserve. Simple and unbluffable; blind to the cast out and to the multiplier."""

    NOISE = 0.0
    KEEPS_LINE = False
    LUXURY = 1.2  # times face value
    PRICES: ClassVar[Mapping[StatusCard, float]] = {
        _PRESTIGE: 14.0,
        _PASSE: 4.0,
        _FAUX_PAS: 3.0,
        _SCANDALE: 5.0,
    }
    RESERVE = 40

    def cap(self, view: _View) -> float:
        card = view.card
        price = self.LUXURY * card.luxury_value if card.is_luxury else self.PRICES[card]
        return min(price, view.money - self.RESERVE)


OUTSIDERS: dict[str, type[_Player]] = {
    "appraiser": Appraiser,
    "accountant": Accountant,
    "prestige": PrestigeHunter,
    "saver": Saver,
    "dodger": Dodger,
    "steady": Steady,
}

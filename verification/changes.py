"""Changes planted in the engine that the contracts' checks must refute, inside and outside
the domains (docs/verification.md, "Planted changes").

Each :class:`Change` replaces text in the source of a checked function's module (each old
text occurs exactly once); :func:`planted` compiles the changed source into a fresh module,
never into ``sys.modules``, and the gate (:mod:`verification.crosshair_check`) runs the
function's checks on it:

- a change **inside** its domain must be refuted by the domain's own inputs: a
  postcondition false on one of them (and where ``only`` names a postcondition, no other is
  false anywhere in the domain's first part: each new condition has a misreading that it
  alone refutes);
- a change **outside** its domain passes the domain's inputs: it must be refuted by the
  lemma (the first key whose twin fails, its own input passing) and by the random inputs
  of :mod:`verification.outside`.

Three of the outside ones are the changes an audit found "confirmed" when the domains' only
argument was prose: the reveal handing the turn to seat 0, a pass that loses a card only
when a seat has two or more face up, and the highest status overall winning (the last is
now inside: a cast-out seat of the ranking domain holds the best status).
"""

import importlib
import inspect
import linecache
import types
from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from verification.schema import Domain

RULES = "high_society.rules"
SCORING = "high_society.scoring"


@attrs.frozen
class Change:
    """A planted change: the function it breaks, the reading it plants, its edits."""

    function: str
    name: str
    edits: tuple[tuple[str, str], ...]
    outside: bool = False
    #: The postcondition that alone refutes it, for a change that proves a new condition.
    only: str | None = None


def _c(
    function: str,
    name: str,
    *edits: tuple[str, str],
    outside: bool = False,
    only: str | None = None,
) -> Change:
    return Change(function, name, edits, outside, only)


_DISGRACE_PASSER = (
    "            owned = with_card(p.status_cards, card)\n"
    "            seats[i] = evolve_player(p, hand=p.hand | p.table, table=NO_MONEY,"
    " status_cards=owned)\n"
)
_DISGRACE_PHASE = (
    "    phase = DISCARD if card is FAUX_PAS and seats[passer].luxury_cards else REVEAL  # R8\n"
)

CHANGES = (
    # --- inside the domains -------------------------------------------------------------------
    _c(
        "_discard",
        "R8: the Faux Pas stays with its owner",
        ("    owned.remove(FAUX_PAS)\n", ""),
    ),
    _c(
        "_reveal",
        "R9: any dark-green card ends the game",
        (
            "if (card is PRESTIGE or card is SCANDALE) and PRESTIGE not in deck and SCANDALE"
            " not in deck:",
            "if card is PRESTIGE or card is SCANDALE:",
        ),
    ),
    _c(
        "_bid",
        "R6: the seat after the bidder acts even if it passed",
        (
            "return _auction_goes_on(state, players, _next_seat_in(players, seat), highest)",
            "return _auction_goes_on(state, players, (seat + 1) % len(players), highest)",
        ),
    ),
    _c(
        "_check_bid",
        "R5: a bid equal to the highest is enough",
        ("if new_total <= highest:", "if new_total < highest:"),
    ),
    _c(
        "status_of",
        "R11: prestige adds (x2, x4, x6)",
        (
            "points = (luxury_sum - PASSE_PENALTY * passe) << prestige",
            "points = (luxury_sum - PASSE_PENALTY * passe) * max(1, 2 * prestige)",
        ),
    ),
    _c(
        "winners",
        "R12: the last tie-break by the lowest luxury card",
        (
            "max((c.luxury_value for c in breakdowns[i].luxury_cards), default=0)",
            "min((c.luxury_value for c in breakdowns[i].luxury_cards), default=0)",
        ),
    ),
    _c(
        "winners",
        "R10, R12: the highest status overall wins; if that seat is cast out nobody wins",
        (
            "    out = set(cast_out(money))\n",
            "    out = set(cast_out(money))\n"
            "    if max(range(len(scores)), key=scores.__getitem__) in out:\n"
            "        return ()\n",
        ),
    ),
    _c(
        "result",
        "R11: a seat cast out is scored 0",
        (
            "    scores = tuple(b.status for b in breakdowns)\n"
            "    money = tuple(sum(p.hand) + sum(p.table) for p in state.players)\n",
            "    money = tuple(sum(p.hand) + sum(p.table) for p in state.players)\n"
            "    scores = tuple(\n"
            "        Fraction(0) if i in cast_out(money) else b.status\n"
            "        for i, b in enumerate(breakdowns)\n"
            "    )\n",
        ),
        only="post: __return__.scores == tuple(status_of(p.status_cards).status"
        " for p in state.players)",
    ),
    _c(
        "_pass",
        "R7: the passer of a disgrace auction pays too",
        (
            "evolve_player(p, hand=p.hand | p.table, table=NO_MONEY, status_cards=owned)",
            "evolve_player(p, spent=p.spent | p.table, table=NO_MONEY, status_cards=owned)",
        ),
        only="post: pays_as_r6_r7(state, seat, __return__)",
    ),
    _c(
        "_pass",
        "R7: the seat after the passer takes the disgrace card",
        (
            _DISGRACE_PASSER,
            "            seats[i] = evolve_player(p, hand=p.hand | p.table, table=NO_MONEY)\n",
        ),
        (
            _DISGRACE_PHASE,
            "    after = seats[(passer + 1) % len(seats)]\n"
            "    seats[(passer + 1) % len(seats)] = evolve_player(\n"
            "        after, status_cards=with_card(after.status_cards, card)\n"
            "    )\n" + _DISGRACE_PHASE,
        ),
        only="post: card_goes_to_taker(state, seat, __return__)",
    ),
    _c(
        "_pass",
        "R8: a waiting Faux Pas takes the next card of any kind",
        (
            "if FAUX_PAS in w.status_cards and card.is_luxury:",
            "if FAUX_PAS in w.status_cards:",
        ),
        only="post: waiting_faux_pas_takes_a_luxury_card(state, seat, __return__)",
    ),
    _c(
        "_pass",
        "R6: the seat after the winner starts the next round",
        (
            "phase=REVEAL, turn=winner, auction=None",
            "phase=REVEAL, turn=(winner + 1) % len(seats), auction=None",
        ),
        only="post: next_round_starts_right(state, seat, __return__)",
    ),
    _c(
        "_bid",
        "R3: the next seat is the one to the right",
        ("nxt = (seat + 1) % n", "nxt = (seat - 1) % n"),
        ("nxt = (nxt + 1) % n", "nxt = (nxt - 1) % n"),
        only="post: next_seat_after(seat, __return__)",
    ),
    _c(
        "_discard",
        "R8: Faux Pas takes every luxury card of its owner",
        (
            "    owned.remove(card)  # one of each, whatever else the seat holds\n",
            "    owned = [c for c in owned if not c.is_luxury]\n",
        ),
        (
            "removed = sort_cards((*state.removed, FAUX_PAS, card))\n"
            "    return evolve_state(state, players=players, phase=REVEAL, removed=removed)",
            "removed = sort_cards((*state.removed, FAUX_PAS, *p.luxury_cards))\n"
            "    return evolve_state(state, players=players, phase=REVEAL, removed=removed)",
        ),
        only="post: discards_only_the_card(state, seat, card, __return__)",
    ),
    # --- outside the domains ------------------------------------------------------------------
    _c(
        "_reveal",
        "R3, R4: the first bidder of every round is seat 0",
        (
            "auction = evolve_state(state, deck=deck, phase=AUCTION, auction=card)",
            "auction = evolve_state(state, deck=deck, phase=AUCTION, auction=card, turn=0)",
        ),
        outside=True,
    ),
    _c(
        "_pass",
        "R6: a seat with two or more cards face up loses its lowest when it passes",
        (
            "evolve_player(p, hand=p.hand | p.table, table=NO_MONEY, passed=True)",
            "evolve_player(\n"
            "            p,\n"
            "            hand=p.hand\n"
            "            | (p.table if len(p.table) < 2 else p.table - {min(p.table)}),\n"
            "            table=NO_MONEY,\n"
            "            spent=p.spent | (frozenset() if len(p.table) < 2 else {min(p.table)}),\n"
            "            passed=True,\n"
            "        )",
        ),
        outside=True,
    ),
    _c(
        "_bid",
        "R5: a bid of three or more cards adds only its two lowest",
        (
            "table = p.table | cards\n",
            "table = p.table | (cards if len(cards) < 3 else frozenset(sorted(cards)[:2]))\n",
        ),
        outside=True,
    ),
    _c(
        "_check_bid",
        "R5: with three or more cards face up, a raise must beat the highest bid alone",
        (
            "new_total = sum(player.table) + sum(cards)",
            "new_total = sum(cards) if len(player.table) >= 3 else sum(player.table) + sum(cards)",
        ),
        outside=True,
    ),
    _c(
        "_discard",
        "R8: a seat with no money left does not start the next round",
        (
            "return evolve_state(state, players=players, phase=REVEAL, removed=removed)",
            "return evolve_state(\n"
            "        state,\n"
            "        players=players,\n"
            "        phase=REVEAL,\n"
            "        removed=removed,\n"
            "        turn=seat if p.hand else (seat + 1) % len(players),\n"
            "    )",
        ),
        outside=True,
    ),
    _c(
        "status_of",
        "R11: Scandale halves only as the last card",
        ("scandale = _SCANDALE in cards", "scandale = bool(cards) and cards[-1] is _SCANDALE"),
        outside=True,
    ),
    _c(
        "winners",
        "R11, R12: statuses compared with half points rounded down",
        (
            "            scores[i],\n            money[i],\n",
            "            int(scores[i]),\n            money[i],\n",
        ),
        outside=True,
    ),
    _c(
        "winners",
        "R10, R12: a cast-out seat still competes, scored 0: if it would win, nobody does",
        (
            "    best = max(ranked.values())\n",
            "    best = max(ranked.values())\n    if best[0] < 0:\n        return ()\n",
        ),
        outside=True,
    ),
    _c(
        "result",
        "R10: the money left is the money in hand, not what is face up",
        (
            "money = tuple(sum(p.hand) + sum(p.table) for p in state.players)",
            "money = tuple(sum(p.hand) for p in state.players)",
        ),
        outside=True,
    ),
)


def module_of(function: str) -> str:
    return SCORING if function in ("status_of", "winners", "result") else RULES


def planted(change: Change) -> types.ModuleType:
    """A fresh copy of the module of ``change``'s function, with the change made."""
    module = importlib.import_module(module_of(change.function))
    source = inspect.getsource(module)
    for old, new in change.edits:
        if source.count(old) != 1:
            raise ValueError(f"{change.name}: {old!r} occurs {source.count(old)} times, not once")
        source = source.replace(old, new)
    fresh = types.ModuleType(module.__name__, module.__doc__)
    fresh.__file__ = module.__file__
    filename = f"<planted: {change.name}>"
    # inspect reads a function's source through linecache (the syntactic lemma reads it).
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), vars(fresh))  # our own source, changed
    return fresh


def domain_of(change: Change) -> "Domain":
    from verification.enumeration import DOMAINS

    return next(d for d in DOMAINS if d.name == change.function)


def refuted(change: Change) -> tuple[bool, str]:
    """Whether the checks refute ``change`` as its kind says they must, and how."""
    from verification.enumeration import confirm
    from verification.outside import outside

    domain = domain_of(change)
    module = planted(change)
    found = confirm(domain, module, stop="any" if change.outside else "false")
    false = [o for o in found if o.counterexample is not None]
    unread = [o for o in found if o.unread is not None]
    if not change.outside:
        if not false:
            why = unread[0].unread if unread else "nothing"
            return False, f"NOT refuted by the domain's inputs (the lemma: {why})"
        how = f"refuted by the domain: {false[0].condition} false on an input"
        if change.only is not None:
            whole = attrs.evolve(domain, parts=domain.parts[:1], syntactic=None)
            every = {o.condition for o in confirm(whole, module) if o.counterexample is not None}
            if every != {change.only}:
                return (
                    False,
                    f"{how}, but refuted there by {sorted(every)}, not by {change.only} alone",
                )
            how += ", by that condition alone"
        return True, how
    if false:
        return False, f"NOT outside: {false[0].condition} false on a domain input"
    if not unread:
        return False, "NOT refuted by the lemma"
    random = outside(domain, module, first=True)
    if random.failure is None or not random.failure[1].startswith("false"):
        return (
            False,
            f"refuted by the lemma ({unread[0].unread}), NOT by {random.inputs} random inputs",
        )
    return True, (
        f"refuted by the lemma ({unread[0].unread}) and by random input {random.inputs}"
        f" ({random.failure[1]})"
    )

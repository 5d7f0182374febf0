"""Whether some game leads to a state: a search over the rounds already played (internal;
:func:`~high_society.invariants.state_problems` asks it, and nothing in the engine does).

A state keeps each seat's status cards in canonical order and its spent money as a set, so
the order of the past auctions and who paid what in each are not in it. :func:`find_history`
searches for them, backward from the state, in two stages: ``_order`` takes the rounds back
one by one, recording only what each asks of its payers, and ``_settle``, once every round
is taken back, gives each seat's spent money out to its payments. Between them,
``_conditions`` refutes positions by cheap necessary conditions (each with its argument).
The search follows what each kind of round can do, so it finds a history exactly when the
state is reachable; a history found is a witness, which :func:`history_actions` turns into
the actions of a whole game.

The search counts its work (``_meter``): past :data:`WORK_LIMIT` units it stops with
:class:`Undecided`, and ``state_problems`` then accepts the state, never refusing a
reachable one (docs/stability.md says what that promises). Modules, lowest first:
``_tables`` (money as bit masks), ``_meter``, ``_money`` (the seats' spent money),
``_running`` (the current auction's possible starters), ``_rounds`` (positions and
counts), ``_conditions``, ``_settle``, ``_order``, ``_search`` (which searches run, with
how much work) and ``_replay``.
"""

from high_society._reachability._meter import Undecided
from high_society._reachability._replay import history_actions
from high_society._reachability._rounds import PastRound
from high_society._reachability._running import auction_starters
from high_society._reachability._search import WORK_LIMIT, clear_cache, find_history

__all__ = [
    "WORK_LIMIT",
    "PastRound",
    "Undecided",
    "auction_starters",
    "clear_cache",
    "find_history",
    "history_actions",
]

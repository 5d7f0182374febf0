"""Contracts confirmed by enumeration, where CrossHair cannot exhaust its paths.

CrossHair confirms a condition only when it explores every execution path, and it forks
once per enum member and per sequence length, so a function that takes a sequence of
status cards or a game state has more paths than any budget (docs/verification.md). Each
such function has a finite domain up to changes that change no answer and no condition's
truth (:mod:`verification.domains`, each argued in the docs and tested). Here the SAME
conditions (the ``pre:``/``post:`` lines of the function's docstring, evaluated as
CrossHair evaluates them, in the function's module) are checked on every input of the
domain. A result here is "confirmed by enumeration over N inputs", never a CrossHair
confirmation; the domain each one covers is stated in :data:`ENUMERATIONS`.

Run: ``.venv/bin/python -m verification.enumeration`` (the CrossHair gate runs them too).
"""

import importlib
import inspect
import sys
from collections.abc import Callable, Collection, Iterator, Mapping
from types import CodeType

import attrs

from verification import domains

#: A function's input, by parameter name.
Inputs = Mapping[str, object]


def conditions(function: Callable[..., object]) -> list[tuple[str, str]]:
    """The ``("pre" | "post", expression)`` conditions of ``function``'s docstring."""
    found = []
    for line in (inspect.getdoc(function) or "").splitlines():
        kind, colon, expression = line.strip().partition(":")
        if colon and kind in ("pre", "post"):
            found.append((kind, expression.strip()))
    return found


@attrs.frozen
class Outcome:
    """What the enumeration found for one condition."""

    condition: str
    inputs: int
    #: The first input on which the condition was false (``None`` when it always held).
    counterexample: Inputs | None


def check(
    function: Callable[..., object],
    inputs: Callable[[], Iterator[Inputs]],
    module: str | None = None,
) -> list[Outcome]:
    """Call ``function`` on every input; evaluate its conditions in its module's namespace
    (or in ``module``'s: a broken copy elsewhere is checked as the original would be).

    A precondition that is false on an input is reported too: the domain would then hold
    an input the contract does not admit, and "confirmed over N inputs" would overstate.
    """
    namespace = vars(sys.modules[module or function.__module__])
    compiled: list[tuple[str, str, CodeType]] = [
        (kind, text, compile(text, f"<{kind}: {text}>", "eval"))
        for kind, text in conditions(function)
    ]
    count = 0
    first_false: dict[str, Inputs] = {}
    for arguments in inputs():
        count += 1
        scope = {**namespace, **arguments}
        for kind, text, code in compiled:
            if kind == "pre" and not eval(code, scope):  # our own docstrings
                first_false.setdefault(f"pre: {text}", arguments)
        scope["__return__"] = function(**arguments)
        for kind, text, code in compiled:
            if kind == "post" and not eval(code, scope):  # our own docstrings
                first_false.setdefault(f"post: {text}", arguments)
    return [
        Outcome(f"{kind}: {text}", count, first_false.get(f"{kind}: {text}"))
        for kind, text, _ in compiled
    ]


@attrs.frozen
class Enumeration:
    """One function's domain: its inputs and, for the report, the domain in words."""

    inputs: Callable[[], Iterator[Inputs]]
    domain: str


#: Function (module, name, as ``crosshair_check`` names them) -> its domain.
ENUMERATIONS: dict[tuple[str, str], Enumeration] = {
    ("high_society.scoring", "status_of"): Enumeration(
        domains.seat_holdings,
        "every holding a seat can have, in canonical order (any order maps to it)",
    ),
    ("high_society.scoring", "winners"): Enumeration(
        domains.rankings,
        "1 to 5 seats: how many are cast out, and how each other seat differs from the one"
        " before it, sorted by status, money and top luxury card",
    ),
    ("high_society.scoring", "result"): Enumeration(
        domains.ends,
        "the same rankings of 3 to 5 seats, as ends of games",
    ),
    ("high_society.rules", "_check_bid"): Enumeration(
        domains.check_bids,
        "3 to 5 seats, every bidder, every set of the seven places a card of the bid or of"
        " the bidder can be in, the new face-up total above or at the highest bid",
    ),
    ("high_society.rules", "_reveal"): Enumeration(
        domains.reveals,
        "every deck (a sub-multiset of the standard one, canonical), every card of it",
    ),
    ("high_society.rules", "_bid"): Enumeration(
        domains.bids,
        "3 to 5 seats, every bidder, every passed flag of the others, every place of 5 money cards",
    ),
    ("high_society.rules", "_pass"): Enumeration(
        domains.passes,
        "3 to 5 seats, every passer, every passed flag, every kind of auction, every set of"
        " seats with money face up, Faux Pas and a luxury card held or not by the passer"
        " and the next seat in",
    ),
    ("high_society.rules", "_discard"): Enumeration(
        domains.discards,
        "every holding with Faux Pas and a luxury card, every luxury card of it",
    ),
}


def function_named(module: str, name: str) -> Callable[..., object]:
    """The checked function ``name`` of ``module`` (contracts sit on internal functions too,
    which are named here, as CrossHair names them, rather than imported)."""
    found: Callable[..., object] = getattr(importlib.import_module(module), name)
    return found


def enumerate_all(functions: Collection[str]) -> dict[str, list[Outcome]]:
    """The outcomes of the enumerations of the ``functions`` named, by function name."""
    return {
        name: check(function_named(module, name), run.inputs)
        for (module, name), run in ENUMERATIONS.items()
        if name in functions
    }


def main() -> int:
    failed = False
    for (module, name), run in ENUMERATIONS.items():
        for outcome in check(function_named(module, name), run.inputs):
            if outcome.counterexample is None and outcome.condition.startswith("pre:"):
                verdict = f"holds on all {outcome.inputs:,} inputs (the domain is admitted)"
            elif outcome.counterexample is None:
                verdict = f"confirmed by enumeration over {outcome.inputs:,} inputs"
            else:
                failed = True
                verdict = f"REFUTED on {outcome.counterexample!r}"
            print(f"  {name:10} {verdict}: {outcome.condition[:80]}")
        print(f"    ({run.domain})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

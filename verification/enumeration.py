"""Contracts confirmed by enumeration, each domain carried by a lemma checked by machine.

CrossHair confirms a condition only when it explores every execution path, and it forks
once per enum member and per sequence length, so a function that takes a sequence of
status cards or a game state has more paths than any budget (docs/verification.md). Such a
function is confirmed here instead, over a :class:`Domain`: a finite set of *keys*, each
giving two inputs.

- The **domain's input**, concrete: the function's preconditions must hold on it, and the
  SAME conditions (the ``pre:``/``post:`` lines of its docstring, evaluated as CrossHair
  evaluates them, in the function's module) are evaluated on it.
- Its **symbolic twin** (:mod:`verification.symbolic`), of which the domain's input is one
  instance (:func:`instantiate`): the parts the lemma says are only copied, compared with
  themselves, moved as whole sets of money cards or compared as numbers are stand-ins. The
  function and the postconditions run on it too; every condition must have the same truth
  on both, and no stand-in may be read in any other way. Then the truths hold on every
  instance of the twin, not only on the domain's input: that is the lemma, and it is what
  makes the finite domain stand for the infinite one.

``Domain.representative`` maps any input the preconditions admit to its key and to the
values of its twin's stand-ins; :mod:`verification.outside` checks on random inputs that
the input is that instance, every condition true. A result here is "confirmed by
enumeration over N inputs, each standing for its symbolic twin's instances", never a
CrossHair confirmation.

Run: ``.venv/bin/python -m verification.enumeration`` (the gate,
:mod:`verification.crosshair_check`, runs them too).
"""

import contextlib
import importlib
import inspect
import sys
from collections.abc import Callable, Iterator, Mapping
from types import CodeType, ModuleType

import attrs

from verification.domains import TRANSITIONS
from verification.rankings import SCORING_DOMAINS
from verification.schema import Domain, Inputs, Schema, instantiate
from verification.symbolic import deciding, symbolic_builtins

#: Every function confirmed by enumeration, with its domain.
DOMAINS: tuple[Domain, ...] = (*SCORING_DOMAINS, *TRANSITIONS)

#: The modules whose code and conditions the symbolic twins run through (``sum`` and
#: ``sorted`` are extended to stand-ins there while a domain is confirmed).
SYMBOLIC_MODULES = (
    "high_society.rules",
    "high_society._contracts",
    "high_society.scoring",
    "high_society.state",
)


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
    #: How the first symbolic twin failed the lemma: the key, and the stand-in read or the
    #: truth that differed (``None`` when every twin agreed).
    unread: str | None = None


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
    compiled = compiled_conditions(function)
    namespace = vars(sys.modules[module or function.__module__])
    count = 0
    first_false: dict[str, Inputs] = {}
    for arguments in inputs():
        count += 1
        for text, truth in evaluate(function, compiled, namespace, arguments, pres=True):
            if not truth:
                first_false.setdefault(text, arguments)
    return [Outcome(text, count, first_false.get(text)) for text, _ in compiled]


def compiled_conditions(function: Callable[..., object]) -> list[tuple[str, CodeType]]:
    return [
        (f"{kind}: {text}", compile(text, f"<{kind}: {text}>", "eval"))
        for kind, text in conditions(function)
    ]


def evaluate(
    function: Callable[..., object],
    compiled: list[tuple[str, CodeType]],
    namespace: Mapping[str, object],
    arguments: Inputs,
    *,
    pres: bool,
) -> list[tuple[str, bool]]:
    """Each condition with its truth on ``arguments`` (the preconditions only if ``pres``);
    the function raising makes every postcondition false."""
    scope = {**namespace, **arguments}
    found = [
        (text, bool(eval(code, scope)))  # our own docstrings
        for text, code in compiled
        if pres and text.startswith("pre:")
    ]
    try:
        scope["__return__"] = function(**arguments)
    except Exception:  # a function that raises on an admitted input breaks its contract
        return found + [(text, False) for text, _ in compiled if text.startswith("post:")]
    return found + [
        (text, bool(eval(code, scope)))  # our own docstrings
        for text, code in compiled
        if text.startswith("post:")
    ]


@contextlib.contextmanager
def patched(module: ModuleType, patches: Mapping[str, object]) -> Iterator[None]:
    """``module``'s names replaced by ``patches`` inside the block."""
    saved = {name: vars(module)[name] for name in patches}
    for name, value in patches.items():
        setattr(module, name, value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(module, name, value)


@contextlib.contextmanager
def symbolic_modules(*extra: ModuleType) -> Iterator[None]:
    """The symbolic modules (and ``extra``) see ``sum`` and ``sorted`` extended to money."""
    modules = [importlib.import_module(m) for m in SYMBOLIC_MODULES] + list(extra)
    with symbolic_builtins(modules):
        yield


def symbolic_truths(
    function: Callable[..., object],
    compiled: list[tuple[str, CodeType]],
    module: ModuleType,
    schema: Schema,
) -> list[tuple[str, bool]] | str:
    """Each postcondition's truth on the twin, or how a stand-in was read."""
    try:
        with deciding(schema.facts), patched(module, schema.patches):
            scope = {**vars(module), **schema.inputs}
            scope["__return__"] = function(**schema.inputs)
            return [
                (text, bool(eval(code, scope)))  # our own docstrings
                for text, code in compiled
                if text.startswith("post:")
            ]
    except Exception as error:  # a stand-in read, or an operation it does not support
        return f"{type(error).__name__}: {error}"[:300]


def confirm(
    domain: Domain, module: ModuleType | None = None, stop: str | None = None
) -> list[Outcome]:
    """Every key of ``domain``: the preconditions on the domain's input, the postconditions
    on its twin (every one true, nothing read), and where the twin fails or a part has no
    twin, the postconditions on the input itself. ``module`` replaces the function's own (a
    planted change); ``stop`` ends the run at the first failure of any kind (``"any"``) or
    at the first condition false on an input (``"false"``)."""
    module = module or importlib.import_module(domain.module)
    function: Callable[..., object] = getattr(module, domain.name)
    compiled = compiled_conditions(function)
    pres = [(text, code) for text, code in compiled if text.startswith("pre:")]
    posts = [text for text, _ in compiled if text.startswith("post:")]
    namespace = vars(module)
    count = 0
    false: dict[str, Inputs] = {}
    unread: dict[str, str] = {}
    if domain.syntactic is not None:
        for problem in domain.syntactic(module)[:1]:
            unread = dict.fromkeys(posts, problem)

    def done() -> bool:
        return bool(false) if stop == "false" else stop == "any" and bool(false or unread)

    with symbolic_modules(module):
        for part in domain.parts:
            if done():
                break
            for key in part.all_keys():
                count += 1
                schema = part.schema(key)
                concrete = (
                    instantiate(schema.inputs, part.valuation(key)) if part.twin else schema.inputs
                )
                scope = {**namespace, **concrete}
                for text, code in pres:
                    if not eval(code, scope):  # our own docstrings
                        false.setdefault(text, concrete)
                twin = symbolic_truths(function, compiled, module, schema) if part.twin else ""
                if twin and not isinstance(twin, str) and all(t for _, t in twin):
                    continue
                truths = evaluate(function, compiled, namespace, concrete, pres=False)
                for text, truth in truths:
                    if not truth:
                        false.setdefault(text, concrete)
                if part.twin:
                    for text, why in _disagreements(truths, twin):
                        unread.setdefault(text, f"{key!r}: {why}")
                if done():
                    break
    return [Outcome(text, count, false.get(text), unread.get(text)) for text, _ in compiled]


def _disagreements(
    truths: list[tuple[str, bool]], twin: list[tuple[str, bool]] | str
) -> Iterator[tuple[str, str]]:
    """The postconditions whose truth on the twin differs from the input's, or all of them
    with how the twin was read; a postcondition false on both is a counterexample, not a
    disagreement."""
    posts = [(text, truth) for text, truth in truths if text.startswith("post:")]
    if isinstance(twin, str):
        for text, _ in posts:
            yield text, twin
        return
    for (text, truth), (_, symbolic) in zip(posts, twin, strict=True):
        if truth != symbolic:
            yield text, f"{symbolic} on its twin, {truth} on its input"


def function_named(module: str, name: str) -> Callable[..., object]:
    """The checked function ``name`` of ``module`` (contracts sit on internal functions too,
    which are named here, as CrossHair names them, rather than imported)."""
    found: Callable[..., object] = getattr(importlib.import_module(module), name)
    return found


def main() -> int:
    failed = False
    for domain in DOMAINS:
        for outcome in confirm(domain):
            if outcome.counterexample is None and outcome.unread is None:
                kind = "holds" if outcome.condition.startswith("pre:") else "confirmed"
                verdict = f"{kind} on all {outcome.inputs:,} inputs and their twins"
            else:
                failed = True
                verdict = f"REFUTED on {outcome.counterexample!r}"[:200]
                if outcome.unread is not None:
                    verdict = f"NOT CARRIED: {outcome.unread}"
            print(f"  {domain.name:10} {verdict}: {outcome.condition[:80]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

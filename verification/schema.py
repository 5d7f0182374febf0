"""A domain's keys, and the symbolic twin of each (docs/verification.md, "The lemmas").

A :class:`Domain` is a function's finite domain, in :class:`Part` s: each key gives a
:class:`Schema`, the function's input with stand-ins (:mod:`verification.symbolic`) and the
facts that decide its numbers, and a valuation of those stand-ins, whose
:func:`instantiate`-d input is the domain's concrete input. The parts are in
:mod:`verification.domains` (the transitions) and :mod:`verification.rankings` (scoring);
:mod:`verification.enumeration` confirms them.
"""

from collections.abc import Callable, Iterable, Iterator, Mapping
from fractions import Fraction
from types import ModuleType
from typing import Any

import attrs

from high_society import Bid, GameConfig, GameState, Phase, PlayerState, StatusCard
from verification.symbolic import Facts, Money, Number, Opaque

#: A function's input, by parameter name.
Inputs = Mapping[str, object]
#: The values of a twin's stand-ins: each Opaque's and each money block's by name (a block's
#: cards as a frozenset), and each other unknown's number.
Valuation = Mapping[str, object]
#: The classes a stand-in may sit in, rebuilt field by field by :func:`instantiate`.
HOLDERS = {cls: tuple(f.name for f in attrs.fields(cls)) for cls in (GameState, PlayerState, Bid)}


@attrs.frozen
class Schema:
    """A symbolic twin: the inputs with stand-ins, the facts that decide its numbers, and
    names of the function's module replaced while it runs (by stand-ins for functions
    whose own contracts are confirmed apart)."""

    inputs: Inputs
    facts: Facts = attrs.field(factory=dict)
    patches: Mapping[str, object] = attrs.field(factory=dict)


@attrs.frozen
class Part:
    """Some keys of a domain, with the twin and the stand-ins' values of each: the domain's
    input is ``instantiate(schema(key).inputs, valuation(key))``."""

    what: str
    all_keys: Callable[[], Iterable[Any]]
    schema: Callable[[Any], Schema]
    valuation: Callable[[Any], Valuation]
    #: False where the key's input has no stand-in: the lemma is then syntactic.
    twin: bool = True


@attrs.frozen
class Domain:
    """A function's finite domain, in parts, and the lemma that carries it."""

    module: str
    name: str
    parts: tuple[Part, ...]
    #: What each input stands for: the instances of its twin, in words.
    lemma: str
    #: Any admitted input -> its key and its twin's stand-ins' values.
    representative: Callable[..., tuple[Any, Valuation]]
    #: Whether every admitted input is an instance of its key's twin; else
    #: :mod:`verification.outside` compares their truths only (docs/verification.md says
    #: which inputs are not, and why).
    exact: bool = True
    #: A lemma checked on the function's code rather than on twins: its problems.
    syntactic: Callable[[ModuleType], list[str]] | None = None


def cached_highest(state: GameState) -> object | None:
    """The highest bid cached in ``state``, or ``None`` if it is worked out on first use."""
    slot = GameState.__dict__["highest_bid"]
    try:
        return slot.__get__(state, GameState)  # type: ignore[no-any-return]
    except AttributeError:
        return None


class Unknowns(Mapping[str, "int | Fraction"]):
    """The numbers of a valuation: each unknown's, and each block's sum as ``Σname``."""

    def __init__(self, valuation: Valuation) -> None:
        self.valuation = valuation

    def __getitem__(self, name: str) -> "int | Fraction":
        if name.startswith("Σ"):
            cards: frozenset[int] = self.valuation[name[1:]]  # type: ignore[assignment]
            return sum(cards)
        return self.valuation[name]  # type: ignore[return-value]

    def __iter__(self) -> Iterator[str]:
        return iter(self.valuation)

    def __len__(self) -> int:
        return len(self.valuation)


#: Types whose values hold no stand-in, handed on as they are.
PLAIN = frozenset({int, bool, str, type(None), Fraction, frozenset, StatusCard, Phase, GameConfig})


def instantiate(value: Any, valuation: Valuation) -> Any:
    """``value`` with every stand-in replaced by its value under ``valuation``."""
    return _Instance(valuation).of(value)


class _Instance:
    """The instance of stand-ins under one valuation (its numbers worked out when asked)."""

    def __init__(self, valuation: Valuation) -> None:
        self.valuation = valuation
        self.numbers = Unknowns(valuation)

    def of(self, value: Any) -> Any:
        kind = type(value)
        if kind in PLAIN:
            return value
        if kind is tuple:
            if all(type(v) in PLAIN for v in value):
                return value
            return tuple(self.of(v) for v in value)
        if kind is Opaque:
            return self.valuation[value.name]
        if kind is Money:
            return frozenset().union(*(self.valuation[b.name] for b in value.blocks))  # type: ignore[arg-type]
        if kind is Number:
            return value.value(self.numbers)
        if kind is dict:
            return {k: self.of(v) for k, v in value.items()}
        if kind in HOLDERS:
            made = kind(*(self.of(getattr(value, name)) for name in HOLDERS[kind]))
            if kind is GameState:
                highest = cached_highest(value)
                if highest is not None:
                    GameState.__dict__["highest_bid"].__set__(made, self.of(highest))
            return made
        if hasattr(value, "instantiate"):
            return value.instantiate(self.valuation, self.numbers)
        return value


def facts_hold(facts: Facts, valuation: Valuation) -> bool:
    """Whether every fact has its sign when the unknowns take ``valuation``'s values."""
    numbers = Unknowns(valuation)
    for (terms, const), sign in facts.items():
        value = const + sum(c * numbers[n] for n, c in terms)
        if (value > 0) - (value < 0) != sign:
            return False
    return True

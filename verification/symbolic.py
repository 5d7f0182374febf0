"""Symbolic values: stand-ins for the parts of a contract's input that its lemma says are
read only in certain ways (docs/verification.md, "The lemmas").

A symbolic input stands for every input its stand-ins may be instantiated to. Running a
function and its conditions on it shows what holds for all of them at once, provided every
operation applied to a stand-in is one whose answer is the same for every instance; any
other operation raises :class:`Read`, and the lemma is then not confirmed. Python routes
every operation on a value through its type's special methods, except ``is``, ``type()``
and ``id()``: those are the only reads a stand-in cannot see.

- :class:`Opaque`: a part that is only copied. It may be compared with itself (``==``
  holds, as it does for every value of the part's type) and nothing else.
- :class:`Number`: a linear form over named unknowns (a money card's worth, the highest bid,
  a seat's status), with integer coefficients. Arithmetic is exact; a comparison is decided
  by the *facts* of the input (:func:`deciding`), the signs of the forms it may compare,
  and raises :class:`Undecided` on any other. Its instances are the values of the unknowns
  that make every fact true.
- :class:`Money`: a set of one seat's money cards, as a union of *blocks* (:class:`Block`),
  pairwise disjoint sets of cards, each known to be non-empty or of unknown size. Union,
  intersection, difference, inclusion and equality of such unions are those of their sets of
  blocks (exactly, when the blocks that differ are known non-empty; else undecided); the sum
  of a block is an unknown of its own. A Money cannot be iterated, measured or hashed: the
  sum and the sorted cards a message shows go through :func:`symbolic_sum` and
  :func:`symbolic_sorted`, which :func:`symbolic_builtins` puts in the modules' namespaces.

These facts of algebra carry the stand-ins: unions of disjoint non-empty sets are equal
exactly when they are unions of the same sets; the sum over a disjoint union is the sum of
the sums; a linear form's sign is what the facts say of it. ``tests/test_contract_domains.py``
checks each operation against real sets and numbers on random instances.
"""

import builtins
import contextlib
import math
from collections.abc import Iterable, Iterator, Mapping
from fractions import Fraction
from types import ModuleType
from typing import Any, NoReturn

__all__ = [
    "Block",
    "Facts",
    "Money",
    "Number",
    "Opaque",
    "Read",
    "Undecided",
    "deciding",
    "facts_of",
    "symbolic_builtins",
    "symbolic_sorted",
    "symbolic_sum",
]


class Read(Exception):
    """A function or a condition used a stand-in in a way its lemma does not allow."""


class Undecided(Read):
    """A comparison of numbers that the input's facts do not decide."""


class Opaque:
    """A copied part: equal to itself, and nothing else may be asked of it."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def _read(self, what: str) -> NoReturn:
        raise Read(f"{self.name} {what}")

    def __eq__(self, other: object) -> bool:
        if other is not self:
            self._read(f"compared with {other!r}")
        return True

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        self._read("hashed")

    def __bool__(self) -> bool:
        self._read("tested for truth")

    def __getattr__(self, name: str) -> NoReturn:
        self._read(f"asked for .{name}")

    def __iter__(self) -> NoReturn:
        self._read("iterated")

    def __len__(self) -> NoReturn:
        self._read("measured")

    def __contains__(self, item: object) -> NoReturn:
        self._read(f"searched for {item!r}")

    def __getitem__(self, index: object) -> NoReturn:
        self._read(f"indexed by {index!r}")

    def __lt__(self, other: object) -> NoReturn:
        self._read(f"ordered against {other!r}")

    __le__ = __gt__ = __ge__ = __lt__

    def __add__(self, other: object) -> NoReturn:
        self._read(f"combined with {other!r}")

    __radd__ = __sub__ = __rsub__ = __or__ = __ror__ = __and__ = __rand__ = __add__

    def __index__(self) -> NoReturn:
        self._read("used as an int")

    def __repr__(self) -> str:
        return self.name


# --- Numbers ---------------------------------------------------------------------------------

#: A linear form's key in the facts: its terms (name, coefficient), sorted, and its constant,
#: divided by their greatest common divisor and signed so that the first coefficient is
#: positive.
FormKey = tuple[tuple[tuple[str, int], ...], int]
#: The sign (-1, 0 or 1) of each linear form the input may compare, by its key.
Facts = Mapping[FormKey, int]

_facts: Facts = {}


class Number:
    """A linear form over unknowns, with integer coefficients and constant."""

    __slots__ = ("const", "terms")

    def __init__(self, terms: Mapping[str, int] | None = None, const: int = 0) -> None:
        self.terms = {name: c for name, c in (terms or {}).items() if c}
        self.const = const

    @classmethod
    def unknown(cls, name: str) -> "Number":
        return cls({name: 1})

    def _plus(self, other: object, scale: int) -> "Number":
        """``self + scale * other``, or NotImplemented for what is no number."""
        if type(other) is int:
            return Number(self.terms, self.const + scale * other)
        if not isinstance(other, Number):
            return NotImplemented  # type: ignore[no-any-return]
        terms = dict(self.terms)
        for name, c in other.terms.items():
            terms[name] = terms.get(name, 0) + scale * c
        return Number(terms, self.const + scale * other.const)

    def __add__(self, other: object) -> "Number":
        return self._plus(other, 1)

    __radd__ = __add__

    def __sub__(self, other: object) -> "Number":
        return self._plus(other, -1)

    def __rsub__(self, other: object) -> "Number":
        found = self._plus(other, -1)
        return found if found is NotImplemented else -found

    def __neg__(self) -> "Number":
        return Number({n: -c for n, c in self.terms.items()}, -self.const)

    def __mul__(self, other: object) -> "Number":
        if type(other) is int:
            return Number({n: c * other for n, c in self.terms.items()}, self.const * other)
        raise Read(f"{self} multiplied by {other!r}: not linear")

    __rmul__ = __mul__

    def __lshift__(self, other: object) -> "Number":
        if type(other) is int and other >= 0:
            return self * (1 << other)
        raise Read(f"{self} shifted by {other!r}")

    def key(self) -> tuple[FormKey, int]:
        """The form's key in the facts, and the sign that relates it to the form."""
        terms = sorted(self.terms.items())
        divisor = math.gcd(self.const, *(c for _, c in terms))
        if terms[0][1] < 0:
            divisor = -divisor
        form = (tuple((n, c // divisor) for n, c in terms), self.const // divisor)
        return form, 1 if divisor > 0 else -1

    def sign(self) -> int:
        """-1, 0 or 1, as the facts decide; :class:`Undecided` if they do not."""
        if not self.terms:
            return (self.const > 0) - (self.const < 0)
        form, flip = self.key()
        found = _facts.get(form)
        if found is None:
            raise Undecided(f"the sign of {self} is not among the input's facts")
        return found * flip

    def _compare(self, other: object) -> int | None:
        difference = self._plus(other, -1)
        return None if difference is NotImplemented else difference.sign()

    def __eq__(self, other: object) -> bool:
        s = self._compare(other)
        return NotImplemented if s is None else s == 0

    def __ne__(self, other: object) -> bool:
        s = self._compare(other)
        return NotImplemented if s is None else s != 0

    def __lt__(self, other: object) -> bool:
        s = self._compare(other)
        return NotImplemented if s is None else s < 0

    def __le__(self, other: object) -> bool:
        s = self._compare(other)
        return NotImplemented if s is None else s <= 0

    def __gt__(self, other: object) -> bool:
        s = self._compare(other)
        return NotImplemented if s is None else s > 0

    def __ge__(self, other: object) -> bool:
        s = self._compare(other)
        return NotImplemented if s is None else s >= 0

    def __bool__(self) -> bool:
        return self.sign() != 0

    def __hash__(self) -> int:
        raise Read(f"{self} hashed: a number's value is unknown")

    def __index__(self) -> NoReturn:
        raise Read(f"{self} used as an int")

    def __repr__(self) -> str:
        parts = [f"{'' if c == 1 else '-' if c == -1 else c}{n}" for n, c in self.terms.items()]
        if self.const or not parts:
            parts.append(str(self.const))
        return " + ".join(parts).replace("+ -", "- ")

    def __format__(self, spec: str) -> str:
        return repr(self)

    def value(self, unknowns: Mapping[str, int | Fraction]) -> int | Fraction:
        """The form's value when each unknown has the value ``unknowns`` gives it."""
        return self.const + sum(c * unknowns[n] for n, c in self.terms.items())


def facts_of(comparisons: Iterable[tuple[Number, Number, int]]) -> dict[FormKey, int]:
    """The facts that ``lhs - rhs`` has the sign given, for each (lhs, rhs, sign)."""
    found: dict[FormKey, int] = {}
    for lhs, rhs, sign in comparisons:
        difference = lhs - rhs
        if not difference.terms:
            raise ValueError(f"{lhs} and {rhs} need no fact")
        form, flip = difference.key()
        if found.setdefault(form, sign * flip) != sign * flip:
            raise ValueError(f"two facts disagree on {difference}")
    return found


# --- Money -----------------------------------------------------------------------------------


class Block:
    """A set of money cards of one seat, disjoint from the seat's other blocks: known to hold
    a card (``nonempty``) or of unknown size. Its sum is the unknown named after it."""

    __slots__ = ("name", "nonempty", "seat")

    def __init__(self, seat: int, name: str, nonempty: bool) -> None:
        self.seat = seat
        self.name = name
        self.nonempty = nonempty

    @property
    def total(self) -> Number:
        return Number.unknown(f"Σ{self.name}")

    def __repr__(self) -> str:
        return self.name


EMPTY: frozenset[Block] = frozenset()


class Money:
    """One seat's money cards as a union of its blocks."""

    __slots__ = ("blocks", "seat")

    def __init__(self, seat: int, blocks: Iterable[Block] = ()) -> None:
        self.seat = seat
        self.blocks = frozenset(blocks)
        if any(b.seat != seat for b in self.blocks):
            raise ValueError("a seat's money holds its own blocks only")

    def _blocks(self, other: object) -> frozenset[Block] | None:
        """The blocks of ``other``, a Money of the same seat or a real empty set."""
        if isinstance(other, Money):
            if other.seat != self.seat and other.blocks and self.blocks:
                raise Read(f"money of seats {self.seat} and {other.seat} compared")
            return other.blocks
        if isinstance(other, frozenset | set):
            if other:
                raise Read(f"{self!r} combined with the real cards {set(other)}")
            return EMPTY
        return None

    def _with(self, blocks: frozenset[Block]) -> "Money":
        return Money(self.seat, blocks)

    def __or__(self, other: object) -> "Money":
        o = self._blocks(other)
        return NotImplemented if o is None else self._with(self.blocks | o)

    __ror__ = __or__

    def __and__(self, other: object) -> "Money":
        o = self._blocks(other)
        return NotImplemented if o is None else self._with(self.blocks & o)

    __rand__ = __and__

    def __sub__(self, other: object) -> "Money":
        o = self._blocks(other)
        return NotImplemented if o is None else self._with(self.blocks - o)

    def __rsub__(self, other: object) -> "Money":
        o = self._blocks(other)
        return NotImplemented if o is None else self._with(o - self.blocks)

    @staticmethod
    def _empty(blocks: frozenset[Block], what: str) -> bool:
        """Whether the union of ``blocks`` is empty: decided unless every block is of
        unknown size."""
        if not blocks:
            return True
        if any(b.nonempty for b in blocks):
            return False
        raise Undecided(f"{what}: {sorted(blocks, key=repr)} may be empty or not")

    def __eq__(self, other: object) -> bool:
        o = self._blocks(other)
        if o is None:
            return NotImplemented
        return self._empty(self.blocks ^ o, f"{self!r} == {other!r}")

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return NotImplemented if equal is NotImplemented else not equal

    def __le__(self, other: object) -> bool:
        o = self._blocks(other)
        if o is None:
            return NotImplemented
        return self._empty(self.blocks - o, f"{self!r} <= {other!r}")

    def __ge__(self, other: object) -> bool:
        o = self._blocks(other)
        if o is None:
            return NotImplemented
        return self._empty(o - self.blocks, f"{self!r} >= {other!r}")

    def __lt__(self, other: object) -> bool:
        return self <= other and self != other

    def __gt__(self, other: object) -> bool:
        return self >= other and self != other

    def issubset(self, other: object) -> bool:
        return self <= other

    def isdisjoint(self, other: object) -> bool:
        o = self._blocks(other)
        if o is None:
            raise Read(f"{self!r} compared with {other!r}")
        return self._empty(self.blocks & o, f"{self!r} disjoint from {other!r}")

    def __bool__(self) -> bool:
        return not self._empty(self.blocks, f"{self!r} tested for truth")

    def __hash__(self) -> int:
        raise Read(f"{self!r} hashed")

    def __iter__(self) -> Iterator[int]:
        raise Read(f"{self!r} iterated: its cards are unknown")

    def __len__(self) -> int:
        raise Read(f"{self!r} measured: how many cards it holds is unknown")

    def __contains__(self, item: object) -> bool:
        raise Read(f"{self!r} searched for {item!r}")

    def total(self) -> Number:
        """The sum of the cards: the sum of the blocks' unknowns."""
        return Number({f"Σ{b.name}": 1 for b in self.blocks})

    def __repr__(self) -> str:
        shown = " | ".join(sorted(b.name for b in self.blocks)) or "nothing"
        return f"<money of seat {self.seat}: {shown}>"


def symbolic_sum(iterable: Iterable[Any], /, start: Any = 0) -> Any:
    """``sum``, and a Money's sum: the sum of its blocks' unknowns."""
    if isinstance(iterable, Money):
        return iterable.total() + start
    return builtins.sum(iterable, start)


def symbolic_sorted(iterable: Iterable[Any], /, *, key: Any = None, reverse: bool = False) -> Any:
    """``sorted``, and a Money's blocks for a message to show, by name (the one use of a set
    of money cards sorted in the checked code is a refusal's message, which no condition
    reads)."""
    if isinstance(iterable, Money):
        return sorted(iterable.blocks, key=repr)
    return builtins.sorted(iterable, key=key, reverse=reverse)


@contextlib.contextmanager
def symbolic_builtins(modules: Iterable[ModuleType]) -> Iterator[None]:
    """Inside the block, the ``modules`` see :func:`symbolic_sum` and :func:`symbolic_sorted`
    as ``sum`` and ``sorted`` (each is the builtin on anything but a :class:`Money`)."""
    patched = list(
        {id(m): m for m in modules if "sum" not in vars(m) and "sorted" not in vars(m)}.values()
    )
    for module in patched:
        module.sum = symbolic_sum  # type: ignore[attr-defined]
        module.sorted = symbolic_sorted  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for module in patched:
            del module.sum
            del module.sorted


@contextlib.contextmanager
def deciding(facts: Facts) -> Iterator[None]:
    """Numbers compared inside the block are decided by ``facts``."""
    global _facts
    before = _facts
    _facts = facts
    try:
        yield
    finally:
        _facts = before

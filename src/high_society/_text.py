"""Text made safe from hostile values: short renderings for messages, escapes for terminals.

Any value a caller hands the library may end up in a message: an integer of 5,000 digits
(whose ``repr`` raises ``ValueError`` past Python's 4,300-digit limit), an object whose
``__repr__`` raises or is huge, a player's name holding ANSI escapes or newlines.
:func:`short_repr` never raises and never returns more than :data:`REPR_LIMIT` characters;
:func:`terminal_safe` escapes every character that could move the cursor, forge a line or
reach the terminal as a control sequence.
"""

import reprlib
import unicodedata

import attrs

__all__ = [
    "REPR_LIMIT",
    "describe_int",
    "install_hint",
    "is_unsafe_char",
    "short_repr",
    "terminal_safe",
]

#: The longest rendering of a value in a message, in characters.
REPR_LIMIT = 60

#: Integers up to this many bits are written out; longer ones are described.
_INT_BITS = 200


class _ShortRepr(reprlib.Repr):
    """``reprlib`` with integers that cannot fail and objects whose repr may raise."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxlist = self.maxtuple = self.maxset = self.maxfrozenset = 6
        self.maxdict = 4
        self.maxstring = self.maxother = self.maxlong = REPR_LIMIT

    def repr_int(self, x: int, level: int) -> str:
        if type(x) is not int:  # a subclass: its own repr, guarded
            return self.repr_instance(x, level)
        return describe_int(x)

    def repr_instance(self, x: object, level: int) -> str:
        try:
            cls = type(x)
            if attrs.has(cls) and level > 0:  # an action: its fields, each guarded
                fields = attrs.fields(cls)
                inner = (f"{f.name}={self.repr1(getattr(x, f.name), level - 1)}" for f in fields)
                text = f"{type(x).__name__}({', '.join(inner)})"
            else:
                text = repr(x)
        except Exception:  # a hostile __repr__, or a huge int inside an attrs class
            return f"<{_type_name(x)} object>"
        if len(text) > self.maxother:
            return text[: self.maxother - 3] + "..."
        return text


_REPR = _ShortRepr()


def _type_name(x: object) -> str:
    try:
        return str(type(x).__name__)[:REPR_LIMIT]
    except Exception:  # a metaclass with a hostile __name__
        return "unknown"


def describe_int(x: int) -> str:
    """``x`` in decimal, or ``"<an integer of N bits>"`` when it is too long to show."""
    bits = x.bit_length()
    if bits > _INT_BITS:
        return f"<an integer of {bits:,} bits>"
    return str(x)


def short_repr(value: object) -> str:
    """A ``repr`` of ``value`` for a message: at most :data:`REPR_LIMIT` characters (plus a
    description of a huge integer), and it never raises.

    >>> short_repr(10**5000)
    '<an integer of 16,610 bits>'
    >>> short_repr(list(range(100)))
    '[0, 1, 2, 3, 4, 5, ...]'
    """
    try:
        text = _REPR.repr(value)
    except Exception:  # reprlib itself met something it could not handle
        text = f"<{_type_name(value)} object>"
    if len(text) > REPR_LIMIT + 30:
        text = text[: REPR_LIMIT + 27] + "..."
    return text


#: Bidirectional-text controls (Trojan Source): they reorder what a terminal shows.
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


def is_unsafe_char(char: str) -> bool:
    """True for a character that must not reach a terminal raw: C0 and C1 controls (ESC,
    CR, LF, NUL, CSI ...), line and paragraph separators, bidi controls and surrogates."""
    return char in _BIDI or unicodedata.category(char) in _UNSAFE_CATEGORIES


_UNSAFE_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})


def terminal_safe(text: str) -> str:
    """``text`` with each unsafe character (see :func:`is_unsafe_char`) written as a Python
    escape (``\\n``, ``\\x1b``, ``\\u202e``), so one line stays one line and shows what it
    holds. Backslashes are kept as they are: a Windows path stays readable.

    >>> print(terminal_safe("Ada\\n\\x1b[31mfake.json: valid"))
    Ada\\n\\x1b[31mfake.json: valid
    """
    if text.isprintable():  # the common case, in C
        return text
    out = []
    for char in text:
        if char == "\n":
            out.append("\\n")
        elif is_unsafe_char(char):
            code = ord(char)
            if code < 0x100:
                out.append(f"\\x{code:02x}")
            elif code < 0x10000:
                out.append(f"\\u{code:04x}")
            else:
                out.append(f"\\U{code:08x}")
        else:
            out.append(char)
    return "".join(out)


def install_hint(extra: str) -> str:
    """How to install an optional extra, as every message and page gives it: the package
    is installed from a clone of the project or from a wheel built from it (it is not
    published on PyPI).

    >>> install_hint("server").split(", or ")[0]
    "pip install '.[server]' in a clone of high-society"
    """
    return (
        f"pip install '.[{extra}]' in a clone of high-society, or "
        f"pip install 'WHEEL[{extra}]' with the wheel built from it"
    )

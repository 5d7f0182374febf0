"""Peak memory of validating hostile records under the size limit (docs/records.md, "Bounds").

    .venv/bin/python -m benchmarks.hostile_memory

Each input is at most ``MAX_RECORD_BYTES`` (8 MiB) and shaped to cost the most per byte
(many small values, one huge string that Python must store 4 bytes per character ...). Each
is validated in a fresh subprocess, which reports two figures:

- the tracemalloc peak of ``validate_record(data)``: every allocation Python made for the
  call, deterministic, the figure the bound in the docs is about;
- the growth of the process's maximum resident set (``ru_maxrss``) during the call, which
  also counts what the allocator keeps.

Only the standard library and the package are used.
"""

import json
import subprocess
import sys
from collections.abc import Callable

from high_society.record import MAX_RECORD_BYTES
from high_society.serial import MAX_JSON_VALUES

HEAD = b'{"format": "high-society", "version": 1, "players": ["A", "B", "C"], "meta": {"x": '
TAIL = b'}, "actions": []}'
ROOM = MAX_RECORD_BYTES - len(HEAD) - len(TAIL) - 2


def _meta_list(item: bytes) -> bytes:
    """A meta list of as many copies of ``item`` as the value limit and the size allow."""
    per_item = 1 + item.count(b"[") + item.count(b"{") + item.count(b",")  # counted values
    count = min((MAX_JSON_VALUES - 10) // per_item, ROOM // (len(item) + 1))
    return HEAD + b"[" + b",".join([item] * count) + b"]" + TAIL


def _meta_string(unit: str) -> bytes:
    """One meta string as long as the size allows, of ``unit`` repeated."""
    size = len(unit.encode())
    body = json.dumps(unit * (ROOM // size), ensure_ascii=False).encode()
    return HEAD + body[: ROOM - 1] + b'"' + TAIL


def _ascii_then_one_emoji() -> bytes:
    """ASCII but for one character outside the BMP: Python stores every character in 4 bytes."""
    body = ("a" * (ROOM - 8) + "\U0001f600").encode()
    return HEAD + b'"' + body + b'"' + TAIL


#: name -> the input bytes.
SHAPES: dict[str, Callable[[], bytes]] = {
    "empty objects {}": lambda: _meta_list(b"{}"),
    "empty lists []": lambda: _meta_list(b"[]"),
    'small objects {"a":0}': lambda: _meta_list(b'{"a":0}'),
    "objects of 8 keys": lambda: _meta_list(b'{"a":0,"b":0,"c":0,"d":0,"e":0,"f":0,"g":0,"h":0}'),
    "strings of 40 characters": lambda: _meta_list(b'"' + b"x" * 40 + b'"'),
    "strings of 80 emoji": lambda: _meta_list(json.dumps("\U0001f600" * 80).encode()),
    "large ints": lambda: _meta_list(b"1000000000000000000"),
    "floats": lambda: _meta_list(b"1.5e300"),
    "two-character strings": lambda: _meta_list(b'"ab"'),
    "one ASCII string of 8 MiB": lambda: _meta_string("a"),
    "one string of 8 MiB, one emoji": _ascii_then_one_emoji,
    "one string of emoji": lambda: _meta_string("\U0001f600"),
    "whitespace": lambda: HEAD + b"0" + b" " * (ROOM - 1) + TAIL,
    "refused: too many values": lambda: HEAD + b"[" + b"[]," * (ROOM // 3 - 1) + b"[]]" + TAIL,
}

_CHILD = """
import resource, sys, tracemalloc
from benchmarks.hostile_memory import SHAPES
from high_society.record import validate_record
data = SHAPES[sys.argv[1]]()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
tracemalloc.start()
validation = validate_record(data)
_, peak = tracemalloc.get_traced_memory()
tracemalloc.stop()
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
code = "valid" if validation.error is None else str(validation.error.code)
print(len(data), peak, (after - before) * 1024, code)
"""


def measure(name: str) -> tuple[int, int, int, str]:
    """(input bytes, tracemalloc peak, maxrss growth in bytes, verdict) for one shape."""
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, name], capture_output=True, text=True, check=True
    ).stdout.split()
    return int(out[0]), int(out[1]), int(out[2]), out[3]


def main() -> None:
    mib = 1024 * 1024
    print(f"{'input':36} {'bytes':>10} {'peak':>10} {'x input':>8} {'maxrss+':>10}  verdict")
    worst = 0.0
    for name in SHAPES:
        size, peak, rss, verdict = measure(name)
        worst = max(worst, peak / size)
        print(
            f"{name:36} {size / mib:9.2f}M {peak / mib:9.1f}M {peak / size:8.2f}"
            f" {rss / mib:9.1f}M  {verdict}"
        )
    print(f"worst peak / input: {worst:.2f}")


if __name__ == "__main__":
    main()

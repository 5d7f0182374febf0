"""Small whole numbers written into a caller's buffer, whatever its item type, without numpy.

Masks and observations are byte strings of small values (0 to 255) built in Python. A
caller may want them as bytes, booleans, wider integers or floats, in a ``bytearray``, an
``array.array``, a ``memoryview`` or a numpy array. Every one of those is a buffer: the
bytes of item ``i`` start at ``i * itemsize``, and byte ``j`` of the item holding value
``v`` is byte ``j`` of ``struct.pack(fmt, v)``. So ``itemsize`` translations of the value
bytes through per-format tables, spread with extended-slice assignments, write any format
at C speed.
"""

import struct

from high_society.errors import EncodingError

__all__ = ["FORMATS", "check_buffer", "write_values"]

#: The item formats taken (native byte order): integers, floats and booleans.
FORMATS = "bBhHiIlLqQnNefd?"

#: Per format: the largest value it holds exactly, the item size, and the tables of the
#: bytes of an item that are not always 0, by their place in the item.
_TABLES: dict[str, tuple[int, int, tuple[tuple[int, bytes], ...]]] = {}


_FITS = {limit: bytes(range(limit + 1)) for limit in (1, 127)}


def _tables(fmt: str) -> tuple[int, int, tuple[tuple[int, bytes], ...]]:
    try:
        return _TABLES[fmt]
    except KeyError:
        pass
    limit = {"b": 127, "?": 1}.get(fmt, 255)
    packed = [struct.pack(fmt, min(v, limit)) for v in range(256)]
    size = len(packed[0])
    tables = tuple((j, bytes(p[j] for p in packed)) for j in range(size))
    found = _TABLES[fmt] = (limit, size, tuple((j, t) for j, t in tables if any(t)))
    return found


def check_buffer(out: object, size: int, what: str) -> memoryview:
    """``out`` as a one-dimensional, writable, contiguous ``memoryview`` of ``size`` items
    of a format in :data:`FORMATS`; the caller releases it.

    Raises:
        EncodingError: ``out`` is not such a buffer.
    """
    try:
        view = memoryview(out)  # type: ignore[arg-type]  # any buffer: checked at run time
    except TypeError:
        raise EncodingError(f"cannot write {what} into a {type(out).__name__}") from None
    except ValueError as error:  # numpy's datetimes, objects ...: no buffer of that kind
        raise EncodingError(f"cannot write {what} into that buffer: {error}") from None
    fmt = view.format.lstrip("@")
    problem = None
    if view.readonly or not view.c_contiguous or view.ndim != 1:
        problem = f"the buffer for {what} must be writable, one-dimensional and contiguous"
    elif len(view) != size:
        problem = f"the buffer for {what} holds {len(view)} items, not {size}"
    elif fmt not in FORMATS or struct.calcsize(fmt) != view.itemsize:
        problem = f"cannot write {what} into items of format {view.format!r}"
    if problem is not None:
        view.release()
        raise EncodingError(problem)
    return view


def write_values(values: bytes, out: object, what: str) -> None:
    """Write ``values`` (one byte per item) into ``out``, converted to its item format.

    Raises:
        EncodingError: ``out`` is not a buffer :func:`check_buffer` takes, or a value does
            not fit its format (above 127 for ``b``, above 1 for ``?``). Nothing is written
            then.
    """
    with check_buffer(out, len(values), what) as view:
        fmt = view.format.lstrip("@")
        limit, size, tables = _tables(fmt)
        # Deleting every value that fits leaves nothing, unless one does not (in C, unlike
        # max(), which makes an int of each byte).
        if limit < 255 and values.translate(None, _FITS[limit]):
            raise EncodingError(f"{what} holds values above {limit}: format {fmt!r} is too small")
        data: bytes | bytearray
        if size == 1:
            data = values if fmt == "B" or fmt == "b" else values.translate(tables[0][1])
        else:
            wide = bytearray(size * len(values))
            for j, table in tables:
                wide[j::size] = values.translate(table)
            data = wide
        with view.cast("B") as target:
            target[:] = data

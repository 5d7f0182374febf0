"""Numpy archives (``.npz``) read within bounds: the file kind, the archive's members, each
array's dtype and shape are checked before anything is allocated.

``numpy.load`` trusts the archive: a member may declare a 40,000 x 40,000 array in a few
bytes, a zip of zeros may inflate a thousandfold, and a FIFO blocks the reader forever.
Here the file must be a regular file of at most ``max_bytes``; a member's array is read
only after its header declared a plain numeric dtype and a shape within ``max_items``, and
exactly that many bytes are inflated. Every failure is one :class:`ValueError` with a
message; the public reader (:func:`high_society.learned.load_network`) turns it into its
documented error.
"""

import io
import os
import stat
import zipfile
import zlib
from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

__all__ = ["read_file", "read_npz_bytes"]

#: The dtypes an archive may hold: plain numbers, no objects (no pickle).
_KINDS = frozenset("biuf")


def read_file(path: "str | os.PathLike[str]", max_bytes: int) -> bytes:
    """The bytes of the regular file at ``path``, at most ``max_bytes`` of them.

    Raises:
        ValueError: not a path, not a regular file (a directory, a FIFO, a device: a FIFO
            would block the reader), larger than ``max_bytes``, or unreadable.
    """
    if not isinstance(path, str | os.PathLike):  # an int would be a file descriptor
        raise ValueError(f"a path must be a string or a path, not {type(path).__name__}")
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            what = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise ValueError(f"it is {what}")
        if info.st_size > max_bytes:
            raise ValueError(f"it is larger than {max_bytes:,} bytes")
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as error:
        raise ValueError(error.strerror or str(error)) from None
    except TypeError:  # a bytes path or other oddity os.stat refuses
        raise ValueError("not a path") from None
    if len(data) > max_bytes:  # it grew after the stat
        raise ValueError(f"it is larger than {max_bytes:,} bytes")
    return data


def read_npz_bytes(
    data: bytes, *, max_members: int, max_items: int
) -> Mapping[str, npt.NDArray[np.generic]]:
    """The arrays of the ``.npz`` archive ``data``, by name (without ``.npy``).

    Each member must be an ``.npy`` array of a plain numeric dtype whose shape holds at
    most ``max_items`` items; at most ``max_members`` members.

    Raises:
        ValueError: not a zip archive, too many members, a member that is not such an
            array, or one whose size does not match its header.
    """
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError):
        raise ValueError("not a numpy archive (.npz)") from None
    with archive:
        members = archive.infolist()
        if len(members) > max_members:
            raise ValueError(f"{len(members)} members, more than {max_members}")
        arrays: dict[str, npt.NDArray[np.generic]] = {}
        for member in members:
            name = member.filename.removesuffix(".npy")
            if name == member.filename or name in arrays:
                raise ValueError(f"member {member.filename[:60]!r} is not one .npy array")
            try:
                arrays[name] = _read_member(archive, member, max_items)
            except (zipfile.BadZipFile, zlib.error, OSError, EOFError, NotImplementedError):
                raise ValueError(f"member {name[:60]!r} is damaged") from None
    return arrays


def _read_member(
    archive: zipfile.ZipFile, member: zipfile.ZipInfo, max_items: int
) -> npt.NDArray[np.generic]:
    """One member's array: header first, then exactly the bytes it declares."""
    name = member.filename[:60]
    with archive.open(member) as stream:
        try:
            version = np.lib.format.read_magic(stream)
            if version == (1, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(stream)
            elif version == (2, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(stream)
            else:
                raise ValueError(f"npy version {version}")
        except ValueError as error:
            raise ValueError(f"member {name!r}: not an .npy array ({error})") from None
        if dtype.kind not in _KINDS or dtype.hasobject or dtype.fields is not None:
            raise ValueError(f"member {name!r}: dtype {dtype} is not a plain number")
        items = 1
        for length in shape:
            items *= length
            if items > max_items:
                raise ValueError(f"member {name!r}: shape {shape} holds more than {max_items:,}")
        size = items * dtype.itemsize
        if member.file_size != stream.tell() + size:
            raise ValueError(f"member {name!r}: its size does not match its header")
        raw = stream.read(size)
    if len(raw) != size:
        raise ValueError(f"member {name!r}: truncated")
    flat: npt.NDArray[np.generic] = np.frombuffer(raw, dtype=dtype)
    return flat.reshape(tuple(shape), order="F" if fortran else "C").copy()

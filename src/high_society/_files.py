"""Record files: read at most the size limit, write all or nothing, never through a link.

The public entry is :mod:`high_society.record`.
"""

import os
import stat
import tempfile
from pathlib import Path

from high_society._json import kind
from high_society._records import (
    MAX_RECORD_BYTES,
    GameRecord,
    Validation,
    dumps_record,
    loads_record,
    validate_record,
)
from high_society._text import short_repr
from high_society.errors import RecordCode, RecordError

__all__ = ["check_target", "read_record", "validate_file", "write_bytes", "write_record"]

_C = RecordCode


def _shown(path: object) -> str:
    """A path for a message: decoded, escaped (it may hold a newline) and short."""
    try:
        text = os.fsdecode(path)  # type: ignore[arg-type]
    except Exception:  # not a path at all
        return short_repr(path)
    if len(text) > 200:
        text = text[:100] + "..." + text[-97:]
    return repr(text)  # repr escapes control characters: the name stays on one line


def _check_path(path: object, code: RecordCode) -> None:
    # An int is a file descriptor to os.stat and open: 0 would read standard input.
    if not isinstance(path, str | bytes | os.PathLike):
        raise RecordError(code, f"a path must be a string or a path, not {kind(path)}")


def _read_bytes(path: "str | os.PathLike[str]") -> bytes:
    """At most ``MAX_RECORD_BYTES`` of a regular file; every failure is a RecordError."""
    _check_path(path, _C.UNREADABLE)
    where = _shown(path)
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            what = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise RecordError(_C.UNREADABLE, f"cannot read {where}: it is {what}")
        with open(path, "rb") as handle:
            # As much as stat says, plus one byte to see growth: read(MAX + 1) would
            # allocate 8 MiB for any file.
            data = handle.read(min(info.st_size, MAX_RECORD_BYTES) + 1)
            if info.st_size < len(data) <= MAX_RECORD_BYTES:  # the file grew meanwhile
                data += handle.read(MAX_RECORD_BYTES + 1 - len(data))
    except OSError as error:
        raise RecordError(_C.UNREADABLE, f"cannot read {where}: {_why(error)}") from None
    except RecordError:
        raise
    except ValueError:  # a NUL character in the path
        raise RecordError(_C.UNREADABLE, f"cannot read {where}: a path cannot hold NUL") from None
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(
            _C.TOO_LARGE, f"the file is larger than the limit of {MAX_RECORD_BYTES:,} bytes"
        )
    return data


def read_record(path: "str | os.PathLike[str]") -> GameRecord:
    """The record in a file (well formed; not checked for legality: see
    :func:`replay`).

    Raises:
        RecordError: ``UNREADABLE`` (missing, a directory, a FIFO, no permission, a path
            holding NUL or not a path at all ...), ``TOO_LARGE``, or what
            :func:`loads_record` raises.
    """
    return loads_record(_read_bytes(path))


def validate_file(path: "str | os.PathLike[str]") -> Validation:
    """Check the record in a file and report instead of raising. Nothing is written.

    A file that cannot be read (see :func:`read_record`) is reported with code
    ``UNREADABLE``.
    """
    try:
        data = _read_bytes(path)
    except RecordError as error:
        return Validation(error=error)
    return validate_record(data)


def write_record(record: GameRecord, path: "str | os.PathLike[str]") -> None:
    """Write the record to a file, all or nothing: a temporary file in the same directory,
    flushed to disk, is renamed over ``path`` once complete, so a failure leaves no partial
    file. Only a regular file is replaced, or a new one made: a FIFO, a device, a directory
    or a symbolic link at ``path`` is refused, since renaming over it would replace it with
    a file.

    Raises:
        RecordError: ``WRONG_TYPE`` (``record`` is not a :class:`GameRecord`), or
            ``UNWRITABLE``: ``path`` is not a regular file or a new name (a directory, a
            FIFO, a device, a symbolic link), or the system refused; the message names
            ``path``. Nothing was changed.
    """
    write_bytes(dumps_record(record).encode("utf-8"), path)


def write_bytes(data: bytes, path: "str | os.PathLike[str]") -> None:
    """Write ``data`` to ``path``, all or nothing: a temporary file in the same directory is
    renamed over ``path`` once complete, so a failure leaves no partial file. Only a regular
    file is replaced, or a new one made: a FIFO, a device, a directory or a symbolic link at
    ``path`` is refused, since renaming over it would replace it with a file, and so is a
    path that ends in a separator or in ``.`` or ``..`` (it names a directory: the path
    library would drop the ending and write the file before it). A file replaced keeps its
    permission bits, and its owner and group where the system allows; a new one gets the
    usual ``0o666`` less the umask.

    Raises:
        RecordError: ``UNWRITABLE``, naming ``path``; nothing was changed.
    """
    target, where, info = check_target(path)
    try:
        fd, temp = tempfile.mkstemp(
            dir=target.parent, prefix=_temp_prefix(target), suffix=_TEMP_SUFFIX
        )
    except OSError as error:
        raise RecordError(_C.UNWRITABLE, f"cannot write {where}: {_why(error)}") from None
    try:
        with open(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if info is not None:
            _keep_owner(temp, info)
        # mkstemp makes the file private: a new record gets the usual mode, a replaced file
        # keeps its own (a private file stays private).
        mode = stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask()
        os.chmod(temp, mode)
        os.replace(temp, target)
    except BaseException as error:
        Path(temp).unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise RecordError(_C.UNWRITABLE, f"cannot write {where}: {_why(error)}") from None
        raise


def _keep_owner(temp: str, info: os.stat_result) -> None:
    """Give the new file the replaced file's owner and group where the system lets us (the
    superuser may give any; anyone may give a group they belong to); where it does not, the
    writer owns the new file, as with any program that replaces a file by renaming."""
    made = os.stat(temp)
    if (made.st_uid, made.st_gid) == (info.st_uid, info.st_gid):
        return
    for uid in (info.st_uid, -1):  # -1: leave the owner, try the group alone
        try:
            os.chown(temp, uid, info.st_gid)
            return
        except OSError:
            continue


def check_target(path: object) -> tuple[Path, str, os.stat_result | None]:
    """The checks :func:`write_bytes` makes before writing, so that a command can make them
    before a long run: ``path`` as a :class:`~pathlib.Path`, as shown in messages, and the
    status of the regular file it names (``None`` for a new name).

    Raises:
        RecordError: ``UNWRITABLE``: ``path`` is not a path, names a directory (an existing
            one, or by ending in a separator, ``.`` or ``..``), or names something other than
            a regular file; or its directory cannot be reached.
    """
    _check_path(path, _C.UNWRITABLE)
    where = _shown(path)
    try:
        text = os.fsdecode(path)  # type: ignore[arg-type]
        if "\0" in text:
            raise RecordError(_C.UNWRITABLE, f"cannot write {where}: a path cannot hold NUL")
        # pathlib drops a trailing separator and a trailing "." ("notes.txt/" and
        # "notes.txt/." become "notes.txt"): looked at in the text, before it does.
        if os.path.basename(text) in {"", ".", ".."}:
            raise RecordError(
                _C.UNWRITABLE, f"cannot write {where}: it names a directory, not a file"
            )
        target = Path(text)
        info: os.stat_result | None
        try:
            info = os.lstat(target)
        except FileNotFoundError:
            info = None
            os.stat(target.parent)  # a missing directory: said now, not after a long run
        if info is not None and not stat.S_ISREG(info.st_mode):
            raise RecordError(
                _C.UNWRITABLE, f"cannot write {where}: it exists and is {_file_kind(info)}"
            )
    except OSError as error:
        raise RecordError(_C.UNWRITABLE, f"cannot write {where}: {_why(error)}") from None
    return target, where, info


#: The temporary file is named ``.NAME.XXXXXXXX.tmp`` (mkstemp adds the 8 random characters).
_TEMP_SUFFIX = ".tmp"
_TEMP_EXTRA = 2 + 8 + len(_TEMP_SUFFIX)


def _temp_prefix(target: Path) -> str:
    """``.NAME.``, with NAME cut so that the temporary name fits the file system's limit on
    a name (in bytes; 255 on most), whatever the length of ``target``'s own name."""
    try:
        limit = os.pathconf(target.parent, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):  # unknown: the usual limit
        limit = 255
    name = target.name
    room = max(0, min(limit, 255) - _TEMP_EXTRA)
    while len(os.fsencode(name)) > room:
        name = name[: max(0, min(len(name) - 1, room))]
    return f".{name}."


def _why(error: OSError) -> str:
    return error.strerror or type(error).__name__


def _file_kind(info: os.stat_result) -> str:
    mode = info.st_mode
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _umask() -> int:
    """The process's umask, read without changing it (Linux); else the usual 022."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o022

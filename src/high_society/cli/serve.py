"""``high-society serve``: the table server and its web page (the ``server`` extra).

Runs :func:`high_society.server.create_app` under uvicorn, on ``127.0.0.1`` unless told
otherwise, its tables in a SQLite database in a data directory (``--data-dir``), or in the
database that ``--database URL`` names.
"""

import argparse
import contextlib
import ipaddress
import os
import socket
import sys
from pathlib import Path

from high_society._text import short_repr
from high_society.cli._options import set_handler
from high_society.errors import InvalidConfigError

__all__ = [
    "database_url",
    "default_data_dir",
    "exposure_warning",
    "listen",
    "register",
    "run",
    "sqlalchemy_url",
]


def default_data_dir() -> Path:
    """``$XDG_DATA_HOME/high-society``, or ``~/.local/share/high-society``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "high-society"


def database_url(database: str | None, data_dir: Path) -> str:
    """The database's URL: ``database`` when given, else the SQLite file ``tables.sqlite3``
    in ``data_dir``. The data directory is made if missing, readable by its owner only
    (0700, whatever the umask): the database holds every table's secret deck order. The
    URL is built from the path (any character of it is kept as it is), never pasted.

    Raises:
        InvalidConfigError: the data directory cannot be made.
    """
    if database:
        return database
    try:
        if not data_dir.is_dir():
            data_dir.mkdir(parents=True, mode=0o700)
            data_dir.chmod(0o700)  # mkdir's mode is filtered by the umask
    except OSError as error:
        raise InvalidConfigError(
            f"cannot make the data directory {short_repr(str(data_dir))}: {error.strerror or error}"
        ) from None
    path = data_dir.resolve() / "tables.sqlite3"
    return sqlalchemy_url("sqlite", str(path))


def _limits_defaults() -> dict[str, float]:
    """The defaults of the limits the command sets, as :class:`Limits` has them (read
    from its fields: the server extra need not be installed for ``--help``)."""
    return {"tables_per_minute": 20.0, "max_address_connections": 64, "max_address_streams": 32}


def exposure_warning(host: str) -> str | None:
    """What to say when the server listens on ``host`` (an address) beyond this machine:
    it speaks plain HTTP, and the seats' tokens would cross the network in clear."""
    if ipaddress.ip_address(host.split("%")[0]).is_loopback:
        return None
    return (
        f"serving plain HTTP on {host}, beyond this machine: seats' tokens would cross the "
        "network unencrypted. Put a reverse proxy that speaks HTTPS in front of it (the "
        "docs page 'Serve a table')"
    )


def _records_folder(path: Path) -> Path:
    """The records folder, made if missing.

    Raises:
        InvalidConfigError: it cannot be made, or is not a folder.
    """
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InvalidConfigError(
            f"cannot make the records folder {short_repr(str(path))}: {error.strerror or error}"
        ) from None
    return path


def sqlalchemy_url(driver: str, database: str) -> str:
    """A database URL made from its parts (SQLAlchemy escapes what needs it)."""
    from sqlalchemy.engine import URL

    return URL.create(driver, database=database).render_as_string()


def listen(host: str, port: int, send_seconds: float) -> socket.socket:
    """A socket listening on ``host`` (its first address) and ``port``, whose connections
    the kernel resets once what the server sends has waited ``send_seconds`` for the client
    (TCP_USER_TIMEOUT, where the system has it: Linux). So a client that stops reading,
    or vanishes, holds a connection and the bytes buffered for it for that long at most,
    whatever the response; without it, a close waits for the client to read them.

    Raises:
        InvalidConfigError: ``host`` is not an address or a name known here, or the server
            cannot listen there (the port taken, the address not this machine's).
    """
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not a host name"
        raise InvalidConfigError(f"cannot listen on {short_repr(host)}: {reason}") from None
    family, kind, proto, _, address = found[0]
    listener = socket.socket(family, kind, proto)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        user_timeout = getattr(socket, "TCP_USER_TIMEOUT", None)
        if user_timeout is not None:  # milliseconds; accepted connections inherit it
            listener.setsockopt(socket.IPPROTO_TCP, user_timeout, round(send_seconds * 1000))
        listener.bind(address)
        listener.listen(2048)
    except OSError as error:
        listener.close()
        raise InvalidConfigError(
            f"cannot listen on {short_repr(host)}, port {port}: {error.strerror or error}"
        ) from None
    return listener


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``serve`` subcommand."""
    parser = subparsers.add_parser(
        "serve",
        help="run the table server and its web page (needs the server extra)",
        description="Serve tables of High Society over HTTP, with a web page at / where people "
        "play against each other and the built-in bots. The tables are kept in a database "
        "(SQLite in the data directory by default), so a restarted server resumes them.",
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)"
    )
    parser.add_argument(
        "--port",
        type=int,
        choices=range(1, 65536),
        metavar="PORT",
        default=8000,
        help="the port to listen on (default 8000)",
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="where the SQLite database lives (default $XDG_DATA_HOME/high-society, "
        "else ~/.local/share/high-society)",
    )
    parser.add_argument(
        "--database",
        default=None,
        metavar="URL",
        help="a database URL instead of the SQLite file in the data directory: "
        "sqlite:////path/tables.sqlite3, or postgresql://USER@HOST/DB for PostgreSQL "
        "(through psycopg 3), which several server processes can share",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.5,
        metavar="SECONDS",
        help="the pause after each bot action or reveal, so people can follow (default 0.5)",
    )
    parser.add_argument(
        "--send-seconds",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="how long a client may leave what is sent to it unread before its connection "
        "is dropped (default 30)",
    )
    parser.add_argument(
        "--records",
        type=Path,
        default=None,
        metavar="DIR",
        help="write each finished game's record to DIR as it ends (finished tables leave "
        "the database 30 days after their end)",
    )
    defaults = _limits_defaults()
    parser.add_argument(
        "--tables-per-minute",
        type=float,
        default=defaults["tables_per_minute"],
        metavar="N",
        help="tables one address may make each minute, in a burst of as many (default "
        f"{defaults['tables_per_minute']:g}; behind a reverse proxy every client has its "
        "address: raise it)",
    )
    parser.add_argument(
        "--address-connections",
        type=int,
        default=defaults["max_address_connections"],
        metavar="N",
        help="connections one address may hold at once (default "
        f"{defaults['max_address_connections']})",
    )
    parser.add_argument(
        "--address-streams",
        type=int,
        default=defaults["max_address_streams"],
        metavar="N",
        help=f"event streams one address may hold (default {defaults['max_address_streams']})",
    )
    parser.add_argument(
        "--api-docs",
        action="store_true",
        help="serve the browsable API docs at /docs (Swagger UI, which browsers load from "
        "its CDN; off by default: /openapi.json is always served)",
    )
    set_handler(parser, run, "server")


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted.

    Raises:
        ImportError: the ``server`` extra is not installed (the command line says which).
        InvalidConfigError: the data directory or the records folder cannot be made,
            ``--bot-delay`` or ``--send-seconds`` is out of range, the database cannot be
            used (not a database URL, unreachable, another schema version), or the server
            cannot listen on ``--host`` and ``--port`` (see :func:`listen`).
    """
    import uvicorn

    from high_society.server import Limits, check_database, create_app
    from high_society.server._http import protocol_for

    if not 0 <= args.bot_delay <= 60:
        raise InvalidConfigError("--bot-delay must be 0 to 60 seconds")
    if not 1 <= args.send_seconds <= 3600:
        raise InvalidConfigError("--send-seconds must be 1 to 3600 seconds")
    url = database_url(args.database, args.data_dir or default_data_dir())
    check_database(url)  # a wrong URL or an unreachable database: said now, not in a traceback
    try:
        limits = Limits(
            tables_per_minute=args.tables_per_minute,
            max_address_connections=args.address_connections,
            max_address_streams=args.address_streams,
        )
    except InvalidConfigError as error:
        raise InvalidConfigError(str(error).replace("_", "-")) from None
    records = None if args.records is None else _records_folder(args.records)
    app = create_app(
        url,
        bot_delay=args.bot_delay,
        send_seconds=args.send_seconds,
        limits=limits,
        records=records,
        api_docs=args.api_docs,
    )
    listener = listen(args.host, args.port, args.send_seconds)
    host, port = listener.getsockname()[:2]
    shown = f"[{host}]" if listener.family == socket.AF_INET6 else host
    print(f"High Society table server on http://{shown}:{port}/ (Ctrl+C stops it)", flush=True)
    warning = exposure_warning(host)
    if warning is not None:
        print(f"high-society: warning: {warning}", file=sys.stderr, flush=True)
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn raises Ctrl-C again once stopped
        config = uvicorn.Config(
            app,
            log_level="info",
            http=protocol_for(limits),
            timeout_keep_alive=max(1, round(limits.idle_seconds)),
        )
        uvicorn.Server(config).run(sockets=[listener])
    return 0

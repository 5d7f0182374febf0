"""``high-society serve``: the table server and its web page (the ``server`` extra).

Runs :func:`high_society.server.create_app` under uvicorn, on ``127.0.0.1`` unless told
otherwise, its tables in a SQLite database in a data directory (``--data-dir``), or in the
database that ``--database URL`` names.
"""

import argparse
import os
from pathlib import Path

from high_society.errors import InvalidConfigError

__all__ = ["database_url", "default_data_dir", "register", "run"]


def default_data_dir() -> Path:
    """``$XDG_DATA_HOME/high-society``, or ``~/.local/share/high-society``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "high-society"


def database_url(database: str | None, data_dir: Path) -> str:
    """The database's SQLAlchemy URL: ``database`` when given, else a SQLite file in
    ``data_dir`` (made if missing).

    Raises:
        InvalidConfigError: the data directory cannot be made.
    """
    if database:
        return database
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InvalidConfigError(
            f"cannot make the data directory {str(data_dir)!r}: {error.strerror or error}"
        ) from None
    return f"sqlite:///{data_dir.resolve() / 'tables.sqlite3'}"


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
        help="a SQLAlchemy database URL instead of the SQLite file in the data directory",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.5,
        metavar="SECONDS",
        help="the pause after each bot action or reveal, so people can follow (default 0.5)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted.

    Raises:
        InvalidConfigError: the ``server`` extra is not installed, the data directory cannot
            be made, ``--bot-delay`` is negative, or the database cannot be used (not a
            database URL, unreachable, another schema version).
    """
    try:
        import uvicorn

        from high_society.server import check_database, create_app
    except ImportError as error:
        raise InvalidConfigError(
            f"the server needs the server extra ({error.name} is missing): "
            "pip install 'high-society[server]'"
        ) from None
    if not 0 <= args.bot_delay <= 60:
        raise InvalidConfigError("--bot-delay must be 0 to 60 seconds")
    url = database_url(args.database, args.data_dir or default_data_dir())
    check_database(url)  # a wrong URL or an unreachable database: said now, not in a traceback
    app = create_app(url, bot_delay=args.bot_delay)
    uvicorn.run(app, host=args.host, port=args.port, log_level="info")
    return 0

"""The store's reads for the lobby: the tables listed for strangers, a page at a time, and
what changes when the lobby does."""

from high_society.server._database import Database
from high_society.server._store_rows import Listed
from high_society.server._store_seats import seat_rows

__all__ = ["Listings"]


class Listings:
    """The tables their makers listed, as the lobby reads them."""

    def __init__(self, database: Database) -> None:
        self._db = database

    def page(self, before: tuple[float, str] | None, most: int) -> list[Listed]:
        """The tables the lobby lists that are not over, the latest changed first, those
        changed before ``before`` (``(updated, table_id)``: where the page before ended),
        at most ``most``, with their seats."""
        after = before if before is not None else (float("inf"), "")
        found: list[Listed] = []
        with self._db.alone() as cursor:
            rows = cursor.all("lobby", before=after[0], before_id=after[1], most=most)
            for table_id, status, version, clock, updated in rows:
                seats = seat_rows(cursor, str(table_id))
                found.append(
                    Listed(str(table_id), str(status), int(version), clock, updated, seats)
                )
        return found

    def mark(self) -> tuple[int, float]:
        """What changes when the lobby does: how many tables it lists, and the latest
        change of one."""
        with self._db.alone() as cursor:
            row = cursor.first("lobby_mark")
        return (0, 0.0) if row is None else (int(row[0]), float(row[1] or 0.0))

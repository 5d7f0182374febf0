"""Seats' tokens: made, hashed for the store, matched in constant time, and the seat a
request's token opens (:class:`Keys`).

A token is 43 characters of URL-safe base64 (32 random bytes, ``secrets``); the store
keeps only its SHA-256, so a copy of the database does not give the tokens away. A
person's token at a rematch is derived from their token at the table before
(:func:`derived_token`), so that asking again, from any device, gives the same one.
"""

import base64
import hashlib
import hmac
import re
import secrets
from collections import OrderedDict
from collections.abc import Iterable

from high_society.server._store import Store

__all__ = [
    "MAX_TOKEN_LENGTH",
    "TOKEN_BYTES",
    "Keys",
    "Unauthorized",
    "derived_token",
    "hash_token",
    "new_token",
    "seat_by_token",
]

#: Bytes of randomness in a seat's token (43 characters of URL-safe base64).
TOKEN_BYTES = 32
#: The longest token read (longer ones are refused before hashing).
MAX_TOKEN_LENGTH = 64

_GOOD_TOKEN = re.compile(f"[A-Za-z0-9_-]{{1,{MAX_TOKEN_LENGTH}}}")


class Unauthorized(Exception):
    """The token is missing, malformed, or is no seat's token at that table."""


def new_token() -> str:
    """A new seat's token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def derived_token(token: str, context: str) -> str:
    """A token made of ``token`` and ``context`` (HMAC-SHA-256, as 43 characters of URL-safe
    base64): the same for the same two, and unguessable without ``token``. The store
    keeps neither ``token`` nor this one, only their hashes."""
    digest = hmac.new(token.encode("ascii"), context.encode("ascii"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def hash_token(token: str) -> str:
    """The stored form of a token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def seat_by_token(token: object, hashes: dict[str, int]) -> int:
    """The seat whose stored hash is the token's: every hash is compared, each in constant
    time, so the time taken says nothing of which one matched or how much of it.

    Raises:
        Unauthorized: a malformed token, or none of ``hashes``.
    """
    if not isinstance(token, str) or _GOOD_TOKEN.fullmatch(token) is None:
        raise Unauthorized
    given = hash_token(token).encode()
    found = None
    for stored, seat in hashes.items():
        if hmac.compare_digest(given, stored.encode()) and found is None:
            found = seat
    if found is None:
        raise Unauthorized
    return found


class Keys:
    """The seat a token opens at a table, from the tokens' hashes in ``store``: read once
    per process once every seat is taken (they never change then), at most ``tables``
    tables' kept."""

    def __init__(self, store: Store, tables: int = 2048) -> None:
        self._store = store
        self._tables = tables
        self._hashes: OrderedDict[str, dict[str, int]] = OrderedDict()

    async def seat_of(self, table_id: str, token: object) -> int:
        """The seat whose token ``token`` is.

        Raises:
            NotFound, Unauthorized: no such table; no seat of it has that token.
        """
        hashes = self._hashes.get(table_id)
        if hashes is not None:
            self._hashes.move_to_end(table_id)
            return seat_by_token(token, hashes)
        read, final = await self._store.call(self._store.seats.hashes, table_id)
        if final:
            self.keep(table_id, read)
        return seat_by_token(token, read)

    def keep(self, table_id: str, hashes: dict[str, int]) -> None:
        """The final hashes of a table's seats (``{hash: seat}``)."""
        self._hashes[table_id] = hashes
        while len(self._hashes) > self._tables:
            self._hashes.popitem(last=False)

    def forget(self, table_ids: Iterable[str]) -> None:
        """Drop what is kept of tables the store deleted."""
        for table_id in table_ids:
            self._hashes.pop(table_id, None)

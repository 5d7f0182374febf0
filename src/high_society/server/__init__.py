"""The table server: tables of 3 to 5 seats, people and bots, over HTTP, with a web page.

Needs the ``server`` extra (FastAPI, uvicorn, SQLAlchemy, psycopg, orjson): ``pip install
'.[server]'`` in a clone of the project. ``high-society serve`` runs it with uvicorn on
``127.0.0.1``, its tables in a SQLite database in a data directory; ``--database URL``
names another database. The docs page "Serve a table" describes the API, the payload and
the errors; the OpenAPI document is served at ``/openapi.json``, and clients generated from
it play whole games in the tests.

:func:`create_app` makes the ASGI application, for uvicorn or any ASGI server, or for an
ASGI test client (:func:`check_database` tells first whether its database can be used):

>>> import tempfile
>>> from fastapi.testclient import TestClient
>>> with tempfile.TemporaryDirectory() as folder:
...     app = create_app(f"sqlite:///{folder}/tables.sqlite3")
...     with TestClient(app) as client:
...         made = client.post("/api/tables", json={"seats": [
...             {"kind": "person", "name": "Ada"},
...             {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "random"}]})
...         print(made.status_code, made.json()["status"], made.json()["seats"][0]["seat"])
201 playing 0
"""

from high_society.server._api import MAX_BODY_BYTES
from high_society.server._app import create_app
from high_society.server._bots import BOTS, make_bot
from high_society.server._limits import Limits
from high_society.server._store import check_database

__all__ = ["BOTS", "MAX_BODY_BYTES", "Limits", "check_database", "create_app", "make_bot"]

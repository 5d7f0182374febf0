"""Real services started by the project for its tests, benchmarks and ``tasks.py``: a
throwaway PostgreSQL server (:mod:`services.pg_cluster`) and table servers in processes of
their own (:mod:`services.server_processes`). Not part of the package; ``tests/``,
``benchmarks/`` and ``tasks.py`` import them, never the other way round."""

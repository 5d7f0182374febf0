"""Benchmarks of the engine: ``python3 tasks.py bench`` (see docs/performance.md)."""

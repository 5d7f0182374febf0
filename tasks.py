#!/usr/bin/env python3
"""The project's two commands, for a fresh clone with only Python 3.11+:

    python3 tasks.py demo [ARGS...]   set up .venv and play a demo game (high-society demo ARGS)
    python3 tasks.py test             set up .venv with the dev tools and run every check

Other tasks: ``python3 tasks.py setup`` (only the environment), ``lint``, ``typecheck``,
``pytest [ARGS...]``, ``docs`` (the documentation site, into docs/_build/html), ``bench
[PYTEST-ARGS...]`` (the benchmark suite and throughput report of docs/performance.md; not
part of ``test``), ``mutate [MUTMUT-RUN-ARGS...]`` (mutation testing of the engine, not
part of ``test``; docs/verification.md), ``verify`` (the exhaustive explorer and the
CrossHair gate, as ``test`` runs them), ``verify-deep [SECONDS [JOBS]]`` (the CrossHair
contracts with SECONDS of CPU per condition, default 60, one CrossHair process per function,
JOBS at a time, default 1, and the boundary of ``state_problems`` around every explored
state; not part of ``test``, about an hour), ``batch-diff [--steps N]`` (the
long differential run of the batch engine against the reducer), ``bench-batch`` (its
throughput beside the reducer; both docs/batch.md) and ``fuzz [EXAMPLES]`` (the long fuzz
run of every entry point, EXAMPLES inputs each, default 2,000, and the peak memory of
worst-case inputs; not part of ``test``, which runs a short derandomised pass;
docs/records.md), ``train [ARGS...]`` (trains the learned bot with PyTorch, which it
installs into .venv; docs/ai.md; not part of ``test``) and ``pythons [VERSION...]`` (the
test suite under the other Pythons the package's classifiers name, default 3.12 and 3.13,
each in its own ``.venv-VERSION``; CI runs 3.11). Only the standard library is used here.
"""

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"
STAMP = VENV / ".installed"


def run(*cmd: str | Path, **env: str) -> None:
    """Run a command from the repository root; stop with its exit code if it fails."""
    printable = " ".join(str(c) for c in cmd)
    print(f"$ {printable}", flush=True)
    code = subprocess.call([str(c) for c in cmd], cwd=ROOT, env={**os.environ, **env})
    if code != 0:
        print(f"FAILED ({code}): {printable}", file=sys.stderr)
        sys.exit(code)


def setup(extras: str = "dev") -> None:
    """Create .venv and install the package (editable) with ``extras``, when out of date."""
    if sys.version_info < (3, 11):  # noqa: UP036 (this file runs on any python3, venv or not)
        sys.exit(f"high-society needs Python 3.11 or newer, not {sys.version.split()[0]}")
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + extras.encode()).hexdigest()
    if PY.exists() and STAMP.exists():
        have = STAMP.read_text().split()
        # A dev install serves a demo too.
        if wanted in have:
            return
    if not PY.exists():
        print(f"creating {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
        run(PY, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    target = f".[{extras}]" if extras else "."
    run(PY, "-m", "pip", "install", "--quiet", "-e", target)
    stamps = {wanted}
    if extras == "dev":
        stamps.add(hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest())
    STAMP.write_text("\n".join(sorted(stamps)))


def lint() -> None:
    run(BIN / "ruff", "check", ".")
    run(BIN / "ruff", "format", "--check", ".")


def typecheck() -> None:
    run(BIN / "mypy", "--strict", "src", "tests", "property_tests", "verification")


def pytest(*args: str) -> None:
    run(BIN / "pytest", *args)


def docs() -> None:
    """Build the documentation site into docs/_build/html; any warning fails the build."""
    run(
        BIN / "sphinx-build",
        "-W",
        "--keep-going",
        "-n",
        "-q",
        "-b",
        "html",
        "docs",
        "docs/_build/html",
    )


def verify() -> None:
    """docs/verification.md: every reachable state of two small games (with the boundary of
    ``state_problems``), then the CrossHair contracts, bounded by paths, not seconds: the
    verdict does not depend on the machine's load."""
    run(PY, "-m", "verification.explore")
    run(PY, "-m", "verification.crosshair_check")


def test() -> None:
    """Every check CI runs.

    The verification (about 4 CPU minutes, mostly CrossHair) needs nothing the other checks
    make, so it runs beside them in a second process, its output held back and printed
    whole when it ends. On an idle machine that uses both cores; on a loaded one it gives
    the checks two shares of the CPU instead of one. The verdict is the same either way.
    """
    setup("dev")
    with tempfile.TemporaryFile() as log:
        print("$ python3 tasks.py verify  (in the background; its output follows at the end)")
        lane = subprocess.Popen(
            [sys.executable, str(ROOT / "tasks.py"), "verify"],
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            lint()
            typecheck()
            # The same Hypothesis profile as CI (conftest.py): 500 examples, derandomised.
            pytest("--hypothesis-profile=ci")
            docs()
            # The README's other command, end to end.
            run(BIN / "high-society", "demo", "--seed", "1")
        finally:
            if sys.exc_info()[0] is not None:  # a check failed: the verdict is known
                lane.kill()
            code = lane.wait()
            log.seek(0)
            sys.stdout.flush()
            sys.stdout.buffer.write(log.read())
            sys.stdout.flush()
    if code != 0:
        print(f"FAILED ({code}): python3 tasks.py verify", file=sys.stderr)
        sys.exit(code)


def verify_deep(seconds: str = "60", jobs: str = "1") -> None:
    """The deep verification (docs/verification.md): not in CI, CPU-heavy. CrossHair runs
    one process per function, ``jobs`` at a time."""
    run(PY, "-m", "verification.crosshair_check", "--deep", seconds, "--jobs", jobs)
    run(PY, "-m", "verification.explore", "--full-boundary")


def bench(*args: str) -> None:
    """The benchmarks: pytest-benchmark timings, then the throughput report (a few minutes)."""
    run(
        BIN / "pytest",
        "benchmarks",
        "-o",
        "python_files=bench_*.py",
        "-p",
        "no:cacheprovider",
        "--benchmark-only",
        "--benchmark-sort=name",
        "--benchmark-columns=min,median,mean,ops,rounds",
        *args,
    )
    run(PY, "-m", "benchmarks.report")
    # The OpenSpiel game and the PettingZoo environment side by side with simulate.
    run(PY, "-m", "benchmarks.adapters")


def mutate(*args: str) -> None:
    """Mutation testing of the engine with mutmut (not in CI: about an hour on two cores;
    see docs/verification.md). Mutants and cached results stay in mutants/."""
    setup("dev,mutation")
    path = f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"  # mutmut runs mypy by name
    run(BIN / "mutmut", "run", "--max-children", str(os.cpu_count() or 1), *args, PATH=path)
    run(BIN / "mutmut", "export-cicd-stats", PATH=path)
    run(PY, "-c", "import json; print(json.load(open('mutants/mutmut-cicd-stats.json')))")


def fuzz(examples: str = "2000") -> None:
    """The long, randomised fuzz run (docs/records.md, "Fuzzing"): ``examples`` inputs per
    entry point, then the figures table, then peak memory of the worst-case inputs."""
    report = ROOT / ".fuzz-report.md"
    run(
        BIN / "pytest",
        "property_tests/test_fuzz.py",
        "-p",
        "no:cacheprovider",
        "-q",
        HIGH_SOCIETY_FUZZ_EXAMPLES=str(int(examples)),
        HIGH_SOCIETY_FUZZ_REPORT=str(report),
    )
    print(report.read_text(encoding="utf-8"), flush=True)
    run(PY, "-m", "benchmarks.hostile_memory")


def pythons(*versions: str) -> None:
    """pytest (the ``ci`` profile) under each Python of ``versions``, the ones the
    classifiers in pyproject.toml name besides CI's 3.11; fails if one is not installed."""
    for version in versions or ("3.12", "3.13"):
        exe = shutil.which(f"python{version}")
        if exe is None:
            sys.exit(f"python{version} is not installed: the suite cannot be run under it")
        env = ROOT / f".venv-{version}"
        py = env / ("Scripts" if os.name == "nt" else "bin") / "python"
        if not py.exists():
            run(exe, "-m", "venv", env)
        run(py, "-m", "pip", "install", "--quiet", "-e", ".[dev]")
        run(py, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--hypothesis-profile=ci")


def train(*args: str) -> None:
    """Train the learned bot (docs/ai.md): torch 2.13.0 (CPU) joins .venv for it, then
    ``examples/train_learned_bot.py ARGS`` runs at low priority. Not part of ``test``."""
    setup("dev")
    probe = subprocess.run([str(PY), "-c", "import torch"], cwd=ROOT, capture_output=True)
    if probe.returncode != 0:
        run(PY, "-m", "pip", "install", "--quiet", "torch==2.13.0")
    run("nice", "-n", "10", PY, "examples/train_learned_bot.py", *args)


def main(argv: list[str]) -> None:
    if not argv or argv[0] in {"-h", "--help"}:
        print(__doc__)
        return
    task, rest = argv[0], argv[1:]
    if task == "demo":
        setup("")
        run(BIN / "high-society", "demo", *rest)
    elif task == "setup":
        setup("dev")
    elif task == "test":
        test()
    elif task in {"lint", "typecheck", "docs"}:
        setup("dev")
        {"lint": lint, "typecheck": typecheck, "docs": docs}[task]()
    elif task == "pytest":
        setup("dev")
        pytest(*rest)
    elif task == "bench":
        setup("dev")
        bench(*rest)
    elif task == "verify":
        setup("dev")
        verify()
    elif task == "verify-deep":
        setup("dev")
        verify_deep(*rest[:2])
    elif task == "fuzz":
        setup("dev")
        fuzz(*rest[:1])
    elif task == "mutate":
        mutate(*rest)
    elif task == "pythons":
        pythons(*rest)
    elif task == "bench-batch":
        # docs/batch.md: the batch engine beside the reducer, in one run (a few minutes).
        setup("dev")
        run(PY, "-m", "benchmarks.batch_report", *rest)
    elif task == "train":
        # docs/ai.md: train the learned bot (PPO in torch on the batch engine); not in CI.
        train(*rest)
    elif task == "batch-diff":
        # docs/batch.md: millions of steps through both engines, compared at every step.
        setup("dev")
        run(PY, "-m", "tests.batch_differential", *rest)
    else:
        sys.exit(f"unknown task {task!r}; see python3 tasks.py --help")


if __name__ == "__main__":
    main(sys.argv[1:])

#!/usr/bin/env python3
"""The project's two commands, for a fresh clone with only Python 3.11+:

    python3 tasks.py demo [ARGS...]   set up .venv and play a demo game (high-society demo ARGS)
    python3 tasks.py test             set up .venv with the dev tools and run every check

Other tasks: ``python3 tasks.py setup`` (only the environment), ``lint``, ``typecheck``,
``pytest [ARGS...]``, ``docs`` (the documentation site, into docs/_build/html), ``wheel``
(the release check, part of ``test``: build the sdist and wheel, ``twine check`` them, and
run the doctests and the demo against the wheel installed alone in a new environment), ``bench
[PYTEST-ARGS...]`` (the benchmark suite and throughput report of docs/performance.md; not
part of ``test``), ``mutate [MUTMUT-RUN-ARGS...]`` (mutation testing of the engine, not
part of ``test``; docs/verification.md), ``verify`` (the exhaustive explorer and the
CrossHair gate, as ``test`` runs them), ``verify-deep [SECONDS [JOBS]]`` (the CrossHair
contracts with SECONDS of CPU per condition, default 60, one CrossHair process per function,
JOBS at a time, default 1, and the boundary of ``state_problems`` around every explored
state; not part of ``test``, about an hour), ``batch-diff [--steps N]`` (the
long differential run of the batch engine against the reducer), ``bench-batch`` (its
throughput beside the reducer; both docs/batch.md), ``bench-server [--seconds S] [--rounds
R] [--baseline COMMIT]`` (what a move costs the table server beside a bare Starlette app
doing the same I/O, both loaded by wrk, which is installed when missing, on SQLite and a
throwaway PostgreSQL server; ``bench-server --streams [--tables N] ...``: the event-stream
load test with bot clients and two server processes; not part of ``test``;
docs/performance.md) and ``fuzz [EXAMPLES [FIGURES]]`` (the long fuzz
run of every entry point, EXAMPLES inputs each, default 2,000, its table also written to the
figure file FIGURES when given, and the peak memory of worst-case inputs; not part of
``test``, which runs a short derandomised pass;
docs/records.md), ``train [ARGS...]`` (trains the learned bots for 3, 4 and 5 players in
a league, PPO in numpy; docs/ai.md; not part of ``test``) and ``pythons [VERSION...]`` (the
test suite under the other Pythons the package's classifiers name, default 3.12 and 3.13,
each in its own ``.venv-VERSION``; CI runs 3.11). ``test`` and ``pytest`` start a
throwaway PostgreSQL server for the table server's tests (services/pg_cluster.py; Debian's
``postgresql`` is installed when missing) and remove it afterwards, and install the
tests' npm packages (tests/typescript, the TypeScript check's, and tests/browser,
axe-core for the browser test; Debian's ``nodejs`` and ``npm`` when missing). Only the standard
library is used here.
"""

import contextlib
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import venv
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


def browser() -> None:
    """Debian's chromium, for the browser test of the table server (tests/test_server_live.py):
    installed with apt-get when missing (CI runs as root)."""
    if Path("/usr/bin/chromium").exists():
        return
    if not _apt_install("chromium"):
        print("chromium is missing and cannot be installed here: the browser test is skipped")


def _apt_install(*packages: str) -> bool:
    """Install Debian packages with apt-get (CI runs as root); False where it cannot."""
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        return False
    env = {"DEBIAN_FRONTEND": "noninteractive"}
    run("apt-get", "update", "-qq", **env)
    run("apt-get", "install", "-y", "-qq", *packages, **env)
    return True


def node_packages() -> None:
    """Node.js and the tests' npm packages, each folder from its lock file: the TypeScript
    check's (tests/typescript) and axe-core, which the browser test runs in the page
    (tests/browser). Debian's nodejs and npm are installed when missing, and ``npm ci``
    runs in a folder whose lock file changed since its last install."""
    if shutil.which("npm") is None and not _apt_install("nodejs", "npm"):
        print("node and npm are missing and cannot be installed here: their checks are skipped")
        return
    for name in ("typescript", "browser"):
        folder = ROOT / "tests" / name
        lock = (folder / "package-lock.json").read_bytes()
        stamp = folder / "node_modules" / ".installed"
        wanted = hashlib.sha256(lock).hexdigest()
        if stamp.exists() and stamp.read_text() == wanted:
            continue
        run("npm", "ci", "--prefix", folder, "--no-audit", "--no-fund", "--loglevel=error")
        stamp.write_text(wanted)


def wrk() -> None:
    """wrk (Debian's), the load tool of the server benchmark."""
    if shutil.which("wrk") is None and not _apt_install("wrk"):
        sys.exit("wrk is missing and cannot be installed here")


def postgres() -> Path | None:
    """The folder of Debian's PostgreSQL binaries, for the throwaway server of the tests and
    the server benchmark (services/pg_cluster.py): the ``postgresql`` package is installed
    with apt-get when missing (CI runs as root). ``None`` where it cannot be had."""
    from services.pg_cluster import find_binaries

    found = find_binaries()
    if found is not None:
        return found
    if not _apt_install("postgresql"):
        print("PostgreSQL is missing and cannot be installed here")
        return None
    return find_binaries()


@contextlib.contextmanager
def postgres_server(*, durable: bool = False) -> Iterator[None]:
    """A throwaway PostgreSQL server for the block (initdb in a temporary directory, a Unix
    socket there and no TCP port, an unprivileged user), named to the tests in the
    environment; stopped and its directory removed afterwards, even on failure. Without
    PostgreSQL, its tests fail under CI (``CI`` set) and are skipped elsewhere."""
    from services.pg_cluster import ENVIRONMENT, Cluster

    binaries = postgres()
    if binaries is None:
        yield
        return
    print(f"$ (a throwaway PostgreSQL server from {binaries})", flush=True)
    with Cluster.started(binaries, durable=durable) as cluster:
        os.environ[ENVIRONMENT] = cluster.to_json()
        try:
            yield
        finally:
            del os.environ[ENVIRONMENT]


def lint() -> None:
    run(BIN / "ruff", "check", ".")
    run(BIN / "ruff", "format", "--check", ".")


def typecheck() -> None:
    run(
        BIN / "mypy",
        "--strict",
        "src",
        "tests",
        "property_tests",
        "verification",
        "benchmarks",
        "services",
        "docs",
    )


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
    """docs/verification.md: every reachable state of three small games (with the boundary of
    ``state_problems``), then every contract confirmed over its whole domain (CrossHair
    bounded by paths, not seconds, and enumerations): the verdict does not depend on the
    machine's load."""
    run(PY, "-m", "verification.explore")
    run(PY, "-m", "verification.crosshair_check")


def test() -> None:
    """Every check CI runs.

    The verification (about 2.5 CPU minutes, mostly the explorer) needs nothing the other checks
    make, so it runs beside them in a second process, its output held back and printed
    whole when it ends. On an idle machine that uses both cores; on a loaded one it gives
    the checks two shares of the CPU instead of one. The verdict is the same either way.
    """
    setup("dev")
    browser()
    node_packages()
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
            # The server's tests run on SQLite and on this PostgreSQL server.
            with postgres_server():
                pytest("--hypothesis-profile=ci")
            docs()
            # The release: the built wheel, installed alone, passes its doctests and demo.
            wheel()
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


#: Extras that are tools for working on the project, not parts of the package: the wheel's
#: check installs every other extra, since the modules' doctests import them.
TOOL_EXTRAS = {"dev", "mutation"}
#: What the doctests themselves run with (the server's example calls it through
#: Starlette's test client, which needs httpx2), pinned as in the ``dev`` extra.
WHEEL_TOOLS = {"pytest", "hypothesis", "httpx2"}


def wheel() -> None:
    """The release check: build the sdist and the wheel (``python -m build``, isolated),
    check them with ``twine check --strict``, install the wheel into a new virtual
    environment outside the source tree, and run there what a user runs: the README's
    examples, every module's doctests, every page's examples, the demo, and a check that
    the wheel holds every file of the source package (a file left out of the package data
    fails here)."""
    work = Path(tempfile.mkdtemp(prefix="high-society-wheel-"))
    try:
        # Built from the project's files alone, as in a fresh clone: nothing a local build
        # left behind (an egg-info's file list) can put a file into the wheel.
        tree = work / "tree"
        _export(tree)
        dist = work / "dist"
        run(PY, "-m", "build", "--quiet", "--outdir", dist, tree)
        built = sorted(dist.iterdir())
        run(BIN / "twine", "check", "--strict", *built)
        wheels = [p for p in built if p.suffix == ".whl"]
        if len(wheels) != 1:
            sys.exit(f"expected one wheel in {dist}, found {[p.name for p in built]}")
        env = work / "venv"
        venv.EnvBuilder(with_pip=True).create(env)
        py = env / ("Scripts" if os.name == "nt" else "bin") / "python"
        extras = ",".join(sorted(set(_project()["optional-dependencies"]) - TOOL_EXTRAS))
        tools = [line for line in _dev_pins() if line.split("==")[0] in WHEEL_TOOLS]
        run(py, "-m", "pip", "install", "--quiet", f"{wheels[0]}[{extras}]", *tools)
        # Run from inside the new environment, so that the source tree is not on the path.
        pages = work / "docs"
        shutil.copytree(ROOT / "docs", pages, ignore=shutil.ignore_patterns("_build", "*.py"))
        shutil.copy(ROOT / "docs" / "conftest.py", pages / "conftest.py")
        script = work / "holds_every_file.py"
        script.write_text(_HOLDS_EVERY_FILE, encoding="utf-8")
        _run_in(work, py, script, tree / "src" / "high_society")
        readme = work / "readme_examples.py"
        readme.write_text(_README_EXAMPLES, encoding="utf-8")
        _run_in(work, py, readme, tree / "README.md")
        pytest_args = ("-p", "no:cacheprovider", "-q", "-W", "error", "--rootdir", str(work))
        _run_in(
            work, py, "-m", "pytest", *pytest_args, "--doctest-modules", "--pyargs", "high_society"
        )
        _run_in(work, py, "-m", "pytest", *pytest_args, str(pages))
        _run_in(
            work,
            env / ("Scripts" if os.name == "nt" else "bin") / "high-society",
            "demo",
            "--seed",
            "1",
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


#: Run by the wheel's interpreter: the installed package holds every file of the source one.
_HOLDS_EVERY_FILE = """\
import pathlib, sys, high_society

installed = pathlib.Path(high_society.__file__).parent
assert "site-packages" in installed.parts, f"high_society imported from {installed}"
source = pathlib.Path(sys.argv[1])


def files(root):
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


missing = sorted(files(source) - files(installed))
assert not missing, f"the wheel lacks {missing}"
print(f"the wheel holds all {len(files(source))} files of the package, from {installed}")
"""


#: Run by the wheel's interpreter: the README's Python examples, as a newcomer runs them.
_README_EXAMPLES = """\
import pathlib, re, sys

text = pathlib.Path(sys.argv[1]).read_text(encoding="utf-8")
blocks = re.findall(r"^```python\\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
assert blocks, "the README has no Python example"
for block in blocks:
    exec(compile(block, "README.md", "exec"), {"__name__": "__readme__"})
print(f"the README's {len(blocks)} Python example(s) ran against the wheel")
"""


def _project() -> dict[str, Any]:
    """The ``[project]`` table of pyproject.toml."""
    import tomllib

    table: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    return table


def _dev_pins() -> list[str]:
    """The ``dev`` extra's pinned requirements, as pyproject.toml lists them."""
    return [r for r in _project()["optional-dependencies"]["dev"] if "==" in r]


def _export(into: Path) -> None:
    """The project's files (tracked, or new and not ignored), as they are in the work tree."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():  # a tracked file deleted in the work tree is left out
            target = into / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def _run_in(folder: Path, *cmd: str | Path) -> None:
    """Run a command in ``folder``; stop with its exit code if it fails."""
    printable = " ".join(str(c) for c in cmd)
    print(f"$ (in {folder}) {printable}", flush=True)
    code = subprocess.call([str(c) for c in cmd], cwd=folder)
    if code != 0:
        print(f"FAILED ({code}): {printable}", file=sys.stderr)
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


def fuzz(examples: str = "2000", figures: str = "") -> None:
    """The long, randomised fuzz run (docs/records.md, "Fuzzing"): ``examples`` inputs per
    entry point, then the figures table (also written to the figure file ``figures``, when
    given), then peak memory of the worst-case inputs."""
    report = ROOT / ".fuzz-report.md"
    run(
        BIN / "pytest",
        "property_tests/test_fuzz.py",
        "-p",
        "no:cacheprovider",
        "-q",
        HIGH_SOCIETY_FUZZ_EXAMPLES=str(int(examples)),
        HIGH_SOCIETY_FUZZ_REPORT=str(report),
        HIGH_SOCIETY_FUZZ_FIGURES=figures,
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
    """Train the learned bots (docs/ai.md): ``examples/train_league.py ARGS``, PPO in numpy
    on the batch engine, at low priority and on one thread. Not part of ``test``."""
    setup("dev")
    threads = dict.fromkeys(("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"), "1")
    run("nice", "-n", "10", PY, "examples/train_league.py", *args, **threads)


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
    elif task == "wheel":
        setup("dev")
        wheel()
    elif task == "test":
        test()
    elif task in {"lint", "typecheck", "docs"}:
        setup("dev")
        {"lint": lint, "typecheck": typecheck, "docs": docs}[task]()
    elif task == "pytest":
        setup("dev")
        node_packages()
        with postgres_server():
            pytest(*rest)
    elif task == "bench-server":
        # docs/performance.md: what a move costs the server beside a bare app (wrk), on
        # SQLite and PostgreSQL; --streams: the event-stream load test instead.
        setup("dev")
        binaries = postgres()
        found = {} if binaries is None else {"HIGH_SOCIETY_PG_BINARIES": str(binaries)}
        if rest[:1] == ["--streams"]:
            run(PY, "-m", "benchmarks.server_load", *rest[1:], **found)
        else:
            wrk()
            run(PY, "-m", "benchmarks.server_cost", *rest, **found)
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
        fuzz(*rest[:2])
    elif task == "mutate":
        mutate(*rest)
    elif task == "pythons":
        pythons(*rest)
    elif task == "bench-batch":
        # docs/batch.md: the batch engine beside the reducer, in one run (a few minutes).
        setup("dev")
        run(PY, "-m", "benchmarks.batch_report", *rest)
    elif task == "train":
        # docs/ai.md: train the learned bots (PPO in numpy on the batch engine); not in CI.
        train(*rest)
    elif task == "batch-diff":
        # docs/batch.md: millions of steps through both engines, compared at every step.
        setup("dev")
        run(PY, "-m", "tests.batch_differential", *rest)
    else:
        sys.exit(f"unknown task {task!r}; see python3 tasks.py --help")


if __name__ == "__main__":
    main(sys.argv[1:])

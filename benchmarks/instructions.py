"""Instruction counts of the engine's hot paths, with valgrind's callgrind (docs/performance.md).

    PYTHONPATH=src:. .venv/bin/python -m benchmarks.instructions

Instruction counts do not depend on how loaded the machine is, so two trees compare well
one after the other: run this in each (``git archive`` of the other commit into a folder,
then the same command there). Each workload runs twice under callgrind, ``few`` and
``many`` times after the same warm-up, and the difference is divided by ``many - few``:
start-up, imports and warm-up cancel out. Hashing is seeded (``PYTHONHASHSEED=0``), since
set and dict layouts change the counts a little, and the garbage collector is off while
counting (see :data:`QUIET_GC`). Needs ``valgrind`` (Debian: ``apt-get
install valgrind``); about 200 times slower than a plain run, two to three minutes in all.
"""

import os
import re
import shutil
import subprocess
import sys

#: The states and actions the workloads use, built before the counting starts.
SETUP = """
from benchmarks.report import play_only, replay_rate
from benchmarks.scenarios import random_game
from high_society import Bid, Pass, Reveal, StatusCard, apply, legal_actions, new_game
from high_society.bots import RandomBot
from high_society.simulate import simulate
start = new_game(4)
auction = apply(start, Reveal(StatusCard.LUXURY_5))
bid = Bid(0, frozenset({3}))
after_bid = apply(auction, bid)
last_pass = apply(apply(after_bid, Pass(1)), Pass(2))
disgrace = apply(start, Reveal(StatusCard.PASSE))
reveal = Reveal(StatusCard.LUXURY_5)
bot = RandomBot(1)
recorded = [random_game(4, seed) for seed in range(50)]
"""

#: The garbage collector off while counting: when a full collection falls inside the
#: counted work depends on everything else the process allocated, and moved the counts by
#: up to 2% between two trees, or between two runs of this script on the same tree.
QUIET_GC = "import gc; gc.collect(); gc.disable()"

#: (what is counted, per what, the code run ``n`` times, warm-up, few, many).
WORKLOADS = (
    (
        "4-player uniform game, played (bots and `apply`)",
        "game",
        "play_only(4, n, 8)",
        "play_only(4, 200, 7)",
        0,
        200,
    ),
    (
        "4-player uniform game, `simulate` (played and scored)",
        "game",
        "simulate(4, n, seed=8)",
        "simulate(4, 200, seed=7)",
        0,
        200,
    ),
    (
        "replay, `apply` over 50 recorded 4-player games",
        "action",
        "for _ in range(n): replay_rate(recorded, 4)",
        "replay_rate(recorded, 4)",
        0,
        2,
    ),
    ("`apply` a reveal", "call", "for _ in range(n): apply(start, reveal)", "", 1000, 3000),
    ("`apply` a bid", "call", "for _ in range(n): apply(auction, bid)", "", 1000, 3000),
    (
        "`apply` a pass, the auction goes on",
        "call",
        "for _ in range(n): apply(after_bid, Pass(1))",
        "",
        1000,
        3000,
    ),
    (
        "`apply` the pass that ends a normal auction",
        "call",
        "for _ in range(n): apply(last_pass, Pass(3))",
        "",
        1000,
        3000,
    ),
    (
        "`apply` the pass that ends a disgrace auction",
        "call",
        "for _ in range(n): apply(disgrace, Pass(0))",
        "",
        1000,
        3000,
    ),
    (
        "`legal_actions` in an auction",
        "call",
        "for _ in range(n): legal_actions(after_bid)",
        "",
        1000,
        3000,
    ),
    (
        "`RandomBot.choose` in an auction",
        "call",
        "for _ in range(n): bot.choose(after_bid)",
        "",
        1000,
        3000,
    ),
)


def instructions(code: str) -> int:
    """The instructions callgrind counts for ``python -c code`` (the whole process)."""
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            "-c",
            code,
        ],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in callgrind's output:\n{done.stderr}")
    return int(found.group(1))


def main() -> int:
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt-get install valgrind)")
    from benchmarks.scenarios import random_game

    actions = sum(len(random_game(4, seed)) for seed in range(50))
    print("| workload | instructions | per |")
    print("| --- | ---: | --- |")
    for name, per, step, warm, few, many in WORKLOADS:
        counts = [
            instructions(f"{SETUP}\n{warm}\n{QUIET_GC}\nn = {n}\n{step}") for n in (few, many)
        ]
        units = (many - few) * (actions if per == "action" else 1)
        print(f"| {name} | {(counts[1] - counts[0]) / units:,.0f} | {per} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

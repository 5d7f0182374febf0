"""Play High Society in a terminal against the built-in bots.

    python examples/play_terminal.py [--players K] [--seed S] [--seat N]

The program itself is ``high_society.cli.play``, shipped in the package so that the
installed ``high-society play`` command runs it too; this file only launches it. Read it
in ``src/high_society/cli/play.py``, or in the client guide (``docs/client-guide.md``),
which walks through it. It uses only the public API: copy it as the start of your own client.
"""

import sys

from high_society.cli import main

if __name__ == "__main__":
    sys.exit(main(["play", *sys.argv[1:]]))

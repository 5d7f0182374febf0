"""``python -m high_society``: the same as the ``high-society`` command."""

import sys

from high_society.cli import main

if __name__ == "__main__":
    sys.exit(main())

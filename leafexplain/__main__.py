"""`python -m leafexplain`: the command line, as the console script runs it."""

import sys

from leafexplain.cli import main

if __name__ == "__main__":
    sys.exit(main())

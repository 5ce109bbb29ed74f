"""`python -m leafexplain`: the command line, as the console script runs it."""

from leafexplain.cli import console

if __name__ == "__main__":
    console()

"""Entry point for `python -m leafexplain`."""

from leafexplain.cli import main

if __name__ == "__main__":
    main()

"""Entry point for `python -m leafexplain`."""

from leafexplain.entry import main

if __name__ == "__main__":
    main()

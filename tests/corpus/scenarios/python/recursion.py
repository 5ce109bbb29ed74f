"""Unbounded recursion: RecursionError with `[Previous line repeated N more times]`."""


def depth(node: dict) -> int:
    return 1 + depth(node)


depth({})

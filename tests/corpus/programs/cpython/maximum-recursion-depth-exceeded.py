# record: 212a77bdefabe41c
def count_down(n):
    # base case is missing, so this never stops
    return count_down(n - 1)


count_down(10)

# record: 0e5ea550fdd1767f
def load_record(key, table):
    if key in table:
        return table[key]
    # falls through and returns None


table = {"a": [1, 2, 3]}
record = load_record("b", table)
print(record[0])

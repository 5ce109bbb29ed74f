schema = {"age": "int"}
record = {"age": 31}
for field, kind in schema.items():
    print(isinstance(record[field], kind))

import pprint

pprint({"a": 1})

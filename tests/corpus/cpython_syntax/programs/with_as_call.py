with open(__file__) as handle():
    pass

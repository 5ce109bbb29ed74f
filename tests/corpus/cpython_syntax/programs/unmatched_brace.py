def main():
    cfg = {'a': 1}
    }

def main:
    pass

class Repo:
    def __init__(self, path='.', name):
        self.path = path
        self.name = name

class Logger:
    def __init__(self, path):
        super().__init__(path)
        self.path = path


log = Logger("/tmp/x.log")

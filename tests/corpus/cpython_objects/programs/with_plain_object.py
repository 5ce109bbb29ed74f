class Timer:
    def start(self):
        self.running = True


with Timer() as t:
    pass

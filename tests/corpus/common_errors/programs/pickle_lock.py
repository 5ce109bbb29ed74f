import threading
from multiprocessing import Pool


class Resizer:
    def __init__(self, size):
        self.size = size
        self.done = 0
        self.lock = threading.Lock()

    def resize(self, name):
        with self.lock:
            self.done += 1
        return f"{name} -> {self.size}x{self.size}"


if __name__ == "__main__":
    resizer = Resizer(128)
    files = [f"img_{i:03d}.png" for i in range(6)]
    with Pool(2) as pool:
        for line in pool.map(resizer.resize, files):
            print(line)

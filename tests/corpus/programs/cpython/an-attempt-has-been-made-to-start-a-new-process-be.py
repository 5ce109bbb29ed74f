# record: f8c230a4c01f2676
import multiprocessing as mp


def square(n):
    return n * n


# no `if __name__ == "__main__":` guard around the process start
ctx = mp.get_context("spawn")
p = ctx.Process(target=square, args=(3,))
p.start()
p.join()
raise SystemExit(p.exitcode)

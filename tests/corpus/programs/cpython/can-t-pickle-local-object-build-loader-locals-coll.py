# record: 0c7c57592fd46351
import multiprocessing as mp


def main():
    def work(n):
        print(n * 2)

    ctx = mp.get_context("spawn")
    p = ctx.Process(target=work, args=(21,))
    p.start()
    p.join()


if __name__ == "__main__":
    main()

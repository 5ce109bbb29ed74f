from inventory import Warehouse

if __name__ == "__main__":
    w = Warehouse("north")
    w.add("bolts", 40)
    print(w.report())

class Cfg:
    lr = 0.1

cfg = Cfg()
print(dict(cfg.lr=0.2))

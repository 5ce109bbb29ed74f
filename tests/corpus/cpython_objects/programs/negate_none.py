def offset(cfg):
    return -cfg.get("shift")


print(offset({}))

class Options:
    pass


opts = Options()
for key in ["verbose", "dry_run"]:
    setattr(opts, key)

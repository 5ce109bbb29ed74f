def log_event(name, **fields, level='info'):
    print(level, name, fields)

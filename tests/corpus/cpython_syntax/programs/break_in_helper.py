def should_stop(loss):
    if loss < 0.01:
        break

# record: 517de2c63d919f2d
def select_checkpoint(val_losses, threshold):
    for epoch, loss in enumerate(val_losses):
        if loss < threshold:
            best_epoch = epoch
    return best_epoch


print(select_checkpoint([0.9, 0.8, 0.85], threshold=0.5))

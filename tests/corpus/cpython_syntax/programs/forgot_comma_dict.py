hparams = {
    'lr': 3e-4,
    'dropout': 0.1
    'layers': 4,
}
print(hparams)

import argparse
parser = argparse.ArgumentParser()
parser.add_argument('--epochs', type=int default=10)

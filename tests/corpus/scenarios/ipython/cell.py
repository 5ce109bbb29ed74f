from helpers import load_config

config = load_config("")

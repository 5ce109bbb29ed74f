verbose = False

def configure(verbose):
    global verbose

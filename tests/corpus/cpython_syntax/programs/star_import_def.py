def setup():
    from os.path import *
    return join('a', 'b')

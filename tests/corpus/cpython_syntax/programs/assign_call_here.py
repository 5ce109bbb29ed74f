import os
os.getenv('HOME') = '/tmp'

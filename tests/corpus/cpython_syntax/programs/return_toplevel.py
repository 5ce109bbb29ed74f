import os
if not os.path.exists('config.yaml'):
    print('no config')
    return

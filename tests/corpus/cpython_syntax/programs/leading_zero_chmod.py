import os
os.chmod('run.sh', 0755)

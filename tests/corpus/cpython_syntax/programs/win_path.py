import os
print(os.path.exists(C:\Users\me\data.csv))

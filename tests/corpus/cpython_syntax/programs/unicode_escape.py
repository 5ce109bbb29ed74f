path = 'C:\Users\me\notes.txt'

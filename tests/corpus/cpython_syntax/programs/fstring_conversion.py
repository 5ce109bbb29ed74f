size = 1024
print(f'{size!x} bytes')

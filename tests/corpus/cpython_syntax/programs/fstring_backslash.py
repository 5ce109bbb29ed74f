cols = ['id', 'name']
print(f"header: {'\t'.join(cols)}")

def label(score):
    return 'pass' if score >= 50

print(label(70))

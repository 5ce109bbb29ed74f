best = None

def update(score):
    best = score
    global best

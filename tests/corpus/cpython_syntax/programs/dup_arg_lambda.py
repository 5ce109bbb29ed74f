area = lambda w, w: w * w

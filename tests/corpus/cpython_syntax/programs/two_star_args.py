def concat(*parts, *more, sep=''):
    return sep.join(parts)

async def stream(items):
    for it in items:
        yield it
    return len(items)

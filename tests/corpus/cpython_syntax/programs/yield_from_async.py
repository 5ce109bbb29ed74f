async def relay(source):
    yield from source

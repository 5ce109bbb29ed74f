import asyncio

async def gen():
    yield 1

def collect():
    return [x async for x in gen()]

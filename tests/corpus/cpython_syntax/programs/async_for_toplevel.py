import asyncio

async def gen():
    yield 1

async for x in gen():
    print(x)

import asyncio

def run():
    async with asyncio.Semaphore(2):
        print('in')

import asyncio

def handler(event):
    await asyncio.sleep(0)
    return event

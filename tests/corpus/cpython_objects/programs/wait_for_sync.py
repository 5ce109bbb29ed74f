import asyncio


def ping():
    return "pong"


async def main():
    print(await asyncio.wait_for(ping(), 2))


asyncio.run(main())

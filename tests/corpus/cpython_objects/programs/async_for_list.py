import asyncio


async def main():
    async for n in range(3):
        print(n)


asyncio.run(main())

import asyncio


async def serve():
    await asyncio.sleep(0)


if __name__ == "__main__":
    asyncio.run(serve)

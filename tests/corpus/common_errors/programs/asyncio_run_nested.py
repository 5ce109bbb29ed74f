import asyncio


async def fetch_price(symbol):
    await asyncio.sleep(0.01)
    return {"AAPL": 189.5, "MSFT": 411.2}.get(symbol, 0.0)


def get_prices(symbols):
    # helper meant to be callable from plain code
    async def gather_all():
        return await asyncio.gather(*(fetch_price(s) for s in symbols))

    return asyncio.run(gather_all())


async def main():
    prices = get_prices(["AAPL", "MSFT"])
    print(prices)


asyncio.run(main())

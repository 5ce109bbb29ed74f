import asyncio
result = await asyncio.sleep(0, 'ok')
print(result)

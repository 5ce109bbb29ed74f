import asyncio

class Bot:
    def on_message(self, msg):
        reply = await self.send(msg)
        return reply

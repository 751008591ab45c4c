"""A browser tab's websocket as the bench scripts speak it: wsproto over an asyncio stream."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import wsproto
from wsproto.events import CloseConnection, Ping, TextMessage


async def read_messages(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, ws: wsproto.WSConnection,
                        on_message: Callable[[str], None]) -> None:  # fmt: skip
    """Hands each whole text message that arrives to ``on_message`` and answers the server's websocket pings;
    returns when the server closes the socket or the stream ends."""
    partial = ""
    while data := await reader.read(65536):
        ws.receive_data(data)
        for event in ws.events():
            if isinstance(event, Ping):
                writer.write(ws.send(event.response()))
            elif isinstance(event, CloseConnection):
                return
            elif isinstance(event, TextMessage):
                partial += event.data
                if event.message_finished:
                    on_message(partial)
                    partial = ""

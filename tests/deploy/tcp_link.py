"""A TCP relay from a local port to a server, which a test can cut (as an outage does) and restore.

The instances reach Redis through it; cutting it is a Redis outage for them alone
(the Redis server itself, shared with others, is never touched): every open
connection is reset and new ones are refused until ``restore``.
"""

from __future__ import annotations

import contextlib
import select
import socket
import threading


class TcpLink:
    def __init__(self, host: str, port: int):
        self.target = (host, port)
        self.port = 0
        self._listener: socket.socket | None = None
        self._pairs: set[tuple[socket.socket, socket.socket]] = set()
        self._lock = threading.Lock()
        self._stopped = False

    @property
    def up(self) -> bool:
        return self._listener is not None

    def start(self) -> int:
        """Listen on a free local port (the same port again after a ``cut``); returns it."""
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(128)
        self.port = listener.getsockname()[1]
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True, name="tcp-link-accept").start()
        return self.port

    def cut(self) -> None:
        """The outage: refuse new connections and reset every open one."""
        listener, self._listener = self._listener, None
        if listener is not None:
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)
            listener.close()
        with self._lock:
            pairs, self._pairs = self._pairs, set()
        for pair in pairs:
            for sock in pair:
                with contextlib.suppress(OSError):
                    # A reset, as a restarted server's peer sees it, rather than a polite close.
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                    sock.close()

    def restore(self) -> None:
        """The service is back, on the same address."""
        if self._listener is None:
            self.start()

    def close(self) -> None:
        self._stopped = True
        self.cut()

    def _accept(self, listener: socket.socket) -> None:
        while not self._stopped:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                server = socket.create_connection(self.target, timeout=5)
                server.settimeout(None)
            except OSError:
                client.close()
                continue
            with self._lock:
                if self._listener is not listener:  # cut meanwhile
                    client.close()
                    server.close()
                    return
                self._pairs.add((client, server))
            threading.Thread(target=self._pump, args=(client, server), daemon=True, name="tcp-link-pump").start()

    def _pump(self, client: socket.socket, server: socket.socket) -> None:
        peers = {client: server, server: client}
        try:
            while True:
                readable, _, _ = select.select(list(peers), [], [], 1.0)
                with self._lock:
                    if (client, server) not in self._pairs:
                        return
                for sock in readable:
                    data = sock.recv(65536)
                    if not data:
                        return
                    peers[sock].sendall(data)
        except (OSError, ValueError):
            return
        finally:
            with self._lock:
                self._pairs.discard((client, server))
            for sock in (client, server):
                with contextlib.suppress(OSError):
                    sock.close()

"""A real SMTP server on loopback for tests: it keeps what it receives and can be told to refuse.

Usage::

    with SmtpSink() as sink:
        monkeypatch.setenv("SMTP_HOST", sink.host)
        monkeypatch.setenv("SMTP_PORT", str(sink.port))   # or os.environ.update(sink.env)
        ...
        sink.fail = True                  # every message now gets "451 4.3.0 Try again later"
        sink.fail_reply = "550 5.1.1 No such user"   # or a permanent refusal
        [msg] = sink.wait_for(1)          # email.message.EmailMessage objects
        assert msg["To"] == "ann@example.com"

The server runs in a thread of its own (aiosmtpd's ``Controller``), bound to a
port the OS picks, so parallel test runs never collide.
"""

from __future__ import annotations

import contextlib
import dataclasses
import socket
import threading
import time
from collections.abc import Iterator
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser

from aiosmtpd.controller import Controller

TEMPORARY_FAILURE = "451 4.3.0 Try again later"


@dataclasses.dataclass(frozen=True)
class Envelope:
    """The SMTP envelope of one received message."""

    mail_from: str
    rcpt_tos: tuple[str, ...]


class _Controller(Controller):
    """A ``Controller`` that binds port 0 and learns the port the OS gave it."""

    async def _bind(self):
        server = await self.loop.create_server(self._factory_invoker, host=self.hostname, port=0)
        self.port = server.sockets[0].getsockname()[1]
        return server

    def _create_server(self):
        return self._bind()


class _Handler:
    """The aiosmtpd handler (aiosmtpd inspects its members, so it is kept apart from the sink's properties)."""

    def __init__(self, sink: SmtpSink):
        self._sink = sink

    async def handle_DATA(self, server, session, envelope) -> str:  # noqa: N802 - aiosmtpd's hook name
        return self._sink._receive(envelope)


class SmtpSink:
    """An SMTP server on ``host``:``port`` that collects messages.

    Attributes:
        host: the loopback address it listens on.
        messages: every accepted message, oldest first, as ``EmailMessage``.
        envelopes: the SMTP envelope of each accepted message, in the same order.
        fail: while True, every message is answered with ``fail_reply`` and not kept.
        fail_reply: the refusal sent while ``fail`` is set (a 4xx is temporary, a 5xx permanent).
        refused: how many messages were refused because ``fail`` was set.
    """

    def __init__(self, host: str = "127.0.0.1"):
        self.host = host
        self.messages: list[EmailMessage] = []
        self.envelopes: list[Envelope] = []
        self.fail = False
        self.fail_reply = TEMPORARY_FAILURE
        self.refused = 0
        self._lock = threading.Condition()
        self._controller: _Controller | None = None

    # -- lifecycle

    def start(self) -> SmtpSink:
        if self._controller is None:
            controller = _Controller(_Handler(self), hostname=self.host, port=0, server_hostname="sink.localhost")
            controller.start()
            self._controller = controller
        return self

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    def __enter__(self) -> SmtpSink:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._controller is None:
            raise RuntimeError("the SMTP sink is not running")
        return self._controller.port

    @property
    def env(self) -> dict[str, str]:
        """Environment settings that point the app at this server."""
        return {"SMTP_HOST": self.host, "SMTP_PORT": str(self.port)}

    # -- reading what arrived

    def wait_for(self, count: int = 1, timeout: float = 10.0) -> list[EmailMessage]:
        """Wait until at least ``count`` messages arrived; return all of them.

        Raises:
            TimeoutError: fewer than ``count`` arrived within ``timeout`` seconds.
        """
        deadline = time.monotonic() + timeout
        with self._lock:
            while len(self.messages) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"expected {count} message(s) at the SMTP sink, got {len(self.messages)}")
                self._lock.wait(left)
            return list(self.messages)

    def to(self, address: str) -> list[EmailMessage]:
        """The messages whose envelope recipients include ``address`` (case-insensitive)."""
        wanted = address.lower()
        with self._lock:
            return [
                msg
                for msg, env in zip(self.messages, self.envelopes, strict=True)
                if wanted in (r.lower() for r in env.rcpt_tos)
            ]

    def clear(self) -> None:
        with self._lock:
            self.messages.clear()
            self.envelopes.clear()
            self.refused = 0

    def _receive(self, envelope) -> str:
        with self._lock:
            if self.fail:
                self.refused += 1
                return self.fail_reply
            # Line ends are CRLF on the wire; tests compare with "\n".
            message = BytesParser(policy=policy.default).parsebytes(envelope.content.replace(b"\r\n", b"\n"))
            self.messages.append(message)
            self.envelopes.append(Envelope(envelope.mail_from, tuple(envelope.rcpt_tos)))
            self._lock.notify_all()
        return "250 2.0.0 OK"


@contextlib.contextmanager
def refusing_port(host: str = "127.0.0.1") -> Iterator[int]:
    """A port where nothing listens (connections are refused) for as long as the block runs.

    The port is held by a bound socket that never listens, so no other
    process can take it meanwhile.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        yield sock.getsockname()[1]

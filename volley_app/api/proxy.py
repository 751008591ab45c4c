"""Who the client of a request is, decided once for the whole backend (pages, websocket, API, uploads).

A request's client is the address that connected, unless that address is a trusted proxy
(``FORWARDED_ALLOW_IPS``): then it is the address the proxy forwards in ``X-Forwarded-For``, read from
the right, skipping the trusted proxies of the chain. Anyone else's ``X-Forwarded-For`` is ignored.

``ForwardedClient`` writes that address into the ASGI scope's ``client`` before anything else reads it,
so ``request.client.host`` (the API), ``router.session.client_ip`` (the state's events: Reflex reads the
scope when the websocket connects), and from them the login throttle, every rate limit and the record of
failed logins all see the same client.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from starlette.types import ASGIApp, Receive, Scope, Send

from volley_app.settings import get_settings

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class TrustedProxies:
    """The addresses and networks of ``FORWARDED_ALLOW_IPS`` ("*": every peer)."""

    def __init__(self, entries: Iterable[str]):
        entries = [e.strip() for e in entries if e.strip()]
        self.everyone = "*" in entries
        self.networks: list[Network] = [ipaddress.ip_network(e, strict=False) for e in entries if e != "*"]

    def __contains__(self, address: str) -> bool:
        if self.everyone:
            return True
        try:
            ip = ipaddress.ip_address(address.strip().strip("[]"))
        except ValueError:
            return False  # not an address (a unix socket, a test client): never a proxy
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
            ip = ip.ipv4_mapped
        return any(ip in net for net in self.networks)


def client_address(peer: str, forwarded_for: str, trusted: TrustedProxies) -> str:
    """The client behind ``peer`` (the connected address) given its ``X-Forwarded-For`` header."""
    if peer not in trusted or not forwarded_for:
        return peer
    chain = [a.strip() for a in forwarded_for.split(",") if a.strip()]
    for address in reversed(chain):
        if address not in trusted:
            return address[:64]
    return chain[0][:64] if chain else peer  # every hop trusted: the first one named


class ForwardedClient:
    """Sets the scope's ``client`` to :func:`client_address` of every HTTP and websocket request."""

    def __init__(self, app: ASGIApp, trusted: Iterable[str] | None = None):
        self.app = app
        self.trusted = TrustedProxies(get_settings().forwarded_allow_ips if trusted is None else trusted)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            peer, port = scope.get("client") or ("", 0)
            forwarded = b",".join(v for k, v in scope.get("headers", ()) if k == b"x-forwarded-for")
            client = client_address(peer or "", forwarded.decode("latin-1"), self.trusted)
            if client != peer:
                scope = {**scope, "client": (client, port)}
        await self.app(scope, receive, send)

"""The client of a request: the connected address, or what a trusted proxy forwards (FORWARDED_ALLOW_IPS)."""

from __future__ import annotations

import asyncio

import pytest

from volley_app.api.proxy import ForwardedClient, TrustedProxies, client_address
from volley_app.settings import Settings

LOCAL = TrustedProxies(["127.0.0.1", "::1"])


@pytest.mark.parametrize(
    ("peer", "header", "trusted", "client"),
    [
        ("127.0.0.1", "203.0.113.7", LOCAL, "203.0.113.7"),  # the proxy names the visitor
        ("::1", "203.0.113.7", LOCAL, "203.0.113.7"),
        ("127.0.0.1", "", LOCAL, "127.0.0.1"),  # no header: the proxy's own request
        ("198.51.100.4", "203.0.113.7", LOCAL, "198.51.100.4"),  # not a proxy: its header means nothing
        ("198.51.100.4", "127.0.0.1", LOCAL, "198.51.100.4"),
        ("testclient", "203.0.113.7", LOCAL, "testclient"),
        # a chain: read from the right, past the trusted proxies; what the visitor wrote on the left is not believed
        ("10.0.0.2", "1.2.3.4, 203.0.113.7, 10.0.0.1", TrustedProxies(["10.0.0.0/8"]), "203.0.113.7"),
        ("10.0.0.2", "10.0.0.9, 10.0.0.1", TrustedProxies(["10.0.0.0/8"]), "10.0.0.9"),
        ("192.0.2.1", "203.0.113.7", TrustedProxies(["*"]), "203.0.113.7"),
        ("::ffff:127.0.0.1", "203.0.113.7", LOCAL, "203.0.113.7"),
        ("2001:db8::5", "203.0.113.7", TrustedProxies(["2001:db8::/32"]), "203.0.113.7"),
    ],
)
def test_the_client_is_forwarded_only_by_a_trusted_proxy(peer, header, trusted, client):
    assert client_address(peer, header, trusted) == client


def _seen(peer: str, headers: list[tuple[bytes, bytes]], kind: str = "http", trusted=None) -> str:
    seen = {}

    async def app(scope, receive, send):
        seen["client"] = scope["client"][0]

    asyncio.run(ForwardedClient(app, trusted)({"type": kind, "client": (peer, 5000), "headers": headers}, None, None))
    return seen["client"]


def test_the_middleware_sets_the_scope_client_of_requests_and_websockets():
    forwarded = [(b"x-forwarded-for", b"203.0.113.7")]
    assert _seen("127.0.0.1", forwarded) == "203.0.113.7"
    assert _seen("127.0.0.1", forwarded, "websocket") == "203.0.113.7"
    assert _seen("198.51.100.4", forwarded, "websocket") == "198.51.100.4"
    assert _seen("127.0.0.1", forwarded, trusted=["192.0.2.0/24"]) == "127.0.0.1"


def test_the_default_trusts_this_machine_only(monkeypatch):
    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)
    assert Settings(_env_file=None).forwarded_allow_ips == ["127.0.0.1", "::1"]
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", " 10.1.0.0/16 , 192.0.2.4")
    assert Settings(_env_file=None).forwarded_allow_ips == ["10.1.0.0/16", "192.0.2.4"]
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "proxy.example")
    with pytest.raises(ValueError, match="proxy.example"):
        Settings(_env_file=None)

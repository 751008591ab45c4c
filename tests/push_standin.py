"""A local stand-in for a browser's push service (RFC 8030), holding the device's keys as a browser does.

:meth:`PushStandIn.device` makes a subscription as a browser would hand it to the page: an endpoint here, the
device's P-256 public key and its auth secret. A message posted to the endpoint is checked as a push service
checks it (a VAPID signature, RFC 8292, for the endpoint's origin) and decrypted as the browser would (RFC 8291,
aes128gcm) with the device's private key: ``received`` holds what each device got, as JSON. ``gone`` makes an
endpoint answer 410 (the browser dropped the subscription).
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushStandIn:
    def __init__(self):
        self.keys: dict[str, tuple[ec.EllipticCurvePrivateKey, bytes]] = {}
        self.received: dict[str, list[dict]] = {}
        self.refused: list[str] = []  # why a message was not taken, one line each
        self.gone: set[str] = set()
        self.lock = threading.Lock()
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_args):
                pass

            def do_POST(self):
                device = self.path.rsplit("/", 1)[-1]
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                status, why = stand_in._take(device, body, self.headers)
                if why:
                    with stand_in.lock:
                        stand_in.refused.append(why)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> PushStandIn:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def device(self) -> dict[str, str]:
        """A new device's subscription, as ``PushSubscription.toJSON()`` gives it (flattened)."""
        key = ec.generate_private_key(ec.SECP256R1())
        secret = os.urandom(16)
        name = _b64(os.urandom(9))
        with self.lock:
            self.keys[name] = (key, secret)
            self.received[name] = []
        public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": f"{self.url}/push/{name}", "p256dh": _b64(public), "auth": _b64(secret)}

    def messages(self, endpoint: str) -> list[dict]:
        with self.lock:
            return list(self.received[endpoint.rsplit("/", 1)[-1]])

    def wait_for(self, endpoint: str, count: int = 1, timeout: float = 15.0) -> list[dict]:
        until = time.monotonic() + timeout
        while time.monotonic() < until:
            got = self.messages(endpoint)
            if len(got) >= count:
                return got
            time.sleep(0.05)
        raise AssertionError(f"{endpoint} got {len(self.messages(endpoint))} messages, not {count}: {self.refused}")

    def _take(self, device: str, body: bytes, headers) -> tuple[int, str]:
        if device in self.gone or device not in self.keys:
            return 410, ""
        scheme, _, params = (headers.get("Authorization") or "").partition(" ")
        fields = dict(p.strip().split("=", 1) for p in params.split(",") if "=" in p)
        if scheme.lower() != "vapid" or "t" not in fields or "k" not in fields:
            return 401, "no VAPID authorization"
        signer = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), _unb64(fields["k"]))
        try:
            claims = jwt.decode(fields["t"], signer, algorithms=["ES256"], audience=self.url)
        except jwt.PyJWTError as exc:
            return 403, f"VAPID token refused: {exc}"
        if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
            return 403, f"VAPID subject {claims.get('sub')!r} is not a contact"
        if headers.get("Content-Encoding") != "aes128gcm" or not headers.get("TTL"):
            return 400, f"encoding {headers.get('Content-Encoding')!r}, TTL {headers.get('TTL')!r}"
        key, secret = self.keys[device]
        try:
            plain = http_ece.decrypt(body, private_key=key, auth_secret=secret, version="aes128gcm")
        except Exception as exc:
            return 400, f"could not decrypt: {exc}"
        with self.lock:
            self.received[device].append(json.loads(plain))
        return 201, ""

"""A local stand-in for the two Stripe endpoints the app calls, for the real stripe SDK to talk to."""

from __future__ import annotations

import json
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class StripeStandIn:
    """POST /v1/payment_intents (idempotent by Idempotency-Key), GET /v1/payment_intents/{id},
    POST /v1/payment_intents/{id}/cancel and POST /v1/refunds (idempotent by Idempotency-Key).

    ``delay`` (seconds) makes every request wait that long before it is answered; it has already been
    carried out by then (as when the real service is slow to answer), so a retry with the same key finds
    it. :meth:`release` answers the waiting requests at once. ``answered`` counts the answers sent.
    """

    def __init__(self):
        self.intents: dict[str, dict] = {}
        self.by_key: dict[str, str] = {}
        self.refunds: dict[str, dict] = {}
        self.requests: list[dict] = []
        self.answered = 0
        self.delay = 0.0
        self.lock = threading.Lock()
        self._released = threading.Event()
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_args):
                pass

            def _send(self, code: int, body: dict):
                data = json.dumps(body).encode()
                if stand_in.delay:
                    stand_in._released.wait(stand_in.delay)
                # counted before it is written: a caller that has its answer must never see the count lag behind
                with stand_in.lock:
                    stand_in.answered += 1
                try:
                    self.send_response(code)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    return  # the caller stopped waiting

            def do_POST(self):  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                form = urllib.parse.parse_qs(self.rfile.read(length).decode())
                flat = {k: v[0] for k, v in form.items()}
                key = self.headers.get("Idempotency-Key")
                stand_in.requests.append({"method": "POST", "path": self.path, "form": flat, "idempotency_key": key,
                                          "auth": self.headers.get("Authorization")})  # fmt: skip
                with stand_in.lock:  # carried out at once; the answer may wait (``delay``), the lock does not
                    if self.path == "/v1/refunds":
                        answer = self._refund(flat, key)
                    elif self.path.startswith("/v1/payment_intents/") and self.path.endswith("/cancel"):
                        answer = self._cancel(self.path.split("/")[3])
                    elif self.path != "/v1/payment_intents":
                        answer = (404, {"error": {"message": "not found"}})
                    else:
                        answer = self._create(flat, key)
                self._send(*answer)

            def _cancel(self, pid: str):
                intent = stand_in.intents.get(pid)
                if intent is None:
                    return (404, {"error": {"type": "invalid_request_error", "message": "No such payment_intent"}})
                if intent["status"] in ("succeeded", "canceled"):
                    message = f"This PaymentIntent could not be canceled because it has a status of {intent['status']}."
                    return (400, {"error": {"type": "invalid_request_error", "message": message,
                                            "code": "payment_intent_unexpected_state"}})  # fmt: skip
                intent["status"] = "canceled"
                return (200, intent)

            def _refund(self, flat: dict, key: str | None):
                if key and key in stand_in.refunds:
                    return (200, stand_in.refunds[key])
                intent = stand_in.intents.get(flat.get("payment_intent", ""))
                if intent is None or intent["status"] != "succeeded":
                    return (400, {"error": {"type": "invalid_request_error", "message": "Nothing to refund"}})
                amount = int(flat.get("amount") or intent["amount"])
                given = sum(r["amount"] for r in stand_in.refunds.values() if r["payment_intent"] == intent["id"])
                if amount <= 0 or given + amount > intent["amount"]:
                    message = f"Refund amount ({amount}) is greater than unrefunded amount on charge"
                    return (400, {"error": {"type": "invalid_request_error", "message": message,
                                            "code": "charge_already_refunded"}})  # fmt: skip
                meta = {k[len("metadata[") : -1]: v for k, v in flat.items() if k.startswith("metadata[")}
                refund = {"id": f"re_test_{len(stand_in.refunds) + 1}", "object": "refund", "status": "succeeded",
                          "payment_intent": intent["id"], "amount": amount, "metadata": meta}  # fmt: skip
                stand_in.refunds[key or refund["id"]] = refund
                return (200, refund)

            def _create(self, flat: dict, key: str | None):
                if key and key in stand_in.by_key:
                    return (200, stand_in.intents[stand_in.by_key[key]])
                pid = f"pi_test_{len(stand_in.intents) + 1}"
                meta = {k[len("metadata[") : -1]: v for k, v in flat.items() if k.startswith("metadata[")}
                intent = {"id": pid, "object": "payment_intent", "amount": int(flat["amount"]),
                          "currency": flat["currency"], "status": "requires_payment_method", "metadata": meta,
                          "description": flat.get("description"), "client_secret": f"{pid}_secret_x"}  # fmt: skip
                stand_in.intents[pid] = intent
                if key:
                    stand_in.by_key[key] = pid
                return (200, intent)

            def do_GET(self):  # noqa: N802
                stand_in.requests.append({"method": "GET", "path": self.path})
                pid = self.path.split("?")[0].rsplit("/", 1)[-1]
                if pid not in stand_in.intents:
                    return self._send(404, {"error": {"message": "No such payment_intent"}})
                return self._send(200, stand_in.intents[pid])

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> StripeStandIn:
        self.thread.start()
        return self

    def __exit__(self, *_exc):
        self.release()
        self.server.shutdown()
        self.server.server_close()

    def release(self) -> None:
        """Answer every request waiting out ``delay`` now, and answer later ones at once."""
        self.delay = 0.0
        released, self._released = self._released, threading.Event()
        released.set()

    def charge_refunded(self, intent_id: str) -> dict:
        """The ``charge.refunded`` event Stripe sends for the intent's charge, listing its refunds."""
        listed = [r for r in self.refunds.values() if r["payment_intent"] == intent_id]
        charge = {"id": f"ch_{intent_id}", "object": "charge", "payment_intent": intent_id,
                  "amount_refunded": sum(r["amount"] for r in listed), "refunds": {"data": listed}}  # fmt: skip
        return {"type": "charge.refunded", "data": {"object": charge}}

    def refunded(self) -> list[str]:
        """The intents refunded, one entry per refund."""
        return [r["payment_intent"] for r in self.refunds.values()]

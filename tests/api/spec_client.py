"""A client written from spec section 7 alone: paths, payload names, and the refresh rule.

It keeps the access token in memory and the refresh token where the server put it (a cookie).
When a call answers 403 it calls GET /auth/refresh once; with a new token it retries the call once;
when the refresh answers 403 the failure's message is 'Your login has expired.'.
"""

from __future__ import annotations

import dataclasses

import httpx

LOGIN_EXPIRED = "Your login has expired."


@dataclasses.dataclass
class Result:
    status: int
    data: object
    message: str = ""
    headers: httpx.Headers | None = None


class SpecClient:
    def __init__(self, base_url: str):
        self.http = httpx.Client(base_url=base_url, timeout=30)
        self.token = ""

    def close(self) -> None:
        self.http.close()

    def _send(self, method: str, path: str, body: object = None, params: dict | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        return self.http.request(method, path, json=body, params=params, headers=headers)

    @staticmethod
    def _result(response: httpx.Response) -> Result:
        try:
            data = response.json() if response.content else None
        except ValueError:
            return Result(response.status_code, None, "PARSING_ERROR", response.headers)
        message = data.get("message", "") if isinstance(data, dict) else ""
        return Result(response.status_code, data, message, response.headers)

    def call(self, method: str, path: str, body: object = None, params: dict | None = None) -> Result:
        response = self._send(method, path, body, params)
        if response.status_code == 403:
            refreshed = self.http.get("/auth/refresh")
            if refreshed.status_code == 403:
                return Result(403, None, LOGIN_EXPIRED, refreshed.headers)
            if refreshed.status_code == 200 and refreshed.json().get("accessToken"):
                self.token = refreshed.json()["accessToken"]
                response = self._send(method, path, body, params)
        return self._result(response)

    # --- the rows of section 7 this client uses by name ---------------------------------------------
    def login(self, username: str, password: str) -> Result:
        found = self._result(self.http.post("/auth", json={"username": username, "password": password}))
        if found.status == 200:
            self.token = found.data["accessToken"]
        return found

    def logout(self) -> Result:
        found = self.call("POST", "/auth/logout")
        self.token = ""
        return found

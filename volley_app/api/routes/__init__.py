"""The REST API's routes, one module per domain, and the route table read back from them.

Every route names who it is for in its OpenAPI ``x-access`` (``common.ANYONE`` ... ``common.ADMIN``);
:func:`route_table` lists them, and the tests build their permission matrix from it.
"""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.routing import APIRoute

from volley_app.api.routes import (
    auth,
    discounts,
    free_agents,
    money,
    notes,
    notifications,
    public,
    revenue,
    rosters,
    rsvps,
    seasons,
    teams,
    users,
    waivers,
)
from volley_app.api.routes.common import Route

ROUTERS = (auth.router, users.router, seasons.router, teams.router, rosters.router, rsvps.router, notes.router,
           public.router, waivers.router, money.router, revenue.router, discounts.router,
           free_agents.router, notifications.router)  # fmt: skip


def route_table(api: FastAPI) -> list[Route]:
    """Every API route: method, path, who may call it, what it does."""
    found = []
    for r in api.routes:
        if not isinstance(r, APIRoute):
            continue
        level = (r.openapi_extra or {}).get("x-access", "")
        for method in sorted(r.methods or ()):
            found.append(Route(method, r.path, level, r.summary or r.name))
    return found

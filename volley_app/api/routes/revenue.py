"""Revenue: what a league, a league session or a venue (for admins, every venue) took in and gave back over venue
days, as JSON in cents or as a CSV file in dollars."""

from __future__ import annotations

from collections.abc import Mapping

from fastapi import APIRouter, Depends, Query, Request, Response

from volley_app import routes
from volley_app.api.deps import current_actor
from volley_app.api.routes import common
from volley_app.services.core.actors import Actor
from volley_app.services.money import revenue

router = APIRouter(tags=["money"])

VENUE = Query("", description="A venue (its SVL's user id): admins any, an SVL their own")
SESSION = Query("", description="A league session of the caller's venue")
LEAGUE = Query("", description="A league of the caller's venue (the league wins over a session, a session over a venue)")
START = Query("", description="The first venue day, YYYY-MM-DD (default: 29 days before the last)",
              examples=["2031-01-01"])  # fmt: skip
END = Query("", description="The last venue day, YYYY-MM-DD (default: today at the venue)", examples=["2031-01-31"])


@router.get(routes.revenue_api_path, openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS})
def get_revenue(venue: str = VENUE, session: str = SESSION, league: str = LEAGUE, start: str = START, end: str = END,
                actor: Actor = Depends(common.acting)) -> common.Row:  # fmt: skip
    """The revenue of a league, a session or a venue (an SVL: their own; an admin: any, or every venue when none
    is named) over venue days: collected (cards and cash), refunded, net, credits outstanding, discounts and cash
    expected at cash leagues' first games, in cents, in total and for each day with something in it."""
    found = common.call(revenue.report, actor, venue=venue, session=session, league=league, start=start, end=end)
    return {**{common.camel(k): v for k, v in found.items()}, "totals": _camel(found["totals"]),
            "days": [_camel(d) for d in found["days"]]}  # fmt: skip


def _camel(row: Mapping[str, object]) -> common.Row:
    return {common.camel(k): v for k, v in row.items()}


@router.get(routes.revenue_csv_path, openapi_extra=common.access(common.OPERATOR), responses={**common.ERRORS, 200: {"content": {"text/csv": {}}}})
def get_revenue_csv(request: Request, venue: str = VENUE, session: str = SESSION, league: str = LEAGUE,
                    start: str = START, end: str = END, actor: Actor | None = Depends(current_actor)) -> Response:  # fmt: skip
    """The same report as a CSV file: a row per day, then the total; amounts in decimal dollars ('260.00') with a
    currency column. The reader is the bearer token's user, or the user the screen's signed link was made for."""
    link = {k: request.query_params.get(k, "") for k in ("u", "e", "s")}
    asked = {"venue": venue, "session": session, "league": league, "start": start, "end": end}
    found = common.call(revenue.csv_by_link, actor, asked=asked, link=link)
    return Response(found["data"], media_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="{found["name"]}"', "Cache-Control": "private, no-store",
    })  # fmt: skip

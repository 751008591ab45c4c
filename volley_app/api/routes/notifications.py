"""A person's own notifications (newest first), marking them read, and how each kind reaches them."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import ConfigDict, Field

from volley_app.api.routes import common
from volley_app.services.core import paging
from volley_app.services.core.actors import Actor
from volley_app.services.mail import notices

router = APIRouter(prefix=common.PREFIX, tags=["notifications"])
MINE: dict[int | str, dict[str, Any]] = {401: common.ERRORS[401], 403: common.ERRORS[403]}


class Preferences(common.Body):
    model_config = ConfigDict(populate_by_name=True, json_schema_extra=common.required("email"))

    email: common.Received = Field(None, examples=[{notices.SUB_INVITATION: True, notices.OPEN_REQUEST: False}],
                                   description=("By kind, whether it is emailed (true or false); a kind left out "
                                                f"stays as it was. The kinds: {', '.join(notices.KINDS)}"),
                                   json_schema_extra={"type": "object", "additionalProperties": {"type": "boolean"},
                                                      "propertyNames": {"enum": list(notices.KINDS)}})  # fmt: skip
    push: common.Received = Field(None, examples=[{notices.SUB_INVITATION: True, notices.SCHEDULE_CHANGE: False}],
                                  description=("By kind, whether it goes to the caller's devices that take push "
                                               "notifications (true or false); left out, as a kind left out, stays "
                                               "as it was."),
                                  json_schema_extra={"type": "object", "additionalProperties": {"type": "boolean"},
                                                     "propertyNames": {"enum": list(notices.KINDS)}})  # fmt: skip


@router.get("/notifications", openapi_extra=common.access(common.LOGGED_IN), responses=MINE)
def list_notifications(request: Request, response: Response, actor: Actor = Depends(common.acting)) -> list[common.Row]:
    """The caller's own notifications, newest first: kind, title, text, the path of its page (``link``), when, and
    whether it is unread; ``page`` (the bookmark of X-Next-Page / X-Previous-Page) and ``size``; the total in
    X-Total-Count, the unread count (up to 100) in X-Unread-Count."""
    p = common.list_params(request)
    found = common.call(notices.notifications_page, actor, bookmark=p["bookmark"], size=p["size"] or paging.PAGE_SIZE)
    response.headers["X-Unread-Count"] = str(found.extra.get("unread", 0))
    return common.paged(response, found)


@router.post("/notifications/read-all", openapi_extra=common.access(common.LOGGED_IN), responses=MINE)
def read_all(actor: Actor = Depends(common.acting)) -> common.Row:
    """Mark every unread notification of the caller read; answers how many were (``marked``)."""
    return {"marked": common.call(notices.mark_all_read, actor)}


@router.post("/notifications/{notification_id}/read", openapi_extra=common.access(common.LOGGED_IN),
             responses={**MINE, 404: common.ERRORS[404]})  # fmt: skip
def read_one(notification_id: str, actor: Actor = Depends(common.acting)) -> common.Row:
    """Mark one of the caller's notifications read (another person's is not found); answers its ``link``."""
    link = common.call(notices.mark_read, actor, notification_id=notification_id)
    return {"id": notification_id, "_id": notification_id, "link": link}


@router.get("/notification-preferences", openapi_extra=common.access(common.LOGGED_IN), responses=MINE)
def get_preferences(response: Response, actor: Actor = Depends(common.acting)) -> list[common.Row]:
    """Each kind of notification (``kind``, ``label``), whether it is emailed to the caller (``email``) and pushed to
    their devices (``push``)."""
    return common.whole(response, common.call(notices.preferences, actor))


@router.put("/notification-preferences", openapi_extra=common.access(common.LOGGED_IN),
            responses={**MINE, 422: common.ERRORS[422]})  # fmt: skip
def put_preferences(body: Preferences, response: Response, actor: Actor = Depends(common.acting)) -> list[common.Row]:
    """Set whether each kind named in ``email`` is emailed to the caller, and in ``push`` pushed to their devices;
    answers every kind as saved."""
    return common.whole(response, common.call(notices.save_preferences, actor, email=body.email, push=body.push))

"""An event that fails while Redis or the database is out of reach: "try again", and the page reconnects."""

from __future__ import annotations

import redis.exceptions
import sqlalchemy.exc

from volley_app.state import outage


def _texts(events) -> str:
    return " ".join(str(e) for e in (events if isinstance(events, list) else [events]))


def test_an_outage_says_try_again_and_schedules_a_reconnect():
    for exc in (
        redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused."),
        redis.exceptions.TimeoutError("Timeout reading from socket"),
        sqlalchemy.exc.OperationalError("SELECT 1", {}, Exception("server closed the connection unexpectedly")),
    ):
        events = outage.backend_exception_handler(exc)
        text = _texts(events)
        assert outage.TRY_AGAIN in text and outage.TOAST_ID in text, type(exc)
        assert "visibilitychange" in text  # the page reconnects (and hydrates again) by itself
        assert "administrator" not in text


def test_an_outage_behind_another_exception_is_recognised():
    try:
        try:
            raise redis.exceptions.ConnectionError("refused")
        except redis.exceptions.ConnectionError as inner:
            raise RuntimeError("could not lock the state") from inner
    except RuntimeError as outer:
        assert outage.is_transient(outer)
    assert not outage.is_transient(ValueError("a bug"))
    assert not outage.is_transient(None)


def test_any_other_error_keeps_the_generic_message():
    text = _texts(outage.backend_exception_handler(ValueError("a bug")))
    assert outage.TRY_AGAIN not in text and "visibilitychange" not in text

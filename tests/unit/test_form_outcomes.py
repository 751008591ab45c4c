"""What a form's service call answers: its result, or why it was refused (``state.forms.run_action``)."""

from __future__ import annotations

from sqlmodel import Session

from volley_app.services.core.errors import UNEXPECTED, NotFound
from volley_app.state.forms import Done, Failed, run_action


def _found(_db: Session, *, value: int) -> int:
    return value


def _refused(_db: Session) -> int:
    raise NotFound("No such league")


def _broken(_db: Session) -> int:
    raise RuntimeError("the disk is full")


async def test_a_result_comes_with_no_failure():
    outcome = await run_action(_found, value=7)
    assert outcome == Done(7)
    assert outcome.failure is None and outcome.value == 7
    value, failure = outcome
    assert (value, failure) == (7, None)


async def test_a_refusal_comes_with_the_services_own_message():
    outcome = await run_action(_refused)
    assert isinstance(outcome, Failed) and isinstance(outcome.failure, NotFound)
    value, failure = outcome
    assert value is None and failure is not None and failure.message == "No such league"


async def test_something_unexpected_comes_as_the_generic_message():
    outcome = await run_action(_broken)
    assert isinstance(outcome, Failed)
    assert outcome.value is None and outcome.failure.message == UNEXPECTED

"""The move of uploaded files into the database: brackets already in UPLOAD_DIR are copied in, none lost."""

from __future__ import annotations

import sqlalchemy as sa
from sqlmodel import Session

from alembic import command
from tests.unit.test_migrations import BEFORE_RECORDS, _old_season, scratch_database  # noqa: F401 - the fixture
from volley_app.migrations import alembic_config
from volley_app.services.seasons import leagues

BEFORE_STORED_FILES = "0024"
PDF = b"%PDF-1.4\n% a bracket from before\n%%EOF\n"


def test_brackets_in_the_upload_folder_are_copied_into_the_database(scratch_database, tmp_path, monkeypatch):  # noqa: F811
    from tests.factories import actor_of
    from volley_app.models import League, User

    folder = tmp_path / "uploads"
    folder.mkdir()
    (folder / "0123456789abcdef0123456789abcdef.pdf").write_bytes(PDF)
    monkeypatch.setenv("UPLOAD_DIR", str(folder))
    engine = scratch_database
    cfg = alembic_config()
    command.upgrade(cfg, BEFORE_RECORDS)
    with engine.begin() as conn:
        _old_season(conn)
    command.upgrade(cfg, BEFORE_STORED_FILES)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE leagues SET tournament_file = '0123456789abcdef0123456789abcdef.pdf', "
                             "tournament_content_type = 'application/pdf'"))  # fmt: skip
    command.upgrade(cfg, "head")
    (folder / "0123456789abcdef0123456789abcdef.pdf").unlink()  # from now on the database alone holds it

    with Session(engine) as db:
        (league_id,) = db.exec(sa.select(League.id)).first()
        reader = db.exec(sa.select(User).where(User.id == 2)).scalar_one()
        served = leagues.bracket_file(db, actor_of(reader), league_id)
    assert served["data"] == PDF and served["content_type"] == "application/pdf"

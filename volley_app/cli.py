"""Operator commands: python -m volley_app.cli <command>.

  migrate                 apply every database migration
  create-admin            create an admin account (password asked for, or ADMIN_PASSWORD)
  seed-demo [--if-empty]  add the demo data
  demo-logins             print the demo accounts
  send-outbox             deliver the pending mail now
  purge-sessions          delete long-expired login sessions and old failed logins
  expire-holds            release lapsed place reservations and pass lapsed offers to the waitlist
  send-reminders          email the sub request reminders that are due (the day before, the morning after)
  expire-invites          pass sub request invitations whose hold window lapsed to the next sub on the list
  rebuild-sub-records     recompute every sub's record (played, no-shows, last subbed) from the places they took
"""

from __future__ import annotations

import argparse
import getpass
import logging
import os
import sys

from volley_app import db
from volley_app.models import Role
from volley_app.services.core.errors import DomainError

log = logging.getLogger("volley_app.cli")


def cmd_migrate(_args) -> int:
    from volley_app.migrations import upgrade_to_head

    upgrade_to_head()
    print("database is at the newest schema")
    return 0


def cmd_create_admin(args) -> int:
    from volley_app.services.accounts.accounts import create_user

    password = os.environ.get("ADMIN_PASSWORD") or getpass.getpass("Password for the new admin: ")
    user = db.call(
        create_user,
        username=args.username,
        password=password,
        email=args.email,
        first_name=args.first_name,
        last_name=args.last_name,
        region=args.state,
        roles=[Role.ADMIN],
    )
    print(f"admin {user.username!r} created (id {user.id})")
    return 0


def cmd_seed_demo(args) -> int:
    from volley_app import demo

    def run(session):
        if not demo.is_empty(session):
            return None
        return demo.seed(session)

    if not args.if_empty:
        counts = db.call(demo.seed)
    else:
        counts = db.call(run)
        if counts is None:
            print("database already has data: demo seed skipped")
            return 0
    print("demo data added: " + ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in counts.items()))
    return 0


def cmd_demo_logins(_args) -> int:
    from volley_app import demo

    print(f"Demo logins (password for all: {demo.DEMO_PASSWORD}):")
    for username, roles in demo.DEMO_LOGINS:
        print(f"  {username:<16} {roles}")
    return 0


def cmd_send_outbox(_args) -> int:
    from volley_app.services.mail import mail

    total = 0
    while True:
        report = mail.deliver_pending()
        print(report)
        total += report.sent
        if report.total == 0:
            break
    print(f"sent {total} message(s)")
    return 0


def cmd_purge_sessions(_args) -> int:
    from volley_app.services.accounts import auth

    n = db.call(auth.purge_expired)
    print(f"deleted {n} old login session(s)")
    from volley_app.services.core import ratelimit

    db.call(ratelimit.purge)
    return 0


def cmd_expire_holds(_args) -> int:
    from volley_app.services.teams import league_places

    report = league_places.expire_holds()
    print(f"expired {report.expired} hold(s), offered {report.offered} place(s), {report.paid} paid late")
    return 0


def cmd_send_reminders(_args) -> int:
    from volley_app.services.operations import game_requests
    from volley_app.services.subs import sub_reminders
    from volley_app.services.teams import rsvps

    print(f"sent {sub_reminders.send_reminders()} reminder(s), {rsvps.send_reminders()} game reminder(s)")
    print(f"told {game_requests.tell_short_teams()} short team(s)")
    return 0


def cmd_expire_invites(_args) -> int:
    from volley_app.services.subs import invites

    report = invites.expire_invites()
    print(f"passed on {report.expired} lapsed invitation(s)")
    return 0


def cmd_rebuild_sub_records(_args) -> int:
    from volley_app.services.subs import sub_records

    print(f"rebuilt the sub records: {db.call(sub_records.rebuild)} changed")
    return 0


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    parser = argparse.ArgumentParser(prog="python -m volley_app.cli", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("migrate").set_defaults(fn=cmd_migrate)
    p = sub.add_parser("create-admin")
    p.add_argument("--username", required=True)
    p.add_argument("--email", required=True)
    p.add_argument("--first-name", required=True)
    p.add_argument("--last-name", default="Admin")
    p.add_argument("--state", default="KY", help="US state code")
    p.set_defaults(fn=cmd_create_admin)
    p = sub.add_parser("seed-demo")
    p.add_argument("--if-empty", action="store_true", help="only when the database has no users")
    p.set_defaults(fn=cmd_seed_demo)
    sub.add_parser("demo-logins").set_defaults(fn=cmd_demo_logins)
    sub.add_parser("send-outbox").set_defaults(fn=cmd_send_outbox)
    sub.add_parser("purge-sessions").set_defaults(fn=cmd_purge_sessions)
    sub.add_parser("expire-holds").set_defaults(fn=cmd_expire_holds)
    sub.add_parser("send-reminders").set_defaults(fn=cmd_send_reminders)
    sub.add_parser("expire-invites").set_defaults(fn=cmd_expire_invites)
    sub.add_parser("rebuild-sub-records").set_defaults(fn=cmd_rebuild_sub_records)
    args = parser.parse_args(argv)
    try:
        return args.fn(args)
    except DomainError as exc:
        errors = getattr(exc, "errors", {exc.message: ""})
        for field, message in errors.items():
            print(f"error: {message or field}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

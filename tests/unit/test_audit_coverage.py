"""Every operator and admin change leaves an audit row: a walk over every service that writes.

Pages and the REST API change nothing themselves; every write lives in ``volley_app/services``. This
walk reads those modules, follows each public function's calls through the services (``module.func``
and same-module helpers), and finds every function that writes (``db.add``/``db.delete``, an SQL
UPDATE/DELETE/INSERT, or a queued email). Each such function must reach ``audit.record`` /
``audit.record_change``, or be named below as a write that is not an operator's change (a player's or
a visitor's own action, housekeeping the clock does, or a helper whose callers audit). A new operator
write that audits nothing fails here until it records its row (or, if it truly is not an operator's
change, is named below with the reason).
"""

from __future__ import annotations

import ast
import pathlib

import volley_app.services

SERVICES = pathlib.Path(volley_app.services.__file__).parent
# The services and their domain packages: ``from <package> import <module>``.
_PACKAGES = {"volley_app.services"} | {
    f"volley_app.services.{p.parent.name}" for p in SERVICES.glob("*/__init__.py")
}

# Writes that are not an operator's or admin's change, by reason. Each is a public service function.
NOT_OPERATOR_CHANGES: dict[str, set[str]] = {
    "a player's or visitor's own action": {
        "accounts.create_user", "accounts.player_contact", "accounts.register_player", "accounts.signup",
        "availability.add_date", "availability.remove_date", "availability.save_week",
        "calendar.accepted_request_feed", "calendar.feed_links", "calendar.feed_token", "calendar.regenerate", "calendar.revoke",
        "inquiries.submit",
        "invites.email_named", "invites.invite_in_order", "matching.invite",
        "mail_lists.set_notification", "mail_lists.unsubscribe", "newsletter.subscribe", "newsletter.unsubscribe",
        "league_places.new_payment", "league_places.reserve",
        "discounts.price", "discounts.take_credit",  # a player's own registration priced: their code, their credit
        "recovery.request_reset", "recovery.reset_password",
        "request_replies.accept", "answers.answer_by_link", "request_changes.create", "request_replies.decline",
        "request_changes.delete", "request_changes.reopen", "request_changes.update", "request_replies.withdraw",
        "rsvps.answer", "rsvps.answer_by_link", "game_requests.find_subs",
        "waivers.sign_waiver",  # the signature itself is the record: who, which version, when, from where
        "shares.screen", "shares.pay_offline", "shares.confirm_return",  # a player paying their share by its link
        "free_agents.register", "waivers.sign_alone",  # a player registering alone: their signature, their payment
        "push.subscribe", "push.unsubscribe", "push.send_test",  # a person's own devices: on, off, a test to them
        "notices.mark_read", "notices.mark_all_read", "notices.save_preferences",  # one's own notifications
    },
    "money movements (each ledger row is its own record: who, how much, what for, why)": {
        "ledger.charged", "ledger.record", "ledger.refund_made",
        "discounts.spend",  # a fulfilled registration's discount and credit rows
        "refunds.send_due",  # the card service's answer to a refund an operator (audited) or the app decided
        "free_agents.fulfil",  # a free agent's charge (its ledger row): they wait to be placed
        "shares.fulfil", "shares.settle",  # a share's charge (its ledger row) and the team confirmed by the sum
        "refunds.from_provider",  # a refund made in the card service's dashboard: its ledger row names the provider's id
    },
    "signing in and out (the login log is its record)": {
        "auth.check_credentials", "auth.forgive_failures", "auth.login", "auth.logout", "auth.logout_everywhere",
        "auth.remember_device", "auth.resolve", "auth.resolve_with_unread", "auth.revoke_all_sessions", "auth.start_session", "auth.use_sign_in_link",
        "tokens.issue", "tokens.logout", "tokens.logout_access", "tokens.rotate",
    },
    "housekeeping the clock does while a page is read or a sweep runs": {
        "auth.purge_expired", "clock.save_reached", "clock_sweep.save_reached",
        "invites.expire_invites", "invites.sweep_request", "leagues.save_reached_stages",
        "mail.deliver_pending", "push.deliver_pending", "league_places.send_due_refunds", "ratelimit.purge", "sessions.save_reached_statuses",
        "sub_records.rebuild", "sub_records.refresh",
        "sub_records.refresh_request", "sub_reminders.send_one", "game_requests.tell_short", "game_requests.tell_short_teams", "request_rows.complete_past", "request_lists.detail",
        "rsvps.send_one", "shares.remind",
    },
    "a helper whose callers audit, or a counter of one of the above": {
        "clashes.clear_of_kept",
        "invites.after_accept", "invites.after_decline", "request_replies.free_place", "invites.end_list", "invites.lock_request", "invites.place_freed",
        "invites.open_notices", "invites.use_link", "league_data.delete_children", "league_data.tell_captains_archived",
        "mail.queue", "mail.queue_email", "push.queue",
        "notices.notify", "notices.set_email",
        "league_places.claim", "league_places.lock",
        "discounts.credit_free", "discounts.find_for",  # the player's and the code's locks, taken to read under
 "refunds.ask", "mail.tell", "playoffs.apply_forfeit", "playoffs.apply_result",
        "playoffs.withdraw_from_bracket", "ratelimit.hit", "ratelimit.invitation", "ratelimit.signup", "ratelimit.signup_refused",
        "ratelimit.sub_invite", "ratelimit.use", "ratelimit.use_committed", "scheduling.tell_captains",
        "ratelimit.team_invitation", "rosters.tell_team",
        "rosters.add_captain",  # a new team's captain on its roster: part of making the team
        "shares.joined",  # a new member's pay link, sent by the (audited) change that put them on the roster
    },
}
_WRITES = {"db.add", "db.add_all", "db.delete", "mail.queue"}


class _Services:
    """The service modules' top-level functions and what each one calls, writes and audits."""

    def __init__(self) -> None:
        self.functions: dict[tuple[str, str], ast.FunctionDef] = {}
        self.calls: dict[tuple[str, str], set[tuple[str, str]]] = {}
        self.names: dict[tuple[str, str], set[str]] = {}
        paths = [p for p in SERVICES.rglob("*.py") if p.stem != "__init__"]
        trees = {p.stem: ast.parse(p.read_text()) for p in paths}
        assert len(trees) == len(paths), "two service modules share a name"
        for module, tree in trees.items():
            modules, imported = self._imports(tree)
            for node in tree.body:
                if isinstance(node, ast.FunctionDef):
                    self.functions[(module, node.name)] = node
            for node in tree.body:
                if isinstance(node, ast.FunctionDef):
                    self._read(module, node, modules, imported)

    @staticmethod
    def _imports(tree: ast.Module) -> tuple[dict[str, str], dict[str, tuple[str, str]]]:
        modules: dict[str, str] = {}
        imported: dict[str, tuple[str, str]] = {}
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module in _PACKAGES:
                modules |= {a.asname or a.name: a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("volley_app.services."):
                source = node.module.rsplit(".", 1)[1]
                imported |= {a.asname or a.name: (source, a.name) for a in node.names}
        return modules, imported

    def _read(self, module: str, fn: ast.FunctionDef, modules: dict, imported: dict) -> None:
        key, calls, names = (module, fn.name), set(), set()
        for node in ast.walk(fn):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "sa":
                if node.attr in ("update", "delete", "insert"):
                    names.add("sql write")
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Name):
                if (module, func.id) in self.functions:
                    calls.add((module, func.id))
                elif func.id in imported:
                    calls.add(imported[func.id])
            elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
                names.add(f"{func.value.id}.{func.attr}")
                if func.value.id in modules:
                    calls.add((modules[func.value.id], func.attr))
        self.calls[key], self.names[key] = calls, names

    def reaches(self, key: tuple[str, str], found) -> bool:
        seen: set[tuple[str, str]] = set()
        todo = [key]
        while todo:
            here = todo.pop()
            if here in seen or here not in self.functions:
                continue
            seen.add(here)
            if found(here):
                return True
            todo.extend(self.calls[here])
        return False

    def writes(self, key: tuple[str, str]) -> bool:
        return self.reaches(key, lambda k: bool(self.names[k] & (_WRITES | {"sql write"})))

    def audits(self, key: tuple[str, str]) -> bool:
        return self.reaches(key, lambda k: k in {("audit", "record"), ("audit", "record_change")})


def test_every_operator_write_leaves_an_audit_row():
    services = _Services()
    exempt = set().union(*NOT_OPERATOR_CHANGES.values())
    public = [k for k in services.functions if not k[1].startswith("_")]
    writers = {f"{m}.{f}" for m, f in public if services.writes((m, f))}
    unaudited = sorted(name for name in writers if not services.audits(tuple(name.split("."))) and name not in exempt)
    assert unaudited == [], f"these services change data and leave no audit row: {unaudited}"
    # The exemptions name real writers that audit nothing, so the list cannot hide a function that is gone.
    stale = sorted(name for name in exempt if name not in writers or services.audits(tuple(name.split("."))))
    assert stale == [], f"no longer unaudited writers, take them off the list: {stale}"


def test_the_walk_sees_the_writes_it_is_meant_to():
    services = _Services()
    assert services.writes(("newsletter", "delete_subscriber")) and services.audits(("newsletter", "delete_subscriber"))
    assert services.writes(("email_all", "send")) and services.audits(("email_all", "send"))
    assert services.writes(("teams", "update_team")) and services.audits(("teams", "update_team"))
    assert not services.writes(("audit", "entries")) and not services.writes(("leagues", "access_league"))

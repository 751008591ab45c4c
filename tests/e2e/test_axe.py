"""Every page of the page registry checked with axe-core, as each role sees it, at desktop and phone width.

One browser context per role, logged in once; each page is opened once and checked at 1280 px,
then at 390 px. No critical or serious violation is allowed, nor a page without an h1, headings
that skip a level, an empty table header, a page that scrolls sideways (wide tables scroll in
their own box), or at 390 px a control smaller than 44 x 44 px (WCAG 2.5.5).

At 390 px every dialog a page's buttons open (a button that opens one says so: ``aria-haspopup="dialog"``)
is opened, one per button name, and checked the same way inside the dialog: axe, the 44 x 44 px
controls, focus inside, the dialog within the screen's width; then Escape must close it and put focus
back on its button. Nothing in a dialog is confirmed. A sub holding a place on a request is a role of its own here, for the one page only
such a sub sees ("I can't make it").

With ``SCREENSHOTS=1`` a screenshot of every screen at both widths, and of every dialog, goes to
``artifacts/screens/<role>/`` (gitignored) to be looked at; without it none is taken (they cost time).

A page registered without a way to open it here (a dynamic route with no sample address) fails
the suite, so a new screen cannot go unchecked.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from sqlmodel import select

from tests.conftest import clear_tables
from tests.e2e.conftest import ROOT
from tests.e2e.helpers import screenshot
from volley_app import db, routes
from volley_app.demo import DEMO_PASSWORD
from volley_app.models import Role
from volley_app.registry import discover

AXE = ROOT / ".tools" / "node_modules" / "axe-core" / "axe.min.js"
WIDTHS = ((1280, 800), (390, 844))
# Rules below "serious" that the product holds to all the same.
ALSO_FAILING = frozenset({"page-has-heading-one", "heading-order", "empty-table-header"})
# The demo's people: a player (a sub request's requestor and a team captain), a venue operator, an admin,
# and a sub holding a place on a request of the player's.
LOGINS = {"player": "alice", "svl": "lexsports", "admin": "admin", "sub": "ben"}
ROLES = {"player": (Role.PLAYER.value,), "svl": (Role.SVL.value,), "admin": (Role.ADMIN.value,)}
# Each role's pass takes a minute or more: with several test processes, the roles are shared out among them.
CASES_APART = True

# Waits until the page has not changed for a while (the state's loads have arrived), at most a few seconds.
_SETTLED = """() => new Promise((done) => {
  let timer; const quiet = () => { clearTimeout(timer); timer = setTimeout(finish, 200); };
  const obs = new MutationObserver(quiet);
  const finish = () => { obs.disconnect(); clearTimeout(cap); done(); };
  const cap = setTimeout(finish, 5000);
  obs.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
  quiet();
})"""

# Two animation frames: the layout of the new width is done.
_FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"

_AXE_RUN = """async (scope) => {
  const r = await axe.run(scope ? document.querySelector(scope) : document, {resultTypes: ['violations']});
  return r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ') + ' :: ' + (n.failureSummary || '').split('\\n')[1])}));
}"""


# WCAG 2.5.5: every control a finger taps is at least 44 x 44 CSS px at phone width. Controls are buttons,
# links (those inside a sentence or a block of text excepted, as WCAG allows), form fields, and
# anything with a control's role or in the tab order; a checkbox or radio counts with its label.
# Hidden ones (display none, visually-hidden 1 px, off screen, aria-hidden) are not measured.
MIN_TARGET = 44
_SMALL_TARGETS = """([min, scope]) => {
  const controls = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], '
    + '[role=link], [role=checkbox], [role=radio], [role=switch], [role=tab], [role=combobox], [role=option], '
    + '[role=menuitem], [tabindex]:not([tabindex="-1"])';
  const inText = (el) => {
    if (el.tagName !== 'A' || el.classList.contains('rt-Button') || el.classList.contains('rt-IconButton')) return false;
    const block = el.closest('p, li, dd, .rt-Text, .rt-CalloutText') || el.parentElement;
    const own = (el.textContent || '').trim();
    const around = (block && block !== el ? block.textContent || '' : '').trim();
    return own.length > 0 && around.length > own.length;
  };
  const out = [];
  for (const el of (scope ? document.querySelector(scope) : document).querySelectorAll(controls)) {
    if (el.closest('[aria-hidden=true], [inert]')) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    let target = el;
    if (el.matches('input[type=checkbox], input[type=radio], [role=checkbox], [role=radio]')) {
      target = el.closest('label') || (el.id && document.querySelector(`label[for="${el.id}"]`)) || el;
    }
    if (el.tagName === 'INPUT' && el.closest('.rt-TextFieldRoot')) target = el.closest('.rt-TextFieldRoot');
    const r = target.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1 || r.right <= 0 || r.bottom <= 0 || r.left >= innerWidth) continue;
    if (el.matches('.rt-ScrollAreaViewport, [role=region], main, [role=dialog]') || el.tagName === 'TABLE') continue;
    if (inText(el)) continue;
    if (Math.round(r.width) >= min && Math.round(r.height) >= min) continue;
    const name = (el.getAttribute('aria-label') || el.textContent || el.getAttribute('name') || el.id || '').trim();
    out.push(`${el.tagName.toLowerCase()}${el.type ? '[' + el.type + ']' : ''} "${name.slice(0, 40)}" `
      + `${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  return out;
}"""


# A standings row on a phone stays about a line or two tall (the table scrolls sideways instead).
MAX_STANDINGS_ROW = 120
_TALLEST_ROW = """() => Math.max(0, ...[...document.querySelectorAll('tbody tr')].map(
  (r) => Math.round(r.getBoundingClientRect().height)))"""

# Dialogs: the buttons that open one, the one open now, and its state once its opening animation is done.
OPENERS = "[aria-haspopup=dialog]:visible"
OPEN_DIALOG = "[role=alertdialog][data-state=open], [role=dialog][data-state=open]"
_ANIMATIONS_DONE = """() => Promise.race([new Promise((done) => setTimeout(done, 1500)), Promise.all(document.getAnimations()
  .filter((a) => a.effect && a.effect.getTiming().iterations !== Infinity).map((a) => a.finished.catch(() => null)))])"""
_DIALOG_STATE = """(scope) => {
  const d = document.querySelector(scope);
  const r = d.getBoundingClientRect();
  return {focused: d.contains(document.activeElement), fits: r.left >= 0 && r.right <= innerWidth + 1,
          scrolls: d.scrollWidth > d.clientWidth + 1};
}"""
# Focus is on ``el`` within a second (a closing dialog hands it back once it is gone).
_FOCUSED = """(el) => new Promise((done) => {
  const until = performance.now() + 1000;
  const look = () => el === document.activeElement ? done(true) : performance.now() > until ? done(false) : setTimeout(look, 20);
  look();
})"""
# The dialogs the pass must reach, by the role that sees them and the name of the button that opens them:
# if one is not opened, the pass lost its way to the dialogs (a page changed, or its button lost aria-haspopup).
EXPECTED_DIALOGS = {
    "player": {"Delete Sub Request"},
    "sub": {"I can't make it"},
    "svl": {"Delete League", "Delete Session", "Withdraw Team"},
    "admin": {"Delete Account"},
}


@dataclasses.dataclass(frozen=True)
class World:
    """Ids of the demo records the dynamic routes open."""

    users: dict[str, int]
    sub: int
    note: int
    session: int
    running_league: int
    open_league: int
    full_league: int
    game: int
    team: int
    subscriber: int
    pending_payment: int
    paid_payment: int
    held: int  # a request of the player's on which the sub holds a place


def _seed() -> World:
    from volley_app.demo import seed
    from volley_app.models import Day, Game, League, LeagueSession, NewsletterSubscriber, SubRequest, Team, User
    from volley_app.models.subs import SubRequestPlace
    from volley_app.services.accounts.auth import _actor
    from volley_app.services.money import refunds
    from volley_app.services.teams import registration

    def build(s) -> World:
        seed(s)
        # a name with no spaces, as people sometimes type them: it must wrap, not push the page sideways
        winter = s.exec(select(LeagueSession).where(LeagueSession.name == "Winter Session")).one()
        winter.name = "WinterIndoorDoubleHeaderSessionForEveryoneInLexington2027"
        s.add(winter)
        users = {u.username: u for u in s.exec(select(User)).all()}
        alice = _actor(users["alice"])
        def league(court: str, day: Day) -> League:
            return s.exec(select(League).where(League.court == court, League.day == day)).one()

        open_league = league("Court 2", Day.WEDNESDAY)  # in registration, with room
        full_league = league("Court 3", Day.THURSDAY)  # in registration, full, with a waitlist
        running = league("Court 1", Day.MONDAY)  # running, with its schedule
        running.playoff_min_games = 2  # its rosters show each member's regular-season games against the minimum
        running.playoff_subs_approved = True
        s.add(running)
        _playoff_sub_awaiting(s, users)
        _waiver_to_sign(s, users["alice"])
        pending = registration.register(s, alice, league_id=open_league.id, team_name="Dream Team")
        paid = registration.register(s, alice, league_id=open_league.id, team_name="Paid Up")
        registration.pay_offline(s, alice, payment_id=paid["payment_id"], card_number="4242424242424242",
                                 expiry="12/39", cvc="123")  # fmt: skip
        operator = _actor(s.get(User, open_league.svl_id))
        refunds.give_back(s, operator, payment_id=paid["payment_id"], amount="10", reason="Missed a week")
        return World(
            users={role: users[name].id for role, name in LOGINS.items()},
            sub=users["carmen"].id,
            note=s.exec(select(SubRequest.id).where(SubRequest.team == "Net Ninjas").order_by(SubRequest.id)).first(),
            session=s.exec(select(LeagueSession.id).where(LeagueSession.name == "Fall Session")).one(),
            running_league=running.id,
            open_league=open_league.id,
            full_league=full_league.id,
            game=s.exec(select(Game.id).where(Game.league_id == running.id).order_by(Game.id)).first(),
            team=s.exec(select(Team.id).where(Team.team_name == "Net Ninjas")).one(),
            subscriber=s.exec(select(NewsletterSubscriber.id).order_by(NewsletterSubscriber.id)).first(),
            pending_payment=pending["payment_id"],
            paid_payment=paid["payment_id"],
            held=s.exec(select(SubRequestPlace.request_id).where(SubRequestPlace.user_id == users["ben"].id)).one(),
        )

    return db.call(build)


def _playoff_sub_awaiting(s, users) -> None:
    """A sub's place on a request of Block Party's awaiting the operator's approval (the league's rosters list it)."""
    from volley_app.models import SkillLevel, SubFormat, SubRequest, SubStatus, Team, utcnow
    from volley_app.models.subs import SubRequestPlace

    team = s.exec(select(Team).where(Team.team_name == "Block Party")).one()
    req = SubRequest(requestor_id=users["dmitri"].id, recipient_id=users["carmen"].id, status=SubStatus.ACCEPTED,
                     svl="Lexington Sportsplex", team=team.team_name, team_id=team.id, court="Court 1",
                     date=utcnow() + dt.timedelta(days=20), skill_level=SkillLevel.C, format=SubFormat.SIXES,
                     places_filled=1)  # fmt: skip
    s.add(req)
    s.flush()
    s.add(SubRequestPlace(request_id=req.id, user_id=users["carmen"].id, needs_approval=True))
    s.flush()


def _waiver_to_sign(s, player) -> None:
    """The player on the team Net Ninjas, whose league has a waiver: the player's waiver page has a form."""
    from volley_app.models import League, Team
    from volley_app.models.rosters import LeagueWaiver, TeamMember

    team = s.exec(select(Team).where(Team.team_name == "Net Ninjas")).one()
    league = s.get(League, team.league_id)
    member = s.exec(select(TeamMember).where(TeamMember.team_id == team.id, TeamMember.user_id == player.id,
                                             TeamMember.left_at.is_(None))).first()  # fmt: skip
    if member is None:
        s.add(TeamMember(team_id=team.id, user_id=player.id))
    if s.exec(select(LeagueWaiver).where(LeagueWaiver.league_id == league.id)).first() is None:
        s.add(LeagueWaiver(league_id=league.id, version=1, text="I play at my own risk.", created_by_id=league.svl_id))
    s.flush()


def _samples(w: World, role: str) -> dict[str, list[str]]:
    """The addresses that open the registry's dynamic and query-string pages (static pages open as they are)."""
    league = w.running_league
    return {
        routes.NOT_FOUND: ["/no-such-page"],
        routes.UNSUBSCRIBE_ROUTE: [routes.unsubscribe_path(w.subscriber, "not-the-token")],
        routes.RESET_PASSWORD_ROUTE: [routes.reset_password_path(w.users["player"], "not-the-token")],
        routes.SIGN_IN_ROUTE: [routes.sign_in_path(w.users["player"], "not-the-token")],
        routes.TEAM_JOIN_ROUTE: [routes.team_join_path("1.2.not-the-token")],
        routes.SHARE_PAY_ROUTE: [routes.share_pay_path("1.2.share.not-the-token")],
        routes.USER_EDIT: [routes.user_path(w.users.get(role, w.users["player"]))],
        routes.SUB_REQUEST: [routes.sub_request_path(w.note)],
        routes.SUB_REQUEST_INVITE: [routes.invite_path(w.sub)],
        routes.SESSION_EDIT: [routes.session_path(w.session)],
        routes.SESSION_LEAGUES: [routes.session_leagues_path(w.session)],
        routes.LEAGUES_NEW: [routes.new_league_path(w.session)],
        routes.LEAGUE_HOME: [routes.league_path(league), routes.league_path(w.open_league)],
        routes.LEAGUE_RULES: [routes.league_rules_path(league)],
        routes.LEAGUE_STANDINGS: [routes.standings_path(league)],
        routes.LEAGUE_MESSAGE: [routes.league_message_path(league)],
        routes.LEAGUE_WAIVER: [routes.league_waiver_path(league)],
        routes.LEAGUE_ROSTERS: [routes.league_rosters_path(league)],
        routes.FREE_AGENT: [routes.free_agent_path(w.open_league)],
        routes.FREE_AGENTS: [routes.free_agents_path(league)],
        routes.SCHEDULE: [routes.schedule_path(league)],
        routes.GAME_EDIT: [routes.game_path(w.game)],
        routes.TEST_SCHEDULE: [routes.test_schedule_path(league)],
        routes.WAITLIST: [routes.waitlist_path(w.full_league)],
        routes.TEAMS_NEW: [routes.new_team_path(w.open_league)],
        routes.TEAMS_CHECKOUT: [routes.checkout_path(w.pending_payment)],
        routes.TEAMS_SUCCESS: [routes.success_path(w.paid_payment)],
        routes.TEAMS_WAITLIST_SUCCESS: [routes.waitlist_success_path(w.full_league)],
        routes.TEAMS_DECLINE: [routes.decline_path(w.open_league), routes.decline_path(w.open_league, w.pending_payment)],
        routes.TEAMS: [routes.teams_path(league)],
        routes.TEAM_EDIT: [routes.team_path(w.team)],
        routes.TEAM_WAIVER: [routes.team_waiver_path(w.team)],
        routes.TEAM_GAMES: [routes.team_games_path(w.team)],
        routes.TEAM_SETTINGS: [routes.team_settings_path(w.team)],
        routes.PAYMENT: [routes.payment_path(w.paid_payment)],
        routes.LEAGUE_BRACKET: [routes.league_bracket_path(league)],
        routes.GAME_SCORE: [routes.game_score_path(w.game)],
        routes.REVENUE: [routes.REVENUE, routes.revenue_path(league=league)],
    }


def _addresses(w: World, role: str) -> list[tuple[str, str]]:
    """(route, address) of every page ``role`` opens: public pages when logged out, /dash pages when logged in.

    The sub opens only the request they hold a place on (every other page they see as the player does).
    """
    if role == "sub":
        return [(routes.SUB_REQUEST, routes.sub_request_path(w.held))]
    samples = _samples(w, role)
    out = []
    refusals: set[str] = set()  # the page a role may not open shows who it is for: checked once per audience
    for p in discover():
        if routes.is_protected(p.route) == (role == "anonymous"):
            continue
        for address in samples.get(p.route, [p.route]):
            path = address.split("?", 1)[0]
            if role in ROLES and not routes.may_open(ROLES[role], path):
                if routes.audience(path) in refusals:
                    continue
                refusals.add(routes.audience(path))
            out.append((p.route, address))
    return out


def test_every_page_has_an_address_to_check():
    """A dynamic page needs a sample address here, or axe never sees it."""
    w = World({r: 1 for r in LOGINS}, *([1] * 12))
    samples = _samples(w, "player")
    unchecked = [p.route for p in discover() if "[" in p.route and p.route not in samples]
    assert unchecked == [], f"pages without an axe visit (add a sample address): {unchecked}"


@pytest.fixture(scope="module")
def world(app_url):
    clear_tables()
    yield _seed()
    clear_tables()


def _slug(address: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", address).strip("-") or "home"


def _load_axe(page) -> None:
    if not page.evaluate("typeof axe !== 'undefined'"):
        # Evaluated by the browser's debugger, not as a <script>: the page's policy allows no inline script.
        page.evaluate(AXE.read_text() + "\n;undefined")


def _axe_and_targets(page, where: str, width: int, scope: str | None = None) -> list[str]:
    """axe's failing violations, and at phone width the controls under 44 x 44 px, in ``scope`` (the page if None)."""
    _load_axe(page)
    found = []
    for v in page.evaluate(_AXE_RUN, scope):
        if v["impact"] in ("critical", "serious") or v["id"] in ALSO_FAILING:
            nodes = "\n      ".join(v["nodes"])
            found.append(f"{where} @{width}px [{v['impact']}] {v['id']}: {v['help']}\n      {nodes}")
    if width < 768:
        small = page.evaluate(_SMALL_TARGETS, [MIN_TARGET, scope])
        if small:
            found.append(f"{where} @{width}px: controls under {MIN_TARGET}x{MIN_TARGET} px:\n      "
                         + "\n      ".join(small[:12]) + (f"\n      ... {len(small) - 12} more" if len(small) > 12 else ""))
    return found


def _check(page, role: str, address: str, opened: set[str] | None = None) -> list[str]:
    """Open ``address``, run axe at each width, then in each of its dialogs; the violations that fail, as lines.

    The names of the buttons whose dialogs were opened go into ``opened`` when it is given.
    """
    opened = set() if opened is None else opened
    page.set_viewport_size({"width": WIDTHS[0][0], "height": WIDTHS[0][1]})
    page.goto(address)
    found = []
    try:
        page.wait_for_selector("h1", state="attached", timeout=20_000)
    except PlaywrightTimeout:
        found.append(f"{role} {address}: no h1 (or the page never loaded)")
    page.evaluate(_SETTLED)
    for width, height in WIDTHS:
        if width != WIDTHS[0][0]:
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate(_FRAMES)
        found += _axe_and_targets(page, f"{role} {address}", width)
        if width < 768 and re.fullmatch(r"/dash/leagues/\d+/teams", address):
            tallest = page.evaluate(_TALLEST_ROW)
            if tallest > MAX_STANDINGS_ROW:
                found.append(f"{role} {address} @{width}px: a standings row is {tallest} px tall")
        if page.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1"):
            found.append(f"{role} {address} @{width}px: the page scrolls sideways (something does not fit)")
        screenshot(page, f"{role}/{_slug(address)}-{width}")
    return found + _check_dialogs(page, role, address, WIDTHS[-1][0], opened)


def _check_dialogs(page, role: str, address: str, width: int, opened: set[str]) -> list[str]:
    """Open each dialog of the page (one per name of the buttons that open them), check it, close it with Escape."""
    openers = page.locator(OPENERS)
    names = [(t.get_attribute("aria-label") or t.inner_text()).strip() for t in openers.all()]
    found = []
    for i, name in enumerate(names):
        if name in names[:i]:
            continue  # the same dialog for another row (a week of the schedule, say)
        where = f"{role} {address} dialog of {name!r}"
        openers.nth(i).click()
        try:
            page.wait_for_selector(OPEN_DIALOG, state="visible", timeout=10_000)
        except PlaywrightTimeout:
            found.append(f"{where}: the button opens no dialog")
            continue
        opened.add(name)
        page.evaluate(_ANIMATIONS_DONE)
        found += _axe_and_targets(page, where, width, OPEN_DIALOG)
        state = page.evaluate(_DIALOG_STATE, OPEN_DIALOG)
        if not state["focused"]:
            found.append(f"{where}: focus is not in the dialog")
        if not state["fits"] or state["scrolls"]:
            found.append(f"{where} @{width}px: the dialog does not fit the screen's width")
        screenshot(page, f"{role}/{_slug(address)}-dialog-{_slug(name)}-{width}")
        page.keyboard.press("Escape")
        try:
            page.wait_for_selector(OPEN_DIALOG, state="detached", timeout=5_000)
            if not openers.nth(i).evaluate(_FOCUSED):
                found.append(f"{where}: closed, focus does not go back to the button that opened it")
        except PlaywrightTimeout:
            found.append(f"{where}: Escape does not close the dialog")
            page.goto(address)
            page.wait_for_selector("h1", state="attached", timeout=20_000)
            page.evaluate(_SETTLED)
            openers = page.locator(OPENERS)
    return found


@pytest.mark.parametrize("role", ["anonymous", "player", "svl", "admin", "sub"])
def test_axe_finds_nothing_serious(browser, app_url, world, role):
    assert AXE.exists(), f"axe-core is missing at {AXE}: run scripts/setup.sh"
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=app_url)
    ctx.set_default_timeout(15_000)
    try:
        page = ctx.new_page()
        if role != "anonymous":
            from tests.e2e.conftest import HYDRATED
            from tests.e2e.helpers import log_in

            log_in(page, LOGINS[role], DEMO_PASSWORD)
            page.wait_for_url(re.compile(r"/dash"))
            page.wait_for_function(HYDRATED)  # the home the login went on to is up before another page opens
        found: list[str] = []
        opened: set[str] = set()
        for _route, address in _addresses(world, role):
            found.extend(_check(page, role, address, opened))
        if role == "anonymous":  # the pages the backend draws (in no registry): home, login, the public leagues
            for address in (routes.HOME, routes.LOGIN, routes.public_leagues_base,
                            routes.public_league_path(world.running_league)):
                found.extend(_check(page, role, address, opened))
        if role == "anonymous":  # a remembered login that no longer holds: "Your login has expired."
            page.evaluate("localStorage.setItem('vb_session', 'a-login-that-expired')")
            found.extend(_check(page, role, routes.DASH, opened))
        missed = EXPECTED_DIALOGS.get(role, set()) - opened
        found += [f"{role}: no button opened the dialog of {name!r} (opened: {sorted(opened)})" for name in sorted(missed)]
        assert not found, f"{len(found)} axe violations:\n" + "\n".join(found)
    finally:
        ctx.close()


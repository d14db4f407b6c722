"""A whole championship day in Chromium (issue 36), in English and in German: 16 places
and 17 entries (one waits), check-in at the desk on a phone (a barcode scanner's code and
Enter), three rounds drawn from the league page, results from two phones per table (one
referee call, one time-out placed by count points), a withdrawal after round 1 (the
waiting player moves up and plays from round 2), a late entry playing from round 3, the
final table, the classification; the projector at 1920×1080 follows every draw within
5 s without reloading. Phones at 390 px, axe on every page; screenshots:
test-artifacts/screenshots/championship-day-*."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from tests.browser.conftest import screenshot
from tests.browser.test_accessibility import axe_source, violations  # noqa: F401
from tests.browser.test_phone_width import PHONE, WIDTH_REPORT
from tests.builders import make_user
from tournaments.models import Entry, Fixture, League, Result
from tournaments.selectors import championship as champ_reads
from tournaments.services import championship as champ
from tournaments.services.entries import accountless_player_create
from tournaments.services.leagues import entry_withdraw, league_create
from tournaments.services.open_tournaments import open_final_ranking
from tournaments.services.result_links import result_link_create
from tournaments.services.results import result_enter

pytestmark = pytest.mark.browser

LANGUAGES = {"en": "en-GB", "de": "de-DE"}
NAMES = [
    "Anna Albrecht",
    "Bert Brandt",
    "Cleo Christiansen-Oberhausen",
    "Dora Dietz",
    "Emil Engel",
    "Fritz Fuchs",
    "Gina Graf",
    "Hugo Hahn",
    "Ida Imhof",
    "Jörg Jäger",
    "Karla Köhler",
    "Lutz Lange",
    "Mia Müller",
    "Nils Neumann",
    "Olga Öztürk",
    "Paul Peters",
    "Quirin Quast",  # the 17th: on the waitlist
]
WORDS = {
    "en": {
        "round": "Round {n}",
        "final": "Final table",
        "in": "Check in",
        "waitlist": "waitlist 1",
    },
    "de": {
        "round": "Runde {n}",
        "final": "Finaltisch",
        "in": "Einchecken",
        "waitlist": "Warteliste 1",
    },
}


def context_for(chromium, live_server, user=None, *, lang="en", **size):
    viewport = size or PHONE
    context = chromium.new_context(
        viewport=viewport,
        locale=LANGUAGES[lang],
        base_url=live_server.url,
        is_mobile=viewport["width"] < 500,
    )
    if user is not None:
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME]
        context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page, errors


def fits(page) -> None:
    report = page.evaluate(WIDTH_REPORT, PHONE["width"])
    assert report["page"] <= PHONE["width"] and not report["wide"], report


def clean(page, axe) -> None:
    assert not violations(page, axe), "axe: serious or critical violations"


def seats_of(fixture):
    return list(fixture.seats.select_related("entry__player").order_by("position"))


class Day:
    def __init__(self, chromium, live_server, axe, lang):
        self.chromium, self.server, self.axe, self.lang = chromium, live_server, axe, lang
        self.words = WORDS[lang]
        self.org = make_user(f"olga_{lang}")
        self.league = league_create(
            owner=self.org,
            name=f"Championship {lang.upper()}",
            format="open",
            games_planned=3,
            points_scheme=[5, 3, 1, 0],
            time_limit_minutes=30,
        )
        champ.league_set_registration(
            league=self.league, by=self.org, capacity=16, checkin_deadline=None
        )
        self.tokens = {}
        for name in NAMES:
            self.add(name)
        self.errors: list[str] = []
        self.desk, self.desk_page, errors = context_for(chromium, live_server, self.org, lang=lang)
        self.errors_lists = [errors]

    def add(self, name):
        entry = accountless_player_create(league=self.league, by=self.org, name=name)
        self.tokens[entry.pk] = result_link_create(entry=entry, by=self.org)[1]
        return entry

    def refresh(self):
        self.league = League.objects.get(pk=self.league.pk)
        return self.league

    def phone(self, entry_id):
        """A player's phone: it opened the player's private link."""
        context, page, errors = context_for(self.chromium, self.server, lang=self.lang)
        self.errors_lists.append(errors)
        page.goto(f"/r/{self.tokens[entry_id]}/")
        return context, page

    def action(self, what):
        """The organizer presses the league page's next-step button (draw, final table)."""
        page = self.desk_page
        page.goto(f"/leagues/{self.league.slug}/")
        with page.expect_navigation():
            page.locator(f"form[action$='/actions/{what}/'] button").first.click()

    def roll_off_the_cut(self):
        """Players tied for the final table's last place roll first (recorded by the desk)."""
        from tournaments.selectors.open_tournaments import final_table_cut_tie
        from tournaments.services.tie_breaks import tie_break_roll_record

        tied = final_table_cut_tie(self.refresh())
        if tied:
            head, rest = tied[:5], tied[5:]
            rolls = [{**{n: 6 - i for i, n in enumerate(head)}, **{n: 1 for n in rest}}]
            if len(rest) > 1:
                rolls.append({n: 6 - i for i, n in enumerate(rest)})
            tie_break_roll_record(league=self.league, by=self.org, rolls=rolls)
        assert not final_table_cut_tie(self.refresh())

    def results_by_desk(self, number, skip=()):
        for table in self.refresh().fixtures.filter(round=number).exclude(number__in=skip):
            order = [s.entry_id for s in seats_of(table)]
            result_enter(fixture=table, by=self.org, placings=order, reason="score sheet")


def wait_for_text(page, text, timeout=5000):
    page.wait_for_function(
        "(t) => document.querySelector('.pj-head').textContent.includes(t)",
        arg=text,
        timeout=timeout,
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_whole_championship_day(chromium, live_server, transactional_db, axe_source, lang):  # noqa: F811
    day = Day(chromium, live_server, axe_source, lang)
    league, desk = day.league, day.desk_page
    quirin = Entry.objects.get(league=league, player__name="Quirin Quast")
    assert quirin.state == "waitlisted"

    # the desk: registration (16 places, one waiting), then check-in opens
    desk.goto(f"/leagues/{league.slug}/desk/registration/")
    # teams and a category, pasted from a spreadsheet (tab-separated columns)
    lines = [
        f"{name}\t{'TV Kassel' if i % 2 else 'SG Mainz'}\t{'youth' if i < 4 else ''}"
        for i, name in enumerate(NAMES[:8])
    ]
    desk.locator("#reg-text").fill("\n".join(lines))
    with desk.expect_navigation():
        desk.locator("input[name=action][value=teams] ~ p button").click()
    assert Entry.objects.filter(league=league, team="TV Kassel").count() == 4
    fits(desk)
    clean(desk, axe_source)
    screenshot(desk, f"championship-day-registration-{lang}")
    desk.goto(f"/leagues/{league.slug}/desk/check-in/")
    with desk.expect_navigation():
        desk.locator("input[name=action][value=open] + button").click()
    playing = list(league.entries.playing().order_by("pk"))
    for entry in playing[1:]:
        champ.entry_check_in(entry=entry, by=day.org)
    # the last one at the desk: the scanner types the badge's code and presses Enter
    desk.locator("#checkin-q").focus()
    desk.keyboard.type(champ_reads.checkin_code(playing[0]))
    with desk.expect_navigation():
        desk.keyboard.press("Enter")
    desk.get_by_role("button", name=f"{day.words['in']} {playing[0].player.name}").press("Enter")
    desk.wait_for_function("() => document.querySelector('[data-count=in]').textContent === '16'")
    desk.goto(f"/leagues/{league.slug}/desk/check-in/?q=Quirin")
    assert day.words["waitlist"] in desk.locator(".ck").first.inner_text()
    fits(desk)
    clean(desk, axe_source)
    screenshot(desk, f"championship-day-checkin-{lang}")

    # the projector on the wall from the start
    wall, projector, wall_errors = context_for(
        chromium, live_server, lang=lang, width=1920, height=1080
    )
    day.errors_lists.append(wall_errors)
    projector.goto(f"/leagues/{league.slug}/projector/")

    # round 1: drawn from the league page; the wall shows it within 5 s
    day.action("draw-round")
    wait_for_text(projector, day.words["round"].format(n=1))
    # the desk starts the round clock; the wall counts it down
    desk.goto(f"/leagues/{league.slug}/desk/tables/")
    with desk.expect_navigation():
        desk.locator("button[name=clock][value=start]").click()
    projector.wait_for_selector(".pj-clock [data-ends]", state="attached", timeout=5000)
    clean(projector, axe_source)
    screenshot(projector, f"championship-day-projector-round1-{lang}")
    assert quirin.pk not in set(
        Fixture.objects.filter(league=league, round=1).values_list("seats__entry", flat=True)
    )
    # table 1 from two phones; table 2 calls the referee, the desk clears it
    t1 = league.fixtures.get(round=1, number=1)
    s1 = seats_of(t1)
    ctx, phone = day.phone(s1[0].entry_id)
    phone.goto(f"/tables/{t1.pk}/")
    fits(phone)
    clean(phone, axe_source)
    for place, seat in enumerate(s1, start=1):
        phone.locator(f"#id_place_{seat.entry_id}").fill(str(place))
    with phone.expect_navigation():
        phone.keyboard.press("Enter")
    ctx.close()
    ctx, phone = day.phone(s1[1].entry_id)
    phone.goto(f"/tables/{t1.pk}/")
    screenshot(phone, f"championship-day-table-confirm-{lang}")
    with phone.expect_navigation():
        phone.locator("form:has(input[name=do][value=confirm]) button").click()
    ctx.close()
    assert Fixture.objects.get(pk=t1.pk).status == "confirmed"
    t2 = league.fixtures.get(round=1, number=2)
    ctx, phone = day.phone(seats_of(t2)[0].entry_id)
    phone.goto(f"/tables/{t2.pk}/")
    with phone.expect_navigation():
        phone.locator("form.referee button").click()
    ctx.close()
    desk.goto(f"/leagues/{league.slug}/desk/tables/")
    assert desk.locator(".table-state-referee").count() == 1
    fits(desk)
    clean(desk, axe_source)
    # the referee at table 2: the desk pauses the clock, and resumes it after
    with desk.expect_navigation():
        desk.locator("button[name=clock][value=pause]").click()
    assert day.refresh().open_rounds.get(number=1).clock_left_seconds is not None
    screenshot(desk, f"championship-day-desk-referee-{lang}")
    desk.goto(f"/tables/{t2.pk}/")
    with desk.expect_navigation():
        desk.locator("input[name=do][value=referee-clear] + button").click()
    assert Fixture.objects.get(pk=t2.pk).referee_called_at is None
    desk.goto(f"/leagues/{league.slug}/desk/tables/")
    with desk.expect_navigation():
        desk.locator("button[name=clock][value=resume]").click()
    assert day.refresh().open_rounds.get(number=1).clock_ends_at is not None
    day.results_by_desk(1, skip=[1])

    # a withdrawal between rounds: the waiting player moves up and is checked in at the desk
    leaver = s1[3].entry
    entry_withdraw(entry=Entry.objects.get(pk=leaver.pk), by=day.org)
    quirin.refresh_from_db()
    assert quirin.state == "accepted" and quirin.joined_round == 2
    desk.goto(f"/leagues/{league.slug}/desk/check-in/?q=Quirin")
    desk.get_by_role("button", name=f"{day.words['in']} Quirin Quast").click()
    desk.wait_for_function("() => document.querySelector('[data-count=in]').textContent === '16'")

    # round 2: table 1 runs out of time and is placed by count points
    day.action("draw-round")
    wait_for_text(projector, day.words["round"].format(n=2))
    t1 = day.refresh().fixtures.get(round=2, number=1)
    s1 = seats_of(t1)
    round2 = Fixture.objects.filter(league=league, round=2).values_list("seats__entry", flat=True)
    assert leaver.pk not in set(round2) and quirin.pk in set(round2)
    points = [212, 187, 95, 40][: len(s1)]
    ctx, phone = day.phone(s1[2].entry_id)
    phone.goto(f"/tables/{t1.pk}/")
    for seat, p in zip(s1, reversed(points), strict=False):  # the third seat counts most
        phone.locator(f"#id_points_{seat.entry_id}").fill(str(p))
    fits(phone)
    clean(phone, axe_source)
    screenshot(phone, f"championship-day-count-points-{lang}")
    phone.locator(f"#id_points_{s1[-1].entry_id}").focus()
    with phone.expect_navigation():
        phone.keyboard.press("Enter")
    ctx.close()
    ctx, phone = day.phone(s1[0].entry_id)
    phone.goto(f"/tables/{t1.pk}/")
    with phone.expect_navigation():
        phone.locator("form:has(input[name=do][value=confirm]) button").click()
    ctx.close()
    counted = Result.objects.get(fixture=t1, state="confirmed")
    assert counted.placings[0] == s1[len(s1) - 1].entry_id  # 212 points placed first
    day.results_by_desk(2, skip=[1])

    # a late entry after round 2 plays from round 3: the desk makes a 17th place first
    desk.goto(f"/leagues/{league.slug}/desk/registration/")
    desk.locator("#reg-capacity").fill("17")
    with desk.expect_navigation():
        desk.locator("#reg-capacity").press("Enter")
    assert day.refresh().capacity == 17
    late = day.add("Lena Spät")
    assert late.joined_round == 3
    desk.goto(f"/leagues/{league.slug}/desk/check-in/?q=Lena")
    desk.get_by_role("button", name=f"{day.words['in']} Lena Spät").click()
    desk.wait_for_function("() => document.querySelector('[data-count=in]').textContent === '17'")
    fits(desk)
    screenshot(desk, f"championship-day-late-entry-{lang}")
    day.action("draw-round")
    wait_for_text(projector, day.words["round"].format(n=3))
    round3 = set(
        Fixture.objects.filter(league=league, round=3).values_list("seats__entry", flat=True)
    )
    assert late.pk in round3 and len(round3) == 17
    day.results_by_desk(3)
    day.roll_off_the_cut()

    # the final table: the best four checked in; two finalists' phones enter and confirm
    day.action("final-table")
    wait_for_text(projector, day.words["final"])
    final = day.refresh().fixtures.get(stage="final")
    fs = seats_of(final)
    before = projector.get_attribute("#main", "data-etag")
    for i, seat in enumerate(fs[:2]):
        ctx, phone = day.phone(seat.entry_id)
        phone.goto(f"/tables/{final.pk}/")
        if i == 0:
            for place, s in enumerate(fs, start=1):
                phone.locator(f"#id_place_{s.entry_id}").fill(str(place))
            with phone.expect_navigation():
                phone.keyboard.press("Enter")
        else:
            with phone.expect_navigation():
                phone.locator("form:has(input[name=do][value=confirm]) button").click()
        ctx.close()
    ranking = open_final_ranking(day.refresh())
    assert ranking is not None and ranking[0] == fs[0].entry_id
    projector.wait_for_function(
        "(old) => document.querySelector('#main').dataset.etag !== old", arg=before, timeout=5000
    )
    projector.evaluate(
        """() => document.querySelectorAll('.pj-panel')
        .forEach(p => p.classList.toggle('is-shown', p.dataset.panel === 'standings'))"""
    )
    clean(projector, axe_source)
    screenshot(projector, f"championship-day-projector-standings-{lang}")
    wall.close()
    desk.goto(f"/leagues/{league.slug}/classification/")
    fits(desk)
    clean(desk, axe_source)
    champion = fs[0].entry.player.name
    assert champion in desk.locator("#class-players ~ div tbody tr").first.inner_text()
    teams = desk.locator("#class-teams ~ div tbody tr").all_inner_texts()
    assert len(teams) == 2 and {"TV Kassel", "SG Mainz"} <= {t.split("\t")[1] for t in teams}
    screenshot(desk, f"championship-day-classification-{lang}")
    desk.goto(f"/leagues/{league.slug}/classification/?category=youth")
    assert desk.locator("#class-players ~ div tbody tr").count() == 4
    fits(desk)
    screenshot(desk, f"championship-day-classification-youth-{lang}")
    day.desk.close()
    assert not [e for errors in day.errors_lists for e in errors]

"""Adding a book from the page, in Debian's chromium driven by Playwright, against the real system.

The house starts empty: the page says so and opens "Add a book"; the listener picks an .m4b
(the sample story spoken by espeak-ng) and its e-book, the page sends both, follows the job to
"Ready." and opens the book, which plays the recording sent. Nothing here asserts a timing.
"""

import asyncio
import json
import re
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

import pytest
from bedside_audiobooks import need_espeak, sample_chapters, speak_book, write_audiobook
from bedside_disks import small_disk
from bedside_ingest.sample import SAMPLE_TEXT
from bedside_lan_testing import chromium, need_chromium
from bedside_runtime.nats_server import free_port
from bedside_testing import RunningSystem, add_listener, start_test_nats
from playwright.sync_api import Browser, Dialog, Locator, Page, Route, expect, sync_playwright

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(600)]

TITLE = "The Lantern at Gull Point"
WAIT_MS = 20_000
JOB_MS = 240_000


@pytest.fixture(scope="module")
def empty_house() -> Iterator[RunningSystem]:
    """A bus of its own: search serves every book of the bus it is on, and the session's has many."""
    need_chromium()
    need_espeak()
    bus = start_test_nats("adding")
    system = RunningSystem(
        bus.url, Path(tempfile.mkdtemp(prefix="bedside-data-")), ("ingest", "search", "player"), free_port()
    )
    try:
        system.start(timeout_s=300)
        yield system
    finally:
        system.stop()
        bus.stop()


@pytest.fixture(scope="module")
def browser(empty_house: RunningSystem) -> Iterator[Browser]:
    with sync_playwright() as playwright, chromium(playwright) as launched:
        yield launched


JOBS = "localStorage.getItem('bedside.adding.jobs')"
"""The jobs this browser follows, as its pages keep them."""

NEWS = """
window.said = [];
document.addEventListener("DOMContentLoaded", () => new MutationObserver((changes) => {
  for (const change of changes) for (const node of change.addedNodes) window.said.push(node.textContent);
}).observe(document.getElementById("add-said"), { childList: true }));
"""
"""Every piece of news about a job the page put in its live region, in order (``window.said``)."""


def page_url(system: RunningSystem, name: str, query: str = "") -> str:
    with ThreadPoolExecutor(1) as thread:  # Playwright's own loop runs in this one
        token = thread.submit(asyncio.run, add_listener(system.nats_url, name)).result()
    return f"{system.http_url}/?device=phone{query}#token={token}&listener={name}"


def signed_in_page(browser: Browser, system: RunningSystem, name: str, query: str = "") -> Page:
    context = browser.new_context(viewport={"width": 412, "height": 915})
    context.add_init_script(NEWS)
    page = context.new_page()
    page.goto(page_url(system, name, query))
    return page


def job_line(page: Page, name: str) -> Locator:
    """The line of the job adding the file ``name``."""
    return page.locator("#add-jobs li", has=page.locator(".add-job-name", has_text=name))


def job_said(line: Locator) -> Locator:
    return line.locator(".add-job-status")


def open_adding(page: Page) -> None:
    """The section "Add a book" shown (it opens by itself only with no book in the house), then opened."""
    expect(page.locator("#add")).to_be_visible(timeout=WAIT_MS)
    page.evaluate("document.getElementById('add').open = true")


def reload_on_its_book(page: Page) -> None:
    """Reloaded with the book it has open asked for: plainly reloaded, the page of a listener who has
    played nothing opens the first book listed, which can be the one just added."""
    audio = page.evaluate("new URL(document.getElementById('audio').src).pathname")
    book = unquote(audio.split("/")[3])  # /api/books/{book}/audio
    url = urlsplit(page.url)
    query = [(key, value) for key, value in parse_qsl(url.query) if key != "book"] + [("book", book)]
    page.goto(urlunsplit(url._replace(query=urlencode(query))))


def short_book(tmp_path: Path, filename: str, title: str | None = None) -> Path:
    speech = speak_book(sample_chapters(chapters=1, sentences=1))
    return write_audiobook(tmp_path / filename, speech, tags={"title": title} if title else None)


def test_a_listener_adds_their_audiobook_from_the_page_and_plays_it(
    empty_house: RunningSystem, browser: Browser, tmp_path: Path
) -> None:
    speech = speak_book(sample_chapters(chapters=2, sentences=2))
    recording = write_audiobook(tmp_path / f"{TITLE}.m4b", speech, tags={"title": TITLE})
    ebook = tmp_path / "lantern.txt"
    ebook.write_bytes(SAMPLE_TEXT.read_bytes())
    errors: list[str] = []

    page = signed_in_page(browser, empty_house, "page-adder")
    page.on("pageerror", lambda error: errors.append(str(error)))
    expect(page.locator("#notice")).to_have_text(
        re.compile("there is no book yet: add one below"), timeout=WAIT_MS
    )
    adding = page.locator("#add")
    expect(adding).to_have_attribute("open", "", timeout=WAIT_MS)  # opened for them

    page.get_by_label("The audiobook").set_input_files(recording)
    page.get_by_label("Its e-book").set_input_files(ebook)
    page.get_by_role("button", name="Add the book").click()
    expect(job_said(job_line(page, f"{TITLE}.m4b"))).to_have_text("Ready.", timeout=JOB_MS)
    assert page.evaluate(JOBS)  # offered until opened

    page.get_by_role("link", name="Open it").click()
    expect(page.locator("main")).to_have_attribute("data-ready", "true", timeout=WAIT_MS)
    expect(page.locator("#book-title")).to_have_text(TITLE)
    served = page.evaluate(
        "fetch(document.getElementById('audio').src).then(r => r.arrayBuffer()).then(b => b.byteLength)"
    )
    assert served == recording.stat().st_size
    expect(page.locator("#add")).not_to_have_attribute("open", "")  # a house with a book keeps it shut
    assert page.evaluate(JOBS) is None
    page.context.close()
    assert not errors, errors


def test_a_page_reloaded_while_a_book_is_made_says_how_it_ended(
    empty_house: RunningSystem, browser: Browser, tmp_path: Path
) -> None:
    page = signed_in_page(browser, empty_house, "page-reloader")
    expect(page.locator("main")).to_have_attribute("data-ready", "true", timeout=WAIT_MS)  # a book is here
    page.get_by_text("Add a book").click()
    page.get_by_label("The audiobook").set_input_files(
        write_audiobook(tmp_path / "Short.m4b", speak_book(sample_chapters(chapters=1, sentences=1)))
    )
    page.get_by_role("button", name="Add the book").click()
    started = re.compile("^(Waiting|Reading|Transcribing|Ready)")  # the job is started: the page knows it
    expect(job_said(job_line(page, "Short.m4b"))).to_have_text(started, timeout=WAIT_MS)
    reload_on_its_book(page)  # midway or after: either way the page goes on from what this browser kept
    expect(page.locator("#add")).to_have_attribute("open", "", timeout=WAIT_MS)
    expect(job_said(job_line(page, "Short.m4b"))).to_have_text("Ready.", timeout=JOB_MS)
    # offered once search serves it, at the page's next ask after "Ready."; CI's load took it past 5 s
    expect(page.get_by_role("link", name="Open it")).to_be_visible(timeout=WAIT_MS)
    page.context.close()


def test_a_page_that_loses_bedside_while_a_book_is_made_follows_it_again(
    empty_house: RunningSystem, browser: Browser, tmp_path: Path
) -> None:
    """An ingest review: `bedside up` restarted while the page followed a book; the page said "It
    could not be added: Failed to fetch." and offered to add it again while ingest went on and made it."""
    page = signed_in_page(browser, empty_house, "page-link-lost")
    expect(page.locator("main")).to_have_attribute("data-ready", "true", timeout=WAIT_MS)  # a book is here
    page.get_by_text("Add a book").click()
    page.get_by_label("The audiobook").set_input_files(
        write_audiobook(tmp_path / "Lost Link.m4b", speak_book(sample_chapters(chapters=1, sentences=1)))
    )
    job_status = re.compile(r".*/api/books/added/[^/]+$")
    page.route(job_status, lambda route: route.abort())  # Bedside gone, while the job was asked for
    page.get_by_role("button", name="Add the book").click()
    status = job_said(job_line(page, "Lost Link.m4b"))
    expect(status).to_have_text(re.compile("could not be reached"), timeout=WAIT_MS)
    page.unroute(job_status)
    expect(status).to_have_text("Ready.", timeout=JOB_MS)
    expect(page.locator("#add-jobs li")).to_have_count(1)  # not offered twice
    page.context.close()


def test_a_page_reloaded_before_ingest_answered_gets_the_book_it_asked_for(
    empty_house: RunningSystem, browser: Browser, tmp_path: Path
) -> None:
    """The ask reaches ingest, which starts the job, but its answer never reaches the page: the
    page is reloaded first. The reloaded page asks again with the same upload and follows that
    job (before, it knew of no job: the book was made and the page said nothing of it)."""
    page = signed_in_page(browser, empty_house, "early-reloader")
    expect(page.locator("main")).to_have_attribute("data-ready", "true", timeout=WAIT_MS)
    held: list[Route] = []

    def hold(route: Route) -> None:  # Playwright takes no bound builtin here
        held.append(route)

    page.route("**/api/books/added", hold)
    page.get_by_text("Add a book").click()
    page.get_by_label("The audiobook").set_input_files(
        write_audiobook(tmp_path / "Early.m4b", speak_book(sample_chapters(chapters=1, sentences=1)))
    )
    page.get_by_role("button", name="Add the book").click()
    wait_for(page, held, "the page did not ask for the book")
    answered = held[0].fetch()  # to ingest and back, but not to the page
    assert answered.status == 202, answered.text()
    first_job = answered.json()["job"]
    reload_on_its_book(page)  # the held ask goes with the page that made it
    waited = 0
    while len(held) < 2:  # the reloaded page asks again
        assert waited < WAIT_MS, "the reloaded page did not ask again for the book"
        page.wait_for_timeout(50)
        waited += 50
    held[1].continue_()
    page.unroute("**/api/books/added")
    expect(page.locator("#add")).to_have_attribute("open", "", timeout=WAIT_MS)
    expect(job_said(job_line(page, "Early.m4b"))).to_have_text("Ready.", timeout=JOB_MS)
    assert [entry["job"] for entry in json.loads(page.evaluate(JOBS))] == [first_job]
    assert page.evaluate("localStorage.getItem('bedside.adding.asking')") is None
    page.context.close()


def test_a_book_there_is_no_room_for_is_refused_before_it_is_sent(browser: Browser, tmp_path: Path) -> None:
    """Ingest's disk is 4 MiB; the recording is 8.4 MB. The page asks by size first, says so with
    both sizes, and sends none of it. A house of its own: its uploads folder is mounted over."""
    recording = tmp_path / "Long.mp3"
    recording.write_bytes(bytes(8_400_000))
    bus = start_test_nats("no-room")
    house = RunningSystem(
        bus.url, Path(tempfile.mkdtemp(prefix="bedside-data-")), ("ingest", "search", "player"), free_port()
    )
    try:
        with ThreadPoolExecutor(1) as thread:  # Playwright's own loop runs in this one
            thread.submit(house.start, 300).result()
        with small_disk(house.data_dir / "uploads", 4):
            page = signed_in_page(browser, house, "no-room")
            sent: list[str] = []
            page.on("request", lambda request: sent.append(request.url))
            expect(page.locator("#add")).to_have_attribute("open", "", timeout=WAIT_MS)  # no book yet
            page.get_by_label("The audiobook").set_input_files(recording)
            page.get_by_role("button", name="Add the book").press("Enter")
            expect(page.locator("#add-status")).to_have_text(
                re.compile(
                    r"^It could not be added: there is not room for the recording where Bedside keeps its"
                    r" books: it is 8\.4 MB and \d\.\d MB is free there\.$"
                ),
                timeout=WAIT_MS,
            )
            expect(page.get_by_role("button", name="Add the book")).to_be_enabled()
            # turned off while it was asked, the button dropped the keyboard's focus to the page
            assert page.evaluate("document.activeElement !== document.body")
            assert not [url for url in sent if "/api/uploads?" in url]
            page.context.close()
    finally:
        house.stop()
        bus.stop()


def test_a_refusal_goes_once_another_file_is_chosen(
    browser: Browser, empty_house: RunningSystem, tmp_path: Path
) -> None:
    """A page session: after an empty file was refused, choosing a good one still said it could not be
    added until "Add the book" was pressed."""
    empty, another = tmp_path / "Empty.m4b", tmp_path / "Another.m4b"
    empty.write_bytes(b"")
    another.write_bytes(bytes(1_000))
    page = signed_in_page(browser, empty_house, "chooses-again")
    open_adding(page)
    page.get_by_label("The audiobook").set_input_files(empty)
    page.get_by_role("button", name="Add the book").click()
    status = page.locator("#add-status")
    expect(status).to_contain_text("could not be added", timeout=WAIT_MS)
    page.get_by_label("The audiobook").set_input_files(another)
    expect(status).to_have_text("")
    page.context.close()


def test_a_page_reloaded_while_a_file_is_sent_says_it_was_not_added(
    empty_house: RunningSystem, browser: Browser, tmp_path: Path
) -> None:
    """A listener's session: the page was reloaded while the recording was still being sent. The
    browser let it go without a word, and the page came back with an empty form and nothing said,
    as though the book were on its way; nothing of it was kept. Now leaving asks first, and the page
    that comes back says which file was not added and what to do."""
    page = signed_in_page(browser, empty_house, "reloads-while-sending")
    expect(page.locator("#add")).to_be_visible(timeout=WAIT_MS)
    held: list[Route] = []

    def hold(route: Route) -> None:  # the upload never ends: a slow network, a large file
        held.append(route)

    page.route(re.compile(r".*/api/uploads\?filename=.*"), hold)
    asked: list[str] = []

    def leave(dialog: Dialog) -> None:
        asked.append(dialog.type)
        dialog.accept()

    page.on("dialog", leave)
    page.evaluate("document.getElementById('add').open = true")
    page.get_by_label("The audiobook").set_input_files(
        write_audiobook(
            tmp_path / "Nocturne für Anna.m4b", speak_book(sample_chapters(chapters=1, sentences=1))
        )
    )
    page.get_by_role("button", name="Add the book").click()
    wait_for(page, held, "the recording was not sent")
    page.reload()
    assert asked == ["beforeunload"]  # the browser asked before it let the file go
    expect(page.locator("#add")).to_have_attribute("open", "", timeout=WAIT_MS)
    expect(page.locator("#add-status")).to_have_text(
        "“Nocturne für Anna.m4b” was not added: the page was left while it was being sent, and nothing"
        " of it was kept. Choose it again and press “Add the book”.",
        timeout=WAIT_MS,
    )
    expect(page.get_by_role("button", name="Add the book")).to_be_enabled()
    assert page.evaluate("sessionStorage.getItem('bedside.adding.sending')") is None  # said once
    page.context.close()


def test_a_listener_stops_adding_the_wrong_book_from_the_page(
    empty_house: RunningSystem, browser: Browser, tmp_path: Path
) -> None:
    """A listener's session: the wrong recording was picked (part two, not part one). Nothing on the
    page stopped it: the file went on being sent, then transcribed, with "Add the book" off until it
    was made, which for a long book is most of an hour. Now "Stop adding this book" stops it while it
    is sent (nothing is kept) and while it is transcribed (ingest's job is cancelled)."""
    page = signed_in_page(browser, empty_house, "stops-adding")
    open_adding(page)
    stop = page.get_by_role("button", name="Stop adding this book", exact=True)
    add = page.get_by_role("button", name="Add the book")
    status = page.locator("#add-status")
    expect(stop).to_be_hidden()

    held: list[Route] = []

    def hold(route: Route) -> None:  # still being sent: a slow network, a large file
        held.append(route)

    uploads = re.compile(r".*/api/uploads\?filename=.*")
    page.route(uploads, hold)
    page.get_by_label("The audiobook").set_input_files(
        write_audiobook(tmp_path / "Part Two.m4b", speak_book(sample_chapters(chapters=4, sentences=3)))
    )
    add.click()
    wait_for(page, held, "the recording was not sent")
    stop.click()
    expect(status).to_have_text("Stopped: nothing of it was kept.", timeout=WAIT_MS)
    expect(add).to_be_enabled()
    expect(stop).to_be_hidden()
    assert page.evaluate("sessionStorage.getItem('bedside.adding.sending')") is None
    page.unroute(uploads)

    add.click()  # sent whole this time, and stopped while it is made
    line = job_line(page, "Part Two.m4b")
    expect(job_said(line)).to_have_text(re.compile("^(Waiting|Reading|Transcribing)"), timeout=WAIT_MS)
    line.get_by_role("button", name="Stop adding this book: Part Two.m4b").click()
    expect(job_said(line)).to_have_text(
        re.compile(r"^Stopped before it was finished(\.|; what was transcribed)"), timeout=WAIT_MS
    )
    expect(add).to_be_enabled()
    expect(stop).to_be_hidden()
    assert page.evaluate(JOBS) is None  # nothing left to follow after a reload
    page.context.close()


def test_two_tabs_that_add_a_book_each_say_each_book_as_its_own(
    empty_house: RunningSystem, browser: Browser, tmp_path: Path
) -> None:
    """A tester's session: tab 1 added book A, tab 2 then book B, and the two shared the one job this
    browser kept. Tab 1, reloaded ("Listen now" reloads it), showed B's progress as its own, and its
    "Open it" led to B; A's "Ready." was said nowhere. Now each job has a line of its own, named, on
    every page of the browser, and each one's end is said once."""
    url = page_url(empty_house, "two-tabs")
    context = browser.new_context(viewport={"width": 412, "height": 915})
    context.add_init_script(NEWS)
    first, second = context.new_page(), context.new_page()
    first.goto(url)
    second.goto(url)
    for page in (first, second):
        open_adding(page)

    first.get_by_label("The audiobook").set_input_files(
        short_book(tmp_path, "Tab One.m4b", "The Tab One Story")
    )
    first.get_by_role("button", name="Add the book").click()
    expect(job_line(first, "Tab One.m4b")).to_be_visible(timeout=WAIT_MS)
    expect(job_line(second, "Tab One.m4b")).to_be_visible(timeout=WAIT_MS)  # started in this browser
    second.get_by_label("The audiobook").set_input_files(
        short_book(tmp_path, "Tab Two.m4b", "The Tab Two Story")
    )
    second.get_by_role("button", name="Add the book").click()
    expect(job_line(second, "Tab Two.m4b")).to_be_visible(timeout=WAIT_MS)

    first.reload()
    one, two = job_line(first, "Tab One.m4b"), job_line(first, "Tab Two.m4b")
    expect(job_said(one)).to_have_text("Ready.", timeout=JOB_MS)
    expect(job_said(two)).to_have_text("Ready.", timeout=JOB_MS)
    expect(job_said(job_line(second, "Tab One.m4b"))).to_have_text("Ready.", timeout=WAIT_MS)
    expect(job_said(job_line(second, "Tab Two.m4b"))).to_have_text("Ready.", timeout=WAIT_MS)
    said = second.evaluate("window.said")  # the tab that saw both through, never reloaded
    assert said.count("Tab One.m4b: Ready.") == 1, said
    assert said.count("Tab Two.m4b: Ready.") == 1, said

    one.get_by_role("link", name="Open it").click()
    expect(first.locator("main")).to_have_attribute("data-ready", "true", timeout=WAIT_MS)
    expect(first.locator("#book-title")).to_have_text("The Tab One Story")
    expect(job_line(first, "Tab One.m4b")).to_have_count(0)  # opened: offered no more
    expect(job_said(job_line(first, "Tab Two.m4b"))).to_have_text("Ready.", timeout=WAIT_MS)  # still offered
    assert first.evaluate("window.said").count("Tab Two.m4b: Ready.") == 0  # said once, in its time
    first.context.close()


def test_a_second_book_is_added_while_the_first_is_made(
    empty_house: RunningSystem, browser: Browser, tmp_path: Path
) -> None:
    """A tester's session: while one book was made, "Add the book" stayed off, though ingest queues
    jobs. Now the form is free again once ingest has the job, and each book has its own line."""
    page = signed_in_page(browser, empty_house, "adds-two")
    open_adding(page)
    add = page.get_by_role("button", name="Add the book")
    page.get_by_label("The audiobook").set_input_files(short_book(tmp_path, "First Of Two.m4b"))
    add.click()
    expect(job_said(job_line(page, "First Of Two.m4b"))).to_have_text(
        re.compile("^(Waiting|Reading|Transcribing|Ready)"), timeout=WAIT_MS
    )
    expect(add).to_be_enabled()
    expect(page.get_by_label("The audiobook")).to_have_value("")  # the form is ready for the next
    page.get_by_label("The audiobook").set_input_files(short_book(tmp_path, "Second Of Two.m4b"))
    add.click()
    for name in ("First Of Two.m4b", "Second Of Two.m4b"):
        expect(job_said(job_line(page, name))).to_have_text("Ready.", timeout=JOB_MS)
    said = page.evaluate("window.said")
    assert said.count("First Of Two.m4b: Ready.") == 1, said
    assert said.count("Second Of Two.m4b: Ready.") == 1, said
    assert len(json.loads(page.evaluate(JOBS))) == 2  # both offered until opened
    page.context.close()


def test_a_book_listened_to_while_it_is_made_is_read_again_when_it_is_ready(
    empty_house: RunningSystem, browser: Browser, tmp_path: Path
) -> None:
    """A tester's session: a book opened with "Listen now" while it was made still said "no chapter
    transcribed yet" up to 30 s after the Add panel said "Ready.": the page read the book again
    only every 30 s. Now the page that follows its job reads it again when the job ends."""
    page = signed_in_page(browser, empty_house, "listens-early")
    open_adding(page)
    speech = speak_book(sample_chapters(chapters=4, sentences=3))
    page.get_by_label("The audiobook").set_input_files(
        write_audiobook(tmp_path / "Early Bird.m4b", speech, tags={"title": "The Early Bird"})
    )
    page.get_by_role("button", name="Add the book").click()
    line = job_line(page, "Early Bird.m4b")
    line.get_by_role("link", name="Listen now").click(timeout=JOB_MS)
    expect(page.locator("main")).to_have_attribute("data-ready", "true", timeout=WAIT_MS)
    expect(page.locator("#book-title")).to_have_text("The Early Bird")
    progress = page.locator("#transcript-progress")
    expect(progress).to_be_visible()  # an interim version: its job is not done
    expect(job_said(line)).to_have_text("Ready.", timeout=JOB_MS)  # followed on, on the page opened
    expect(progress).to_be_hidden(timeout=WAIT_MS)  # patient, yet short of the 30 s of before
    assert page.evaluate(JOBS) is None  # open here: not offered
    page.context.close()


def test_a_book_added_on_another_device_is_offered_without_leaving_the_page(
    empty_house: RunningSystem, browser: Browser, tmp_path: Path
) -> None:
    """A tester's session: a book added from another device came into the picker only once the page
    was left and come back to. Now an open page asks which books there are now and then (here every
    second; a minute by default)."""
    page = signed_in_page(browser, empty_house, "sees-new-books", "&books_ms=1000")
    expect(page.locator("main")).to_have_attribute("data-ready", "true", timeout=WAIT_MS)  # a book is here
    other = signed_in_page(browser, empty_house, "other-device")
    open_adding(other)
    other.get_by_label("The audiobook").set_input_files(
        short_book(tmp_path, "From Afar.m4b", "The Book From Afar")
    )
    other.get_by_role("button", name="Add the book").click()
    expect(job_said(job_line(other, "From Afar.m4b"))).to_have_text("Ready.", timeout=JOB_MS)
    expect(page.locator("#book-pick option", has_text="The Book From Afar")).to_have_count(1, timeout=WAIT_MS)
    other.context.close()
    page.context.close()


def answering(route: str, answers: Callable[[], dict[str, object]]) -> Callable[[Route], None]:
    """A handler that answers ``route``'s job as ``answers`` says now (a job Bedside is made to tell)."""

    def answer(to: Route) -> None:
        to.fulfill(status=200, content_type="application/json", body=json.dumps({"job": route, **answers()}))

    return answer


def following(browser: Browser, system: RunningSystem, name: str, jobs: str, query: str = "") -> Page:
    """A page of a browser that follows ``jobs`` (a JS list), kept by it from before."""
    page = signed_in_page(browser, system, name, query)
    expect(page.locator("#add")).to_be_visible(timeout=WAIT_MS)
    page.evaluate(f"localStorage.setItem('bedside.adding.jobs', JSON.stringify({jobs}))")
    return page


def test_a_book_made_and_then_removed_is_said_so_and_followed_no_more(
    empty_house: RunningSystem, browser: Browser
) -> None:
    """A reviewer's reading: a book made from the page and later removed (`bedside remove`) was
    never served again, so its job, done, was asked for every 2 s forever on every page, opened "Add
    a book" by itself at each load and offered a Stop that answered 409. Now it ends, said once, after
    a bounded wait (shortened here), and is forgotten; an ended line can be dismissed; a job kept for
    months is forgotten."""
    page = following(
        browser,
        empty_house,
        "removed-since",
        "[{job: 'gone-job', name: 'Gone.m4b', told: true},"
        " {job: 'old-job', name: 'Old.m4b', told: true, at: Date.now() - 90 * 86400e3}]",
        "&unserved_ms=3000",
    )
    page.route(
        "**/api/books/added/gone-job",
        answering("gone-job", lambda: {"state": "done", "book": "gone", "served": False}),
    )
    page.route(
        "**/api/books/added/old-job", answering("old-job", lambda: {"state": "running", "book": "old"})
    )
    page.reload()
    line = job_line(page, "Gone.m4b")
    expect(job_said(line)).to_have_text("It was made, but it is no longer among the books.", timeout=WAIT_MS)
    expect(line.get_by_role("button", name="Stop adding this book: Gone.m4b")).to_be_hidden()
    expect(job_line(page, "Old.m4b")).to_have_count(0)  # its end said long ago: forgotten
    assert page.evaluate(JOBS) is None  # no page follows either again
    assert "Gone.m4b: It was made, but it is no longer among the books." in page.evaluate("window.said")
    line.get_by_role("button", name="Dismiss: Gone.m4b").click()
    expect(line).to_have_count(0)
    expect(page.locator("#add-jobs")).to_be_hidden()
    page.context.close()


def test_a_book_not_yet_known_to_play_is_not_said_gone_and_one_seen_playing_starts_its_wait_anew(
    empty_house: RunningSystem, browser: Browser
) -> None:
    """The second review's reading: the start of the wait for a book to play was kept once and never
    cleared, so a book that played, was offered and not opened was said "no longer among the books"
    the next time a page met it not yet playing (search still loading after a restart); and search
    out of reach was taken for "not playing". Out of reach is no answer; seen playing, the wait ends."""
    playing: list[bool] = []
    page = following(
        browser,
        empty_house,
        "unknown-if-served",
        "[{job: 'made-job', name: 'Made.m4b', told: true, unserved: Date.now() - 86400e3}]",
        "&unserved_ms=3000",
    )
    page.route(
        "**/api/books/added/made-job",
        answering("made-job", lambda: {"state": "done", "book": "made", "served": True if playing else None}),
    )
    page.reload()
    line = job_line(page, "Made.m4b")
    expect(job_said(line)).to_have_text("Transcribed; making it searchable…", timeout=WAIT_MS)
    page.wait_for_timeout(4_000)  # past the wait: search could not be asked, so nothing is known
    expect(job_said(line)).to_have_text("Transcribed; making it searchable…")
    playing.append(True)
    expect(job_said(line)).to_have_text(re.compile("^Ready"), timeout=WAIT_MS)
    kept = json.loads(page.evaluate(JOBS))
    assert [entry.get("unserved") for entry in kept] == [None]
    page.context.close()


def test_the_list_of_books_followed_never_drops_one_still_being_made(
    empty_house: RunningSystem, browser: Browser
) -> None:
    """The second review's reading: the cap on the jobs kept dropped the oldest, which are the one
    being made and those waiting, for books made but not opened."""
    made = ", ".join(f"{{job: 'made-{n}', name: 'Made {n}.m4b', told: true}}" for n in range(25))
    page = following(
        browser, empty_house, "many-made", f"[{{job: 'making-job', name: 'Making.m4b'}}, {made}]"
    )
    page.route("**/api/books/added/making-job", answering("making-job", lambda: {"state": "running"}))
    page.route(
        re.compile(r".*/api/books/added/made-\d+$"),
        lambda to: to.fulfill(
            status=200,
            content_type="application/json",
            body=json.dumps(
                {"job": to.request.url.rsplit("/", 1)[1], "state": "done", "book": "b", "served": True}
            ),
        ),
    )
    page.reload()
    expect(job_line(page, "Making.m4b")).to_have_count(1, timeout=WAIT_MS)
    kept = [entry["job"] for entry in json.loads(page.evaluate(JOBS))]
    assert "making-job" in kept
    assert len(kept) <= 20
    page.context.close()


def test_news_of_a_book_is_heard_while_add_a_book_is_closed(
    empty_house: RunningSystem, browser: Browser
) -> None:
    """A reviewer's reading: the live region the lines' news is said in was inside "Add a book", so
    a listener who closed it (or a tab following another tab's job) heard nothing."""
    made: list[bool] = []
    page = following(browser, empty_house, "closes-adding", "[{job: 'heard-job', name: 'Heard.m4b'}]")
    page.route(
        "**/api/books/added/heard-job",
        answering("heard-job", lambda: {"state": "running" if made else "queued", "book": "heard"}),
    )
    page.reload()
    expect(job_said(job_line(page, "Heard.m4b"))).to_have_text(re.compile("^Waiting"), timeout=WAIT_MS)
    page.locator("#add summary").click()  # closed by the listener
    expect(page.locator("#add")).not_to_have_attribute("open", "")
    said = page.locator("#add-said")
    made.append(True)
    news = said.locator("p", has_text="Heard.m4b: Reading the recording")
    expect(news).to_be_attached(timeout=WAIT_MS)
    expect(news).to_be_visible()  # in the accessibility tree: not inside the closed section
    expect(said).to_have_attribute("aria-atomic", "false")  # a paragraph added is read alone
    page.context.close()


def test_stop_stops_the_e_book_being_sent_and_the_files_being_checked(
    empty_house: RunningSystem, browser: Browser, tmp_path: Path
) -> None:
    """A reviewer's reading: Stop did nothing to the e-book's upload (the recording's end had
    forgotten the request after the e-book's began) nor to a book whose files were being checked:
    the book was sent, asked for and only then stopped."""
    page = signed_in_page(browser, empty_house, "stops-early")
    open_adding(page)
    stop = page.get_by_role("button", name="Stop adding this book", exact=True)
    add = page.get_by_role("button", name="Add the book")
    status = page.locator("#add-status")
    ebook = tmp_path / "stopped-ebook.txt"
    ebook.write_bytes(SAMPLE_TEXT.read_bytes())
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route(re.compile(r".*/api/uploads\?filename=stopped-ebook\.txt$"), hold)
    page.get_by_label("The audiobook").set_input_files(short_book(tmp_path, "Stop Ebook.m4b"))
    page.get_by_label("Its e-book").set_input_files(ebook)
    add.click()
    wait_for(page, held, "the e-book was not sent")
    stop.click()
    expect(status).to_have_text("Stopped: nothing of it was kept.", timeout=WAIT_MS)
    expect(add).to_be_enabled()
    expect(stop).to_be_hidden()
    expect(job_line(page, "Stop Ebook.m4b")).to_have_count(0)

    checks: list[Route] = []

    def hold_check(route: Route) -> None:
        checks.append(route)

    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url) if "/api/uploads?" in request.url else None)
    page.route("**/api/uploads/check", hold_check)
    page.get_by_label("The audiobook").set_input_files(short_book(tmp_path, "Stop Check.m4b"))
    add.click()
    wait_for(page, checks, "the files were not checked")
    stop.click()
    checks[0].continue_()
    expect(status).to_have_text("Stopped: nothing of it was kept.", timeout=WAIT_MS)
    expect(add).to_be_enabled()
    assert not sent  # nothing of it was sent
    expect(job_line(page, "Stop Check.m4b")).to_have_count(0)
    page.context.close()


def test_a_tab_opened_while_another_sends_a_file_does_not_say_it_was_not_added(
    empty_house: RunningSystem, browser: Browser, tmp_path: Path
) -> None:
    """A reviewer's reading: the name of the file being sent was kept for all tabs of the browser,
    so a second tab opened meanwhile said it was not added (and forgot it, so the tab that was
    sending and then reloaded said nothing)."""
    url = page_url(empty_house, "second-tab")
    context = browser.new_context(viewport={"width": 412, "height": 915})
    first = context.new_page()
    first.goto(url)
    open_adding(first)
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    first.route(re.compile(r".*/api/uploads\?filename=.*"), hold)
    first.get_by_label("The audiobook").set_input_files(short_book(tmp_path, "Still Sending.m4b"))
    first.get_by_role("button", name="Add the book").click()
    wait_for(first, held, "the recording was not sent")
    second = context.new_page()
    second.goto(url)
    expect(second.locator("#add")).to_be_visible(timeout=WAIT_MS)
    expect(second.locator("#add-status")).to_have_text("")
    first.on("dialog", lambda dialog: dialog.accept())
    first.reload()
    expect(first.locator("#add-status")).to_have_text(
        re.compile("^“Still Sending.m4b” was not added"), timeout=WAIT_MS
    )
    context.close()


def wait_for(page: Page, held: list[Route], what: str) -> None:
    """Until a request is held, or says ``what`` after a generous while."""
    waited = 0
    while not held:
        assert waited < WAIT_MS, what
        page.wait_for_timeout(50)
        waited += 50


def test_stop_is_offered_only_while_a_book_can_be_stopped_and_says_what_became_of_it(
    empty_house: RunningSystem, browser: Browser
) -> None:
    """A reviewer's reading: a book made, waiting to be served, still offered a Stop that answered
    409, which said nothing; a Stop that failed said so only on its line; the Stop pressed was turned
    off with the keyboard's focus on it."""
    ended: list[bool] = []
    page = following(
        browser,
        empty_house,
        "stops-late",
        "[{job: 'made-job', name: 'Made.m4b'}, {job: 'late-job', name: 'Late.m4b'},"
        " {job: 'stuck-job', name: 'Stuck.m4b'}]",
    )
    page.route(
        "**/api/books/added/made-job", answering("made-job", lambda: {"state": "done", "book": "made"})
    )
    late: dict[str, object] = {"state": "failed", "reason": "the recording could not be read"}
    page.route(
        "**/api/books/added/late-job",
        answering("late-job", lambda: late if ended else {"state": "running", "book": "late"}),
    )
    page.route(
        "**/api/books/added/stuck-job", answering("stuck-job", lambda: {"state": "running", "book": "x"})
    )
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route("**/api/books/added/late-job/stop", hold)
    page.route(
        "**/api/books/added/stuck-job/stop",
        lambda route: route.fulfill(
            status=503, content_type="application/json", body='{"detail": "ingest is away"}'
        ),
    )
    page.reload()
    made = job_line(page, "Made.m4b")
    expect(job_said(made)).to_have_text("Transcribed; making it searchable…", timeout=WAIT_MS)
    expect(made.get_by_role("button", name=re.compile("^Stop"))).to_be_hidden()  # made: nothing to stop

    line = job_line(page, "Late.m4b")
    stop = line.get_by_role("button", name="Stop adding this book: Late.m4b")
    expect(stop).to_be_visible(timeout=WAIT_MS)
    stop.focus()
    page.keyboard.press("Enter")
    wait_for(page, held, "the stop was not asked")
    expect(stop).to_be_disabled()
    assert page.evaluate("document.activeElement !== document.body && !document.activeElement.disabled")
    ended.append(True)  # it failed meanwhile: ingest refuses to stop it
    held[0].fulfill(status=409, content_type="application/json", body='{"detail": "the job has ended"}')
    expect(job_said(line)).to_have_text(
        "It could not be added: the recording could not be read.", timeout=WAIT_MS
    )
    expect(stop).to_be_hidden()

    page.get_by_role("button", name="Stop adding this book: Stuck.m4b").click()
    expect(
        page.locator("#add-said p", has_text="Stuck.m4b: It could not be stopped: ingest is away.")
    ).to_be_attached(timeout=WAIT_MS)
    expect(page.get_by_role("button", name="Stop adding this book: Stuck.m4b")).to_be_enabled()
    page.context.close()


def test_a_book_bedside_no_longer_knows_is_said_so_and_an_unpaired_device_is_told(
    empty_house: RunningSystem, browser: Browser
) -> None:
    """A reviewer's reading: a job ingest no longer knew (404) had its line dropped without a word,
    and any other refusal (a service restarting, the device unpaired) left a stale line asked every
    2 s."""
    page = following(
        browser,
        empty_house,
        "unknown-job",
        "[{job: 'never-made-here', name: 'Unknown.m4b'}, {job: 'unpaired-job', name: 'Unpaired.m4b'}]",
    )
    page.route(
        "**/api/books/added/unpaired-job",
        lambda route: route.fulfill(status=401, content_type="application/json", body='{"detail": "who?"}'),
    )
    page.reload()
    line = job_line(page, "Unknown.m4b")
    expect(job_said(line)).to_have_text("Bedside no longer knows this book; add it again.", timeout=WAIT_MS)
    expect(
        page.locator("#add-said p", has_text="Unknown.m4b: Bedside no longer knows this book")
    ).to_be_attached()
    unpaired = job_said(job_line(page, "Unpaired.m4b"))
    expect(unpaired).to_have_text(re.compile("no longer paired"), timeout=WAIT_MS)
    assert [entry["job"] for entry in json.loads(page.evaluate(JOBS))] == ["unpaired-job"]  # asked later
    line.get_by_role("button", name="Dismiss: Unknown.m4b").click()
    expect(line).to_have_count(0)
    page.context.close()


def test_a_book_open_here_is_not_read_again_when_its_job_fails(
    empty_house: RunningSystem, browser: Browser, tmp_path: Path
) -> None:
    """A reviewer's reading: the book open here was read again (and again) once its job ended,
    also when the job was stopped or failed, when nothing more of it is coming. Only a job done is."""
    page = signed_in_page(browser, empty_house, "reads-again")
    open_adding(page)
    page.get_by_label("The audiobook").set_input_files(short_book(tmp_path, "Read Again.m4b"))
    page.get_by_role("button", name="Add the book").click()
    line = job_line(page, "Read Again.m4b")
    expect(job_said(line)).to_have_text("Ready.", timeout=JOB_MS)
    book = line.get_by_role("link", name="Open it: Read Again.m4b").get_attribute("data-book")
    assert book
    line.get_by_role("link", name="Open it: Read Again.m4b").click()
    expect(page).to_have_url(re.compile(f".*[?&]book={book}([&#].*)?$"), timeout=WAIT_MS)  # the page for it
    expect(page.locator("main")).to_have_attribute("data-ready", "true", timeout=WAIT_MS)

    failed: list[bool] = []
    page.route(
        "**/api/books/added/again-job",
        answering(
            "again-job",
            lambda: (
                {"state": "failed", "book": book, "reason": "ingest stopped"}
                if failed
                else {"state": "running", "book": book, "served": True}
            ),
        ),
    )
    ticks: list[Route] = []

    def tick(route: Route) -> None:  # another job, asked every 2 s: the page's clock
        ticks.append(route)
        route.fulfill(
            status=200, content_type="application/json", body='{"job": "tick-job", "state": "queued"}'
        )

    page.route("**/api/books/added/tick-job", tick)
    page.evaluate(
        "localStorage.setItem('bedside.adding.jobs', JSON.stringify("
        "[{job: 'again-job', name: 'Again.m4b'}, {job: 'tick-job', name: 'Tick.m4b'}]))"
    )
    page.reload()
    again = job_said(job_line(page, "Again.m4b"))
    expect(again).to_have_text(re.compile("^Reading the recording"), timeout=WAIT_MS)
    reads: list[str] = []
    page.on(
        "request",
        lambda request: reads.append(request.url) if request.url.endswith(f"/api/books/{book}") else None,
    )
    asks_of(ticks, page, 2)  # the page opened has read the book
    reads.clear()
    failed.append(True)
    expect(again).to_have_text("It could not be added: ingest stopped.", timeout=WAIT_MS)
    asks_of(ticks, page, 3)
    assert not reads, reads
    page.context.close()


def asks_of(asked: list[Route], page: Page, more: int) -> None:
    """Until ``more`` requests more than now are in ``asked``, or fails after a generous while."""
    waited, now = 0, len(asked)
    while len(asked) < now + more:
        assert waited < WAIT_MS, "the page did not ask again"
        page.wait_for_timeout(100)
        waited += 100


def test_bedside_away_and_back_is_said_once_for_every_book_followed(
    empty_house: RunningSystem, browser: Browser
) -> None:
    """A page review's reading: with three books being made, Bedside out of reach was said three
    times in a row, once a book, and its return not at all (each line only went back to its news)."""
    page = following(
        browser,
        empty_house,
        "away-and-back",
        "[{job: 'one-job', name: 'One.m4b'}, {job: 'two-job', name: 'Two.m4b'},"
        " {job: 'three-job', name: 'Three.m4b'}]",
    )
    away = [True]

    def answer(route: Route) -> None:
        if away:
            route.abort()
        else:
            job = route.request.url.rsplit("/", 1)[-1]
            answering(job, lambda: {"state": "queued"})(route)

    page.route("**/api/books/added/*-job", answer)
    page.reload()
    for name in ("One.m4b", "Two.m4b", "Three.m4b"):
        expect(job_said(job_line(page, name))).to_have_text(
            re.compile("could not be reached"), timeout=WAIT_MS
        )
    away.clear()
    for name in ("One.m4b", "Two.m4b", "Three.m4b"):
        expect(job_said(job_line(page, name))).to_have_text(re.compile("^Waiting to start"), timeout=WAIT_MS)
    said = page.evaluate("window.said")
    assert [s for s in said if "could not be reached" in s] == [
        "Bedside could not be reached just now; the books being added go on being made, and this page"
        " will say when each is ready."
    ]
    assert [s for s in said if "answers again" in s] == ["Bedside answers again."]
    page.context.close()


def test_bedside_back_with_books_it_no_longer_knows_is_said_back(
    empty_house: RunningSystem, browser: Browser
) -> None:
    """The review's reading: an answer that Bedside knows the job no more is an answer all the same,
    but it did not end the trouble said, so "answers again" never came, nor the next outage's news."""
    page = following(browser, empty_house, "back-unknown", "[{job: 'lost-job', name: 'Lost.m4b'}]")
    away = [True]
    page.route("**/api/books/added/lost-job", lambda route: route.abort() if away else route.fallback())
    page.reload()
    line = job_line(page, "Lost.m4b")
    expect(job_said(line)).to_have_text(re.compile("could not be reached"), timeout=WAIT_MS)
    away.clear()
    expect(job_said(line)).to_have_text("Bedside no longer knows this book; add it again.", timeout=WAIT_MS)
    assert [s for s in page.evaluate("window.said") if "answers again" in s] == ["Bedside answers again."]
    page.context.close()

"""What the device page's browser tests share (``tests/browser/test_browser_device_page*.py``): the
system they run against (one for each test module), its books, a page opened as a device, helpers."""

import asyncio
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import nats
import pytest
from bedside_audiobooks import sample_chapters, silent_wav, speak_book, write_audiobook
from bedside_contracts import subjects
from bedside_contracts.ingest import BookArtifact, BookIngested
from bedside_contracts.search import TranscriptCoverage
from bedside_contracts.subjects import SERVICES
from bedside_ingest.artifact import decode_vectors, encode_vectors
from bedside_lan_testing import chromium, need_chromium
from bedside_runtime.nats_server import free_port
from bedside_testing import REPO, RunningSystem, add_listener
from playwright.sync_api import Browser, Locator, Page, Playwright, Route, expect, sync_playwright

ARTIFACTS = REPO / "test-artifacts"


BOOK_ID = "gull-point"


AUDIO_BOOK_ID = "gull-point-audio"


AUDIOBOOK_ID = "bay-m4b"


INTERIM_BOOK_ID = "bay-m4b-interim"


UNHEARD_BOOK_ID = "bay-m4b-unheard"


AUDIOBOOK_TAGS = {"title": "The Cottage by the Bay"}  # no word the covered-rows test looks for


AUDIO_SECONDS = 120


WAIT_MS = 20_000


BOOK_REMOVED = (
    "This book has been removed from Bedside. Your place in it is kept in case it is added again;"
    " choose another book above."
)


# A short book made up for these tests: four chapters, each with a scene a listener could
# ask for by description. Plain text with chapter headings; ingest estimates its timing.
BOOK_TEXT = """The Lamp at Gull Point
by A. Tester

Chapter 1
The Keeper

Orla Vance had kept the lamp at Gull Point for eleven winters. Every evening she climbed the
ninety-one iron steps, wound the clockwork that turned the great lens, trimmed the wick and
wrote the hour in the log with a pencil she sharpened on the stone sill. The village below
knew her by the light and by little else. She liked it that way. The gulls knew her better,
because she fed them the crusts of her bread on the gallery rail each morning when the lamp
went dark and the grey sea showed its teeth along the reef.

Her brother Tomas wrote from the city twice a year. His letters smelled of coal smoke and
asked the same question: when would she come home. She answered each one on the back of a
tide table, describing the weather, the ships that passed and the colour of the water, and
never once answering the question. She kept his letters in a tin that had held ship's biscuit.

Chapter 2
The Letter

In the spring a boy rowed out with the post and a sealed letter from the harbour board. The
board had bought an electric lamp, it said, and a man would come in the autumn to fit it.
The keeper's post would end at the first frost. Orla read it standing in the doorway, then
read it again sitting on the steps, then folded it into the biscuit tin with her brother's
letters. That night she wound the clockwork twice as carefully as usual and wrote nothing in
the log at all, which she had never done before in eleven winters of keeping the lamp.

The boy came back a week later with flour, lamp oil and a kitten nobody in the village wanted.
Orla named the kitten Pencil because it chewed the one she used for the log.

Chapter 3
The Storm

The storm came in October, three days before the electrician was due. It came from the south
west with a sound like a train in a tunnel. By midnight the waves were breaking over the
gallery and the old wooden pier below the rock gave way plank by plank until the sea took it
altogether. Orla kept the lamp burning through the whole night, winding the clockwork every
hour with her hands bleeding from the cold handle. At three in the morning she saw a fishing
boat with a torn sail running for the gap in the reef, and she swung the spare lantern from
the gallery so the crew could see the rocks. The boat came through. In the morning there was
no pier, no boat house and no electrician, because no boat could land.

Chapter 4
The Frost

The men from the fishing boat came up the rock with a new pier in their heads and timber on
their shoulders. They built it in nine days. On the tenth the electrician arrived, fitted his
lamp, and left. The first frost came a week after that. Orla packed the biscuit tin, the log
and the kitten, and walked down the new pier to the boat that would take her to the city and
her brother. Behind her the electric lamp came on by itself, without anybody climbing the
ninety-one steps. She did not look back until the boat was past the reef, and then she did.
"""


def write_audio_book(folder: Path) -> tuple[Path, Path]:
    """A timed transcript (WebVTT, one cue every 10 s) and a silent WAV of the same length."""
    sentences = [line.strip() for line in BOOK_TEXT.split(".") if len(line.split()) > 4]
    cues = ["WEBVTT", ""]
    for i, sentence in enumerate(sentences[: AUDIO_SECONDS // 10]):
        start, end = i * 10, i * 10 + 10
        cues += [f"00:{start // 60:02d}:{start % 60:02d}.000 --> 00:{end // 60:02d}:{end % 60:02d}.000"]
        cues += [" ".join(sentence.split()) + ".", ""]
    transcript = folder / "gull_point_audio.vtt"
    transcript.write_text("\n".join(cues))
    return transcript, silent_wav(folder / "gull_point_audio.wav", AUDIO_SECONDS)


@dataclass
class Bedside:
    system: RunningSystem
    book: str

    @property
    def url(self) -> str:
        return self.system.http_url

    def add_listener(self, name: str) -> str:
        """A new listener, made as `bedside listener add` makes one (that command's own tests run it);
        returns their token. In this process: a CLI process per test cost a second of imports."""
        with ThreadPoolExecutor(1) as thread:  # Playwright's own loop runs in this one
            return thread.submit(asyncio.run, add_listener(self.system.nats_url, name)).result()

    def state(self, listener: str, token: str, book: str | None = None) -> dict[str, Any]:
        return self._got(token, f"/api/listeners/{listener}/books/{book or self.book}/state")

    def book_info(self, token: str, book: str | None = None) -> dict[str, Any]:
        """The book as the page is told it (titles up to the listener's line)."""
        return self._got(token, f"/api/books/{book or self.book}")

    def _got(self, token: str, path: str) -> dict[str, Any]:
        response = httpx.get(f"{self.url}{path}", headers={"Authorization": f"Bearer {token}"}, timeout=10)
        response.raise_for_status()
        body: dict[str, Any] = response.json()
        return body


async def _ingest(nats_url: str, path: Path, book: str, audio: Path | None = None) -> dict[str, Any]:
    client = await nats.connect(nats_url)
    try:
        request: dict[str, str] = {"path": str(path), "book": book}
        if audio is not None:
            request["audio_path"] = str(audio)
        reply = await client.request(subjects.INGEST_BOOK, json.dumps(request).encode(), timeout=110)
        answer: dict[str, Any] = json.loads(reply.data)
        return answer
    finally:
        await client.close()


def _wait_for_book(url: str, token: str, book: str, timeout_s: float = 90) -> None:
    """Search indexes the book after ingest has stored it: wait until the player lists it."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        response = httpx.get(f"{url}/api/books/{book}", headers={"Authorization": f"Bearer {token}"})
        if response.status_code == 200:
            return
        time.sleep(0.5)
    raise AssertionError(f"the book {book} never became available: {response.status_code} {response.text}")


@pytest.fixture(scope="module")
def bedside(nats_url: str) -> Iterator[Bedside]:
    need_chromium()

    # start_system's steps, kept apart so that the processes stop even if the start times out.
    system = RunningSystem(nats_url, Path(tempfile.mkdtemp(prefix="bedside-data-")), SERVICES, free_port())
    try:
        system.start(timeout_s=300)
        folder = Path(tempfile.mkdtemp(prefix="bedside-page-book-"))
        source = folder / "gull_point.txt"
        source.write_text(BOOK_TEXT)
        report = asyncio.run(_ingest(nats_url, source, BOOK_ID))
        assert report.get("ok") is not False, report
        transcript, audio = write_audio_book(folder)
        report = asyncio.run(_ingest(nats_url, transcript, AUDIO_BOOK_ID, audio))
        assert report.get("ok") is not False, report
        running = Bedside(system, BOOK_ID)
        probe = running.add_listener("page-probe")
        if shutil.which("espeak-ng"):
            # An audiobook as a listener has it: an m4b with chapter markers, transcribed by ingest.
            spoken = speak_book(sample_chapters(3, 3))
            m4b = write_audiobook(folder / "bay.m4b", spoken, tags=AUDIOBOOK_TAGS)
            report = asyncio.run(_ingest(nats_url, m4b, AUDIOBOOK_ID))
            assert report.get("ok") is not False, report
            _wait_for_book(running.url, probe, AUDIOBOOK_ID)
        _wait_for_book(running.url, probe, BOOK_ID)
        _wait_for_book(running.url, probe, AUDIO_BOOK_ID)
        yield running
    finally:
        system.stop()


@pytest.fixture(scope="module")
def browser(bedside: Bedside) -> Iterator[Browser]:
    playwright: Playwright = sync_playwright().start()
    try:
        with chromium(playwright) as launched:
            yield launched
    finally:
        playwright.stop()


@dataclass
class Listener:
    name: str
    token: str


OpenPage = Callable[..., Page]


@pytest.fixture
def listener(bedside: Bedside, request: pytest.FixtureRequest) -> Listener:
    name = re.sub(r"[^A-Za-z0-9_-]", "-", request.node.name)[:48] + f"-{int(time.time() * 1000) % 100000}"
    return Listener(name, bedside.add_listener(name))


@pytest.fixture
def open_page(
    bedside: Bedside, browser: Browser, listener: Listener, request: pytest.FixtureRequest
) -> Iterator[OpenPage]:
    """Open the device page as a new device (its own browser context); screenshots on failure."""
    opened: list[tuple[str, Page]] = []
    errors: list[str] = []

    def open_(
        device: str,
        *,
        extra: str = "",
        block_events: bool = False,
        book: str | None = bedside.book,  # None: the page picks the book itself
        token: str = listener.token,
        ready: bool = True,
        before_opening: Callable[[Page], None] | None = None,
    ) -> Page:
        context = browser.new_context(viewport={"width": 412, "height": 915})
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(f"{device}: {error}"))
        if block_events:
            # A device that hears no pushes: it learns of moves only when it talks to the server.
            page.route(re.compile(r".*/events(\?.*)?$"), lambda route: route.abort())
        if before_opening is not None:
            before_opening(page)
        chosen = f"book={book}&" if book is not None else ""
        page.goto(f"{bedside.url}/?{chosen}device={device}{extra}#token={token}&listener={listener.name}")
        opened.append((device, page))
        if ready:
            expect(page.locator("main")).to_have_attribute("data-ready", "true", timeout=WAIT_MS)
        return page

    yield open_
    reports = [getattr(request.node, f"rep_{phase}", None) for phase in ("setup", "call")]
    if any(report is not None and report.failed for report in reports):
        ARTIFACTS.mkdir(exist_ok=True)
        for device, page in opened:
            if page.is_closed():  # a device the test put away
                continue
            page.screenshot(path=str(ARTIFACTS / f"{request.node.name}-{device}.png"), full_page=True)
    for _, page in opened:
        if not page.is_closed():
            # A route handler still answering a request the test no longer waits for finishes
            # here, with its page open, instead of failing inside whichever test runs next.
            page.unroute_all(behavior="wait")
        page.context.close()
    assert not errors, errors


def ask(page: Page, utterance: str) -> None:
    page.get_by_label("Ask about the book or say where to go").fill(utterance)
    page.get_by_role("button", name="Ask", exact=True).click()
    expect(page.locator("#answer")).not_to_have_text(re.compile(r"^(…)?$"), timeout=WAIT_MS)


def wait_until_fetched_to(page: Page, ms: int) -> None:
    """Offline, a recording plays only as far as the browser fetched it, which under load lags (a book
    with no recording plays its clock)."""
    page.wait_for_function(
        "(ms) => { const audio = document.getElementById('audio'), got = audio.buffered;"
        " return !audio.getAttribute('src') || (got.length > 0 && got.end(got.length - 1) * 1000 >= ms); }",
        arg=ms,
        timeout=WAIT_MS,
    )


class SlowRequests:
    """Requests matching ``pattern`` held, as on a slow network, until ``let_go``; then each goes on
    (the newest first) and any later one goes straight through."""

    def __init__(self, page: Page, pattern: re.Pattern[str]) -> None:
        self.held: list[Route] = []
        self.holding = True
        page.route(pattern, self._route)

    def _route(self, route: Route) -> None:
        if self.holding:
            self.held.append(route)
        else:
            route.continue_()

    def let_go(self) -> None:
        self.holding = False
        while self.held:
            self.held.pop().continue_()


def ask_held(page: Page, utterance: str) -> SlowRequests:
    """``utterance`` asked on ``page``, its answer held until ``let_go``: another device acts meanwhile."""
    turns = SlowRequests(page, re.compile(r".*/turns$"))
    with page.expect_request(re.compile(r".*/turns$")):
        page.get_by_label("Ask about the book or say where to go").fill(utterance)
        page.get_by_role("button", name="Ask", exact=True).click()
    return turns


def paused_where_heard(page: Page, bedside: Bedside, listener: Listener, book: str) -> int:
    """Pause pressed: the player's state holds the audio element's own position (returned), to within
    250 ms."""
    page.get_by_role("button", name="Pause").click()
    heard_ms: int = round(page.evaluate("document.getElementById('audio').currentTime") * 1000)
    state = wait_for_state(bedside, listener, book, lambda told: not told["playing"])
    assert abs(state["position_ms"] - heard_ms) <= 250, (state, heard_ms)
    return heard_ms


def position_of(page: Page) -> int:
    value: int = page.evaluate("window.bedside.position_ms")
    return value


def clock(ms: int) -> str:
    seconds = ms // 1000
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


def spoken_clock(ms: int) -> str:
    """A place in the book as said to a screen reader: "1 minute 5 seconds", not "0:01:05"."""
    seconds = ms // 1000
    hours, minutes, rest = seconds // 3600, seconds % 3600 // 60, seconds % 60
    parts = [f"{n} {unit}{'' if n == 1 else 's'}" for n, unit in ((hours, "hour"), (minutes, "minute")) if n]
    if not hours and (rest or not minutes):
        parts.append(f"{rest} second{'' if rest == 1 else 's'}")
    return " ".join(parts)


def shown_notice(page: Page) -> Locator:
    """The notice as it is seen, where it names a place in the book: a screen reader is told the place
    in words instead (read from the part it is shown only to)."""
    return page.locator("#notice > [aria-hidden='true']")


def expect_covered_rows(page: Page) -> list[dict[str, Any]]:
    """Rows for places ahead show a time and "further on" (and a chapter the listener named), nothing else."""
    rows = page.locator("#rows .row")
    expect(rows.first).to_be_visible(timeout=WAIT_MS)
    assert rows.count() <= 4
    for row in rows.all():
        expect(row).to_have_class(re.compile(r"\bcovered\b"))
        expect(row).to_have_text(re.compile(r"^Go to \d+:\d\d:\d\d((end of )?chapter \d+, )?further on$"))
    page_text = page.locator("main").inner_text()
    for hidden in ("The Storm", "pier", "Orla", "lantern", "The Frost"):
        assert hidden not in page_text, f"{hidden!r} from ahead is on the screen"
    state_rows: list[dict[str, Any]] = page.evaluate("window.bedside.rows")
    assert state_rows
    assert all(r["ahead"] and not r.get("chapter_title") and not r.get("words") for r in state_rows)
    return state_rows


SIGNED_IN_AS_ANOTHER = re.compile(r"^This browser now listens as \S+: their link was opened in it\.")


def bedside_says(bedside: Bedside, *args: str) -> None:
    """``bedside ARGS`` run by the keeper of the bedside machine, on this system, and succeeding."""
    done = subprocess.run(
        [str(Path(sys.executable).parent / "bedside"), *args],
        env=bedside.system.env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def stops_at(stop: int, state: dict[str, Any]) -> bool:
    return state["sleep_timer"] is not None and state["sleep_timer"]["stop_at_ms"] == stop


def seeks_by(bedside: Bedside, listener: Listener, device: str) -> int:
    lookup = httpx.get(
        f"{bedside.url}/api/listeners/{listener.name}/books/{bedside.book}/history/lookup",
        params={"device": device, "kind": "seeked"},
        headers={"Authorization": f"Bearer {listener.token}"},
    )
    assert lookup.status_code == 200, lookup.text
    count: int = lookup.json()["count"]
    return count


LISTEN_AS_A_SCREEN_READER = """() => {
  const LIVE = '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]';
  const inTheTree = () => new Set([...document.querySelectorAll(LIVE)].filter((r) => r.checkVisibility()));
  const readOut = (region) => {
    const texts = document.createTreeWalker(region, NodeFilter.SHOW_TEXT);
    let text = "";
    while (texts.nextNode()) {
      const piece = texts.currentNode;
      if (!piece.parentElement.closest('[aria-hidden="true"]')) text += piece.data;
    }
    return text.trim();
  };
  let before = inTheTree();
  window.announced = [];
  new MutationObserver((changes) => {
    const regions = new Set(changes.map(({ target }) =>
      (target.nodeType === Node.ELEMENT_NODE ? target : target.parentElement)?.closest(LIVE)));
    for (const region of regions) {
      const text = region && readOut(region);
      if (text && before.has(region) && region.checkVisibility()) window.announced.push(text);
    }
    before = inTheTree();
  }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
}"""


def announced(page: Page, containing: str) -> list[str]:
    said: list[str] = page.evaluate("window.announced")
    return [text for text in said if containing in text]


def a_voice_that(ends: str) -> Callable[[Page], None]:
    """The page's voice replaced by one that keeps what it was given and then ends as ``ends`` says:
    "end" (said) or an error's name (never said)."""
    script = f"""
    window.voiced = [];
    window.speechSynthesis.speak = (utterance) => {{
      window.voiced.push(utterance.text);
      const ends = {ends!r};
      setTimeout(() => ends === "end" ? utterance.onend?.({{}}) : utterance.onerror?.({{ error: ends }}), 50);
    }};
    """

    def install(page: Page) -> None:
        page.add_init_script(script)

    return install


HEARS_WHO_IS_ORLA = """window.SpeechRecognition = window.webkitSpeechRecognition = class {
  start() {
    setTimeout(() => {
      const heard = [{ transcript: "who is Orla?" }];
      heard.isFinal = true;
      this.onresult({ results: [heard] });
      this.onend();
    });
  }
  stop() {}
};"""


"""The browser's own recogniser, as if it heard the listener ask "who is Orla?"."""


# Roles that a person operates; each must carry a name a screen reader can say.
CONTROL_ROLES = ("button", "slider", "textbox", "combobox", "checkbox", "link", "radio", "switch")


BEDTIME_LEAD_MS = 7_000


"""How far before the stop the book is put before it plays: inside the fade, well apart from the stop."""


def listener_api(bedside: Bedside, listener: Listener, book: str, path: str, body: dict[str, Any]) -> Any:
    response = httpx.post(
        f"{bedside.url}/api/listeners/{listener.name}/books/{book}{path}",
        headers={"Authorization": f"Bearer {listener.token}"},
        json=body,
        timeout=10,
    )
    response.raise_for_status()
    return response.json()


def wait_for_state(
    bedside: Bedside, listener: Listener, book: str, done: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT_MS / 1000
    while not done(state := bedside.state(listener.name, listener.token, book)):
        assert time.monotonic() < deadline, state
        time.sleep(0.1)
    return state


def fell_asleep_count(bedside: Bedside, listener: Listener, book: str) -> int:
    lookup = httpx.get(
        f"{bedside.url}/api/listeners/{listener.name}/books/{book}/history/lookup",
        params={"kind": "fell_asleep"},
        headers={"Authorization": f"Bearer {listener.token}"},
        timeout=10,
    )
    lookup.raise_for_status()
    count: int = lookup.json()["count"]
    return count


def expected_stop(bedside: Bedside, listener: Listener, book: str, mode: str) -> int:
    """Where the player will stop: the first chapter's last millisecond, or the book's end."""
    info = bedside.book_info(listener.token, book)
    stop: int = info["chapters"][1]["start_ms"] - 1 if mode == "chapter_end" else info["duration_ms"]
    return stop


def pressed_play_at(placed_ms: int, state: dict[str, Any]) -> int:
    """Where the listener was awake: Play, pressed on a page placed at ``placed_ms``, is reported from
    where that page had got to a moment on (ADR 24: a press is someone awake)."""
    asleep_at: int = state["asleep"]["asleep_at_ms"]
    assert placed_ms <= asleep_at < placed_ms + 1_000, (placed_ms, state["asleep"])
    return asleep_at


def put_book_at(bedside: Bedside, listener: Listener, book: str, ms: int, *pages: Page) -> None:
    seq = bedside.state(listener.name, listener.token, book)["seq"]
    listener_api(bedside, listener, book, "/seek", {"device": "setup", "position_ms": ms, "basis_seq": seq})
    for page in pages:
        expect(page.locator("#pos")).to_have_text(clock(ms), timeout=WAIT_MS)


def fading(page: Page, audio: bool) -> None:
    """The screen dims, and with a recording its volume falls."""
    page.wait_for_function("Number(document.getElementById('fade').style.opacity) > 0", timeout=WAIT_MS)
    if audio:
        page.wait_for_function("document.getElementById('audio').volume < 1", timeout=WAIT_MS)


def expect_asleep_offer(page: Page, asleep_at_ms: int) -> None:
    """Shown with the time's digits, and named in words for a screen reader, which reads the digits
    as a time of day."""
    offer = page.locator("#asleep")
    expect(offer).to_be_visible(timeout=WAIT_MS)
    expect(offer).to_contain_text(f"fallen asleep around {clock(asleep_at_ms)}")
    expect(offer).to_have_accessible_name(re.compile(f"fallen asleep around {spoken_clock(asleep_at_ms)}\\b"))


def open_book(page: Page, book: str) -> None:
    """Chosen in the picker, then opened: the picker alone only browses."""
    page.get_by_label("Choose a book").select_option(book)
    page.get_by_role("button", name="Open", exact=True).click()


REFUSED_PLAY = """HTMLMediaElement.prototype.play = function () {
  return Promise.reject(new DOMException("play() failed: nobody has touched the page", "NotAllowedError"));
};"""


"""A browser that will not start sound in a tab nobody has touched."""


SOUND_ONCE_TOUCHED = """window.touched = false;
document.addEventListener("pointerdown", () => { window.touched = true; }, true);
const sounds = HTMLMediaElement.prototype.play;
HTMLMediaElement.prototype.play = function () {
  if (window.touched) return sounds.call(this);
  return Promise.reject(new DOMException("play() failed: nobody has touched the page", "NotAllowedError"));
};"""


"""A browser that starts sound in a tab only once the listener has touched it, as phones do."""


def ingest_text(bedside: Bedside, listener: Listener, text: str, book: str) -> None:
    """A book from plain text, ingested while the page's stack runs, once the player lists it."""
    path = Path(tempfile.mkdtemp(prefix=f"bedside-page-{book}-")) / f"{book}.txt"
    path.write_text(text)
    with ThreadPoolExecutor(1) as thread:  # Playwright's own loop runs in this one
        report = thread.submit(asyncio.run, _ingest(bedside.system.nats_url, path, book)).result()
    assert report.get("ok") is not False, report
    _wait_for_book(bedside.url, listener.token, book)


FRONT_MATTER_BOOK = """The Tide Clock
by A. Tester

A word before the story. The clock in this tale is a real one, or was, in a town on a grey
coast where the tide ran twice a day through the harbour mouth. The people there set their
days by it, and by the bell that rang when the water turned. What follows is told as the
keeper's daughter told it, many years later, to anyone who would sit long enough by her fire
to hear it through. She never hurried it, and neither should you. Pour something warm, put
your feet up, and let the tide come in at its own pace.

Chapter 1
The Bell

Mara rang the bell at the turn of every tide. She climbed the stair in the dark and in the
light, in storms and on still blue mornings, and she pulled the rope until her arms ached.
"""


def history_count(bedside: Bedside, listener: Listener, book: str = BOOK_ID, **match: str) -> int:
    lookup = httpx.get(
        f"{bedside.url}/api/listeners/{listener.name}/books/{book}/history/lookup",
        params=match,
        headers={"Authorization": f"Bearer {listener.token}"},
        timeout=10,
    )
    lookup.raise_for_status()
    count: int = lookup.json()["count"]
    return count


class FailingRecording:
    """The book's recording as a flaky network serves it: the first answer carries only its
    opening ``first_bytes`` (a short read, as when a connection drops; none: no first answer),
    and while ``down`` every request for more is answered 503. Chromium gives up on the
    recording a few seconds later. While ``stalled``, a request for more is left unanswered, as on
    a network that hangs, until ``fail_now``: a test says when the page loses its recording."""

    def __init__(self, page: Page, book: str, first_bytes: int | None) -> None:
        self.first_bytes = first_bytes
        self.down = True
        self.stalled = False
        self.held: list[Route] = []
        self.requests = 0
        page.route(re.compile(rf".*/api/books/{book}/audio$"), self._route)

    def _route(self, route: Route) -> None:
        self.requests += 1
        if self.requests == 1 and self.first_bytes is not None:
            headers = {**route.request.all_headers(), "range": f"bytes=0-{self.first_bytes - 1}"}
            opening = route.fetch(headers=headers)
            total = opening.headers["content-range"].rsplit("/", 1)[1]
            answer = {**opening.headers, "content-range": f"bytes 0-{self.first_bytes - 1}/{total}"}
            route.fulfill(status=206, headers=answer, body=opening.body())
        elif self.stalled:
            self.held.append(route)
        elif self.down:
            route.fulfill(status=503, body="the network is down")
        else:
            route.continue_()

    def fail_now(self) -> None:
        self.stalled = False
        for route in self.held:
            route.fulfill(status=503, body="the network is down")
        self.held.clear()


OPENING_MS = 25_000
"""How much of the silent recording a FailingRecording serves first, at 16 bytes a millisecond."""


def phone_with_failing_recording(
    open_page: OpenPage, first_bytes: int | None
) -> tuple[Page, FailingRecording]:
    recording: list[FailingRecording] = []
    page = open_page(
        "phone",
        book=AUDIO_BOOK_ID,
        before_opening=lambda opened: recording.append(FailingRecording(opened, AUDIO_BOOK_ID, first_bytes)),
    )
    return page, recording[0]


async def _announce_interim_of(nats_url: str, book: str, interim_book: str, done: int = 1) -> None:
    """An interim version as ingest announces one while a recording is transcribed (adr/0032):
    the first ``done`` chapters of ``book``'s recording transcribed, the others pending (with
    none done, the version ingest announces once the recording is read). Built here from the
    whole book so that the page is seen mid-transcription without racing a real job."""
    client = await nats.connect(nats_url)
    try:
        js = client.jetstream()
        newest = await js.get_last_msg(subjects.BOOKS_STREAM, subjects.BOOK_INGESTED.format(book=book))
        bucket = await js.object_store(subjects.BOOK_ARTIFACTS_BUCKET)
        event = BookIngested.model_validate_json(newest.data or b"")
        whole = BookArtifact.model_validate_json((await bucket.get(event.object_name)).data or b"")
        transcribed = [c.n for c in whole.chapters[:done]]
        kept = [p for p in whole.passages if p.chapter in transcribed]
        pending = [c.n for c in whole.chapters if c.n not in transcribed]
        coverage = TranscriptCoverage(
            chapters_done=done,
            chapters=len(whole.chapters),
            audio_done_ms=whole.chapters[done - 1].end_ms if done else 0,
            audio_ms=whole.duration_ms,
            pending=pending,
        )
        interim = whole.model_copy(
            update={
                "book": interim_book,
                "version": f"interim{event.version}"[:16],
                "passages": kept,
                "vectors_b64": encode_vectors(decode_vectors(whole)[: len(kept)]),
                "transcript": coverage,
            }
        )
        name = f"{interim_book}/{interim.version}"
        await bucket.put(name, interim.model_dump_json().encode())
        announced = BookIngested(
            book=interim_book,
            version=interim.version,
            object_name=name,
            title=whole.title,
            transcript=coverage,
        )
        await js.publish(
            subjects.BOOK_INGESTED.format(book=interim_book),
            announced.model_dump_json().encode(),
            stream=subjects.BOOKS_STREAM,
        )
    finally:
        await client.close()

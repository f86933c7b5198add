// Bedside device page: ES modules served as they are, no build step, nothing fetched from
// elsewhere. This module wires the others together and starts the page.
import { openAdding, wireAdding } from "./adding.js";
import { refusal, STARTING_STATUSES } from "./api.js";
import { forgetWhatWasSaid, wireAsk } from "./ask.js";
import { adoptBookmarks, forgetBookmarkTitles, wireBookmarks } from "./bookmarks.js";
import {
  bookSoon, ensureChapterTitle, forgetTitlesFrom, loadBook, noSuchBook, offerTheBooksLeft, pickBook, refreshBookList,
  renderChapter, whenSwitching,
} from "./book.js";
import { forgetHistoryTitles, historySoon, loadHistory, wireHistory } from "./history.js";
import { renderRows, wireList } from "./list.js";
import { listen } from "./live.js";
import {
  follow, join, leave, pauseEverywhere, position, refreshState, render, renderPlay, report, signedInAs, skip,
  togglePlay, wirePosition,
} from "./position.js";
import { hearOtherTabs, offerPairing, signIn } from "./signin.js";
import { adoptSleep, carryTimerTo, movedHere, renderSleep, wireSleep } from "./sleep.js";
import { adoptSpeed, wireSpeed } from "./speed.js";
import { BOOKS_EVERY_MS, claimDeviceName, DEVICE, REPORT_EVERY_MS, SKIP_MS, state } from "./state.js";
import { el, notice } from "./ui.js";
import "./voice.js"; // the microphone wires itself

whenSwitching(async (book) => {
  await pauseEverywhere();
  await carryTimerTo(book);
});
// A title learned further on, an answer given there, is ahead again; ``own``: this page moved it.
function forgetFrom(ms, own) {
  forgetTitlesFrom(ms);
  forgetHistoryTitles();
  forgetBookmarkTitles();
  forgetWhatWasSaid(own);
}

follow({
  jumped(ms, back) {
    if (back) forgetFrom(ms, false);
    bookSoon();
  },
  adopted(next) {
    adoptSpeed(next); // first: the timer's minutes left are counted at it
    adoptSleep(next);
    renderRows();
    ensureChapterTitle();
    historySoon();
    adoptBookmarks(next);
  },
  moving(ms, back) {
    movedHere(ms);
    if (back) forgetFrom(ms, true);
    bookSoon();
  },
  sought: historySoon,
  bookRemoved: offerTheBooksLeft,
  rendered() {
    renderSleep(); // first: a page that ticked past the sleep timer's stop is put back there
    renderChapter(position());
    if (state.playing) ensureChapterTitle();
  },
});

const SLIDER_KEYS = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown"]);

// Whether the focused element uses the key itself: a text field or a picker every key, the
// scrubber its arrows, a button (a summary, a link, a checkbox) Space and Enter. Any other key is a
// shortcut, so they work wherever the focus has gone, as it goes to Play after a row is pressed.
function takesKey(t, key) {
  if (t instanceof HTMLInputElement && t.type === "range") return SLIDER_KEYS.has(key);
  if (t instanceof HTMLInputElement && (t.type === "checkbox" || t.type === "radio")) return key === " " || key === "Enter";
  if (t instanceof HTMLInputElement) return true;
  if (t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement) return true;
  const pressable = t instanceof HTMLElement && t.closest("button, summary, a") !== null;
  return pressable && (key === " " || key === "Enter");
}

// Keys for the main controls; Escape leaves the ask box for them.
function onKey(e) {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.key === "Escape" && e.target === el.askInput) { el.play.focus(); return; }
  if (takesKey(e.target, e.key)) return;
  if (e.key === " " || e.key === "k") { e.preventDefault(); togglePlay(); }
  else if (e.key === "ArrowLeft" || e.key === "j") { e.preventDefault(); skip(-SKIP_MS); }
  else if (e.key === "ArrowRight" || e.key === "l") { e.preventDefault(); skip(SKIP_MS); }
  else if (e.key === "/") { e.preventDefault(); el.askInput.focus(); }
}

function wire() {
  wirePosition();
  wireList();
  wireHistory();
  wireBookmarks();
  wireAsk();
  wireSleep();
  wireSpeed();
  document.addEventListener("keydown", onKey);
  // Coming back to a tab that slept: take the server's word for where the book is, and which books.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible" || !state.book) return;
    refreshState();
    refreshBookList();
  });
  window.addEventListener("pagehide", leave);
  // Back from the browser's page cache: the player may have paused the book when this page went.
  window.addEventListener("pageshow", (e) => { if (e.persisted && state.book) refreshState(); });
  // A book added on another device is offered in the picker without the page being left first.
  setInterval(() => { if (document.visibilityState === "visible" && state.book) refreshBookList(); }, BOOKS_EVERY_MS);
  setInterval(() => {
    render();
    if (state.playing && performance.now() - state.lastReportAt >= REPORT_EVERY_MS) report();
  }, 250);
}

// The phone's lock screen and headset buttons: play, pause and the 30-second skips.
function setupMediaSession() {
  if (!("mediaSession" in navigator) || !state.book) return;
  const book = state.book;
  try {
    navigator.mediaSession.metadata = new MediaMetadata({
      title: book.title || state.bookId,
      artist: [book.author, book.narrator && `read by ${book.narrator}`].filter(Boolean).join(", "),
      album: "Bedside",
      // the cookie opens the cover, as it opens the audio
      artwork: book.has_cover ? [{ src: `/api/books/${encodeURIComponent(state.bookId)}/cover` }] : [],
    });
    const handlers = {
      play: () => { if (!state.playing) togglePlay(); },
      pause: () => { if (state.playing) togglePlay(); },
      seekbackward: () => skip(-SKIP_MS),
      seekforward: () => skip(SKIP_MS),
    };
    for (const [action, handler] of Object.entries(handlers)) {
      navigator.mediaSession.setActionHandler(action, handler);
    }
  } catch { /* an older browser: the page's own buttons still work */ }
}

// A player or search copy that is starting (`bedside up` starts a crashed one again, ADR 49)
// answers 503 until it serves the listener; the page waits for it, saying so, rather than give
// up on the book. So it does when nothing answers at all (the network down, Bedside not running):
// that is no refusal, and offering to pair would send the listener the wrong way. Any other
// refusal is the listener's to read.
const STARTING = "Bedside is starting up; the book opens in a moment…";
const UNREACHABLE = "Bedside isn't answering just now. This page keeps trying, and opens the book once it does.";
async function whileStarting(step) {
  for (let waitMs = 1000; ; waitMs = Math.min(waitMs * 2, 8000)) {
    try {
      const done = await step();
      stopWaiting();
      return done;
    } catch (e) {
      if (e.unreachable) waiting(UNREACHABLE);
      else if (STARTING_STATUSES.has(e.status)) waiting(STARTING);
      else throw e;
      await nextTry(waitMs);
    }
  }
}

// While waiting only the notice is shown (Play and the ask box would do nothing), and the page is
// not busy: a screen reader may hold back what a busy page says.
function waiting(words) {
  if (el.notice.textContent !== words) notice(words, 0); // written again, it may be read again
  el.app.dataset.waiting = "true";
  el.app.setAttribute("aria-busy", "false");
}

function stopWaiting() {
  if (!el.app.dataset.waiting) return;
  delete el.app.dataset.waiting;
  el.app.setAttribute("aria-busy", "true");
  if (el.notice.textContent === UNREACHABLE) notice("Bedside is answering again.");
}

// After `ms`, or at once when the browser says its network is back.
function nextTry(ms) {
  return new Promise((resolve) => {
    const go = () => {
      clearTimeout(timer);
      window.removeEventListener("online", go);
      resolve();
    };
    const timer = setTimeout(go, ms);
    window.addEventListener("online", go);
  });
}

async function openBook() {
  await whileStarting(pickBook);
  try {
    await whileStarting(loadBook);
  } catch (e) {
    throw e.status === 404 ? noSuchBook() : e;
  }
  await whileStarting(async () => {
    const res = await refreshState();
    if (!res.ok) throw refusal(res);
  });
  if (el.notice.textContent === STARTING) notice("");
}

async function start() {
  wire();
  renderPlay();
  const claimed = claimDeviceName(); // asked while signing in: the wait for an answer is then hidden
  let refused = null;
  try { refused = await whileStarting(signIn); } catch (e) { refused = `Bedside could not be reached: ${e.message || e}`; }
  await claimed;
  if (refused) {
    notice(refused, 0);
    el.link.textContent = "Not connected";
    el.app.setAttribute("aria-busy", "false"); // what is shown instead is ready to be read
    offerPairing();
    return;
  }
  hearOtherTabs(signedInAs);
  wireAdding();
  try {
    await openBook();
  } catch (e) {
    el.app.setAttribute("aria-busy", "false");
    if (e.noBook) {
      openAdding();
      notice(`Welcome: ${e.message}.`, 0);
      el.link.textContent = "Connected";
      return;
    }
    if (e.noSuchBook) { // only the picker is left: there is nothing to play, move or ask about
      el.app.dataset.noBook = "true";
      notice(`Bedside could not open the book: ${e.message}`, 0);
      el.link.textContent = "Connected";
      return;
    }
    notice(`Bedside could not open the book: ${e.message || e}`, 0);
    el.link.textContent = "Not connected";
    return;
  }
  join();
  setupMediaSession();
  el.app.setAttribute("aria-busy", "false");
  el.app.dataset.ready = "true";
  render();
  loadHistory(false);
  listen();
}

// For tests and the curious: what the page believes, read-only.
window.bedside = Object.freeze({
  get seq() { return state.seq; },
  get position_ms() { return position(); },
  get playing() { return state.playing; },
  get device() { return DEVICE; },
  get rows() { return state.rows.slice(); },
  get busy() { return state.inflight > 0; }, // a request of this page's own is out or queued
});

start();

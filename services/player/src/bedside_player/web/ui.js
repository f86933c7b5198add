// The page's elements, the clock as it is shown and said, and the two status lines.
import { DEVICE } from "./state.js";

const $ = (id) => document.getElementById(id);
export const el = {
  app: $("app"), title: $("book-title"), chapter: $("chapter"), notice: $("notice"), timing: $("timing"), silent: $("silent"),
  transcriptProgress: $("transcript-progress"),
  pos: $("pos"), dur: $("dur"), scrubber: $("scrubber"), play: $("play"),
  back: $("back30"), fwd: $("fwd30"), audio: $("audio"), speed: $("speed"),
  list: $("list"), rows: $("rows"), cancel: $("list-cancel"),
  askForm: $("ask-form"), askInput: $("ask-input"), askSend: $("ask-send"), answer: $("answer"), answerSaid: $("answer-said"),
  sleepLeft: $("sleep-left"), undo: $("undo"), history: $("history"), more: $("history-more"),
  link: $("link"), who: $("who"), fade: $("fade"), asleep: $("asleep"), asleepText: $("asleep-text"),
  asleepGo: $("asleep-go"), asleepDismiss: $("asleep-dismiss"),
  bookPick: $("book-pick"), bookChoice: $("book-choice"), bookOpen: $("book-open"), said: $("said"),
  pairForm: $("pair-form"), pairCode: $("pair-code"),
  bookmarkForm: $("bookmark-form"), bookmarkTitle: $("bookmark-title"), bookmarks: $("bookmarks"),
};

export function clock(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, "0");
  const ss = String(s % 60).padStart(2, "0");
  return `${Math.floor(s / 3600)}:${mm}:${ss}`;
}

export function spokenClock(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const parts = [];
  if (h) parts.push(`${h} hour${h === 1 ? "" : "s"}`);
  if (m) parts.push(`${m} minute${m === 1 ? "" : "s"}`);
  if (!h && (sec || !m)) parts.push(`${sec} second${sec === 1 ? "" : "s"}`);
  return parts.join(" ");
}

// A text to be spoken with each clock time in it ("at 0:10:40") said in words: a voice reads the digits
// as a time of day ("zero ten forty").
const CLOCK_TIME = /\b(\d+):([0-5]\d):([0-5]\d)\b/g;
export function timesInWords(text) {
  return text.replace(CLOCK_TIME, (_, h, m, s) => spokenClock(((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000));
}

// Chapter 0 is what comes before the first chapter (front matter, a preamble): "Opening" on the
// screen and "the opening" in a sentence, as the guard names it; "Chapter 0" means nothing.
export function chapterHeading(n, title = null, word = "Chapter") {
  if (n === 0) return "Opening";
  return title ? `${word} ${n} · ${title}` : `${word} ${n}`;
}

export function chapterInSentence(n) {
  return n === 0 ? "the opening" : `chapter ${n}`;
}

// The notice is a live region that stays on the page (empty, it takes no room): one shown in the
// same moment as its text is not read by a screen reader. One naming a place in the book is given as
// `(time) => text`: shown with the place as the clock shows it, and read with it in words, as
// "0:05:03" is read out as digits and colons.
let noticeTimer = 0;
export function notice(text, ms = 6000) {
  if (typeof text === "function") showAndSay(el.notice, text);
  else el.notice.textContent = text;
  clearTimeout(noticeTimer);
  if (text && ms) noticeTimer = setTimeout(() => { el.notice.textContent = ""; }, ms);
}

// Puts `text`, a `(time) => text`, in `element`: seen with the clock's digits, read with the time in
// words.
export function showAndSay(element, text) {
  element.replaceChildren(span(text(clock), { "aria-hidden": "true" }), span(text(spokenClock), { class: "visually-hidden" }));
}

function span(text, attributes) {
  const s = document.createElement("span");
  s.textContent = text;
  for (const [name, value] of Object.entries(attributes)) s.setAttribute(name, value);
  return s;
}

// What is said once, when it happens, rather than read each time what is shown changes (the sleep
// timer set or cancelled, a list come): a live region of its own, always on the page, unseen.
// The answer as the eye reads it, and, in a region of its own the eye does not see, as a screen reader
// says it: its times in words ("0:12:32" is read out as digits and colons). `live` false: the page's
// own voice says it, and a screen reader would talk over it.
export function writeAnswer(text, live = true) {
  el.answerSaid.setAttribute("aria-live", live ? "polite" : "off");
  el.answer.textContent = text;
  el.answerSaid.textContent = timesInWords(text);
}

export function announce(text) {
  el.said.textContent = text;
}

// Turns a button off or on. One turned off under the keyboard's focus hands the focus to `focusTo`:
// it would fall to the page, where a screen reader starts again from the top.
export function setOff(button, off, focusTo) {
  if (off && document.activeElement === button) focusTo.focus();
  button.disabled = off;
}

// Draws `container` again with `draw`, keeping the keyboard focus on the button it was on. A redrawn
// button drops the focus to the page, where a screen reader starts again from the top. A button drawn
// for a thing that lasts (`data-key`, and `data-role` among its row's buttons) gets it back by that:
// in a list drawn newest first, one added elsewhere moves every row, and by place the focus would land
// on another's button. Its thing gone, the row after it takes the focus, else the row before; nothing
// left, none does. A button without a key gets it back by its place.
export function redrawKeepingFocus(container, draw) {
  const buttons = () => [...container.querySelectorAll("button")];
  const before = buttons();
  const index = before.indexOf(document.activeElement);
  const { key, role } = index < 0 ? {} : document.activeElement.dataset;
  const keys = [...new Set(before.map((b) => b.dataset.key))];
  draw();
  if (index < 0) return;
  const now = buttons();
  if (key === undefined) {
    now[Math.min(index, now.length - 1)]?.focus();
    return;
  }
  const at = keys.indexOf(key);
  const nearest = [...keys.slice(at), ...keys.slice(0, at).reverse()];
  for (const near of nearest) {
    const row = now.filter((b) => b.dataset.key === near);
    if (row.length) {
      (row.find((b) => b.dataset.role === role) ?? row[0]).focus();
      return;
    }
  }
}

export function showLink(up) {
  const text = up ? `Live on this device (${DEVICE})` : "Reconnecting…";
  if (el.link.textContent !== text) el.link.textContent = text; // written again, it may be read again
  el.link.dataset.live = String(up);
}

// The foot says live while the push stream is open and the server answers this page. A request that
// failed while the stream stayed open says "Reconnecting…"; the next one answered says live again
// (the stream opening again, which would say it, never comes).
let streamOpen = false;
// Whether pushes are heard: a page that hears none knows of a move only by asking.
export const streamIsOpen = () => streamOpen;
export function showStream(open) {
  streamOpen = open;
  showLink(open);
}
export function serverAnswered() {
  if (streamOpen && el.link.dataset.live !== "true") showLink(true);
}

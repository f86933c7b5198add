// The list on the screen: covered rows for places ahead (a time, and a chapter the listener named:
// "chapter 3", "end of chapter 3"; nothing else), pressed or
// cancelled on any device.
import { findState } from "./api.js";
import { afterCommand, command, ownMove, position, sayMovedHere, settleScrub } from "./position.js";
import { DEVICE, state } from "./state.js";
import {
  announce, chapterHeading, chapterInSentence, clock, el, notice, redrawKeepingFocus, spokenClock, writeAnswer,
} from "./ui.js";

// Every state carries the list: draw it again only when it changed (a new list, or a row the book
// has played past), keeping the focus on the row it was on: the listener's Enter presses a row.
let drawnRows = "[[],[]]";
export function renderRows() {
  const rows = state.rows.slice(0, 4);
  const drawing = JSON.stringify([rows, rows.map((row) => row.start_ms < position())]);
  if (drawing === drawnRows) return;
  drawnRows = drawing;
  redrawKeepingFocus(el.rows, () => el.rows.replaceChildren(...rows.map((row, index) => {
    const li = document.createElement("li");
    li.append(rowButton(row, index));
    return li;
  })));
  const had = !el.list.hidden;
  el.list.hidden = rows.length === 0;
  announceNewList(rows);
  if (had && !rows.length && el.answer.dataset.outcome === "listed") {
    // The answer said "press the one you mean": with the list gone there is nothing to press.
    writeAnswer("");
    el.answer.dataset.outcome = "";
  }
}

// A list is said once, as it comes. The list itself is no live region: it was read whole again at
// every redraw, and, shown in the same moment as its rows, not read at all when it came. A row the
// book plays past, or comes back before, is the same list.
let announcedList = JSON.stringify([null, []]);
function announceNewList(rows) {
  const list = JSON.stringify([state.listTurnId, rows.map((row) => row.start_ms)]);
  if (list === announcedList) return;
  announcedList = list;
  if (!rows.length) { announce(""); return; } // gone: nothing of it is left to be read
  // In short: how many places and where, not every row's words (70 of them, read out at 2am); the rows
  // themselves read in full as they take the focus.
  const places = rows.length === 1 ? "One place" : `${rows.length} places`;
  announce(`Where to? ${places}: ${rows.map(rowInBrief).join("; ")}.`);
}

// "1 minute 58 seconds, chapter 2, The Letter": a covered row's chapter has no title to say.
const rowInBrief = (row) => {
  const chapter = row.chapter == null ? null : `${row.end_of_chapter ? "end of " : ""}${chapterInSentence(row.chapter)}`;
  return [spokenClock(row.start_ms), chapter, row.ahead ? null : row.chapter_title].filter(Boolean).join(", ");
};

// A row as it reads, its time in words (its name, and the list announced): "0:12:32" is read out as
// digits and colons.
const rowWords = (button, row) => [...button.children].map((part) => (
  part.classList.contains("time") ? spokenClock(row.start_ms) : part.textContent.trim()
)).join(" ");

function span(className, text) {
  const s = document.createElement("span");
  s.className = className;
  s.textContent = text;
  return s;
}

function rowButton(row, index) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "btn row" + (row.ahead ? " covered" : "");
  b.dataset.row = String(index);
  b.append(span("visually-hidden", "Go to "), span("time", clock(row.start_ms)));
  // Only what the row carries: a covered row has no title and no words to show. It stays covered
  // once the book has played past it (its words never came), but it is no longer further on.
  if (row.ahead) {
    const chapter = row.chapter == null ? "" : `${row.end_of_chapter ? "end of " : ""}${chapterInSentence(row.chapter)}, `;
    b.append(span("further", `${chapter}${row.start_ms < position() ? "behind you now" : "further on"}`));
  } else {
    const heading = row.chapter != null ? chapterHeading(row.chapter, row.chapter_title) : row.chapter_title;
    if (heading) b.append(span("title", heading));
    if (row.words) b.append(span("words", row.words));
  }
  b.setAttribute("aria-label", rowWords(b, row));
  b.addEventListener("click", () => pressRow(index));
  return b;
}

async function pressRow(index) {
  settleScrub();
  // The list the row was read from: another device may have drawn a new one since (its row N is
  // another place), and the player then refuses the press with the new list.
  const body = { row: index, device: DEVICE, list_turn_id: state.listTurnId };
  const res = await command("/list/press", body, ownMove);
  if (res && afterCommand(res, "Moved to")) {
    if (res.status === 409) notice("The list changed just now; choose from the new one.");
    else if (res.ok) sayMovedHere(findState(res.data));
  }
  el.play.focus();
}

async function cancelList() {
  settleScrub();
  const res = await command("/list/cancel", { device: DEVICE });
  if (res && afterCommand(res, "")) {
    state.rows = [];
    renderRows();
  }
  el.askInput.focus();
}

export function wireList() {
  el.cancel.addEventListener("click", cancelList);
}

// Bookmarks (ADR 83): places the listener marked, kept by the player on their stream, so every device
// shows the same list, pushed with the state. One is made where this page is; played from, it is a
// seek, as a history row is, so every device follows and undo goes back.
import { listenerPath } from "./api.js";
import { chapterAt, chapterTitle } from "./book.js";
import { playFromButton, storedWhen } from "./history.js";
import { afterCommand, command, ours, position } from "./position.js";
import { clamp, DEVICE, deviceSaid } from "./state.js";
import { chapterHeading, el, notice, redrawKeepingFocus, spokenClock } from "./ui.js";

let shown = null; // the bookmarks drawn, newest first (null: none told yet)
let drawnKey = "";

// Taken from every state the page takes in; one from a player copy that keeps no bookmarks says nothing
// of them, and the list stays as it is.
export function adoptBookmarks(next) {
  if (!next || !Array.isArray(next.bookmarks)) return;
  const key = JSON.stringify(next.bookmarks.map((b) => [b.seq, b.at_ms, b.title]));
  if (key === drawnKey && shown !== null) return;
  drawnKey = key;
  shown = next.bookmarks;
  const focused = el.bookmarks.contains(document.activeElement);
  redrawKeepingFocus(el.bookmarks, draw);
  // the last one removed under the focus: to Play, as a button turned off hands it, not to the page's top
  if (focused && !el.bookmarks.contains(document.activeElement)) el.play.focus();
}

function draw() {
  el.bookmarks.replaceChildren();
  for (const mark of shown) el.bookmarks.append(item(mark));
  if (!shown.length) {
    const li = document.createElement("li");
    li.className = "quiet";
    li.textContent = "No bookmarks yet.";
    el.bookmarks.append(li);
  }
}

const markOf = new WeakMap(); // each play button -> the bookmark it was drawn from

function item(mark) {
  const li = document.createElement("li");
  const play = playFromButton(mark.at_ms, "btn play-mark");
  markOf.set(play, mark);
  describe(play);
  const remove = document.createElement("button");
  remove.type = "button";
  remove.className = "btn quiet-btn remove-mark";
  remove.textContent = "Remove";
  const named = mark.title ? `, ${mark.title}` : "";
  remove.setAttribute("aria-label", `Remove the bookmark at ${spokenClock(mark.at_ms)}${named}`);
  remove.addEventListener("click", () => removeBookmark(mark));
  // drawn again, the focus follows the bookmark, not the row's place (redrawKeepingFocus)
  play.dataset.key = remove.dataset.key = String(mark.seq);
  play.dataset.role = "play";
  remove.dataset.role = "remove";
  li.append(play, remove);
  return li;
}

// The listener's own title first, then the chapter (by its title only where the book has shown it:
// the player decides which are reached), the device it was made on, and when.
function describe(button) {
  const mark = markOf.get(button);
  const chapter = chapterAt(mark.at_ms);
  const bits = [mark.title];
  if (chapter) bits.push(chapterHeading(chapter.n, chapterTitle(chapter.n), "ch."));
  if (mark.device) bits.push(mark.device === DEVICE ? "made here" : `on ${deviceSaid(mark.device)}`);
  bits.push(storedWhen(mark.added_at_ms));
  const what = bits.filter(Boolean).join(" · ");
  button.querySelector(".what").textContent = what;
  button.setAttribute("aria-label", `Play from ${spokenClock(mark.at_ms)}, ${what}`);
}

// Once the book has moved back, a chapter title now ahead goes from the rows drawn, in place.
export function forgetBookmarkTitles() {
  for (const button of el.bookmarks.querySelectorAll("button")) if (markOf.has(button)) describe(button);
}

// A bookmark asked for and not answered yet: a second press (Enter twice) would make it twice.
let adding = false;

async function addBookmark(event) {
  event.preventDefault();
  if (adding) return;
  adding = true;
  try {
    await addOne(el.bookmarkTitle.value.trim());
  } finally {
    adding = false;
  }
}

async function addOne(title) {
  // where this page is when it is sent, which the listener has heard
  const res = await command("/bookmarks", () => ({ device: DEVICE, position_ms: clamp(position()), title: title || null }));
  if (!res) return;
  if (afterCommand(res, "Another device moved the book to") && res.ok) {
    el.bookmarkTitle.value = "";
    const made = res.data.state.bookmarks[0];
    if (made) notice((t) => `Bookmarked ${t(made.at_ms)}${made.title ? `: ${made.title}` : ""}.`);
  }
}

async function removeBookmark(mark) {
  let res;
  try {
    res = await ours("DELETE", `${listenerPath()}/bookmarks/${mark.seq}`);
  } catch {
    notice("Bedside could not be reached just now; try again in a moment.");
    return;
  }
  if (res.status === 404 && /bookmark/.test(JSON.stringify(res.data))) {
    notice("That bookmark was removed already.");
    return;
  }
  if (afterCommand(res, "Another device moved the book to") && res.ok) {
    notice((t) => `Bookmark at ${t(mark.at_ms)} removed.`);
  }
}

export function wireBookmarks() {
  el.bookmarkForm.addEventListener("submit", addBookmark);
}

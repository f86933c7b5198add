// Where the listener has been, newest first, each a place to go back to; and undo.
import { api, listenerPath } from "./api.js";
import { chapterTitle } from "./book.js";
import {
  afterCommand, command, ownMove, position, sayMovedHere, seekTo, settleScrub, showUndo, undoneWords,
} from "./position.js";
import { clamp, DEVICE, deviceSaid, HISTORY_FETCH, state } from "./state.js";
import { chapterHeading, clock, el, notice, spokenClock } from "./ui.js";

const KIND = {
  reported: "listening", seeked: "you moved", moved: "moved by a question", goto: "moved by a question",
  pressed: "chosen from the list", undo: "back to where you were",
  fellasleep: "paused by the sleep timer", paused: "paused when you asked",
  left: "paused when the last device went away",
};

function kindLabel(entry) {
  const kind = String(entry.kind || "").replace(/[^a-z]/gi, "").toLowerCase();
  const cause = String(entry.cause || "").replace(/[^a-z]/gi, "").toLowerCase();
  return KIND[cause] || KIND[kind] || String(entry.kind || "").toLowerCase();
}

const DAY_MS = 86_400_000;
const dayOf = (date) => new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();

// When the stream stored the entry, in this device's own time and time zone (the server knows
// neither): "today 23:10", "yesterday 23:10", or a date for older ones.
export function storedWhen(ms) {
  if (typeof ms !== "number") return "";
  const at = new Date(ms);
  const time = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  const daysAgo = Math.round((dayOf(new Date()) - dayOf(at)) / DAY_MS);
  if (daysAgo === 0) return `today ${time}`;
  if (daysAgo === 1) return `yesterday ${time}`;
  return `${at.toLocaleDateString([], { weekday: "short", day: "numeric", month: "short" })} ${time}`;
}

let historyTimer = 0;
let lastShownKind = null;
export function historySoon() {
  clearTimeout(historyTimer);
  historyTimer = setTimeout(() => loadHistory(false), 400);
}

const entryOf = new WeakMap(); // each entry's button -> the entry it was drawn from

// A row's button that plays the book from `ms` (a seek, so every device follows and undo goes back): the
// time, then a `.what` its list describes. A history entry's and a bookmark's.
export function playFromButton(ms, className) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = className;
  const when = document.createElement("span");
  when.className = "when";
  when.textContent = clock(ms);
  const what = document.createElement("span");
  what.className = "what";
  b.append(when, what);
  b.addEventListener("click", async () => sayMovedHere(await seekTo(ms)));
  return b;
}

function entryItem(entry) {
  const li = document.createElement("li");
  const b = playFromButton(entry.position_ms || 0, "btn");
  entryOf.set(b, entry);
  describe(b);
  li.append(b);
  return li;
}

// A chapter's name only where the listener has reached it (the book says which).
function describe(button) {
  const entry = entryOf.get(button);
  const title = entry.chapter != null ? chapterTitle(entry.chapter) : null;
  const bits = [kindLabel(entry)];
  if (entry.chapter != null) bits.push(chapterHeading(entry.chapter, title, "ch."));
  if (entry.device) bits.push(entry.device === DEVICE ? "here" : `on ${deviceSaid(entry.device)}`);
  bits.push(storedWhen(entry.stored_at_ms));
  const what = bits.filter(Boolean).join(" · ");
  button.querySelector(".what").textContent = what;
  // read in words when it takes the focus: "0:00:30" is read out as digits and colons
  button.setAttribute("aria-label", `Go to ${spokenClock(entry.position_ms || 0)}, ${what}`);
}

// Once the book has moved back, the entries drawn name no chapter by a title now ahead: described
// again in place, so an entry held under the keyboard's focus keeps it.
export function forgetHistoryTitles() {
  for (const button of el.history.querySelectorAll("button")) if (entryOf.has(button)) describe(button);
}

function showEntries(entries, older) {
  if (!older) el.history.replaceChildren();
  // Reports come every 15 s: a run of them is one stretch of listening, shown once (its newest).
  let previousKind = older ? lastShownKind : null;
  for (const entry of entries) {
    const kind = String(entry.kind || "").toLowerCase();
    if (!entry.placed) continue; // the player's word for a place the book was (not a list shown, a device joining)
    if (kind === "reported" && previousKind === "reported") continue;
    previousKind = kind;
    lastShownKind = kind;
    el.history.append(entryItem(entry));
  }
  if (!older && !el.history.children.length) {
    const li = document.createElement("li");
    li.className = "quiet";
    li.textContent = "No moves yet.";
    el.history.append(li);
  }
}

export async function loadHistory(older) {
  let path = `${listenerPath()}/history?limit=${HISTORY_FETCH}`;
  if (older && state.historyBefore != null) path += `&before=${state.historyBefore}`;
  let res;
  try { res = await api("GET", path); } catch { return; }
  if (!res.ok) return;
  const entries = res.data.entries;
  // Asked again at every state a playing page takes in, it is not drawn again under the keyboard's
  // focus: its entry, drawn and focused again, would be read out over the book at every report.
  // It is drawn once the focus leaves it.
  if (!older && el.history.contains(document.activeElement)) heldEntries = entries;
  else showEntries(entries, older);
  if (entries.length) state.historyBefore = entries[entries.length - 1].seq;
  el.more.hidden = entries.length < HISTORY_FETCH;
}

// "Back to where I was": the position before the last move, on every device. One at a time: a
// second tap would undo the first. It carries the newest state this page had when it went, so one
// made before another device's move (an undo there too) is refused with the book where it is.
async function undo() {
  settleScrub();
  state.undo.sending = true;
  showUndo();
  try {
    // made when sent: where this page had played to, which undo's own undo goes back to
    const res = await command(
      "/undo", () => ({ device: DEVICE, basis_seq: state.seq, from_ms: clamp(position()) }), ownMove,
    );
    // Refused, the book was moved since by another device: that move is told, not an undo.
    if (res && res.status === 409) afterCommand(res, "Not undone: the book was moved meanwhile, to");
    else if (res && afterCommand(res, "Back to")) notice(undoneWords(position()));
  } finally {
    state.undo.sending = false;
    showUndo();
  }
}

let heldEntries = null;
function drawHeld(event) {
  if (heldEntries === null || el.history.contains(event.relatedTarget)) return;
  const entries = heldEntries;
  heldEntries = null;
  showEntries(entries, false);
}

export function wireHistory() {
  el.history.addEventListener("focusout", drawHeld);
  el.undo.addEventListener("click", undo);
  el.more.addEventListener("click", () => loadHistory(true));
}

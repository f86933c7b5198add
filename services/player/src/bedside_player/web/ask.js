// Asking: typed here, or said aloud (voice.js). Every question, however it was made, goes
// through `ask(text)` or, spoken, comes back as a turn; `answered` shows and speaks it.
import { api, listenerPath, unanswered } from "./api.js";
import { quietChapter } from "./book.js";
import { position, refreshState, settled } from "./position.js";
import { DEVICE, deviceSaid, state } from "./state.js";
import { announce, clock, el, notice, setOff, streamIsOpen, timesInWords, writeAnswer } from "./ui.js";

// One question at a time, typed or said aloud: while one is unanswered the Ask button is off
// (Enter with it), and a second is not sent; a typed one stays in the box to send once the answer
// comes, and the microphone does not record (voice.js). Two pending questions would be answered
// in either order, each moving or listing over the other. This is the one place that rule lives.
let pending = false;

// A move the question makes is told by its answer: the chapter region, read as the book changes
// chapter, would be a second voice over it. Quiet while the question is out and a moment after, for a
// chapter drawn once its title comes (book.js).
const CHAPTER_QUIET_AFTER_MS = 1_500;
let chapterQuiet = 0;
function setPending(now) {
  pending = now;
  setOff(el.askSend, now, el.askInput);
  clearTimeout(chapterQuiet);
  if (now) quietChapter("question", true);
  else chapterQuiet = setTimeout(() => quietChapter("question", false), CHAPTER_QUIET_AFTER_MS);
}

export const STILL_ANSWERING = "The question before is still being answered; ask again once it is.";

// Whether a question is waiting for its answer.
export const questionPending = () => pending;

// Sends one question with `send` unless another is unanswered. Returns whether it was sent.
export async function oneQuestion(send) {
  if (pending) return false;
  setPending(true);
  try {
    await send();
    return true;
  } finally {
    setPending(false);
  }
}

// Returns whether the question was taken (false: empty, or another is still unanswered).
export async function ask(utterance) {
  utterance = utterance.trim();
  if (!utterance) return false;
  return oneQuestion(() => typed(utterance));
}

async function typed(utterance) {
  showAnswer("…");
  let res;
  let asked;
  try {
    await settled();
    asked = askedFrom();
    // Not one of "ours": a turn can take seconds, and other devices' pushes must not wait.
    res = await api("POST", `${listenerPath()}/turns`, { device: DEVICE, utterance }, undefined, state.turnWaitMs);
  } catch {
    showAnswer(LOST_TOUCH);
    return;
  }
  if (!res.ok) {
    showAnswer(unanswered(res));
    return;
  }
  try {
    await answered(res.data || {}, asked);
  } catch {
    showAnswer(LOST_TOUCH); // the answer came, but where the book is now could not be read to judge it
  }
}

// The answer never came back: the request may have reached Bedside and been done (a move made while
// the player restarted), so asking again blind could do it twice.
export const LOST_TOUCH =
  "I lost touch with Bedside, so I can't tell whether that was done. Check where the book is before you ask again.";

// Where the book was when a question went: its answer is guarded at that place.
// `movesHeard` and `heard`: what this page heard of the moves since, to tell whether it knows them all.
export const askedFrom = () => ({
  moveSeq: state.lastMoveSeq, ms: position(), movesHeard: state.movesHeard, heard: streamIsOpen(),
});

// The moves a question makes (a goto, a pause asked for, a row chosen aloud, an undo), told by what made
// them and where it was asked: one made on this page while its question is out is that question's or the
// listener's own hand's here, and neither is news to this page.
const MADE_BY_A_QUESTION = new Set(["goto", "paused", "pressed", "undo"]);
export const madeByAQuestionHere = (cause, device) => MADE_BY_A_QUESTION.has(cause) && device === DEVICE;

// The book moved back by someone else while the question was answered: what the answer says may be
// ahead of the book now, so it is neither shown nor said. Its own move (a goto, a pause, a row chosen
// aloud, an undo) is the answer's:
// a pause lands where the player reckons the book had got to, which may be a moment behind this page
// when the report the question sent first was slow to arrive.
export const OVERTAKEN = "The book was moved back while I answered; ask me again.";

// A pause moves nothing back: it lands where the player reckons the book had got to, which may be a
// moment behind this page (its report slow, or another device's behind it).
const PAUSES = new Set(["paused", "fell_asleep"]);

// What the moves made while a question was out make of its answer; the one place that is judged, from
// every move since the question went, not the newest alone (pushes come late, or several as one).
// `moves`: oldest first, each with what made it, the device whose request it was and where it put the
// book (history's entries). `movedByIt`: the reply says the question moved the book. The answer's own
// move is the newest a question could have made here; a question told of the same request made first
// on another device (ADR 77) has that device's move for its own. Overtaken: a move other than a pause
// came after the answer's own move (or after the question, when it made none), and the book is now
// behind where the answer was guarded. `elsewhere`: the newest move another device made meanwhile and
// the answer's own move did not replace (one after it, or any before a pause, which keeps the place),
// told with the answer, which would otherwise read as if nothing had happened there.
export function judgeAnswer(moves, { movedByIt, askedMs, nowMs }) {
  let own = moves.findLastIndex((m) => isOwn(m, movedByIt));
  if (own < 0 && movedByIt) own = moves.findLastIndex((m) => MOVED_BY_AN_ANSWER.has(m.cause));
  const guardedAt = own < 0 ? askedMs : moves[own].position_ms;
  const movedSince = moves.slice(own + 1).some((m) => !PAUSES.has(m.cause));
  const toldFrom = own >= 0 && !PAUSES.has(moves[own].cause) ? own + 1 : 0;
  const elsewhere = moves.findLast((m, i) => i >= toldFrom && i !== own && m.device !== DEVICE) || null;
  return { overtaken: movedSince && nowMs < guardedAt, elsewhere };
}

// What an answer that says it moved the book moved it by; a goto or a pause is a question's whatever
// it says, a row or an undo may be the listener's hand here, so only when the answer says it moved.
const MOVED_BY_AN_ANSWER = new Set(["goto", "pressed", "undo"]);
const isOwn = (m, movedByIt) => madeByAQuestionHere(m.cause, m.device)
  && (movedByIt || m.cause === "goto" || m.cause === "paused");

// Whether the moves since the question must be read from the history: the page knows only the newest
// move, and that is enough when it is the answer's own and the only one this page heard, its pushes
// open all along (a push may stand for several moves, but then the page heard none or the newest alone
// is another device's). Reading the history costs the player the book's whole stream, so not every time.
function newestAloneTells(asked, movedByIt) {
  const newest = { cause: state.lastMoveCause, device: state.lastMoveDevice };
  return asked.heard && streamIsOpen() && state.movesHeard - asked.movesHeard <= 1 && isOwn(newest, movedByIt);
}

// Another device's move made while the question was out, said after the answer.
export function meanwhileWords(move) {
  const who = move.device ? deviceSaid(move.device) : "someone else";
  const at = clock(move.position_ms);
  if (move.cause === "fell_asleep") return `While I answered, the sleep timer paused the book at ${at}.`;
  if (move.cause === "paused") return `While I answered, ${who} paused the book at ${at}.`;
  return `While I answered, ${who} moved the book to ${at}.`;
}

// The moves made since `moveSeq`, oldest first, from the book's history. Unread (the player out of
// reach a moment): the newest move alone, as the state says it.
const MOVES_FETCH = 100; // history's raw entries, reports among them: more than a question's wait makes
const MOVES_WAIT_MS = 4_000; // the answer is waiting: past this, the newest move alone
const newestMove = () => [{ cause: state.lastMoveCause, device: state.lastMoveDevice, position_ms: position() }];
async function movesSince(moveSeq) {
  const newestAlone = newestMove();
  let res;
  try {
    res = await api("GET", `${listenerPath()}/history?limit=${MOVES_FETCH}`, undefined, undefined, MOVES_WAIT_MS);
  } catch {
    return newestAlone;
  }
  if (!res.ok || !Array.isArray(res.data?.entries)) return newestAlone;
  return res.data.entries.filter((e) => e.cause && e.seq > moveSeq).reverse();
}

export async function answered(reply, asked) {
  await refreshState(); // the push may be slower than the reply
  const movedByIt = reply.outcome === "moved";
  let moves = [];
  if (asked && state.lastMoveSeq > asked.moveSeq) {
    moves = newestAloneTells(asked, movedByIt) ? newestMove() : await movesSince(asked.moveSeq);
  }
  const askedMs = asked ? asked.ms : 0;
  const { overtaken, elsewhere } = judgeAnswer(moves, { movedByIt, askedMs, nowMs: position() });
  const speech = overtaken ? OVERTAKEN : [reply.speech || "", elsewhere ? meanwhileWords(elsewhere) : ""]
    .filter(Boolean).join(" ");
  sayAnswer(speech);
  el.answer.dataset.outcome = reply.outcome || "";
  answeredAfterMove = state.lastMoveSeq; // the answer's own move, if it made one, is in it
}

// An answer and what was announced are guarded at the place they were said. A move back after them,
// here or on another device, may put what they said ahead again: they go, as the titles and the
// list's words do. `own`: this page's move, made after the answer by the listener's hand.
let answeredAfterMove = null;
export function forgetWhatWasSaid(own) {
  announce("");
  if (pending || answeredAfterMove === null || (!own && state.lastMoveSeq <= answeredAfterMove)) return;
  answeredAfterMove = null;
  showAnswer("");
  el.answer.dataset.outcome = "";
}

// Written where a screen reader reads it: a voiced answer before may have left the region quiet.
export const showAnswer = (text) => writeAnswer(text);

// One voice at a time: an answer the page says aloud is not also a live region's, which a screen
// reader would read over the voice; one it cannot say (no voice here, or the voice failed) the
// screen reader reads.
const LIVE_AGAIN_MS = 100;
function sayAnswer(text) {
  const voiced = speak(text, () => {
    if (el.answer.textContent !== text) return; // another has come since
    // Live again before it is written again: a region that becomes live with its change is not read.
    el.answerSaid.setAttribute("aria-live", "polite");
    setTimeout(() => { if (el.answer.textContent === text) showAnswer(text); }, LIVE_AGAIN_MS);
  });
  writeAnswer(text, !voiced);
}

let ducked = null;
// Whether the text was handed to the voice; `unsaid` runs if the voice then fails to say it.
function speak(text, unsaid) {
  if (!text || !("speechSynthesis" in window)) return false;
  try {
    window.speechSynthesis.cancel();
    const u = new SpeechSynthesisUtterance(timesInWords(text));
    u.rate = 0.95;
    if (state.audio && !el.audio.paused) {
      ducked = el.audio.volume;
      el.audio.volume = Math.min(ducked, 0.25);
    }
    const unduck = () => {
      if (ducked !== null) { el.audio.volume = ducked; ducked = null; }
    };
    u.onend = unduck;
    u.onerror = (e) => {
      unduck();
      if (e.error !== "interrupted" && e.error !== "canceled") unsaid(); // not cut short by the next one
    };
    window.speechSynthesis.speak(u);
    return true;
  } catch {
    return false; // no voice here: the text is on the screen, and read by a screen reader
  }
}

export function wireAsk() {
  el.askForm.addEventListener("submit", (e) => {
    e.preventDefault();
    if (pending) { notice(STILL_ANSWERING); return; } // the box keeps what was typed, to send after the answer
    const text = el.askInput.value;
    el.askInput.value = "";
    ask(text);
  });
  // With Ask off, Enter in the box submits nothing at all: said, not silently dropped.
  el.askInput.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && pending && el.askInput.value.trim()) notice(STILL_ANSWERING);
  });
}

// The sleep timer is the player's (ADR 24). Any device sets or cancels it; every device
// shows it from the state the player pushes and fades out as the book nears the stop; a
// device that plays up to the stop pauses there and says so, and the player keeps one
// pause. Where the listener fell asleep is offered on every device from that state too.
import { api, findState, listenerPath, listenerPathFor, pausedBySleep } from "./api.js";
import { chapterAt } from "./book.js";
import {
  adopt, afterCommand, command, ours, ownMove, position, refreshState, report, sayMovedHere, seekTo, setPlaying, setPosition,
  sleepPauseWords,
} from "./position.js";
import { DEVICE, listeningMs, state } from "./state.js";
import { announce, chapterInSentence, clock, el, notice, showAndSay, showLink, spokenClock } from "./ui.js";

const FADE_MS = 20_000;
const DIM = 0.6;
const RUN_OUT_RETRY_MS = 5_000;
let runOutRetry = 0;

// How loud the book still is with `leftMs` of it before the stop: full until the fade starts, the
// last FADE_MS of listening.
const loudness = (leftMs) => Math.max(0, Math.min(1, listeningMs(leftMs) / FADE_MS));

// The offer stands while the player says the book rests where the timer paused it, this page is not
// playing it on (before its report reaches the player), and the listener has not dismissed it.
function offerStands(sleep, playing) {
  return Boolean(sleep.asleep) && sleep.restsWherePaused && !playing && sleep.dismissedSeq !== sleep.asleep.seq;
}

function chosenChip(timer) {
  if (!timer) return "off";
  if (timer.chapter != null) return null; // a chapter named aloud: no chip is that timer
  return timer.after === "chapter_end" ? "chapter_end" : String(timer.after);
}

// The timer is said once when it is set, changed or cancelled, here or on another device. Its
// countdown (#sleep-left) is only shown: read as it changed, it talked over the book every minute.
let toldTimerSeq; // undefined until the page's first state: a timer already set then is no news
function announceTimer(timer, endedInPause) {
  const seq = timer ? timer.set_seq : null;
  if (seq === toldTimerSeq) return;
  const first = toldTimerSeq === undefined;
  toldTimerSeq = seq;
  // the pause says so itself (a notice), and the timer it ended is no longer there to be read
  if (endedInPause) announce("");
  if (first || endedInPause) return;
  announce(timer ? timerWords(timer, position(), spokenClock) : "Sleep timer off.");
}

// A state from the player: its timer and its newest asleep fact replace what the page had.
export function adoptSleep(next) {
  const sleep = state.sleep;
  const asleep = next.asleep || null;
  const endedInPause = Boolean(sleep.timer && asleep && pausedBySleep(next.last_move_cause)
    && asleep.seq !== sleep.asleep?.seq);
  // The timer this page was showing ended in a pause: the screen stays dim, as on the device that paused.
  if (endedInPause) sleep.dimmed = true;
  announceTimer(next.sleep_timer || null, endedInPause);
  sleep.timer = next.sleep_timer || null;
  sleep.asleep = asleep;
  sleep.restsWherePaused = next.still_where_timer_paused;
  renderSleep();
}

async function send(path, body) {
  const res = await command(path, body);
  if (res) afterCommand(res, "Another device moved the book to");
  return res;
}

function choose(choice) {
  if (choice === "off") {
    if (state.sleep.timer) send("/sleep-timer/cancel", { device: DEVICE });
    return;
  }
  // The player fixes the stop from where it believes the book is: tell it first.
  if (state.playing) report();
  send("/sleep-timer", { device: DEVICE, after: choice === "chapter_end" ? choice : Number(choice) });
}

// The listener chose another book: the timer is theirs, not the book's, so it goes with them as
// the minutes it had left. Two exceptions: "end of chapter" is the end of the chapter they are in
// there, and a timer the old book's end cut short carries the minutes chosen. It is taken off the
// book left whatever the other book says (a book at its end refuses one): left there, it would stop
// that book some later night. A slow player is not waited for long.
const CARRY_WAIT_MS = 4_000;
const LONGEST_TIMER_MINUTES = 600; // the player's bound (LONGEST_SLEEP_MINUTES)
export async function carryTimerTo(book) {
  const timer = state.sleep.timer;
  if (!timer || book === state.bookId) return;
  const minutesLeft = Math.min(LONGEST_TIMER_MINUTES, Math.max(1, Math.ceil(listeningMs(timer.stop_at_ms - position()) / 60_000)));
  let after = minutesLeft;
  if (timer.chapter == null && timer.after === "chapter_end") after = "chapter_end";
  else if (timer.book_ends_first) after = timer.after;
  const carried = (async () => {
    try {
      await api("POST", `${listenerPathFor(book)}/sleep-timer`, { device: DEVICE, after });
      await ours("POST", `${listenerPath()}/sleep-timer/cancel`, { device: DEVICE });
    } catch {
      showLink(false);
    }
  })();
  await Promise.race([carried, new Promise((resolve) => setTimeout(resolve, CARRY_WAIT_MS))]);
}

// This page moved the book itself (a skip, the scrubber, a row): a stop it jumps past is not reached
// by playing. The player moves the timer with the book, and its state brings the new stop.
export function movedHere(toMs) {
  const sleep = state.sleep;
  sleep.jumpedPast = sleep.timer && toMs >= sleep.timer.stop_at_ms ? sleep.timer.stop_at_ms : null;
  sleep.playedBelowStop = false;
}

// This device played up to the stop: pause on it, and tell the player once for this timer.
async function runOut(timer, reached) {
  state.sleep.ranOutSeq = timer.set_seq;
  const stop = Math.min(reached, timer.stop_at_ms);
  setPlaying(false);
  setPosition(stop);
  state.sleep.dimmed = true;
  state.sleep.untold = { setSeq: timer.set_seq, stop };
  await tellRunOut();
}

// The run-out reached here and not yet heard by the player (the network or the server was away
// at the stop, or the player was starting): told when the link is back, or on the next try, so the
// pause is the timer's, where the listener fell asleep is tonight's, and the spent timer does not
// fire at the next play. It names its timer, which the player runs out only if it is still the
// one set, and its basis is taken once, so a move another device made meanwhile refuses it; not
// told once the listener plays on (`renderTimer`) or the timer is another.
// One telling at a time: a caller that finds it out waits for its answer (`catchUp` would otherwise take
// in the state and report the page's pause at the stop behind it).
let telling = null;
export function tellRunOut() {
  telling ??= tellRunOutOnce().finally(() => { telling = null; });
  return telling;
}

const MOVED_ELSEWHERE = "Another device moved the book to";

async function tellRunOutOnce() {
  const untold = state.sleep.untold;
  clearTimeout(runOutRetry);
  if (!untold) return false;
  if (state.playing) {
    state.sleep.untold = null;
    return false;
  }
  if (state.sleep.timer?.set_seq !== untold.setSeq) {
    // the timer was set again or cancelled elsewhere: this stop is moot, and the states held back for it
    // are taken in (by force: one recorded while held back would pass for an echo)
    state.sleep.untold = null;
    try { await refreshState({ force: true }); } catch { showLink(false); }
    return true;
  }
  let res = null;
  let ownPause = false;
  // Decided before a push held back meanwhile is taken in (`ours`), so that push is followed as news. The
  // move is this page's own only when the player paused the book for this run-out.
  const decided = (answer, got) => {
    if (undecidedAnswer(answer)) return;
    state.sleep.untold = null;
    ownPause = Boolean(got) && got.last_move_device === DEVICE && pausedBySleep(got.last_move_cause)
      && (got.last_move_seq || 0) > untold.basis;
    if (ownPause) ownMove(answer, got);
  };
  try {
    res = await ours("POST", `${listenerPath()}/sleep-timer/ran-out`, () => {
      untold.basis ??= state.seq;
      return { device: DEVICE, position_ms: untold.stop, basis_seq: untold.basis, timer_seq: untold.setSeq };
    }, decided);
  } catch {
    showLink(false);
  }
  // No answer, or "try again" (a player still starting, a call that timed out): nothing was decided.
  if (undecidedAnswer(res)) {
    runOutRetry = setTimeout(tellRunOut, RUN_OUT_RETRY_MS);
    return false;
  }
  // Decided: whatever the answer says is followed (the pause held for it is over: `adopt`). The pause
  // this page made is said here too, as the other devices say it (a timer replaced meanwhile is answered
  // all the same, with the book as the player has it, taken by force: this page's stop is moot).
  state.sleep.untold = null;
  const got = res.ok ? findState(res.data) : null;
  let followed;
  if (got && !ownPause && got.seq >= state.seq) {
    adopt(got, { force: true, why: MOVED_ELSEWHERE });
    followed = true;
  } else {
    followed = afterCommand(res, MOVED_ELSEWHERE);
  }
  if (followed && got && !got.playing && pausedBySleep(got.last_move_cause)) {
    notice(sleepPauseWords(got.position_ms));
  }
  // refused (another device's newer report): play on from the state adopted, and try again at the stop
  if (res.status === 409) state.sleep.ranOutSeq = 0;
  return true;
}

const undecidedAnswer = (res) => !res || res.status >= 500 || (res.status === 409 && !findState(res.data));

function fadeTo(fraction) {
  const sleep = state.sleep;
  if (fraction < 1 && sleep.fullVolume === null) sleep.fullVolume = el.audio.volume;
  if (sleep.fullVolume !== null && state.audio) el.audio.volume = sleep.fullVolume * fraction;
  if (fraction >= 1) sleep.fullVolume = null;
  const dim = sleep.dimmed ? DIM : DIM * (1 - fraction);
  el.fade.style.opacity = String(dim);
}

// What the timer says it will do. A stop in minutes that the book's end cut short is said as the
// end of the book, with what is truly left: "after 23 min more of listening" with 22:26 of book
// left promised listening the book does not have. Whether it was cut short is the player's word
// (`book_ends_first`, the rule the turn reads too), not a sum of the page's own. `time`: the stop as
// shown (clock) or said (spokenClock).
function timerWords(timer, pos, time) {
  if (!timer) return "";
  const at = time(timer.stop_at_ms);
  if (timer.after === "chapter_end" && timer.chapter != null) {
    return `Pausing at the end of ${chapterInSentence(timer.chapter)}, at ${at}.`; // named aloud ("…of chapter 3")
  }
  if (timer.after === "chapter_end") return `Pausing at the end of this chapter, at ${at}.`;
  const leftMs = listeningMs(Math.max(0, timer.stop_at_ms - pos));
  if (timer.book_ends_first) {
    const minutes = Math.round(leftMs / 60_000);
    const when = minutes < 1 ? "in under a minute" : `in ${minutes} min`;
    return `Pausing at the end of the book, at ${at}, ${when}.`;
  }
  // Counted down from the minutes chosen (just set, a 30 min timer says 30), to the nearest: rounded
  // up, a device a few ms behind the one that set it said a minute more.
  const minutes = Math.max(1, Math.round(leftMs / 60_000));
  return `Pausing at ${at}, after ${minutes} min more of listening.`;
}

function renderTimer(timer, pos) {
  const sleep = state.sleep;
  const text = timerWords(timer, pos, clock);
  if (el.sleepLeft.textContent !== text) el.sleepLeft.textContent = text;
  const chosen = chosenChip(timer);
  for (const b of document.querySelectorAll("[data-sleep]")) {
    const pressed = String(b.dataset.sleep === chosen);
    if (b.getAttribute("aria-pressed") !== pressed) b.setAttribute("aria-pressed", pressed);
  }
  if (!timer) {
    sleep.playedBelowStop = false;
    fadeTo(1);
    return;
  }
  const left = timer.stop_at_ms - pos;
  // A recording may end a little before the book's end that a timer stops at.
  const reached = left <= 0 || (state.audio && el.audio.ended);
  // Reached by playing (a page that paused at the book's end in the same tick counts too).
  const skipped = sleep.jumpedPast === timer.stop_at_ms; // until the player's state brings the new stop
  const played = (state.playing || sleep.playedBelowStop) && !skipped;
  if (reached && played && sleep.ranOutSeq !== timer.set_seq) {
    sleep.playedBelowStop = false;
    runOut(timer, pos);
    return;
  }
  if (state.playing) sleep.untold = null; // played on: awake, whatever the page reached before
  sleep.playedBelowStop = state.playing && left > 0;
  if (left > 0) sleep.jumpedPast = null; // before the stop again: reaching it now is by playing
  fadeTo(state.playing && !skipped ? loudness(left) : 1);
}

function renderOffer() {
  const sleep = state.sleep;
  const asleep = sleep.asleep;
  // Playing on from the pause answers the offer.
  if (asleep && state.playing && pausedBySleep(state.lastMoveCause)) sleep.dismissedSeq = asleep.seq;
  if (!offerStands(sleep, state.playing)) {
    if (el.asleep.contains(document.activeElement)) el.play.focus(); // hidden, it would drop the focus
    el.asleep.hidden = true;
    // the screen stays dim after a pause only while its offer does (and the page is not pausing now)
    if (!state.sleep.timer) sleep.dimmed = false;
    return;
  }
  const ch = chapterAt(asleep.asleep_at_ms);
  const where = ch ? ` in ${chapterInSentence(ch.n)}` : "";
  const text = (time) => `You seem to have fallen asleep around ${time(asleep.asleep_at_ms)}${where}. Go back there?`;
  if (el.asleepText.firstChild?.textContent !== text(clock)) showAndSay(el.asleepText, text); // drawn again each tick
  if (el.asleep.hidden) {
    el.asleep.hidden = false;
    el.asleep.scrollIntoView({ block: "nearest" });
    // shown in the same moment as its text, the offer itself is not read: its question is said once
    announce(text(spokenClock));
  }
}

export function renderSleep() {
  renderTimer(state.sleep.timer, position());
  renderOffer();
}

function dismiss() {
  const asleep = state.sleep.asleep;
  if (asleep) state.sleep.dismissedSeq = asleep.seq;
  el.asleep.hidden = true;
  el.play.focus();
}

// Anything the listener does brings the screen back.
function woke() {
  if (!state.sleep.dimmed) return;
  state.sleep.dimmed = false;
  renderSleep();
}

export function wireSleep() {
  for (const b of document.querySelectorAll("[data-sleep]")) {
    b.addEventListener("click", () => choose(b.dataset.sleep));
  }
  el.asleepGo.addEventListener("click", async () => {
    const asleep = state.sleep.asleep;
    dismiss();
    if (asleep) sayMovedHere(await seekTo(asleep.asleep_at_ms));
  });
  el.asleepDismiss.addEventListener("click", dismiss);
  document.addEventListener("pointerdown", woke, true);
  document.addEventListener("keydown", woke, true);
}

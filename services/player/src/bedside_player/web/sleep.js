// The page's sleep timer, and where the listener fell asleep: the last touch before the
// timer paused the book, kept on this device.
import { chapterAt } from "./book.js";
import { position, report, seekTo, setPlaying, setPosition } from "./position.js";
import { FADE_MS, MINUTE_MS, state, store, stored } from "./state.js";
import { clock, el, spokenClock } from "./ui.js";

let lastTouch = null;
let fullVolume = 1;

// Anything the listener does is a sign they are awake.
function touched() {
  el.fade.style.opacity = "0";
  // Where the listener was awake: read a moment after the press, once it has acted.
  setTimeout(() => {
    lastTouch = { position_ms: position(), at: Date.now() };
    if (state.sleep.mode !== "off") store("awake", lastTouch);
    if (state.sleep.fading) cancelFade();
  }, 300);
  const asleep = stored("asleep");
  if (asleep && !asleep.offered) showAsleepOffer(false);
}

function setSleep(mode) {
  cancelFade();
  state.sleep.mode = mode;
  state.sleep.endsAt = /^\d+$/.test(mode) ? Date.now() + Number(mode) * MINUTE_MS : 0;
  // Fixed now, as a book time: once the position crosses the boundary it must not move on.
  state.sleep.stopAt = mode === "chapter" ? chapterEnd() : null;
  for (const b of document.querySelectorAll("[data-sleep]")) {
    b.setAttribute("aria-pressed", String(b.dataset.sleep === mode));
  }
  if (mode !== "off") {
    store("awake", { position_ms: position(), at: Date.now() });
    store("asleep", null);
  }
  renderSleep();
}

function chapterEnd() {
  const ch = chapterAt(position());
  return ch && ch.end_ms ? ch.end_ms : state.duration;
}

function sleepRemaining() {
  const mode = state.sleep.mode;
  if (mode === "off") return null;
  if (mode === "chapter") return state.playing ? state.sleep.stopAt - position() : null; // book time
  return state.sleep.endsAt - Date.now();
}

export function renderSleep() {
  const left = sleepRemaining();
  if (state.sleep.mode === "off") { el.sleepLeft.textContent = ""; return; }
  if (state.sleep.mode === "chapter") {
    el.sleepLeft.textContent = "Pausing at the end of this chapter.";
  } else if (left != null) {
    const minutes = Math.max(0, Math.ceil(left / MINUTE_MS));
    const text = `Pausing in ${minutes} min.`;
    if (el.sleepLeft.textContent !== text) el.sleepLeft.textContent = text;
  }
  if (left == null || !state.playing) return;
  if (left <= 0) sleepNow(state.sleep.mode === "chapter" ? state.sleep.stopAt : null);
  else if (left <= FADE_MS) fadeTo(left / FADE_MS);
}

function fadeTo(fraction) {
  if (!state.sleep.fading) {
    state.sleep.fading = true;
    fullVolume = el.audio.volume || 1;
  }
  if (state.audio) el.audio.volume = Math.max(0, fullVolume * fraction);
  el.fade.style.opacity = String(0.6 * (1 - fraction));
}

function cancelFade() {
  if (!state.sleep.fading) return;
  state.sleep.fading = false;
  if (state.audio) el.audio.volume = fullVolume;
  el.fade.style.opacity = "0";
}

function sleepNow(stopAt) {
  const awake = stored("awake") || lastTouch || { position_ms: position(), at: Date.now() };
  setPlaying(false);
  // At the end of a chapter, stop where the next one starts: that one stays unheard.
  if (stopAt != null) setPosition(stopAt);
  report();
  if (state.audio) el.audio.volume = fullVolume;
  state.sleep.fading = false;
  setSleep("off");
  el.fade.style.opacity = "0.6";
  store("asleep", { position_ms: awake.position_ms, at: awake.at, paused_at: Date.now(), offered: false });
}

// "Where did I fall asleep?" is answered here: only this page saw the last touch.
export function asleepAnswer() {
  const asleep = stored("asleep");
  if (!asleep) {
    const awake = lastTouch;
    return awake
      ? `The sleep timer has not paused the book. You last touched it at ${spokenClock(awake.position_ms)}.`
      : "I have no sleep timer on record for this book on this device.";
  }
  const ch = chapterAt(asleep.position_ms);
  const where = ch ? `, in chapter ${ch.n}` : "";
  return `You were last awake at ${clock(asleep.position_ms)}${where}: that is the last time you touched the player before the sleep timer paused it.`;
}

export function showAsleepOffer(force) {
  const asleep = stored("asleep");
  if (!asleep) return;
  if (!force && Math.abs(asleep.position_ms - position()) < 5_000) return;
  el.fade.style.opacity = "0";
  const ch = chapterAt(asleep.position_ms);
  const where = ch ? ` in chapter ${ch.n}` : "";
  el.asleepText.textContent = `You seem to have fallen asleep around ${clock(asleep.position_ms)}${where}. Go back there?`;
  el.asleep.hidden = false;
  el.asleep.scrollIntoView({ block: "nearest" });
  store("asleep", { ...asleep, offered: true });
}

export function wireSleep() {
  for (const b of document.querySelectorAll("[data-sleep]")) {
    b.addEventListener("click", () => setSleep(b.dataset.sleep));
  }
  el.asleepGo.addEventListener("click", () => {
    const asleep = stored("asleep");
    el.asleep.hidden = true;
    store("asleep", null);
    if (asleep) seekTo(asleep.position_ms);
    el.play.focus();
  });
  el.asleepDismiss.addEventListener("click", () => {
    el.asleep.hidden = true;
    store("asleep", null);
    el.play.focus();
  });
  document.addEventListener("pointerdown", touched, true);
  document.addEventListener("keydown", touched, true);
}

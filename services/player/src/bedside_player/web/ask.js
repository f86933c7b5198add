// Asking: typed here, or said aloud (voice.js). Every question, however it was made, goes
// through `ask(text)` or, spoken, comes back as a turn; `answered` shows and speaks it.
import { api, listenerPath, unanswered } from "./api.js";
import { refreshState, settled } from "./position.js";
import { DEVICE, state } from "./state.js";
import { el, notice } from "./ui.js";

// One question at a time: while one is unanswered the Ask button is off (Enter with it), and a
// second is not sent; it stays in the box to send once the answer comes. Two pending questions
// would be answered in either order, each moving or listing over the other.
let pending = false;

function setPending(now) {
  pending = now;
  el.askSend.disabled = now;
}

// Returns whether the question was taken (false: empty, or another is still unanswered).
export async function ask(utterance) {
  utterance = utterance.trim();
  if (!utterance || pending) return false;
  setPending(true);
  el.answer.textContent = "…";
  try {
    let res;
    try {
      await settled();
      // Not one of "ours": a turn can take seconds, and other devices' pushes must not wait.
      res = await api("POST", `${listenerPath()}/turns`, { device: DEVICE, utterance });
    } catch {
      el.answer.textContent = "I could not reach Bedside. Try again in a moment.";
      return true;
    }
    if (!res.ok) {
      el.answer.textContent = unanswered(res);
      return true;
    }
    await answered(res.data || {});
    return true;
  } finally {
    setPending(false);
  }
}

export async function answered(reply) {
  const speech = reply.speech || "";
  el.answer.textContent = speech;
  el.answer.dataset.outcome = reply.outcome || "";
  speak(speech);
  await refreshState(); // the push may be slower than the reply
}

let ducked = null;
function speak(text) {
  if (!text || !("speechSynthesis" in window)) return;
  try {
    window.speechSynthesis.cancel();
    const u = new SpeechSynthesisUtterance(text);
    u.rate = 0.95;
    if (state.audio && !el.audio.paused) {
      ducked = el.audio.volume;
      el.audio.volume = Math.min(ducked, 0.25);
    }
    u.onend = u.onerror = () => {
      if (ducked !== null) { el.audio.volume = ducked; ducked = null; }
    };
    window.speechSynthesis.speak(u);
  } catch { /* no voice here: the text is on the screen */ }
}

export function wireAsk() {
  el.askForm.addEventListener("submit", (e) => {
    e.preventDefault();
    if (pending) return; // the box keeps what was typed, to send after the answer
    const text = el.askInput.value;
    el.askInput.value = "";
    ask(text);
  });
}

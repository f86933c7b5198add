// Asking: typed, or said to the browser's own speech recognition. Every question, however
// it was made, goes through `ask(text)`, and the answer is shown and spoken.
import { api, listenerPath, problem } from "./api.js";
import { refreshState } from "./position.js";
import { DEVICE, state } from "./state.js";
import { el, notice } from "./ui.js";

export async function ask(utterance) {
  utterance = utterance.trim();
  if (!utterance) return;
  el.answer.textContent = "…";
  let res;
  try {
    // Not one of "ours": a turn can take seconds, and other devices' pushes must not wait.
    res = await api("POST", `${listenerPath()}/turns`, { device: DEVICE, utterance });
  } catch {
    el.answer.textContent = "I could not reach Bedside. Try again in a moment.";
    return;
  }
  if (!res.ok) {
    el.answer.textContent = `Sorry: ${problem(res)}.`;
    return;
  }
  const reply = res.data || {};
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

function recognise(rec, done) {
  rec.lang = document.documentElement.lang || "en";
  rec.interimResults = true;
  rec.maxAlternatives = 1;
  let final = "";
  rec.onresult = (e) => {
    let text = "";
    for (const r of e.results) {
      text += r[0].transcript;
      if (r.isFinal) final = text;
    }
    el.askInput.value = text;
  };
  rec.onerror = (e) => {
    if (e.error === "no-speech" || e.error === "aborted") return;
    const why = e.error === "not-allowed" || e.error === "service-not-allowed"
      ? "The microphone is not allowed here"
      : "Speech recognition is not available here";
    notice(`${why}; type your question instead.`);
    el.askInput.focus();
  };
  rec.onend = () => {
    el.mic.setAttribute("aria-pressed", "false");
    el.mic.setAttribute("aria-label", "Speak your question");
    done();
    if (final.trim()) ask(final);
  };
  el.mic.setAttribute("aria-pressed", "true");
  el.mic.setAttribute("aria-label", "Stop listening");
  rec.start();
}

function setupMic() {
  const Recognition = window.SpeechRecognition || window.webkitSpeechRecognition;
  if (!Recognition) return; // typing only
  el.mic.hidden = false;
  el.mic.setAttribute("aria-pressed", "false");
  let rec = null;
  el.mic.addEventListener("click", () => {
    if (rec) { rec.stop(); return; }
    try {
      rec = new Recognition();
    } catch {
      el.mic.hidden = true;
      return;
    }
    recognise(rec, () => { rec = null; });
  });
}

export function wireAsk() {
  el.askForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = el.askInput.value;
    el.askInput.value = "";
    ask(text);
  });
  setupMic();
}

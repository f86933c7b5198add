// Asking aloud: the page records the question and Bedside transcribes it, offline.
//
// The microphone is read with getUserMedia and an AudioWorklet (voice-tap.js), which takes the
// samples on the audio thread, so a busy page loses none. The recording is made a 16 kHz mono
// 16-bit PCM WAV here (no library, nothing fetched) and posted to the spoken-turn route with
// the device cookie. Hold the button to talk, or tap it to start and tap again to send; in
// hands-free mode a tap starts and the end of speech sends. The browser's own recogniser,
// which may send the audio to an online service, is used only when the listener turns it on.
//
// Of the rest of the page it takes where to post, and how to show and speak a reply;
// nothing else of the page is touched but the voice controls.
import { listenerPath, timeoutSignal, unanswered } from "./api.js";
import { answered, ask, askedFrom, LOST_TOUCH, oneQuestion, questionPending, showAnswer, STILL_ANSWERING } from "./ask.js";
import { settled } from "./position.js";
import { DEVICE, state } from "./state.js";
import { notice } from "./ui.js";

const $ = (id) => document.getElementById(id);
const mic = $("mic");
const heardLine = $("heard");
const handsFreeBox = $("hands-free");
const browserBox = $("browser-recognition");
const settings = $("voice-settings");

const WAV_RATE = 16_000; // what the recogniser hears
const MAX_SECONDS = 14; // the route takes fifteen seconds of it
const HOLD_MS = 350; // a press longer than this is push to talk; shorter is a tap
// The end of speech, by energy: a chunk (voice-tap.js) is speech when it is well above the
// quietest one heard. Time is counted in samples taken, not by the clock, since chunks may
// arrive late and together when the page is busy.
const SPEECH_OVER_FLOOR = 4;
const MIN_SPEECH_LEVEL = 0.008; // RMS of a full-scale signal is ~0.7; a quiet room ~0.001
const SPEECH_CHUNKS = 2; // in a row, before speech counts as begun
const END_SILENCE_MS = 900;
const NO_SPEECH_MS = 7_000;
const MIN_WAV_BYTES = 44 + WAV_RATE * 2 * 0.3; // shorter than this was a slip of the finger

const SETTING = { handsFree: "bedside.voice.handsFree", browser: "bedside.voice.browserRecognition" };
const Recognition = window.SpeechRecognition || window.webkitSpeechRecognition || null;
const canRecord = Boolean(window.isSecureContext && navigator.mediaDevices && navigator.mediaDevices.getUserMedia
  && window.AudioContext && window.AudioWorkletNode);
const TAP = new URL("./voice-tap.js", import.meta.url);
const FLUSH_WAIT_MS = 1_000; // a context that stopped running flushes nothing; the rest is sent

function remembered(key) {
  try { return localStorage.getItem(key) === "on"; } catch { return false; }
}
function remember(key, on) {
  try { localStorage.setItem(key, on ? "on" : "off"); } catch { /* private mode: for this visit only */ }
}

// ---- the recording ---------------------------------------------------------------------

// One recording, from the press to the stop: the samples as the device makes them, and a
// running judgement of whether speech has begun and (hands-free) ended.
class Recording {
  constructor(stopsOnSilence, onEndOfSpeech) {
    this.context = new AudioContext(); // made within the press: browsers start audio only on a gesture
    this.chunks = [];
    this.length = 0;
    this.floor = Infinity;
    this.loudInRow = 0;
    this.spoke = false;
    this.quietFrom = null; // seconds into the recording
    this.flushed = null;
    this.opening = null; // open(), which a first use's permission prompt can hold for long
    this.stopsOnSilence = stopsOnSilence;
    this.onEndOfSpeech = onEndOfSpeech;
    this.stream = null;
  }

  async open() {
    // The tap first: the microphone's samples flow from the moment it opens, and a tap loaded
    // after it (slow under load) lost the question's first words ("go to chapter two": "Tatoo").
    await this.context.audioWorklet.addModule(TAP);
    this.stream = await navigator.mediaDevices.getUserMedia({
      audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: true },
    });
    await this.context.resume();
    const source = this.context.createMediaStreamSource(this.stream);
    this.tap = new AudioWorkletNode(this.context, "bedside-voice-tap", { numberOfOutputs: 1 });
    this.flushed = new Promise((resolve) => {
      this.tap.port.onmessage = (event) => {
        if (event.data === "flushed") resolve();
        else this.take(event.data);
      };
    });
    const mute = this.context.createGain();
    mute.gain.value = 0; // every browser runs a node that reaches the output; nothing is heard
    source.connect(this.tap);
    this.tap.connect(mute);
    mute.connect(this.context.destination);
  }

  take(chunk) {
    const from = this.length / this.context.sampleRate;
    this.chunks.push(chunk);
    this.length += chunk.length;
    let energy = 0;
    for (const x of chunk) energy += x * x;
    const level = Math.sqrt(energy / chunk.length);
    this.floor = Math.min(this.floor, level);
    const loud = level > Math.max(MIN_SPEECH_LEVEL, this.floor * SPEECH_OVER_FLOOR);
    this.loudInRow = loud ? this.loudInRow + 1 : 0;
    if (this.loudInRow >= SPEECH_CHUNKS) this.spoke = true;
    if (loud) this.quietFrom = null;
    else if (this.quietFrom === null) this.quietFrom = from;
    const seconds = this.length / this.context.sampleRate;
    if (seconds >= MAX_SECONDS) this.onEndOfSpeech("long");
    else if (!this.stopsOnSilence) return;
    else if (this.spoke && this.quietFrom !== null && (seconds - this.quietFrom) * 1000 >= END_SILENCE_MS) {
      this.onEndOfSpeech("ended");
    } else if (!this.spoke && seconds * 1000 >= NO_SPEECH_MS) this.onEndOfSpeech("silent");
  }

  async close() {
    // Let go while the microphone was still being opened: it is opened, then closed, not left on.
    try { await this.opening; } catch { /* it never opened */ }
    if (this.tap) {
      // The samples still on their way, and the part chunk, before the recording ends.
      this.tap.port.postMessage("flush");
      await Promise.race([this.flushed, new Promise((resolve) => setTimeout(resolve, FLUSH_WAIT_MS))]);
      this.tap.port.onmessage = null;
    }
    if (this.stream) for (const track of this.stream.getTracks()) track.stop();
    const rate = this.context.sampleRate;
    try { await this.context.close(); } catch { /* already closed */ }
    // Chunks that were on their way when the limit was reached are not sent.
    return wavOf(downsampled(this.chunks, Math.min(this.length, MAX_SECONDS * rate), rate));
  }
}

// To 16 kHz by averaging each output sample's span of input: a crude low-pass, enough for speech.
function downsampled(chunks, length, rate) {
  const all = new Float32Array(length);
  let at = 0;
  for (const chunk of chunks) {
    if (at >= length) break;
    all.set(chunk.subarray(0, length - at), at);
    at += chunk.length;
  }
  if (rate === WAV_RATE) return all;
  const step = rate / WAV_RATE;
  const out = new Float32Array(Math.floor(length / step));
  for (let i = 0; i < out.length; i += 1) {
    const from = Math.floor(i * step);
    const to = Math.max(from + 1, Math.floor((i + 1) * step));
    let sum = 0;
    for (let j = from; j < to; j += 1) sum += all[j];
    out[i] = sum / (to - from);
  }
  return out;
}

// A 44-byte RIFF header and little-endian 16-bit samples.
function wavOf(samples) {
  const bytes = new DataView(new ArrayBuffer(44 + samples.length * 2));
  const text = (offset, s) => { for (let i = 0; i < s.length; i += 1) bytes.setUint8(offset + i, s.charCodeAt(i)); };
  text(0, "RIFF");
  bytes.setUint32(4, 36 + samples.length * 2, true);
  text(8, "WAVE");
  text(12, "fmt ");
  bytes.setUint32(16, 16, true); // the fmt chunk's size
  bytes.setUint16(20, 1, true); // PCM
  bytes.setUint16(22, 1, true); // mono
  bytes.setUint32(24, WAV_RATE, true);
  bytes.setUint32(28, WAV_RATE * 2, true); // bytes a second
  bytes.setUint16(32, 2, true); // bytes a frame
  bytes.setUint16(34, 16, true); // bits a sample
  text(36, "data");
  bytes.setUint32(40, samples.length * 2, true);
  for (let i = 0; i < samples.length; i += 1) {
    const x = Math.max(-1, Math.min(1, samples[i]));
    bytes.setInt16(44 + i * 2, x < 0 ? x * 0x8000 : x * 0x7fff, true);
  }
  return new Blob([bytes.buffer], { type: "audio/wav" });
}

// ---- asking with it --------------------------------------------------------------------

let recording = null;
let stopping = false;

function show(phase) {
  const listening = phase === "listening";
  mic.dataset.state = phase;
  // its name says what a press does now; "pressed" as well would be read as "Stop and send…, pressed"
  mic.setAttribute("aria-label", listening ? "Stop and send your question" : "Speak your question");
}

async function start() {
  if (recording) return;
  // One question at a time (ask.js): nothing is recorded while one is unanswered.
  if (questionPending()) {
    notice(STILL_ANSWERING);
    return;
  }
  const made = new Recording(handsFreeBox.checked, (why) => finish(why));
  recording = made;
  stopping = false;
  show("listening");
  heardLine.textContent = "";
  showAnswer("Listening…");
  try {
    made.opening = made.open();
    await made.opening;
  } catch (error) {
    if (recording === made) { // not already let go, nor another started since
      recording = null;
      show("idle");
    }
    made.close();
    showAnswer("");
    const refused = error && (error.name === "NotAllowedError" || error.name === "SecurityError");
    notice(refused ? "The microphone is not allowed here; type your question instead."
      : "No microphone could be opened; type your question instead.");
  }
}

async function finish(why = "sent") {
  const made = recording;
  if (!made || stopping) return;
  stopping = true;
  recording = null;
  show("thinking");
  const wav = await made.close();
  if (why === "silent" || wav.size < MIN_WAV_BYTES) {
    showAnswer("I didn't hear a question. Hold the button while you speak, or type it.");
    show("idle");
    return;
  }
  try {
    // Recorded before another question went (typed, or sent while this one was closing): not sent.
    const sent = await oneQuestion(() => send(wav));
    if (!sent) notice(STILL_ANSWERING);
  } finally {
    show("idle");
  }
}

async function send(wav) {
  showAnswer("…");
  let res;
  let asked;
  try {
    await settled(); // after what was pressed before it, as a typed question (ask.js)
    asked = askedFrom();
    res = await fetch(`${listenerPath()}/turns/spoken?device=${encodeURIComponent(DEVICE)}`, {
      method: "POST",
      headers: { "Content-Type": "audio/wav", Accept: "application/json" },
      body: wav,
      cache: "no-store",
      credentials: "same-origin",
      signal: timeoutSignal(state.spokenTurnWaitMs), // the body too: never "…" for good
    });
  } catch {
    showAnswer(LOST_TOUCH);
    return;
  }
  let reply = null;
  try {
    reply = await res.json();
  } catch (error) {
    if (error.name === "TimeoutError" || error.name === "AbortError" || error instanceof TypeError) {
      showAnswer(LOST_TOUCH); // cut off midway: not the server's word
      return;
    }
    reply = null;
  }
  if (!res.ok || !reply) {
    showAnswer(unanswered({ status: res.status, data: reply }));
    return;
  }
  if (!reply.heard || !reply.turn) {
    heardLine.textContent = "";
    showAnswer("I didn't catch that. Try again, or type your question.");
    return;
  }
  heardLine.textContent = `You asked: “${reply.heard}”`; // a live region always on the page (style.css)
  await answered(reply.turn, asked);
}

// ---- the browser's own recogniser, when the listener chose it ----------------------------

let recogniser = null;
function recogniseInBrowser() {
  if (recogniser) { recogniser.stop(); return; }
  try { recogniser = new Recognition(); } catch { notice("This browser's recogniser did not start."); return; }
  recogniser.lang = document.documentElement.lang || "en";
  recogniser.interimResults = true;
  recogniser.maxAlternatives = 1;
  let final = "";
  recogniser.onresult = (event) => {
    let text = "";
    for (const result of event.results) {
      text += result[0].transcript;
      if (result.isFinal) final = text;
    }
    heardLine.textContent = `You asked: “${text}”`;
  };
  recogniser.onerror = (event) => {
    if (event.error === "no-speech" || event.error === "aborted") return;
    notice("The browser's recogniser is not available here; type your question instead.");
  };
  recogniser.onend = () => {
    recogniser = null;
    show("idle");
    if (!final.trim()) return;
    ask(final).then((taken) => {
      if (!taken) notice(STILL_ANSWERING);
    });
  };
  show("listening");
  recogniser.start();
}

// ---- the button ------------------------------------------------------------------------

const useBrowser = () => Boolean(Recognition && browserBox.checked);
let pressedAt = 0;
let pressStarted = false;

mic.addEventListener("pointerdown", (event) => {
  if (event.button !== 0 || useBrowser()) return;
  event.preventDefault();
  mic.setPointerCapture(event.pointerId);
  pressedAt = performance.now();
  pressStarted = !recording;
  if (recording) finish(); // the second tap of tap-to-talk
  else start();
});
mic.addEventListener("pointerup", () => {
  if (!pressStarted || !recording) return;
  pressStarted = false;
  // Held: push to talk ends with the press. A tap keeps listening until the next tap, or,
  // hands-free, until the speech ends.
  if (performance.now() - pressedAt >= HOLD_MS && !handsFreeBox.checked) finish();
});
mic.addEventListener("pointercancel", () => { if (recording) finish(); });
mic.addEventListener("contextmenu", (event) => event.preventDefault()); // a long press is talking
mic.addEventListener("click", (event) => {
  if (useBrowser()) { recogniseInBrowser(); return; }
  if (event.detail !== 0) return; // a pointer: handled above
  if (recording) finish(); else start(); // the keyboard: Enter or Space starts, again sends
});

function offered() {
  mic.hidden = !(canRecord || useBrowser());
  settings.hidden = !(canRecord || Recognition);
  browserBox.closest("label").hidden = !Recognition;
  handsFreeBox.closest("label").hidden = !canRecord;
}

handsFreeBox.checked = remembered(SETTING.handsFree);
browserBox.checked = remembered(SETTING.browser);
handsFreeBox.addEventListener("change", () => remember(SETTING.handsFree, handsFreeBox.checked));
browserBox.addEventListener("change", () => { remember(SETTING.browser, browserBox.checked); offered(); });
show("idle");
offered();

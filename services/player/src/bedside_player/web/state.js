// What the page was opened with and what it believes: the one place the page's state lives.
// Other modules read and change `state`; nothing else on the page holds state of its own
// beyond a module's private timers.

const query = new URLSearchParams(location.search);
// A listener token or a pairing code arrives in the fragment, which no request carries; at
// start the page trades it for a device cookie (HttpOnly) and drops it from the address bar.
// One in the query is not taken: it went with the request for the page, into any proxy's log.
const fragment = new URLSearchParams(location.hash.slice(1));

export const TOKEN = fragment.get("token") || "";
export const PAIRING = fragment.get("pair") || "";
const DEVICE_KEY = "bedside-device";
// `let`: a duplicated tab takes a new name at start (claimDeviceName); importers see the change.
export let DEVICE = deviceName();
// How often a playing page reports where it is; a test may shorten it (?report_ms=300).
export const REPORT_EVERY_MS = Math.max(250, Number(query.get("report_ms")) || 15_000);
// How long a question is waited for before the page says it lost touch: a little longer than the
// player's own wait, which signing in tells (`Session`), so the server's own word, a 504, comes
// first; a test may shorten it (?turn_wait_ms=1500).
const TURN_WAIT_ASKED_MS = Number(query.get("turn_wait_ms")) || 0;
const LONGER_THAN_THE_PLAYER_MS = 10_000;
export function setTurnWaits(session) {
  state.turnWaitMs = TURN_WAIT_ASKED_MS || session.turn_timeout_ms + LONGER_THAN_THE_PLAYER_MS;
  state.spokenTurnWaitMs = TURN_WAIT_ASKED_MS || session.spoken_turn_timeout_ms + LONGER_THAN_THE_PLAYER_MS;
}
// How often an open page asks which books there are, so one added on another device is offered; a test
// may shorten it (?books_ms=1000).
export const BOOKS_EVERY_MS = Math.max(1_000, Number(query.get("books_ms")) || 60_000);
// How long a book made waits to be served (search indexes it a moment after) before the page takes it
// as gone from the books (removed since); a test may shorten it (?unserved_ms=3000).
export const UNSERVED_FOR_MS = Math.max(1_000, Number(query.get("unserved_ms")) || 10 * 60_000);
export const SKIP_MS = 30_000;
export const HISTORY_FETCH = 40; // raw entries a page; runs of reports fold into one

export const state = {
  listener: fragment.get("listener") || query.get("listener") || "",
  bookId: query.get("book") || "",
  book: null, duration: 0, chapters: [], audio: false,
  seq: 0, lastMoveSeq: 0, movesHeard: 0, lastMoveCause: null, lastMoveDevice: null, rows: [], listTurnId: null,
  playing: false, anchorPos: 0, anchorAt: performance.now(), speed: 1, // the player's speed for this book (ADR 82)
  inflight: 0, deferred: null,
  // this page's own moves not yet sent, oldest first, each with where playback had got to (position.js)
  unsentMoves: [],
  serverWord: null, // the position and playing of the newest state taken from the server
  scrubbing: false, lastReportAt: 0, reportedPlaying: false,
  joining: false, // this page's join is out: it does not yet know where the book has got to (position.js)
  // the player's timer, newest asleep fact and whether the book rests where it paused, as last pushed;
  // the rest is this page's fade and offer
  sleep: {
    timer: null, asleep: null, restsWherePaused: false, ranOutSeq: 0, untold: null, playedBelowStop: false, jumpedPast: null,
    fullVolume: null, dimmed: false, dismissedSeq: 0,
  },
  historyBefore: null,
  undo: { toMs: null, sending: false }, // where undo goes (the newest state's), and one is out
  turnWaitMs: 40_000, spokenTurnWaitMs: 60_000, // until signing in tells the player's own (setTurnWaits)
};

function deviceName() {
  const given = query.get("device");
  if (given && /^[A-Za-z0-9_-]{1,64}$/.test(given)) return given;
  // One name per tab (two tabs are two devices), saying roughly what the device is.
  try {
    const kept = sessionStorage.getItem(DEVICE_KEY);
    if (kept) return kept;
  } catch { /* private mode: a fresh name each load */ }
  return newDeviceName();
}

// The kinds of device the page names itself by, and each as said aloud (the player's contracts
// read the names back the same way: PAGE_DEVICE_KINDS).
const DEVICE_KINDS = { iphone: "iPhone", ipad: "iPad", android: "Android device", browser: "browser" };
const kindOf = (name) => {
  const [kind, letters, ...rest] = name.split("-");
  return Object.hasOwn(DEVICE_KINDS, kind) && /^[a-z0-9]{4}$/i.test(letters || "") && !rest.length ? kind : null;
};

function newDeviceName() {
  const ua = navigator.userAgent;
  const kind = /iPhone/.test(ua) ? "iphone" : /iPad/.test(ua) ? "ipad" : /Android/.test(ua) ? "android" : "browser";
  const made = `${kind}-${Math.random().toString(36).slice(2, 6)}`;
  try { sessionStorage.setItem(DEVICE_KEY, made); } catch { /* private mode */ }
  return made;
}

// Another device as a listener says it: "the iPhone", "another browser" when this is one too,
// never the letters that only keep two tabs apart.
export function deviceSaid(name) {
  const kind = kindOf(name);
  if (kind === null) return `the ${name}`;
  return kind === kindOf(DEVICE) ? `another ${DEVICE_KINDS[kind]}` : `the ${DEVICE_KINDS[kind]}`;
}

// A duplicated tab copies the tab's session storage, and with it the name: two tabs would be one
// device, and closing one would pause the other. Every tab answers for its name on a channel of
// this browser; a tab starting under a name another tab answers for takes a new one.
const CLAIM_WAIT_MS = 400; // a busy tab answers late: 150 ms missed it on a loaded machine
export async function claimDeviceName() {
  if (query.get("device") || typeof BroadcastChannel === "undefined") return;
  const channel = new BroadcastChannel("bedside-device-names");
  const me = Math.random().toString(36).slice(2);
  let taken = false;
  channel.onmessage = ({ data }) => {
    if (data.asking === DEVICE && data.from !== me) channel.postMessage({ taken: DEVICE, to: data.from });
    if (data.taken === DEVICE && data.to === me) taken = true;
  };
  channel.postMessage({ asking: DEVICE, from: me });
  await new Promise((resolve) => setTimeout(resolve, CLAIM_WAIT_MS));
  if (taken) DEVICE = newDeviceName();
}

export const clamp = (ms) => Math.max(0, Math.min(state.duration || Number.MAX_SAFE_INTEGER, Math.round(ms)));

// How long `bookMs` of the book takes to hear at the speed it plays (the player's `listening_ms`).
export const listeningMs = (bookMs) => bookMs / state.speed;
// How much of the book `listening` ms play at the speed it plays (the player's `book_ms_heard_in`).
export const bookMsHeardIn = (listening) => listening * state.speed;

// A pushed position closer than this to where this page plays is its own echo, or another device's
// sound a moment apart: listening, so at 3x it is 6 s of the book (ADR 82). Counted in book time, a
// device 0.7 s behind another at 3x jumped at each of the other's reports.
const FOLLOW_WITHIN_LISTENING_MS = 2_000;
// ``speed``: one a state brings, about to be played at.
export const followThresholdMs = (speed = state.speed) => FOLLOW_WITHIN_LISTENING_MS * speed;

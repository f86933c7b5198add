// Where the book is on this device, and keeping it in step with the server.
//
// The server is the clock of record: this page plays (an <audio> element, or a clock that
// runs in real time when the book has no audio), reports where it is, and follows every
// state the server pushes. A report made before a move, or before another device's report,
// that this page had not yet seen is refused (409) with the current state, which the page
// then adopts: corrected, never obeyed.
import { api, bookPath, findState, listenerPath, pausedBySleep, problem } from "./api.js";
import { DEVICE, SKIP_MS, bookMsHeardIn, clamp, followThresholdMs, state } from "./state.js";
import { announce, clock, el, notice, serverAnswered, setOff, showLink, spokenClock } from "./ui.js";

// What the rest of the page does when the position changes; main.js says, once.
const followers = {
  jumped(_ms, _back) {}, // the position was set from the server's state (back: to earlier)
  moving(_ms, _back) {}, // this page moves the book itself, to _ms (back: to earlier)
  adopted(_next) {}, // a state from the server was taken in
  sought() {}, // this page's own seek was answered
  rendered(_ms) {}, // the clock was drawn
  bookRemoved() {}, // the book is not here any more
};
export function follow(given) { Object.assign(followers, given); }

// The recording is the clock once it has been put where the page's own clock was: from its
// readyState alone, a skip pressed just before loadedmetadata would count from its start.
let audioPlaced = false;
const audioReady = () => state.audio && audioPlaced;

// The book's recording failed to load or to play on (a network gone, the server answering with
// an error). The page does not run its own clock in its place: reports of story played in
// silence would move the line past what the listener heard. It stops playing where the
// recording got to, fetches it again, and plays on if it is back soon and nothing was done
// with the book meanwhile; later than that the listener may be asleep, and is left to press play.
const RECORDING_RETRY_FIRST_MS = 2_000;
const RECORDING_RETRY_LAST_MS = 30_000;
const RESUME_WITHIN_MS = 120_000;
const lost = {
  since: 0, // when the recording was lost; 0 while it plays
  heard: 0, // where it had got to
  wasPlaying: false, // this page played it then, so it may play on by itself once it is back
  moveSeq: 0,
  leaving: false, // the leave has not reached the player (the network was down): sent on catching up
  backAt: -Infinity, // lost again soon after it came back, it is left to the listener and tried less often
  retryMs: RECORDING_RETRY_FIRST_MS,
  timer: 0,
};
const recordingLost = () => lost.since > 0;

// The browser refused to start the sound here (a tab nobody has touched yet). The book plays on
// another device: this one follows it silently, tells no progress of its own (its clock stands
// still, and would drag the playing device back), and shows Play until the listener presses it here.
let soundRefused = false;
// Until the browser has said whether it sounds it, this page tells no progress but a press of its own:
// a report made in the meantime (a chapter title asked for as the play was adopted) said it played.
let soundStarting = false;
const PRESS_PLAY_HERE = "Press play to hear it on this device.";
function sound() {
  soundStarting = true;
  const started = el.audio.play();
  started.finally(() => { soundStarting = false; }).catch(() => {});
  started.then(() => {
    soundRefused = false;
    // the press it asked for has been made: left up, it told the listener to press what they had pressed
    if (el.notice.textContent === PRESS_PLAY_HERE) notice("");
    reportPlayingSoon();
    renderPlay();
  }, () => {
    soundRefused = true;
    renderPlay();
    notice(PRESS_PLAY_HERE, 0);
  });
}

// A page that starts playing because another device pressed play says so at its next tick, not a
// report's interval later: until it does the player does not count it as playing, and the other
// device closing then would pause the book here too (ADR 45). One whose last report said it plays
// (its own press) has said it.
function reportPlayingSoon() {
  if (state.playing && !state.reportedPlaying) state.lastReportAt = -Infinity;
}

export function position() {
  if (audioReady()) return clamp(el.audio.currentTime * 1000);
  const running = state.playing ? bookMsHeardIn(performance.now() - state.anchorAt) : 0;
  return clamp(state.anchorPos + running);
}

// Play at `speed` from here on: the clock goes on from where it has got to, the recording at its rate
// (its default too, which a new source starts at). Playing, the page says where it is at once: the
// player's sums of where the book has got to run from its newest report.
export function playAt(speed) {
  if (speed === state.speed) return;
  state.anchorPos = position();
  state.anchorAt = performance.now();
  state.speed = speed;
  el.audio.defaultPlaybackRate = speed;
  el.audio.playbackRate = speed;
  if (state.playing) state.lastReportAt = -Infinity;
}

export function setPosition(ms) {
  state.anchorPos = clamp(ms);
  state.anchorAt = performance.now();
  if (audioReady()) el.audio.currentTime = state.anchorPos / 1000;
}

export function setPlaying(playing) {
  state.anchorPos = position();
  state.anchorAt = performance.now();
  state.playing = playing;
  // Stopped here (a press, or another device's pause, the sleep timer's, one asked aloud): the player
  // counts no one as playing now, so this page's next start is news to it.
  if (!playing) state.reportedPlaying = false;
  if (!state.audio) reportPlayingSoon(); // a book without a recording plays its clock
  if (state.audio) {
    if (playing && recordingLost()) {
      fetchRecordingAgain(); // another device plays the book: this one joins once it can sound it
    } else if (playing) {
      sound();
    } else {
      soundRefused = false;
      el.audio.pause();
    }
  }
  renderPlay();
}

// The book has a recording: play it instead of the clock. Its requests carry the cookie.
export function playAudio(url) {
  if (state.audio) return;
  state.audio = true;
  audioPlaced = false; // a new source starts at 0 until it is placed
  el.audio.src = url;
  el.audio.addEventListener("loadedmetadata", () => {
    el.audio.currentTime = position() / 1000;
    audioPlaced = true;
    if (!state.duration && Number.isFinite(el.audio.duration)) state.duration = el.audio.duration * 1000;
    if (recordingLost()) recordingBack();
    else if (state.playing) sound();
  });
  el.audio.addEventListener("ended", () => { if (state.playing) { setPlaying(false); report(); } });
  el.audio.addEventListener("error", recordingFailed);
  window.addEventListener("online", fetchRecordingAgain);
}

function recordingFailed() {
  clearTimeout(lost.timer);
  if (!recordingLost()) {
    const again = performance.now() - lost.backAt < RESUME_WITHIN_MS;
    lost.since = performance.now();
    lost.heard = position();
    lost.wasPlaying = state.playing && !again;
    lost.moveSeq = state.lastMoveSeq;
    if (!again) lost.retryMs = RECORDING_RETRY_FIRST_MS;
    audioPlaced = false;
    setPosition(lost.heard);
    notice(state.playing
      ? (time) => `The recording stopped at ${time(lost.heard)}: it could not be fetched. Trying again…`
      : "The recording could not be fetched. Trying again…", 0);
    if (state.playing) {
      setPlaying(false);
      render();
      lost.leaving = true;
      leaveWhileLost();
    }
  }
  lost.timer = setTimeout(fetchRecordingAgain, lost.retryMs);
  lost.retryMs = Math.min(lost.retryMs * 2, RECORDING_RETRY_LAST_MS);
}

// The last device playing leaves the book paused where it was heard (ADR 45); with another
// playing, it plays on, and the player's word, not this page's pause, says so.
async function leaveWhileLost() {
  try {
    const res = await ours("POST", `${listenerPath()}/devices/leave`, () => (
      { device: DEVICE, position_ms: lost.heard, basis_seq: state.seq }
    ));
    lost.leaving = false;
    const got = res.ok ? findState(res.data) : null;
    if (got) adopt(got, { force: true });
    else afterCommand(res, "Another device moved the book to");
  } catch {
    showLink(false);
  }
}

// At once when the network or the server is heard again, else on the timer.
export function fetchRecordingAgain() {
  if (!recordingLost()) return;
  clearTimeout(lost.timer);
  el.audio.load();
}

async function recordingBack() {
  const word = state.serverWord;
  const untouched = !state.playing && state.lastMoveSeq === lost.moveSeq
    && word !== null && !word.playing && word.position_ms === lost.heard;
  const playOn = lost.wasPlaying && untouched && performance.now() - lost.since <= RESUME_WITHIN_MS;
  clearTimeout(lost.timer);
  lost.since = 0;
  lost.backAt = performance.now();
  if (state.playing) {
    // Another device plays it: this page joins where the player says the book is, not where its
    // own clock ran to while it could not play.
    await refreshState({ force: true });
    if (state.playing) setPlaying(true);
    notice("The recording is back.");
  } else if (playOn) {
    setPlaying(true);
    report();
    const from = position(); // taken once, so the place shown and the place said are the same
    notice((time) => `The recording is back; playing on from ${time(from)}.`);
  } else {
    notice("The recording is back. Press play to carry on.");
  }
}

// The answer to a request that moves the book (`ours`' `answered`): its move is this page's own, which
// the page says itself, not as another device's (nor again when a push of it held back meanwhile is
// taken in).
export function ownMove(res, got) {
  if (got) state.lastMoveSeq = Math.max(state.lastMoveSeq, got.last_move_seq || 0);
}

// Our own requests: while one is out, pushes wait, so an echo of an older state
// cannot flip what the listener just did. They go out one at a time and a body given as
// a function is made when it is sent, so its basis includes the reply to the one before:
// a report never races this page's own seek and is never refused because of it.
// Only a reply that took the request moves the basis on here. A refusal's state moves the
// basis and the position together, when it is adopted: taken here, the next request made would
// pair it with this page's old place, a fresh report from where the book no longer is.
// `answered` sees the reply before the next request is made.
let ourQueue = Promise.resolve();
// Once every request of this page's own sent so far is answered (none is held back for it).
export const oursAnswered = () => ourQueue;
export async function ours(method, path, body, answered = null) {
  state.inflight += 1;
  const sent = ourQueue.then(async () => {
    const res = await api(method, path, typeof body === "function" ? body() : body);
    serverAnswered();
    const got = res.ok ? findState(res.data) : null;
    if (got) state.seq = Math.max(state.seq, got.seq);
    if (answered) answered(res, got);
    return res;
  });
  ourQueue = sent.catch(() => {});
  try {
    return await sent;
  } finally {
    state.inflight -= 1;
    if (state.inflight === 0 && state.deferred) {
      const { pushed, why } = state.deferred;
      state.deferred = null;
      // said only for a move not this page's own (known as its own once answered: `ownMove`)
      adopt(pushed, { why: (pushed.last_move_seq || 0) > state.lastMoveSeq ? why : "" });
    }
  }
}

// Everything the listener did on this page so far, answered by the player: a scrub still being
// gathered goes out now. A question waits for it, so it is heard where the listener put the book
// and after the skip pressed before it, which would otherwise withdraw the list it draws (ADR 47).
// A page that plays says where it has got to first: its last report may be 15 s behind, and "back
// 30 seconds" or "who is that?" is asked from where the listener is.
export async function settled() {
  settleScrub();
  if (state.playing) report();
  await ourQueue;
}

// The listener was removed (`bedside listener remove`): their stream has ended, and every
// command would be refused. Stop, say so, and send nothing more.
export const REMOVED_WORDS =
  "This listener was removed from Bedside, so nothing more is recorded here. Ask whoever runs Bedside for a new link.";
function removed() {
  if (state.stopped) return;
  state.stopped = true;
  stopSaying(REMOVED_WORDS);
}

// The device cookie is the browser's: another listener's link opened in another tab makes it theirs,
// and every command of this page would be refused as another's. Stop for good, saying so. `other`:
// whom the browser listens as now (null: no one). True when this page stopped for it.
export function signedInAs(other) {
  if (state.stopped || !state.listener || other === state.listener) return false;
  state.stopped = true;
  const me = state.listener;
  stopSaying(other
    ? `This browser now listens as ${other}: their link was opened in it. To listen as ${me} here, open ${me}'s link again.`
    : `This browser is no longer signed in. To listen as ${me} here, open ${me}'s link again.`);
  return true;
}

// A refusal as another listener's (403): whom the browser listens as now, asked of the server.
async function signedInAsAnother() {
  let res;
  try { res = await api("GET", "/api/session"); } catch { return false; }
  return signedInAs(res.ok ? res.data.listener : null);
}

// Stopped for good (the caller marked why, so nothing more is sent): the notice stays.
function stopSaying(words) {
  setPlaying(false);
  render();
  notice(words, 0);
}

// The book was removed (`bedside remove`) while this page had it open: every command about it is
// refused (404). Stop, say so, and offer the books there are.
const BOOK_REMOVED_WORDS =
  "This book has been removed from Bedside. Your place in it is kept in case it is added again; choose another book above.";
function bookRemoved() {
  if (state.bookRemoved) return;
  state.bookRemoved = true;
  stopSaying(BOOK_REMOVED_WORDS);
  followers.bookRemoved();
}

// A command refused as not found: the book, when the books there are no longer hold it; anything
// else (a route an older player does not have) is said as it is.
async function whetherTheBookIsGone(refused) {
  if (!(await stopIfTheBookIsGone())) notice(`Could not do that: ${problem(refused)}.`);
}

async function whetherSignedInAsAnother(refused) {
  if (!(await signedInAsAnother())) notice(`Could not do that: ${problem(refused)}.`);
}

// Whether the book was removed, asked of the server: the player ends a removed book's event
// streams, so a stream that cannot be opened again asks this too. True once stopped for it.
export async function stopIfTheBookIsGone() {
  let book = null;
  try { book = await api("GET", bookPath()); } catch { return false; }
  if (!book || book.status !== 404) return false;
  bookRemoved();
  return true;
}

// Follow the server. An older state than one already seen changes nothing.
export function adopt(next, { force = false, why = "" } = {}) {
  if (!next || state.bookRemoved) return;
  if (next.retired) { removed(); return; }
  if (state.inflight > 0 && !force) {
    // kept with what it would say: a move elsewhere is told when it is taken in, however late
    if (!state.deferred || next.seq >= state.deferred.pushed.seq) state.deferred = { pushed: next, why };
    return;
  }
  if (next.seq < state.seq && !force) return;
  const moved = (next.last_move_seq || 0) > state.lastMoveSeq;
  // A join, a timer or a list elsewhere leaves the server's word on the position as it was:
  // the last report, seconds behind a page that plays on. Nothing to follow in that.
  const quiet = !force && !moved && toldQuiet(next);
  const echo = !force && !moved && (sameWord(next) || quiet);
  state.serverWord = { position_ms: next.position_ms, playing: next.playing };
  state.seq = Math.max(state.seq, next.seq);
  if ((next.last_move_seq || 0) >= state.lastMoveSeq) {
    state.lastMoveCause = next.last_move_cause || null;
    state.lastMoveDevice = next.last_move_device || null;
  }
  if (moved) state.movesHeard += 1; // a push may stand for several moves: see ask.js
  state.lastMoveSeq = Math.max(state.lastMoveSeq, next.last_move_seq || 0);
  state.rows = Array.isArray(next.rows) ? next.rows : [];
  state.listTurnId = next.list_turn_id || null;
  // Another device's report from behind this playing page pulls nothing back: its sound stalled,
  // and the listener is hearing this one. Only a report (the newest word no move): a move, this
  // page's own skip as the player put it among them, a pause or a refusal is followed still.
  const newestIsReport = (next.seq || 0) > (next.last_move_seq || 0);
  const behind = !force && !moved && newestIsReport && state.playing && next.playing && next.position_ms < position();
  // Paused here at the sleep timer's stop while the player could not be told (sleep.js, `untold`): that
  // pause is newer than any report, and is not undone by one before the player has decided it. Its answer
  // (a move) or its refusal (forced) is followed.
  const stoppedHere = !force && !moved && state.sleep.untold !== null;
  // at the speed the state brings (adopted below), as a page that had heard of it already would count
  const speedTold = typeof next.speed === "number" ? next.speed : state.speed;
  const far = !echo && !behind && !stoppedHere
    && Math.abs(next.position_ms - position()) > followThresholdMs(speedTold);
  const playingChanges = !echo && !stoppedHere && typeof next.playing === "boolean" && next.playing !== state.playing;
  // A pause first: stopped after the place was set, the clock ran on a tick past it (a sleep timer's
  // stop at a chapter's last millisecond showed the next chapter).
  if (playingChanges && !next.playing) setPlaying(false);
  if (force || moved || far) {
    const back = next.position_ms < position();
    setPosition(next.position_ms);
    followers.jumped(next.position_ms, back);
  }
  if (playingChanges && next.playing) setPlaying(true);
  // Another device's Pause, pressed seconds apart from this page (its sound had stalled), is a report, not
  // a move: it is told as the pause it is, not as the book moved there; one that stopped at the book's end
  // is the book played out there, no one's pause.
  const pausedThere = playingChanges && !next.playing;
  if (why && (moved || far)) {
    const at = next.position_ms;
    notice(moved ? movedWords(next, why) : pausedThere ? stoppedWords(at) : placeWords(why, at));
  }
  // The state's timer first: drawn at the new place with the old one, a page would take the old stop
  // as reached and pause there.
  followers.adopted(next);
  showUndo(next.undo_to_ms);
  render();
  if (quiet) report();
}

// Undo names the place it goes back to, however long ago the move was or whichever device made it;
// it is off while there is nothing to undo, or while this page's own undo is out.
export function showUndo(toMs = state.undo.toMs) {
  state.undo.toMs = toMs;
  setOff(el.undo, toMs === null || state.undo.sending, el.play);
  el.undo.textContent = toMs === null ? "Back to where I was" : `Back to where I was (${clock(toMs)})`;
  // named in words for a screen reader, which reads "0:00:30" out as digits and colons
  if (toMs === null) el.undo.removeAttribute("aria-label");
  else el.undo.setAttribute("aria-label", `Back to where I was, at ${spokenClock(toMs)}`);
}

// What a move says, told by what made it (the state's last_move_cause), the same on every
// device: an undo here or elsewhere is told as going back, the timer's pause as the timer's,
// and a pause asked for aloud as a pause (ADR 46). A pause the book has played on from since
// (another device pressed play meanwhile; this page hears of both at once) is no pause now:
// where the book plays is said, not "Paused at" over a book that plays.
function movedWords(next, why) {
  if (next.last_move_cause === "undo") return undoneWords(next.position_ms);
  if (!next.playing && next.last_move_cause === "paused") return placeWords(PAUSED_AT, next.position_ms);
  if (!next.playing && pausedBySleep(next.last_move_cause)) return sleepPauseWords(next.position_ms);
  return placeWords(why, next.position_ms);
}

// A notice of a place in the book, made with its time as shown or as said (see `notice`).
const placeWords = (why, ms) => (time) => `${why} ${time(ms)}.`;
const PAUSED_AT = "Paused at";

// A device that plays to the end reports where its recording stopped, which may fall a moment short of
// the book's length as the catalog has it.
const END_WITHIN_MS = 1_000;
const atTheEnd = (ms) => state.duration > 0 && ms >= state.duration - END_WITHIN_MS;
export const ENDED_ELSEWHERE = "The book ended on another device.";
const stoppedWords = (ms) => (atTheEnd(ms) ? ENDED_ELSEWHERE : placeWords(PAUSED_AT, ms));

export const sleepPauseWords = (ms) => placeWords("Paused by the sleep timer at", ms);

export const undoneWords = (ms) => (time) => `Back to ${time(ms)}, where you were before.`;

function sameWord(next) {
  const word = state.serverWord;
  return word !== null && word.position_ms === next.position_ms && word.playing === next.playing;
}

// Nothing new on the stream, and yet "paused": the player tells a book whose devices have gone
// quiet as paused (ADR 48), as it may after a phone's screen was locked or its link was down.
// This page plays it, so it has not gone: it plays on and says so with its next report.
function toldQuiet(next) {
  const word = state.serverWord;
  return state.playing && next.playing === false && next.seq <= state.seq && word !== null
    && word.position_ms === next.position_ms;
}

// Back after the link dropped: when the server heard nothing newer than this page did, what
// the listener did here meanwhile (a pause, playing on) is the newest word, and it is sent.
// `tellUntold` says what this page reached while away as what it was (the sleep timer's stop),
// not as a plain pause; true when it did. It goes first, before the state is taken in: a report of
// this page's from before the stop that got through as the link dropped (or another device's) is
// newer on the stream, and taken as news it played the book on from there, through the stop. The
// player decides the run-out on the basis the page had at the stop (only a move since refuses it),
// and the pushes that come meanwhile wait for its answer.
// One at a time: the network's return and the stream's opening come together, and a second catch-up
// would take in the state while the first is telling, and report from it.
let catchingUp = null;
export function catchUp(tellUntold = async () => false) {
  catchingUp ??= catchUpOnce(tellUntold).finally(() => { catchingUp = null; });
  return catchingUp;
}

async function catchUpOnce(tellUntold) {
  if (recordingLost()) {
    if (lost.leaving) await leaveWhileLost();
    fetchRecordingAgain();
  }
  if (await tellUntold()) return;
  const seen = state.seq;
  const res = await refreshState();
  const word = state.serverWord;
  if (!res.ok || state.seq !== seen || !word) return;
  if (word.playing !== state.playing || Math.abs(word.position_ms - position()) > followThresholdMs()) report();
}

// The page's first state is taken whatever it says; later ones as any push is. Not "while seq is 0": a
// book this listener never opened stays at seq 0 until its first event, and a late refresh (the event
// stream opening) forced on the page put it back over a play and a skip pressed meanwhile.
export async function refreshState({ force = false } = {}) {
  const res = await api("GET", `${listenerPath()}/state`);
  if (res.ok) adopt(findState(res.data) || res.data, { force: force || state.serverWord === null });
  else if (res.status === 403) await signedInAsAnother();
  return res;
}

// Where playback has got to, for a report made now. A move of this page's own jumps the page at
// once, but its request waits its turn: a report queued before it, and made when sent, would carry
// the move's target as progress (refused when another device spoke meanwhile, and the move told
// twice otherwise, so "back to where I was" went nowhere). It carries where playback was when the
// oldest move not yet sent was made: a report only ever carries playback, a move only travels as one.
function playedUpTo() {
  return state.unsentMoves.length > 0 ? state.unsentMoves[0] : position();
}

// `pressed`: the listener pressed play or pause here, which says someone is awake (ADR 24).
export async function report({ pressed = false } = {}) {
  if (state.stopped || state.bookRemoved) return;
  if ((recordingLost() || soundRefused) && state.playing) return; // not sounding it: no progress to tell
  // not yet sure of its place (`join`) or its sound (`sound`): only a press of the page's own is told
  if ((state.joining || soundStarting) && state.playing && !pressed) return;
  state.lastReportAt = performance.now();
  state.reportedPlaying = state.playing;
  const body = () => ({
    device: DEVICE, position_ms: playedUpTo(), playing: state.playing, basis_seq: state.seq, device_clock: Date.now(),
    ...(pressed && { pressed }),
  });
  let res;
  try {
    res = await ours("POST", `${listenerPath()}/reports`, body);
  } catch {
    showLink(false);
    return;
  }
  afterCommand(res, "Another device moved the book to");
}

// A command of this page's own (undo, a row pressed, the list cancelled): the player's answer, or
// null when it could not be reached, which is said.
export async function command(path, body, answered = null) {
  try {
    return await ours("POST", `${listenerPath()}${path}`, body, answered);
  } catch {
    showLink(false);
    notice("Bedside could not be reached just now; try again in a moment.");
    return null;
  }
}

// This page is going away (closed, or left for another): a playing page tells the player, so
// a book it alone was playing does not stay "playing" for every other device (ADR 45). Sent as
// a beacon, which outlives the page. Not on hiding: a phone with its screen locked plays on.
export function leave() {
  if (!state.playing || !state.book) return;
  const body = { device: DEVICE, position_ms: playedUpTo(), basis_seq: state.seq };
  const blob = new Blob([JSON.stringify(body)], { type: "application/json" });
  navigator.sendBeacon(`${listenerPath()}/devices/leave`, blob);
}

// What every command's reply does: accepted -> note the seq; refused -> adopt the state.
// Once the page has stopped (its listener removed, or the browser signed in as another), a reply to
// a command sent before it heard of it says nothing more, and its refusal would cover the notice
// saying why. A refusal as another's asks whom the browser listens as now.
// `why` says a move another device made, which a refusal or the answer itself may bring (the page's own
// move is known as its own when answered: `ownMove`).
export function afterCommand(res, why) {
  if (state.stopped || state.bookRemoved) return false;
  if (res.status === 404) {
    whetherTheBookIsGone(res);
    return false;
  }
  if (res.status === 403) {
    whetherSignedInAsAnother(res);
    return false;
  }
  if (res.status === 409) {
    const refused = findState(res.data);
    if (refused && refused.seq < state.seq) stateAfterAStaleRefusal(why);
    else adopt(refused, { force: true, why });
    return true;
  }
  if (!res.ok) {
    notice(`Could not do that: ${problem(res)}.`);
    return false;
  }
  const got = findState(res.data);
  if (got) {
    adopt(got, { why });
  } else if (res.data && typeof res.data.seq === "number") {
    state.seq = Math.max(state.seq, res.data.seq);
  }
  return true;
}

// A push can overtake the answer to a command: a refusal older than the state taken in meanwhile would
// put the page back where the book no longer is (and the newer seq kept would pass the pushes after it
// over). The player's state now is taken instead, asked after this page's own requests, unless a newer
// one came meanwhile; by force, as a refusal's is, since the page's own move was not made.
async function stateAfterAStaleRefusal(why) {
  let res;
  try {
    res = await ours("GET", `${listenerPath()}/state`);
  } catch {
    showLink(false);
    return;
  }
  const now = res.ok ? findState(res.data) : null;
  if (!now || now.seq < state.seq) return;
  adopt(now, { force: true });
  if (why) notice(placeWords(why, now.position_ms));
}

// Say this device follows the book (a device that cannot join still works). Its answer says where a
// book playing elsewhere has got to: until then this page plays from the newest report, seconds behind,
// and a report made of its own accord would tell the player the book was back there. A press's own report
// goes at once; a join that no answer comes to holds nothing after JOIN_WAIT_MS. An answer that comes
// while the page's own requests are out is taken in once they are answered (`adopt`), and reports wait
// for that too.
const JOIN_WAIT_MS = 10_000;
export function join() {
  state.joining = true;
  const joined = () => { state.joining = false; };
  const givenUp = setTimeout(joined, JOIN_WAIT_MS);
  api("POST", `${listenerPath()}/devices`, { device: DEVICE })
    .then((res) => { const got = res.ok ? findState(res.data) : null; if (got) adopt(got); })
    .catch(() => {})
    .then(() => oursAnswered())
    .finally(() => { clearTimeout(givenUp); joined(); });
}

// The scrubber's key steps are gathered into one seek. One still waiting goes out before
// any other command: sent later, with a fresh basis, it would undo what came after it.
const scrub = { timer: 0, chosen: null };
export function settleScrub() {
  if (scrub.chosen === null) return;
  clearTimeout(scrub.timer);
  const chosen = scrub.chosen;
  scrub.chosen = null;
  state.scrubbing = false;
  seekTo(chosen);
}

// A skip says how far it goes: a page that missed another device's progress is moved that far from
// where the book has got to, not from the old place it showed (the player's rule, `decide.sought`).
// Skips pressed before the player answered the one before go on from where that one was put, not
// from where this page worked it out: a second tap of "Back 30 s" on a stale phone went 30 s back
// from the stale place again.
const skips = { unanswered: 0, shift: 0 };
export const skip = (ms) => {
  if (!state.book) return; // nothing to move, and nothing to say
  settleScrub();
  const from = position();
  const goes = clamp(from + ms) - from; // at the book's start or end, less far than pressed
  seekTo(from + ms, ms).then((moved) => { if (moved && goes) saySkip(goes); });
};

// A skip moves nothing a screen reader reads, so it is said once the player has taken it (not one
// refused, or lost to another device's move): how far, and where the book is now. The buttons and
// the headset's skips too: the same move is heard the same way however it was pressed. Presses in
// quick succession are said once, as all they went: each said, a screen reader would read them one
// after another, long after the book got there.
const SKIPS_SAID_AFTER_MS = 400;
const skipsToSay = { byMs: 0, timer: 0 };
function saySkip(ms) {
  const sameWay = Math.sign(ms) === Math.sign(skipsToSay.byMs);
  skipsToSay.byMs = sameWay ? skipsToSay.byMs + ms : ms; // a press the other way starts again
  clearTimeout(skipsToSay.timer);
  skipsToSay.timer = setTimeout(() => {
    const way = skipsToSay.byMs < 0 ? "Back" : "Forward";
    announce(`${way} ${spokenClock(Math.abs(skipsToSay.byMs))}, to ${spokenClock(position())}.`);
    skipsToSay.byMs = 0;
  }, SKIPS_SAID_AFTER_MS);
}

// The state the player answered with once it moved the book as asked (null: it did not); ``by``: a
// skip of that many ms, else a place chosen.
export async function seekTo(ms, by = null) {
  if (!state.book) return null; // no book open (not paired, or none by that name): no place to move to
  settleScrub();
  const target = clamp(ms);
  state.unsentMoves.push(position()); // before the jump: a report queued ahead of it says this
  followers.moving(target, target < position());
  setPosition(target);
  render();
  if (skips.unanswered === 0) skips.shift = 0;
  skips.unanswered += 1;
  let sentTo = target;
  const body = () => {
    // Where this move leaves from (undo goes back there), newer than any report: where the page
    // had got to, moved as far as the player moved the skips before this one from their sums.
    const from = clamp(state.unsentMoves.shift() + skips.shift);
    if (by === null) skips.shift = 0; // a place chosen: what comes after counts from it
    sentTo = by === null ? target : clamp(target + skips.shift);
    const sent = { device: DEVICE, position_ms: sentTo, from_ms: from, basis_seq: state.seq, device_clock: Date.now() };
    return by === null ? sent : { ...sent, by_ms: by };
  };
  let landed = null;
  const answered = (res, got) => {
    landed = got;
    skips.unanswered -= 1;
    if (by !== null && got) skips.shift += got.position_ms - sentTo;
    // known as ours before a push of it held back meanwhile is taken in, which would otherwise count
    // it as another device's and seek the audio a second time
    ownMove(res, got);
  };
  let taken = null;
  try {
    const res = await ours("POST", `${listenerPath()}/seek`, body, answered);
    if (afterCommand(res, "Another device moved the book to") && res.ok) taken = landed;
  } catch {
    skips.unanswered -= 1; // no answer came
    showLink(false);
  }
  followers.sought();
  return taken;
}

// A place chosen on this page is said here as the other devices say it (in the dark the focus moving
// on is all that would be heard): where the player put it, unless another move has come since.
export function sayMovedHere(got) {
  if (got && (got.last_move_seq || 0) >= state.lastMoveSeq) notice(placeWords("Moved to", got.position_ms));
}

// The listener chose another book: the one they leave stops on every device, not on this one alone (a
// device left playing it would play on all night, its sleep timer gone with the listener).
export async function pauseEverywhere() {
  if (state.playing) setPlaying(false);
  try {
    await ours("POST", `${listenerPath()}/pause`, { device: DEVICE });
  } catch {
    showLink(false); // the new book opens all the same
  }
}

export function togglePlay() {
  if (!state.book) return;
  settleScrub();
  if (recordingLost() && !state.playing) {
    notice("Trying the recording again…", 0);
    fetchRecordingAgain();
    return;
  }
  if (soundRefused && state.playing) { // the press is the touch the browser waited for
    sound();
    return;
  }
  // Play at the very end starts the book again: a move, sent as one (a report is only playback).
  if (!state.playing && position() >= state.duration && state.duration) seekTo(0);
  setPlaying(!state.playing);
  render();
  report({ pressed: true });
}

export function renderPlay() {
  const sounding = state.playing && !soundRefused;
  el.play.dataset.playing = String(sounding);
  const label = sounding ? "Pause" : "Play";
  el.play.setAttribute("aria-label", label);
  el.play.title = label;
  if ("mediaSession" in navigator) {
    try { navigator.mediaSession.playbackState = sounding ? "playing" : "paused"; } catch { /* unsupported */ }
  }
}

// The scrubber moves in steps of its own (5 s): its end is the first step past the book's end, so
// the last seconds of a book whose length is not a whole number of steps can be reached.
const scrubberEnd = () => Math.ceil(state.duration / Number(el.scrubber.step || 1)) * Number(el.scrubber.step || 1);
const scrubbed = () => clamp(Number(el.scrubber.value));
// The slider says where it is in words: "0:05:03" is read out as digits and colons.
let spokenAt = { ms: 0, at: 0 }; // the place the scrubber's spoken value names, and when it was set
function sayScrubberAt(ms) {
  el.scrubber.setAttribute("aria-valuetext", `${spokenClock(ms)} of ${spokenClock(state.duration)}`);
  spokenAt = { ms, at: performance.now() };
}
// Whether the book is somewhere else than playing on from the place the scrubber last said: a move.
const movedSinceSaid = (pos) =>
  Math.abs(pos - (spokenAt.ms + bookMsHeardIn(performance.now() - spokenAt.at))) > followThresholdMs();

export function render() {
  const pos = position();
  if (state.playing && state.duration && pos >= state.duration && !state.audio) {
    setPlaying(false);
    report();
  }
  const shown = state.scrubbing ? scrubbed() : pos; // while dragged, the clock says where it will go
  el.pos.textContent = clock(shown);
  el.dur.textContent = clock(state.duration);
  if (!state.scrubbing) {
    el.scrubber.max = String(scrubberEnd());
    el.scrubber.value = String(pos);
    // under the focus, a value that changes as the book plays would be read out over it each second:
    // it is said again once the book stops or moves
    if (!state.playing || document.activeElement !== el.scrubber || movedSinceSaid(pos)) sayScrubberAt(pos);
  }
  el.scrubber.style.setProperty("--fill", `${state.duration ? (100 * shown) / scrubberEnd() : 0}%`);
  followers.rendered(pos);
}

// The transport buttons and the scrubber.
export function wirePosition() {
  el.play.addEventListener("click", togglePlay);
  el.back.addEventListener("click", () => skip(-SKIP_MS));
  el.fwd.addEventListener("click", () => skip(SKIP_MS));
  el.scrubber.addEventListener("input", () => {
    state.scrubbing = true;
    const v = scrubbed();
    el.pos.textContent = clock(v);
    sayScrubberAt(v);
    el.scrubber.style.setProperty("--fill", `${state.duration ? (100 * v) / scrubberEnd() : 0}%`);
  });
  el.scrubber.addEventListener("change", () => {
    // Keys fire a change per press: gather them into one move, to the last value chosen.
    scrub.chosen = scrubbed();
    state.scrubbing = true;
    clearTimeout(scrub.timer);
    scrub.timer = setTimeout(settleScrub, 350);
  });
}

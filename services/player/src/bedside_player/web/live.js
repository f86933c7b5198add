// The server's pushes: an EventSource on the listener's event stream. Same origin, so the
// device cookie opens it (ADR 22) and nothing secret is in its URL.
import { findState, listenerPath } from "./api.js";
import { madeByAQuestionHere, questionPending } from "./ask.js";
import { adopt, catchUp, refreshState, stopIfTheBookIsGone } from "./position.js";
import { tellRunOut } from "./sleep.js";
import { showStream } from "./ui.js";

const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 15_000;
// The server pings an idle stream, saying how often; one silent for longer than this many pings is
// dead though open (a hung server, a connection lost while a laptop slept) and is opened again.
const SILENT_PINGS = 2.5;
let pingEveryMs = null;
// Before any ping has said how often they come: a stream that opens and says nothing at all.
const FIRST_WORD_MS = 30_000;

function onState(event) {
  let parsed = null;
  try { parsed = JSON.parse(event.data); } catch { /* not JSON: still a sign that something changed */ }
  const pushed = findState(parsed);
  if (pushed) adopt(pushed, { why: askedHere(pushed) ? "" : "Moved to" });
  else refreshState();
}

// A move made by a question (a goto, a pause, a row chosen, an undo) on this device, pushed while it is
// out, is that question's: its answer tells it, and a notice as well would be read over the answer or
// the voice. One asked on another device (or from the command line) is news here, told as any move
// elsewhere is: taken as this page's own, the book jumped or stopped under the listener unsaid.
const askedHere = (pushed) => questionPending()
  && madeByAQuestionHere(pushed.last_move_cause, pushed.last_move_device);

// The browser reconnects by itself after a dropped stream; a stream it gave up on (a
// refused or failed request) or one gone silent is opened again here, waiting longer each time.
export function listen() {
  let wait = FIRST_RETRY_MS;
  const open = () => {
    const source = new EventSource(`${listenerPath()}/events`);
    const again = () => {
      setTimeout(open, wait);
      wait = Math.min(wait * 2, LAST_RETRY_MS);
    };
    let silence = 0;
    const heard = () => {
      clearTimeout(silence);
      silence = setTimeout(() => {
        source.close();
        showStream(false);
        again();
      }, pingEveryMs === null ? FIRST_WORD_MS : pingEveryMs * SILENT_PINGS);
    };
    heard(); // an opening that never answers is as silent
    source.addEventListener("open", () => {
      showStream(true);
      wait = FIRST_RETRY_MS;
      catchUp(tellRunOut); // anything missed while away, or what this page did meanwhile
    });
    source.addEventListener("ping", (event) => {
      try { pingEveryMs = JSON.parse(event.data).every_ms; } catch { /* keeps the last it said */ }
      heard();
    });
    source.addEventListener("state", (event) => {
      heard();
      onState(event);
    });
    source.addEventListener("error", async () => {
      showStream(false);
      if (source.readyState !== EventSource.CLOSED) return;
      clearTimeout(silence);
      if (await stopIfTheBookIsGone()) return; // a removed book's streams are ended and refused
      again();
    });
  };
  open();
  // A network back while the stream stayed open (no "open" comes): what this page did meanwhile.
  window.addEventListener("online", () => catchUp(tellRunOut));
}

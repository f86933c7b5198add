// Adding a book: the recording (and its e-book) sent to the player with the bytes counted as they
// go, then the book asked for, then its job followed until it is ready. What was sent is kept in
// this browser until ingest answers, and then the job it answered with, so a page reloaded midway
// (or a phone that slept) asks again (the same upload is the same job) or goes on saying how the
// job is, and a book made is offered until it is opened. A file whose sending a page left midway is
// lost with it (nothing of a body cut short is kept): leaving asks first, and the page that comes
// back says which file was not added.
import { api, problem } from "./api.js";
import { switchTo } from "./book.js";
import { state } from "./state.js";
import { setOff } from "./ui.js";

const $ = (id) => document.getElementById(id);
const form = $("add-form"), send = $("add-send"), section = $("add");
const bar = $("add-progress"), status = $("add-status"), open = $("add-open"), stop = $("add-stop");
const FOLLOWED = "bedside.adding";
const ASKED = "bedside.adding.asked";
const SENDING = "bedside.adding.sending";
const FOLLOW_EVERY_MS = 2_000;

const megabytes = (bytes) => `${(bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB`;

function say(text, share = null) {
  status.textContent = text;
  bar.hidden = share === null;
  if (share !== null) bar.value = share;
}

// While a file is sent, the browser asks before the page is left (a reload, a link, the tab closed).
function holdThePage(e) {
  e.preventDefault();
  e.returnValue = ""; // Chrome before 119 asks only for this
}

// What "Stop adding this book" stops: the file being sent, else the job followed (pressed while the
// book is asked for, the job once it is known).
let sending = null, followed = null, stopWanted = false;
function stoppable(on) {
  if (!on && document.activeElement === stop) send.focus(); // turned on again before this
  stop.hidden = !on;
  stop.disabled = false;
}

// XMLHttpRequest, not fetch: only it tells how much of a body has gone.
function sendFile(file, what) {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    sending = request;
    request.open("POST", `/api/uploads?filename=${encodeURIComponent(file.name)}`);
    request.setRequestHeader("Content-Type", "application/octet-stream");
    request.upload.onprogress = (e) => {
      if (e.lengthComputable) say(`Sending ${what}: ${megabytes(e.loaded)} of ${megabytes(e.total)}`, e.loaded / e.total);
    };
    request.onload = () => {
      let data = null;
      try { data = JSON.parse(request.responseText); } catch { /* said below */ }
      if (request.status === 201 && data) resolve(data);
      else reject(new Error(problem({ status: request.status, data })));
    };
    request.onerror = () => reject(new Error(`the connection broke while sending ${what}`));
    request.onabort = () => reject(Object.assign(new Error("stopped"), { stopped: true }));
    request.onloadend = () => { sending = null; };
    request.send(file);
  });
}

function minutes(seconds) {
  const m = Math.round(seconds / 60);
  return m < 1 ? "under a minute" : m === 1 ? "about a minute" : `about ${m} minutes`;
}

const heardShare = (p) => (p.audio_total_s ? Math.min(1, p.audio_done_s / p.audio_total_s) : p.chapter / p.chapters);

// What the job's state means to the listener.
export function jobText(job) {
  const p = job.progress;
  if (job.state === "queued") return "Waiting to start: books are made one at a time.";
  if (job.state === "running") {
    if (!p) return "Reading the recording…";
    const left = p.eta_s != null ? `, ${minutes(p.eta_s)} left` : "";
    // a recording that is one file is one chapter: told by how much of it is heard
    if (p.chapters === 1) return `Transcribing: ${Math.floor(100 * heardShare(p))}% of the recording done${left}.`;
    return `Transcribing: ${p.chapter} of ${p.chapters} chapters done${left}.`;
  }
  if (job.state === "done" && !job.served) return "Transcribed; making it searchable…";
  if (job.state === "done") return job.note ? `Ready, but ${job.note}.` : "Ready.";
  if (job.state === "cancelled") {
    const kept = job.served ? "; what was transcribed of it stays among the books" : "";
    return `Stopped before it was finished${kept}.`;
  }
  return `It could not be added: ${job.reason || "no reason was given"}.`;
}

function offer(book, text) {
  const target = new URL(location.href);
  target.searchParams.set("book", book);
  open.href = target.toString();
  open.dataset.book = book;
  open.textContent = text;
  open.hidden = false;
}

// A book made stays said until the listener opens it (a reload still offers it); a failure is
// said once.
function settle(job) {
  send.disabled = false;
  stoppable(false);
  if (job.state !== "done" || job.book === state.bookId) {
    localStorage.removeItem(FOLLOWED);
    if (job.state !== "done") { open.hidden = true; return; }
  }
  form.reset();
  offer(job.book, "Open it");
}

// Ended, but a book made is said ready only once it plays (search indexes it a moment after).
const ended = (job) => job.state !== "queued" && job.state !== "running" && (job.state !== "done" || job.served);

// Followed until it ends, through a Bedside that cannot be reached for a while (restarted while the
// book is made, which the job outlives): said so, and asked again.
async function follow(jobId) {
  followed = jobId;
  stoppable(true);
  if (stopWanted) stopAdding();
  for (;;) {
    let res;
    try {
      res = await api("GET", `/api/books/added/${encodeURIComponent(jobId)}`);
    } catch {
      say("Bedside could not be reached just now; the book goes on being made, and this page will say when it is ready.");
      await new Promise((resolve) => setTimeout(resolve, FOLLOW_EVERY_MS));
      continue;
    }
    if (res.status === 404) {
      localStorage.removeItem(FOLLOWED); say(""); send.disabled = false; stoppable(false); return;
    }
    if (res.ok) {
      const job = res.data;
      const p = job.progress;
      say(jobText(job), job.state === "running" && p ? heardShare(p) : null);
      if (ended(job)) { settle(job); return; }
      // While it is transcribed, it plays once its first version is served: offered then too.
      if (job.state === "running" && job.served && open.hidden) {
        offer(job.book, "Listen now, while the rest is transcribed");
      }
    }
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_EVERY_MS));
  }
}

// The book asked for with the files sent; the answer is its job, which is followed from then on.
async function askForTheBook(sent) {
  say("Checking the files…");
  localStorage.setItem(ASKED, JSON.stringify(sent));
  const res = await api("POST", "/api/books/added", sent);
  localStorage.removeItem(ASKED); // answered: a reload need not ask again
  if (!res.ok) throw new Error(problem(res));
  localStorage.setItem(FOLLOWED, res.data.job);
  return res.data.job;
}

function notAdded(error) {
  say(error.stopped ? "Stopped: nothing of it was kept." : `It could not be added: ${error.message}.`);
  send.disabled = false;
  stoppable(false);
}

// The file being sent is dropped; a job asked for is stopped by ingest, and the page following it
// says so when it next asks. One that ended meanwhile (409) is said as it ended.
async function stopAdding() {
  stop.disabled = true;
  stopWanted = false;
  if (sending) { sending.abort(); return; }
  if (!followed) { stopWanted = true; return; }
  const res = await api("POST", `/api/books/added/${encodeURIComponent(followed)}/stop`).catch(() => null);
  if (res && !res.ok && res.status !== 409) say(`It could not be stopped: ${problem(res)}.`);
  if (!res || !res.ok) stop.disabled = false;
}

async function add(e) {
  e.preventDefault();
  const recording = $("add-recording").files[0];
  if (!recording) return;
  const ebook = $("add-ebook").files[0];
  const title = $("add-title").value.trim();
  setOff(send, true, $("add-recording"));
  open.hidden = true;
  followed = null;
  stopWanted = false;
  stoppable(true);
  try {
    // By their names and sizes first: a file no book could be made of, or there is no room for,
    // is refused before it is sent.
    const names = {
      recording: recording.name,
      recording_bytes: recording.size,
      ...(ebook ? { ebook: ebook.name, ebook_bytes: ebook.size } : {}),
    };
    const checked = await api("POST", "/api/uploads/check", names);
    if (!checked.ok) throw new Error(problem(checked));
    const sent = await sendFiles(recording, ebook);
    if (title) sent.title = title;
    await follow(await askForTheBook(sent));
  } catch (error) {
    notAdded(error);
  }
}

// The files sent, with their names kept in this browser meanwhile: a page left before they are all
// sent takes them with it, and the page that comes back says so (leftWhileSending).
async function sendFiles(recording, ebook) {
  localStorage.setItem(SENDING, recording.name);
  addEventListener("beforeunload", holdThePage);
  try {
    const sent = { recording: await sendFile(recording, "the recording") };
    if (ebook) sent.ebook = await sendFile(ebook, "the e-book");
    return sent;
  } finally {
    removeEventListener("beforeunload", holdThePage);
    localStorage.removeItem(SENDING);
  }
}

// Said once, by the page that comes back.
function leftWhileSending() {
  const name = localStorage.getItem(SENDING);
  if (name === null) return false;
  localStorage.removeItem(SENDING);
  say(`“${name}” was not added: the page was left while it was being sent, and nothing of it was kept.`
    + " Choose it again and press “Add the book”.");
  return true;
}

function askedBefore() {
  try { return JSON.parse(localStorage.getItem(ASKED) || "null"); } catch { return null; }
}

// Shown once the device is signed in; a reload asks again or goes on following, as above.
export function wireAdding() {
  section.hidden = false;
  form.addEventListener("submit", add);
  stop.addEventListener("click", stopAdding);
  // Another file chosen after a refusal: the refusal was of the one before. Not while a book is made.
  for (const input of [$("add-recording"), $("add-ebook")]) {
    input.addEventListener("change", () => { if (!send.disabled) say(""); });
  }
  open.addEventListener("click", (e) => {
    localStorage.removeItem(FOLLOWED);
    if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) return; // opened elsewhere: no switch here
    e.preventDefault();
    switchTo(open.dataset.book); // as the picker does: the timer goes along, the old book stops
  });
  const asked = askedBefore();
  const jobKept = localStorage.getItem(FOLLOWED);
  if (leftWhileSending()) section.open = true;
  if (!asked && !jobKept) return;
  section.open = true;
  send.disabled = true;
  // Reloaded before ingest answered: that ask is newer than any book still offered.
  if (asked) askForTheBook(asked).then(follow).catch(notAdded);
  else follow(jobKept).catch(() => { send.disabled = false; });
}

// An empty house: adding a book is the only thing to do.
export function openAdding() {
  section.open = true;
}

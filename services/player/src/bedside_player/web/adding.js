// Adding a book: the recording (and its e-book) sent to the player with the bytes counted as they
// go, then the book asked for, then its job followed until it is ready. Every job started in this
// browser is kept in it, in a list (two tabs, or two books added one after the other, each keep
// their own), and has a line of its own on every page of this browser: its name, how it is, and
// how it ended, said once. The form is free again as soon as ingest has the job, so a second book
// can be added while the first is made (ingest makes them one at a time). What was sent is kept
// until ingest answers, so a page reloaded midway (or a phone that slept) asks again (the same
// upload is the same job); a book made is offered until it is opened. A file whose sending a page
// left midway is lost with it (nothing of a body cut short is kept): leaving asks first, and the
// page that comes back in that tab says which file was not added.
import { api, problem } from "./api.js";
import { bookGrew, refreshBookList, switchTo } from "./book.js";
import { state, UNSERVED_FOR_MS } from "./state.js";
import { setOff } from "./ui.js";

const $ = (id) => document.getElementById(id);
const form = $("add-form"), send = $("add-send"), section = $("add");
const bar = $("add-progress"), status = $("add-status"), stop = $("add-stop");
const jobsList = $("add-jobs"), said = $("add-said");
const JOBS = "bedside.adding.jobs"; // [{job, name, told, at, unserved}]: the jobs followed, oldest first
const ASKING = "bedside.adding.asking"; // [{sent, name}]: books asked for, not answered yet
const SENDING = "bedside.adding.sending"; // this tab's own (sessionStorage): a reload keeps it, other tabs do not see it
const ONE_JOB = "bedside.adding", ONE_ASK = "bedside.adding.asked"; // kept one of each, before
const FOLLOW_EVERY_MS = 2_000, FOLLOW_AT_MOST_MS = 60_000; // asked less often while Bedside does not answer
const HIDDEN_EVERY_MS = 30_000; // and while the page is not seen (asked again as soon as it is)
const SAID_FOR_MS = 10_000;
const KEPT_FOR_MS = 30 * 86_400_000, KEPT_AT_MOST = 20; // a book offered and never opened goes in time

const megabytes = (bytes) => `${(bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB`;

// The form's own line: checking and sending the files, and why they were not added.
function say(text, share = null) {
  status.textContent = text;
  bar.hidden = share === null;
  if (share !== null) bar.value = share;
}

// What this browser keeps: lists read and written whole, by every tab of it.
function kept(key) {
  try {
    const list = JSON.parse(localStorage.getItem(key) || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

function keep(key, list) {
  if (list.length) localStorage.setItem(key, JSON.stringify(list));
  else localStorage.removeItem(key);
}

function keepJob(entry) {
  const list = kept(JOBS);
  if (!list.some((e) => e.job === entry.job)) keep(JOBS, [...list, { ...entry, at: Date.now() }]);
}

// A book whose end was said is kept no longer than a month, and no more than a score of them: the
// newest. One still being made (or whose end is not said yet) is never dropped.
function pruneJobs() {
  const now = Date.now();
  const list = kept(JOBS).map((e) => (typeof e.at === "number" ? e : { ...e, at: now }));
  const told = list.filter((e) => e.told && now - e.at < KEPT_FOR_MS);
  const room = Math.max(0, KEPT_AT_MOST - list.filter((e) => !e.told).length);
  const keptTold = new Set(told.slice(told.length - room).map((e) => e.job));
  keep(JOBS, list.filter((e) => !e.told || keptTold.has(e.job)));
}

// Its end said: not again by a page that comes back (another tab may have forgotten it meanwhile).
function keepTold(job) {
  keep(JOBS, kept(JOBS).map((e) => (e.job === job ? { ...e, told: true } : e)));
}

const forgetJob = (job) => keep(JOBS, kept(JOBS).filter((e) => e.job !== job));
const sameAsk = (a) => (b) => b.sent.recording.upload === a.sent.recording.upload;
const forgetAsk = (ask) => keep(ASKING, kept(ASKING).filter((b) => !sameAsk(ask)(b)));

// A page from before the list kept one job and one ask: taken into the lists.
function fromBefore() {
  const job = localStorage.getItem(ONE_JOB);
  if (job) keepJob({ job, name: "" });
  let sent = null;
  try { sent = JSON.parse(localStorage.getItem(ONE_ASK) || "null"); } catch { /* none to take */ }
  if (sent && sent.recording) keep(ASKING, [...kept(ASKING), { sent, name: sent.title || sent.recording.filename }]);
  localStorage.removeItem(ONE_JOB);
  localStorage.removeItem(ONE_ASK);
}

// While a file is sent, the browser asks before the page is left (a reload, a link, the tab closed).
function holdThePage(e) {
  e.preventDefault();
  e.returnValue = ""; // Chrome before 119 asks only for this
}

// What the form's "Stop adding this book" stops: the file being sent, else the book asked for (the
// job is stopped as soon as ingest answers with it). A job known has a Stop of its own, on its line.
let sending = null, stopWanted = false;
function stoppable(on) {
  if (!on && document.activeElement === stop) send.focus(); // turned on again before this
  stop.hidden = !on;
  stop.disabled = false;
}

const stopped = () => Object.assign(new Error("stopped"), { stopped: true });

// Stop pressed while the files were checked, or between two of them: nothing more is sent.
function unlessStopped() {
  if (stopWanted) throw stopped();
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
    request.onabort = () => reject(stopped());
    // not the next file's request, begun (as the answer to this one is taken) before this is called
    request.onloadend = () => { if (sending === request) sending = null; };
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
  if (job.gone) return "It was made, but it is no longer among the books.";
  if (job.state === "done" && !job.served) return "Transcribed; making it searchable…";
  if (job.state === "done") return job.note ? `Ready, but ${job.note}.` : "Ready.";
  if (job.state === "cancelled") {
    const kept = job.served ? "; what was transcribed of it stays among the books" : "";
    return `Stopped before it was finished${kept}.`;
  }
  return `It could not be added: ${job.reason || "no reason was given"}.`;
}

// Ended, but a book made is said ready only once it plays (search indexes it a moment after), or
// gone once it has not played for long after (removed since: it never plays again).
const ended = (job) => job.gone || (job.state !== "queued" && job.state !== "running" && (job.state !== "done" || job.served));

// A book made and not served: since when (kept, so that a page reloaded does not wait anew), and
// whether that is longer than search takes to serve one. Seen served, the wait is over: a later
// "not served" (search still loading after a restart) waits anew.
function servedNow(line) {
  line.unserved = 0;
  const list = kept(JOBS);
  if (list.some((e) => e.job === line.job && e.unserved)) {
    keep(JOBS, list.map((e) => (e.job === line.job ? { ...e, unserved: undefined } : e)));
  }
}

function goneSince(line) {
  const list = kept(JOBS), entry = list.find((e) => e.job === line.job);
  line.unserved = (entry && entry.unserved) || line.unserved || Date.now();
  if (entry && !entry.unserved) keep(JOBS, list.map((e) => (e === entry ? { ...e, unserved: line.unserved } : e)));
  return Date.now() - line.unserved >= UNSERVED_FOR_MS;
}

// What a job's news is, told when it changes: not every count of its progress, which its line shows.
function stage(job) {
  if (ended(job)) return "ended";
  if (job.state === "running" && job.served) return "plays";
  return job.state === "queued" ? "queued" : "making";
}

// Said once, in the region every line's news goes to: each its own paragraph, so that two jobs'
// news of one moment are both read.
function tell(text) {
  const news = document.createElement("p");
  news.textContent = text;
  said.append(news);
  setTimeout(() => news.remove(), SAID_FOR_MS);
}

const lines = new Map(); // job → its line on this page

function element(tag, className, text = "") {
  const made = document.createElement(tag);
  if (className) made.className = className;
  made.textContent = text;
  return made;
}

// A job's line: its name, how it is, and what can be done with it (stop it; listen to it, or open
// it once made).
function lineFor(entry, startedHere) {
  const name = entry.name || "A book";
  const line = {
    job: entry.job, name, startedHere, told: Boolean(entry.told), stage: null, grown: null,
    item: element("li", "add-job"), text: element("p", "quiet add-job-status"), bar: element("progress", ""),
    open: element("a", "btn", "Open it"), stop: element("button", "btn", "Stop adding this book"),
    dismiss: element("button", "btn", "Dismiss"), unserved: 0,
  };
  line.item.dataset.job = entry.job;
  line.text.tabIndex = -1; // the keyboard's focus, while its Stop pressed is off: what it says next is read
  line.bar.max = 1;
  line.bar.hidden = true;
  line.open.hidden = true;
  line.stop.type = "button";
  line.stop.hidden = true; // until it is known to be queued or running
  line.stop.setAttribute("aria-label", `Stop adding this book: ${name}`); // one of several, named
  line.stop.addEventListener("click", () => stopJob(line));
  line.dismiss.type = "button";
  line.dismiss.hidden = true;
  line.dismiss.setAttribute("aria-label", `Dismiss: ${name}`);
  line.dismiss.addEventListener("click", () => { forgetJob(line.job); dropLine(line); });
  line.open.addEventListener("click", (e) => opened(line, e));
  const actions = element("div", "row-actions");
  actions.append(line.stop, line.open, line.dismiss);
  line.item.append(element("p", "add-job-name", name), line.bar, line.text, actions);
  jobsList.append(line.item);
  jobsList.hidden = false;
  lines.set(entry.job, line);
  return line;
}

function dropLine(line) {
  if (line.item.contains(document.activeElement)) (send.disabled ? section.querySelector("summary") : send).focus();
  line.item.remove();
  lines.delete(line.job);
  jobsList.hidden = lines.size === 0;
}

function offer(line, book, text) {
  const target = new URL(location.href);
  target.searchParams.set("book", book);
  line.open.href = target.toString();
  line.open.dataset.book = book;
  line.open.textContent = text;
  line.open.setAttribute("aria-label", `${text}: ${line.name}`);
  line.open.hidden = false;
}

// Opened while it is made, its job goes on being followed (the page that opens it says when it is
// whole); a book made is offered no more once opened.
function opened(line, e) {
  if (line.stage === "ended") forgetJob(line.job);
  if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) return; // opened elsewhere: no switch here
  e.preventDefault();
  switchTo(line.open.dataset.book); // as the picker does: the timer goes along, the old book stops
}

// The job as it is now, on its line; its news told when its stage changes (a job this page started
// from its first word, one followed from before only from its next). True once it has ended.
function show(line, job) {
  const p = job.progress;
  line.text.textContent = jobText(job);
  hideStop(line, job.gone || (job.state !== "queued" && job.state !== "running"));
  line.bar.hidden = !(job.state === "running" && p);
  if (!line.bar.hidden) line.bar.value = heardShare(p);
  const now = stage(job);
  const news = now !== line.stage && (line.stage !== null || line.startedHere || now === "ended");
  line.stage = now;
  if (now === "ended") settle(line, job, news);
  else if (news) tell(`${line.name}: ${now === "plays" ? "it plays now, while the rest is transcribed." : jobText(job)}`);
  if (now === "plays" && line.open.hidden) offer(line, job.book, "Listen now, while the rest is transcribed");
  // The book open here, being made: read again as its transcript grows, and when it is made (not
  // when it is stopped or failed: nothing more of it is coming).
  const grown = `${now} ${job.served} ${p ? p.chapter : ""}`;
  const more = now !== "ended" || (job.state === "done" && !job.gone);
  if (job.book === state.bookId && line.grown !== null && grown !== line.grown && more) bookGrew(now === "ended");
  line.grown = grown;
  return now === "ended";
}

// Ended: said once (a book made and not yet opened is still offered after a reload, unsaid), and
// forgotten unless it is a book to offer. The book open here, made, is read again. Its line stays
// until dismissed (or the page left).
function settle(line, job, news) {
  const focused = document.activeElement === line.text; // given it by its Stop, pressed or gone
  line.dismiss.hidden = false;
  const made = job.state === "done" && !job.gone;
  if (news && (!line.told || job.gone)) tell(`${line.name}: ${jobText(job)}`); // gone: news since Ready
  if (made) refreshBookList(); // the picker offers it at once
  if (!made || job.book === state.bookId) {
    forgetJob(line.job);
    line.open.hidden = true;
  } else {
    keepTold(line.job);
    offer(line, job.book, "Open it");
  }
  if (focused) (line.open.hidden ? line.dismiss : line.open).focus(); // its Stop, gone, had the focus
}

// Stop only while it can be stopped (queued or running): not a book made, waiting to be served. Its
// focus, if it had it, goes to the line's news.
function hideStop(line, hidden) {
  if (hidden && document.activeElement === line.stop) line.text.focus();
  line.stop.hidden = hidden;
}

// Followed until it ends, through a Bedside that cannot be reached for a while (restarted while the
// book is made, which the job outlives) or a device no longer paired: said so, and asked again, less
// often the longer it lasts. A job ingest no longer knows is said so, and its line kept until
// dismissed.
async function follow(line) {
  let every = FOLLOW_EVERY_MS;
  for (;;) {
    const asked = ++asks;
    const res = await api("GET", `/api/books/added/${encodeURIComponent(line.job)}`).catch(() => null);
    if (res && (res.ok || res.status === 404)) backInReach(asked);
    if (res && res.status === 404) { unknown(line); return; }
    if (res && res.ok) {
      every = FOLLOW_EVERY_MS;
      // A book made that does not play for long after was removed since: it will not play again.
      // Served null: search could not be asked, which says nothing either way.
      if (res.data.served) servedNow(line);
      const gone = res.data.state === "done" && res.data.served === false && goneSince(line);
      if (show(line, gone ? { ...res.data, gone } : res.data)) return;
    } else if (asked > newestAnswered) {
      every = Math.min(FOLLOW_AT_MOST_MS, every * 2);
      const unpaired = Boolean(res && res.status === 401);
      line.text.textContent = troubleWords(unpaired, false);
      outOfReach(unpaired);
    }
    await pause(every);
  }
}

// Bedside out of reach, or this device unpaired, is the same news for every book followed: said once
// for them all, not at every ask, and its end said once too. Each line shows it as its own.
let troubleTold = null; // null, "away" or "unpaired"
// Asks are numbered: one that fails after a later one was answered (it was on its way) says nothing of now.
let asks = 0, newestAnswered = 0;
function troubleWords(unpaired, many) {
  if (unpaired) {
    return `This device is no longer paired with Bedside: pair it again, and this page will go on following ${
      many ? "the books" : "the book"}.`;
  }
  return `Bedside could not be reached just now; ${many
    ? "the books being added go on being made, and this page will say when each is ready."
    : "the book goes on being made, and this page will say when it is ready."}`;
}
function outOfReach(unpaired) {
  const trouble = unpaired ? "unpaired" : "away";
  if (troubleTold === trouble) return;
  troubleTold = trouble;
  tell(troubleWords(unpaired, [...lines.values()].filter((l) => l.stage !== "ended").length > 1));
}
function backInReach(asked) {
  newestAnswered = Math.max(newestAnswered, asked);
  if (troubleTold) tell("Bedside answers again.");
  troubleTold = null;
}

// A while, or longer while the page is not seen: it is asked again as soon as it is seen.
function pause(ms) {
  return new Promise((resolve) => {
    const timer = setTimeout(done, document.hidden ? Math.max(ms, HIDDEN_EVERY_MS) : ms);
    function seen() { if (!document.hidden) done(); }
    function done() {
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", seen);
      resolve();
    }
    document.addEventListener("visibilitychange", seen);
  });
}

// Ingest knows the job no more (its list of jobs was cleared): said, forgotten, and dismissed by hand.
function unknown(line) {
  const text = "Bedside no longer knows this book; add it again.";
  line.text.textContent = text;
  tell(`${line.name}: ${text}`);
  forgetJob(line.job);
  hideStop(line, true);
  line.bar.hidden = true;
  line.open.hidden = true;
  line.stage = "ended";
  line.dismiss.hidden = false;
}

function followJob(entry, startedHere) {
  if (lines.has(entry.job)) return;
  follow(lineFor(entry, startedHere)).catch(() => {});
}

// Stopped by ingest (as `bedside jobs --cancel`); shown as it is now. One that ended meanwhile (409)
// is asked for and said as it ended; a Stop that failed is said, and can be pressed again. Its
// focus, while it is off, is on the line's news.
async function stopJob(line) {
  setOff(line.stop, true, line.text);
  const path = `/api/books/added/${encodeURIComponent(line.job)}`;
  let res = await api("POST", `${path}/stop`).catch(() => null);
  if (res && res.status === 409) res = await api("GET", path).catch(() => null);
  if (res && res.ok) {
    if (lines.get(line.job) === line && line.stage !== "ended") show(line, res.data);
    if (line.stage === "ended") return;
  } else {
    if (line.stage === "ended") return; // ended meanwhile: its news stands
    const why = res ? problem(res) : "Bedside could not be reached";
    line.text.textContent = `It could not be stopped: ${why}.`;
    tell(`${line.name}: It could not be stopped: ${why}.`);
  }
  setOff(line.stop, false);
}

// The book asked for with the files sent; the answer is its job, followed from then on on its own
// line. Kept in this browser until ingest answers: a page reloaded meanwhile asks again.
async function askForTheBook(ask, startedHere) {
  if (startedHere) say("Checking the files…");
  keep(ASKING, [...kept(ASKING).filter((b) => !sameAsk(ask)(b)), ask]);
  const res = await api("POST", "/api/books/added", ask.sent);
  forgetAsk(ask); // answered: a reload need not ask again
  if (!res.ok) throw new Error(problem(res));
  const entry = { job: res.data.job, name: ask.name };
  keepJob(entry);
  followJob(entry, startedHere);
  return res.data.job;
}

function notAdded(error) {
  say(error.stopped ? "Stopped: nothing of it was kept." : `It could not be added: ${error.message}.`);
  send.disabled = false;
  stoppable(false);
}

// The file being sent is dropped, and none sent after it; files being checked are not sent; a book
// asked for is stopped once ingest answers with its job.
function stopAdding() {
  setOff(stop, true, $("add-recording"));
  stopWanted = true;
  if (sending) sending.abort();
}

async function add(e) {
  e.preventDefault();
  const recording = $("add-recording").files[0];
  if (!recording) return;
  const ebook = $("add-ebook").files[0];
  const title = $("add-title").value.trim();
  setOff(send, true, $("add-recording"));
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
    unlessStopped();
    const sent = await sendFiles(recording, ebook);
    if (title) sent.title = title;
    const job = await askForTheBook({ sent, name: title || recording.name }, true);
    // Ingest has it: the form is free for another book, and the job's line says how it goes.
    form.reset();
    say("");
    send.disabled = false;
    stoppable(false);
    if (stopWanted && lines.has(job)) stopJob(lines.get(job));
  } catch (error) {
    notAdded(error);
  }
}

// The files sent, with their names kept in this tab meanwhile: a page left before they are all sent
// takes them with it, and the page that comes back in this tab says so (leftWhileSending); another
// tab, opened meanwhile, knows nothing of it.
async function sendFiles(recording, ebook) {
  sessionStorage.setItem(SENDING, recording.name);
  addEventListener("beforeunload", holdThePage);
  try {
    unlessStopped();
    const sent = { recording: await sendFile(recording, "the recording") };
    unlessStopped();
    if (ebook) sent.ebook = await sendFile(ebook, "the e-book");
    return sent;
  } finally {
    removeEventListener("beforeunload", holdThePage);
    sessionStorage.removeItem(SENDING);
  }
}

// Said once, by the page that comes back.
function leftWhileSending() {
  const name = sessionStorage.getItem(SENDING);
  if (name === null) return false;
  sessionStorage.removeItem(SENDING);
  say(`“${name}” was not added: the page was left while it was being sent, and nothing of it was kept.`
    + " Choose it again and press “Add the book”.");
  return true;
}

// Shown once the device is signed in; a reload asks again or goes on following, as above. A job
// another tab of this browser starts is followed here too, on its own line.
export function wireAdding() {
  section.hidden = false;
  form.addEventListener("submit", add);
  stop.addEventListener("click", stopAdding);
  // Another file chosen after a refusal: the refusal was of the one before. Not while one is sent.
  for (const input of [$("add-recording"), $("add-ebook")]) {
    input.addEventListener("change", () => { if (!send.disabled) say(""); });
  }
  fromBefore();
  pruneJobs();
  if (leftWhileSending()) section.open = true;
  const asking = kept(ASKING), jobs = kept(JOBS);
  if (asking.length || jobs.length) section.open = true;
  for (const entry of jobs) followJob(entry, false);
  // Reloaded before ingest answered: asked again, each said on the form's line if refused.
  for (const ask of asking) askForTheBook(ask, false).catch(notAdded);
  addEventListener("storage", (e) => {
    if (e.key !== JOBS) return;
    for (const entry of kept(JOBS)) followJob(entry, true);
  });
}

// An empty house: adding a book is the only thing to do.
export function openAdding() {
  section.open = true;
}

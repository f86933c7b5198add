// The book: its chapters (titled only up to the line: the server decides, this only hides),
// which one the position is in, and the choice of book when there are several.
import { api, bookPath, refusal } from "./api.js";
import { oursAnswered, playAudio, position, render, report } from "./position.js";
import { state } from "./state.js";
import { chapterHeading, el, setOff } from "./ui.js";

export function chapterAt(ms) {
  let found = null;
  for (const ch of state.chapters) {
    if (ch.start_ms <= ms) found = ch; else break;
  }
  return found;
}

export function chapterTitle(n) {
  const ch = state.chapters.find((c) => c.n === n);
  return ch && ch.title ? ch.title : null;
}

export async function loadBook() {
  const movedBack = movesBack;
  const res = await api("GET", bookPath());
  if (!res.ok) throw refusal(res);
  // Answered from where the book was before a move back made since: its titles may be ahead now.
  if (movedBack !== movesBack && state.book) return bookSoon();
  const book = res.data || {};
  state.book = book;
  state.duration = book.duration_ms || 0;
  state.chapters = (book.chapters || [])
    .map((c, i) => ({
      n: c.n ?? c.number ?? c.chapter ?? i + 1,
      title: c.title || null,
      ahead: Boolean(c.ahead),
      start_ms: c.start_ms || 0,
      end_ms: c.end_ms || 0,
    }))
    .sort((a, b) => a.start_ms - b.start_ms);
  el.title.textContent = book.title || state.bookId;
  el.timing.hidden = !book.estimated; // places found by text are guesses against the recording
  renderTranscriptProgress(book.transcript);
  document.title = `${book.title || state.bookId} · Bedside`;
  const audioUrl = book.audio_url || (book.has_audio || book.audio === true ? `${bookPath()}/audio` : null);
  el.silent.hidden = Boolean(audioUrl); // else its clock runs in silence, which reads as a fault
  if (audioUrl) playAudio(audioUrl);
}

// How far the transcript has got, counted in chapters done: the first interim version comes
// before any chapter is (the recording is read, nothing heard yet), and "chapter 0 of 3" read as
// a place in the book, not as none done. Not said as "transcribing": a job cancelled part way
// leaves its book so, with nothing running.
export function transcriptProgressText({ chapters_done: ready, chapters }) {
  if (!ready) return "no chapter transcribed yet: the book plays, but cannot be searched until one is";
  const counted = `${ready} of ${chapters} chapter${chapters === 1 ? "" : "s"}`;
  return `${counted} transcribed: the others play, but cannot be searched yet`;
}

// While the recording is still being transcribed the book is an interim version: say how far
// the transcript has got, and ask again now and then until the whole book replaces it.
let transcriptTimer = 0;
function renderTranscriptProgress(transcript) {
  clearTimeout(transcriptTimer);
  el.transcriptProgress.hidden = !transcript;
  if (!transcript) return;
  el.transcriptProgress.textContent = transcriptProgressText(transcript);
  transcriptTimer = setTimeout(() => loadBook().then(render, () => {}), 30_000);
}

// The book open here is being made, and this page follows its job (adding.js): read again as its
// transcript grows, and once the job has ended until the whole book has replaced the interim one
// (the player learns of it from search a few seconds after the job says so), rather than at the
// next of the 30-second reads above.
const GROWN_EVERY_MS = 2_000;
let grownTimer = 0;
export function bookGrew(ended, tries = 15) {
  clearTimeout(grownTimer);
  if (!state.book) return;
  oursAnswered().then(loadBook).then(() => {
    render();
    if (ended && state.book.transcript && tries > 1) {
      grownTimer = setTimeout(() => bookGrew(true, tries - 1), GROWN_EVERY_MS);
    }
  }, () => {});
}

// Moving back: titles of chapters that now lie ahead go at once, before the book is
// asked again.
let movesBack = 0;
export function forgetTitlesFrom(ms) {
  movesBack += 1;
  for (const ch of state.chapters) {
    if (ch.start_ms >= ms) { ch.title = null; ch.ahead = true; }
  }
}

let bookTimer = 0;
// Asked once this page's own moves are answered: the book names chapters by where the player has
// the book, and a move back still on its way would have it name one ahead again.
export function bookSoon() {
  clearTimeout(bookTimer);
  bookTimer = setTimeout(() => oursAnswered().then(loadBook).then(render, () => {}), 300);
}

// The book names a chapter only once the guard puts it behind the server's word on where the
// book is (at its first millisecond it is still ahead). The page never decides that itself: in a
// chapter the book last called ahead it asks the book again, and while it plays it first
// reports where it is, so the title comes as soon as it is heard and not at the next report.
const TITLE_RETRY_MS = 1_000;
let titleAsked = { n: null, at: 0 };
export async function ensureChapterTitle() {
  const ch = chapterAt(position());
  if (!ch || !ch.ahead) return;
  if (titleAsked.n === ch.n && performance.now() - titleAsked.at < TITLE_RETRY_MS) return;
  titleAsked = { n: ch.n, at: performance.now() };
  if (state.playing) await report();
  try { await loadBook(); render(); } catch { /* it will be named next time */ }
}

// The chapter region is read out when its text changes, once a chapter: a chapter played into is named
// by number until the book, asked again (ensureChapterTitle), names it a moment later, and drawn at
// once it was read twice ("Chapter 3", then "Chapter 3 · The Storm"). While its title may be coming
// the chapter before stays up a moment; a title that comes later still is drawn with the region quiet.
const TITLE_WAIT_MS = 1_000;
let drawn = { n: null, text: "" };
let untitled = { n: null, at: 0 };
export function renderChapter(pos) {
  const ch = chapterAt(pos);
  const text = ch ? chapterHeading(ch.n, ch.title) : "";
  if (text === drawn.text) return;
  const n = ch ? ch.n : null;
  if (n !== drawn.n && drawn.text && ch && ch.ahead && state.playing && titleMayCome(n)) return;
  if (n === drawn.n) quietChapter("same chapter", true);
  el.chapter.textContent = text;
  if (n === drawn.n) setTimeout(() => quietChapter("same chapter", false), LIVE_AGAIN_MS);
  drawn = { n, text };
  untitled = { n: null, at: 0 }; // played into again later, its title is waited for again
}

function titleMayCome(n) {
  if (untitled.n !== n) untitled = { n, at: performance.now() };
  return performance.now() - untitled.at < TITLE_WAIT_MS;
}

// Why the chapter region is quiet now (ask.js: the page's own question, whose answer tells a move).
// Live again a moment after a change: a region that becomes live with its change is not read.
const LIVE_AGAIN_MS = 100;
const quietFor = new Set();
export function quietChapter(why, quiet) {
  if (quiet) quietFor.add(why); else quietFor.delete(why);
  el.chapter.setAttribute("aria-live", quietFor.size ? "off" : "polite");
}

// No book asked for: the one the listener's position is in, else the first (nothing heard yet).
async function bookListenedTo(books) {
  const res = await api("GET", `/api/listeners/${encodeURIComponent(state.listener)}/listening`);
  const listening = res.ok && res.data ? res.data.book : null;
  const found = books.find((b) => b.id === listening);
  return (found || books[0]).id;
}

let listed = []; // the books there are, as the picker offers them

// A book's name in the picker: its title, and its id too when another book has the same title
// (the e-book and the audiobook of one story, or one book ingested twice), so the two differ.
function pickerLabel(book) {
  const title = (b) => b.title || b.id;
  return listed.filter((b) => title(b) === title(book)).length > 1 ? `${title(book)} (${book.id})` : title(book);
}

function offerBooks(nothingChosen) {
  const options = listed.map((b) => {
    const o = document.createElement("option");
    o.value = b.id; o.textContent = pickerLabel(b); o.selected = !nothingChosen && b.id === state.bookId;
    return o;
  });
  if (nothingChosen) {
    const choose = document.createElement("option");
    choose.value = ""; choose.textContent = "Choose a book"; choose.disabled = true; choose.selected = true;
    options.unshift(choose);
  }
  el.bookPick.replaceChildren(...options);
  el.bookChoice.hidden = false;
  offerOpening();
}

// The picker only chooses and Open opens: a select changes at every arrow key, and a listener with a
// screen reader arrows through the books to hear their names. Open is on once another book is chosen,
// and off once pressed: one switch at a time, as a second would carry the timer twice.
let opening = false;
function offerOpening() {
  el.bookOpen.disabled = opening || !el.bookPick.value || el.bookPick.value === state.bookId;
}

let beforeSwitching = async (_book) => {};
// What is done before the page opens another book the listener chose (main.js says).
export function whenSwitching(step) { beforeSwitching = step; }

// Open another book, by the picker or by a book just added: what leaving this one asks first, then
// the page for the new one.
export async function switchTo(book) {
  if (state.bookId) await beforeSwitching(book);
  const next = new URL(location.href);
  next.searchParams.set("book", book);
  location.assign(next.toString());
}

async function booksThereAre() {
  const res = await api("GET", "/api/books");
  if (!res.ok) throw refusal(res);
  return Array.isArray(res.data) ? res.data : [];
}

export async function pickBook() {
  listed = await booksThereAre();
  if (!state.bookId && listed.length) state.bookId = await bookListenedTo(listed);
  el.bookPick.addEventListener("change", offerOpening);
  el.bookOpen.addEventListener("click", () => {
    opening = true;
    // The picker stays on and takes the focus, naming the book being opened: with both turned off,
    // the focus fell to the page until the new book came.
    setOff(el.bookOpen, true, el.bookPick);
    switchTo(el.bookPick.value);
  });
  if (listed.length > 1) offerBooks(false);
  if (!state.bookId) throw Object.assign(new Error("there is no book yet: add one below"), { noBook: true });
}

// Back on the page: the books added or removed on other devices since it opened are offered as
// they are now (the list was read once, when the page opened).
export async function refreshBookList() {
  if (state.bookRemoved) return;
  let books;
  try {
    books = await booksThereAre();
  } catch {
    return;
  }
  const ids = (list) => list.map((b) => b.id).join("\n");
  if (ids(books) === ids(listed)) return;
  listed = books;
  if (listed.length > 1) offerBooks(false);
}

// The book open here was removed: the books there are now, none chosen (search may list the removed
// one a moment longer).
export async function offerTheBooksLeft() {
  try {
    listed = (await booksThereAre()).filter((b) => b.id !== state.bookId);
  } catch {
    return; // the notice says the book is gone; a reload lists the books
  }
  if (listed.length) offerBooks(true);
}

// The page was opened on a book that is not here (a mistyped or old link, or a book ingest has
// not read yet): say so in words, and offer the books there are with none chosen, so that
// picking any of them opens it.
export function noSuchBook() {
  if (listed.length) offerBooks(true);
  const error = new Error(`there is no book "${state.bookId}" here${listed.length ? ": choose one above" : " yet"}`);
  error.noSuchBook = true;
  return error;
}

// Bedside device page. Plain JS, no build step, nothing fetched from elsewhere.
//
// The server is the clock of record: this page plays (an <audio> element, or a clock that
// runs in real time when the book has no audio), reports where it is, and follows every
// state the server pushes. A report made before a move, or before another device's report,
// that this page had not yet seen is refused (409) with the current state, which the page
// then adopts: corrected, never obeyed.
"use strict";

(() => {
  const query = new URLSearchParams(location.search);
  // A listener token or a pairing code arrives in the fragment, which no request carries; at
  // start the page trades it for a device cookie (HttpOnly) and drops it from the address bar.
  const fragment = new URLSearchParams(location.hash.slice(1));
  const TOKEN = fragment.get("token") || query.get("token") || "";
  const PAIRING = fragment.get("pair") || query.get("pair") || "";
  let LISTENER = fragment.get("listener") || query.get("listener") || "";
  let BOOK = query.get("book") || "";
  const DEVICE = deviceName();
  // One "minute" of the sleep timer; a test may shorten it (?minute_ms=200).
  const MINUTE_MS = Math.max(50, Number(query.get("minute_ms")) || 60_000);
  const FADE_MS = Math.min(20_000, MINUTE_MS / 3);
  // How often a playing page reports where it is; a test may shorten it (?report_ms=300).
  const REPORT_EVERY_MS = Math.max(250, Number(query.get("report_ms")) || 15_000);
  const SKIP_MS = 30_000;
  const FOLLOW_THRESHOLD_MS = 2_000; // a pushed position closer than this is our own echo
  const HISTORY_FETCH = 40; // raw entries a page; runs of reports fold into one

  const $ = (id) => document.getElementById(id);
  const el = {
    app: $("app"), title: $("book-title"), chapter: $("chapter"), notice: $("notice"), timing: $("timing"),
    pos: $("pos"), dur: $("dur"), scrubber: $("scrubber"), play: $("play"),
    back: $("back30"), fwd: $("fwd30"), audio: $("audio"),
    list: $("list"), rows: $("rows"), cancel: $("list-cancel"),
    askForm: $("ask-form"), askInput: $("ask-input"), mic: $("mic"), answer: $("answer"),
    sleepLeft: $("sleep-left"), undo: $("undo"), history: $("history"), more: $("history-more"),
    link: $("link"), fade: $("fade"), asleep: $("asleep"), asleepText: $("asleep-text"),
    asleepGo: $("asleep-go"), asleepDismiss: $("asleep-dismiss"),
    bookPick: $("book-pick"), bookPickLabel: $("book-pick-label"),
  };

  // ---- state ---------------------------------------------------------------------------
  const S = {
    book: null, duration: 0, chapters: [], audio: false,
    seq: 0, lastMoveSeq: 0, rows: [],
    playing: false, anchorPos: 0, anchorAt: performance.now(),
    inflight: 0, deferred: null,
    scrubbing: false, lastReportAt: 0,
    sleep: { mode: "off", endsAt: 0, stopAt: null, fading: false },
    historyBefore: null,
  };

  // ---- small helpers -------------------------------------------------------------------
  function deviceName() {
    const given = query.get("device");
    if (given && /^[A-Za-z0-9_-]{1,64}$/.test(given)) return given;
    // One name per tab (two tabs are two devices), saying roughly what the device is.
    const ua = navigator.userAgent;
    const kind = /iPhone/.test(ua) ? "iphone" : /iPad/.test(ua) ? "ipad" : /Android/.test(ua) ? "android" : "browser";
    const made = `${kind}-${Math.random().toString(36).slice(2, 6)}`;
    try {
      const kept = sessionStorage.getItem("bedside-device");
      if (kept) return kept;
      sessionStorage.setItem("bedside-device", made);
    } catch { /* private mode: a fresh name each load */ }
    return made;
  }

  function clock(ms) {
    const s = Math.max(0, Math.floor(ms / 1000));
    const mm = String(Math.floor((s % 3600) / 60)).padStart(2, "0");
    const ss = String(s % 60).padStart(2, "0");
    return `${Math.floor(s / 3600)}:${mm}:${ss}`;
  }

  function spokenClock(ms) {
    const s = Math.max(0, Math.floor(ms / 1000));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    const parts = [];
    if (h) parts.push(`${h} hour${h === 1 ? "" : "s"}`);
    if (m) parts.push(`${m} minute${m === 1 ? "" : "s"}`);
    if (!h && (sec || !m)) parts.push(`${sec} second${sec === 1 ? "" : "s"}`);
    return parts.join(" ");
  }

  const clamp = (ms) => Math.max(0, Math.min(S.duration || Number.MAX_SAFE_INTEGER, Math.round(ms)));
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const enc = encodeURIComponent;
  const base = () => `/api/listeners/${enc(LISTENER)}/books/${enc(BOOK)}`;
  const storeKey = (what) => `bedside:${LISTENER}:${BOOK}:${what}`;

  function store(what, value) {
    try {
      if (value === null) localStorage.removeItem(storeKey(what));
      else localStorage.setItem(storeKey(what), JSON.stringify(value));
    } catch { /* private mode: the page still works, it just forgets */ }
  }
  function recall(what) {
    try { return JSON.parse(localStorage.getItem(storeKey(what)) || "null"); } catch { return null; }
  }

  let noticeTimer = 0;
  function notice(text, ms = 6000) {
    el.notice.textContent = text;
    el.notice.hidden = !text;
    clearTimeout(noticeTimer);
    if (text && ms) noticeTimer = setTimeout(() => { el.notice.hidden = true; }, ms);
  }

  // The device cookie goes with every same-origin request; a bearer only to trade the token.
  async function api(method, path, body, bearer) {
    const headers = { Accept: "application/json" };
    if (bearer) headers.Authorization = `Bearer ${bearer}`;
    const init = { method, headers, cache: "no-store", credentials: "same-origin" };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const res = await fetch(path, init);
    let data = null;
    const text = await res.text();
    if (text) { try { data = JSON.parse(text); } catch { data = { detail: text }; } }
    return { status: res.status, ok: res.ok, data };
  }

  // Our own requests: while one is out, pushes wait, so an echo of an older state
  // cannot flip what the listener just did. They go out one at a time and a body given as
  // a function is made when it is sent, so its basis includes the reply to the one before:
  // a report never races this page's own seek and is never refused because of it.
  let ourQueue = Promise.resolve();
  async function ours(method, path, body) {
    S.inflight += 1;
    const sent = ourQueue.then(async () => {
      const res = await api(method, path, typeof body === "function" ? body() : body);
      const state = findState(res.data);
      if (state) S.seq = Math.max(S.seq, state.seq);
      return res;
    });
    ourQueue = sent.catch(() => {});
    try {
      return await sent;
    } finally {
      S.inflight -= 1;
      if (S.inflight === 0 && S.deferred) {
        const pushed = S.deferred;
        S.deferred = null;
        adopt(pushed);
      }
    }
  }

  function problem(res) {
    const d = res && res.data;
    if (!d) return `the server said ${res ? res.status : "nothing"}`;
    if (typeof d.detail === "string") return d.detail;
    if (Array.isArray(d.detail)) return d.detail.map((x) => x.msg || JSON.stringify(x)).join("; ");
    if (typeof d.error === "string") return d.error;
    return `the server said ${res.status}`;
  }

  // A state may arrive bare, or wrapped ({state}, {detail: {state}}, {current}).
  function findState(obj) {
    const looks = (o) => o && typeof o === "object" && typeof o.seq === "number" && typeof o.position_ms === "number";
    if (looks(obj)) return obj;
    if (!obj || typeof obj !== "object") return null;
    for (const key of ["state", "current", "detail", "data"]) {
      const inner = obj[key];
      if (looks(inner)) return inner;
      if (inner && typeof inner === "object" && looks(inner.state)) return inner.state;
    }
    return null;
  }

  // ---- the position --------------------------------------------------------------------
  const audioReady = () => S.audio && el.audio.readyState > 0;

  function position() {
    if (audioReady()) return clamp(el.audio.currentTime * 1000);
    const running = S.playing ? performance.now() - S.anchorAt : 0;
    return clamp(S.anchorPos + running);
  }

  function setPosition(ms) {
    S.anchorPos = clamp(ms);
    S.anchorAt = performance.now();
    if (audioReady()) el.audio.currentTime = S.anchorPos / 1000;
  }

  function setPlaying(playing) {
    S.anchorPos = position();
    S.anchorAt = performance.now();
    S.playing = playing;
    if (S.audio) {
      if (playing) {
        el.audio.play().catch(() => notice("Press play to hear it on this device.", 0));
      } else {
        el.audio.pause();
      }
    }
    renderPlay();
  }

  // Follow the server. An older state than one already seen changes nothing.
  function adopt(state, { force = false, why = "" } = {}) {
    if (!state) return;
    if (S.inflight > 0 && !force) {
      if (!S.deferred || state.seq >= S.deferred.seq) S.deferred = state;
      return;
    }
    if (state.seq < S.seq && !force) return;
    const moved = (state.last_move_seq || 0) > S.lastMoveSeq;
    S.seq = Math.max(S.seq, state.seq);
    S.lastMoveSeq = Math.max(S.lastMoveSeq, state.last_move_seq || 0);
    S.rows = Array.isArray(state.rows) ? state.rows : [];
    const far = Math.abs(state.position_ms - position()) > FOLLOW_THRESHOLD_MS;
    if (force || moved || far) {
      if (state.position_ms < position()) forgetTitlesFrom(state.position_ms);
      setPosition(state.position_ms);
      bookSoon();
    }
    if (typeof state.playing === "boolean" && state.playing !== S.playing) setPlaying(state.playing);
    if (why && (moved || far)) notice(`${why} ${clock(state.position_ms)}.`);
    renderRows();
    render();
    ensureChapterTitle();
    historySoon();
  }

  async function refreshState() {
    const res = await api("GET", `${base()}/state`);
    if (res.ok) adopt(findState(res.data) || res.data, { force: S.seq === 0 });
    return res;
  }

  // ---- reports and moves ---------------------------------------------------------------
  async function report() {
    S.lastReportAt = performance.now();
    const body = () => ({
      device: DEVICE, position_ms: position(), playing: S.playing, basis_seq: S.seq, device_clock: Date.now(),
    });
    let res;
    try {
      res = await ours("POST", `${base()}/reports`, body);
    } catch {
      link(false);
      return;
    }
    afterCommand(res, "Another device moved the book to");
  }

  // What every command's reply does: accepted -> note the seq; refused -> adopt the state.
  function afterCommand(res, why) {
    if (res.status === 409) {
      adopt(findState(res.data), { force: true, why });
      return true;
    }
    if (!res.ok) {
      notice(`Could not do that: ${problem(res)}.`);
      return false;
    }
    const state = findState(res.data);
    if (state) {
      adopt(state);
    } else if (res.data && typeof res.data.seq === "number") {
      S.seq = Math.max(S.seq, res.data.seq);
    }
    return true;
  }

  // The scrubber's key steps are gathered into one seek. One still waiting goes out before
  // any other command: sent later, with a fresh basis, it would undo what came after it.
  const scrub = { timer: 0, chosen: null };
  function settleScrub() {
    if (scrub.chosen === null) return;
    clearTimeout(scrub.timer);
    const chosen = scrub.chosen;
    scrub.chosen = null;
    S.scrubbing = false;
    seekTo(chosen);
  }

  const skip = (ms) => {
    settleScrub();
    seekTo(position() + ms);
  };

  async function seekTo(ms) {
    settleScrub();
    const target = clamp(ms);
    setPosition(target);
    render();
    const body = () => ({ device: DEVICE, position_ms: target, basis_seq: S.seq, device_clock: Date.now() });
    try {
      const res = await ours("POST", `${base()}/seek`, body);
      if (res.ok) {
        // A seek moves the book: our own move must not be taken for someone else's.
        const state = findState(res.data);
        if (state) S.lastMoveSeq = Math.max(S.lastMoveSeq, state.last_move_seq || 0);
      }
      afterCommand(res, "Another device moved the book to");
    } catch {
      link(false);
    }
    historySoon();
  }

  function afterJoin(res) {
    const state = res && res.ok ? findState(res.data) : null;
    if (state) adopt(state);
  }

  function togglePlay() {
    if (!S.book) return;
    settleScrub();
    if (!S.playing && position() >= S.duration && S.duration) setPosition(0);
    setPlaying(!S.playing);
    render();
    report();
  }

  // ---- rendering -----------------------------------------------------------------------
  function chapterAt(ms) {
    let found = null;
    for (const ch of S.chapters) {
      if (ch.start_ms <= ms) found = ch; else break;
    }
    return found;
  }

  function chapterTitle(n) {
    const ch = S.chapters.find((c) => c.n === n);
    return ch && ch.title ? ch.title : null;
  }

  function renderPlay() {
    el.play.dataset.playing = String(S.playing);
    const label = S.playing ? "Pause" : "Play";
    el.play.setAttribute("aria-label", label);
    el.play.title = label;
    if ("mediaSession" in navigator) {
      try { navigator.mediaSession.playbackState = S.playing ? "playing" : "paused"; } catch { /* unsupported */ }
    }
  }

  let lastChapterText = "";
  function render() {
    const pos = position();
    if (S.playing && S.duration && pos >= S.duration && !S.audio) {
      setPlaying(false);
      report();
    }
    el.pos.textContent = clock(pos);
    el.dur.textContent = clock(S.duration);
    if (!S.scrubbing) {
      el.scrubber.max = String(S.duration);
      el.scrubber.value = String(pos);
      el.scrubber.setAttribute("aria-valuetext", `${clock(pos)} of ${clock(S.duration)}`);
    }
    const shown = S.scrubbing ? Number(el.scrubber.value) : pos;
    el.scrubber.style.setProperty("--fill", `${S.duration ? (100 * shown) / S.duration : 0}%`);
    const ch = chapterAt(pos);
    let text = "";
    if (ch) text = ch.title ? `Chapter ${ch.n} · ${ch.title}` : `Chapter ${ch.n}`;
    if (text !== lastChapterText) {
      el.chapter.textContent = text;
      lastChapterText = text;
    }
    renderSleep();
  }

  // Every state carries the list: draw it again only when it changed, because a redrawn
  // button drops the keyboard focus and the listener's Enter would then press nothing.
  let drawnRows = "[]";
  function renderRows() {
    const rows = S.rows.slice(0, 4);
    const drawing = JSON.stringify(rows);
    if (drawing === drawnRows) return;
    drawnRows = drawing;
    el.rows.replaceChildren();
    rows.forEach((row, index) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.className = "btn row" + (row.ahead ? " covered" : "");
      b.dataset.row = String(index);
      const hidden = document.createElement("span");
      hidden.className = "visually-hidden";
      hidden.textContent = "Go to ";
      const time = document.createElement("span");
      time.className = "time";
      time.textContent = clock(row.start_ms);
      b.append(hidden, time);
      // Only what the row carries: a covered row has no title and no words to show.
      if (row.ahead) {
        const further = document.createElement("span");
        further.className = "further";
        further.textContent = row.chapter != null ? `chapter ${row.chapter}, further on` : "further on";
        b.append(further);
      } else {
        const title = document.createElement("span");
        title.className = "title";
        const parts = [];
        if (row.chapter != null) parts.push(`Chapter ${row.chapter}`);
        if (row.chapter_title) parts.push(row.chapter_title);
        title.textContent = parts.join(" · ");
        if (title.textContent) b.append(title);
        if (row.words) {
          const words = document.createElement("span");
          words.className = "words";
          words.textContent = row.words;
          b.append(words);
        }
      }
      b.addEventListener("click", () => pressRow(index));
      li.append(b);
      el.rows.append(li);
    });
    const had = !el.list.hidden;
    el.list.hidden = rows.length === 0;
    if (rows.length && !had) el.list.setAttribute("aria-live", "polite");
  }

  // ---- the list ------------------------------------------------------------------------
  async function pressRow(index) {
    settleScrub();
    const res = await ours("POST", `${base()}/list/press`, { row: index, device: DEVICE });
    if (afterCommand(res, "Moved to")) {
      const st = findState(res.data);
      if (!st) await refreshState();
    }
    el.play.focus();
  }

  async function cancelList() {
    settleScrub();
    const res = await ours("POST", `${base()}/list/cancel`, { device: DEVICE });
    if (afterCommand(res, "")) {
      if (!findState(res.data)) await refreshState();
      S.rows = [];
      renderRows();
    }
    el.askInput.focus();
  }

  async function undo() {
    settleScrub();
    const res = await ours("POST", `${base()}/undo`, { device: DEVICE });
    if (afterCommand(res, "Back to")) {
      if (!findState(res.data)) await refreshState();
      notice(`Back to ${clock(position())}.`);
    }
  }

  // ---- asking --------------------------------------------------------------------------
  // "Where did I fall asleep?" is answered here: only this page saw the last touch.
  // ("What happened while I dozed?" is a question about the story: it goes to Bedside.)
  const ASLEEP_QUESTION = /\bwhere\b.*\b(fell|fall(en)?|falling|drift(ed)?|doz(e|ed)|nod(ded)?)\b.*\b(asleep|sleep|off)\b/i;

  async function ask(utterance) {
    utterance = utterance.trim();
    if (!utterance) return;
    el.answer.textContent = "…";
    if (ASLEEP_QUESTION.test(utterance)) {
      const answer = asleepAnswer();
      el.answer.textContent = answer;
      speak(answer);
      showAsleepOffer(true);
      return;
    }
    let res;
    try {
      // Not one of "ours": a turn can take seconds, and other devices' pushes must not wait.
      res = await api("POST", `${base()}/turns`, { device: DEVICE, utterance });
    } catch {
      el.answer.textContent = "I could not reach Bedside. Try again in a moment.";
      return;
    }
    if (!res.ok) {
      el.answer.textContent = `Sorry: ${problem(res)}.`;
      return;
    }
    await answered(res.data || {});
  }

  async function answered(reply) {
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
      if (S.audio && !el.audio.paused) {
        ducked = el.audio.volume;
        el.audio.volume = Math.min(ducked, 0.25);
      }
      u.onend = u.onerror = () => {
        if (ducked !== null) { el.audio.volume = ducked; ducked = null; }
      };
      window.speechSynthesis.speak(u);
    } catch { /* no voice here: the text is on the screen */ }
  }

  // ---- history -------------------------------------------------------------------------
  const KIND = {
    reported: "listening", seeked: "you moved", moved: "moved by a question", goto: "moved by a question",
    pressed: "chosen from the list", undo: "back to where you were",
    fellasleep: "paused by the sleep timer",
  };
  // Entries that are not places the listener was (a list shown, a device joining) stay out.
  const NOT_A_PLACE = new Set(["listed", "cancelled", "joined", "timer_set", "timer_cancelled"]);

  function kindLabel(entry) {
    const kind = String(entry.kind || "").replace(/[^a-z]/gi, "").toLowerCase();
    const cause = String(entry.cause || "").replace(/[^a-z]/gi, "").toLowerCase();
    return KIND[cause] || KIND[kind] || String(entry.kind || "").toLowerCase();
  }

  let historyTimer = 0;
  let lastShownKind = null;
  function historySoon() {
    clearTimeout(historyTimer);
    historyTimer = setTimeout(() => loadHistory(false), 400);
  }

  async function loadHistory(older) {
    let path = `${base()}/history?limit=${HISTORY_FETCH}`;
    if (older && S.historyBefore != null) path += `&before=${S.historyBefore}`;
    let res;
    try { res = await api("GET", path); } catch { return; }
    if (!res.ok) return;
    const d = res.data;
    const entries = Array.isArray(d) ? d : (d && (d.entries || d.history || d.items)) || [];
    if (!older) el.history.replaceChildren();
    // Reports come every 15 s: a run of them is one stretch of listening, shown once (its newest).
    let previousKind = older ? lastShownKind : null;
    for (const entry of entries) {
      const kind = String(entry.kind || "").toLowerCase();
      if (NOT_A_PLACE.has(kind)) continue;
      if (kind === "reported" && previousKind === "reported") continue;
      previousKind = kind;
      lastShownKind = kind;
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.className = "btn";
      const when = document.createElement("span");
      when.className = "when";
      when.textContent = clock(entry.position_ms || 0);
      const what = document.createElement("span");
      what.className = "what";
      // A chapter's name only where the listener has reached it (the book says which).
      const title = entry.chapter != null ? chapterTitle(entry.chapter) : null;
      const bits = [kindLabel(entry)];
      if (entry.chapter != null) bits.push(title ? `ch. ${entry.chapter} · ${title}` : `ch. ${entry.chapter}`);
      if (entry.device) bits.push(entry.device === DEVICE ? "here" : `on ${entry.device}`);
      what.textContent = bits.filter(Boolean).join(" · ");
      b.append(when, what);
      b.setAttribute("aria-label", `Go to ${clock(entry.position_ms || 0)}, ${what.textContent}`);
      b.addEventListener("click", () => seekTo(entry.position_ms || 0));
      li.append(b);
      el.history.append(li);
    }
    if (!older && !el.history.children.length) {
      const li = document.createElement("li");
      li.className = "quiet";
      li.textContent = "No moves yet.";
      el.history.append(li);
    }
    if (entries.length) S.historyBefore = entries[entries.length - 1].seq;
    el.more.hidden = entries.length < HISTORY_FETCH;
  }

  // ---- the book ------------------------------------------------------------------------
  async function loadBook() {
    const res = await api("GET", `/api/books/${enc(BOOK)}`);
    if (!res.ok) throw new Error(problem(res));
    const book = res.data || {};
    S.book = book;
    S.duration = book.duration_ms || 0;
    S.chapters = (book.chapters || [])
      .map((c, i) => ({
        n: c.n ?? c.number ?? c.chapter ?? i + 1,
        title: c.title || null,
        start_ms: c.start_ms || 0,
        end_ms: c.end_ms || 0,
      }))
      .sort((a, b) => a.start_ms - b.start_ms);
    el.title.textContent = book.title || BOOK;
    el.timing.hidden = !book.estimated; // places found by text are guesses against the recording
    document.title = `${book.title || BOOK} · Bedside`;
    const audioUrl = book.audio_url || (book.has_audio || book.audio === true ? `/api/books/${enc(BOOK)}/audio` : null);
    if (audioUrl && !S.audio) {
      S.audio = true;
      // The <audio> element's requests carry the device cookie like every other.
      el.audio.src = audioUrl;
      el.audio.addEventListener("loadedmetadata", () => {
        el.audio.currentTime = S.anchorPos / 1000;
        if (!S.duration && Number.isFinite(el.audio.duration)) S.duration = el.audio.duration * 1000;
        if (S.playing) el.audio.play().catch(() => notice("Press play to hear it on this device.", 0));
      });
      el.audio.addEventListener("ended", () => { if (S.playing) { setPlaying(false); report(); } });
      el.audio.addEventListener("error", () => {
        S.audio = false; // fall back to the clock, so every control still works
        notice("The audio could not be played here; the clock runs instead.");
      });
    }
  }

  // Moving back: titles of chapters that now lie ahead go at once, before the book is
  // asked again (the server decides what it names; this only ever hides).
  function forgetTitlesFrom(ms) {
    for (const ch of S.chapters) if (ch.start_ms >= ms) ch.title = null;
  }

  let bookTimer = 0;
  function bookSoon() {
    clearTimeout(bookTimer);
    bookTimer = setTimeout(() => loadBook().then(render, () => {}), 300);
  }

  // The book names a chapter only once the listener is past its start: ask again then.
  let titleAsked = { n: null, at: 0 };
  async function ensureChapterTitle() {
    const pos = position();
    const ch = chapterAt(pos);
    if (!ch || ch.title || pos <= ch.start_ms) return;
    if (titleAsked.n === ch.n && performance.now() - titleAsked.at < 5_000) return;
    titleAsked = { n: ch.n, at: performance.now() };
    try { await loadBook(); render(); } catch { /* it will be named next time */ }
  }

  async function pickBook() {
    const res = await api("GET", "/api/books");
    if (!res.ok) throw new Error(problem(res));
    const books = Array.isArray(res.data) ? res.data : (res.data && res.data.books) || [];
    if (!BOOK && books.length) BOOK = books[0].id || books[0].book || "";
    if (books.length > 1) {
      el.bookPick.replaceChildren(...books.map((b) => {
        const o = document.createElement("option");
        o.value = b.id; o.textContent = b.title || b.id; o.selected = b.id === BOOK;
        return o;
      }));
      el.bookPickLabel.hidden = false;
      el.bookPick.addEventListener("change", () => {
        const next = new URL(location.href);
        next.searchParams.set("book", el.bookPick.value);
        location.assign(next.toString());
      });
    }
    if (!BOOK) throw new Error("there is no book yet: add one with bedside ingest");
  }

  // ---- live updates --------------------------------------------------------------------
  function link(up) {
    el.link.textContent = up ? `Live on this device (${DEVICE})` : "Reconnecting…";
    el.link.dataset.live = String(up);
  }

  function onEvent(block) {
    let data = "";
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith("data:")) data += line.slice(5).replace(/^ /, "") + "\n";
    }
    data = data.trim();
    if (!data) return;
    let parsed = null;
    try { parsed = JSON.parse(data); } catch { /* not JSON: still a sign that something changed */ }
    const state = findState(parsed);
    if (state) adopt(state, { why: "Moved to" });
    else refreshState();
  }

  // SSE read with fetch (the device cookie authenticates it), so a retry is under our control.
  async function listen() {
    let wait = 500;
    for (;;) {
      try {
        const res = await fetch(`${base()}/events`, {
          headers: { Accept: "text/event-stream" },
          cache: "no-store",
          credentials: "same-origin",
        });
        if (!res.ok || !res.body) throw new Error(String(res.status));
        link(true);
        wait = 500;
        await refreshState(); // catch up on anything missed while away
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let match;
          while ((match = /\r?\n\r?\n/.exec(buffer))) {
            const block = buffer.slice(0, match.index);
            buffer = buffer.slice(match.index + match[0].length);
            onEvent(block);
          }
        }
      } catch { /* fall through to a retry */ }
      link(false);
      await sleep(wait);
      wait = Math.min(wait * 2, 15_000);
    }
  }

  // ---- sleep timer, and where the listener fell asleep ---------------------------------
  let lastTouch = null;
  function touched() {
    el.fade.style.opacity = "0";
    // Where the listener was awake: read a moment after the press, once it has acted.
    setTimeout(() => {
      lastTouch = { position_ms: position(), at: Date.now() };
      if (S.sleep.mode !== "off") store("awake", lastTouch);
      if (S.sleep.fading) cancelFade();
    }, 300);
    const asleep = recall("asleep");
    if (asleep && !asleep.offered) showAsleepOffer(false);
  }

  function setSleep(mode) {
    cancelFade();
    S.sleep.mode = mode;
    S.sleep.endsAt = /^\d+$/.test(mode) ? Date.now() + Number(mode) * MINUTE_MS : 0;
    // Fixed now, as a book time: once the position crosses the boundary it must not move on.
    S.sleep.stopAt = mode === "chapter" ? chapterEnd() : null;
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
    return ch && ch.end_ms ? ch.end_ms : S.duration;
  }

  function sleepRemaining() {
    const mode = S.sleep.mode;
    if (mode === "off") return null;
    if (mode === "chapter") return S.playing ? S.sleep.stopAt - position() : null; // book time

    return S.sleep.endsAt - Date.now();
  }

  function renderSleep() {
    const left = sleepRemaining();
    if (S.sleep.mode === "off") { el.sleepLeft.textContent = ""; return; }
    if (S.sleep.mode === "chapter") {
      el.sleepLeft.textContent = "Pausing at the end of this chapter.";
    } else if (left != null) {
      const minutes = Math.max(0, Math.ceil(left / MINUTE_MS));
      const text = `Pausing in ${minutes} min.`;
      if (el.sleepLeft.textContent !== text) el.sleepLeft.textContent = text;
    }
    if (left == null || !S.playing) return;
    if (left <= 0) sleepNow(S.sleep.mode === "chapter" ? S.sleep.stopAt : null);
    else if (left <= FADE_MS) fadeTo(left / FADE_MS);
  }

  let fullVolume = 1;
  function fadeTo(fraction) {
    if (!S.sleep.fading) {
      S.sleep.fading = true;
      fullVolume = el.audio.volume || 1;
    }
    if (S.audio) el.audio.volume = Math.max(0, fullVolume * fraction);
    el.fade.style.opacity = String(0.6 * (1 - fraction));
  }

  function cancelFade() {
    if (!S.sleep.fading) return;
    S.sleep.fading = false;
    if (S.audio) el.audio.volume = fullVolume;
    el.fade.style.opacity = "0";
  }

  function sleepNow(stopAt) {
    const awake = recall("awake") || lastTouch || { position_ms: position(), at: Date.now() };
    setPlaying(false);
    // At the end of a chapter, stop where the next one starts: that one stays unheard.
    if (stopAt != null) setPosition(stopAt);
    report();
    if (S.audio) el.audio.volume = fullVolume;
    S.sleep.fading = false;
    setSleep("off");
    el.fade.style.opacity = "0.6";
    store("asleep", { position_ms: awake.position_ms, at: awake.at, paused_at: Date.now(), offered: false });
  }

  function asleepAnswer() {
    const asleep = recall("asleep");
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

  function showAsleepOffer(force) {
    const asleep = recall("asleep");
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

  // ---- wiring --------------------------------------------------------------------------
  function wire() {
    el.play.addEventListener("click", togglePlay);
    el.back.addEventListener("click", () => skip(-SKIP_MS));
    el.fwd.addEventListener("click", () => skip(SKIP_MS));

    el.scrubber.addEventListener("input", () => {
      S.scrubbing = true;
      const v = Number(el.scrubber.value);
      el.pos.textContent = clock(v);
      el.scrubber.setAttribute("aria-valuetext", `${clock(v)} of ${clock(S.duration)}`);
      el.scrubber.style.setProperty("--fill", `${S.duration ? (100 * v) / S.duration : 0}%`);
    });
    el.scrubber.addEventListener("change", () => {
      // Keys fire a change per press: gather them into one move, to the last value chosen.
      scrub.chosen = Number(el.scrubber.value);
      S.scrubbing = true;
      clearTimeout(scrub.timer);
      scrub.timer = setTimeout(settleScrub, 350);
    });

    el.cancel.addEventListener("click", cancelList);
    el.undo.addEventListener("click", undo);
    el.more.addEventListener("click", () => loadHistory(true));
    el.askForm.addEventListener("submit", (e) => {
      e.preventDefault();
      const text = el.askInput.value;
      el.askInput.value = "";
      ask(text);
    });
    for (const b of document.querySelectorAll("[data-sleep]")) {
      b.addEventListener("click", () => setSleep(b.dataset.sleep));
    }
    el.asleepGo.addEventListener("click", () => {
      const asleep = recall("asleep");
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

    // Anything the listener does is a sign they are awake.
    document.addEventListener("pointerdown", touched, true);
    document.addEventListener("keydown", touched, true);

    // Keys for the main controls when nothing that takes keys has focus.
    document.addEventListener("keydown", (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const t = e.target;
      const typing = t instanceof HTMLInputElement || t instanceof HTMLSelectElement ||
        t instanceof HTMLTextAreaElement || t instanceof HTMLButtonElement;
      if (typing) return;
      if (e.key === " " || e.key === "k") { e.preventDefault(); togglePlay(); }
      else if (e.key === "ArrowLeft" || e.key === "j") { e.preventDefault(); skip(-SKIP_MS); }
      else if (e.key === "ArrowRight" || e.key === "l") { e.preventDefault(); skip(SKIP_MS); }
      else if (e.key === "/") { e.preventDefault(); el.askInput.focus(); }
    });

    // Coming back to a tab that slept: take the server's word for where the book is.
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && S.book) refreshState();
    });

    setInterval(() => {
      render();
      if (S.playing && performance.now() - S.lastReportAt >= REPORT_EVERY_MS) report();
    }, 250);
  }

  // The phone's lock screen and headset buttons: play, pause and the 30-second skips.
  function setupMediaSession() {
    if (!("mediaSession" in navigator) || !S.book) return;
    try {
      navigator.mediaSession.metadata = new MediaMetadata({
        title: S.book.title || BOOK,
        artist: [S.book.author, S.book.narrator && `read by ${S.book.narrator}`].filter(Boolean).join(", "),
        album: "Bedside",
        artwork: S.book.has_cover
          ? [{ src: `/api/books/${enc(BOOK)}/cover?token=${enc(TOKEN)}` }]
          : [],
      });
      const handlers = {
        play: () => { if (!S.playing) togglePlay(); },
        pause: () => { if (S.playing) togglePlay(); },
        seekbackward: () => skip(-SKIP_MS),
        seekforward: () => skip(SKIP_MS),
      };
      for (const [action, handler] of Object.entries(handlers)) {
        navigator.mediaSession.setActionHandler(action, handler);
      }
    } catch { /* an older browser: the page's own buttons still work */ }
  }

  // The token or pairing code leaves the address (and so the history) whatever the trade gives.
  function dropSecretsFromAddress() {
    const search = new URLSearchParams(location.search);
    const hash = new URLSearchParams(location.hash.slice(1));
    for (const key of ["token", "pair"]) { search.delete(key); hash.delete(key); }
    const rest = `${search.size ? `?${search}` : ""}${hash.size ? `#${hash}` : ""}`;
    history.replaceState(history.state, "", `${location.pathname}${rest}`);
  }

  // Who this device is: a token or code in the address traded for the cookie, else a cookie from before.
  async function signIn() {
    let traded = null;
    if (PAIRING) traded = await api("POST", "/api/pair", { code: PAIRING.trim().toUpperCase() });
    else if (TOKEN) traded = await api("POST", "/api/session", undefined, TOKEN);
    dropSecretsFromAddress();
    const res = traded && traded.ok ? traded : await api("GET", "/api/session");
    if (res.ok) {
      LISTENER = res.data.listener;
      return null;
    }
    if (traded) return problem(traded);
    return "This device is not paired: run `bedside pair` where Bedside runs and open the link it prints.";
  }

  // A device that cannot scan: the code `bedside pair` printed, typed (O for 0, I or L for 1 forgiven).
  function offerPairing() {
    const form = $("pair-form");
    form.hidden = false;
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const letters = $("pair-code").value.toUpperCase().replace(/O/g, "0").replace(/[IL]/g, "1")
        .replace(/[^0-9A-Z]/g, "");
      const res = await api("POST", "/api/pair", { code: `${letters.slice(0, 5)}-${letters.slice(5)}` });
      if (res.ok) location.reload();
      else notice(problem(res), 0);
    });
  }

  async function start() {
    wire();
    renderPlay();
    let refused = null;
    try { refused = await signIn(); } catch (e) { refused = `Bedside could not be reached: ${e.message || e}`; }
    if (refused) {
      notice(refused, 0);
      el.link.textContent = "Not connected";
      offerPairing();
      return;
    }
    try {
      await pickBook();
      await loadBook();
      const res = await refreshState();
      if (!res.ok) throw new Error(problem(res));
    } catch (e) {
      notice(`Bedside could not open the book: ${e.message || e}`, 0);
      el.link.textContent = "Not connected";
      return;
    }
    // Say this device follows the book (a device that cannot join still works).
    api("POST", `${base()}/devices`, { device: DEVICE }).then((r) => afterJoin(r)).catch(() => {});
    setupMediaSession();
    el.app.setAttribute("aria-busy", "false");
    el.app.dataset.ready = "true";
    render();
    loadHistory(false);
    showAsleepOffer(false);
    listen();
  }

  // For tests and the curious: what the page believes, read-only.
  window.bedside = Object.freeze({
    get seq() { return S.seq; },
    get position_ms() { return position(); },
    get playing() { return S.playing; },
    get device() { return DEVICE; },
    get rows() { return S.rows.slice(); },
  });

  // All the voice module (voice.js) uses of the page: where to post a recording, and the reply.
  window.bedsideVoice = Object.freeze({ spokenPath: () => `${base()}/turns/spoken`, ask, answered, notice });

  start();
})();

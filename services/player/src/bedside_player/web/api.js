// Requests to the player. The device cookie goes with every same-origin request; a bearer
// only to trade the token for it.
import { state } from "./state.js";

const enc = encodeURIComponent;
export const bookPath = () => `/api/books/${enc(state.bookId)}`;
export const listenerPathFor = (book) => `/api/listeners/${enc(state.listener)}/books/${enc(book)}`;
export const listenerPath = () => listenerPathFor(state.bookId);

// `waitMs`: given up after that long (the body too), as when no answer comes at all.
export async function api(method, path, body, bearer, waitMs = 0) {
  const headers = { Accept: "application/json" };
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  const init = { method, headers, cache: "no-store", credentials: "same-origin" };
  if (waitMs) init.signal = timeoutSignal(waitMs);
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (cause) {
    throw unreachable(cause);
  }
  let data = null;
  let text;
  try {
    text = await res.text();
  } catch (cause) {
    throw unreachable(cause); // cut off, or given up on, midway
  }
  if (text) { try { data = JSON.parse(text); } catch { data = { detail: text }; } }
  return { status: res.status, ok: res.ok, data };
}

// No answer at all (the network down, the server not running): told apart from a refusal, which is
// the server's word, so the page can wait for Bedside rather than take it as a no.
const unreachable = (cause) => Object.assign(new Error("Bedside is not answering", { cause }), { unreachable: true });

// A copy starting (ADR 49), the bus stalled, or a proxy in front waiting: Bedside will answer soon.
export const STARTING_STATUSES = new Set([502, 503, 504]);

// Given up on after `ms`; where a browser lacks AbortSignal.timeout (Safari before 16), by a timer.
export function timeoutSignal(ms) {
  if (AbortSignal.timeout) return AbortSignal.timeout(ms);
  const controller = new AbortController();
  setTimeout(() => controller.abort(new DOMException("timed out", "TimeoutError")), ms);
  return controller.signal;
}

// A reply that was not ok, as an error that keeps its status for the caller to tell apart.
export const refusal = (res) => Object.assign(new Error(problem(res)), { status: res.status });

export function problem(res) {
  const d = res && res.data;
  if (!d) return `the server said ${res ? res.status : "nothing"}`;
  if (typeof d.detail === "string") return d.detail;
  if (Array.isArray(d.detail)) return d.detail.map((x) => x.msg || JSON.stringify(x)).join("; ");
  if (typeof d.error === "string") return d.error;
  return `the server said ${res.status}`;
}

// What the listener is told when a question comes back without an answer. A service behind
// the player that is down or too slow (503, 504) is the house's trouble, said as the turn
// service says its own: no service names or seconds at 2am. Anything else (too long) as sent.
export const TROUBLE = "Something went wrong on my side; please ask me again in a moment.";
export function unanswered(res) {
  return res.status === 503 || res.status === 504 ? TROUBLE : `Sorry: ${problem(res)}.`;
}

// A state may arrive bare, or wrapped ({state}, {detail: {state}}, {current}).
export function findState(obj) {
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

// The newest move was the sleep timer's pause (ADR 24), told by what made it (`last_move_cause`),
// as every move is (ADR 47): the one way the page knows it.
export const pausedBySleep = (moveCause) => moveCause === "fell_asleep";

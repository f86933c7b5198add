// Who this device is: a token or a pairing code from the address traded for the device
// cookie, else a cookie from before; or a code typed in.
import { api, problem, refusal, STARTING_STATUSES } from "./api.js";
import { PAIRING, setTurnWaits, TOKEN, state } from "./state.js";
import { el, notice } from "./ui.js";

// The token or pairing code leaves the address (and so the history) whatever the trade gives.
function dropSecretsFromAddress() {
  const search = new URLSearchParams(location.search);
  const hash = new URLSearchParams(location.hash.slice(1));
  for (const key of ["token", "pair"]) { search.delete(key); hash.delete(key); }
  const rest = `${search.size ? `?${search}` : ""}${hash.size ? `#${hash}` : ""}`;
  history.replaceState(history.state, "", `${location.pathname}${rest}`);
}

// Null once signed in, else why not. Bedside starting, or its bus stalled, is no answer about this
// device: thrown, to be waited out (main.js), never told as "not paired".
export async function signIn() {
  let traded = null;
  if (PAIRING) traded = notYet(await api("POST", "/api/pair", { code: PAIRING.trim().toUpperCase() }));
  else if (TOKEN) traded = notYet(await api("POST", "/api/session", undefined, TOKEN));
  dropSecretsFromAddress();
  const res = traded && traded.ok ? traded : notYet(await api("GET", "/api/session"));
  if (res.ok) {
    state.listener = res.data.listener;
    setTurnWaits(res.data);
    el.who.textContent = `Listening as ${state.listener}`; // a cookie another's link replaced shows
    if (traded && traded.ok) tellOtherTabs(state.listener);
    return null;
  }
  if (traded) return problem(traded);
  return "This device is not paired: run `bedside pair` where Bedside runs and open the link it prints.";
}

function notYet(res) {
  if (STARTING_STATUSES.has(res.status)) throw refusal(res);
  return res;
}

// The device cookie is the browser's, shared by its tabs: a sign-in here tells the others whom they
// listen as now, so a tab of another listener stops at once rather than at its next refusal.
const SIGN_INS = "bedside-sign-ins";
function tellOtherTabs(listener) {
  if (typeof BroadcastChannel === "undefined") return;
  new BroadcastChannel(SIGN_INS).postMessage({ listener });
}
export function hearOtherTabs(signedInAs) {
  if (typeof BroadcastChannel === "undefined") return;
  new BroadcastChannel(SIGN_INS).onmessage = ({ data }) => signedInAs(data.listener);
}

// A device that cannot scan: the code `bedside pair` printed, typed (O for 0, I or L for 1 forgiven).
export function offerPairing() {
  el.pairForm.hidden = false;
  el.pairForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const letters = el.pairCode.value.toUpperCase().replace(/O/g, "0").replace(/[IL]/g, "1")
      .replace(/[^0-9A-Z]/g, "");
    const res = await api("POST", "/api/pair", { code: `${letters.slice(0, 5)}-${letters.slice(5)}` });
    if (res.ok) {
      tellOtherTabs(res.data.listener);
      location.reload();
    }
    else notice(problem(res), 0);
  });
}

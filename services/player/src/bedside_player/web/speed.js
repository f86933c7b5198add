// How fast the book plays (ADR 82): the listener's, for this book, on every device. The player keeps
// it: this page plays at the speed of the newest state it took in, and a speed chosen here is sent and
// played once the player's answer brings it back, as another device's choice is.
import { afterCommand, command, playAt } from "./position.js";
import { DEVICE, state } from "./state.js";
import { el } from "./ui.js";

const spoken = (speed) => `${Number(speed.toFixed(2))}×`;

// The picker shows the speed playing, with an option of its own for one set aloud that it does not offer,
// there while it plays: the listener chose from the picker's own speeds, and each speed said ("1.3x", "a
// bit faster") left one more among them.
function show(speed) {
  const value = String(speed);
  const saidBefore = [...el.speed.options].filter((o) => "said" in o.dataset && o.value !== value);
  for (const option of saidBefore) option.remove();
  if (![...el.speed.options].some((o) => o.value === value)) {
    const option = new Option(spoken(speed), value);
    option.dataset.said = "";
    const after = [...el.speed.options].find((o) => Number(o.value) > speed);
    el.speed.add(option, after || null);
  }
  el.speed.value = value;
}

// A state with no speed comes from a player copy older than the speed (a rolling upgrade): it passed
// over the speed's event and says nothing of it, so the speed playing stays. That speed is always this
// book's: another book opens as a page of its own (`switchTo` navigates), whose speed starts at 1x.
export function adoptSpeed(next) {
  const speed = typeof next.speed === "number" ? next.speed : state.speed;
  playAt(speed);
  show(speed);
}

export function wireSpeed() {
  el.speed.addEventListener("change", async () => {
    const res = await command("/speed", { device: DEVICE, speed: Number(el.speed.value) });
    if (!res || !afterCommand(res, "Another device moved the book to")) show(state.speed);
  });
}

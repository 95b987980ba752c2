// Your turn and the clocks: the tab title and favicon when it is your move, an optional sound (off by
// default), browser notifications while the page is hidden (asked for on a click), and every seat's
// clock ticking down in the seat panel. The server's clocks are the truth: each summary carries the
// time left at the server's "now", and the page counts down from the moment it received it.

import { el } from "/static/js/api.js";
import { t } from "/static/js/i18n.js";

const SOUND_KEY = "robotable.sound";
const FAVICON = "/static/favicon.svg";
const FAVICON_TURN = "/static/favicon-turn.svg";

const state = { mine: false, clock: null, receivedAt: 0, onChange: null, lastDue: "" };

/** Remember the table's clocks (from a summary) and when they arrived. */
export function setClock(table) {
  state.clock = table && table.clock ? table.clock : null;
  state.receivedAt = performance.now();
}

/** Whether the table still waits for players (a seat nobody has taken: open, or invited and not yet
 * accepted): no clock runs until every seat is taken. */
export function waitingForPlayers(table) {
  return table.status !== "finished" && table.status !== "expired" && table.seats.some((s) => s.kind === "open" || (s.kind === "human" && !s.account));
}

/** A seat's clock now: {left, running, away} (milliseconds; away: grace left for a disconnected player).
 * ``source``: {clock, receivedAt} of a tag showing another table's clock (My tables); else this table's. */
export function clockOf(seat, source = null) {
  const from = source || state;
  const c = from.clock && from.clock.seats[seat];
  if (!c) return null;
  const elapsed = performance.now() - from.receivedAt;
  const left = c.running ? c.left_ms - elapsed : c.left_ms;
  const away = c.away_ms === null || c.away_ms === undefined ? null : Math.max(0, c.away_ms - elapsed);
  return { left, running: c.running, away, canHandOver: c.can_hand_over };
}

/** Whether the others may hand this seat to a bot now (its clock ran out, or its grace is over). */
export function mayHandOver(table, seat) {
  const s = table.seats[seat];
  const c = clockOf(seat);
  if (!c || s.kind === "bot" || s.handed_to_bot || table.status === "finished") return false;
  if (table.clock && table.clock.waiting && s.kind !== "open") return false; // no clock runs before the table is full
  if (s.kind === "open" || c.canHandOver) return true;
  return c.left <= 0 || (c.away !== null && c.away <= 0 && !s.connected);
}

/** "4:59", "1 d 23 h", "-0:03" (in the page's language) */
export function formatDuration(ms) {
  const total = Math.floor(Math.abs(ms) / 1000);
  const sign = ms < 0 && total > 0 ? "-" : ""; // a clock that has just run out reads 0:00, not -0:00
  if (total >= 86400) return t("app:clock.days_hours", { sign, d: Math.floor(total / 86400), h: Math.floor((total % 86400) / 3600) });
  if (total >= 3600) return t("app:clock.hours_minutes", { sign, h: Math.floor(total / 3600), m: Math.floor((total % 3600) / 60) });
  return `${sign}${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

/** The clock of a seat, as a tag the ticker keeps up to date; ``table``: a summary whose clock the tag
 * shows (for a list of tables), else the clock of this page's table. */
export function clockTag(seat, table = null) {
  const node = el("span", { class: "tag clock", dataset: { clockSeat: seat } });
  if (table) node.ownClock = { clock: table.clock || null, receivedAt: performance.now() };
  paint(node);
  return node;
}

/** Repaint every clock tag on the page (a page without a table's ticker calls it every second). */
export function repaintClocks() {
  for (const node of document.querySelectorAll("[data-clock-seat]")) paint(node);
}

function paint(node) {
  const c = clockOf(Number(node.dataset.clockSeat), node.ownClock);
  if (!c) {
    node.hidden = true;
    return;
  }
  node.hidden = false;
  let text = formatDuration(c.left);
  if (c.away !== null) text += ` · ${t("app:clock.away", { time: formatDuration(c.away) })}`;
  node.textContent = text;
  node.classList.toggle("running", c.running);
  node.classList.toggle("out", c.left <= 0);
  node.classList.toggle("low", c.running && c.left > 0 && c.left < 30_000);
  node.title = c.running ? t("app:clock.running") : t("app:clock.stopped");
}

/** A time control ({kind, base, increment} or {kind: "turn", days}) as a short label: "5 min + 20 s",
 * "2 days per move" (the server's English `label` is the fallback). */
export function clockLabel(control) {
  if (!control) return "";
  if (control.kind === "turn" && Number.isInteger(control.days)) return t("app:clock.label_turn", { count: control.days });
  if (control.kind === "live" && Number.isInteger(control.base)) {
    const base = control.base % 60 === 0 && control.base >= 60 ? t("app:clock.label_min", { n: control.base / 60 }) : t("app:clock.label_s", { n: control.base });
    return t("app:clock.label_live", { base, increment: control.increment });
  }
  return control.label || "";
}

/** The table's time control as a short label ("5 min + 20 s", "2 days per move"). */
export function controlLabel() {
  return state.clock ? clockLabel(state.clock.control) : "";
}

/** Tick every clock on the page; ``onChange`` runs when a seat becomes one the others may hand over. */
export function startTicker(onChange) {
  state.onChange = onChange;
  setInterval(() => {
    repaintClocks();
    if (!state.clock) return;
    const due = state.clock.seats.map((c) => (clockOf(c.seat).left <= 0 || clockOf(c.seat).away === 0 ? "1" : "0")).join("");
    if (due !== state.lastDue) {
      state.lastDue = due;
      if (state.onChange) state.onChange();
    }
  }, 250);
}

// -- your turn ------------------------------------------------------------------------------------

function soundOn() {
  return localStorage.getItem(SOUND_KEY) === "on";
}

function setFavicon(href) {
  let link = document.querySelector("link[rel=icon]");
  if (!link) {
    link = el("link", { rel: "icon", type: "image/svg+xml" });
    document.head.append(link);
  }
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
}

function beep() {
  try {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.35);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.35);
    osc.onended = () => ctx.close();
  } catch (err) {
    console.info("no sound", err);
  }
}

function notify(title) {
  if (!("Notification" in window) || Notification.permission !== "granted" || !document.hidden) return;
  const note = new Notification(title, { body: t("app:turn.notify_body"), icon: FAVICON_TURN, tag: "robotable-turn" });
  note.onclick = () => {
    window.focus();
    note.close();
  };
}

/** Show in the tab whether it is your move; on becoming your move, sound and notify as chosen. */
export function showTurn(mine, name) {
  const became = mine && !state.mine;
  state.mine = mine;
  document.title = mine ? t("app:title.your_move", { name }) : t("app:title.suffix", { name });
  setFavicon(mine ? FAVICON_TURN : FAVICON);
  document.body.dataset.yourTurn = mine ? "1" : "0";
  if (became) {
    if (soundOn()) beep();
    notify(t("app:turn.notify_title", { name }));
  }
}

/** The sound toggle and the notifications button, for the side panel. */
export function turnControls() {
  const sound = el("input", { type: "checkbox", id: "sound-toggle", checked: soundOn() });
  sound.addEventListener("change", () => {
    localStorage.setItem(SOUND_KEY, sound.checked ? "on" : "off");
    if (sound.checked) beep();
  });
  const parts = [el("label", { class: "small" }, sound, t("app:turn.sound"))];
  if ("Notification" in window) {
    const status = () => ({ granted: t("app:turn.notify_on"), denied: t("app:turn.notify_blocked") })[Notification.permission];
    const button = el("button", { type: "button", class: "small", id: "notify-button" }, t("app:turn.notify"));
    const label = el("span", { class: "muted small" }, status() || "");
    button.hidden = Notification.permission !== "default";
    button.addEventListener("click", async () => {
      await Notification.requestPermission();
      button.hidden = Notification.permission !== "default";
      label.textContent = status() || "";
    });
    parts.push(button, label);
  }
  return el("div", { class: "turn-controls" }, parts);
}

// The animation speed of a game's table (issue 17): one choice per game, kept in this browser, used at
// the table and in replays alike. The games scale their CSS animations with the custom property
// --anim-scale (a duration times the scale: 2× halves it) and their scripted ones with the speed itself.
// A game that can switch its animations off offers "off" too (speed 0); prefers-reduced-motion stays the
// games' own business (their CSS and checks), as before.

import { el } from "/static/js/api.js";

export const SPEEDS = [0.5, 1, 2, 4];

/** The speed kept under ``key`` (1 if none); 0 when ``offKey`` holds "off" (the animations are off). */
export function readSpeed(key, offKey = null) {
  if (offKey && localStorage.getItem(offKey) === "off") return 0;
  const speed = Number(localStorage.getItem(key));
  return SPEEDS.includes(speed) ? speed : 1;
}

/** Keep ``speed`` under ``key`` (0: ``offKey`` says "off" and the last speed stays for when it is on again). */
export function writeSpeed(key, speed, offKey = null) {
  if (offKey) localStorage.setItem(offKey, speed ? "on" : "off");
  if (speed) localStorage.setItem(key, String(speed));
}

/** Set --anim-scale on ``node`` (the game's root element) for ``speed``; answers ``node``. */
export function applySpeed(node, speed) {
  if (node) node.style.setProperty("--anim-scale", scaleFor(speed));
  return node;
}

/** The value of --anim-scale for ``speed`` (0 when off: every scaled duration becomes 0s). */
export function scaleFor(speed) {
  return String(speed ? 1 / speed : 0);
}

/**
 * A labelled select with the speeds (and "off" first when ``offLabel`` and ``offKey`` are given). A choice
 * is kept at once and handed to ``onChange(speed)``. ``label`` and ``offLabel`` come from the game's catalogue.
 */
export function speedControl({ id, key, label, offKey = null, offLabel = null, onChange = () => {} }) {
  const speed = readSpeed(key, offKey);
  const choices = offKey && offLabel ? [[0, offLabel], ...SPEEDS.map((v) => [v, `${v}×`])] : SPEEDS.map((v) => [v, `${v}×`]);
  const select = el(
    "select",
    {
      id,
      class: "small",
      "aria-label": label,
      onchange: (ev) => {
        const chosen = Number(ev.target.value);
        writeSpeed(key, chosen, offKey);
        onChange(chosen);
      },
    },
    choices.map(([v, text]) => el("option", { value: v, selected: v === speed }, text)),
  );
  return el("label", { class: "small muted speed-control" }, `${label} `, select);
}

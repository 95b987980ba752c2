// Twin Tin Bots: SVG drawing of the hex arena and its pieces (no rules here, only geometry and looks).
// Pointy-top hexes in axial coordinates [q, r], r growing downward; one hex has radius S.

import { svg } from "/static/js/api.js";
import { t } from "/static/js/i18n.js";

const T = (k, p) => t(`twin-tin-bots:table.${k}`, p);
const Col = (c) => t(`twin-tin-bots:names.Colour.${c}`);

export const S = 10;
const SQ3 = Math.sqrt(3);

export const COLOUR = { red: "#d9473f", yellow: "#e8b31c", blue: "#3d7bd6", green: "#36a257", purple: "#8a55cc", pink: "#e0609f" };
export const DARK = { red: "#8f2520", yellow: "#8a6705", blue: "#1f4c8f", green: "#1d6535", purple: "#552c86", pink: "#8e2a5c" };
export const CRYSTAL = { blue: "#5ec8ff", green: "#5fe07a", pink: "#ff86d0" };
export const CRYSTAL_EDGE = { blue: "#0d6ea8", green: "#118a36", pink: "#b02a7c" };
export const CRYSTAL_POINTS = { blue: 2, green: 3, pink: 4 };
const TELEPORTER = ["#00a5b8", "#f08c00", "#c2185b"];
export const FACING_ANGLE = { E: 0, NE: -60, NW: -120, W: 180, SW: 120, SE: 60 };
export const DIRS = { e: [1, 0], ne: [1, -1], nw: [0, -1], w: [-1, 0], sw: [-1, 1], se: [0, 1] };
export const FACING_NAME = { E: "east", NE: "north-east", NW: "north-west", W: "west", SW: "south-west", SE: "south-east" };

/** Screen centre of a hex. */
export function centre([q, r]) {
  return [S * SQ3 * (q + r / 2), S * 1.5 * r];
}

export function hexPoints([x, y], size = S) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = ((60 * i - 30) * Math.PI) / 180;
    pts.push(`${(x + size * Math.cos(a)).toFixed(2)},${(y + size * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(" ");
}

export function boardHexes(radius) {
  const out = [];
  for (let r = -radius; r <= radius; r++) for (let q = -radius; q <= radius; q++) if (Math.abs(q + r) <= radius) out.push([q, r]);
  return out;
}

export const key = (h) => `${h[0]},${h[1]}`;

/** A crystal gem: size by value (blue small, green medium, pink large). */
export function gem(kind, [x, y], scale = 1, extra = {}) {
  const k = { blue: 3.1, green: 3.8, pink: 4.5 }[kind] * scale;
  const pts = [
    [0, -k * 1.25],
    [k * 0.95, -k * 0.35],
    [k * 0.6, k * 1.05],
    [-k * 0.6, k * 1.05],
    [-k * 0.95, -k * 0.35],
  ]
    .map(([a, b]) => `${(x + a).toFixed(2)},${(y + b).toFixed(2)}`)
    .join(" ");
  return svg(
    "g",
    { class: `crystal ${kind}`, ...extra },
    svg("polygon", { points: pts, fill: CRYSTAL[kind], stroke: CRYSTAL_EDGE[kind], "stroke-width": 0.7 * scale, "stroke-linejoin": "round" }),
    svg("polygon", { points: `${x},${y - k * 1.25} ${x + k * 0.3},${y - k * 0.2} ${x},${y + k * 1.05} ${x - k * 0.3},${y - k * 0.2}`, fill: "#fff", opacity: 0.45 }),
  );
}

/** A robot: coloured body, a nose pointing where it faces, its letter, and the crystal it carries. */
export function robot(rb, extra = {}) {
  const [x, y] = centre(rb.hex);
  const letter = rb.robot.split("-").pop();
  const body = svg(
    "g",
    { class: "robot-body", transform: `rotate(${FACING_ANGLE[rb.facing]})` },
    svg("polygon", { points: "9.3,0 4.2,-4.6 4.2,4.6", fill: DARK[rb.colour], stroke: "#fff", "stroke-width": 0.8, "stroke-linejoin": "round" }),
    svg("rect", { x: -6.2, y: -5.6, width: 10.6, height: 11.2, rx: 3.2, fill: COLOUR[rb.colour], stroke: DARK[rb.colour], "stroke-width": 1.1 }),
    svg("rect", { x: -6.6, y: -6.6, width: 9, height: 2.2, rx: 1, fill: "#333" }),
    svg("rect", { x: -6.6, y: 4.4, width: 9, height: 2.2, rx: 1, fill: "#333" }),
    svg("circle", { cx: 2.6, cy: -2, r: 1.05, fill: "#fff" }),
    svg("circle", { cx: 2.6, cy: 2, r: 1.05, fill: "#fff" }),
  );
  return svg(
    "g",
    { class: `robot ${rb.colour}${rb.cargo ? " loaded" : ""}`, transform: `translate(${x.toFixed(2)} ${y.toFixed(2)})`, dataset: { robot: rb.robot, facing: rb.facing, hex: key(rb.hex) }, ...extra },
    extra["aria-label"] ? svg("title", {}, extra["aria-label"]) : null,
    body,
    svg("text", { x: -0.9, y: 2.4, "text-anchor": "middle", class: "robot-letter" }, letter),
    rb.cargo ? gem(rb.cargo, [-5.2, -5.6], 0.72, { class: `crystal ${rb.cargo} cargo` }) : null,
  );
}

/** A ghost robot (the preview's final hex and facing). */
export function ghost(name, colour, hex, facing) {
  const [x, y] = centre(hex);
  return svg(
    "g",
    { class: "ghost", transform: `translate(${x.toFixed(2)} ${y.toFixed(2)})`, dataset: { ghost: name, facing, hex: key(hex) } },
    svg(
      "g",
      { transform: `rotate(${FACING_ANGLE[facing]})` },
      svg("polygon", { points: "9.3,0 4.2,-4.6 4.2,4.6", fill: COLOUR[colour], opacity: 0.8 }),
      svg("rect", { x: -6.2, y: -5.6, width: 10.6, height: 11.2, rx: 3.2, fill: COLOUR[colour], "fill-opacity": 0.35, stroke: DARK[colour], "stroke-width": 1.2, "stroke-dasharray": "2 1.4" }),
    ),
  );
}

function base(colour, hex, points) {
  const c = centre(hex);
  return svg(
    "g",
    { class: `base ${colour}`, dataset: { base: colour }, role: "img", "aria-label": T("base_label", { Colour: Col(colour), n: points }) },
    svg("polygon", { points: hexPoints(c, S * 0.94), fill: COLOUR[colour], stroke: DARK[colour], "stroke-width": 1.4 }),
    svg("polygon", { points: hexPoints(c, S * 0.6), fill: "#fff", opacity: 0.25 }),
    svg("text", { x: c[0], y: c[1] - 1, "text-anchor": "middle", class: "base-label" }, "BASE"),
    svg("text", { x: c[0], y: c[1] + 5.2, "text-anchor": "middle", class: "base-points" }, points),
    svg("title", {}, T("base_label", { Colour: Col(colour), n: points })),
  );
}

function rock(hex) {
  const [x, y] = centre(hex);
  return svg(
    "g",
    { class: "rock", dataset: { rock: key(hex) }, role: "img", "aria-label": T("rock") },
    svg("path", { d: `M${x - 6.5},${y + 4} L${x - 5},${y - 3} L${x - 1},${y - 6.2} L${x + 4.5},${y - 4} L${x + 6.8},${y + 2} L${x + 3},${y + 5.8} L${x - 3},${y + 5.6} Z`, fill: "#7d7468", stroke: "#4a443c", "stroke-width": 1 }),
    svg("path", { d: `M${x - 3},${y - 2} L${x + 1},${y - 3.5} L${x + 3.5},${y}`, fill: "none", stroke: "#a39a8c", "stroke-width": 1 }),
    svg("title", {}, T("rock")),
  );
}

function blob(hex, i) {
  const [x, y] = centre(hex);
  return svg(
    "g",
    { class: "blob", dataset: { blob: key(hex), index: i }, role: "img", "aria-label": T("blob") },
    svg("path", { d: `M${x - 6.5},${y + 4.5} Q${x - 7},${y - 5} ${x},${y - 6} Q${x + 7.5},${y - 5} ${x + 6.5},${y + 4.5} Q${x},${y + 7} ${x - 6.5},${y + 4.5} Z`, fill: "#9b7fe0", stroke: "#5b3fa8", "stroke-width": 1 }),
    svg("circle", { cx: x - 2.2, cy: y - 1.5, r: 1.6, fill: "#fff" }),
    svg("circle", { cx: x + 2.2, cy: y - 1.5, r: 1.6, fill: "#fff" }),
    svg("circle", { cx: x - 2, cy: y - 1.2, r: 0.7, fill: "#222" }),
    svg("circle", { cx: x + 2.4, cy: y - 1.2, r: 0.7, fill: "#222" }),
    svg("title", {}, T("blob")),
  );
}

function teleporter(hex, pair) {
  const [x, y] = centre(hex);
  const c = TELEPORTER[pair % TELEPORTER.length];
  return svg(
    "g",
    { class: "teleporter", dataset: { teleporter: pair, hex: key(hex) }, role: "img", "aria-label": T("teleporter", { n: pair + 1 }) },
    svg("circle", { cx: x, cy: y, r: 7, fill: "none", stroke: c, "stroke-width": 1.8 }),
    svg("circle", { cx: x, cy: y, r: 4.4, fill: c, opacity: 0.3, stroke: c, "stroke-width": 1 }),
    svg("circle", { cx: x, cy: y, r: 1.8, fill: c }),
    svg("text", { x: x + 6, y: y - 5, class: "tele-label", fill: c }, pair + 1),
    svg("title", {}, T("teleporter_title", { n: pair + 1 })),
  );
}

function mudPatch(hex) {
  const c = centre(hex);
  const dots = [
    [-3, -2],
    [2.5, -3],
    [3.5, 2],
    [-2, 3],
    [0, 0],
  ].map(([a, b]) => svg("circle", { cx: c[0] + a, cy: c[1] + b, r: 1, fill: "#5a3d1f", opacity: 0.6 }));
  return svg("g", { class: "mud", dataset: { mud: key(hex) }, role: "img", "aria-label": T("mud") }, svg("polygon", { points: hexPoints(c, S * 0.92), fill: "#a67c52", opacity: 0.85 }), dots, svg("title", {}, T("mud")));
}

/** The whole arena as an <svg>; ``layers`` adds overlays (preview, highlights) on top of the pieces. */
export function arena(view, { overlay = [], clickable = new Map(), onHex = null, cls = "" } = {}) {
  const R = view.radius;
  const pad = S * 0.6;
  const rim = S * SQ3 * (R + 0.95); // the rim: a flat-topped hexagon around the board
  const w = 2 * rim + pad;
  const h = 2 * rim * 0.866 + pad;
  const g = [];
  const baseAt = new Map(view.colours.map((c) => [key(c.base), c]));
  g.push(svg("polygon", { points: hexPoints([0, 0], rim).split(" ").map((p) => p.split(",").reverse().join(",")).join(" "), class: "arena-rim" }));
  g.push(...rowLabels(R));
  for (const hx of boardHexes(R)) {
    const k = key(hx);
    const ring = Math.max(Math.abs(hx[0]), Math.abs(hx[1]), Math.abs(hx[0] + hx[1]));
    const action = clickable.get(k);
    const cell = svg("polygon", { points: hexPoints(centre(hx), S * 0.97), class: `cell${ring === R ? " outer" : ""}${hx[0] === 0 && hx[1] === 0 ? " centre" : ""}${action ? " target" : ""}`, dataset: { hex: k, place: placeName(hx, R) } });
    if (onHex) cell.addEventListener("click", () => onHex(hx));
    g.push(cell);
  }
  for (const m of view.mud) g.push(mudPatch(m));
  view.teleporters.forEach((pair, i) => pair.forEach((hx) => g.push(teleporter(hx, i))));
  for (const rk of view.rocks) g.push(rock(rk));
  for (const [, c] of baseAt) g.push(base(c.colour, c.base, c.points_in_base));
  for (const c of view.crystals) g.push(gem(c.crystal, centre(c.hex), 1, { class: `crystal ${c.crystal}`, role: "img", "aria-label": T("crystal_piece", { crystal: t(`twin-tin-bots:names.crystal.${c.crystal}`), place: placeName(c.hex, R) }), dataset: { crystal: c.crystal, hex: key(c.hex) } }));
  view.blobs.forEach((b, i) => g.push(blob(b, i)));
  for (const rb of view.robots) {
    const [colour, letter] = rb.robot.split("-");
    const who = t("twin-tin-bots:names.robot", { Colour: Col(colour), letter });
    const at = { robot: who, place: placeName(rb.hex, R), facing: t(`twin-tin-bots:names.facing.${rb.facing}`) };
    const label = rb.cargo ? T("robot_cargo", { ...at, crystal: t(`twin-tin-bots:names.crystal.${rb.cargo}`) }) : T("robot_piece", at);
    g.push(robot(rb, { role: "img", "aria-label": label }));
  }
  g.push(...overlay);
  for (const [k] of clickable) {
    const [q, r] = k.split(",").map(Number);
    const hit = svg("polygon", { points: hexPoints(centre([q, r]), S * 0.97), class: "hit target-ring", dataset: { target: k, focus: `hex:${k}` }, role: "button", tabindex: 0, "aria-label": T("choose_place", { place: placeName([q, r], R) }) });
    if (onHex) {
      hit.addEventListener("click", () => onHex([q, r]));
      hit.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault();
          onHex([q, r]);
        }
      });
    }
    g.push(hit);
  }
  return svg("svg", { class: `arena ${cls}`, viewBox: `${-w / 2} ${-h / 2} ${w} ${h}`, role: "group", "aria-label": T("arena") }, g);
}

/** A path overlay: a line through the hexes a robot visits, with an arrow at the end. */
export function pathLine(steps, colour) {
  const pts = [];
  for (const [hx] of steps) {
    const c = centre(hx);
    const last = pts[pts.length - 1];
    if (!last || last[0] !== c[0] || last[1] !== c[1]) pts.push(c);
  }
  if (pts.length < 2) return null;
  return svg("polyline", { points: pts.map((p) => p.map((v) => v.toFixed(2)).join(",")).join(" "), class: "path", stroke: DARK[colour], "marker-end": "url(#ttb-arrow)" });
}

export function defs() {
  return svg(
    "defs",
    {},
    svg("marker", { id: "ttb-arrow", viewBox: "0 0 10 10", refX: 12, refY: 5, markerWidth: 3.2, markerHeight: 3.2, orient: "auto-start-reverse" }, svg("path", { d: "M0,0 L10,5 L0,10 z", fill: "#222" })),
  );
}

// -- places as a person sees them: rows lettered from the top, hexes numbered from the left ---------

/** The name of a hex on a board of radius ``R``: row letter (A at the top) and place in the row from the left. */
export function placeName([q, r], R) {
  const qmin = Math.max(-R, -R - r);
  return `${"ABCDEFGHIJKLMNOP"[r + R]}${q - qmin + 1}`;
}

/** Row letters drawn on the rim, left of each row (so that "D5" can be found on the board). */
export function rowLabels(R) {
  const out = [];
  for (let r = -R; r <= R; r++) {
    const qmin = Math.max(-R, -R - r);
    const [x, y] = centre([qmin, r]);
    out.push(svg("text", { x: (x - S * 1.25).toFixed(2), y: (y + 1.6).toFixed(2), "text-anchor": "middle", class: "row-label", "aria-hidden": "true" }, "ABCDEFGHIJKLMNOP"[r + R]));
  }
  return out;
}

// -- tile icons, drawn (no emoji font needed) --------------------------------------------------------

const ARROW_UP = (x, y1, y2) => `M${x} ${y2}V${y1} M${x - 5} ${y1 + 5}L${x} ${y1}L${x + 5} ${y1 + 5}`;
const CHEVRONS = (n) => {
  const parts = [];
  const top = 12 - n * 3.2;
  for (let i = 0; i < n; i++) parts.push(`M6 ${top + i * 6.4 + 6}L12 ${top + i * 6.4}L18 ${top + i * 6.4 + 6}`);
  return parts.join(" ");
};
const TURN_LEFT = "M17 19V12a5 5 0 0 0-5-5H7 M10 3.5L6.5 7L10 10.5";
const TURN_RIGHT = "M7 19V12a5 5 0 0 1 5-5h5 M14 3.5L17.5 7L14 10.5";
const BOLT = (dx = 0, k = 1) => `M${13 * k + dx} ${2 + (1 - k) * 10}L${5 * k + dx} ${13}H${11 * k + dx}L${9 * k + dx} ${22 - (1 - k) * 10}L${18 * k + dx} ${10}H${12 * k + dx}Z`;

const ICON = {
  forward_1: [{ d: ARROW_UP(12, 4, 20) }],
  forward_2: [{ d: CHEVRONS(2) }],
  forward_3: [{ d: CHEVRONS(3) }],
  back_up: [{ d: "M12 4V20 M7 15L12 20L17 15" }],
  turn_left: [{ d: TURN_LEFT }],
  turn_right: [{ d: TURN_RIGHT }],
  turn_2_left: [{ d: TURN_LEFT }, { text: "2", x: 19, y: 21 }],
  turn_2_right: [{ d: TURN_RIGHT }, { text: "2", x: 5, y: 21 }],
  u_turn: [{ d: "M8 20V10a4 4 0 0 1 8 0v9 M12.5 15.5L16 19L19.5 15.5" }],
  load: [{ d: "M12 3V14 M7 9.5L12 14.5L17 9.5 M4 19H20" }],
  unload: [{ d: "M12 15V4 M7 8.5L12 3.5L17 8.5 M4 19H20" }],
  zap: [{ d: BOLT(), fill: true }],
  double_zap: [{ d: "M8 2L2 12H7L5 22L12 10H7.5Z", fill: true }, { d: "M18 2L12 12H17L15 22L22 10H17.5Z", fill: true }],
  long_range_zap: [{ d: "M9 2L3 12H8L6 22L13 10H8.5Z", fill: true }, { d: "M14 12H22 M18.5 8.5L22 12L18.5 15.5" }],
  forward_then_load: [{ d: "M7 20V5 M3 9L7 5L11 9" }, { d: "M17 5V15 M13.5 11.5L17 15L20.5 11.5 M13 19H21" }],
  forward_then_zap: [{ d: "M7 20V5 M3 9L7 5L11 9" }, { d: "M18 3L13 12H17L15.5 21L21.5 10H17.5Z", fill: true }],
  dash: [{ d: "M8 20V5 M4 9L8 5L12 9 M16 20V5 M12 9L16 5L20 9" }],
  jump: [{ d: "M4 19Q12 -2 20 17 M16 14.5L20 18L21.5 13" }],
  anti_zap: [{ d: "M12 2.5L20 5.5V11C20 16 16.5 19.5 12 21.5C7.5 19.5 4 16 4 11V5.5Z" }, { d: "M13 6L9 12.5H12L11 17.5L15 11H12Z", fill: true }],
  anti_theft: [{ d: "M8 10.5V7.5a4 4 0 0 1 8 0v3" }, { rect: [5, 10.5, 14, 10, 2] }, { d: "M12 14.5V17" }],
  double_modification: [{ text: "×2", x: 12, y: 16.5, size: 11 }],
};

/** A tile's icon as an <svg> (``currentColor`` lines): every order and Special Order. */
export function tileIcon(tile, size = 22) {
  const parts = (ICON[tile] || [{ text: "?", x: 12, y: 17, size: 13 }]).map((p) => {
    if (p.text) return svg("text", { x: p.x, y: p.y, "text-anchor": "middle", "font-size": p.size || 8, "font-weight": 800, fill: "currentColor", stroke: "none" }, p.text);
    if (p.rect) {
      const [x, y, w, h, rx] = p.rect;
      return svg("rect", { x, y, width: w, height: h, rx, fill: "currentColor", stroke: "none" });
    }
    return svg("path", { d: p.d, fill: p.fill ? "currentColor" : "none", stroke: p.fill ? "none" : "currentColor" });
  });
  return svg("svg", { class: "tile-icon", viewBox: "0 0 24 24", width: size, height: size, "aria-hidden": "true", "stroke-width": 2.2, "stroke-linecap": "round", "stroke-linejoin": "round" }, parts);
}

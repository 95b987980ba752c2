// Twin Tin Bots: SVG drawing of the hex arena and its pieces (no rules here, only geometry and looks).
// Pointy-top hexes in axial coordinates [q, r], r growing downward; one hex has radius S.

import { svg } from "/static/js/api.js";

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
    svg("title", {}, `${rb.robot} facing ${rb.facing}${rb.cargo ? `, carrying a ${rb.cargo} crystal` : ""}`),
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
    { class: `base ${colour}`, dataset: { base: colour } },
    svg("polygon", { points: hexPoints(c, S * 0.94), fill: COLOUR[colour], stroke: DARK[colour], "stroke-width": 1.4 }),
    svg("polygon", { points: hexPoints(c, S * 0.6), fill: "#fff", opacity: 0.25 }),
    svg("text", { x: c[0], y: c[1] - 1, "text-anchor": "middle", class: "base-label" }, "BASE"),
    svg("text", { x: c[0], y: c[1] + 5.2, "text-anchor": "middle", class: "base-points" }, points),
    svg("title", {}, `${colour} Base: ${points} points delivered`),
  );
}

function rock(hex) {
  const [x, y] = centre(hex);
  return svg(
    "g",
    { class: "rock", dataset: { rock: key(hex) } },
    svg("path", { d: `M${x - 6.5},${y + 4} L${x - 5},${y - 3} L${x - 1},${y - 6.2} L${x + 4.5},${y - 4} L${x + 6.8},${y + 2} L${x + 3},${y + 5.8} L${x - 3},${y + 5.6} Z`, fill: "#7d7468", stroke: "#4a443c", "stroke-width": 1 }),
    svg("path", { d: `M${x - 3},${y - 2} L${x + 1},${y - 3.5} L${x + 3.5},${y}`, fill: "none", stroke: "#a39a8c", "stroke-width": 1 }),
    svg("title", {}, "Rock"),
  );
}

function blob(hex, i) {
  const [x, y] = centre(hex);
  return svg(
    "g",
    { class: "blob", dataset: { blob: key(hex), index: i } },
    svg("path", { d: `M${x - 6.5},${y + 4.5} Q${x - 7},${y - 5} ${x},${y - 6} Q${x + 7.5},${y - 5} ${x + 6.5},${y + 4.5} Q${x},${y + 7} ${x - 6.5},${y + 4.5} Z`, fill: "#9b7fe0", stroke: "#5b3fa8", "stroke-width": 1 }),
    svg("circle", { cx: x - 2.2, cy: y - 1.5, r: 1.6, fill: "#fff" }),
    svg("circle", { cx: x + 2.2, cy: y - 1.5, r: 1.6, fill: "#fff" }),
    svg("circle", { cx: x - 2, cy: y - 1.2, r: 0.7, fill: "#222" }),
    svg("circle", { cx: x + 2.4, cy: y - 1.2, r: 0.7, fill: "#222" }),
    svg("title", {}, "Blob"),
  );
}

function teleporter(hex, pair) {
  const [x, y] = centre(hex);
  const c = TELEPORTER[pair % TELEPORTER.length];
  return svg(
    "g",
    { class: "teleporter", dataset: { teleporter: pair, hex: key(hex) } },
    svg("circle", { cx: x, cy: y, r: 7, fill: "none", stroke: c, "stroke-width": 1.8 }),
    svg("circle", { cx: x, cy: y, r: 4.4, fill: c, opacity: 0.3, stroke: c, "stroke-width": 1 }),
    svg("circle", { cx: x, cy: y, r: 1.8, fill: c }),
    svg("text", { x: x + 6, y: y - 5, class: "tele-label", fill: c }, pair + 1),
    svg("title", {}, `Teleporter ${pair + 1} (paired with the other ${pair + 1})`),
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
  return svg("g", { class: "mud", dataset: { mud: key(hex) } }, svg("polygon", { points: hexPoints(c, S * 0.92), fill: "#a67c52", opacity: 0.85 }), dots, svg("title", {}, "Mud"));
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
  for (const hx of boardHexes(R)) {
    const k = key(hx);
    const ring = Math.max(Math.abs(hx[0]), Math.abs(hx[1]), Math.abs(hx[0] + hx[1]));
    const action = clickable.get(k);
    const cell = svg("polygon", { points: hexPoints(centre(hx), S * 0.97), class: `cell${ring === R ? " outer" : ""}${hx[0] === 0 && hx[1] === 0 ? " centre" : ""}${action ? " target" : ""}`, dataset: { hex: k } });
    if (onHex) cell.addEventListener("click", () => onHex(hx));
    g.push(cell);
  }
  for (const m of view.mud) g.push(mudPatch(m));
  view.teleporters.forEach((pair, i) => pair.forEach((hx) => g.push(teleporter(hx, i))));
  for (const rk of view.rocks) g.push(rock(rk));
  for (const [k, c] of baseAt) g.push(base(c.colour, c.base, c.points_in_base));
  for (const c of view.crystals) g.push(gem(c.crystal, centre(c.hex), 1, { class: `crystal ${c.crystal}`, dataset: { crystal: c.crystal, hex: key(c.hex) } }));
  view.blobs.forEach((b, i) => g.push(blob(b, i)));
  for (const rb of view.robots) g.push(robot(rb));
  g.push(...overlay);
  for (const [k] of clickable) {
    const [q, r] = k.split(",").map(Number);
    const hit = svg("polygon", { points: hexPoints(centre([q, r]), S * 0.97), class: "hit target-ring", dataset: { target: k } });
    if (onHex) hit.addEventListener("click", () => onHex([q, r]));
    g.push(hit);
  }
  return svg("svg", { class: `arena ${cls}`, viewBox: `${-w / 2} ${-h / 2} ${w} ${h}`, role: "img", "aria-label": "the arena" }, g);
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

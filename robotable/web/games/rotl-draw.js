// Robots on the Line: part and torso tiles drawn in SVG from the component catalogue (served by
// GET /api/games/robots-on-the-line/data/catalogue), so a corrected catalogue redraws itself.
// A tile shows its kind by colour and shape, its ports as nubs on its sides (pink connectors pink),
// a head's eyes, a hand tile's hand count, a base's wheels, an extender's maintenance mark and the
// icons it carries as small badges.

import { api, svg } from "/static/js/api.js";
import { t } from "/static/js/i18n.js";

export const SIDES = ["N", "E", "S", "W"];
export const KIND_COLOUR = {
  head: "#f2b134",
  base: "#7c8797",
  hand: "#4fa3e0",
  antenna: "#9b7be0",
  extender: "#b0b8c4",
  elbow: "#b0b8c4",
  splitter: "#b0b8c4",
  battery: "#5cc46b",
  magnet: "#d64545",
  torso: "#6d7f99",
};
// Icon badges: a letter on a coloured disc (clear at small sizes, no font glyphs needed); the discs are
// dark enough for white letters at WCAG AA (4.5:1).
export const ICONS = {
  medical: { letter: "+", fill: "#c62828" },
  war: { letter: "W", fill: "#5b3a29" },
  repair: { letter: "R", fill: "#a4500a" },
  cleaner: { letter: "C", fill: "#0d6e72" },
  flight: { letter: "F", fill: "#2f5fbf" },
  antenna: { letter: "A", fill: "#7040b8" },
  battery: { letter: "B", fill: "#237a35" },
};

/** An icon's name in the page's language ("medical", "医療"). */
export function iconName(icon) {
  return t(`robots-on-the-line:names.icons.${icon}`);
}

let catalogue = null;
let loading = null;

/** Load the catalogue once: {parts: {id: part}, torsos: {id: torso}, raw}. */
export function loadCatalogue() {
  if (catalogue) return Promise.resolve(catalogue);
  if (!loading) {
    loading = api("/api/games/robots-on-the-line/data/catalogue").then((raw) => {
      catalogue = { raw, parts: {}, torsos: {}, requirements: {}, bonus: {} };
      for (const p of raw.parts) catalogue.parts[p.id] = p;
      for (const torso of raw.torsos) catalogue.torsos[torso.id] = torso;
      for (const r of raw.requirement_tiles) catalogue.requirements[r.id] = r;
      for (const b of raw.bonus_tiles) catalogue.bonus[b.id] = b;
      return catalogue;
    });
  }
  return loading;
}

export function cat() {
  return catalogue;
}

/** The catalogue entry of a part or torso id. */
export function tileInfo(id) {
  if (!catalogue || !id) return null;
  return catalogue.parts[id] || catalogue.torsos[id] || null;
}

export function kindOf(id) {
  return id ? id.replace(/-\d+$/, "") : "";
}

/** A part's or torso's name as a person sees it: "Head (2 eyes, flight)" (from the message catalogue). */
export function describeTile(id) {
  if (!id) return "";
  const info = tileInfo(id);
  const kind = info ? info.kind : kindOf(id);
  return kind === "torso" ? t(`robots-on-the-line:names.torsos.${id}`) : t(`robots-on-the-line:names.parts.${id}`);
}

/** A kind's name ("Head", "頭"). */
export function kindName(kind) {
  return t(`robots-on-the-line:names.kinds.${kind}`);
}

export function iconBadge(name, cx, cy, r) {
  const info = ICONS[name] || { letter: name[0].toUpperCase(), fill: "#555" };
  return svg(
    "g",
    { class: `icon icon-${name}` },
    svg("title", {}, iconName(name)),
    svg("circle", { cx, cy, r, fill: info.fill, stroke: "#fff", "stroke-width": r * 0.25 }),
    svg("text", { x: cx, y: cy + r * 0.42, "text-anchor": "middle", "font-size": r * 1.25, "font-weight": 800, fill: "#fff" }, info.letter),
  );
}

function nub(side, x0, y0, s, pink) {
  // a port: a tab sticking out of the tile's side, centred
  const w = s * 0.34;
  const d = s * 0.12;
  const c = s / 2;
  const rects = {
    N: { x: x0 + c - w / 2, y: y0 - d, width: w, height: d * 2 },
    S: { x: x0 + c - w / 2, y: y0 + s - d, width: w, height: d * 2 },
    W: { x: x0 - d, y: y0 + c - w / 2, width: d * 2, height: w },
    E: { x: x0 + s - d, y: y0 + c - w / 2, width: d * 2, height: w },
  };
  return svg("rect", { ...rects[side], rx: d * 0.6, class: `port${pink ? " pink" : ""}`, fill: pink ? "#ff4fa8" : "#39414f", stroke: pink ? "#b3126b" : "#1e232c", "stroke-width": 1 });
}

function mitten(cx, cy, r) {
  // a gripper hand: a palm and three fingers (drawn, so no emoji font is needed)
  const g = svg("g", { class: "mitten" });
  g.append(svg("rect", { x: cx - r * 0.55, y: cy - r * 0.1, width: r * 1.1, height: r * 0.9, rx: r * 0.3, fill: "#fff" }));
  for (let k = -1; k <= 1; k++) g.append(svg("rect", { x: cx + k * r * 0.38 - r * 0.14, y: cy - r * 0.75, width: r * 0.28, height: r * 0.8, rx: r * 0.14, fill: "#fff" }));
  g.append(svg("rect", { x: cx - r * 0.95, y: cy, width: r * 0.5, height: r * 0.26, rx: r * 0.13, fill: "#fff" }));
  return g;
}

export function rotateSide(side, rot) {
  return SIDES[(SIDES.indexOf(side) + rot) % 4];
}

/** The face of a part (drawn in a cell of size s at x0,y0) turned ``rot`` quarter turns clockwise. */
export function partFace(id, x0, y0, s, rot = 0) {
  const info = tileInfo(id);
  const kind = info ? info.kind : kindOf(id);
  const g = svg("g", { class: `tile part kind-${kind}`, dataset: { tile: id } });
  g.append(svg("title", {}, describeTile(id)));
  const fill = KIND_COLOUR[kind] || "#ccc";
  const pad = s * 0.08;
  const inner = s - 2 * pad;
  const ports = (info && info.ports) || [];
  for (const p of ports) g.append(nub(rotateSide(p.side, rot), x0, y0, s, p.pink));
  const connector = kind === "extender" || kind === "elbow" || kind === "splitter";
  if (connector) {
    // a connector is a pipe between its ports
    g.append(svg("rect", { x: x0 + pad, y: y0 + pad, width: inner, height: inner, rx: s * 0.12, fill: "#e9edf2", stroke: "#8d96a3", "stroke-width": 1.5 }));
    const c = s / 2;
    for (const p of ports) {
      const side = rotateSide(p.side, rot);
      const to = { N: [c, pad], S: [c, s - pad], W: [pad, c], E: [s - pad, c] }[side];
      g.append(svg("line", { x1: x0 + c, y1: y0 + c, x2: x0 + to[0], y2: y0 + to[1], stroke: p.pink ? "#ff4fa8" : fill === "#b0b8c4" ? "#6f7887" : fill, "stroke-width": s * 0.2, "stroke-linecap": "round" }));
    }
    g.append(svg("circle", { cx: x0 + c, cy: y0 + c, r: s * 0.11, fill: "#6f7887" }));
    if (info && info.maintenance) {
      g.append(svg("path", { d: `M${x0 + s * 0.72} ${y0 + s * 0.14} l${s * 0.13} ${s * 0.22} h${-s * 0.26} z`, fill: "#f4c430", stroke: "#8a6d00", "stroke-width": 1 }, svg("title", {}, t("robots-on-the-line:ui.maintenance_icon"))));
    }
  } else {
    g.append(svg("rect", { x: x0 + pad, y: y0 + pad, width: inner, height: inner, rx: kind === "head" ? s * 0.22 : s * 0.1, fill, stroke: "#2b313c", "stroke-width": 1.5 }));
    if (kind === "head") {
      const eyes = (info && info.eyes) || 0;
      for (let i = 0; i < eyes; i++) {
        const cx = x0 + s * (0.5 + (i - (eyes - 1) / 2) * 0.22);
        g.append(svg("circle", { cx, cy: y0 + s * 0.4, r: s * 0.085, fill: "#fff", stroke: "#2b313c", "stroke-width": 1 }));
        g.append(svg("circle", { cx, cy: y0 + s * 0.4, r: s * 0.04, fill: "#2b313c" }));
      }
    } else if (kind === "base") {
      if (info && info.wheels) {
        g.append(svg("circle", { cx: x0 + s * 0.32, cy: y0 + s * 0.68, r: s * 0.11, fill: "#2b313c" }));
        g.append(svg("circle", { cx: x0 + s * 0.68, cy: y0 + s * 0.68, r: s * 0.11, fill: "#2b313c" }));
      } else {
        g.append(svg("rect", { x: x0 + s * 0.2, y: y0 + s * 0.62, width: s * 0.2, height: s * 0.2, fill: "#2b313c" }));
        g.append(svg("rect", { x: x0 + s * 0.6, y: y0 + s * 0.62, width: s * 0.2, height: s * 0.2, fill: "#2b313c" }));
      }
    } else if (kind === "hand") {
      const n = (info && info.hands) || 1;
      for (let i = 0; i < n; i++) g.append(mitten(x0 + s * (n === 1 ? 0.5 : 0.33 + i * 0.34), y0 + s * 0.46, s * (n === 1 ? 0.3 : 0.22)));
    } else if (kind === "antenna") {
      g.append(svg("line", { x1: x0 + s * 0.5, y1: y0 + s * 0.7, x2: x0 + s * 0.5, y2: y0 + s * 0.25, stroke: "#fff", "stroke-width": s * 0.06 }));
      g.append(svg("circle", { cx: x0 + s * 0.5, cy: y0 + s * 0.24, r: s * 0.08, fill: "#fff" }));
    } else if (kind === "battery") {
      g.append(svg("rect", { x: x0 + s * 0.3, y: y0 + s * 0.26, width: s * 0.4, height: s * 0.5, rx: 3, fill: "#fff" }));
      g.append(svg("rect", { x: x0 + s * 0.42, y: y0 + s * 0.18, width: s * 0.16, height: s * 0.08, fill: "#fff" }));
    } else if (kind === "magnet") {
      g.append(svg("path", { d: `M${x0 + s * 0.3} ${y0 + s * 0.25} v${s * 0.25} a${s * 0.2} ${s * 0.2} 0 0 0 ${s * 0.4} 0 v${-s * 0.25}`, fill: "none", stroke: "#fff", "stroke-width": s * 0.1 }));
    }
  }
  const icons = ((info && info.icons) || []).filter((i) => !(kind === "battery" && i === "battery"));
  icons.forEach((name, i) => g.append(iconBadge(name, x0 + s * (0.22 + i * 0.26), y0 + s * 0.8, s * 0.11)));
  return g;
}

/** A torso's face: its cells from the catalogue (offset by x0,y0 in cells of size s) with ports and icons. */
export function torsoFace(id, x0, y0, s) {
  const ti = tileInfo(id);
  const g = svg("g", { class: "tile torso", dataset: { tile: id } });
  g.append(svg("title", {}, describeTile(id)));
  const cells = ti ? ti.cells : [[0, 0]];
  for (const p of (ti && ti.ports) || []) {
    const [cx, cy] = p.cell;
    g.append(nub(p.side, x0 + cx * s, y0 + cy * s, s, p.pink));
  }
  for (const [cx, cy] of cells) {
    g.append(svg("rect", { x: x0 + cx * s + s * 0.06, y: y0 + cy * s + s * 0.06, width: s * 0.88, height: s * 0.88, rx: s * 0.1, fill: KIND_COLOUR.torso, stroke: "#222a36", "stroke-width": 2 }));
    g.append(svg("rect", { x: x0 + cx * s + s * 0.3, y: y0 + cy * s + s * 0.25, width: s * 0.4, height: s * 0.3, rx: 3, fill: "#c7d2e3" }));
  }
  ((ti && ti.icons) || []).forEach((name, i) => g.append(iconBadge(name, x0 + s * (0.22 + i * 0.26), y0 + s * 0.8, s * 0.11)));
  return g;
}

/** The bounding box of a torso in cells: [minX, minY, width, height]. */
export function torsoBox(id) {
  const ti = tileInfo(id);
  const cells = ti ? ti.cells : [[0, 0]];
  const xs = cells.map((c) => c[0]);
  const ys = cells.map((c) => c[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs) - Math.min(...xs) + 1, Math.max(...ys) - Math.min(...ys) + 1];
}

/** A standalone SVG of one tile (part or torso), ``size`` px a cell. */
export function tileSvg(id, size = 48, rot = 0, attrs = {}) {
  const isTorso = id && id.startsWith("torso");
  const [mx, my, w, h] = isTorso ? torsoBox(id) : [0, 0, 1, 1];
  const pad = size * 0.14;
  const W = w * size + 2 * pad;
  const H = h * size + 2 * pad;
  return svg(
    "svg",
    { class: "tile-svg", viewBox: `${-pad} ${-pad} ${W} ${H}`, width: W, height: H, role: "img", "aria-label": describeTile(id), ...attrs },
    isTorso ? torsoFace(id, -mx * size, -my * size, size) : partFace(id, 0, 0, size, rot),
  );
}

/** A whole robot (a sale's layout) as a small SVG. */
export function robotSvg(layout, size = 18) {
  const cells = [];
  for (const [id, x, y] of layout) {
    if (id.startsWith("torso")) {
      const ti = tileInfo(id);
      for (const [cx, cy] of ti ? ti.cells : [[0, 0]]) cells.push([x + cx, y + cy]);
    } else cells.push([x, y]);
  }
  const xs = cells.map((c) => c[0]);
  const ys = cells.map((c) => c[1]);
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  const W = (Math.max(...xs) - minX + 1) * size + size * 0.4;
  const H = (Math.max(...ys) - minY + 1) * size + size * 0.4;
  const g = svg("g", {});
  for (const [id, x, y, rot] of layout) {
    const ox = (x - minX) * size;
    const oy = (y - minY) * size;
    g.append(id.startsWith("torso") ? torsoFace(id, ox, oy, size) : partFace(id, ox, oy, size, rot));
  }
  return svg("svg", { class: "robot-svg", viewBox: `${-size * 0.2} ${-size * 0.2} ${W} ${H}`, width: W, height: H, role: "img", "aria-label": t("robots-on-the-line:ui.sold_robot_label") }, g);
}

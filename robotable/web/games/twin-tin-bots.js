// Twin Tin Bots table: the hex arena, programming boards and hands, programming by click and drag,
// program previews computed by the server, animated robot moves, pending decisions, and the log.
// It draws the view the server sent and offers exactly the legal actions it sent: no rules here.

import { el, svg, toast } from "/static/js/api.js";
import { has, seatName, t } from "/static/js/i18n.js";
import { arena, centre, COLOUR, CRYSTAL_POINTS, DARK as DARK_TAG, DIRS, defs, FACING_ANGLE, FACING_NAME, gem, ghost, key, pathLine, placeName, tileIcon } from "/static/games/ttb-draw.js";
import { readSpeed, speedControl } from "/static/js/anim-speed.js";

const ORDER_TILES = ["forward_1", "forward_2", "turn_left", "turn_right", "load", "unload", "zap", "double_modification"];
const tileName = (tile) => (has(`twin-tin-bots:names.tile.${tile}`) ? t(`twin-tin-bots:names.tile.${tile}`) : tile);
const tileHelp = (tile) => (has(`twin-tin-bots:names.tile_help.${tile}`) ? t(`twin-tin-bots:names.tile_help.${tile}`) : "");
const cap = (c) => t(`twin-tin-bots:names.Colour.${c}`);
const crystalName = (c) => t(`twin-tin-bots:names.crystal.${c}`);
const nameOf = (names, s) => seatName(names[s]) ?? t("twin-tin-bots:names.seat", { n: s + 1 });
const slotLabel = (s) => `${"AB"[Math.floor(s / 3)]}${(s % 3) + 1}`;
const robotName = (r) => {
  const [c, l] = String(r).split("-");
  return l ? t("twin-tin-bots:names.robot", { Colour: cap(c), letter: l }) : cap(c);
};
// The board's radius, for place names in the log (set by each drawing; 5 until the first).
const geo = { R: 5 };
const place = (h) => (h ? placeName(h, geo.R) : "");
const facing = (f) => (FACING_NAME[f] ? t(`twin-tin-bots:names.facing.${f}`) : f);
if (!document.querySelector("link[data-ttb-css]")) {
  document.head.append(el("link", { rel: "stylesheet", href: "/static/css/ttb.css", dataset: { ttbCss: "1" } }));
}

const DIR_NAME = { e: "east", ne: "north-east", nw: "north-west", w: "west", sw: "south-west", se: "south-east" };

// What the player is composing; reset whenever the table moves on.
const ui = { moves: -1, table: null, seat: undefined, sel: null, staged: null, stagedKey: null, preview: null, previewError: null, prevRobots: null, animating: 0, skip: false, speed: 1, focus: null, inBoard: false, explain: null, help: false, rerender: null, lastView: null };

// -- labels ---------------------------------------------------------------------------------------

function describeAction(a) {
  switch (a.type) {
    case "place":
      return t("twin-tin-bots:action.place", { tile: tileName(a.tile), slot: slotLabel(a.slot) });
    case "swap":
      return t("twin-tin-bots:action.swap", { a: slotLabel(a.slot_a), b: slotLabel(a.slot_b) });
    case "remove":
      return t("twin-tin-bots:action.remove", { slot: slotLabel(a.slot) });
    case "reset":
      return t("twin-tin-bots:action.reset", { robot: "AB"[a.robot] });
    case "pass":
      return t("twin-tin-bots:action.pass");
    case "double_modification":
      return t("twin-tin-bots:action.double_modification");
    case "zap_order":
      return t("twin-tin-bots:action.zap_order", { tile: tileName(a.order) });
    case "move_blob":
      return a.direction ? t("twin-tin-bots:action.move_blob", { direction: facing(a.direction.toUpperCase()) }) : t("twin-tin-bots:action.leave_blob");
    case "place_crystal":
      return t("twin-tin-bots:action.place_crystal", { place: place(a.hex) });
    default:
      return a.type;
  }
}

function describeEvent(e, names, seat) {
  const L = (k, p = {}) => t(`twin-tin-bots:log.${k}`, p);
  const C = e.colour ? cap(e.colour) : "";
  const robot = robotName(e.robot);
  const crystal = e.crystal ? crystalName(e.crystal) : "";
  switch (e.type) {
    case "turn_start":
      return L("turn_start", { round: e.round, Colour: C });
    case "place":
      return e.replaced ? L("place_replaced", { Colour: C, tile: tileName(e.tile), slot: slotLabel(e.slot), replaced: tileName(e.replaced) }) : L("place", { Colour: C, tile: tileName(e.tile), slot: slotLabel(e.slot) });
    case "swap":
      return L("swap", { Colour: C, a: slotLabel(e.slot_a), b: slotLabel(e.slot_b) });
    case "remove":
      return L("remove", { Colour: C, tile: tileName(e.tile), slot: slotLabel(e.slot) });
    case "reset":
      return L("reset", { Colour: C, robot: e.robot });
    case "pass":
      return L("pass", { Colour: C });
    case "double_modification":
      return L("double_modification", { Colour: C });
    case "run":
    case "blob_left":
      return null;
    case "order":
      return L("order", { robot, tile: tileName(e.tile) });
    case "move":
      if (e.how === "pushed") return L("pushed", { robot, place: place(e.hex) });
      return L("move", { robot, place: place(e.hex) });
    case "turn":
      return L("turn", { robot, facing: facing(e.facing) });
    case "blocked":
      return L("blocked", { robot });
    case "mud":
      return L("mud", { robot });
    case "crystal_pushed":
      return L("crystal_pushed", { crystal, place: place(e.hex) });
    case "blob_moved":
      return L("blob_moved", { place: place(e.hex) });
    case "load":
      return L("load", { robot, crystal });
    case "steal":
      return L("steal", { robot, crystal, victim: robotName(e.victim) });
    case "anti_theft":
      return L("anti_theft", { robot, victim: robotName(e.victim) });
    case "unload":
      if (e.onto) return L("unload_onto", { robot, crystal, onto: robotName(e.onto) });
      return e.hex ? L("unload_on", { robot, crystal, place: place(e.hex) }) : L("unload", { robot, crystal });
    case "ignored":
      return L("ignored", { robot, tile: tileName(e.order), why: t(`twin-tin-bots:names.why.${String(e.why).toLowerCase().replace(/\W+/g, "_")}`, { defaultValue: e.why }) });
    case "deliver":
      return L("deliver", { robot, crystal, points: CRYSTAL_POINTS[e.crystal], base: t(`twin-tin-bots:names.colour.${e.base}`) });
    case "draw_special":
      return L("draw_special", { Colour: C });
    case "special_drawn":
      return L("special_drawn", { tile: tileName(e.tile) });
    case "crystal_choice":
      return L("crystal_choice", { crystal });
    case "crystal_enters":
      return L("crystal_enters", { crystal, place: place(e.hex) });
    case "end_phase":
      return L("end_phase");
    case "zap":
      if (e.resisted) return L("zap_resisted", { robot });
      if (e.hit === "blob") return L("zap_blob", { robot });
      return e.hit ? L("zap_hit", { robot, hit: robotName(e.hit) }) : L("zap", { robot });
    case "zap_order":
      return L("zap_order", { robot, tile: tileName(e.order) });
    case "countdown":
      return e.last_turn && !e.counters_left ? L("countdown_last") : L("countdown", { count: e.counters_left });
    case "game_over":
      return L("game_over", { reason: endReason(e.result, names) });
    default:
      return e.type;
  }
}

// -- legal actions, indexed -----------------------------------------------------------------------

function index(legal) {
  const L = { place: new Map(), swap: [], remove: new Map(), reset: new Map(), pass: null, dm: null, zap: [], blob: [], crystal: [] };
  for (const a of legal) {
    if (a.type === "place") {
      if (!L.place.has(a.tile)) L.place.set(a.tile, new Map());
      L.place.get(a.tile).set(a.slot, a);
    } else if (a.type === "swap") L.swap.push(a);
    else if (a.type === "remove") L.remove.set(a.slot, a);
    else if (a.type === "reset") L.reset.set(a.robot, a);
    else if (a.type === "pass") L.pass = a;
    else if (a.type === "double_modification") L.dm = a;
    else if (a.type === "zap_order") L.zap.push(a);
    else if (a.type === "move_blob") L.blob.push(a);
    else if (a.type === "place_crystal") L.crystal.push(a);
  }
  L.swapOf = (x, y) => L.swap.find((a) => (a.slot_a === x && a.slot_b === y) || (a.slot_a === y && a.slot_b === x));
  L.changing = L.place.size + L.swap.length + L.remove.size + L.reset.size + (L.pass ? 1 : 0) + (L.dm ? 1 : 0) > 0;
  return L;
}

// -- staging and previews --------------------------------------------------------------------------

function stage(action, ctx) {
  ui.staged = action;
  ui.sel = null;
  ui.preview = null;
  ui.previewError = null;
  const k = JSON.stringify(action);
  ui.stagedKey = k;
  ui.focus = "commit";
  ctx.rerender();
  if (!ctx.preview) return;
  ctx.preview(action).then(
    (answer) => {
      if (ui.stagedKey !== k) return;
      ui.preview = answer.preview;
      ctx.rerender();
    },
    (err) => {
      if (ui.stagedKey !== k) return;
      ui.previewError = err.message;
      ctx.rerender();
    },
  );
}

function clearStage(ctx) {
  ui.staged = ui.stagedKey = ui.preview = ui.previewError = null;
  ui.sel = null;
  ui.focus = "first-legal";
  ctx.rerender();
}

function commit(ctx) {
  const a = ui.staged;
  if (!a) return;
  clearStage(ctx);
  ctx.act(a);
}

/** The program as it would stand after the staged change (for display only). */
function shownProgram(program, colourIsActive) {
  const p = program.slice();
  const a = ui.staged;
  if (!a || !colourIsActive) return { p, changed: new Set() };
  const changed = new Set();
  if (a.type === "place") {
    p[a.slot] = a.tile;
    changed.add(a.slot);
  } else if (a.type === "swap") {
    [p[a.slot_a], p[a.slot_b]] = [p[a.slot_b], p[a.slot_a]];
    changed.add(a.slot_a).add(a.slot_b);
  } else if (a.type === "remove") {
    p[a.slot] = null;
    changed.add(a.slot);
  } else if (a.type === "reset") {
    for (let i = a.robot * 3; i < a.robot * 3 + 3; i++) if (p[i]) (p[i] = null), changed.add(i);
  }
  return { p, changed };
}

// -- pieces of the page ---------------------------------------------------------------------------

function tileEl(tile, extra = {}, count = null, tag = "div") {
  const special = !ORDER_TILES.includes(tile);
  const name = tileName(tile);
  return el(
    tag,
    { class: `tile${special ? " special" : ""}`, "data-explain": `${name}: ${tileHelp(tile)}`, ...extra },
    el("span", { class: "glyph" }, tileIcon(tile)),
    el("span", { class: "tname" }, name),
    count !== null && count > 1 ? el("span", { class: "count", "aria-hidden": "true" }, `×${count}`) : null,
  );
}

function slotClick(slot, ctx, L, program) {
  if (ui.sel && ui.sel.tile) {
    const a = L.place.get(ui.sel.tile)?.get(slot);
    if (a) return stage(a, ctx);
  }
  if (ui.sel && ui.sel.slot !== undefined && ui.sel.slot !== slot) {
    const a = L.swapOf(ui.sel.slot, slot);
    if (a) return stage(a, ctx);
  }
  const canTouch = program[slot] !== null && (L.remove.has(slot) || L.swap.some((s) => s.slot_a === slot || s.slot_b === slot));
  const emptySwap = program[slot] === null && L.swap.some((s) => s.slot_a === slot || s.slot_b === slot);
  if (canTouch || emptySwap) {
    ui.sel = ui.sel && ui.sel.slot === slot ? null : { slot };
    ctx.rerender();
  }
}

function dropOn(slot, data, ctx, L) {
  if (data.startsWith("tile:")) {
    const a = L.place.get(data.slice(5))?.get(slot);
    if (a) stage(a, ctx);
    else toast(t("twin-tin-bots:table.no_fit"));
  } else if (data.startsWith("slot:")) {
    const from = Number(data.slice(5));
    if (from === slot) return;
    const a = L.swapOf(from, slot);
    if (a) stage(a, ctx);
    else toast(t("twin-tin-bots:table.same_robot"));
  }
}

function board(colour, view, ctx, L, mine) {
  const active = view.active === colour.colour && mine && L.changing;
  const { p, changed } = shownProgram(colour.program, view.active === colour.colour);
  const robots = view.options.simplified ? [0] : [0, 1];
  const rows = robots.map((r) => {
    const slots = [0, 1, 2].map((i) => {
      const s = r * 3 + i;
      const tile = p[s];
      const placeable = active && ui.sel && ui.sel.tile && L.place.get(ui.sel.tile)?.has(s);
      const swappable = active && ui.sel && ui.sel.slot !== undefined && ui.sel.slot !== s && L.swapOf(ui.sel.slot, s);
      const selected = ui.sel && ui.sel.slot === s && active;
      const touchable = active && (placeable || swappable || L.remove.has(s) || L.swap.some((x) => x.slot_a === s || x.slot_b === s));
      const cls = `slot${tile ? " full" : ""}${placeable || swappable ? " legal" : ""}${selected ? " selected" : ""}${changed.has(s) ? " staged" : ""}`;
      const what = tile ? tileName(tile) : t("twin-tin-bots:table.empty");
      const base = t("twin-tin-bots:table.slot_label", { Colour: cap(colour.colour), robot: "AB"[r], n: i + 1, what });
      const label = placeable ? t("twin-tin-bots:table.slot_put", { label: base, tile: tileName(ui.sel.tile) }) : swappable ? t("twin-tin-bots:table.slot_swap", { label: base, slot: slotLabel(ui.sel.slot) }) : base;
      const node = el(
        active ? "button" : "div",
        {
          type: active ? "button" : null,
          class: cls,
          dataset: { slot: s, colour: colour.colour, focus: `slot:${colour.colour}:${s}`, ...(placeable || swappable ? { legal: "slot" } : {}) },
          title: t("twin-tin-bots:table.slot_title", { robot: "AB"[r], n: i + 1 }),
          "aria-label": label,
          "aria-pressed": active ? (selected ? "true" : "false") : null,
          "aria-disabled": active && !touchable ? "true" : null,
          role: active ? null : "img",
          onclick: active ? () => slotClick(s, ctx, L, colour.program) : null,
          draggable: active && tile && !ui.staged ? "true" : null,
          "data-explain": tile ? `${tileName(tile)}: ${tileHelp(tile)}` : t("twin-tin-bots:table.slot_explain", { robot: "AB"[r], n: i + 1 }),
        },
        tile ? tileEl(tile, { "aria-hidden": "true" }, null, "span") : el("span", { class: "empty", "aria-hidden": "true" }, i + 1),
      );
      if (active) {
        node.addEventListener("dragstart", (ev) => ev.dataTransfer.setData("text/plain", `slot:${s}`));
        node.addEventListener("dragover", (ev) => ev.preventDefault());
        node.addEventListener("drop", (ev) => {
          ev.preventDefault();
          dropOn(s, ev.dataTransfer.getData("text/plain"), ctx, L);
        });
      }
      return node;
    });
    const reset = active && L.reset.get(r);
    return el(
      "div",
      { class: "prog-row" },
      el("span", { class: "robot-tag", style: `background:${DARK_TAG[colour.colour] || COLOUR[colour.colour]}`, "aria-hidden": "true" }, "AB"[r]),
      slots,
      reset ? el("button", { type: "button", class: "small ghost-btn", dataset: { reset: r, focus: `reset:${r}` }, onclick: () => stage(reset, ctx), title: t("twin-tin-bots:table.reset_title") }, t("twin-tin-bots:table.reset", { robot: "AB"[r] })) : null,
    );
  });
  return el("div", { class: "prog-board", role: "group", "aria-label": t("twin-tin-bots:table.programs", { Colour: cap(colour.colour) }) }, rows);
}

/** The hand as it would be after the staged change (for display only). */
function shownHand(colour, view) {
  const h = { ...colour.hand };
  const a = ui.staged;
  if (!a || view.active !== colour.colour) return h;
  const back = (t) => t && (h[t] = (h[t] || 0) + 1);
  if (a.type === "place") {
    h[a.tile] = (h[a.tile] || 0) - 1;
    back(colour.program[a.slot]);
  } else if (a.type === "remove") back(colour.program[a.slot]);
  else if (a.type === "reset") colour.program.slice(a.robot * 3, a.robot * 3 + 3).forEach(back);
  return h;
}

function handLabel(tile, n, used, placeable, selected) {
  let label = n > 1 ? t("twin-tin-bots:table.in_hand", { tile: tileName(tile), n }) : tileName(tile);
  if (used) label = t("twin-tin-bots:table.used", { label });
  if (placeable) label = selected ? t("twin-tin-bots:table.chosen", { label }) : t("twin-tin-bots:table.choose_it", { label });
  return label;
}

function hand(colour, view, ctx, L, mine, active) {
  const tiles = [];
  for (const [tile, n] of Object.entries(shownHand(colour, view))) {
    if (!n) continue;
    const placeable = active && L.place.has(tile);
    const selected = active && ui.sel && ui.sel.tile === tile; // only the hand being programmed shows the choice
    const used = tile === "double_modification" && colour.double_modification_used;
    const node = tileEl(
      tile,
      {
        type: "button",
        class: `tile${ORDER_TILES.includes(tile) ? "" : " special"}${placeable ? " legal" : ""}${selected ? " selected" : ""}${used ? " used" : ""}`,
        dataset: { tile: tile, focus: `tile:${colour.colour}:${tile}`, ...(placeable ? { legal: "tile" } : {}) },
        draggable: placeable && !ui.staged ? "true" : null,
        "aria-label": handLabel(tile, n, used, placeable, selected),
        "aria-pressed": placeable ? (selected ? "true" : "false") : null,
        onclick: placeable
          ? () => {
              ui.sel = selected ? null : { tile: tile };
              ui.focus = selected ? `tile:${colour.colour}:${tile}` : "first-slot";
              ctx.rerender();
            }
          : null,
      },
      n,
      "button",
    );
    if (placeable) node.addEventListener("dragstart", (ev) => ev.dataTransfer.setData("text/plain", `tile:${tile}`));
    tiles.push(node);
  }
  for (let i = 0; i < (colour.hidden_specials || 0); i++) {
    tiles.push(el("button", { type: "button", class: "tile hidden-special", title: t("twin-tin-bots:table.hidden"), "aria-label": t("twin-tin-bots:table.hidden"), "data-explain": t("twin-tin-bots:table.hidden_explain") }, el("span", { class: "glyph", "aria-hidden": "true" }, "?"), el("span", { class: "tname" }, t("twin-tin-bots:table.special"))));
  }
  const box = el("div", { class: `hand${active ? " mine" : ""}`, dataset: { hand: colour.colour }, role: "group", "aria-label": t("twin-tin-bots:table.hand_label", { Colour: cap(colour.colour) }) }, tiles.length ? tiles : el("span", { class: "muted small" }, t("twin-tin-bots:table.no_tiles")));
  if (active) {
    box.addEventListener("dragover", (ev) => ev.preventDefault());
    box.addEventListener("drop", (ev) => {
      ev.preventDefault();
      const data = ev.dataTransfer.getData("text/plain");
      if (!data.startsWith("slot:")) return;
      const a = L.remove.get(Number(data.slice(5)));
      if (a) stage(a, ctx);
    });
  }
  return box;
}

function colourPanel(colour, view, ctx, L) {
  const mine = (view.your_colours || []).includes(colour.colour);
  const active = view.active === colour.colour && mine && L.changing;
  const who = nameOf(ctx.names, colour.seat);
  const delivered = colour.delivered.map((c, i) => gemIcon(c, t("twin-tin-bots:table.delivered_gem", { crystal: crystalName(c) }), i));
  const carried = view.robots.filter((r) => r.colour === colour.colour && r.cargo);
  return el(
    "section",
    { class: `colour-panel${mine ? " mine" : " compact"}${view.active === colour.colour ? " active" : ""}`, dataset: { colourPanel: colour.colour }, style: `--c:${COLOUR[colour.colour]}` },
    el(
      "header",
      {},
      el("span", { class: "swatch", style: `background:${COLOUR[colour.colour]}` }),
      el("strong", {}, cap(colour.colour)),
      el("span", { class: "muted small" }, ` ${mine ? t("twin-tin-bots:names.you", { name: who }) : who}${view.options.team_play ? ` · ${t("twin-tin-bots:table.team", { n: colour.team + 1 })}` : ""}`),
      view.active === colour.colour ? el("span", { class: "tag turn" }, t("twin-tin-bots:table.playing")) : null,
      el("span", { class: "score-pill", title: t("twin-tin-bots:table.points_title") }, t("twin-tin-bots:table.points", { n: colour.points_in_base })),
    ),
    el(
      "div",
      { class: "delivered small" },
      delivered.length ? [`${t("twin-tin-bots:table.in_base")} `, ...delivered] : el("span", { class: "muted" }, t("twin-tin-bots:table.nothing_delivered")),
      carried.length ? el("span", { class: "muted" }, t("twin-tin-bots:table.carrying", { crystals: carried.map((r) => crystalName(r.cargo)).join(", ") })) : null,
      colour.double_modification_used ? el("span", { class: "muted" }, t("twin-tin-bots:table.dm_used")) : null,
    ),
    el("div", { class: "board-hand" }, board(colour, view, ctx, L, mine), el("div", { class: "hand-box" }, el("div", { class: "hand-title small muted" }, mine ? t("twin-tin-bots:table.your_hand") : t("twin-tin-bots:table.hand")), hand(colour, view, ctx, L, mine, active))),
  );
}

function gemIcon(kind, title, i = 0) {
  return svg("svg", { class: "gem-icon", viewBox: "-6 -6 12 12", width: 16, height: 16, role: "img", "aria-label": title, dataset: { i }, "data-explain": t("twin-tin-bots:table.gem_explain", { crystal: crystalName(kind), points: CRYSTAL_POINTS[kind] }) }, gem(kind, [0, 0.5], 1));
}

function trackBar(view) {
  const counters = [3, 2, 1].map((n) => el("span", { class: `counter${n <= view.countdown ? "" : " used"}`, title: n <= view.countdown ? t("twin-tin-bots:table.counter_held") : t("twin-tin-bots:table.counter_discarded") }, n));
  return el(
    "div",
    { class: "ttb-bar" },
    el("span", { class: "round" }, t("twin-tin-bots:table.round", { n: view.round })),
    el("span", {}, `${t("twin-tin-bots:table.turn")} `, el("span", { class: "swatch", style: `background:${COLOUR[view.active] || "#999"}` }), ` ${view.active ? cap(view.active) : "-"}`),
    el("span", { class: "track", title: t("twin-tin-bots:table.track_title"), "data-explain": t("twin-tin-bots:table.track_explain") }, `${t("twin-tin-bots:table.track")} `, view.track.length ? view.track.map((c, i) => gemIcon(c, t("twin-tin-bots:table.gem", { crystal: crystalName(c) }), i)) : el("span", { class: "muted" }, t("twin-tin-bots:table.track_empty"))),
    el("span", { class: "countdown", title: t("twin-tin-bots:table.countdown_title"), "data-explain": t("twin-tin-bots:table.countdown_explain") }, `${t("twin-tin-bots:table.countdown")} `, counters, view.end_phase ? el("span", { class: "tag warn" }, t("twin-tin-bots:table.end_phase")) : null),
    el("span", { class: "muted small", "data-explain": t("twin-tin-bots:table.victory_explain", { points: view.score_victory ?? "-" }) }, t("twin-tin-bots:table.status", { specials: view.special_stack_count, first: cap(view.first), victory: view.score_victory ?? t("twin-tin-bots:table.none") })),
    el("a", { class: "button small", href: "/static/games/twin-tin-bots-rules.html", target: "_blank", rel: "noopener", id: "rules-link" }, t("twin-tin-bots:table.rules")),
    el("button", { type: "button", class: "small", id: "ttb-help-button", "aria-expanded": ui.help ? "true" : "false", "aria-controls": "ttb-help", onclick: () => { ui.help = !ui.help; ui.focus = "help"; ui.rerender?.(); } }, ui.help ? t("twin-tin-bots:table.close_help") : t("twin-tin-bots:table.help")),
  );
}

// -- the programming panel (changes, preview, commit) and pending decisions -----------------------

function changePanel(view, ctx, L) {
  const parts = [];
  if (view.changes_left > 1 && !view.colours.find((c) => c.colour === view.active).first_turn_done) {
    parts.push(el("p", { class: "prompt mine" }, t("twin-tin-bots:table.first_turn")));
  } else if (view.changes_left > 1) {
    parts.push(el("p", { class: "prompt mine" }, t("twin-tin-bots:table.changes_left", { n: view.changes_left })));
  } else {
    parts.push(el("p", { class: "prompt mine" }, t("twin-tin-bots:table.change_prompt")));
  }
  const buttons = [];
  if (ui.sel && ui.sel.slot !== undefined && L.remove.has(ui.sel.slot)) buttons.push(el("button", { type: "button", dataset: { change: "remove" }, onclick: () => stage(L.remove.get(ui.sel.slot), ctx) }, t("twin-tin-bots:table.remove", { slot: slotLabel(ui.sel.slot) })));
  if (L.pass) buttons.push(el("button", { type: "button", dataset: { change: "pass" }, onclick: () => stage(L.pass, ctx) }, t("twin-tin-bots:table.pass")));
  if (L.dm) buttons.push(el("button", { type: "button", dataset: { change: "double_modification" }, onclick: () => stage(L.dm, ctx) }, t("twin-tin-bots:table.double_modification")));
  if (ui.sel) buttons.push(el("button", { type: "button", class: "secondary", onclick: () => { ui.sel = null; ctx.rerender(); } }, t("twin-tin-bots:table.clear")));
  if (buttons.length) parts.push(el("div", { class: "action-list" }, buttons));
  return parts;
}

/** What a preview says, line by line: where each robot ends, what it delivers, pushes or zaps. */
function previewLines(p, names, seat) {
  const lines = [];
  for (const [name, steps] of Object.entries(p.paths)) {
    const [hx, f] = steps[steps.length - 1];
    lines.push(t("twin-tin-bots:table.ends_on", { robot: robotName(name), place: place(hx), facing: facing(f) }));
  }
  for (const e of p.events) {
    if (["deliver", "load", "unload", "steal", "crystal_pushed", "zap", "blocked", "mud", "crystal_enters", "blob_moved"].includes(e.type)) lines.push(describeEvent(e, names, seat));
    if (e.type === "move" && e.how === "pushed") lines.push(describeEvent(e, names, seat));
    if (e.type === "turn_start") break;
  }
  if (!Object.keys(p.paths).length) lines.push(t("twin-tin-bots:table.no_move"));
  if (p.pending) lines.push(p.pending.type === "zap" ? t("twin-tin-bots:table.stops_zap", { robot: p.pending.robot }) : p.pending.type === "blob" ? t("twin-tin-bots:table.stops_blob") : t("twin-tin-bots:table.stops_crystal"));
  if (p.over) lines.push(t("twin-tin-bots:table.would_end"));
  return lines;
}

/** A preview drawn over the arena: each moving robot's path and its ghost where it ends, deliveries ringed. */
function previewOverlay(view, p) {
  const overlay = [];
  const robotColour = new Map(view.robots.map((r) => [r.robot, r.colour]));
  for (const [name, steps] of Object.entries(p.paths)) {
    const line = pathLine(steps, robotColour.get(name));
    if (line) overlay.push(line);
    const [hx, f] = steps[steps.length - 1];
    overlay.push(ghost(name, robotColour.get(name), hx, f));
  }
  for (const e of p.events) {
    if (e.type === "turn_start") break;
    if (e.type === "deliver") {
      const b = view.colours.find((c) => c.colour === e.base);
      const [x, y] = centre(b.base);
      overlay.push(svg("circle", { cx: x, cy: y, r: 11, class: "deliver-ring" }));
    }
    if (e.type === "crystal_pushed") overlay.push(gem(e.crystal, centre(e.hex), 0.9, { class: "crystal ghosted" }));
  }
  return overlay;
}

/** A preview on its own (the review's two moves, a hint): the arena with the preview drawn over it, and
 * its lines. Used outside the table's own drawing, so it keeps nothing between calls. */
function renderPreview(view, preview, names, seat) {
  return el(
    "div",
    { class: "ttb-preview-figure" },
    arena(view, { overlay: [defs(), ...previewOverlay(view, preview)], cls: "preview-arena" }),
    el("ul", { class: "preview-lines small" }, previewLines(preview, names, seat).map((line) => el("li", {}, line))),
  );
}

function previewPanel(view, ctx) {
  const a = ui.staged;
  const parts = [el("h3", {}, t("twin-tin-bots:table.preview", { action: describeAction(a) }))];
  if (ui.previewError) parts.push(el("p", { class: "error" }, ui.previewError));
  else if (!ui.preview) parts.push(el("p", { class: "muted" }, t("twin-tin-bots:table.computing")));
  else parts.push(el("ul", { class: "preview-lines", id: "preview-lines" }, previewLines(ui.preview, ctx.names, ctx.seat).map((t) => el("li", {}, t))));
  parts.push(
    el(
      "div",
      { class: "action-list" },
      el("button", { type: "button", class: "primary", id: "commit", dataset: { commit: "1" }, onclick: () => commit(ctx) }, view.changes_left > 1 ? t("twin-tin-bots:table.confirm") : t("twin-tin-bots:table.commit")),
      el("button", { type: "button", class: "secondary", id: "cancel-stage", onclick: () => clearStage(ctx) }, t("twin-tin-bots:table.cancel")),
    ),
  );
  return el("section", { class: "panel preview-panel", dataset: { preview: ui.preview ? "ready" : "waiting" } }, parts);
}

function pendingPanel(view, ctx, L) {
  const pend = view.pending;
  if (!pend) return null;
  const mineToAct = L.zap.length || L.blob.length || L.crystal.length;
  let text;
  const choices = [];
  if (pend.type === "zap") {
    text = mineToAct ? t("twin-tin-bots:table.zap_mine", { robot: robotName(pend.robot) }) : t("twin-tin-bots:table.zap_wait", { robot: robotName(pend.robot) });
    for (const a of L.zap) choices.push(el("button", { type: "button", class: "action", dataset: { legal: "zap", order: a.order }, "aria-label": tileName(a.order), onclick: () => stage(a, ctx) }, tileEl(a.order, { "aria-hidden": "true" }, null, "span")));
  } else if (pend.type === "blob") {
    text = mineToAct ? t("twin-tin-bots:table.blob_mine") : t("twin-tin-bots:table.blob_wait");
    for (const a of L.blob) choices.push(el("button", { type: "button", class: "action", dataset: { legal: "blob", direction: a.direction ?? "none" }, onclick: () => stage(a, ctx) }, describeAction(a)));
  } else {
    text = mineToAct ? t("twin-tin-bots:table.crystal_mine", { crystal: crystalName(pend.crystal) }) : t("twin-tin-bots:table.crystal_wait", { crystal: crystalName(pend.crystal) });
    for (const a of L.crystal) choices.push(el("button", { type: "button", class: "action", dataset: { legal: "crystal", hex: key(a.hex), focus: `crystal:${key(a.hex)}` }, onclick: () => stage(a, ctx) }, place(a.hex)));
  }
  return el("section", { class: `panel pending-panel${mineToAct ? " mine" : ""}` }, el("p", { class: "prompt" }, text), choices.length ? el("div", { class: "action-list zap-choices" }, choices) : null);
}

// -- the arena with overlays ----------------------------------------------------------------------

function arenaFor(view, ctx, L) {
  const overlay = [defs()];
  const clickable = new Map();
  if (ui.staged && ui.preview) overlay.push(...previewOverlay(view, ui.preview));
  if (view.pending && view.pending.type === "zap") {
    const hit = view.robots.find((r) => r.robot === view.pending.robot);
    if (hit) {
      const [x, y] = centre(hit.hex);
      overlay.push(svg("circle", { cx: x, cy: y, r: 9.5, class: "zap-ring", dataset: { zapRing: hit.robot } }));
    }
  }
  for (const a of L.crystal) clickable.set(key(a.hex), a);
  if (view.pending && view.pending.type === "blob") {
    const [bx, by] = centre(view.pending.hex);
    for (const a of L.blob) {
      if (!a.direction) continue;
      const d = DIRS[a.direction.toLowerCase()];
      const [tx, ty] = centre([view.pending.hex[0] + d[0], view.pending.hex[1] + d[1]]);
      const angle = (Math.atan2(ty - by, tx - bx) * 180) / Math.PI;
      const [mx, my] = [bx + (tx - bx) * 0.62, by + (ty - by) * 0.62];
      const arrow = svg(
        "g",
        { class: "blob-arrow", transform: `translate(${mx.toFixed(2)} ${my.toFixed(2)}) rotate(${angle.toFixed(1)})`, dataset: { legal: "blob-arrow", direction: a.direction } },
        svg("title", {}, describeAction(a)),
        svg("circle", { r: 3.6, class: "blob-arrow-hit" }),
        svg("path", { d: "M-2.6,-1.1 L0.4,-1.1 L0.4,-2.6 L3,0 L0.4,2.6 L0.4,1.1 L-2.6,1.1 Z" }),
      );
      arrow.addEventListener("click", () => stage(a, ctx));
      overlay.push(arrow);
    }
  }
  const onHex = L.crystal.length ? (hx) => {
    const a = clickable.get(key(hx));
    if (a) stage(a, ctx);
  } : null;
  return arena(view, { overlay, clickable, onHex, cls: `r${view.radius}` });
}

// -- animation of the last move's robot paths -----------------------------------------------------

function animate(root, view, events) {
  if (!ui.prevRobots) return;
  const paths = new Map();
  if (!events) {
    // a replay step: each robot that moved goes straight from where it stood to where it stands
    for (const r of view.robots) {
      const start = ui.prevRobots.get(r.robot);
      if (start && (key(start.hex) !== key(r.hex) || start.facing !== r.facing)) paths.set(r.robot, [start, { hex: r.hex, facing: r.facing }]);
    }
  }
  for (const e of events || []) {
    if (e.type !== "move" && e.type !== "turn") continue;
    if (!paths.has(e.robot)) {
      const start = ui.prevRobots.get(e.robot);
      if (!start) continue;
      paths.set(e.robot, [start]);
    }
    paths.get(e.robot).push({ hex: e.hex, facing: e.facing });
  }
  if (!paths.size) return;
  const STEP = 230 / (ui.speed || 1);
  ui.animating += 1;
  ui.skip = false;
  document.body.dataset.animating = "1";
  const wrap = root.querySelector(".arena-wrap");
  const skip = el("button", { type: "button", class: "small skip-anim-button", id: "skip-animation", onclick: () => (ui.skip = true) }, t("twin-tin-bots:table.skip"));
  if (wrap && !wrap.querySelector("#skip-animation")) wrap.append(skip);
  const jobs = [];
  let longest = 0;
  for (const [name, steps] of paths) {
    const node = root.querySelector(`.arena [data-robot="${name}"]`);
    if (!node) continue;
    const body = node.querySelector(".robot-body");
    jobs.push({ node, body, steps });
    longest = Math.max(longest, steps.length - 1);
  }
  const t0 = performance.now();
  const frame = (now) => {
    const t = Math.max(0, (now - t0) / STEP);
    for (const { node, body, steps } of jobs) {
      const i = Math.min(Math.floor(t), steps.length - 1);
      const j = Math.min(i + 1, steps.length - 1);
      const f = Math.min(Math.max(t - i, 0), 1);
      const [x0, y0] = centre(steps[i].hex);
      const [x1, y1] = centre(steps[j].hex);
      let a0 = FACING_ANGLE[steps[i].facing];
      let a1 = FACING_ANGLE[steps[j].facing];
      if (a1 - a0 > 180) a1 -= 360;
      if (a0 - a1 > 180) a1 += 360;
      node.setAttribute("transform", `translate(${(x0 + (x1 - x0) * f).toFixed(2)} ${(y0 + (y1 - y0) * f).toFixed(2)})`);
      body.setAttribute("transform", `rotate(${(a0 + (a1 - a0) * f).toFixed(1)})`);
    }
    if (t < longest && !ui.skip && jobs.some((j) => j.node.isConnected)) requestAnimationFrame(frame);
    else {
      skip.remove();
      for (const { node, body, steps } of jobs) {
        const last = steps[steps.length - 1];
        const [x, y] = centre(last.hex);
        node.setAttribute("transform", `translate(${x.toFixed(2)} ${y.toFixed(2)})`);
        body.setAttribute("transform", `rotate(${FACING_ANGLE[last.facing]})`);
      }
      ui.animating -= 1;
      if (!ui.animating) delete document.body.dataset.animating;
    }
  };
  requestAnimationFrame(frame);
}

// -- the table ------------------------------------------------------------------------------------

function render(root, ctx) {
  const view = ctx.view;
  const rerender = () => draw(root, { ...ctx, rerender, fresh: false });
  ui.rerender = rerender;
  const replayStep = ctx.replay && view !== ui.lastView;
  const fresh = replayStep || ctx.moves !== ui.moves || ctx.tableId !== ui.table || ctx.seat !== ui.seat;
  if (fresh) {
    ui.sel = ui.staged = ui.stagedKey = ui.preview = ui.previewError = null;
    ui.focus = "first-legal";
  }
  listen(root);
  draw(root, { ...ctx, rerender, fresh });
  if (fresh) {
    if (ctx.replay) {
      if (ui.lastView && ui.table === "replay") animate(root, view, null);
    } else if (ctx.tableId === ui.table && ctx.seat === ui.seat && ctx.moves === ui.moves + 1) animate(root, view, ctx.events);
    ui.moves = ctx.moves;
    ui.table = ctx.replay ? "replay" : ctx.tableId;
    ui.seat = ctx.seat;
    ui.lastView = view;
    ui.prevRobots = new Map(view.robots.map((r) => [r.robot, { hex: r.hex, facing: r.facing }]));
  }
}

/** Taps explain pieces; Escape skips an animation, then clears a selection or a staged change. */
function listen(root) {
  if (root.dataset.ttbListens) return;
  root.dataset.ttbListens = "1";
  root.addEventListener("click", (ev) => {
    const t = ev.target;
    if (!t.closest || !root.contains(t)) return;
    const piece = t.closest("[data-explain]");
    let text = piece ? piece.getAttribute("data-explain") : null;
    const hex = t.closest("[data-hex]");
    const robotNode = t.closest("[data-robot]");
    if (robotNode) text = `${robotNode.getAttribute("aria-label")}.`;
    else if (!text && t.closest(".arena") && hex) {
      const [q, r] = hex.dataset.hex.split(",").map(Number);
      const what = t.closest("[aria-label]:not(svg)");
      text = `${placeName([q, r], geo.R)}${what && what !== hex ? `: ${what.getAttribute("aria-label")}` : ""}.`;
    }
    if (!text) return;
    ui.explain = text;
    const line = root.querySelector("#ttb-explain");
    if (line) line.textContent = text;
  });
  root.addEventListener("keydown", (ev) => {
    if (ev.key !== "Escape") return;
    if (ui.animating) ui.skip = true;
    else if (ui.staged) document.getElementById("cancel-stage")?.click();
    else if (ui.sel) {
      ui.sel = null;
      ui.focus = "first-legal";
      ui.rerender?.();
    }
  });
}

function focusAfter(root, want, previous) {
  let node = null;
  if (want === "first-slot") node = root.querySelector(".colour-panel.mine [data-legal=slot]");
  else if (want === "commit") node = root.querySelector("#commit");
  else if (want === "help") node = root.querySelector("#ttb-help-button");
  else if (want && want !== "first-legal") node = root.querySelector(`[data-focus="${CSS.escape(want)}"]`);
  if (!node && previous) node = root.querySelector(`[data-focus="${CSS.escape(previous)}"]`);
  if (!node) node = root.querySelector("#commit, .pending-panel.mine [data-legal], .colour-panel.mine [data-legal=tile], [data-change=pass], .change-panel button");
  if (node) node.focus();
}

function helpPanel() {
  if (!ui.help) return null;
  return el(
    "section",
    { class: "panel help-panel", id: "ttb-help", "aria-label": t("twin-tin-bots:table.help") },
    el("h3", {}, t("twin-tin-bots:table.help_title")),
    el("p", {}, t("twin-tin-bots:table.help_1")),
    el("p", {}, t("twin-tin-bots:table.help_2")),
    el("p", {}, t("twin-tin-bots:table.help_3")),
    el("p", {}, t("twin-tin-bots:table.help_4")),
    el("p", {}, el("a", { href: "/static/games/twin-tin-bots-rules.html", target: "_blank", rel: "noopener" }, t("twin-tin-bots:table.rules_link"))),
  );
}

function draw(root, ctx) {
  const view = ctx.view;
  geo.R = view.radius;
  const active = document.activeElement;
  const inRoot = !!active && active !== root && root.contains(active);
  if (inRoot) ui.inBoard = true;
  else if (active && active !== document.body) ui.inBoard = false;
  const previous = inRoot ? active.dataset.focus : null;
  const L = index(ctx.replay ? [] : ctx.legal);
  const mine = new Set(view.your_colours || []);
  const colours = view.colours.slice().sort((a, b) => (mine.has(b.colour) ? 1 : 0) - (mine.has(a.colour) ? 1 : 0));
  const side = [];
  const help = helpPanel();
  if (help) side.push(help);
  if (!ctx.replay) {
    if (ui.staged) side.push(previewPanel(view, ctx));
    const pend = pendingPanel(view, ctx, L);
    if (pend) side.push(pend);
    if (!ui.staged && L.changing) side.push(el("section", { class: "panel change-panel" }, changePanel(view, ctx, L)));
  }
  side.push(...colours.map((c) => colourPanel(c, view, ctx, L)));
  const programming = !ctx.replay && (L.changing || ui.staged || L.zap.length || L.blob.length || L.crystal.length);
  root.replaceChildren(
    el(
      "div",
      { class: `ttb${programming ? " programming" : ""}`, dataset: { phase: view.phase, players: view.num_players } },
      trackBar(view),
      el("p", { class: "explain small", id: "ttb-explain", "aria-live": "polite" }, ui.explain ?? t("twin-tin-bots:table.hint")),
      el("div", { class: "ttb-main" }, el("div", { class: "arena-wrap" }, arenaFor(view, ctx, L), legend(view), speedChoice()), el("div", { class: "ttb-side" }, side)),
    ),
  );
  const want = ui.focus;
  ui.focus = null;
  if (!ctx.replay && ui.inBoard && (inRoot || !active || active === document.body)) focusAfter(root, want, previous);
}

/** The animation speed (live and in replays), kept in this browser (/static/js/anim-speed.js). */
function speedChoice() {
  ui.speed = readSpeed("ttb-speed");
  return speedControl({ id: "ttb-speed", key: "ttb-speed", label: t("twin-tin-bots:table.speed"), onChange: (speed) => (ui.speed = speed) });
}

function legend(view) {
  const items = [];
  if (view.teleporters.length) items.push(t("twin-tin-bots:table.legend_teleporters"));
  if (view.rocks.length) items.push(t("twin-tin-bots:table.legend_rocks"));
  if (view.blobs.length) items.push(t("twin-tin-bots:table.legend_blobs"));
  if (view.mud.length) items.push(t("twin-tin-bots:table.legend_mud"));
  items.push(t("twin-tin-bots:table.legend_crystals"));
  return el("p", { class: "legend muted small" }, items.join(" · "));
}

/** Points in Bases of a seat, from the result's details (crystals at face value). */
function basePoints(result, seat) {
  const colours = (result.details && result.details.colours) || {};
  let points = 0;
  for (const c of Object.values(colours)) if (c.seat === seat) for (const k of c.in_base) points += CRYSTAL_POINTS[k];
  return points;
}

/** Why the game ended, in words (seats by their names, never by number from 0). */
function endReason(result, names) {
  const reason = result.reason || "";
  if (reason.startsWith("score victory")) {
    const w = result.winners[0];
    return t("twin-tin-bots:reason.score_victory", { name: nameOf(names, w), points: basePoints(result, w) });
  }
  if (reason.startsWith("crystal attrition")) return t("twin-tin-bots:reason.attrition");
  if (reason.startsWith("round limit")) return t("twin-tin-bots:reason.round_limit");
  return `${reason}.`;
}

function renderResult(result, view, names) {
  const T = (k, p) => t(`twin-tin-bots:table.${k}`, p);
  const order = result.ranks.map((rank, seat) => ({ rank, seat })).sort((a, b) => a.rank - b.rank || a.seat - b.seat);
  const victory = (result.reason || "").startsWith("score victory");
  const rows = order.map(({ rank, seat }) => {
    const colours = view.colours.filter((c) => c.seat === seat).map((c) => cap(c.colour));
    return el(
      "tr",
      { class: result.winners.includes(seat) ? "winner" : "" },
      el("td", {}, rank === 1 ? "★ 1" : rank),
      el("td", {}, nameOf(names, seat)),
      el("td", {}, colours.join(" + ")),
      el("td", {}, basePoints(result, seat)),
      el("td", { class: "total" }, result.scores[seat]),
    );
  });
  const notes = [];
  if (victory) {
    const w = result.winners[0];
    const winner = nameOf(names, w);
    const above = order.filter(({ seat }) => seat !== w && result.scores[seat] >= result.scores[w]).map(({ seat }) => T("other_points", { name: nameOf(names, seat), points: result.scores[seat] }));
    notes.push(
      el(
        "p",
        { class: "victory-note", id: "score-victory-note" },
        T("victory_note", { winner, points: basePoints(result, w), target: view.score_victory ?? "-", players: view.num_players }),
        above.length ? T("victory_above", { winner, others: above.join(", ") }) : "",
      ),
    );
  } else {
    notes.push(el("p", {}, T("game_over", { reason: endReason(result, names) })));
  }
  return el(
    "div",
    {},
    el("div", { class: "table-scroll" }, el("table", { class: "result" }, el("thead", {}, el("tr", {}, ["place", "player", "colours", "in_bases", "points_col"].map((h) => el("th", { scope: "col" }, T(h))))), el("tbody", {}, rows))),
    notes,
    el("p", { class: "muted small" }, T("scoring")),
  );
}

// -- the rules page draws its tiles' icons as the table does (it loads this module) ------------------

for (const node of document.querySelectorAll("#rules .tile-row .tile[data-tile]")) node.querySelector(".glyph").replaceChildren(tileIcon(node.dataset.tile));

// -- the lobby's map editor for variant tokens ------------------------------------------------------

const TOOLS = [
  ["teleporters", () => t("twin-tin-bots:editor.teleporters")],
  ["rocks", () => t("twin-tin-bots:table.rock")],
  ["blobs", () => t("twin-tin-bots:table.blob")],
  ["mud", () => t("twin-tin-bots:table.mud")],
];

/** Place Teleporters, Rocks, Blobs and Mud on the map in the lobby; ``read()`` gives their options. */
function optionsEditor(box, { api, numPlayers, baseOptions }) {
  const chosen = { teleporters: [], rocks: [], blobs: [], mud: [] };
  let half = null; // the first hex of a Teleporter pair being placed
  let tool = "rocks";
  let view = null;
  let error = "";
  const mapBox = el("div", { class: "ttb-map" });
  const optionsNow = () => {
    const out = Object.fromEntries(Object.entries(baseOptions()).filter(([, v]) => typeof v === "boolean"));
    for (const [name] of TOOLS) if (chosen[name].length) out[name] = chosen[name];
    return out;
  };
  async function refresh() {
    try {
      const answer = await api(`/api/games/twin-tin-bots/setup?num_players=${numPlayers()}&options=${encodeURIComponent(JSON.stringify(optionsNow()))}`);
      view = answer.view;
      error = "";
    } catch (err) {
      error = err.message;
    }
    paint();
  }
  function click(hx) {
    const k = key(hx);
    for (const [name] of TOOLS) {
      const list = chosen[name];
      const at = name === "teleporters" ? list.findIndex((p) => p.some((h) => key(h) === k)) : list.findIndex((h) => key(h) === k);
      if (at >= 0) {
        list.splice(at, 1);
        return refresh();
      }
    }
    if (half && key(half) === k) {
      half = null;
      return paint();
    }
    if (tool === "teleporters") {
      if (!half) {
        half = hx;
        return paint();
      }
      chosen.teleporters.push([half, hx]);
      half = null;
    } else chosen[tool].push(hx);
    refresh();
  }
  function paint() {
    const tools = TOOLS.map(([name, label]) => el("button", { type: "button", class: `small${tool === name ? " primary" : ""}`, dataset: { tool: name }, onclick: () => { tool = name; half = null; paint(); } }, label()));
    const overlay = [];
    if (half) {
      const [x, y] = centre(half);
      overlay.push(svg("circle", { cx: x, cy: y, r: 7, class: "zap-ring" }));
    }
    const parts = [
      el("p", { class: "small" }, t("twin-tin-bots:editor.help")),
      el("div", { class: "action-list" }, tools),
    ];
    if (error) parts.push(el("p", { class: "error small" }, error));
    parts.push(view ? arena(view, { overlay, onHex: click, clickable: new Map(), cls: "editor" }) : el("p", { class: "muted" }, t("twin-tin-bots:editor.loading")));
    mapBox.replaceChildren(...parts);
  }
  box.append(mapBox);
  refresh();
  return { read: () => Object.fromEntries(TOOLS.filter(([n]) => chosen[n].length).map(([n]) => [n, chosen[n]])), refresh };
}

export default { render, describeEvent, describeAction, renderResult, optionsEditor, renderPreview };

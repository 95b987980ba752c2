// Twin Tin Bots table: the hex arena, programming boards and hands, programming by click and drag,
// program previews computed by the server, animated robot moves, pending decisions, and the log.
// It draws the view the server sent and offers exactly the legal actions it sent: no rules here.

import { el, svg, toast } from "/static/js/api.js";
import { arena, centre, COLOUR, CRYSTAL_POINTS, DARK as DARK_TAG, DIRS, defs, FACING_ANGLE, FACING_NAME, gem, ghost, key, pathLine, placeName, tileIcon } from "/static/games/ttb-draw.js";

export const TILES = {
  forward_1: ["↑", "Forward 1x"],
  forward_2: ["↑↑", "Forward 2x"],
  turn_left: ["↺", "Turn Left"],
  turn_right: ["↻", "Turn Right"],
  load: ["⤓", "Load"],
  unload: ["⤒", "Unload"],
  zap: ["ϟ", "Zap"],
  double_modification: ["×2", "Double Modif."],
  turn_2_left: ["↺↺", "Turn 2x Left"],
  turn_2_right: ["↻↻", "Turn 2x Right"],
  anti_zap: ["⛨", "Anti-Zap"],
  u_turn: ["⤾", "U-Turn"],
  forward_3: ["↑↑↑", "Forward 3x"],
  forward_then_load: ["↑⤓", "Fwd then Load"],
  forward_then_zap: ["↑ϟ", "Fwd then Zap"],
  dash: ["⇈", "Dash"],
  jump: ["⤴", "Jump"],
  back_up: ["↓", "Back Up"],
  double_zap: ["ϟϟ", "Double Zap"],
  anti_theft: ["AT", "Anti Theft"],
  long_range_zap: ["ϟ→", "Long Range Zap"],
};
// What each tile does (the explanation a tap on a tile shows; the rules page says the same).
const TILE_HELP = {
  forward_1: "Move one hex forward; a robot, crystal or Blob in front is pushed if the hex behind it is free.",
  forward_2: "Two Forward steps; the first step that fails ends the order.",
  turn_left: "Turn 60° counter-clockwise.",
  turn_right: "Turn 60° clockwise.",
  load: "Take the crystal in front (on the ground, or carried by another robot: stealing it).",
  unload: "Put the carried crystal in front: on a free hex, onto an empty-handed robot, or into a Base (it scores for the Base's owner).",
  zap: "A pulse up to two hexes ahead: a robot hit must at once do your choice of Forward 1x, Turn Left, Turn Right, Load or Unload; a zapped Blob may be moved one hex.",
  double_modification: "Once per game: two programming changes this turn. Never placed on the board.",
  turn_2_left: "Turn 120° counter-clockwise.",
  turn_2_right: "Turn 120° clockwise.",
  anti_zap: "No action. While in the program, opponents' Zaps do not affect this robot.",
  u_turn: "Turn 180°.",
  forward_3: "Three Forward steps; the first that fails ends the order.",
  forward_then_load: "A Forward step, then a Load (even if the step failed).",
  forward_then_zap: "A Forward step, then a Zap (even if the step failed).",
  dash: "A Forward step; while Dash is in the program, the robot's Forward steps push a whole line.",
  jump: "Land two hexes ahead, over anything; the landing hex must be free.",
  back_up: "A Forward step backwards; the facing does not change.",
  double_zap: "Two Zaps in a row.",
  anti_theft: "No action. While in the program, opponents cannot Load (steal) this robot's crystal.",
  long_range_zap: "A Zap with unlimited range: the first non-empty hex ahead.",
};
const ORDER_TILES = ["forward_1", "forward_2", "turn_left", "turn_right", "load", "unload", "zap", "double_modification"];
const tileName = (t) => (TILES[t] ? TILES[t][1] : t);
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const slotLabel = (s) => `${"AB"[Math.floor(s / 3)]}${(s % 3) + 1}`;
const robotName = (r) => {
  const [c, l] = String(r).split("-");
  return l ? `${cap(c)} ${l}` : cap(c);
};
// The board's radius, for place names in the log (set by each drawing; 5 until the first).
const geo = { R: 5 };
const place = (h) => (h ? placeName(h, geo.R) : "");
const facing = (f) => FACING_NAME[f] || f;
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
      return `place ${tileName(a.tile)} on ${slotLabel(a.slot)}`;
    case "swap":
      return `swap ${slotLabel(a.slot_a)} and ${slotLabel(a.slot_b)}`;
    case "remove":
      return `remove the tile on ${slotLabel(a.slot)}`;
    case "reset":
      return `reset robot ${"AB"[a.robot]}`;
    case "pass":
      return "pass (change nothing)";
    case "double_modification":
      return "use Double Modification (two changes)";
    case "zap_order":
      return `zapped robot: ${tileName(a.order)}`;
    case "move_blob":
      return a.direction ? `move the Blob ${DIR_NAME[a.direction.toLowerCase()]}` : "leave the Blob where it is";
    case "place_crystal":
      return `put the crystal on ${place(a.hex)}`;
    default:
      return a.type;
  }
}

function describeEvent(e, names, seat) {
  const hex = place;
  switch (e.type) {
    case "turn_start":
      return `Round ${e.round}: ${cap(e.colour)}'s turn.`;
    case "place":
      return `${cap(e.colour)} places ${tileName(e.tile)} on ${slotLabel(e.slot)}${e.replaced ? ` (${tileName(e.replaced)} back to hand)` : ""}.`;
    case "swap":
      return `${cap(e.colour)} swaps ${slotLabel(e.slot_a)} and ${slotLabel(e.slot_b)}.`;
    case "remove":
      return `${cap(e.colour)} removes ${tileName(e.tile)} from ${slotLabel(e.slot)}.`;
    case "reset":
      return `${cap(e.colour)} resets robot ${e.robot}.`;
    case "pass":
      return `${cap(e.colour)} passes.`;
    case "double_modification":
      return `${cap(e.colour)} uses Double Modification: two changes.`;
    case "run":
    case "blob_left":
      return null;
    case "order":
      return `${robotName(e.robot)}: ${tileName(e.tile)}`;
    case "move":
      return `${robotName(e.robot)} ${e.how === "pushed" ? "is pushed" : e.how === "forward" ? "moves" : e.how.replace("_", " ") + "s"} to ${hex(e.hex)}.`;
    case "turn":
      return `${robotName(e.robot)} turns to face ${facing(e.facing)}.`;
    case "blocked":
      return `${robotName(e.robot)} is blocked.`;
    case "mud":
      return `${robotName(e.robot)} skids in the Mud.`;
    case "crystal_pushed":
      return `A ${e.crystal} crystal is pushed to ${hex(e.hex)}.`;
    case "blob_moved":
      return `A Blob moves to ${hex(e.hex)}.`;
    case "load":
      return `${robotName(e.robot)} loads a ${e.crystal} crystal.`;
    case "steal":
      return `${robotName(e.robot)} steals a ${e.crystal} crystal from ${robotName(e.victim)}!`;
    case "anti_theft":
      return `${robotName(e.victim)}'s Anti Theft stops ${robotName(e.robot)}.`;
    case "unload":
      return `${robotName(e.robot)} unloads a ${e.crystal} crystal${e.onto ? ` onto ${robotName(e.onto)}` : e.hex ? ` on ${hex(e.hex)}` : ""}.`;
    case "ignored":
      return `${robotName(e.robot)}: ${tileName(e.order)} ignored (${e.why}).`;
    case "deliver":
      return `★ ${robotName(e.robot)} delivers a ${e.crystal} crystal (${CRYSTAL_POINTS[e.crystal]} pts) to the ${e.base} Base.`;
    case "draw_special":
      return `${cap(e.colour)} draws a Special Order.`;
    case "special_drawn":
      return `You drew ${tileName(e.tile)}.`;
    case "crystal_choice":
      return `A ${e.crystal} crystal enters: the active player chooses where.`;
    case "crystal_enters":
      return `A ${e.crystal} crystal enters play on ${hex(e.hex)}.`;
    case "end_phase":
      return "The last crystal is in play: the end phase starts.";
    case "zap":
      return `${robotName(e.robot)} zaps${e.resisted ? ": Anti-Zap resists" : e.hit === "blob" ? " a Blob" : e.hit ? ` and hits ${robotName(e.hit)}` : " (no effect)"}.`;
    case "zap_order":
      return `${robotName(e.robot)} is zapped into ${tileName(e.order)}.`;
    case "countdown":
      return `Countdown: ${e.counters_left} counter${e.counters_left === 1 ? "" : "s"} left${e.last_turn ? " (last game turn)" : ""}.`;
    case "game_over":
      return `Game over: ${endReason(e.result, names)}`;
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
  const name = TILES[tile] ? TILES[tile][1] : tile;
  return el(
    tag,
    { class: `tile${special ? " special" : ""}`, "data-explain": `${name}: ${TILE_HELP[tile] || ""}`, ...extra },
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
    else toast("That tile cannot go there now.");
  } else if (data.startsWith("slot:")) {
    const from = Number(data.slice(5));
    if (from === slot) return;
    const a = L.swapOf(from, slot);
    if (a) stage(a, ctx);
    else toast("Swaps are between slots of the same robot only.");
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
      const what = tile ? tileName(tile) : "empty";
      const label = `${cap(colour.colour)} robot ${"AB"[r]}, slot ${i + 1}: ${what}${placeable ? `. Put ${tileName(ui.sel.tile)} here` : swappable ? `. Swap with ${slotLabel(ui.sel.slot)}` : ""}`;
      const node = el(
        active ? "button" : "div",
        {
          type: active ? "button" : null,
          class: cls,
          dataset: { slot: s, colour: colour.colour, focus: `slot:${colour.colour}:${s}`, ...(placeable || swappable ? { legal: "slot" } : {}) },
          title: `robot ${"AB"[r]}, slot ${i + 1}`,
          "aria-label": label,
          "aria-pressed": active ? (selected ? "true" : "false") : null,
          "aria-disabled": active && !touchable ? "true" : null,
          role: active ? null : "img",
          onclick: active ? () => slotClick(s, ctx, L, colour.program) : null,
          draggable: active && tile && !ui.staged ? "true" : null,
          "data-explain": tile ? `${tileName(tile)}: ${TILE_HELP[tile] || ""}` : `Slot ${i + 1} of robot ${"AB"[r]}: robot ${"AB"[r]} runs its three slots left to right each turn.`,
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
      reset ? el("button", { type: "button", class: "small ghost-btn", dataset: { reset: r, focus: `reset:${r}` }, onclick: () => stage(reset, ctx), title: "every tile of this robot back to hand" }, `Reset ${"AB"[r]}`) : null,
    );
  });
  return el("div", { class: "prog-board", role: "group", "aria-label": `${cap(colour.colour)} programs` }, rows);
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

function hand(colour, view, ctx, L, mine, active) {
  const tiles = [];
  for (const [t, n] of Object.entries(shownHand(colour, view))) {
    if (!n) continue;
    const placeable = active && L.place.has(t);
    const selected = active && ui.sel && ui.sel.tile === t; // only the hand being programmed shows the choice
    const used = t === "double_modification" && colour.double_modification_used;
    const node = tileEl(
      t,
      {
        type: "button",
        class: `tile${ORDER_TILES.includes(t) ? "" : " special"}${placeable ? " legal" : ""}${selected ? " selected" : ""}${used ? " used" : ""}`,
        dataset: { tile: t, focus: `tile:${colour.colour}:${t}`, ...(placeable ? { legal: "tile" } : {}) },
        draggable: placeable && !ui.staged ? "true" : null,
        "aria-label": `${tileName(t)}${n > 1 ? ` (${n} in hand)` : ""}${used ? ", used" : ""}${placeable ? (selected ? ": chosen, now pick a slot" : ": choose it to place") : ""}`,
        "aria-pressed": placeable ? (selected ? "true" : "false") : null,
        onclick: placeable
          ? () => {
              ui.sel = selected ? null : { tile: t };
              ui.focus = selected ? `tile:${colour.colour}:${t}` : "first-slot";
              ctx.rerender();
            }
          : null,
      },
      n,
      "button",
    );
    if (placeable) node.addEventListener("dragstart", (ev) => ev.dataTransfer.setData("text/plain", `tile:${t}`));
    tiles.push(node);
  }
  for (let i = 0; i < (colour.hidden_specials || 0); i++) {
    tiles.push(el("button", { type: "button", class: "tile hidden-special", title: "a Special Order not yet revealed", "aria-label": "a Special Order not yet revealed", "data-explain": "A Special Order this player has not shown yet: it is revealed when first placed on a board." }, el("span", { class: "glyph", "aria-hidden": "true" }, "?"), el("span", { class: "tname" }, "Special")));
  }
  const box = el("div", { class: `hand${active ? " mine" : ""}`, dataset: { hand: colour.colour }, role: "group", "aria-label": `${cap(colour.colour)} hand` }, tiles.length ? tiles : el("span", { class: "muted small" }, "no tiles in hand"));
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
  const seatName = ctx.names[colour.seat] ?? `Seat ${colour.seat + 1}`;
  const delivered = colour.delivered.map((c, i) => gemIcon(c, `delivered ${c}`, i));
  const carried = view.robots.filter((r) => r.colour === colour.colour && r.cargo);
  return el(
    "section",
    { class: `colour-panel${mine ? " mine" : " compact"}${view.active === colour.colour ? " active" : ""}`, dataset: { colourPanel: colour.colour }, style: `--c:${COLOUR[colour.colour]}` },
    el(
      "header",
      {},
      el("span", { class: "swatch", style: `background:${COLOUR[colour.colour]}` }),
      el("strong", {}, cap(colour.colour)),
      el("span", { class: "muted small" }, ` ${seatName}${mine ? " (you)" : ""}${view.options.team_play ? ` · team ${colour.team + 1}` : ""}`),
      view.active === colour.colour ? el("span", { class: "tag turn" }, "playing") : null,
      el("span", { class: "score-pill", title: "points in the Base" }, `${colour.points_in_base} pts`),
    ),
    el(
      "div",
      { class: "delivered small" },
      delivered.length ? ["In Base: ", ...delivered] : el("span", { class: "muted" }, "nothing delivered yet"),
      carried.length ? el("span", { class: "muted" }, ` · carrying ${carried.map((r) => r.cargo).join(", ")}`) : null,
      colour.double_modification_used ? el("span", { class: "muted" }, " · Double Modification used") : null,
    ),
    el("div", { class: "board-hand" }, board(colour, view, ctx, L, mine), el("div", { class: "hand-box" }, el("div", { class: "hand-title small muted" }, mine ? "Your hand" : "Hand"), hand(colour, view, ctx, L, mine, active))),
  );
}

function gemIcon(kind, title, i = 0) {
  return svg("svg", { class: "gem-icon", viewBox: "-6 -6 12 12", width: 16, height: 16, role: "img", "aria-label": title, dataset: { i }, "data-explain": `A ${kind} crystal: ${CRYSTAL_POINTS[kind]} points in a Base, one less if still carried at the end.` }, gem(kind, [0, 0.5], 1));
}

function trackBar(view) {
  const counters = [3, 2, 1].map((n) => el("span", { class: `counter${n <= view.countdown ? "" : " used"}`, title: n <= view.countdown ? "still held by the first player" : "discarded" }, n));
  return el(
    "div",
    { class: "ttb-bar" },
    el("span", { class: "round" }, `Round ${view.round}`),
    el("span", {}, "Turn: ", el("span", { class: "swatch", style: `background:${COLOUR[view.active] || "#999"}` }), ` ${cap(view.active || "-")}`),
    el("span", { class: "track", title: "Crystal track: the next crystal to enter play is on the left", "data-explain": "The crystal track: each time a crystal is delivered, the next one (leftmost) enters play at the centre. When the last has entered, the end phase starts: three more rounds." }, "Track: ", view.track.length ? view.track.map((c, i) => gemIcon(c, `${c} crystal`, i)) : el("span", { class: "muted" }, "empty")),
    el("span", { class: "countdown", title: "Countdown counters held by the first player", "data-explain": "Countdown: in the end phase the first player discards a counter (3, 2, 1) at the start of each round; after the last round the game ends." }, "Countdown: ", counters, view.end_phase ? el("span", { class: "tag warn" }, "end phase") : null),
    el("span", { class: "muted small", "data-explain": `Score victory: the first player with ${view.score_victory ?? "-"} points in Bases wins at once, whatever the others have.` }, `Specials in stack: ${view.special_stack_count} · First player: ${cap(view.first)} · Score victory: ${view.score_victory ?? "none"}`),
    el("a", { class: "button small", href: "/static/games/twin-tin-bots-rules.html", target: "_blank", rel: "noopener", id: "rules-link" }, "Rules"),
    el("button", { type: "button", class: "small", id: "ttb-help-button", "aria-expanded": ui.help ? "true" : "false", "aria-controls": "ttb-help", onclick: () => { ui.help = !ui.help; ui.focus = "help"; ui.rerender?.(); } }, ui.help ? "Close help" : "Help"),
  );
}

// -- the programming panel (changes, preview, commit) and pending decisions -----------------------

function changePanel(view, ctx, L) {
  const parts = [];
  if (view.changes_left > 1 && !view.colours.find((c) => c.colour === view.active).first_turn_done) {
    parts.push(el("p", { class: "prompt mine" }, "First turn: place one Order on each robot (one placement now, the other next)."));
  } else if (view.changes_left > 1) {
    parts.push(el("p", { class: "prompt mine" }, `${view.changes_left} changes left this turn (Double Modification).`));
  } else {
    parts.push(el("p", { class: "prompt mine" }, "Change one program: pick a tile then a slot (or drag it), click a tile on the board to swap or remove it, or pass."));
  }
  const buttons = [];
  if (ui.sel && ui.sel.slot !== undefined && L.remove.has(ui.sel.slot)) buttons.push(el("button", { type: "button", dataset: { change: "remove" }, onclick: () => stage(L.remove.get(ui.sel.slot), ctx) }, `Remove ${slotLabel(ui.sel.slot)}`));
  if (L.pass) buttons.push(el("button", { type: "button", dataset: { change: "pass" }, onclick: () => stage(L.pass, ctx) }, "Pass"));
  if (L.dm) buttons.push(el("button", { type: "button", dataset: { change: "double_modification" }, onclick: () => stage(L.dm, ctx) }, "Double Modification"));
  if (ui.sel) buttons.push(el("button", { type: "button", class: "secondary", onclick: () => { ui.sel = null; ctx.rerender(); } }, "Clear selection"));
  if (buttons.length) parts.push(el("div", { class: "action-list" }, buttons));
  return parts;
}

function previewPanel(view, ctx) {
  const a = ui.staged;
  const parts = [el("h3", {}, `Preview: ${describeAction(a)}`)];
  if (ui.previewError) parts.push(el("p", { class: "error" }, ui.previewError));
  else if (!ui.preview) parts.push(el("p", { class: "muted" }, "Computing the preview…"));
  else {
    const p = ui.preview;
    const lines = [];
    for (const [name, steps] of Object.entries(p.paths)) {
      const [hx, f] = steps[steps.length - 1];
      lines.push(`${robotName(name)} ends on ${place(hx)} facing ${facing(f)}`);
    }
    for (const e of p.events) {
      if (["deliver", "load", "unload", "steal", "crystal_pushed", "zap", "blocked", "mud", "crystal_enters", "blob_moved"].includes(e.type)) lines.push(describeEvent(e, ctx.names, ctx.seat));
      if (e.type === "move" && e.how === "pushed") lines.push(describeEvent(e, ctx.names, ctx.seat));
      if (e.type === "turn_start") break;
    }
    if (!Object.keys(p.paths).length) lines.push("No robot moves or turns.");
    if (p.pending) lines.push(`The run stops at a decision: ${p.pending.type === "zap" ? `what ${p.pending.robot} does` : p.pending.type === "blob" ? "where the zapped Blob goes" : "where the new crystal enters"}.`);
    if (p.over) lines.push("The game would end.");
    parts.push(el("ul", { class: "preview-lines", id: "preview-lines" }, lines.map((t) => el("li", {}, t))));
  }
  parts.push(
    el(
      "div",
      { class: "action-list" },
      el("button", { type: "button", class: "primary", id: "commit", dataset: { commit: "1" }, onclick: () => commit(ctx) }, view.changes_left > 1 ? "Confirm this change" : "Commit and run"),
      el("button", { type: "button", class: "secondary", id: "cancel-stage", onclick: () => clearStage(ctx) }, "Cancel"),
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
    text = mineToAct ? `Zap! ${pend.robot} is hit: choose what it does.` : `${pend.robot} is zapped: waiting for the zapping player.`;
    for (const a of L.zap) choices.push(el("button", { type: "button", class: "action", dataset: { legal: "zap", order: a.order }, "aria-label": tileName(a.order), onclick: () => stage(a, ctx) }, tileEl(a.order, { "aria-hidden": "true" }, null, "span")));
  } else if (pend.type === "blob") {
    text = mineToAct ? "A Blob is zapped: click an arrow on the arena (or a button) to move it, or leave it." : "A Blob is zapped: waiting for the zapping player.";
    for (const a of L.blob) choices.push(el("button", { type: "button", class: "action", dataset: { legal: "blob", direction: a.direction ?? "none" }, onclick: () => stage(a, ctx) }, describeAction(a)));
  } else {
    text = mineToAct ? `A ${pend.crystal} crystal enters play: click one of the highlighted hexes closest to the centre (or a button).` : `A ${pend.crystal} crystal enters: waiting for the active player to place it.`;
    for (const a of L.crystal) choices.push(el("button", { type: "button", class: "action", dataset: { legal: "crystal", hex: key(a.hex), focus: `crystal:${key(a.hex)}` }, onclick: () => stage(a, ctx) }, place(a.hex)));
  }
  return el("section", { class: `panel pending-panel${mineToAct ? " mine" : ""}` }, el("p", { class: "prompt" }, text), choices.length ? el("div", { class: "action-list zap-choices" }, choices) : null);
}

// -- the arena with overlays ----------------------------------------------------------------------

function arenaFor(view, ctx, L) {
  const overlay = [defs()];
  const clickable = new Map();
  const robotColour = new Map(view.robots.map((r) => [r.robot, r.colour]));
  if (ui.staged && ui.preview) {
    for (const [name, steps] of Object.entries(ui.preview.paths)) {
      const line = pathLine(steps, robotColour.get(name));
      if (line) overlay.push(line);
      const [hx, f] = steps[steps.length - 1];
      overlay.push(ghost(name, robotColour.get(name), hx, f));
    }
    for (const e of ui.preview.events) {
      if (e.type === "turn_start") break;
      if (e.type === "deliver") {
        const b = view.colours.find((c) => c.colour === e.base);
        const [x, y] = centre(b.base);
        overlay.push(svg("circle", { cx: x, cy: y, r: 11, class: "deliver-ring" }));
      }
      if (e.type === "crystal_pushed") overlay.push(gem(e.crystal, centre(e.hex), 0.9, { class: "crystal ghosted" }));
    }
  }
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
  const skip = el("button", { type: "button", class: "small skip-anim-button", id: "skip-animation", onclick: () => (ui.skip = true) }, "Skip animation");
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
    { class: "panel help-panel", id: "ttb-help", "aria-label": "Help" },
    el("h3", {}, "How to play"),
    el("p", {}, "On your turn change one program (place a tile from your hand on a slot, swap two slots of one robot, remove a tile, reset a robot) or pass; then your robots run their programs: robot A's three slots left to right, then robot B's."),
    el("p", {}, "Harvest crystals (Load), bring them to your Base (Unload): blue 2, green 3, pink 4 points. A blue crystal delivered gives a Special Order. The first to the score victory wins at once; otherwise the game ends three rounds after the last crystal enters."),
    el("p", {}, "At this table: choose a tile, then a highlighted slot (or drag it); the preview shows what your robots will do; Commit and run confirms. Until the robots run, Undo takes a change back. Tap any tile, robot, crystal or hex to see what it is. Keys: Tab to a tile, Enter to choose it, Enter on a slot, Enter to commit; Escape cancels or skips the animation."),
    el("p", {}, "Places are named by row (A at the top, letters on the left of the arena) and position in the row from the left: D5."),
    el("p", {}, el("a", { href: "/static/games/twin-tin-bots-rules.html", target: "_blank", rel: "noopener" }, "The full rules page, with every tile")),
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
      el("p", { class: "explain small", id: "ttb-explain", "aria-live": "polite" }, ui.explain ?? "Tap any tile, robot, crystal or hex to see what it is."),
      el("div", { class: "ttb-main" }, el("div", { class: "arena-wrap" }, arenaFor(view, ctx, L), legend(view)), el("div", { class: "ttb-side" }, side)),
    ),
  );
  const want = ui.focus;
  ui.focus = null;
  if (!ctx.replay && ui.inBoard && (inRoot || !active || active === document.body)) focusAfter(root, want, previous);
}

function legend(view) {
  const items = [];
  if (view.teleporters.length) items.push("◎ Teleporters (same number = a pair)");
  if (view.rocks.length) items.push("Rocks block");
  if (view.blobs.length) items.push("Blobs are pushed like crystals");
  if (view.mud.length) items.push("Mud: the next Forward step is ignored");
  items.push("crystals: blue 2 · green 3 · pink 4");
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
    return `score victory: ${names[w] ?? `Seat ${w + 1}`} has ${basePoints(result, w)} points in Bases and wins at once.`;
  }
  if (reason.startsWith("crystal attrition")) return "crystal attrition: three rounds after the last crystal entered play, the most points wins.";
  if (reason.startsWith("round limit")) return "the round limit is reached: the most points wins.";
  return `${reason}.`;
}

function renderResult(result, view, names) {
  const order = result.ranks.map((rank, seat) => ({ rank, seat })).sort((a, b) => a.rank - b.rank || a.seat - b.seat);
  const victory = (result.reason || "").startsWith("score victory");
  const rows = order.map(({ rank, seat }) => {
    const colours = view.colours.filter((c) => c.seat === seat).map((c) => cap(c.colour));
    return el(
      "tr",
      { class: result.winners.includes(seat) ? "winner" : "" },
      el("td", {}, rank === 1 ? "★ 1" : rank),
      el("td", {}, names[seat] ?? `Seat ${seat + 1}`),
      el("td", {}, colours.join(" + ")),
      el("td", {}, basePoints(result, seat)),
      el("td", { class: "total" }, result.scores[seat]),
    );
  });
  const notes = [];
  if (victory) {
    const w = result.winners[0];
    const winner = names[w] ?? `Seat ${w + 1}`;
    const target = view.score_victory;
    const above = order.filter(({ seat }) => seat !== w && result.scores[seat] >= result.scores[w]).map(({ seat }) => `${names[seat] ?? `Seat ${seat + 1}`} (${result.scores[seat]} points)`);
    notes.push(
      el(
        "p",
        { class: "victory-note", id: "score-victory-note" },
        `Score victory: ${winner} reached ${basePoints(result, w)} points in Bases${target ? ` (${target} win at once with ${view.num_players} players)` : ""} and wins at once, whatever the others have.`,
        above.length ? ` That is why ${winner} ranks above ${above.join(" and ")}: points count only to rank the others.` : "",
      ),
    );
  } else {
    notes.push(el("p", {}, `Game over: ${endReason(result, names)}`));
  }
  return el(
    "div",
    {},
    el("div", { class: "table-scroll" }, el("table", { class: "result" }, el("thead", {}, el("tr", {}, ["Place", "Player", "Colours", "In Bases", "Points"].map((h) => el("th", { scope: "col" }, h)))), el("tbody", {}, rows))),
    notes,
    el("p", { class: "muted small" }, "Points: crystals in Bases at face value, carried ones one point less. Ties: most blue harvested (in Bases or carried), then most green harvested, then the highest value in Bases."),
  );
}

// -- the rules page draws its tiles' icons as the table does (it loads this module) ------------------

for (const node of document.querySelectorAll("#rules .tile-row .tile")) {
  const id = Object.keys(TILES).find((t) => TILES[t][1] === node.querySelector(".tname").textContent.trim());
  if (id) node.querySelector(".glyph").replaceChildren(tileIcon(id));
}

// -- the lobby's map editor for variant tokens ------------------------------------------------------

const TOOLS = [
  ["teleporters", "Teleporter pair"],
  ["rocks", "Rock"],
  ["blobs", "Blob"],
  ["mud", "Mud"],
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
    const tools = TOOLS.map(([name, label]) => el("button", { type: "button", class: `small${tool === name ? " primary" : ""}`, dataset: { tool: name }, onclick: () => { tool = name; half = null; paint(); } }, label));
    const overlay = [];
    if (half) {
      const [x, y] = centre(half);
      overlay.push(svg("circle", { cx: x, cy: y, r: 7, class: "zap-ring" }));
    }
    const parts = [
      el("p", { class: "small" }, "Choose on the map: pick a token, click hexes (click again to remove; a Teleporter takes two clicks). Tokens placed here replace the random number for their kind."),
      el("div", { class: "action-list" }, tools),
    ];
    if (error) parts.push(el("p", { class: "error small" }, error));
    parts.push(view ? arena(view, { overlay, onHex: click, clickable: new Map(), cls: "editor" }) : el("p", { class: "muted" }, "Loading the map…"));
    mapBox.replaceChildren(...parts);
  }
  box.append(mapBox);
  refresh();
  return { read: () => Object.fromEntries(TOOLS.filter(([n]) => chosen[n].length).map(([n]) => [n, chosen[n]])), refresh };
}

export default { render, describeEvent, describeAction, renderResult, optionsEditor };

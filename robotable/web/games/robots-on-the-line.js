// Robots on the Line table: both production lines (spaces, parts, chevrons, switches, magnet units),
// draw piles, junk piles, the torso stack, the buyers, the Bargain Hunter, every player's money, hand
// and sold robots, offers between players, and the robot workbench.
// It draws the view the server sent and offers exactly the legal actions it sent: no rules here. The
// workbench's measures, open ports, requirement checks and sale values come from the server
// (POST /api/tables/{id}/evaluate, or ctx.evaluate off a table: an exercise's own endpoint; computed by
// the engine's geometry module), never from this file.
// Every text comes from the message catalogue (namespace robots-on-the-line, i18n.js); parts, torsos,
// buyers and requirements are named by their catalogue names, places by what the table shows.
// Costly clicks (taking a part, a $1 flip or search, a sale, the torso stack, ending a turn without a
// part) wait for Confirm; every action has a keyboard path (buttons; on the workbench: Enter picks a
// part up, arrow keys move it, R turns it, Enter places it, Delete takes it back, Escape cancels).

import { api, el, svg, toast } from "/static/js/api.js";
import { lang, t } from "/static/js/i18n.js";
import { applySpeed, readSpeed, speedControl } from "/static/js/anim-speed.js";
import { ICONS, describeTile, iconBadge, iconName, kindName, kindOf, loadCatalogue, partFace, robotSvg, tileInfo, tileSvg, torsoFace } from "/static/games/rotl-draw.js";

if (!document.querySelector("link[data-rotl-css]")) {
  document.head.append(el("link", { rel: "stylesheet", href: "/static/css/rotl.css", dataset: { rotlCss: "1" } }));
}

// UI state kept between renders (the view itself is always the server's)
const ui = {
  selected: null, // a hand part clicked: its actions are shown
  switchPick: null, // [line, section] of the first switch clicked for a flip
  tradePile: null, // a junk pile whose top we want: then a hand part is clicked
  openPile: null, // a junk pile shown whole
  chooseTorso: false,
  offer: null, // the offer being written: {to, give:Set, take:Set, give_money, take_money}
  pending: null, // a costly action waiting for Confirm: {action, text}
  explain: false, // tap-to-explain mode: a tap on a piece explains it instead of acting
  explained: null, // the explanation shown
  helpOpen: false,
  benchOpen: false,
  bench: { placed: [], batteries: new Set(), magnets: new Set() },
  carry: null, // keyboard / tap placement: {id, rot, from: "tray" | "grid"}
  cursor: [0, -1], // the workbench cell the keyboard points at
  evaluation: null,
  evalSeq: 0,
  suggestions: null,
  focusAfter: null, // a selector to focus after the next render (keyboard flow)
  ctx: null,
  root: null,
  tableKey: null,
  choiceBasis: null, // what the half-made choice (switchPick, pending) was made on: see choiceBasis()
};

const GRID = { minX: -5, maxX: 5, minY: -4, maxY: 4 };
const CELL = 46;
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const money = (n) => t("robots-on-the-line:ui.money", { n });
const SIDE_KEYS = { N: "top", E: "right", S: "bottom", W: "left" };

function legalOf(ctx, type) {
  return ctx.legal.filter((a) => a.type === type);
}

function nameOf(ctx, seat) {
  return ctx.names[seat] || t("robots-on-the-line:ui.seat", { n: seat + 1 });
}

function buyerName(id) {
  return t(`robots-on-the-line:names.buyers.${id}`);
}

function reqName(id) {
  return t(`robots-on-the-line:names.requirements.${id}`);
}

function sectionName(section) {
  return section ? t("robots-on-the-line:ui.spaces_4_6") : t("robots-on-the-line:ui.spaces_1_3");
}

function partsList(ids) {
  return ids.map(describeTile).join(t("robots-on-the-line:ui.list_separator"));
}

// the animation speed: "rotl-speed" in this browser; "rotl-animations" = "off" (the older on/off switch) is Off
const SPEED_KEY = "rotl-speed";
const OFF_KEY = "rotl-animations";

function animationsOff() {
  return readSpeed(SPEED_KEY, OFF_KEY) === 0 || matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// -- render -----------------------------------------------------------------------------------------

async function render(root, ctx) {
  try {
    await loadCatalogue();
  } catch (err) {
    root.replaceChildren(el("p", { class: "error" }, t("robots-on-the-line:ui.catalogue_failed", { error: err.message })));
    return;
  }
  const key = `${ctx.tableId}:${ctx.seat}`;
  if (ui.tableKey !== key) {
    ui.tableKey = key;
    ui.bench = { placed: [], batteries: new Set(), magnets: new Set() };
    ui.evaluation = null;
    ui.suggestions = null;
    ui.benchOpen = false;
    ui.pending = null;
    ui.carry = null;
    }
  const moved = ui.ctx && ui.ctx.moves !== ctx.moves;
  ui.ctx = ctx;
  ui.root = root;
  // another player's move (bots offer and trade at any time) keeps a half-made choice (a switch picked, a
  // Confirm waiting) while what it was chosen on is unchanged; a change to it forgets the choice
  const basis = choiceBasis(ctx);
  if (moved && basis !== ui.choiceBasis) {
    ui.pending = null;
    ui.switchPick = null;
  }
  ui.choiceBasis = basis;
  if (ui.switchPick && !legalOf(ctx, "flip_switches").some((a) => same(a.on, ui.switchPick) || same(a.off, ui.switchPick))) ui.switchPick = null;
  // a listed action waits only while it is still legal (a sale's layout is free-form: the server checks it)
  if (ui.pending && ui.pending.action.type !== "sell_robot" && !ctx.legal.some((a) => same(a, ui.pending.action))) ui.pending = null;
  const v = ctx.view;
  const me = ctx.seat === null || ctx.seat === undefined ? null : v.players[ctx.seat];
  if (!ctx.legal.some((a) => a.type === "trade_junk" && a.pile === ui.tradePile)) ui.tradePile = null;
  if (me && ui.selected && !me.hand.includes(ui.selected)) ui.selected = null;
  pruneBench(me);

  const board = el(
    "div",
    { class: `rotl${ui.explain ? " explaining" : ""}`, lang },
    statusBar(ctx),
    incomingOffers(ctx),
    ui.explained ? explainBox() : null,
    ui.helpOpen ? helpPanel(ctx.view) : null,
    el("div", { class: "rotl-factory" }, linesPanel(ctx), el("div", { class: "rotl-side-stack" }, torsoPanel(ctx), hunterPanel(ctx))),
    me ? handPanel(ctx, me) : null,
    me && ui.benchOpen && !ctx.replay ? benchPanel(ctx, me) : null,
    buyersPanel(ctx),
    offersPanel(ctx),
    playersPanel(ctx),
  );
  const hadFocus = document.activeElement && root.contains(document.activeElement) ? focusKey(document.activeElement) : null;
  const shown = applySpeed(patchBoard(root, board), readSpeed(SPEED_KEY, OFF_KEY));
  restoreFocus(shown, hadFocus);
  animate(shown, ctx);
  if (me && ui.benchOpen && !ctx.replay) scheduleEvaluate();
}

/** What a half-made choice depends on: the view without the offers, who may answer them and the other players. */
function choiceBasis(ctx) {
  const { offers, to_act, players, ...rest } = ctx.view;
  const me = ctx.seat === null || ctx.seat === undefined ? null : { ...players[ctx.seat], score: undefined };
  return JSON.stringify([rest, me, ctx.seat]);
}

/** Show ``board`` in ``root``, keeping every panel that is drawn exactly as before (a button under the
 * pointer or with the focus is not replaced because a bot's offer changed another panel). Answers the
 * board shown. */
function patchBoard(root, board) {
  const old = root.firstElementChild;
  if (old && root.childElementCount === 1 && old.classList.contains("rotl") && old.childElementCount === board.childElementCount) {
    const kept = [...old.children];
    [...board.children].forEach((node, i) => {
      if (!kept[i].isEqualNode(node)) kept[i].replaceWith(node);
    });
    old.className = board.className;
    old.lang = board.lang;
    return old;
  }
  board.addEventListener("click", explainClick, true);
  board.addEventListener("keydown", boardKeys);
  root.replaceChildren(board);
  return board;
}

/** A selector that finds the same control after a redraw (keyboard users keep their place). */
function focusKey(node) {
  if (node.id) return `#${CSS.escape(node.id)}`;
  for (const name of ["take", "space", "switch", "hand", "tray", "showPile", "tradePile", "search", "choose", "sellPart", "sell", "buyer", "req", "extra", "offerTo", "accept", "decline", "explainTarget"]) {
    const value = node.dataset && node.dataset[name];
    if (value !== undefined && value !== "") {
      const attr = name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      const line = node.dataset.line !== undefined && name === "space" ? `[data-line="${node.dataset.line}"]` : "";
      return `[data-${attr}="${CSS.escape(value)}"]${line}`;
    }
  }
  return null;
}

function restoreFocus(board, hadFocus) {
  const wanted = ui.focusAfter || hadFocus;
  ui.focusAfter = null;
  if (!wanted || (wanted === hadFocus && board.contains(document.activeElement))) return; // (the focused control was kept)
  const node = board.querySelector(wanted);
  if (node) node.focus({ preventScroll: false });
}

function boardKeys(e) {
  if (e.key === "Escape") {
    if (ui.pending || ui.switchPick || ui.tradePile !== null || ui.carry || ui.explained || ui.openPile !== null) {
      ui.pending = null;
      ui.switchPick = null;
      ui.tradePile = null;
      ui.carry = null;
      ui.explained = null;
      ui.openPile = null;
      e.preventDefault();
      rerender();
    }
  }
}

// -- confirmation ----------------------------------------------------------------------------------------

/** Play ``action`` after a Confirm: the status bar shows what it does and waits. */
function ask(action, text) {
  ui.pending = { action, text };
  ui.focusAfter = "#confirm-move";
  rerender();
}

function pendingBox(ctx) {
  const p = ui.pending;
  return el(
    "div",
    { class: "rotl-confirm", id: "pending-move", role: "alertdialog", "aria-label": t("robots-on-the-line:ui.confirm_title") },
    el("span", { class: "confirm-text" }, p.text),
    el("button", { type: "button", class: "primary small", id: "confirm-move", onclick: () => { const a = p.action; ui.pending = null; ui.selected = null; ctx.act(a); } }, t("robots-on-the-line:ui.confirm")),
    el("button", { type: "button", class: "small", id: "cancel-move", onclick: () => { ui.pending = null; rerender(); } }, t("robots-on-the-line:ui.cancel")),
  );
}

// -- tap-to-explain -------------------------------------------------------------------------------------

function explainClick(e) {
  if (!ui.explain) return;
  const target = e.target.closest("[data-explain]");
  if (!target || target.closest(".rotl-status")) return;
  e.preventDefault();
  e.stopPropagation();
  ui.explained = target.dataset.explain;
  ui.focusAfter = "#explain-close";
  rerender();
}

function explainBox() {
  return el(
    "div",
    { class: "rotl-explain-box panel", role: "status", id: "explain-box" },
    el("p", {}, ui.explained),
    el("button", { type: "button", class: "small", id: "explain-close", onclick: () => { ui.explained = null; rerender(); } }, t("robots-on-the-line:ui.close")),
  );
}

/** What a part does, for tap-to-explain and the help panel. */
function partExplain(id) {
  const info = tileInfo(id);
  const kind = info ? info.kind : kindOf(id);
  return `${describeTile(id)}: ${t(`robots-on-the-line:help.kinds.${kind}`)}`;
}

function statusBar(ctx) {
  const v = ctx.view;
  const tt = v.this_turn;
  const mine = ctx.seat === v.turn && v.phase !== "over";
  const endTurn = legalOf(ctx, "end_turn")[0];
  const picks = [...legalOf(ctx, "pick_junk"), ...legalOf(ctx, "stop_picking")];
  let turnText;
  if (v.phase === "over") turnText = t("robots-on-the-line:ui.game_over_after", { count: v.turn_number });
  else if (mine) turnText = t("robots-on-the-line:ui.turn_yours", { n: v.turn_number });
  else turnText = t("robots-on-the-line:ui.turn_of", { n: v.turn_number, name: nameOf(ctx, v.turn) });
  const pageUndo = document.getElementById("undo-button");
  return el(
    "div",
    { class: `panel rotl-status${mine ? " mine" : ""}` },
    el("div", { class: "rotl-turn" }, el("strong", {}, turnText)),
    el(
      "div",
      { class: "rotl-this-turn small" },
      el("span", { class: `chip ${tt.part_taken ? "used" : ""}` }, tt.part_taken ? t("robots-on-the-line:ui.part_taken") : t("robots-on-the-line:ui.part_not_yet")),
      el("span", { class: `chip ${tt.junk_trades >= 2 ? "used" : ""}` }, t("robots-on-the-line:ui.junk_trades", { n: tt.junk_trades })),
      el("span", { class: `chip ${tt.torso_stack_used ? "used" : ""}` }, tt.torso_stack_used ? t("robots-on-the-line:ui.torso_stack_used") : t("robots-on-the-line:ui.torso_stack_free")),
      el("span", { class: "chip", dataset: { explain: t("robots-on-the-line:help.maintenance.about") } }, t("robots-on-the-line:ui.maintenance_left", { n: v.maintenance.stack })),
    ),
    el(
      "div",
      { class: "rotl-status-actions" },
      ...picks.map((a) =>
        el("button", { type: "button", class: "small", onclick: () => ctx.act(a), dataset: { pick: a.type } }, a.type === "pick_junk" ? t("robots-on-the-line:ui.pick_top", { n: a.pile + 1 }) : t("robots-on-the-line:ui.stop_picking")),
      ),
      el("button", { type: "button", id: "explain-toggle", class: ui.explain ? "active" : "", "aria-pressed": ui.explain ? "true" : "false", onclick: () => { ui.explain = !ui.explain; ui.explained = null; rerender(); } }, t("robots-on-the-line:ui.explain_mode")),
      el("button", { type: "button", id: "rotl-help-toggle", class: ui.helpOpen ? "active" : "", "aria-expanded": ui.helpOpen ? "true" : "false", onclick: () => { ui.helpOpen = !ui.helpOpen; rerender(); } }, t("robots-on-the-line:ui.help")),
      !ctx.replay && ctx.seat !== null && ctx.seat !== undefined && v.players[ctx.seat]
        ? el("button", { type: "button", id: "open-bench", class: ui.benchOpen ? "active" : "", "aria-expanded": ui.benchOpen ? "true" : "false", onclick: () => toggleBench() }, ui.benchOpen ? t("robots-on-the-line:ui.close_bench") : t("robots-on-the-line:ui.workbench"))
        : null,
      pageUndo && !ctx.replay && ctx.seat !== null && ctx.seat !== undefined
        ? el("button", { type: "button", id: "rotl-undo", disabled: pageUndo.disabled, onclick: () => pageUndo.click() }, t("robots-on-the-line:ui.undo"))
        : null,
      endTurn
        ? el(
            "button",
            {
              type: "button",
              id: "end-turn",
              class: "primary",
              onclick: () => (tt.part_taken ? ctx.act(endTurn) : ask(endTurn, t("robots-on-the-line:confirm.end_turn_no_part"))),
            },
            t("robots-on-the-line:ui.end_turn"),
          )
        : null,
    ),
    ui.pending ? pendingBox(ctx) : null,
  );
}

// -- the production lines ---------------------------------------------------------------------------------

function linesPanel(ctx) {
  const v = ctx.view;
  const takes = legalOf(ctx, "take_part");
  const rows = [0, 1].map((line) => lineRow(ctx, line, takes));
  let hint = "";
  if (ui.switchPick) hint = t("robots-on-the-line:ui.hint_switch_partner");
  else if (ui.tradePile !== null) hint = t("robots-on-the-line:ui.hint_trade", { n: ui.tradePile + 1 });
  return el(
    "div",
    { class: "panel rotl-lines" },
    el("div", { class: "panel-head" }, el("h3", {}, t("robots-on-the-line:ui.lines")), el("span", { class: "muted small" }, t("robots-on-the-line:ui.lines_direction"))),
    hint ? el("p", { class: "rotl-hint", role: "status" }, hint, " ", el("button", { type: "button", class: "small", id: "cancel-hint", onclick: () => { ui.switchPick = null; ui.tradePile = null; rerender(); } }, t("robots-on-the-line:ui.cancel"))) : null,
    ...rows,
    v.maintenance.discard.length ? el("p", { class: "muted small", id: "maintenance-drawn" }, t("robots-on-the-line:ui.maintenance_drawn", { tiles: v.maintenance.discard.map((k) => t(`robots-on-the-line:names.maintenance.${k}`)).join(t("robots-on-the-line:ui.list_separator")) })) : null,
  );
}

function lineRow(ctx, line, takes) {
  const v = ctx.view;
  const spaces = v.lines[line];
  const units = v.units[line];
  const unitOf = (space) => units.find((u) => u.includes(space)) || [space];
  const spaceEls = [];
  for (let s = 1; s <= 6; s++) {
    const part = spaces[s - 1];
    const unit = unitOf(s);
    const take = part ? takes.find((a) => a.line === line && unit.includes(a.space)) : null;
    const section = s <= 3 ? 0 : 1;
    const on = v.switches[line][section] === "on";
    const where = t("robots-on-the-line:ui.line_space", { line: line + 1, space: s });
    const unitParts = unit.map((sp) => spaces[sp - 1]).filter(Boolean);
    let label = part ? `${where}: ${describeTile(part)}` : t("robots-on-the-line:ui.space_empty", { where });
    if (part && unit.length > 1) label += ` ${t("robots-on-the-line:ui.magnet_unit", { parts: partsList(unitParts) })}`;
    if (part && !on) label += ` ${t("robots-on-the-line:ui.switch_off_here")}`;
    const attrs = {
      type: "button",
      class: `rotl-space sec-${on ? "on" : "off"}${take ? " legal" : ""}${unit.length > 1 && part ? " in-unit" : ""}${unit.length > 1 && unit[0] === s ? " unit-start" : ""}${unit.length > 1 && unit[unit.length - 1] === s ? " unit-end" : ""}${ui.pending && same(ui.pending.action, take) ? " chosen" : ""}`,
      dataset: { line, space: s, unit: `${line}:${unit.join(",")}`, ...(take ? { take: `${line}-${s}` } : {}), ...(part ? { explain: `${where}: ${partExplain(part)}${unit.length > 1 ? ` ${t("robots-on-the-line:help.magnet_unit")}` : ""}` } : {}) },
      "aria-label": label,
      title: label,
      "aria-disabled": take ? "false" : "true",
    };
    attrs.onclick = () => {
      if (!take) return;
      ask(take, t("robots-on-the-line:confirm.take", { parts: partsList(unitParts), where }));
    };
    if (take) {
      attrs.onmouseenter = (e) => hotUnit(e.currentTarget, true);
      attrs.onmouseleave = (e) => hotUnit(e.currentTarget, false);
      attrs.onfocus = (e) => hotUnit(e.currentTarget, true);
      attrs.onblur = (e) => hotUnit(e.currentTarget, false);
    }
    spaceEls.push(el("button", attrs, el("span", { class: "space-no", "aria-hidden": "true" }, s), part ? tileSvg(part, 44, 0, { "aria-hidden": "true" }) : el("span", { class: "empty" }, "")));
    if (s < 6) spaceEls.push(el("span", { class: `chevron${s === 3 ? " section-gap" : ""}`, "aria-hidden": "true" }, "›"));
  }
  const switches = [0, 1].map((section) => switchButton(ctx, line, section));
  return el(
    "div",
    { class: "rotl-line", dataset: { line }, role: "group", "aria-label": t("robots-on-the-line:ui.line_n", { n: line + 1 }) },
    el("div", { class: "rotl-draw", title: t("robots-on-the-line:ui.draw_pile", { n: line + 1, count: v.draw_piles[line] }), dataset: { explain: `${t("robots-on-the-line:ui.draw_pile", { n: line + 1, count: v.draw_piles[line] })} ${t("robots-on-the-line:help.draw_pile")}` } }, el("div", { class: "stack-card" }, v.draw_piles[line]), el("span", { class: "small muted" }, t("robots-on-the-line:ui.draw"))),
    el("div", { class: "rotl-track" }, el("div", { class: "rotl-switches" }, switches), el("div", { class: "rotl-spaces" }, spaceEls)),
    junkPile(ctx, line),
  );
}

function hotUnit(node, on) {
  const unit = node.dataset.unit;
  for (const n of node.parentElement.querySelectorAll(`[data-unit="${unit}"]`)) n.classList.toggle("hot", on);
}

function switchButton(ctx, line, section) {
  const v = ctx.view;
  const on = v.switches[line][section] === "on";
  const pair = [line, section];
  const single = legalOf(ctx, "flip_switch").find((a) => a.line === line && a.section === section);
  const flips = legalOf(ctx, "flip_switches");
  const involving = flips.filter((a) => same(a.on, pair) || same(a.off, pair));
  let partnerAction = null;
  if (ui.switchPick) {
    partnerAction = flips.find((a) => (same(a.on, ui.switchPick) && same(a.off, pair)) || (same(a.off, ui.switchPick) && same(a.on, pair)));
  }
  const picked = ui.switchPick && same(ui.switchPick, pair);
  const usable = single || (ui.switchPick ? partnerAction || picked : involving.length > 0);
  const name = t("robots-on-the-line:ui.switch_name", { line: line + 1, spaces: sectionName(section) });
  const state = on ? t("robots-on-the-line:ui.on") : t("robots-on-the-line:ui.off");
  const onclick = () => {
    if (single) return ask(single, t("robots-on-the-line:confirm.flip_single", { name, to: on ? t("robots-on-the-line:ui.off") : t("robots-on-the-line:ui.on") }));
    if (partnerAction) {
      const a = partnerAction;
      const onName = t("robots-on-the-line:ui.switch_name", { line: a.on[0] + 1, spaces: sectionName(a.on[1]) });
      const offName = t("robots-on-the-line:ui.switch_name", { line: a.off[0] + 1, spaces: sectionName(a.off[1]) });
      ui.switchPick = null;
      return ask(a, t("robots-on-the-line:confirm.flip_pair", { on: onName, off: offName }));
    }
    ui.switchPick = picked ? null : pair;
    ui.focusAfter = `[data-switch="${line}-${section}"]`;
    rerender();
  };
  return el(
    "button",
    {
      type: "button",
      class: `rotl-switch ${on ? "on" : "off"}${picked ? " picked" : ""}${partnerAction ? " partner" : ""}`,
      disabled: !usable,
      dataset: { switch: `${line}-${section}`, explain: `${name}: ${state}. ${t("robots-on-the-line:help.switches")}` },
      "aria-pressed": picked ? "true" : "false",
      "aria-label": `${name}: ${state}${usable ? ` ${t("robots-on-the-line:ui.switch_flip_cost")}` : ""}`,
      title: `${name}: ${state}${usable ? ` ${t("robots-on-the-line:ui.switch_flip_cost")}` : ""}`,
      onclick,
    },
    el("span", { class: "knob", "aria-hidden": "true" }),
    `${sectionName(section)} ${state}`,
  );
}

function junkPile(ctx, pile) {
  const v = ctx.view;
  const parts = v.junk_piles[pile];
  const top = parts[parts.length - 1];
  const searches = legalOf(ctx, "search_junk").filter((a) => a.pile === pile);
  const trades = legalOf(ctx, "trade_junk").filter((a) => a.pile === pile);
  const open = ui.openPile === pile;
  const pileName = t("robots-on-the-line:ui.junk_pile", { n: pile + 1 });
  return el(
    "div",
    { class: "rotl-junk", dataset: { pile } },
    el("div", { class: "small muted" }, t("robots-on-the-line:ui.junk_count", { n: pile + 1, count: parts.length })),
    top
      ? el("div", { class: "junk-top", title: t("robots-on-the-line:ui.junk_top", { pile: pileName, part: describeTile(top) }), dataset: { explain: `${t("robots-on-the-line:ui.junk_top", { pile: pileName, part: describeTile(top) })} ${t("robots-on-the-line:help.junk_pile")}` } }, tileSvg(top, 44))
      : el("div", { class: "junk-top empty" }, t("robots-on-the-line:ui.empty")),
    el(
      "div",
      { class: "junk-buttons" },
      parts.length ? el("button", { type: "button", class: "small", dataset: { showPile: pile }, "aria-expanded": open ? "true" : "false", "aria-label": `${open ? t("robots-on-the-line:ui.hide") : t("robots-on-the-line:ui.see_all")}: ${pileName}`, onclick: () => { ui.openPile = open ? null : pile; ui.focusAfter = open ? `[data-show-pile="${pile}"]` : `.junk-all[data-pile-list="${pile}"] button:not([disabled]), [data-show-pile="${pile}"]`; rerender(); } }, open ? t("robots-on-the-line:ui.hide") : t("robots-on-the-line:ui.see_all")) : null,
      trades.length ? el("button", { type: "button", class: `small${ui.tradePile === pile ? " active" : ""}`, dataset: { tradePile: pile }, "aria-pressed": ui.tradePile === pile ? "true" : "false", "aria-label": t("robots-on-the-line:ui.trade_for_top", { pile: pileName }), onclick: () => { ui.tradePile = ui.tradePile === pile ? null : pile; ui.focusAfter = ".hand-tile.legal"; rerender(); } }, t("robots-on-the-line:ui.trade")) : null,
    ),
    open
      ? el(
          "div",
          { class: "junk-all", dataset: { pileList: pile } },
          el("div", { class: "small muted" }, searches.length ? t("robots-on-the-line:ui.search_prompt") : t("robots-on-the-line:ui.whole_pile")),
          el(
            "div",
            { class: "junk-list" },
            parts.map((p, i) => {
              const search = searches.find((a) => a.part === p);
              const label = `${describeTile(p)}${search ? ` ${t("robots-on-the-line:ui.search_cost")}` : ""}`;
              return el(
                "button",
                { type: "button", class: `junk-item${search ? " legal" : ""}`, disabled: !search, dataset: { search: search ? p : "", part: p, explain: partExplain(p) }, "aria-label": `${i + 1}. ${label}`, title: label, onclick: () => { if (search) { ui.openPile = null; ask(search, t("robots-on-the-line:confirm.search", { part: describeTile(p), pile: pileName })); } } },
                tileSvg(p, 34, 0, { "aria-hidden": "true" }),
              );
            }),
          ),
        )
      : null,
  );
}

// -- torso stack, Bargain Hunter -------------------------------------------------------------------

function torsoPanel(ctx) {
  const ts = ctx.view.torso_stack;
  const take = legalOf(ctx, "take_torso")[0];
  const swap = legalOf(ctx, "swap_torso")[0];
  const choose = legalOf(ctx, "choose_torso");
  const me = ctx.seat === null || ctx.seat === undefined ? null : ctx.view.players[ctx.seat];
  return el(
    "div",
    { class: "panel rotl-torsos" },
    el("h3", {}, t("robots-on-the-line:ui.torso_stack")),
    el("div", { class: "torso-top", dataset: { explain: `${ts.top ? describeTile(ts.top) : t("robots-on-the-line:ui.empty")}. ${t("robots-on-the-line:help.kinds.torso")}` } }, ts.top ? tileSvg(ts.top, 46) : el("span", { class: "muted" }, t("robots-on-the-line:ui.empty")), el("span", { class: "small muted" }, t("robots-on-the-line:ui.torso_count", { count: ts.count }))),
    el(
      "div",
      { class: "row-buttons" },
      take ? el("button", { type: "button", class: "small", id: "take-torso", onclick: () => ask(take, t("robots-on-the-line:confirm.take_torso", { torso: describeTile(ts.top) })) }, t("robots-on-the-line:ui.take_top")) : null,
      swap ? el("button", { type: "button", class: "small", id: "swap-torso", onclick: () => ask(swap, t("robots-on-the-line:confirm.swap_torso", { mine: describeTile(me && me.torso), top: describeTile(ts.top) })) }, t("robots-on-the-line:ui.swap_torso")) : null,
      choose.length ? el("button", { type: "button", class: "small", id: "choose-torso", "aria-expanded": ui.chooseTorso ? "true" : "false", onclick: () => { ui.chooseTorso = !ui.chooseTorso; ui.focusAfter = ui.chooseTorso ? ".torso-choices button" : "#choose-torso"; rerender(); } }, ui.chooseTorso ? t("robots-on-the-line:ui.hide") : t("robots-on-the-line:ui.choose_torso")) : null,
    ),
    ui.chooseTorso && choose.length
      ? el("div", { class: "torso-choices" }, choose.map((a) => el("button", { type: "button", class: "junk-item legal", dataset: { choose: a.torso }, "aria-label": describeTile(a.torso), title: describeTile(a.torso), onclick: () => { ui.chooseTorso = false; ask(a, t("robots-on-the-line:confirm.choose_torso", { torso: describeTile(a.torso) })); } }, tileSvg(a.torso, 34, 0, { "aria-hidden": "true" }))))
      : el("div", { class: "small muted torso-set" }, t("robots-on-the-line:ui.in_stack", { count: ts.torsos.length })),
  );
}

function hunterPanel(ctx) {
  const h = ctx.view.bargain_hunter;
  return el(
    "div",
    { class: "panel rotl-hunter", dataset: { explain: t("robots-on-the-line:help.bargain_hunter") } },
    el("h3", {}, t("robots-on-the-line:names.bargain_hunter")),
    el("p", { class: "small" }, t("robots-on-the-line:ui.hunter_any", { price: money(h.any_part) }), " ", el("strong", { class: "featured" }, t("robots-on-the-line:ui.hunter_featured", { kind: kindName(h.featured), price: money(h.featured_part) }))),
    el("p", { class: "small muted" }, t("robots-on-the-line:ui.hunter_bought", { count: ctx.view.bargain_hunter_parts.length })),
  );
}

// -- the seat's hand ---------------------------------------------------------------------------------------

function handPanel(ctx, me) {
  const sells = legalOf(ctx, "sell_part");
  const trades = legalOf(ctx, "trade_junk");
  const selected = ui.selected;
  const v = ctx.view;
  const tiles = me.hand.map((p) => {
    const trade = ui.tradePile !== null ? trades.find((a) => a.pile === ui.tradePile && a.part === p) : null;
    const onBench = ui.bench.placed.some((b) => b.id === p) || ui.bench.batteries.has(p) || ui.bench.magnets.has(p);
    return el(
      "button",
      {
        type: "button",
        class: `hand-tile${selected === p ? " selected" : ""}${trade ? " legal" : ""}${onBench ? " on-bench" : ""}`,
        dataset: { hand: p, explain: partExplain(p) },
        "aria-pressed": selected === p ? "true" : "false",
        "aria-label": describeTile(p),
        title: describeTile(p),
        onclick: () => {
          if (trade) {
            ui.tradePile = null;
            return ask(trade, t("robots-on-the-line:confirm.trade", { part: describeTile(p), top: describeTile(v.junk_piles[trade.pile].at(-1)), pile: t("robots-on-the-line:ui.junk_pile", { n: trade.pile + 1 }) }));
          }
          ui.selected = selected === p ? null : p;
          ui.focusAfter = `[data-hand="${p}"]`;
          rerender();
        },
      },
      tileSvg(p, 44, 0, { "aria-hidden": "true" }),
    );
  });
  const actions = [];
  if (selected) {
    const sell = sells.find((a) => a.part === selected);
    const price = kindOf(selected) === v.bargain_hunter.featured ? v.bargain_hunter.featured_part : v.bargain_hunter.any_part;
    if (sell) actions.push(el("button", { type: "button", class: "small", dataset: { sellPart: selected }, onclick: () => ask(sell, t("robots-on-the-line:confirm.sell_part", { part: describeTile(selected), price: money(price) })) }, t("robots-on-the-line:ui.sell_to_hunter", { price: money(price) })));
    for (const tr of trades.filter((a) => a.part === selected)) {
      const pileName = t("robots-on-the-line:ui.junk_pile", { n: tr.pile + 1 });
      actions.push(el("button", { type: "button", class: "small", dataset: { giveFor: tr.pile }, onclick: () => ask(tr, t("robots-on-the-line:confirm.trade", { part: describeTile(selected), top: describeTile(v.junk_piles[tr.pile].at(-1)), pile: pileName })) }, t("robots-on-the-line:ui.give_for_top", { pile: pileName })));
    }
    if (!actions.length) actions.push(el("span", { class: "muted small" }, t("robots-on-the-line:ui.no_action_part")));
  }
  const magnets = me.magnets ? ` · ${t("robots-on-the-line:ui.magnets_penalty", { count: me.magnets })}` : "";
  return el(
    "div",
    { class: "panel rotl-hand" },
    el("div", { class: "panel-head" }, el("h3", {}, t("robots-on-the-line:ui.your_hand")), el("span", { class: "small" }, `${money(me.money)} · ${t("robots-on-the-line:ui.parts_count", { count: me.hand.length })}${magnets}`)),
    el("div", { class: "hand-row", role: "group", "aria-label": t("robots-on-the-line:ui.your_hand") }, me.torso ? el("div", { class: "hand-torso", title: describeTile(me.torso), dataset: { explain: `${describeTile(me.torso)}: ${t("robots-on-the-line:help.kinds.torso")}` } }, tileSvg(me.torso, 44), el("span", { class: "small muted" }, t("robots-on-the-line:ui.torso"))) : el("div", { class: "hand-torso muted small" }, t("robots-on-the-line:ui.no_torso")), tiles),
    selected ? el("div", { class: "hand-actions" }, el("span", { class: "small" }, describeTile(selected)), actions) : el("p", { class: "muted small" }, t("robots-on-the-line:ui.hand_hint")),
  );
}

// -- buyers ----------------------------------------------------------------------------------------------

function buyersPanel(ctx) {
  const sales = legalOf(ctx, "sell_robot");
  const ev = ui.benchOpen ? ui.evaluation : null;
  return el(
    "div",
    { class: "panel rotl-buyers" },
    el(
      "div",
      { class: "panel-head" },
      el("h3", {}, t("robots-on-the-line:ui.buyers")),
      el(
        "span",
        { class: "icon-legend small muted" },
        Object.keys(ICONS).map((name) => el("span", { class: "legend-item" }, svg("svg", { viewBox: "0 0 16 16", width: 14, height: 14, "aria-hidden": "true" }, iconBadge(name, 8, 8, 7)), ` ${iconName(name)}`)),
      ),
    ),
    el(
      "div",
      { class: "buyer-grid" },
      ctx.view.buyers.map((b) => {
        const be = ev && ev.buyers.find((x) => x.id === b.id);
        const helperSale = sales.find((a) => a.buyer === b.id);
        const name = buyerName(b.id);
        return el(
          "div",
          { class: `buyer${b.buying ? "" : " done"}`, dataset: { buyer: b.id, explain: `${name}: ${t("robots-on-the-line:help.buyer", { pay: money(b.pay), count: b.robots })}` } },
          el("div", { class: "buyer-head" }, el("strong", {}, name), el("span", { class: "pay" }, money(b.pay))),
          el("div", { class: "small muted" }, b.buying ? t("robots-on-the-line:ui.money_left", { money: money(b.money) }) : t("robots-on-the-line:ui.buyer_done", { money: money(b.money) })),
          el(
            "ul",
            { class: "reqs" },
            b.requirements.map((r) => {
              const re = be && be.requirements.find((x) => x.id === r.id);
              const mark = re ? (re.met ? "✓" : "✗") : "";
              const text = reqName(r.id);
              const state = re ? (re.met ? t("robots-on-the-line:ui.req_met") : t("robots-on-the-line:ui.req_unmet")) : "";
              return el(
                "li",
                { class: `req${re ? (re.met ? " met" : " unmet") : ""}`, dataset: { req: r.id, explain: `${text}: ${t(`robots-on-the-line:help.requirements.${r.kind}`)}${r.bonus ? ` ${t("robots-on-the-line:help.requirement_bonus", { bonus: money(r.bonus) })}` : ""}` }, title: text, "aria-label": `${text}${state ? `: ${state}` : ""}` },
                el("span", { class: "mark", "aria-hidden": "true" }, mark),
                text,
                r.bonus ? el("span", { class: "bonus5" }, `+${money(r.bonus)}`) : null,
              );
            }),
          ),
          b.bonus_tiles.length
            ? el(
                "div",
                { class: "bonus-tiles" },
                b.bonus_tiles.map((bt) => {
                  const te = be && be.bonus_tiles.find((x) => x.id === bt.id);
                  const label = t(`robots-on-the-line:names.bonus.${bt.id}`);
                  return el(
                    "span",
                    { class: `bonus-tile${te ? (te.paid ? " paid" : " unpaid") : ""}`, title: label, "aria-label": label, role: "img", dataset: { bonus: bt.id, explain: `${label}: ${t("robots-on-the-line:help.bonus_tile")}` } },
                    svg("svg", { viewBox: `0 0 ${bt.icons.length * 18} 18`, width: bt.icons.length * 18, height: 18, "aria-hidden": "true" }, bt.icons.map((i, k) => iconBadge(i, 9 + k * 18, 9, 8))),
                    money(bt.value),
                  );
                }),
              )
            : null,
          be && be.value ? el("div", { class: "buyer-value", dataset: { value: be.value.total } }, t("robots-on-the-line:ui.this_robot", { money: money(be.value.total) })) : null,
          helperSale && !ui.benchOpen ? el("button", { type: "button", class: "small", dataset: { helperSell: b.id }, onclick: () => { openBenchWith(helperSale); } }, t("robots-on-the-line:ui.robot_fits")) : null,
        );
      }),
    ),
  );
}

// -- offers ------------------------------------------------------------------------------------------------

function offerSide(ctx, parts, amount) {
  const out = [...parts.map((p) => tileSvg(p, 26, 0, { dataset: { explain: partExplain(p) } }))];
  if (amount) out.push(` ${money(amount)}`);
  if (!parts.length && !amount) out.push(t("robots-on-the-line:ui.nothing"));
  return out;
}

/** One open offer, with Accept and Decline where this seat may answer it. */
function offerItem(ctx, o) {
  const acc = legalOf(ctx, "accept").find((a) => a.offer === o.offer);
  const dec = legalOf(ctx, "decline").find((a) => a.offer === o.offer);
  const gives = [...o.give.map(describeTile), ...(o.give_money ? [money(o.give_money)] : [])].join(t("robots-on-the-line:ui.list_separator")) || t("robots-on-the-line:ui.nothing");
  const takes = [...o.take.map(describeTile), ...(o.take_money ? [money(o.take_money)] : [])].join(t("robots-on-the-line:ui.list_separator")) || t("robots-on-the-line:ui.nothing");
  const sentence = t("robots-on-the-line:ui.offer_line", { n: o.offer, from: nameOf(ctx, o.from), to: nameOf(ctx, o.to), gives, takes });
  return el(
    "div",
    { class: "offer", dataset: { offer: o.offer }, role: "group", "aria-label": sentence },
    el("span", {}, t("robots-on-the-line:ui.offer_head", { n: o.offer, from: nameOf(ctx, o.from), to: nameOf(ctx, o.to) })),
    offerSide(ctx, o.give, o.give_money),
    el("span", {}, ` ${t("robots-on-the-line:ui.offer_for")} `),
    offerSide(ctx, o.take, o.take_money),
    acc ? el("button", { type: "button", class: "small primary", dataset: { accept: o.offer }, onclick: () => ctx.act(acc) }, t("robots-on-the-line:ui.accept")) : null,
    dec ? el("button", { type: "button", class: "small", dataset: { decline: o.offer }, onclick: () => ctx.act(dec) }, t("robots-on-the-line:ui.decline")) : null,
  );
}

/** The offers waiting for this seat's answer: a toast in view wherever the page is scrolled, on every
 * screen size, so an offer made during anyone's turn is seen and answered at once. */
function incomingOffers(ctx) {
  const answerable = new Set(legalOf(ctx, "accept").map((a) => a.offer));
  const mine = ctx.view.offers.filter((o) => answerable.has(o.offer));
  // always there (hidden when empty): the board keeps its shape, so an offer arriving redraws only this
  // panel and a click on the hand or the lines in the same moment is not lost
  if (!mine.length) return el("div", { class: "rotl-incoming", hidden: true });
  return el("div", { class: "rotl-incoming", role: "region", "aria-label": t("robots-on-the-line:ui.offers_for_you") }, el("strong", {}, t("robots-on-the-line:ui.offers_for_you")), mine.map((o) => offerItem(ctx, o)));
}

function offersPanel(ctx) {
  const v = ctx.view;
  const answerable = new Set(legalOf(ctx, "accept").map((a) => a.offer));
  // "Players can trade at any time with another player": every seat may write an offer, turn or not, while
  // the game is on (the server checks it and names the limit it breaks, if any)
  const canOffer = ctx.seat !== null && ctx.seat !== undefined && v.phase !== "over";
  const items = v.offers.filter((o) => !answerable.has(o.offer)).map((o) => offerItem(ctx, o)); // offers to answer: at the top
  if (!items.length && !canOffer) return null;
  return el("div", { class: "panel rotl-offers" }, el("h3", {}, t("robots-on-the-line:ui.trades")), items.length ? items : answerable.size ? null : el("p", { class: "muted small" }, t("robots-on-the-line:ui.no_offer")), canOffer ? offerBuilder(ctx) : null);
}

function offerBuilder(ctx) {
  const v = ctx.view;
  const me = v.players[ctx.seat];
  const others = v.players.filter((p) => p.seat !== ctx.seat);
  if (!ui.offer) {
    return el("div", { class: "row-buttons" }, others.map((p) => el("button", { type: "button", class: "small", dataset: { offerTo: p.seat }, onclick: () => { ui.offer = { to: p.seat, give: new Set(), take: new Set(), give_money: 0, take_money: 0 }; ui.focusAfter = ".offer-builder .pick"; rerender(); } }, t("robots-on-the-line:ui.offer_to", { name: nameOf(ctx, p.seat) }))));
  }
  const o = ui.offer;
  const them = v.players[o.to];
  const pick = (set, id) => el("button", { type: "button", class: `pick${set.has(id) ? " selected" : ""}`, dataset: { pick: id }, "aria-pressed": set.has(id) ? "true" : "false", "aria-label": describeTile(id), title: describeTile(id), onclick: () => { set.has(id) ? set.delete(id) : set.add(id); rerender(); } }, tileSvg(id, 30, 0, { "aria-hidden": "true" }));
  const num = (field, label) => el("input", { type: "number", min: 0, max: 99, value: o[field], class: "money-input", "aria-label": label, oninput: (e) => { o[field] = Math.max(0, Number(e.target.value) || 0); } });
  return el(
    "div",
    { class: "offer-builder" },
    el("div", {}, el("strong", {}, t("robots-on-the-line:ui.your_offer_to", { name: nameOf(ctx, o.to) }))),
    el("div", { class: "offer-side" }, el("span", { class: "small" }, t("robots-on-the-line:ui.you_give")), [...me.hand, ...(me.torso ? [me.torso] : [])].map((p) => pick(o.give, p)), " + $", num("give_money", t("robots-on-the-line:ui.money_you_give"))),
    el(
      "div",
      { class: "offer-side" },
      el("span", { class: "small" }, t("robots-on-the-line:ui.you_ask")),
      [...them.hand, ...(them.torso ? [them.torso] : [])].map((p) => pick(o.take, p)),
      them.unknown_parts ? el("span", { class: "muted small" }, ` ${t("robots-on-the-line:ui.unseen", { count: them.unknown_parts })}`) : null,
      " + $",
      num("take_money", t("robots-on-the-line:ui.money_you_ask")),
    ),
    el(
      "div",
      { class: "row-buttons" },
      el("button", { type: "button", class: "small primary", id: "send-offer", onclick: () => { const a = { type: "offer", to: o.to, give: [...o.give], take: [...o.take], give_money: o.give_money, take_money: o.take_money }; ui.offer = null; ctx.act(a); } }, t("robots-on-the-line:ui.send_offer")),
      el("button", { type: "button", class: "small", onclick: () => { ui.offer = null; rerender(); } }, t("robots-on-the-line:ui.cancel")),
    ),
  );
}

// -- players -----------------------------------------------------------------------------------------------

function playersPanel(ctx) {
  const v = ctx.view;
  return el(
    "div",
    { class: "panel rotl-players" },
    el("h3", {}, t("robots-on-the-line:ui.players")),
    el(
      "div",
      { class: "player-grid" },
      v.players.map((p) => {
        const sales = v.sales.filter((s) => s.seat === p.seat);
        const mine = p.seat === ctx.seat;
        const magnets = p.magnets ? ` · ${t("robots-on-the-line:ui.magnets", { count: p.magnets })}` : "";
        return el(
          "div",
          { class: `player${p.seat === v.turn ? " on-turn" : ""}${mine ? " me" : ""}`, dataset: { player: p.seat } },
          el("div", { class: "player-head" }, el("strong", {}, nameOf(ctx, p.seat)), el("span", { class: "player-money", dataset: { money: p.money } }, money(p.money))),
          el("div", { class: "small muted" }, `${t("robots-on-the-line:ui.robots_sold", { n: p.robots_sold })} · ${t("robots-on-the-line:ui.score", { n: p.score })}${magnets}`),
          mine
            ? el("div", { class: "small muted" }, t("robots-on-the-line:ui.parts_in_hand", { count: p.hand.length }))
            : el(
                "div",
                { class: "known-hand" },
                p.torso ? tileSvg(p.torso, 26, 0, { dataset: { explain: partExplain(p.torso) } }) : null,
                p.hand.map((x) => tileSvg(x, 26, 0, { dataset: { explain: partExplain(x) } })),
                p.unknown_parts ? el("span", { class: "unknown", title: t("robots-on-the-line:ui.unseen_title") }, t("robots-on-the-line:ui.unseen", { count: p.unknown_parts })) : null,
                !p.hand.length && !p.unknown_parts ? el("span", { class: "muted small" }, t("robots-on-the-line:ui.no_parts")) : null,
              ),
          sales.length
            ? el(
                "div",
                { class: "sold-robots" },
                sales.map((s) => el("div", { class: "sold", title: t("robots-on-the-line:ui.sold_to", { buyer: buyerName(s.buyer), money: money(s.paid.total) }), dataset: { explain: t("robots-on-the-line:ui.sold_to", { buyer: buyerName(s.buyer), money: money(s.paid.total) }) } }, robotSvg(s.layout, 14), el("span", { class: "small" }, `${buyerName(s.buyer)} ${money(s.paid.total)}`))),
              )
            : null,
        );
      }),
    ),
  );
}

// -- the workbench -------------------------------------------------------------------------------------------

const PLACEABLE = new Set(["head", "base", "hand", "antenna", "extender", "elbow", "splitter"]);

function pruneBench(me) {
  if (!me) return;
  const hand = new Set(me.hand);
  ui.bench.placed = ui.bench.placed.filter((p) => hand.has(p.id));
  for (const set of [ui.bench.batteries, ui.bench.magnets]) for (const id of [...set]) if (!hand.has(id)) set.delete(id);
  if (ui.carry && !hand.has(ui.carry.id)) ui.carry = null;
}

function toggleBench() {
  ui.benchOpen = !ui.benchOpen;
  ui.suggestions = null;
  ui.carry = null;
  rerender();
}

function openBenchWith(sale) {
  loadSale(sale);
  ui.benchOpen = true;
  ui.focusAfter = "#workbench h3";
  rerender();
}

function loadSale(sale) {
  const torso = sale.layout.find((item) => item[0].startsWith("torso"));
  const [dx, dy] = torso ? [torso[1], torso[2]] : [0, 0];
  ui.bench.placed = sale.layout.filter((item) => !item[0].startsWith("torso")).map(([id, x, y, rot]) => ({ id, x: x - dx, y: y - dy, rot }));
  ui.bench.batteries = new Set(sale.batteries || []);
  ui.bench.magnets = new Set(sale.magnets || []);
}

function layoutOf(me) {
  const out = me.torso ? [[me.torso, 0, 0, 0]] : [];
  for (const p of ui.bench.placed) out.push([p.id, p.x, p.y, p.rot]);
  return out;
}

/** A workbench cell as a person sees it: "1 right, 2 above the torso". */
function placeName(x, y) {
  const bits = [];
  if (x > 0) bits.push(t("robots-on-the-line:bench.right", { count: x }));
  if (x < 0) bits.push(t("robots-on-the-line:bench.left", { count: -x }));
  if (y < 0) bits.push(t("robots-on-the-line:bench.up", { count: -y }));
  if (y > 0) bits.push(t("robots-on-the-line:bench.down", { count: y }));
  return bits.length ? t("robots-on-the-line:bench.from_torso", { offset: bits.join(t("robots-on-the-line:ui.list_separator")) }) : t("robots-on-the-line:bench.on_torso");
}

function placedAt(x, y) {
  return ui.bench.placed.find((p) => p.x === x && p.y === y) || null;
}

function cellFree(x, y, ignore = null) {
  return !ui.bench.placed.some((p) => p.id !== ignore && p.x === x && p.y === y) && !torsoCells().some((c) => c[0] === x && c[1] === y);
}

/** Pick a part up for the keyboard or a tap: the next Enter (or tap on a cell) places it. */
function carry(id, from) {
  const placed = ui.bench.placed.find((p) => p.id === id);
  ui.carry = { id, rot: placed ? placed.rot : 0, from };
  if (placed) ui.cursor = [placed.x, placed.y];
  else if (!cellFree(...ui.cursor)) ui.cursor = firstFreeCell();
  ui.focusAfter = "#bench-grid";
  rerender();
}

function firstFreeCell() {
  for (let r = 1; r < 5; r++) {
    for (const [x, y] of [[0, -r], [0, r], [-r, 0], [r, 0], [-r, -r], [r, -r], [-r, r], [r, r]]) if (cellFree(x, y)) return [x, y];
  }
  return [0, -1];
}

function dropAt(x, y) {
  const c = ui.carry;
  if (!c || !cellFree(x, y, c.id) || x < GRID.minX || x > GRID.maxX || y < GRID.minY || y > GRID.maxY) return false;
  const placed = ui.bench.placed.find((p) => p.id === c.id);
  if (placed) Object.assign(placed, { x, y, rot: c.rot });
  else ui.bench.placed.push({ id: c.id, x, y, rot: c.rot });
  ui.carry = null;
  return true;
}

function gridKeys(e) {
  const [x, y] = ui.cursor;
  const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (moves[e.key]) {
    const [dx, dy] = moves[e.key];
    ui.cursor = [Math.min(GRID.maxX, Math.max(GRID.minX, x + dx)), Math.min(GRID.maxY, Math.max(GRID.minY, y + dy))];
  } else if (e.key === "r" || e.key === "R") {
    if (ui.carry) ui.carry.rot = (ui.carry.rot + 1) % 4;
    else if (placedAt(x, y)) placedAt(x, y).rot = (placedAt(x, y).rot + 1) % 4;
    else return;
  } else if (e.key === "Enter" || e.key === " ") {
    if (ui.carry) {
      if (!dropAt(x, y)) {
        toast(t("robots-on-the-line:bench.cell_taken"), "info");
        e.preventDefault();
        return;
      }
    } else if (placedAt(x, y)) {
      e.preventDefault();
      e.stopPropagation();
      return carry(placedAt(x, y).id, "grid");
    } else return;
  } else if (e.key === "Delete" || e.key === "Backspace") {
    const p = placedAt(x, y);
    if (!p) return;
    ui.bench.placed = ui.bench.placed.filter((q) => q !== p);
  } else if (e.key === "Escape") {
    if (!ui.carry) return;
    ui.carry = null;
  } else return;
  e.preventDefault();
  e.stopPropagation();
  ui.focusAfter = "#bench-grid";
  rerender();
}

function cursorText() {
  const [x, y] = ui.cursor;
  const p = placedAt(x, y);
  const inTorso = torsoCells().some((c) => c[0] === x && c[1] === y);
  const here = p ? describeTile(p.id) : inTorso ? t("robots-on-the-line:ui.torso") : t("robots-on-the-line:ui.empty");
  const place = placeName(x, y);
  if (ui.carry) return t("robots-on-the-line:bench.carrying", { part: describeTile(ui.carry.id), place, here, turns: ui.carry.rot });
  return t("robots-on-the-line:bench.cursor", { place, here });
}

function benchPanel(ctx, me) {
  const cols = GRID.maxX - GRID.minX + 1;
  const rows = GRID.maxY - GRID.minY + 1;
  const W = cols * CELL;
  const H = rows * CELL;
  const grid = svg("svg", { id: "bench-grid", class: `bench-grid${ui.carry ? " carrying" : ""}`, viewBox: `0 0 ${W} ${H}`, width: W, height: H, tabindex: 0, role: "application", "aria-roledescription": t("robots-on-the-line:bench.grid_role"), "aria-label": t("robots-on-the-line:bench.grid_label"), "aria-describedby": "bench-cursor-text", dataset: { cursor: ui.cursor.join(","), carrying: ui.carry ? ui.carry.id : "" } });
  for (let y = GRID.minY; y <= GRID.maxY; y++) {
    for (let x = GRID.minX; x <= GRID.maxX; x++) {
      grid.append(svg("rect", { x: (x - GRID.minX) * CELL, y: (y - GRID.minY) * CELL, width: CELL, height: CELL, class: "bench-cell", dataset: { cell: `${x},${y}` } }));
    }
  }
  const ox = -GRID.minX * CELL;
  const oy = -GRID.minY * CELL;
  if (me.torso) {
    const face = torsoFace(me.torso, ox, oy, CELL);
    face.dataset.explain = partExplain(me.torso);
    grid.append(face);
  }
  for (const p of ui.bench.placed) {
    const g = partFace(p.id, ox + p.x * CELL, oy + p.y * CELL, CELL, p.rot);
    g.classList.add("placed");
    if (ui.carry && ui.carry.id === p.id) g.classList.add("lifted");
    g.dataset.placed = p.id;
    g.dataset.explain = `${placeName(p.x, p.y)}: ${partExplain(p.id)}`;
    g.setAttribute("role", "img");
    g.setAttribute("aria-label", `${describeTile(p.id)}, ${placeName(p.x, p.y)}`);
    g.addEventListener("pointerdown", (e) => startDrag(e, p.id, "grid"));
    grid.append(g);
  }
  const ev = ui.evaluation;
  if (ev) {
    for (const port of ev.open_ports) {
      const [cx, cy] = port.cell;
      const d = { N: [0.5, 0], S: [0.5, 1], W: [0, 0.5], E: [1, 0.5] }[port.side];
      grid.append(svg("circle", { class: "open-port", cx: ox + (cx + d[0]) * CELL, cy: oy + (cy + d[1]) * CELL, r: 7 }, svg("title", {}, t("robots-on-the-line:problems.open_port_dot", { part: describeTile(port.tile), side: t(`robots-on-the-line:bench.side_${SIDE_KEYS[port.side]}`), place: placeName(cx, cy) }))));
    }
  }
  const [cx, cy] = ui.cursor;
  if (ui.carry) {
    const ghost = partFace(ui.carry.id, ox + cx * CELL, oy + cy * CELL, CELL, ui.carry.rot);
    ghost.classList.add("ghost");
    grid.append(ghost);
  }
  grid.append(svg("rect", { class: `bench-cursor${cellFree(cx, cy, ui.carry && ui.carry.id) ? "" : " blocked"}`, x: ox + cx * CELL + 2, y: oy + cy * CELL + 2, width: CELL - 4, height: CELL - 4, rx: 6 }));
  grid.addEventListener("keydown", gridKeys);
  grid.addEventListener("click", (e) => {
    if (!ui.carry || e.target.closest(".placed:not(.lifted)")) return;
    const cell = cellAt(e.clientX, e.clientY);
    if (cell && dropAt(cell[0], cell[1])) {
      ui.cursor = cell;
      rerender();
    }
  });
  const tray = me.hand.filter((id) => PLACEABLE.has(tileInfo(id)?.kind) && !ui.bench.placed.some((p) => p.id === id));
  const extras = me.hand.filter((id) => ["battery", "magnet"].includes(tileInfo(id)?.kind));
  return el(
    "div",
    { class: "panel rotl-bench", id: "workbench" },
    el(
      "div",
      { class: "panel-head" },
      el("h3", { tabindex: -1 }, t("robots-on-the-line:ui.workbench")),
      el(
        "div",
        { class: "row-buttons" },
        el("button", { type: "button", class: "small", id: "suggest", onclick: suggest }, t("robots-on-the-line:bench.suggest")),
        el("button", { type: "button", class: "small", id: "clear-bench", onclick: () => { ui.bench.placed = []; ui.bench.batteries.clear(); ui.bench.magnets.clear(); ui.carry = null; rerender(); } }, t("robots-on-the-line:bench.clear")),
      ),
    ),
    me.torso ? null : el("p", { class: "rotl-hint" }, t("robots-on-the-line:bench.no_torso")),
    el("p", { class: "muted small" }, t("robots-on-the-line:bench.instructions")),
    ui.suggestions ? suggestionsBox(ctx) : null,
    el(
      "div",
      { class: "bench-body" },
      el("div", { class: "bench-grid-wrap" }, grid, el("p", { class: "small bench-cursor-text", id: "bench-cursor-text", "aria-live": "polite" }, cursorText())),
      el(
        "div",
        { class: "bench-side" },
        el(
          "div",
          { class: "bench-tray", id: "bench-tray", role: "group", "aria-label": t("robots-on-the-line:bench.tray") },
          tray.length
            ? tray.map((id) => {
                const n = el("button", { type: "button", class: `tray-item${ui.carry && ui.carry.id === id ? " selected" : ""}`, dataset: { tray: id, explain: partExplain(id) }, "aria-label": t("robots-on-the-line:bench.pick_up", { part: describeTile(id) }), title: describeTile(id), onclick: (e) => { if (e.detail === 0) carry(id, "tray"); } }, tileSvg(id, 40, 0, { "aria-hidden": "true" }));
                n.addEventListener("pointerdown", (e) => startDrag(e, id, "tray"));
                return n;
              })
            : el("span", { class: "muted small" }, t("robots-on-the-line:bench.all_placed")),
        ),
        extras.length
          ? el(
              "div",
              { class: "bench-extras" },
              el("span", { class: "small" }, t("robots-on-the-line:bench.hand_over")),
              extras.map((id) => {
                const set = tileInfo(id).kind === "battery" ? ui.bench.batteries : ui.bench.magnets;
                return el("button", { type: "button", class: `pick${set.has(id) ? " selected" : ""}`, dataset: { extra: id }, "aria-pressed": set.has(id) ? "true" : "false", "aria-label": describeTile(id), title: describeTile(id), onclick: () => { set.has(id) ? set.delete(id) : set.add(id); rerender(); } }, tileSvg(id, 30, 0, { "aria-hidden": "true" }));
              }),
            )
          : null,
        measuresBox(),
      ),
    ),
    benchSales(ctx, me),
  );
}

/** An engine problem (English, from the geometry module) in the page's language, naming parts and places. */
function problemText(p) {
  let m = p.match(/^open port: (\S+) at \((-?\d+), (-?\d+)\) side ([NESW]) faces (.*)$/);
  if (m) {
    const args = { part: describeTile(m[1]), side: t(`robots-on-the-line:bench.side_${SIDE_KEYS[m[4]]}`), place: placeName(Number(m[2]), Number(m[3])) };
    if (m[5] === "nothing") return t("robots-on-the-line:problems.open_nothing", args);
    if (m[5] === "its own tile") return t("robots-on-the-line:problems.open_own", args);
    const other = m[5].match(/^(\S+), which has no port there$/);
    return t("robots-on-the-line:problems.open_no_port", { ...args, other: other ? describeTile(other[1]) : "" });
  }
  m = p.match(/^(\S+) at \((-?\d+), (-?\d+)\) is not connected to the (\S+)$/);
  if (m) return t("robots-on-the-line:problems.not_connected", { part: describeTile(m[1]), place: placeName(Number(m[2]), Number(m[3])) });
  if (p.startsWith("no torso")) return t("robots-on-the-line:problems.no_torso");
  if (p === "no head") return t("robots-on-the-line:problems.no_head");
  if (p === "no base") return t("robots-on-the-line:problems.no_base");
  return t("robots-on-the-line:problems.other");
}

/** Why a finished robot meeting every requirement cannot be sold now (the engine's reason, named). */
function whyText(why) {
  if (/has no money left/.test(why)) return t("robots-on-the-line:why.no_money");
  if (/has no torso/.test(why)) return t("robots-on-the-line:why.no_torso");
  if (/magnet requirement/.test(why)) return t("robots-on-the-line:why.magnets");
  if (/not finished/.test(why)) return t("robots-on-the-line:why.not_finished");
  if (/requirements are not met/.test(why)) return t("robots-on-the-line:why.requirements");
  return t("robots-on-the-line:why.not_now");
}

function measuresBox() {
  const ev = ui.evaluation;
  if (!ev) return el("div", { class: "bench-measures muted small", id: "bench-measures", dataset: { state: "waiting" } }, t("robots-on-the-line:bench.measuring"));
  const m = ev.measures;
  const yes = t("robots-on-the-line:ui.yes");
  const no = t("robots-on-the-line:ui.no");
  const cells = m
    ? [
        ["eyes", m.eyes],
        ["tall", m.tall],
        ["wide", m.wide],
        ["hands", m.hands],
        ["long_arm", m.long_arm],
        ["pink_pairs", m.pink_pairs],
        ["symmetric", m.symmetric ? yes : no],
        ["wheels", m.wheels ? yes : no],
      ]
    : [];
  return el(
    "div",
    { class: "bench-measures", id: "bench-measures", dataset: { state: "ready", finished: ev.finished ? "1" : "0" } },
    m ? el("dl", { class: "measures" }, cells.flatMap(([k, val]) => [el("dt", {}, t(`robots-on-the-line:bench.measure_${k}`)), el("dd", { dataset: { measure: k } }, val)])) : null,
    m && m.icons.length ? el("div", { class: "icons-row" }, el("span", { class: "small" }, `${t("robots-on-the-line:bench.icons")} `), svg("svg", { viewBox: `0 0 ${m.icons.length * 22} 22`, width: m.icons.length * 22, height: 22, role: "img", "aria-label": m.icons.map(iconName).join(t("robots-on-the-line:ui.list_separator")) }, m.icons.map((i, k) => iconBadge(i, 11 + k * 22, 11, 9)))) : null,
    ev.finished ? el("p", { class: "finished" }, t("robots-on-the-line:bench.finished")) : el("ul", { class: "problems small" }, ev.problems.slice(0, 5).map((p) => el("li", {}, problemText(p)))),
  );
}

function benchSales(ctx, me) {
  const ev = ui.evaluation;
  if (!ev) return null;
  return el(
    "div",
    { class: "bench-sales" },
    ev.buyers.map((b) => {
      const sale = { type: "sell_robot", buyer: b.id, layout: layoutOf(me), batteries: [...ui.bench.batteries], magnets: [...ui.bench.magnets] };
      const name = buyerName(b.id);
      return el(
        "div",
        { class: `bench-buyer${b.sellable ? " sellable" : ""}`, dataset: { benchBuyer: b.id } },
        el("strong", {}, name),
        el("ul", { class: "reqs" }, b.requirements.map((r) => el("li", { class: `req ${r.met ? "met" : "unmet"}`, dataset: { req: r.id }, "aria-label": `${reqName(r.id)}: ${r.met ? t("robots-on-the-line:ui.req_met") : t("robots-on-the-line:ui.req_unmet")}` }, el("span", { class: "mark", "aria-hidden": "true" }, r.met ? "✓" : "✗"), reqName(r.id)))),
        b.value ? el("div", { class: "small value", dataset: { value: b.value.total } }, t("robots-on-the-line:bench.value", { total: money(b.value.total), buyer: money(b.value.buyer), reqs: money(b.value.requirements), bonus: money(b.value.bonus_tiles), pink: money(b.value.pink_pairs) })) : null,
        b.sellable
          ? el("button", { type: "button", class: "small primary", dataset: { sell: b.id }, onclick: () => ask(sale, t("robots-on-the-line:confirm.sell_robot", { buyer: name, money: money(b.value.total) })) }, t("robots-on-the-line:bench.sell_for", { money: money(b.value.total) }))
          : ev.finished && b.requirements.every((r) => r.met)
            ? el("div", { class: "why small muted" }, whyText(b.why))
            : null,
      );
    }),
  );
}

function suggestionsBox(ctx) {
  const list = ui.suggestions;
  return el(
    "div",
    { class: "suggestions", id: "suggestions" },
    list.length
      ? list.map((s) => el("button", { type: "button", class: "small", dataset: { suggestion: s.buyer }, onclick: () => { loadSale(s); ui.suggestions = null; ui.focusAfter = "#bench-grid"; rerender(); } }, t("robots-on-the-line:bench.load_suggestion", { buyer: buyerName(s.buyer) })))
      : el("span", { class: "muted small" }, t("robots-on-the-line:bench.no_suggestion")),
  );
}

async function suggest() {
  const me = ui.ctx.view.players[ui.ctx.seat];
  try {
    const res = await evaluateLayout(layoutOf(me), true);
    ui.suggestions = res.evaluation.suggestions || [];
  } catch (err) {
    toast(err.message);
  }
  ui.focusAfter = "#suggestions button, #suggest";
  rerender();
}

function evaluateLayout(layout, wantSuggest = false) {
  const ctx = ui.ctx;
  const query = { layout, batteries: [...ui.bench.batteries], magnets: [...ui.bench.magnets], suggest: wantSuggest };
  // an exercise or a reviewed position (no live table) asks its own endpoint: ctx.evaluate(query)
  if (ctx.evaluate) return ctx.evaluate(query);
  return api(`/api/tables/${ctx.tableId}/evaluate`, { method: "POST", body: { seat: ctx.seat, query } });
}

let evalTimer = null;
let lastAsked = null;
function scheduleEvaluate() {
  const me = ui.ctx.view.players[ui.ctx.seat];
  const layout = layoutOf(me);
  // asked again only when the robot or what it is measured on changed (not on every move: bots trading
  // among themselves would otherwise void each answer before it came, and the measures would never show)
  const key = JSON.stringify([layout, [...ui.bench.batteries], [...ui.bench.magnets], ui.choiceBasis]);
  if (key === lastAsked && ui.evaluation) return;
  lastAsked = key;
  clearTimeout(evalTimer);
  const seq = ++ui.evalSeq;
  document.body.dataset.evaluating = "1"; // tests wait for the measures to settle
  evalTimer = setTimeout(async () => {
    try {
      const res = await evaluateLayout(layout);
      if (seq !== ui.evalSeq) return;
      ui.evaluation = res.evaluation;
      delete document.body.dataset.evaluating;
      if (document.getElementById("workbench")) rerender();
    } catch (err) {
      if (seq === ui.evalSeq) {
        delete document.body.dataset.evaluating;
        toast(err.message);
      }
    }
  }, 60);
}

function rerender() {
  if (ui.root && ui.ctx) render(ui.root, ui.ctx);
}

// Dragging: pointer events (mouse, pen, touch). A drop on the grid places the part on that cell; a
// drop elsewhere takes a placed part back; a press without a move on a placed part turns it, and on a
// tray part picks it up (then a tap on a cell, or the arrow keys and Enter, place it).
function startDrag(event, id, from) {
  if (ui.explain || (event.button !== undefined && event.button !== 0)) return; // explaining: a tap explains
  event.preventDefault();
  const placed = ui.bench.placed.find((p) => p.id === id);
  const rot = placed ? placed.rot : 0;
  const ghost = el("div", { class: "drag-ghost" }, tileSvg(id, 44, rot));
  const start = { x: event.clientX, y: event.clientY };
  let moved = false;
  const move = (e) => {
    if (!moved && Math.hypot(e.clientX - start.x, e.clientY - start.y) > 4) {
      moved = true;
      document.body.append(ghost);
    }
    ghost.style.left = `${e.clientX - 28}px`;
    ghost.style.top = `${e.clientY - 28}px`;
  };
  const up = (e) => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    ghost.remove();
    if (!moved) {
      if (placed && !ui.carry) {
        placed.rot = (placed.rot + 1) % 4;
        rerender();
      } else if (from === "tray") carry(id, "tray");
      return;
    }
    const cell = cellAt(e.clientX, e.clientY);
    const occupied = cell && !cellFree(cell[0], cell[1], id);
    if (cell && !occupied) {
      if (placed) Object.assign(placed, { x: cell[0], y: cell[1] });
      else ui.bench.placed.push({ id, x: cell[0], y: cell[1], rot: 0 });
      ui.carry = null;
    } else if (!cell && placed) {
      ui.bench.placed = ui.bench.placed.filter((p) => p.id !== id);
    }
    rerender();
  };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
}

function torsoCells() {
  const me = ui.ctx.view.players[ui.ctx.seat];
  const ti = me && me.torso ? tileInfo(me.torso) : null;
  return ti ? ti.cells : [];
}

function cellAt(clientX, clientY) {
  const grid = document.getElementById("bench-grid");
  if (!grid) return null;
  const r = grid.getBoundingClientRect();
  if (clientX < r.left || clientX >= r.right || clientY < r.top || clientY >= r.bottom) return null;
  const cols = GRID.maxX - GRID.minX + 1;
  const rows = GRID.maxY - GRID.minY + 1;
  const x = Math.floor(((clientX - r.left) / r.width) * cols) + GRID.minX;
  const y = Math.floor(((clientY - r.top) / r.height) * rows) + GRID.minY;
  return [x, y];
}

// -- help ---------------------------------------------------------------------------------------------------

/** The help: what each part, requirement, buyer and maintenance tile does (also the rules page's body). */
export function helpContent(view) {
  const kinds = ["head", "base", "hand", "antenna", "extender", "elbow", "splitter", "battery", "magnet", "torso"];
  const reqKinds = ["eyes", "tall", "wide", "long_arm", "extender", "splitter", "elbow", "two_heads", "magnets", "no_wheels", "hands", "symmetry"];
  const inPlay = new Set(view ? view.buyers.flatMap((b) => b.requirements.map((r) => r.kind)) : []);
  const buyerIds = view ? view.buyers.map((b) => b.id) : ["buyer-1", "buyer-2", "buyer-3", "buyer-4", "buyer-5", "buyer-6", "buyer-7", "buyer-8"];
  const section = (id, title, ...body) => el("section", { class: "help-section", id }, el("h4", {}, title), ...body);
  const row = (term, text, extra = null) => el("div", { class: "help-row" }, el("dt", {}, extra, term), el("dd", {}, text));
  return [
    section("help-turn", t("robots-on-the-line:help.turn_title"), el("ol", {}, ["turn_1", "turn_2", "turn_3", "turn_4", "turn_5", "turn_6", "turn_7"].map((k) => el("li", {}, t(`robots-on-the-line:help.${k}`)))), el("p", {}, t("robots-on-the-line:help.turn_end")), el("p", {}, t("robots-on-the-line:help.goal"))),
    section("help-line", t("robots-on-the-line:help.line_title"), el("p", {}, t("robots-on-the-line:help.switches")), el("p", {}, t("robots-on-the-line:help.magnet_unit")), el("p", {}, t("robots-on-the-line:help.junk_pile")), el("p", {}, t("robots-on-the-line:help.draw_pile"))),
    section("help-parts", t("robots-on-the-line:help.parts_title"), el("dl", {}, kinds.map((k) => row(kindName(k), t(`robots-on-the-line:help.kinds.${k}`))))),
    section("help-icons", t("robots-on-the-line:help.icons_title"), el("p", {}, t("robots-on-the-line:help.bonus_tile")), el("dl", {}, Object.keys(ICONS).map((i) => row(iconName(i), t(`robots-on-the-line:help.icons.${i}`), svg("svg", { viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true" }, iconBadge(i, 8, 8, 7)))))),
    section("help-requirements", t("robots-on-the-line:help.requirements_title"), el("dl", {}, reqKinds.map((k) => row(t(`robots-on-the-line:help.requirement_names.${k}`), t(`robots-on-the-line:help.requirements.${k}`), inPlay.has(k) ? el("span", { class: "tag" }, t("robots-on-the-line:help.in_play")) : null)))),
    section("help-buyers", t("robots-on-the-line:help.buyers_title"), el("p", {}, t("robots-on-the-line:help.buyers_about")), el("dl", {}, buyerIds.map((id) => row(buyerName(id), t(`robots-on-the-line:help.buyers.${id}`))))),
    section("help-maintenance", t("robots-on-the-line:help.maintenance_title"), el("p", {}, t("robots-on-the-line:help.maintenance.about")), el("dl", {}, ["line_reset", "switch_flip"].map((k) => row(t(`robots-on-the-line:names.maintenance.${k}`), t(`robots-on-the-line:help.maintenance.${k}`))))),
    section("help-hunter", t("robots-on-the-line:names.bargain_hunter"), el("p", {}, t("robots-on-the-line:help.bargain_hunter"))),
    section("help-money", t("robots-on-the-line:help.money_title"), el("p", {}, t("robots-on-the-line:help.money"))),
  ];
}

function helpPanel(view) {
  return el(
    "div",
    { class: "panel rotl-help", id: "rotl-help", role: "region", "aria-label": t("robots-on-the-line:ui.help") },
    el(
      "div",
      { class: "panel-head" },
      el("h3", { tabindex: -1 }, t("robots-on-the-line:help.title")),
      el("div", { class: "row-buttons" }, speedChoice(), el("a", { class: "button small", href: "/static/games/robots-on-the-line-rules.html", target: "_blank", rel: "noopener", id: "rotl-rules-link" }, t("robots-on-the-line:help.rules_page")), el("button", { type: "button", class: "small", id: "rotl-help-close", onclick: () => { ui.helpOpen = false; ui.focusAfter = "#rotl-help-toggle"; rerender(); } }, t("robots-on-the-line:ui.close"))),
    ),
    el("p", { class: "small" }, t("robots-on-the-line:help.keyboard")),
    el("p", { class: "small" }, t("robots-on-the-line:help.animation")),
    el("div", { class: "help-body" }, helpContent(view)),
  );
}

// -- animation (line moves, draws, sales): CSS, from the change between two views (so replays animate too);
// as fast as the help panel's Animation speed (--anim-scale), skipped with prefers-reduced-motion or Off; a tap
// on the board finishes it ----------------------------------------------------------------------------------

let lastView = null;

function animate(board, ctx) {
  const before = lastView;
  const now = ctx.view;
  lastView = now;
  if (!before || before === now || animationsOff()) return;
  let slid = false;
  for (const line of [0, 1]) {
    const was = before.lines[line];
    const is = now.lines[line];
    const moved = was.some((part, i) => part && i < 5 && is[i + 1] === part);
    if (moved) {
      slid = true;
      board.querySelector(`.rotl-line[data-line="${line}"] .rotl-spaces`)?.classList.add("slide");
    }
    is.forEach((part, i) => {
      if (part && !was.includes(part) && !(moved && was[i - 1] === part)) board.querySelector(`.rotl-space[data-line="${line}"][data-space="${i + 1}"]`)?.classList.add("arrived");
    });
  }
  if (now.sales.length > before.sales.length) {
    for (const sale of now.sales.slice(before.sales.length)) board.querySelector(`[data-player="${sale.seat}"] .sold:last-child`)?.classList.add("just-sold");
  }
  if (slid || board.querySelector(".arrived, .just-sold")) board.addEventListener("pointerdown", () => board.getAnimations({ subtree: true }).forEach((a) => a.finish()), { once: true });
}

/** The animation speed (live and in replays) or Off, kept in this browser; it scales the CSS durations. */
function speedChoice() {
  const label = t("robots-on-the-line:ui.animation_speed");
  return speedControl({ id: "rotl-speed", key: SPEED_KEY, offKey: OFF_KEY, label, offLabel: t("robots-on-the-line:ui.animation_off"), onChange: () => { ui.focusAfter = "#rotl-speed"; rerender(); } });
}

// -- the log and the end -------------------------------------------------------------------------------------

function seatName(names, seat, viewer) {
  return seat === viewer ? t("robots-on-the-line:log.you") : names[seat] || t("robots-on-the-line:ui.seat", { n: seat + 1 });
}

function describeEvent(event, names, seat) {
  const d = event;
  const who = seatName(names, d.seat, seat);
  const you = d.seat === seat && seat !== null && seat !== undefined;
  const sw = (pair) => t("robots-on-the-line:ui.switch_name", { line: pair[0] + 1, spaces: sectionName(pair[1]) });
  switch (d.type) {
    case "took":
      return t(you ? "robots-on-the-line:log.took_you" : "robots-on-the-line:log.took", { who, parts: partsList(d.parts), line: d.line + 1, spaces: d.spaces.join(t("robots-on-the-line:ui.list_separator")) });
    case "searched_junk":
      return t("robots-on-the-line:log.searched_junk", { who, part: describeTile(d.part), n: d.pile + 1 });
    case "traded_junk":
      return t("robots-on-the-line:log.traded_junk", { who, gave: describeTile(d.gave), took: describeTile(d.took), n: d.pile + 1 });
    case "took_torso":
      return t("robots-on-the-line:log.took_torso", { who, torso: describeTile(d.torso) });
    case "chose_torso":
      return t("robots-on-the-line:log.chose_torso", { who, torso: describeTile(d.torso) });
    case "swapped_torso":
      return t("robots-on-the-line:log.swapped_torso", { who, gave: describeTile(d.gave), took: describeTile(d.took) });
    case "switches":
      return t("robots-on-the-line:log.switches", { who, on: sw(d.on), off: sw(d.off) });
    case "switch":
      return t("robots-on-the-line:log.switch", { who, name: sw([d.line, d.section]) });
    case "sold_part":
      return t("robots-on-the-line:log.sold_part", { who, part: describeTile(d.part), money: money(d.price) });
    case "sold_robot":
      return t("robots-on-the-line:log.sold_robot", { who, buyer: buyerName(d.buyer), money: money(d.paid.total) });
    case "buyer_done":
      return t("robots-on-the-line:log.buyer_done", { buyer: buyerName(d.buyer) });
    case "offer":
      return t("robots-on-the-line:log.offer", { who: seatName(names, d.from ?? d.seat, seat), to: seatName(names, d.to, seat), n: d.offer });
    case "accepted":
      return t("robots-on-the-line:log.accepted", { who: seatName(names, d.to, seat), n: d.offer });
    case "declined":
      return t("robots-on-the-line:log.declined", { who, n: d.offer });
    case "offer_void":
      return t("robots-on-the-line:log.offer_void", { n: d.offer });
    case "picked":
      return t("robots-on-the-line:log.picked", { who, part: describeTile(d.part), n: d.pile + 1 });
    case "to_junk":
      return t("robots-on-the-line:log.to_junk", { part: describeTile(d.part), n: d.line + 1 });
    case "turn":
      return d.seat === seat ? t("robots-on-the-line:log.turn_you", { n: d.turn }) : t("robots-on-the-line:log.turn", { who, n: d.turn });
    case "maintenance":
      return d.tile ? t("robots-on-the-line:log.maintenance", { tile: t(`robots-on-the-line:names.maintenance.${d.tile}`) }) : t("robots-on-the-line:log.maintenance_none");
    case "line_cleared":
      return t("robots-on-the-line:log.line_cleared", { n: d.line + 1 });
    case "torso_stack_seen":
      return t("robots-on-the-line:log.torso_stack_seen", { torsos: partsList(d.order) });
    case "game_over":
      return d.reason.includes("robots") ? t("robots-on-the-line:log.game_over_robots") : t("robots-on-the-line:log.game_over_parts");
    case "drawn":
      return t("robots-on-the-line:log.drawn", { part: describeTile(d.part), where: t("robots-on-the-line:ui.line_space", { line: d.line + 1, space: d.space }) });
    case "offer_lapsed":
    case "line_advanced":
    case "stopped_picking":
      return null;
    default:
      return null;
  }
}

function renderResult(result, view, names) {
  const rows = result.ranks
    .map((rank, seat) => ({ rank, seat }))
    .sort((a, b) => a.rank - b.rank)
    .map(({ rank, seat }) => {
      const p = view.players[seat];
      return el("tr", { class: result.winners.includes(seat) ? "winner" : "", dataset: { resultSeat: seat } }, el("td", {}, rank), el("td", { class: "name" }, names[seat] || t("robots-on-the-line:ui.seat", { n: seat + 1 })), el("td", {}, money(p.money)), el("td", {}, p.magnets ? `−${p.magnets}` : "0"), el("td", {}, p.robots_sold), el("td", { class: "score" }, result.scores[seat]));
    });
  const heads = ["place", "player", "money", "magnets", "robots", "score"];
  return el(
    "div",
    { class: "rotl-result-wrap" },
    el(
      "table",
      { class: "result rotl-result" },
      el("thead", {}, el("tr", {}, heads.map((h) => el("th", { scope: "col" }, t(`robots-on-the-line:end.${h}`))))),
      el("tbody", {}, rows),
    ),
    el("p", { class: "small muted" }, t("robots-on-the-line:end.how_scored")),
  );
}

export default { render, describeEvent, renderResult };

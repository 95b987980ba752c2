// Robots on the Line table: both production lines (spaces, parts, chevrons, switches, magnet units),
// draw piles, junk piles, the torso stack, the buyers, the Bargain Hunter, every player's money, hand
// and sold robots, offers between players, and the robot workbench.
// It draws the view the server sent and offers exactly the legal actions it sent: no rules here. The
// workbench's measures, open ports, requirement checks and sale values come from the server
// (POST /api/tables/{id}/evaluate, computed by the engine's geometry module), never from this file.

import { api, el, svg, toast } from "/static/js/api.js";
import { ICONS, describeTile, iconBadge, kindOf, loadCatalogue, partFace, robotSvg, tileInfo, tileSvg, torsoFace } from "/static/games/rotl-draw.js";

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
  benchOpen: false,
  bench: { placed: [], batteries: new Set(), magnets: new Set() },
  evaluation: null,
  evalSeq: 0,
  suggestions: null,
  ctx: null,
  root: null,
  tableKey: null,
};

const GRID = { minX: -5, maxX: 5, minY: -4, maxY: 4 };
const CELL = 46;
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const money = (n) => `$${n}`;

function legalOf(ctx, type) {
  return ctx.legal.filter((a) => a.type === type);
}

function nameOf(ctx, seat) {
  return ctx.names[seat] || `Seat ${seat + 1}`;
}

// -- render -----------------------------------------------------------------------------------------

async function render(root, ctx) {
  try {
    await loadCatalogue();
  } catch (err) {
    root.replaceChildren(el("p", { class: "error" }, `The component catalogue could not be loaded: ${err.message}`));
    return;
  }
  const key = `${ctx.tableId}:${ctx.seat}`;
  if (ui.tableKey !== key) {
    ui.tableKey = key;
    ui.bench = { placed: [], batteries: new Set(), magnets: new Set() };
    ui.evaluation = null;
    ui.suggestions = null;
    ui.benchOpen = false;
  }
  ui.ctx = ctx;
  ui.root = root;
  const v = ctx.view;
  const me = ctx.seat === null || ctx.seat === undefined ? null : v.players[ctx.seat];
  if (!ctx.legal.some((a) => a.type === "trade_junk" && a.pile === ui.tradePile)) ui.tradePile = null;
  if (me && ui.selected && !me.hand.includes(ui.selected)) ui.selected = null;
  pruneBench(me);

  const board = el(
    "div",
    { class: "rotl" },
    statusBar(ctx),
    el("div", { class: "rotl-factory" }, linesPanel(ctx), el("div", { class: "rotl-side-stack" }, torsoPanel(ctx), hunterPanel(ctx))),
    me ? handPanel(ctx, me) : null,
    me && ui.benchOpen && !ctx.replay ? benchPanel(ctx, me) : null,
    buyersPanel(ctx),
    offersPanel(ctx),
    playersPanel(ctx),
  );
  root.replaceChildren(board);
  if (me && ui.benchOpen && !ctx.replay) scheduleEvaluate();
}

function statusBar(ctx) {
  const v = ctx.view;
  const t = v.this_turn;
  const mine = ctx.seat === v.turn && v.phase !== "over";
  const endTurn = legalOf(ctx, "end_turn")[0];
  const picks = [...legalOf(ctx, "pick_junk"), ...legalOf(ctx, "stop_picking")];
  return el(
    "div",
    { class: `panel rotl-status${mine ? " mine" : ""}` },
    el("div", { class: "rotl-turn" }, el("strong", {}, v.phase === "over" ? `Game over after ${v.turn_number} turns` : `Turn ${v.turn_number}: ${mine ? "your turn" : `${nameOf(ctx, v.turn)}'s turn`}`)),
    el(
      "div",
      { class: "rotl-this-turn small" },
      el("span", { class: `chip ${t.part_taken ? "used" : ""}` }, t.part_taken ? "part taken" : "part: not yet"),
      el("span", { class: `chip ${t.junk_trades >= 2 ? "used" : ""}` }, `junk trades ${t.junk_trades}/2`),
      el("span", { class: `chip ${t.torso_stack_used ? "used" : ""}` }, t.torso_stack_used ? "torso stack used" : "torso stack: free"),
      el("span", { class: "chip" }, `maintenance ${v.maintenance.stack} left`),
    ),
    el(
      "div",
      { class: "rotl-status-actions" },
      ...picks.map((a) =>
        el("button", { type: "button", class: "small", onclick: () => ctx.act(a), dataset: { pick: a.type } }, a.type === "pick_junk" ? `Pick the top of junk pile ${a.pile + 1}` : "Stop picking"),
      ),
      !ctx.replay && ctx.seat !== null && ctx.seat !== undefined && v.players[ctx.seat]
        ? el("button", { type: "button", id: "open-bench", class: ui.benchOpen ? "active" : "", onclick: () => toggleBench() }, ui.benchOpen ? "Close the workbench" : "Workbench")
        : null,
      endTurn ? el("button", { type: "button", id: "end-turn", class: "primary", onclick: () => ctx.act(endTurn) }, "End turn") : null,
    ),
  );
}

// -- the production lines ---------------------------------------------------------------------------------

function linesPanel(ctx) {
  const v = ctx.view;
  const takes = legalOf(ctx, "take_part");
  const rows = [0, 1].map((line) => lineRow(ctx, line, takes));
  let hint = "";
  if (ui.switchPick) hint = "Now click a switch to turn the other way ($1 for both).";
  else if (ui.tradePile !== null) hint = `Click a part of your hand to give for the top of junk pile ${ui.tradePile + 1}.`;
  return el(
    "div",
    { class: "panel rotl-lines" },
    el("div", { class: "panel-head" }, el("h3", {}, "Production lines"), el("span", { class: "muted small" }, "parts move right, toward the junk piles")),
    hint ? el("p", { class: "rotl-hint" }, hint, " ", el("button", { type: "button", class: "small", onclick: () => { ui.switchPick = null; ui.tradePile = null; rerender(); } }, "Cancel")) : null,
    ...rows,
    v.maintenance.discard.length ? el("p", { class: "muted small" }, `Maintenance drawn: ${v.maintenance.discard.map((k) => k.replace("_", " ")).join(", ")}`) : null,
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
    const attrs = {
      class: `rotl-space sec-${on ? "on" : "off"}${take ? " legal" : ""}${unit.length > 1 && part ? " in-unit" : ""}${unit.length > 1 && unit[0] === s ? " unit-start" : ""}${unit.length > 1 && unit[unit.length - 1] === s ? " unit-end" : ""}`,
      dataset: { line, space: s, unit: `${line}:${unit.join(",")}`, ...(take ? { take: `${line}-${s}` } : {}) },
      title: part ? `${describeTile(part)}${unit.length > 1 ? ` (magnet unit: spaces ${unit.join(", ")})` : ""}${take ? " — click to take" : ""}` : `space ${s}: empty`,
    };
    if (take) {
      attrs.onclick = () => ctx.act(take);
      attrs.onmouseenter = (e) => hotUnit(e.currentTarget, true);
      attrs.onmouseleave = (e) => hotUnit(e.currentTarget, false);
    }
    spaceEls.push(el("div", attrs, el("span", { class: "space-no" }, s), part ? tileSvg(part, 44) : el("span", { class: "empty" }, "")));
    if (s < 6) spaceEls.push(el("span", { class: `chevron${s === 3 ? " section-gap" : ""}`, "aria-hidden": "true" }, "›"));
  }
  const switches = [0, 1].map((section) => switchButton(ctx, line, section));
  return el(
    "div",
    { class: "rotl-line", dataset: { line } },
    el("div", { class: "rotl-draw", title: `draw pile ${line + 1}: ${v.draw_piles[line]} parts face down` }, el("div", { class: "stack-card" }, v.draw_piles[line]), el("span", { class: "small muted" }, "draw")),
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
  const onclick = () => {
    if (single) return ctx.act(single);
    if (partnerAction) {
      ui.switchPick = null;
      return ctx.act(partnerAction);
    }
    ui.switchPick = picked ? null : pair;
    rerender();
  };
  return el(
    "button",
    {
      type: "button",
      class: `rotl-switch ${on ? "on" : "off"}${picked ? " picked" : ""}${partnerAction ? " partner" : ""}`,
      disabled: !usable,
      dataset: { switch: `${line}-${section}` },
      title: `line ${line + 1}, spaces ${section ? "4-6" : "1-3"}: ${on ? "ON" : "OFF"}${usable ? " — click to flip ($1)" : ""}`,
      onclick,
    },
    el("span", { class: "knob" }),
    `${section ? "4-6" : "1-3"} ${on ? "ON" : "OFF"}`,
  );
}

function junkPile(ctx, pile) {
  const v = ctx.view;
  const parts = v.junk_piles[pile];
  const top = parts[parts.length - 1];
  const searches = legalOf(ctx, "search_junk").filter((a) => a.pile === pile);
  const trades = legalOf(ctx, "trade_junk").filter((a) => a.pile === pile);
  const open = ui.openPile === pile;
  return el(
    "div",
    { class: "rotl-junk", dataset: { pile } },
    el("div", { class: "small muted" }, `junk ${pile + 1} · ${parts.length}`),
    top ? el("div", { class: "junk-top", title: `top: ${describeTile(top)}` }, tileSvg(top, 44)) : el("div", { class: "junk-top empty" }, "empty"),
    el(
      "div",
      { class: "junk-buttons" },
      parts.length ? el("button", { type: "button", class: "small", dataset: { showPile: pile }, onclick: () => { ui.openPile = open ? null : pile; rerender(); } }, open ? "Hide" : "See all") : null,
      trades.length ? el("button", { type: "button", class: `small${ui.tradePile === pile ? " active" : ""}`, dataset: { tradePile: pile }, onclick: () => { ui.tradePile = ui.tradePile === pile ? null : pile; rerender(); } }, "Trade") : null,
    ),
    open
      ? el(
          "div",
          { class: "junk-all" },
          el("div", { class: "small muted" }, searches.length ? "Pay $1 and take one (top last):" : "The whole pile (top last):"),
          el(
            "div",
            { class: "junk-list" },
            parts.map((p) => {
              const search = searches.find((a) => a.part === p);
              return el(
                "button",
                { type: "button", class: `junk-item${search ? " legal" : ""}`, disabled: !search, dataset: { search: search ? p : "" }, title: describeTile(p) + (search ? " — pay $1 to take it" : ""), onclick: () => { if (search) { ui.openPile = null; ctx.act(search); } } },
                tileSvg(p, 34),
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
  return el(
    "div",
    { class: "panel rotl-torsos" },
    el("h3", {}, "Torso stack"),
    el("div", { class: "torso-top" }, ts.top ? tileSvg(ts.top, 46) : el("span", { class: "muted" }, "empty"), el("span", { class: "small muted" }, `${ts.count} torso${ts.count === 1 ? "" : "s"}`)),
    el(
      "div",
      { class: "row-buttons" },
      take ? el("button", { type: "button", class: "small", id: "take-torso", onclick: () => ctx.act(take) }, "Take the top") : null,
      swap ? el("button", { type: "button", class: "small", id: "swap-torso", onclick: () => ctx.act(swap) }, "Swap yours for the top") : null,
      choose.length ? el("button", { type: "button", class: "small", id: "choose-torso", onclick: () => { ui.chooseTorso = !ui.chooseTorso; rerender(); } }, ui.chooseTorso ? "Hide" : "Choose one ($1)") : null,
    ),
    ui.chooseTorso && choose.length
      ? el("div", { class: "torso-choices" }, choose.map((a) => el("button", { type: "button", class: "junk-item legal", dataset: { choose: a.torso }, title: describeTile(a.torso), onclick: () => { ui.chooseTorso = false; ctx.act(a); } }, tileSvg(a.torso, 34))))
      : el("div", { class: "small muted torso-set", title: ts.torsos.join(", ") }, `in the stack: ${ts.torsos.length}`),
  );
}

function hunterPanel(ctx) {
  const h = ctx.view.bargain_hunter;
  return el(
    "div",
    { class: "panel rotl-hunter" },
    el("h3", {}, "Bargain Hunter"),
    el("p", { class: "small" }, `Buys any part but magnets for ${money(h.any_part)}; `, el("strong", { class: "featured" }, `${h.featured}s for ${money(h.featured_part)}`), "."),
    el("p", { class: "small muted" }, `Bought so far: ${ctx.view.bargain_hunter_parts.length}`),
  );
}

// -- the seat's hand ---------------------------------------------------------------------------------------

function handPanel(ctx, me) {
  const sells = legalOf(ctx, "sell_part");
  const trades = legalOf(ctx, "trade_junk");
  const selected = ui.selected;
  const tiles = me.hand.map((p) => {
    const trade = ui.tradePile !== null ? trades.find((a) => a.pile === ui.tradePile && a.part === p) : null;
    const onBench = ui.bench.placed.some((b) => b.id === p) || ui.bench.batteries.has(p) || ui.bench.magnets.has(p);
    return el(
      "button",
      {
        type: "button",
        class: `hand-tile${selected === p ? " selected" : ""}${trade ? " legal" : ""}${onBench ? " on-bench" : ""}`,
        dataset: { hand: p },
        title: describeTile(p),
        onclick: () => {
          if (trade) {
            ui.tradePile = null;
            return ctx.act(trade);
          }
          ui.selected = selected === p ? null : p;
          rerender();
        },
      },
      tileSvg(p, 44),
    );
  });
  const actions = [];
  if (selected) {
    const sell = sells.find((a) => a.part === selected);
    if (sell) actions.push(el("button", { type: "button", class: "small", dataset: { sellPart: selected }, onclick: () => ctx.act(sell) }, `Sell to the Bargain Hunter (${money(kindOf(selected) === ctx.view.bargain_hunter.featured ? ctx.view.bargain_hunter.featured_part : ctx.view.bargain_hunter.any_part)})`));
    for (const t of trades.filter((a) => a.part === selected)) actions.push(el("button", { type: "button", class: "small", onclick: () => ctx.act(t) }, `Give it for the top of junk pile ${t.pile + 1}`));
    if (!actions.length) actions.push(el("span", { class: "muted small" }, "No action with this part now."));
  }
  return el(
    "div",
    { class: "panel rotl-hand" },
    el("div", { class: "panel-head" }, el("h3", {}, "Your hand"), el("span", { class: "small" }, `${money(me.money)} · ${me.hand.length} parts${me.magnets ? ` · ${me.magnets} magnet${me.magnets > 1 ? "s" : ""} (−${me.magnets} at the end)` : ""}`)),
    el("div", { class: "hand-row" }, me.torso ? el("div", { class: "hand-torso", title: describeTile(me.torso) }, tileSvg(me.torso, 44), el("span", { class: "small muted" }, "torso")) : el("div", { class: "hand-torso muted small" }, "no torso"), tiles),
    selected ? el("div", { class: "hand-actions" }, el("span", { class: "small" }, describeTile(selected)), actions) : el("p", { class: "muted small" }, "Click a part for its actions; build robots on the workbench."),
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
      el("h3", {}, "Buyers"),
      el(
        "span",
        { class: "icon-legend small muted" },
        Object.entries(ICONS).map(([name, info]) => el("span", { class: "legend-item" }, svg("svg", { viewBox: "0 0 16 16", width: 14, height: 14 }, iconBadge(name, 8, 8, 7)), ` ${info.name}`)),
      ),
    ),
    el(
      "div",
      { class: "buyer-grid" },
      ctx.view.buyers.map((b) => {
        const be = ev && ev.buyers.find((x) => x.id === b.id);
        const helperSale = sales.find((a) => a.buyer === b.id);
        return el(
          "div",
          { class: `buyer${b.buying ? "" : " done"}`, dataset: { buyer: b.id } },
          el("div", { class: "buyer-head" }, el("strong", {}, b.name), el("span", { class: "pay" }, money(b.pay))),
          el("div", { class: "small muted" }, b.buying ? `money left ${money(b.money)}` : `done (money left ${money(b.money)})`),
          el(
            "ul",
            { class: "reqs" },
            b.requirements.map((r) => {
              const re = be && be.requirements.find((x) => x.id === r.id);
              const mark = re ? (re.met ? "✓" : "✗") : "";
              return el(
                "li",
                { class: `req${re ? (re.met ? " met" : " unmet") : ""}`, dataset: { req: r.id }, title: re && !re.met ? re.short : r.text },
                el("span", { class: "mark" }, mark),
                r.text,
                r.bonus ? el("span", { class: "bonus5" }, `+${money(r.bonus)}`) : null,
              );
            }),
          ),
          b.bonus_tiles.length
            ? el(
                "div",
                { class: "bonus-tiles" },
                b.bonus_tiles.map((t) => {
                  const te = be && be.bonus_tiles.find((x) => x.id === t.id);
                  return el(
                    "span",
                    { class: `bonus-tile${te ? (te.paid ? " paid" : " unpaid") : ""}`, title: `bonus: ${t.icons.join(" + ")} pays ${money(t.value)}` },
                    svg("svg", { viewBox: `0 0 ${t.icons.length * 18} 18`, width: t.icons.length * 18, height: 18 }, t.icons.map((i, k) => iconBadge(i, 9 + k * 18, 9, 8))),
                    money(t.value),
                  );
                }),
              )
            : null,
          be && be.value ? el("div", { class: "buyer-value", dataset: { value: be.value.total } }, `this robot: ${money(be.value.total)}`) : null,
          helperSale && !ui.benchOpen ? el("button", { type: "button", class: "small", dataset: { helperSell: b.id }, onclick: () => { openBenchWith(helperSale); } }, "A robot fits: see it") : null,
        );
      }),
    ),
  );
}

// -- offers ------------------------------------------------------------------------------------------------

function offersPanel(ctx) {
  const v = ctx.view;
  const accepts = legalOf(ctx, "accept");
  const declines = legalOf(ctx, "decline");
  const offers = legalOf(ctx, "offer");
  const canOffer = ctx.seat !== null && ctx.seat !== undefined && (offers.length > 0 || legalOf(ctx, "end_turn").length > 0 || accepts.length > 0);
  const items = v.offers.map((o) => {
    const acc = accepts.find((a) => a.offer === o.offer);
    const dec = declines.find((a) => a.offer === o.offer);
    return el(
      "div",
      { class: "offer", dataset: { offer: o.offer } },
      el("span", {}, `#${o.offer} ${nameOf(ctx, o.from)} → ${nameOf(ctx, o.to)}: gives `),
      o.give.map((p) => tileSvg(p, 26)),
      o.give_money ? ` ${money(o.give_money)}` : "",
      o.give.length || o.give_money ? "" : "nothing",
      el("span", {}, " for "),
      o.take.map((p) => tileSvg(p, 26)),
      o.take_money ? ` ${money(o.take_money)}` : "",
      o.take.length || o.take_money ? "" : "nothing",
      acc ? el("button", { type: "button", class: "small primary", dataset: { accept: o.offer }, onclick: () => ctx.act(acc) }, "Accept") : null,
      dec ? el("button", { type: "button", class: "small", dataset: { decline: o.offer }, onclick: () => ctx.act(dec) }, "Decline") : null,
    );
  });
  if (!items.length && !canOffer) return null;
  return el("div", { class: "panel rotl-offers" }, el("h3", {}, "Trades between players"), items.length ? items : el("p", { class: "muted small" }, "No open offer."), canOffer ? offerBuilder(ctx) : null);
}

function offerBuilder(ctx) {
  const v = ctx.view;
  const me = v.players[ctx.seat];
  const others = v.players.filter((p) => p.seat !== ctx.seat);
  if (!ui.offer) {
    return el("div", { class: "row-buttons" }, others.map((p) => el("button", { type: "button", class: "small", dataset: { offerTo: p.seat }, onclick: () => { ui.offer = { to: p.seat, give: new Set(), take: new Set(), give_money: 0, take_money: 0 }; rerender(); } }, `Offer a trade to ${nameOf(ctx, p.seat)}`)));
  }
  const o = ui.offer;
  const them = v.players[o.to];
  const pick = (set, id) => el("button", { type: "button", class: `pick${set.has(id) ? " selected" : ""}`, title: describeTile(id), onclick: () => { set.has(id) ? set.delete(id) : set.add(id); rerender(); } }, tileSvg(id, 30));
  const num = (field) => el("input", { type: "number", min: 0, max: 99, value: o[field], class: "money-input", oninput: (e) => { o[field] = Math.max(0, Number(e.target.value) || 0); } });
  return el(
    "div",
    { class: "offer-builder" },
    el("div", {}, el("strong", {}, `Your offer to ${nameOf(ctx, o.to)}`)),
    el("div", { class: "offer-side" }, el("span", { class: "small" }, "You give:"), [...me.hand, ...(me.torso ? [me.torso] : [])].map((p) => pick(o.give, p)), " + $", num("give_money")),
    el(
      "div",
      { class: "offer-side" },
      el("span", { class: "small" }, "You ask:"),
      [...them.hand, ...(them.torso ? [them.torso] : [])].map((p) => pick(o.take, p)),
      them.unknown_parts ? el("span", { class: "muted small" }, ` (+${them.unknown_parts} unseen)`) : null,
      " + $",
      num("take_money"),
    ),
    el(
      "div",
      { class: "row-buttons" },
      el("button", { type: "button", class: "small primary", id: "send-offer", onclick: () => { const a = { type: "offer", to: o.to, give: [...o.give], take: [...o.take], give_money: o.give_money, take_money: o.take_money }; ui.offer = null; ctx.act(a); } }, "Send the offer"),
      el("button", { type: "button", class: "small", onclick: () => { ui.offer = null; rerender(); } }, "Cancel"),
    ),
  );
}

// -- players -----------------------------------------------------------------------------------------------

function playersPanel(ctx) {
  const v = ctx.view;
  return el(
    "div",
    { class: "panel rotl-players" },
    el("h3", {}, "Players"),
    el(
      "div",
      { class: "player-grid" },
      v.players.map((p) => {
        const sales = v.sales.filter((s) => s.seat === p.seat);
        const mine = p.seat === ctx.seat;
        return el(
          "div",
          { class: `player${p.seat === v.turn ? " on-turn" : ""}${mine ? " me" : ""}`, dataset: { player: p.seat } },
          el("div", { class: "player-head" }, el("strong", {}, nameOf(ctx, p.seat)), el("span", { class: "player-money", dataset: { money: p.money } }, money(p.money))),
          el("div", { class: "small muted" }, `robots sold ${p.robots_sold}/4 · score ${p.score}${p.magnets ? ` · ${p.magnets} magnet${p.magnets > 1 ? "s" : ""}` : ""}`),
          mine
            ? el("div", { class: "small muted" }, `${p.hand.length} parts in hand (shown above)`)
            : el(
                "div",
                { class: "known-hand" },
                p.torso ? tileSvg(p.torso, 26) : null,
                p.hand.map((x) => tileSvg(x, 26)),
                p.unknown_parts ? el("span", { class: "unknown", title: "parts you have not seen" }, `+${p.unknown_parts} unseen`) : null,
                !p.hand.length && !p.unknown_parts ? el("span", { class: "muted small" }, "no parts") : null,
              ),
          sales.length
            ? el(
                "div",
                { class: "sold-robots" },
                sales.map((s) => el("div", { class: "sold", title: `sold to ${buyerName(v, s.buyer)} for ${money(s.paid.total)}` }, robotSvg(s.layout, 14), el("span", { class: "small" }, `${buyerName(v, s.buyer)} ${money(s.paid.total)}`))),
              )
            : null,
        );
      }),
    ),
  );
}

function buyerName(v, id) {
  const b = v.buyers.find((x) => x.id === id);
  return b ? b.name : id;
}

// -- the workbench -------------------------------------------------------------------------------------------

const PLACEABLE = new Set(["head", "base", "hand", "antenna", "extender", "elbow", "splitter"]);

function pruneBench(me) {
  if (!me) return;
  const hand = new Set(me.hand);
  ui.bench.placed = ui.bench.placed.filter((p) => hand.has(p.id));
  for (const set of [ui.bench.batteries, ui.bench.magnets]) for (const id of [...set]) if (!hand.has(id)) set.delete(id);
}

function toggleBench() {
  ui.benchOpen = !ui.benchOpen;
  ui.suggestions = null;
  rerender();
}

function openBenchWith(sale) {
  loadSale(sale);
  ui.benchOpen = true;
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

function benchPanel(ctx, me) {
  const cols = GRID.maxX - GRID.minX + 1;
  const rows = GRID.maxY - GRID.minY + 1;
  const W = cols * CELL;
  const H = rows * CELL;
  const grid = svg("svg", { id: "bench-grid", class: "bench-grid", viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img", "aria-label": "workbench grid" });
  for (let y = GRID.minY; y <= GRID.maxY; y++) {
    for (let x = GRID.minX; x <= GRID.maxX; x++) {
      grid.append(svg("rect", { x: (x - GRID.minX) * CELL, y: (y - GRID.minY) * CELL, width: CELL, height: CELL, class: "bench-cell", dataset: { cell: `${x},${y}` } }));
    }
  }
  const ox = -GRID.minX * CELL;
  const oy = -GRID.minY * CELL;
  if (me.torso) grid.append(torsoFace(me.torso, ox, oy, CELL));
  for (const p of ui.bench.placed) {
    const g = partFace(p.id, ox + p.x * CELL, oy + p.y * CELL, CELL, p.rot);
    g.classList.add("placed");
    g.dataset.placed = p.id;
    g.addEventListener("pointerdown", (e) => startDrag(e, p.id, "grid"));
    grid.append(g);
  }
  const ev = ui.evaluation;
  if (ev) {
    for (const port of ev.open_ports) {
      const [cx, cy] = port.cell;
      const d = { N: [0.5, 0], S: [0.5, 1], W: [0, 0.5], E: [1, 0.5] }[port.side];
      grid.append(svg("circle", { class: "open-port", cx: ox + (cx + d[0]) * CELL, cy: oy + (cy + d[1]) * CELL, r: 7 }, svg("title", {}, `open port: ${port.tile} side ${port.side}`)));
    }
  }
  const tray = me.hand.filter((id) => PLACEABLE.has(tileInfo(id)?.kind) && !ui.bench.placed.some((p) => p.id === id));
  const extras = me.hand.filter((id) => ["battery", "magnet"].includes(tileInfo(id)?.kind));
  return el(
    "div",
    { class: "panel rotl-bench", id: "workbench" },
    el(
      "div",
      { class: "panel-head" },
      el("h3", {}, "Workbench"),
      el(
        "div",
        { class: "row-buttons" },
        el("button", { type: "button", class: "small", id: "suggest", onclick: suggest }, "Suggest"),
        el("button", { type: "button", class: "small", id: "clear-bench", onclick: () => { ui.bench.placed = []; ui.bench.batteries.clear(); ui.bench.magnets.clear(); rerender(); } }, "Clear"),
      ),
    ),
    me.torso ? null : el("p", { class: "rotl-hint" }, "You have no torso: take one from the torso stack to build a robot."),
    el("p", { class: "muted small" }, "Drag parts onto the grid next to the torso; click a placed part to turn it a quarter clockwise; drag it off the grid to take it back. Red dots are open ports."),
    ui.suggestions ? suggestionsBox(ctx) : null,
    el(
      "div",
      { class: "bench-body" },
      el("div", { class: "bench-grid-wrap" }, grid),
      el(
        "div",
        { class: "bench-side" },
        el("div", { class: "bench-tray", id: "bench-tray" }, tray.length ? tray.map((id) => { const n = el("div", { class: "tray-item", dataset: { tray: id }, title: describeTile(id) }, tileSvg(id, 40)); n.addEventListener("pointerdown", (e) => startDrag(e, id, "tray")); return n; }) : el("span", { class: "muted small" }, "every part is on the grid")),
        extras.length
          ? el(
              "div",
              { class: "bench-extras" },
              el("span", { class: "small" }, "Hand over with the robot:"),
              extras.map((id) => {
                const set = tileInfo(id).kind === "battery" ? ui.bench.batteries : ui.bench.magnets;
                return el("button", { type: "button", class: `pick${set.has(id) ? " selected" : ""}`, dataset: { extra: id }, title: describeTile(id), onclick: () => { set.has(id) ? set.delete(id) : set.add(id); rerender(); } }, tileSvg(id, 30));
              }),
            )
          : null,
        measuresBox(),
      ),
    ),
    benchSales(ctx, me),
  );
}

function measuresBox() {
  const ev = ui.evaluation;
  if (!ev) return el("div", { class: "bench-measures muted small", id: "bench-measures", dataset: { state: "waiting" } }, "measuring…");
  const m = ev.measures;
  const cells = m
    ? [
        ["eyes", m.eyes],
        ["tall", m.tall],
        ["wide", m.wide],
        ["hands", m.hands],
        ["long arm", m.long_arm],
        ["pink pairs", m.pink_pairs],
        ["symmetric", m.symmetric ? "yes" : "no"],
        ["wheels", m.wheels ? "yes" : "no"],
      ]
    : [];
  return el(
    "div",
    { class: "bench-measures", id: "bench-measures", dataset: { state: "ready", finished: ev.finished ? "1" : "0" } },
    m ? el("dl", { class: "measures" }, cells.flatMap(([k, val]) => [el("dt", {}, k), el("dd", { dataset: { measure: k.replace(" ", "_") } }, val)])) : null,
    m && m.icons.length ? el("div", { class: "icons-row" }, el("span", { class: "small" }, "icons "), svg("svg", { viewBox: `0 0 ${m.icons.length * 22} 22`, width: m.icons.length * 22, height: 22 }, m.icons.map((i, k) => iconBadge(i, 11 + k * 22, 11, 9)))) : null,
    ev.finished ? el("p", { class: "finished" }, "✓ The robot is finished.") : el("ul", { class: "problems small" }, ev.problems.slice(0, 5).map((p) => el("li", {}, p))),
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
      return el(
        "div",
        { class: `bench-buyer${b.sellable ? " sellable" : ""}`, dataset: { benchBuyer: b.id } },
        el("strong", {}, b.name),
        el("ul", { class: "reqs" }, b.requirements.map((r) => el("li", { class: `req ${r.met ? "met" : "unmet"}`, dataset: { req: r.id }, title: r.short || r.text }, el("span", { class: "mark" }, r.met ? "✓" : "✗"), r.text))),
        b.value ? el("div", { class: "small value", dataset: { value: b.value.total } }, `${money(b.value.total)} = ${money(b.value.buyer)} + req ${money(b.value.requirements)} + bonus ${money(b.value.bonus_tiles)} + pink ${money(b.value.pink_pairs)}`) : null,
        b.sellable
          ? el("button", { type: "button", class: "small primary", dataset: { sell: b.id }, onclick: () => { ctx.act(sale); } }, `Sell for ${money(b.value.total)}`)
          : ev.finished && b.requirements.every((r) => r.met)
            ? el("div", { class: "why small muted" }, b.why)
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
      ? list.map((s) => el("button", { type: "button", class: "small", dataset: { suggestion: s.buyer }, onclick: () => { loadSale(s); ui.suggestions = null; rerender(); } }, `Load the helper's robot for ${buyerName(ctx.view, s.buyer)}`))
      : el("span", { class: "muted small" }, "The assembly helper finds no robot your hand can sell now."),
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
  rerender();
}

function evaluateLayout(layout, wantSuggest = false) {
  const ctx = ui.ctx;
  return api(`/api/tables/${ctx.tableId}/evaluate`, {
    method: "POST",
    body: { seat: ctx.seat, query: { layout, batteries: [...ui.bench.batteries], magnets: [...ui.bench.magnets], suggest: wantSuggest } },
  });
}

let evalTimer = null;
let lastAsked = null;
function scheduleEvaluate() {
  const me = ui.ctx.view.players[ui.ctx.seat];
  const layout = layoutOf(me);
  const key = JSON.stringify([layout, [...ui.bench.batteries], [...ui.bench.magnets], ui.ctx.moves]);
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
// drop elsewhere takes a placed part back; a press without a move on a placed part turns it.
function startDrag(event, id, from) {
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
      if (placed) {
        placed.rot = (placed.rot + 1) % 4;
        rerender();
      }
      return;
    }
    const cell = cellAt(e.clientX, e.clientY);
    const occupied = cell && (ui.bench.placed.some((p) => p.id !== id && p.x === cell[0] && p.y === cell[1]) || torsoCells().some((c) => c[0] === cell[0] && c[1] === cell[1]));
    if (cell && !occupied) {
      if (placed) Object.assign(placed, { x: cell[0], y: cell[1] });
      else ui.bench.placed.push({ id, x: cell[0], y: cell[1], rot: 0 });
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
  const t = me && me.torso ? tileInfo(me.torso) : null;
  return t ? t.cells : [];
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

// -- the log and the end -------------------------------------------------------------------------------------

function describeEvent(event, names, seat) {
  const who = (s) => (s === seat ? "You" : names[s] || `Seat ${s + 1}`);
  const d = event;
  switch (d.type) {
    case "took":
      return `${who(d.seat)} took ${d.parts.join(", ")} from line ${d.line + 1}`;
    case "searched_junk":
      return `${who(d.seat)} paid $1 and took ${d.part} from junk pile ${d.pile + 1}`;
    case "traded_junk":
      return `${who(d.seat)} gave ${d.gave} for ${d.took} (junk pile ${d.pile + 1})`;
    case "took_torso":
      return `${who(d.seat)} took the top torso${d.torso ? ` (${d.torso})` : ""}`;
    case "chose_torso":
      return `${who(d.seat)} paid $1 and chose ${d.torso}`;
    case "swapped_torso":
      return `${who(d.seat)} swapped ${d.gave} for ${d.took}`;
    case "switches":
      return `${who(d.seat)} flipped switches: line ${d.on[0] + 1} ${d.on[1] ? "4-6" : "1-3"} ON, line ${d.off[0] + 1} ${d.off[1] ? "4-6" : "1-3"} OFF`;
    case "switch":
      return `${who(d.seat)} flipped the switch of line ${d.line + 1} ${d.section ? "4-6" : "1-3"}`;
    case "sold_part":
      return `${who(d.seat)} sold ${d.part} to the Bargain Hunter for $${d.price}`;
    case "sold_robot":
      return `${who(d.seat)} sold a robot to ${d.buyer} for $${d.paid.total}`;
    case "buyer_done":
      return `${d.buyer} buys no more robots`;
    case "offer":
      return `${who(d.from ?? d.seat)} made an offer${d.to !== undefined ? ` to ${who(d.to)}` : ""}`;
    case "accepted":
      return `${who(d.seat)} accepted offer #${d.offer}`;
    case "declined":
      return `${who(d.seat)} declined offer #${d.offer}`;
    case "offer_void":
      return `offer #${d.offer} can no longer be carried out`;
    case "offer_lapsed":
      return null;
    case "picked":
      return `${who(d.seat)} picked ${d.part} from junk pile ${d.pile + 1}`;
    case "to_junk":
      return `${d.part} fell onto junk pile ${d.line + 1}`;
    case "turn":
      return `— ${who(d.seat)}'s turn (${d.turn})`;
    case "maintenance":
      return d.tile ? `Maintenance: ${d.tile.replace("_", " ")}` : "Maintenance: none left";
    case "line_cleared":
      return `line ${d.line + 1} cleared into its junk pile`;
    case "torso_stack_seen":
      return `You saw the torso stack: ${d.order.join(", ")}`;
    case "game_over":
      return `The game is over (${d.reason})`;
    case "drawn":
    case "line_advanced":
    case "stopped_picking":
      return null;
    default:
      return `${d.type}`;
  }
}

function renderResult(result, view, names) {
  const rows = result.ranks
    .map((rank, seat) => ({ rank, seat }))
    .sort((a, b) => a.rank - b.rank)
    .map(({ rank, seat }) => {
      const p = view.players[seat];
      return el("tr", {}, el("td", {}, rank), el("td", {}, names[seat]), el("td", {}, `$${p.money}`), el("td", {}, p.magnets ? `−${p.magnets}` : "0"), el("td", {}, p.robots_sold), el("td", {}, result.scores[seat]));
    });
  return el(
    "table",
    { class: "result" },
    el("thead", {}, el("tr", {}, ["Place", "Player", "Money", "Magnets", "Robots", "Score"].map((h) => el("th", {}, h)))),
    el("tbody", {}, rows),
  );
}

export default { render, describeEvent, renderResult };

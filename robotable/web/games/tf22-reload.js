// TF22: RELOAD! table: the battle (two container cards and the activated container), the hand with the
// R uses, the reveal, spaceships (legal slots highlighted while loading), chipcards, scores and the log.
// It draws the view the server sent and offers exactly the legal actions it sent: no rules here.

import { el, svg } from "/static/js/api.js";
import { seatName, t } from "/static/js/i18n.js";
import { applySpeed, readSpeed, scaleFor, speedControl } from "/static/js/anim-speed.js";

if (!document.querySelector("link[data-play-css]") && !document.querySelector('link[href="/static/css/play.css"]')) {
  document.head.append(el("link", { rel: "stylesheet", href: "/static/css/play.css", dataset: { playCss: "1" } }));
}

const COLOURS = ["yellow", "red", "blue", "green"]; // stacking order, bottom to top (from the view's data)
const FILL = { yellow: "#f4c430", red: "#d9473f", blue: "#3f7fd8", green: "#3ea85a" };
const DARK = { yellow: "#7a5c00", red: "#8f2520", blue: "#23508f", green: "#21693a" };
const colourName = (c) => t(`tf22-reload:names.colour.${c}`);
const Colour = (c) => t(`tf22-reload:names.Colour.${c}`);
const cap = Colour;
const sorted = (cards) => cards.slice().sort((a, b) => a - b);
const R_COST = { r_take_back: 0, r_discard: 1, r_reload: 2, r_buy: 3 };
const R_LETTER = { r_take_back: "a", r_discard: "b", r_reload: "c", r_buy: "d" };

// -- what each piece is (tap a piece: its explanation shows under the stock bar) ---------------------

const EXPLAIN = {
  card: (c, v) => t("tf22-reload:explain.card", { Colour: Colour(c), colour: colourName(c), value: v }),
  activated: (c) => t("tf22-reload:explain.activated", { colour: colourName(c) }),
  crate: (c, slot) => t("tf22-reload:explain.crate", { colour: colourName(c), n: slot + 1 }),
  chips: (n) => t("tf22-reload:explain.chips", { chips: t("tf22-reload:names.chipcards", { count: n }) }),
  hand: t("tf22-reload:explain.hand"),
  pile: (c, cards) => t("tf22-reload:explain.pile", { Colour: Colour(c), cards }),
  stock: (c, n) => t("tf22-reload:explain.stock", { colour: colourName(c), n }),
  deck: (n) => t("tf22-reload:explain.deck", { n }),
  chipStock: (n) => t("tf22-reload:explain.chip_stock", { n }),
};

function explainable(text, extra = {}) {
  return { "data-explain": text, ...extra };
}

// -- small drawings -------------------------------------------------------------------------------

function crate(colour, x, y, w, h, extra = {}) {
  return svg(
    "g",
    { class: `crate ${colour}`, ...extra },
    svg("rect", { x, y, width: w, height: h, rx: 3, fill: FILL[colour], stroke: DARK[colour], "stroke-width": 1.5 }),
    [0.25, 0.5, 0.75].map((f) => svg("line", { x1: x + w * f, y1: y + 3, x2: x + w * f, y2: y + h - 3, stroke: DARK[colour], "stroke-width": 1, opacity: 0.55 })),
    svg("text", { x: x + w / 2, y: y + h / 2 + 4, "text-anchor": "middle", class: "crate-letter" }, colour[0].toUpperCase()),
  );
}

function containerIcon(colour, size = 34) {
  return svg("svg", { class: "icon-crate", viewBox: "0 0 48 24", width: size, height: size / 2, role: "img", "aria-label": t("tf22-reload:names.container", { colour: colourName(colour) }) }, crate(colour, 2, 2, 44, 20));
}

function containerCard(card, big = true) {
  const [colour, value] = card;
  const w = big ? 84 : 34;
  const h = big ? 118 : 48;
  return svg(
    "svg",
    { class: `cc-card ${big ? "big" : "small"}`, viewBox: `0 0 ${w} ${h}`, width: w, height: h, role: "img", "aria-label": t("tf22-reload:names.container_card", { colour: colourName(colour), value }), ...explainable(EXPLAIN.card(colour, value)) },
    svg("rect", { x: 1.5, y: 1.5, width: w - 3, height: h - 3, rx: big ? 8 : 4, fill: FILL[colour], stroke: DARK[colour], "stroke-width": 3 }),
    svg("circle", { cx: w / 2, cy: h / 2 - (big ? 6 : 0), r: big ? 26 : 12, fill: "#fff", opacity: 0.92 }),
    svg("text", { x: w / 2, y: h / 2 - (big ? 6 : 0) + (big ? 12 : 6), "text-anchor": "middle", class: big ? "cc-value" : "cc-value-small", fill: DARK[colour] }, value),
    big ? svg("text", { x: w / 2, y: h - 12, "text-anchor": "middle", class: "cc-name" }, Colour(colour).toUpperCase()) : null,
  );
}

function chipcards(n) {
  const shown = Math.min(n, 8);
  const chips = [];
  for (let i = 0; i < shown; i++) chips.push(svg("rect", { x: 2 + i * 7, y: 2, width: 16, height: 22, rx: 3, class: "chip" }));
  return el(
    "span",
    { class: "chips", title: t("tf22-reload:names.chipcards", { count: n }), ...explainable(EXPLAIN.chips(n)) },
    n ? svg("svg", { viewBox: `0 0 ${shown * 7 + 14} 26`, width: shown * 7 + 14, height: 26 }, chips) : null,
    el("span", { class: "chip-count" }, t("tf22-reload:names.chips", { count: n })),
  );
}

// -- labels ---------------------------------------------------------------------------------------

function slotName(i) {
  return t("tf22-reload:names.slot", { n: i + 1 });
}

function describeAction(a) {
  switch (a.type) {
    case "play":
      return t("tf22-reload:action.play", { value: a.value });
    case "r_take_back":
      return t("tf22-reload:action.r_take_back");
    case "r_discard":
      return t("tf22-reload:action.r_discard", { slot: a.slot + 1 });
    case "r_reload":
      return t("tf22-reload:action.r_reload", { from_slot: a.from_slot + 1, to_slot: a.to_slot + 1 });
    case "r_buy":
      return t("tf22-reload:action.r_buy", { colour: colourName(a.colour), slot: a.slot + 1 });
    case "load":
      return t("tf22-reload:action.load", { slot: a.slot + 1 });
    case "reload":
      return t("tf22-reload:action.reload", { from_slot: a.from_slot + 1, to_slot: a.to_slot + 1 });
    case "return":
      return t("tf22-reload:action.return");
    default:
      return a.type;
  }
}

/** The R panel's button text: the use without its letter and cost. */
function shortAction(a, player) {
  switch (a.type) {
    case "r_take_back":
      return t("tf22-reload:action.take_back", { cards: player.discard.length ? sorted(player.discard).join(", ") : t("tf22-reload:action.nothing_played") });
    case "r_discard":
      return t("tf22-reload:action.r_discard_short", { slot: a.slot + 1 });
    case "r_reload":
      return t("tf22-reload:action.r_reload_short", { from_slot: a.from_slot + 1, to_slot: a.to_slot + 1 });
    case "r_buy":
      return t("tf22-reload:action.r_buy_short", { colour: colourName(a.colour), slot: a.slot + 1 });
    default:
      return describeAction(a);
  }
}

function shortChoice(a) {
  if (!a) return "?";
  if (a.type === "play") return String(a.value);
  return "R";
}

function rUseLabel(a) {
  switch (a.type) {
    case "r_take_back":
      return t("tf22-reload:r_use.r_take_back");
    case "r_discard":
      return t("tf22-reload:r_use.r_discard", { slot: a.slot + 1 });
    case "r_reload":
      return t("tf22-reload:r_use.r_reload", { from_slot: a.from_slot + 1, to_slot: a.to_slot + 1 });
    case "r_buy":
      return t("tf22-reload:r_use.r_buy", { colour: colourName(a.colour), slot: a.slot + 1 });
    default:
      return "";
  }
}

function cardText(card) {
  return t("tf22-reload:names.card_short", { colour: Colour(card[0]), value: card[1] });
}

const both = (cards) => (cards.length === 2 ? t("tf22-reload:log.and", { a: cardText(cards[0]), b: cardText(cards[1]) }) : cards.map(cardText).join(", "));

function describeEvent(e, names, seat) {
  const name = (s) => seatName(names[s]) ?? t("tf22-reload:names.seat", { n: s + 1 });
  const who = (s) => (s === seat ? t("tf22-reload:names.you", { name: name(s) }) : name(s));
  const whoList = (list) => (list.length === 2 ? t("tf22-reload:log.and", { a: who(list[0]), b: who(list[1]) }) : list.map(who).join(", "));
  const c = colourName(e.colour);
  switch (e.type) {
    case "round_start":
      return t("tf22-reload:log.round_start", { round: e.round });
    case "activate":
      return t(e.container ? "tf22-reload:log.activate" : "tf22-reload:log.activate_none", { battle: e.battle, cards: both(e.cards), colour: c });
    case "chose":
      return t("tf22-reload:log.chose", { who: who(e.seat) });
    case "your_choice":
      return t("tf22-reload:log.your_choice", { choice: describeAction(e.choice) });
    case "reveal":
      return t("tf22-reload:log.reveal", {
        choices: e.choices.map((ch, s) => (ch.type === "play" ? t("tf22-reload:log.reveal_play", { name: name(s), value: ch.value }) : t("tf22-reload:log.reveal_r", { name: name(s), use: R_LETTER[ch.type] }))).join(", "),
      });
    case "r_take_back":
      return t("tf22-reload:log.r_take_back", { who: who(e.seat), cards: e.cards.length ? sorted(e.cards).join(", ") : t("tf22-reload:log.nothing") });
    case "r_discard":
      return t("tf22-reload:log.r_discard", { who: who(e.seat), colour: c, slot: e.slot + 1 });
    case "r_reload":
      return t("tf22-reload:log.r_reload", { who: who(e.seat), colour: c, from: e.from_slot + 1, to: e.to_slot + 1 });
    case "r_buy":
      return t("tf22-reload:log.r_buy", { who: who(e.seat), colour: c, slot: e.slot + 1 });
    case "r_buy_cancelled":
      return t("tf22-reload:log.r_buy_cancelled", { who: who(e.seat), colour: c });
    case "chipcard":
      return t("tf22-reload:log.chipcard", { who: who(e.seat) });
    case "chipcard_stock_empty":
      return t("tf22-reload:log.chipcard_stock_empty", { who: who(e.seat) });
    case "battle": {
      const parts = [];
      if (e.neutralized.length) parts.push(t("tf22-reload:log.neutralized", { who: e.neutralized.map(who).join(", ") }));
      if (e.tied.length) parts.push(t("tf22-reload:log.tie", { who: e.tied.map(who).join(", ") }));
      parts.push(e.winner === null ? t("tf22-reload:log.absolute_tie") : t("tf22-reload:log.wins_battle", { who: who(e.winner) }));
      return t("tf22-reload:log.battle", { parts: parts.join("; ") });
    }
    case "set_aside":
      return t("tf22-reload:log.set_aside", { cards: both(e.cards) });
    case "won_cards":
      return t("tf22-reload:log.won_cards", { who: who(e.seat), cards: both(e.cards) });
    case "load":
      return t("tf22-reload:log.load", { who: who(e.seat), colour: c, slot: e.slot + 1 });
    case "reload":
      return t("tf22-reload:log.reload", { who: who(e.seat), colour: c, from: e.from_slot + 1, to: e.to_slot + 1 });
    case "container_returned":
      return t("tf22-reload:log.container_returned", { colour: c });
    case "round_scored":
      return t("tf22-reload:log.round_scored", { round: e.round, scores: e.scores.map((p, s) => `${name(s)} ${p.total}`).join(", ") });
    case "game_over":
      return t(e.result.winners.length > 1 ? "tf22-reload:log.game_over_shared" : "tf22-reload:log.game_over_single", { who: whoList(e.result.winners) });
    default:
      return `${e.type}`;
  }
}

// -- the table ------------------------------------------------------------------------------------

function legalIndex(ctx) {
  const byKey = new Map();
  ctx.legal.forEach((a) => byKey.set(JSON.stringify(a), a));
  return byKey;
}

function ship(player, view, ctx, mine) {
  const slots = player.ship.length;
  const maxH = 4;
  const cw = 52;
  const ch = 20;
  const gap = 12;
  const W = slots * (cw + gap) + gap;
  const H = maxH * (ch + 3) + 34;
  const loadHere = new Map();
  if (mine && view.phase === "load") {
    for (const a of ctx.legal) if (a.type === "load") loadHere.set(a.slot, a);
  }
  const parts = [svg("rect", { x: 1, y: 1, width: W - 2, height: H - 2, rx: 10, class: "hull" })];
  player.ship.forEach((stack, i) => {
    const x = gap + i * (cw + gap);
    const floor = H - 20;
    const action = loadHere.get(i);
    const g = svg("g", { class: `slot${action ? " legal" : ""}`, dataset: action ? { legal: "load", slot: i } : { slot: i } });
    g.append(svg("rect", { x: x - 4, y: 6, width: cw + 8, height: floor - 2, rx: 6, class: "slot-bay" }));
    const dropped = ctx.anim && ctx.anim.loaded.has(`${player.seat}:${i}`);
    stack.forEach((colour, level) => g.append(crate(colour, x, floor - (level + 1) * (ch + 3), cw, ch, { class: `crate ${colour}${dropped && level === stack.length - 1 ? " drop-in" : ""}`, role: "img", "aria-label": t("tf22-reload:names.container", { colour: colourName(colour) }), ...explainable(EXPLAIN.crate(colour, i)) })));
    if (action) {
      const level = stack.length;
      g.append(crate(view.activated, x, floor - (level + 1) * (ch + 3), cw, ch, { class: "crate ghost" }));
      g.addEventListener("click", () => ctx.act(action));
      g.setAttribute("role", "button");
      g.setAttribute("tabindex", "0");
      g.setAttribute("aria-label", t("tf22-reload:table.load_here", { colour: colourName(view.activated), n: i + 1 }));
      g.dataset.focus = `load:${i}`;
      g.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault();
          ctx.act(action);
        }
      });
    }
    if (stack.length === 4) g.append(svg("text", { x: x + cw / 2, y: 4 + 10, "text-anchor": "middle", class: "full-stack" }, "★ +3"));
    g.append(svg("text", { x: x + cw / 2, y: H - 6, "text-anchor": "middle", class: "slot-label" }, i + 1));
    parts.push(g);
  });
  const name = seatName(ctx.names[player.seat]) ?? t("tf22-reload:names.seat", { n: player.seat + 1 });
  const contents = player.ship.map((st, i) => t("tf22-reload:table.ship_slot", { n: i + 1, contents: st.length ? st.map(colourName).join(", ") : t("tf22-reload:table.empty") })).join("; ");
  return svg("svg", { class: "ship", viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: loadHere.size ? "group" : "img", "aria-label": t("tf22-reload:table.ship", { name, contents }) }, parts);
}

function ccPile(cards) {
  if (!cards.length) return el("span", { class: "muted small" }, t("tf22-reload:table.no_cc"));
  const by = {};
  for (const [c, v] of cards) (by[c] = by[c] || []).push(v);
  return el(
    "div",
    { class: "cc-pile" },
    COLOURS.filter((c) => by[c]).map((c) =>
      el("span", { class: `cc-group ${c}`, title: EXPLAIN.pile(c, sorted(by[c]).join(", ")), ...explainable(EXPLAIN.pile(c, sorted(by[c]).join(", "))) }, el("span", { class: `dot ${c}` }), sorted(by[c]).join(" "), el("small", {}, ` Σ${by[c].reduce((a, b) => a + b, 0)}`)),
    ),
  );
}

function handCards(player) {
  const all = [1, 2, 3, 4, 5, 6, 7];
  return el(
    "div",
    { class: "mini-hand", title: t("tf22-reload:table.hand_title"), role: "img", "aria-label": t("tf22-reload:table.hand_label", { cards: player.hand.length ? sorted(player.hand).join(", ") : t("tf22-reload:table.none") }), ...explainable(EXPLAIN.hand) },
    all.map((v) => el("span", { class: `mini-card${player.hand.includes(v) ? "" : " played"}`, "aria-hidden": "true" }, v)),
    el("span", { class: "mini-card r" }, "R"),
  );
}

function playerPanel(player, view, ctx) {
  const mine = ctx.seat === player.seat;
  const name = seatName(ctx.names[player.seat]) ?? t("tf22-reload:names.seat", { n: player.seat + 1 });
  let status = "";
  if (view.phase === "choose") status = player.has_chosen ? t("tf22-reload:table.has_chosen") : t("tf22-reload:table.choosing");
  if (view.phase === "load" && view.winner === player.seat) status = t("tf22-reload:table.won_loading");
  const isWinner = view.last_battle && view.last_battle.winner === player.seat;
  const leads = view.phase === "over" && player.scores.total === Math.max(...view.players.map((p) => p.scores.total));
  return el(
    "section",
    { class: `player${mine ? " me" : ""}${view.to_act.includes(player.seat) ? " to-act" : ""}${leads ? " winner" : ""}`, dataset: { seat: player.seat } },
    el(
      "header",
      {},
      el("h3", {}, mine ? t("tf22-reload:names.you", { name }) : name),
      status ? el("span", { class: `pstatus ${player.has_chosen ? "done" : ""}` }, status) : null,
      el("span", { class: "score-pill", title: t("tf22-reload:table.total_score") }, t("tf22-reload:table.points", { n: player.scores.total })),
    ),
    ship(player, view, ctx, mine),
    el("div", { class: "player-row" }, chipcards(player.chipcards), handCards(player)),
    el("div", { class: "player-row" }, ccPile(player.cc_pile)),
    isWinner && view.phase !== "over" ? el("div", { class: "small muted" }, t("tf22-reload:table.won_last")) : null,
  );
}

function battleArea(view, names) {
  const parts = [];
  if (view.phase === "over") {
    const best = Math.max(...view.players.map((p) => p.scores.total));
    const leaders = view.players.filter((p) => p.scores.total === best).map((p) => seatName(names[p.seat]) ?? t("tf22-reload:names.seat", { n: p.seat + 1 }));
    parts.push(
      el(
        "div",
        { class: "battle-empty" },
        el("p", {}, t("tf22-reload:table.all_fought", { n: view.battles_per_round * 2 })),
        el("p", { class: "final-leader" }, t("tf22-reload:table.highest", { best, leaders: leaders.join(", ") })),
        leaders.length > 1 ? el("p", { class: "small" }, t("tf22-reload:table.equal_totals")) : null,
      ),
    );
  } else {
    parts.push(
      el("div", { class: "revealed" }, view.revealed.map((c) => containerCard(c))),
      el("div", { class: "arrow", "aria-hidden": "true" }, "→"),
      el(
        "div",
        { class: "activated" },
        view.activated
          ? svg("svg", { viewBox: "0 0 100 60", width: 110, height: 66, role: "img", "aria-label": t("tf22-reload:table.activated_label", { colour: colourName(view.activated) }), ...explainable(EXPLAIN.activated(view.activated)) }, crate(view.activated, 4, 8, 92, 46))
          : el("div", { class: "no-container" }, t("tf22-reload:table.no_container_left", { colour: colourName(view.battle_colour) })),
        el("div", { class: "small" }, view.activated ? t("tf22-reload:table.activated", { Colour: Colour(view.activated) }) : t("tf22-reload:table.cards_only")),
      ),
    );
  }
  return el(
    "section",
    { class: "battle panel" },
    el("h3", {}, view.phase === "over" ? t("tf22-reload:table.final_position") : t("tf22-reload:table.round_battle", { round: view.round, battle: view.battle, of: view.battles_per_round })),
    el("div", { class: "battle-row" }, parts),
  );
}

function stockBar(view) {
  return el(
    "div",
    { class: "stock-bar" },
    el("span", { title: t("tf22-reload:table.stack_title"), ...explainable(EXPLAIN.deck(view.deck_count)) }, t("tf22-reload:table.stack", { n: view.deck_count })),
    el("span", { class: "stock" }, t("tf22-reload:table.stock"), " ", COLOURS.map((c) => el("span", { class: "stock-item", title: t("tf22-reload:table.stock_title", { n: view.stock[c], colour: colourName(c) }), ...explainable(EXPLAIN.stock(c, view.stock[c])) }, containerIcon(c, 26), ` ${view.stock[c]}`))),
    el("span", { title: t("tf22-reload:table.chip_stock_title"), ...explainable(EXPLAIN.chipStock(view.chipcard_stock)) }, t("tf22-reload:table.chip_stock", { n: view.chipcard_stock })),
    view.set_aside.length ? el("span", { title: t("tf22-reload:table.set_aside_title") }, t("tf22-reload:table.set_aside", { cards: view.set_aside.map(cardText).join(", ") })) : null,
  );
}

function revealArea(view, ctx) {
  const lb = view.last_battle;
  if (!lb) return el("section", { class: "reveal panel" }, el("h3", {}, t("tf22-reload:table.reveal")), el("p", { class: "muted small" }, t("tf22-reload:table.reveal_hint")));
  const rows = lb.choices.map((choice, s) => {
    const tags = [];
    if (lb.winner === s) tags.push(el("span", { class: "tag win" }, t("tf22-reload:table.wins")));
    if (lb.tied.includes(s)) tags.push(el("span", { class: "tag tie" }, t("tf22-reload:table.tie_chip")));
    if (lb.neutralized.includes(s)) tags.push(el("span", { class: "tag neutral" }, t("tf22-reload:table.neutralized")));
    const isR = choice.type !== "play";
    return el(
      "div",
      { class: `reveal-item${lb.winner === s ? " winner" : ""}`, style: `--i:${s}` },
      el("span", { class: `rcu ${isR ? "r" : ""}` }, shortChoice(choice)),
      el("span", { class: "reveal-name" }, seatName(ctx.names[s]) ?? t("tf22-reload:names.seat", { n: s + 1 }), isR ? el("small", {}, ` R ${R_LETTER[choice.type]}: ${rUseLabel(choice)}`) : null),
      ...tags,
    );
  });
  return el(
    "section",
    { class: "reveal panel" },
    el("h3", {}, lb.round !== view.round ? t("tf22-reload:table.reveal_of_round", { battle: lb.battle, round: lb.round }) : t("tf22-reload:table.reveal_of", { battle: lb.battle })),
    el("div", { class: "reveal-cards" }, lb.cards.map((c) => containerCard(c, false)), el("span", { class: "small muted" }, lb.winner === null ? t("tf22-reload:table.absolute_tie") : "")),
    el("div", { class: "reveal-list" }, rows),
  );
}

function handArea(view, ctx, player) {
  const legal = legalIndex(ctx);
  const choosing = view.phase === "choose" && ctx.legal.length > 0;
  const rActions = ctx.legal.filter((a) => a.type.startsWith("r_"));
  const open = handArea.rOpen && choosing;
  const cards = [1, 2, 3, 4, 5, 6, 7].map((v) => {
    const action = legal.get(JSON.stringify({ type: "play", value: v }));
    const inHand = player.hand.includes(v);
    return el(
      "button",
      {
        type: "button",
        class: `rcu-card${inHand ? "" : " played"}${action ? " legal" : ""}`,
        disabled: !action,
        dataset: action ? { legal: "play", value: v, focus: `card:${v}` } : { value: v, focus: `card:${v}` },
        onclick: action ? () => ctx.act(action) : null,
        "aria-label": inHand ? t("tf22-reload:table.play_card", { value: v }) : t("tf22-reload:table.played_card", { value: v }),
      },
      el("span", { class: "v" }, v),
      v === 1 ? el("small", {}, t("tf22-reload:table.beats_7")) : v === 7 ? el("small", {}, t("tf22-reload:table.lost_to_1")) : null,
    );
  });
  const rCard = el(
    "button",
    {
      type: "button",
      class: `rcu-card r${rActions.length ? " legal" : ""}${open ? " open" : ""}`,
      disabled: !rActions.length,
      dataset: { rcard: "1", focus: "rcard" },
      onclick: () => {
        handArea.rOpen = !handArea.rOpen;
        ctx.rerender(handArea.rOpen ? "r-first" : "rcard");
      },
      "aria-expanded": open ? "true" : "false",
    },
    el("span", { class: "v" }, "R"),
    el("small", {}, "RELOAD!"),
  );
  const parts = [el("div", { class: "hand" }, cards, rCard)];
  if (open) parts.push(rPanel(rActions, ctx, player));
  let prompt;
  const me = view.players[ctx.seat];
  if (me && me.choice) {
    prompt = el("p", { class: "prompt" }, t("tf22-reload:table.secret", { choice: describeAction(me.choice) }));
  } else if (choosing) {
    prompt = el("p", { class: "prompt mine" }, t("tf22-reload:table.choose"));
  } else {
    prompt = el("p", { class: "prompt muted" }, t("tf22-reload:table.your_hand"));
  }
  return el("section", { class: "hand-area panel" }, prompt, ...parts);
}
handArea.rOpen = false;

function rPanel(rActions, ctx, player) {
  const groups = [
    ["r_take_back", t("tf22-reload:table.r_a")],
    ["r_discard", t("tf22-reload:table.r_b")],
    ["r_reload", t("tf22-reload:table.r_c")],
    ["r_buy", t("tf22-reload:table.r_d")],
  ];
  return el(
    "div",
    { class: "r-panel" },
    el("p", { class: "small" }, t("tf22-reload:table.you_have", { chips: t("tf22-reload:names.chipcards", { count: player.chipcards }) })),
    groups.map(([type, title]) => {
      const options = rActions.filter((a) => a.type === type);
      const affordable = player.chipcards >= R_COST[type];
      return el(
        "div",
        { class: `r-use${options.length ? "" : " unavailable"}` },
        el("h4", {}, title),
        options.length
          ? el(
              "div",
              { class: "action-list" },
              options.map((a, k) =>
                el(
                  "button",
                  { type: "button", class: "action", dataset: { legal: a.type, focus: `r:${a.type}:${k}` }, onclick: () => ctx.act(a) },
                  a.type === "r_buy" ? containerIcon(a.colour, 22) : null,
                  shortAction(a, player),
                ),
              ),
            )
          : el("p", { class: "muted small" }, affordable ? t("tf22-reload:table.not_possible") : t("tf22-reload:table.not_enough")),
      );
    }),
  );
}

function loadArea(view, ctx) {
  if (view.phase !== "load") return null;
  const name = seatName(ctx.names[view.winner]) ?? t("tf22-reload:names.seat", { n: view.winner + 1 });
  if (ctx.seat !== view.winner || !ctx.legal.length) {
    return el("section", { class: "load-area panel" }, el("p", { class: "prompt" }, t("tf22-reload:table.winner_decides", { name, colour: colourName(view.activated ?? view.battle_colour) })));
  }
  const loads = ctx.legal.filter((a) => a.type === "load");
  const reloads = ctx.legal.filter((a) => a.type === "reload");
  const ret = ctx.legal.find((a) => a.type === "return");
  return el(
    "section",
    { class: "load-area panel mine" },
    el(
      "p",
      { class: "prompt mine" },
      view.activated ? t("tf22-reload:table.you_won", { colour: colourName(view.activated) }) : t("tf22-reload:table.you_won_none", { colour: colourName(view.battle_colour) }),
      loads.length ? "" : ` ${t("tf22-reload:table.no_slot")}`,
    ),
    el(
      "div",
      { class: "action-list" },
      loads.map((a) => el("button", { type: "button", class: "action", dataset: { legal: "load", focus: `load-btn:${a.slot}` }, onclick: () => ctx.act(a) }, containerIcon(view.activated, 22), ` ${describeAction(a)}`)),
      reloads.map((a, k) => el("button", { type: "button", class: "action secondary", dataset: { legal: "reload", focus: `reload:${k}` }, onclick: () => ctx.act(a) }, describeAction(a))),
      ret ? returnButton(ret, loads.length + reloads.length > 0, ctx) : null,
    ),
    el("p", { class: "small muted" }, t("tf22-reload:table.final")),
  );
}

/** Returning a won container gives it up: with other choices open, it asks once more. */
function returnButton(ret, others, ctx) {
  if (!others) return el("button", { type: "button", class: "action secondary", dataset: { legal: "return", focus: "return" }, onclick: () => ctx.act(ret) }, t("tf22-reload:table.return"));
  if (!loadArea.confirmReturn) {
    return el("button", { type: "button", class: "action secondary", dataset: { focus: "return" }, onclick: () => { loadArea.confirmReturn = true; ctx.rerender("return-yes"); } }, t("tf22-reload:table.return_ask"));
  }
  return el(
    "span",
    { class: "confirm-box", role: "group", "aria-label": t("tf22-reload:table.confirm_return") },
    el("span", { class: "small" }, `${t("tf22-reload:table.return_confirm")} `),
    el("button", { type: "button", class: "action danger", dataset: { legal: "return", focus: "return-yes" }, onclick: () => ctx.act(ret) }, t("tf22-reload:table.return_yes")),
    el("button", { type: "button", class: "action secondary", dataset: { focus: "return" }, onclick: () => { loadArea.confirmReturn = false; ctx.rerender("return"); } }, t("tf22-reload:table.no")),
  );
}
loadArea.confirmReturn = false;

/** A column heading, shortened on a phone (the long form stays for screen readers). */
function head(long, short = null) {
  if (!short) return el("th", { scope: "col" }, long);
  return el("th", { scope: "col", "aria-label": long }, el("span", { class: "long" }, long), el("span", { class: "short", "aria-hidden": "true" }, short));
}

function scoreTable(view, ctx) {
  const T = (k) => t(`tf22-reload:table.${k}`);
  const headRow = el("tr", {}, head(T("player")), head(T("round_1"), T("r1")), head(T("round_2"), T("r2")), head(T("bonus")), head(T("total")), head(T("chips")));
  const rows = view.players.map((p) =>
    el(
      "tr",
      { class: p.seat === ctx.seat ? "me" : "" },
      el("td", {}, seatName(ctx.names[p.seat]) ?? t("tf22-reload:names.seat", { n: p.seat + 1 })),
      el("td", {}, view.round_scores.length >= 1 ? p.scores.round_1 : "–"),
      el("td", {}, view.round_scores.length >= 2 ? p.scores.round_2 : "–"),
      el("td", {}, view.phase === "over" ? p.scores.bonus : "–"),
      el("td", { class: "total" }, p.scores.total),
      el("td", {}, p.chipcards),
    ),
  );
  const details = view.round_scores.map((round, r) =>
    el(
      "details",
      { class: "round-detail", open: view.phase === "over" && r === view.round_scores.length - 1 },
      el("summary", {}, t("tf22-reload:table.round_detail", { n: r + 1 })),
      el(
        "div",
        { class: "table-scroll" },
        el(
        "table",
        { class: "breakdown" },
        el("tr", {}, el("th", {}, ""), COLOURS.map((c) => el("th", {}, el("span", { class: `dot ${c}` }), colourName(c))), el("th", {}, T("containers")), el("th", {}, T("total_small"))),
        round.map((p, s) =>
          el(
            "tr",
            {},
            el("td", {}, seatName(ctx.names[s]) ?? t("tf22-reload:names.seat", { n: s + 1 })),
            p.colours.map((c) => {
              const standing = t(`tf22-reload:names.standing.${c.standing}`);
              return el("td", { title: t("tf22-reload:table.standing_title", { standing, cards: c.cards }) }, c.standing === "none" ? "–" : t("tf22-reload:table.standing", { points: c.points, standing }));
            }),
            el("td", {}, p.containers),
            el("td", { class: "total" }, p.total),
          ),
        ),
      ),
      ),
    ),
  );
  return el("section", { class: "scores panel" }, el("h3", {}, T("scores")), el("div", { class: "table-scroll" }, el("table", { class: "score-table" }, el("thead", {}, headRow), el("tbody", {}, rows))), details);
}

// What the page keeps between drawings: keyboard focus, the explained piece, the last view (animations).
const ui = { inBoard: false, explain: null, prevView: null, prevKey: null, anim: null };

/** What changed since the last view drawn: revealed cards, a reveal, containers loaded (for animations). */
function changes(prev, view) {
  const out = { flip: false, reveal: false, loaded: new Set() };
  if (!prev) return out;
  if (view.revealed.length && (prev.battle !== view.battle || prev.round !== view.round)) out.flip = true;
  const pb = prev.last_battle;
  const nb = view.last_battle;
  if (nb && (!pb || pb.battle !== nb.battle || pb.round !== nb.round)) out.reveal = true;
  view.players.forEach((p, s) => {
    const q = prev.players[s];
    if (!q) return;
    p.ship.forEach((stack, i) => {
      const old = q.ship[i] || [];
      if (stack.length && (stack.length > old.length || stack[stack.length - 1] !== old[old.length - 1])) out.loaded.add(`${p.seat}:${i}`);
    });
  });
  return out;
}

/** The animation speed (live and in replays), kept in this browser; it scales the CSS animations' durations. */
function speedChoice(root) {
  return speedControl({ id: "tf22-speed", key: "tf22-speed", label: t("tf22-reload:table.speed"), onChange: (speed) => applySpeed(root.querySelector(".tf22"), speed) });
}

function helpPanel() {
  return el(
    "details",
    { class: "panel help-panel", id: "tf22-help" },
    el("summary", {}, t("tf22-reload:table.help")),
    el("p", {}, t("tf22-reload:table.help_1")),
    el("p", {}, t("tf22-reload:table.help_2")),
    el("p", {}, t("tf22-reload:table.help_3")),
    el("p", {}, t("tf22-reload:table.help_4")),
    el("p", {}, t("tf22-reload:table.help_5")),
    el("p", {}, t("tf22-reload:table.help_6")),
    el("p", {}, el("a", { href: "/static/games/tf22-reload-rules.html", target: "_blank", rel: "noopener", id: "tf22-rules-link" }, t("tf22-reload:table.rules_link"))),
  );
}

function focusAfter(root, key) {
  let node = null;
  if (key === "r-first") node = root.querySelector(".r-panel button");
  else if (key) node = root.querySelector(`[data-focus="${CSS.escape(key)}"]:not([disabled])`);
  node = node || root.querySelector(".load-area [data-legal], .hand [data-legal]:not([disabled]), [data-rcard]:not([disabled]), .end-focus");
  if (node) node.focus({ preventScroll: false });
}

function listen(root) {
  if (root.dataset.tf22Listens) return;
  root.dataset.tf22Listens = "1";
  root.addEventListener("click", (ev) => {
    root.querySelector(".tf22")?.classList.add("skip-anim"); // a tap ends the running animations
    const piece = ev.target.closest && ev.target.closest("[data-explain]");
    if (!piece || !root.contains(piece)) return;
    ui.explain = piece.getAttribute("data-explain");
    const line = root.querySelector("#tf22-explain");
    if (line) line.textContent = ui.explain;
  });
  root.addEventListener("keydown", (ev) => {
    if (ev.key !== "Escape") return;
    root.querySelector(".tf22")?.classList.add("skip-anim");
    if (handArea.rOpen) {
      handArea.rOpen = false;
      root.tf22Rerender?.("rcard");
    }
  });
}

function render(root, ctx, request = null) {
  const view = ctx.view;
  const rerender = (key = null) => render(root, ctx, key);
  const c = { ...ctx, rerender };
  listen(root);
  root.tf22Rerender = rerender;
  if (!(view.phase === "choose" && ctx.legal.some((a) => a.type.startsWith("r_")))) handArea.rOpen = false;
  const key = `${ctx.tableId ?? "replay"}:${ctx.seat}`;
  const fresh = view !== ui.prevView;
  if (fresh) {
    ui.anim = ui.prevKey === key ? changes(ui.prevView, view) : changes(null, view);
    if (view.phase !== "load") loadArea.confirmReturn = false;
  }
  const active = document.activeElement;
  const inRoot = !!active && active !== root && root.contains(active);
  if (inRoot) ui.inBoard = true;
  else if (active && active !== document.body) ui.inBoard = false;
  const focusKey = request || (inRoot ? active.dataset.focus : null);
  const me = ctx.seat !== null && ctx.seat !== undefined ? view.players[ctx.seat] : null;
  const players = view.players.slice();
  if (me) players.sort((a, b) => (a.seat === me.seat ? -1 : b.seat === me.seat ? 1 : a.seat - b.seat));
  const anim = fresh ? ui.anim : { flip: false, reveal: false, loaded: new Set() };
  c.anim = anim;
  root.replaceChildren(
    el(
      "div",
      { class: `tf22${anim.flip ? " anim-flip" : ""}${anim.reveal ? " anim-reveal" : ""}`, style: `--anim-scale: ${scaleFor(readSpeed("tf22-speed"))}` },
      stockBar(view),
      el("p", { class: "explain small", id: "tf22-explain", "aria-live": "polite" }, ui.explain ?? t("tf22-reload:explain.hint")),
      el("div", { class: "tf22-top" }, battleArea(view, ctx.names), revealArea(view, c)),
      loadArea(view, c),
      me && !ctx.replay && view.phase !== "over" ? handArea(view, c, me) : null,
      el("div", { class: "players" }, players.map((p) => playerPanel(p, view, c))),
      scoreTable(view, c),
      speedChoice(root),
      helpPanel(),
    ),
  );
  ui.prevView = view;
  ui.prevKey = key;
  if (!ctx.replay && ui.inBoard && (inRoot || !active || active === document.body)) focusAfter(root, focusKey);
}

function renderResult(result, view, names) {
  const d = result.details || {};
  const order = result.ranks.map((rank, seat) => ({ rank, seat })).sort((a, b) => a.rank - b.rank || a.seat - b.seat);
  const sharedScore = new Set();
  result.scores.forEach((s, i) => result.scores.forEach((t, j) => i !== j && s === t && sharedScore.add(i)));
  const rows = order.map(({ rank, seat }) =>
    el(
      "tr",
      { class: result.winners.includes(seat) ? "winner" : "" },
      el("td", {}, rank === 1 ? "★ 1" : rank),
      el("td", {}, seatName(names[seat]) ?? t("tf22-reload:names.seat", { n: seat + 1 })),
      el("td", {}, d.round_1 ? d.round_1[seat] : ""),
      el("td", {}, d.round_2 ? d.round_2[seat] : ""),
      el("td", {}, d.bonus ? d.bonus[seat] : ""),
      el("td", { class: "total" }, result.scores[seat]),
      el("td", { class: sharedScore.has(seat) ? "tiebreak" : "" }, d.chipcards ? d.chipcards[seat] : ""),
    ),
  );
  const notes = [];
  if (sharedScore.size) {
    notes.push(el("p", { class: "small" }, t("tf22-reload:table.tie_note")));
  }
  return el(
    "div",
    { class: "tf22-result" },
    el(
      "div",
      { class: "table-scroll" },
      el(
        "table",
        { class: "result" },
        el("thead", {}, el("tr", {}, [["place", "place_short"], ["player"], ["round_1", "r1"], ["round_2", "r2"], ["bonus"], ["total"], ["chipcards", "chips"]].map(([l, sh]) => head(t(`tf22-reload:table.${l}`), sh ? t(`tf22-reload:table.${sh}`) : null)))),
        el("tbody", {}, rows),
      ),
    ),
    el("p", { class: "muted small" }, t("tf22-reload:table.tie_breaks")),
    notes,
  );
}

export default { render, describeEvent, describeAction, renderResult };

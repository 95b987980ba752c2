// TF22: RELOAD! table: the battle (two container cards and the activated container), the hand with the
// R uses, the reveal, spaceships (legal slots highlighted while loading), chipcards, scores and the log.
// It draws the view the server sent and offers exactly the legal actions it sent: no rules here.

import { el, svg } from "/static/js/api.js";

if (!document.querySelector("link[data-play-css]") && !document.querySelector('link[href="/static/css/play.css"]')) {
  document.head.append(el("link", { rel: "stylesheet", href: "/static/css/play.css", dataset: { playCss: "1" } }));
}

const COLOURS = ["yellow", "red", "blue", "green"]; // stacking order, bottom to top (from the view's data)
const FILL = { yellow: "#f4c430", red: "#d9473f", blue: "#3f7fd8", green: "#3ea85a" };
const DARK = { yellow: "#7a5c00", red: "#8f2520", blue: "#23508f", green: "#21693a" };
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const sorted = (cards) => cards.slice().sort((a, b) => a - b);
const R_COST = { r_take_back: 0, r_discard: 1, r_reload: 2, r_buy: 3 };
const R_LETTER = { r_take_back: "a", r_discard: "b", r_reload: "c", r_buy: "d" };

// -- what each piece is (tap a piece: its explanation shows under the stock bar) ---------------------

const EXPLAIN = {
  card: (c, v) => `${cap(c)} container card, value ${v}: the battle's winner takes it. When a round is scored, the player with strictly the most ${c} containers on their ship scores its value; others with at least one ${c} container score half (rounded down).`,
  activated: (c) => `The activated ${c} container: the battle's winner may load it on their ship (or move a ${c} container instead, or return it).`,
  crate: (c, slot) => `A ${c} container on slot ${slot + 1}: 1 point in each round, and ${c} containers decide who has the majority of ${c}. Stacks grow yellow, red, blue, green from the bottom; a full four-colour stack scores 3 bonus points at the end.`,
  chips: (n) => `${n} chipcard${n === 1 ? "" : "s"}: one for each tie in a battle. They pay for the R card's uses (b 1, c 2, d 3) and break equal totals at the end.`,
  hand: "RCU cards 1 to 7 and the R card: greyed cards are played this round (the R card's use a takes them back). The highest card wins a battle, but a single 1 beats every 7 and equal cards tie each other out.",
  pile: "Container cards this player won, by colour, with their sum: they score at the end of each round if the player has containers of that colour.",
  stock: (c, n) => `${n} ${c} container${n === 1 ? "" : "s"} left in the common stock.`,
  deck: (n) => `${n} container cards left in the drawing stack: two are revealed before each battle.`,
  chipStock: (n) => `${n} chipcards left in the common stock.`,
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
  return svg("svg", { class: "icon-crate", viewBox: "0 0 48 24", width: size, height: size / 2, role: "img", "aria-label": `${colour} container` }, crate(colour, 2, 2, 44, 20));
}

function containerCard(card, big = true) {
  const [colour, value] = card;
  const w = big ? 84 : 34;
  const h = big ? 118 : 48;
  return svg(
    "svg",
    { class: `cc-card ${big ? "big" : "small"}`, viewBox: `0 0 ${w} ${h}`, width: w, height: h, role: "img", "aria-label": `${colour} container card, value ${value}`, ...explainable(EXPLAIN.card(colour, value)) },
    svg("rect", { x: 1.5, y: 1.5, width: w - 3, height: h - 3, rx: big ? 8 : 4, fill: FILL[colour], stroke: DARK[colour], "stroke-width": 3 }),
    svg("circle", { cx: w / 2, cy: h / 2 - (big ? 6 : 0), r: big ? 26 : 12, fill: "#fff", opacity: 0.92 }),
    svg("text", { x: w / 2, y: h / 2 - (big ? 6 : 0) + (big ? 12 : 6), "text-anchor": "middle", class: big ? "cc-value" : "cc-value-small", fill: DARK[colour] }, value),
    big ? svg("text", { x: w / 2, y: h - 12, "text-anchor": "middle", class: "cc-name" }, colour.toUpperCase()) : null,
  );
}

function chipcards(n) {
  const shown = Math.min(n, 8);
  const chips = [];
  for (let i = 0; i < shown; i++) chips.push(svg("rect", { x: 2 + i * 7, y: 2, width: 16, height: 22, rx: 3, class: "chip" }));
  return el(
    "span",
    { class: "chips", title: `${n} chipcard${n === 1 ? "" : "s"} (tie currency)`, ...explainable(EXPLAIN.chips(n)) },
    n ? svg("svg", { viewBox: `0 0 ${shown * 7 + 14} 26`, width: shown * 7 + 14, height: 26 }, chips) : null,
    el("span", { class: "chip-count" }, `${n} chip${n === 1 ? "" : "s"}`),
  );
}

// -- labels ---------------------------------------------------------------------------------------

function slotName(i) {
  return `slot ${i + 1}`;
}

function describeAction(a) {
  switch (a.type) {
    case "play":
      return `RCU-${a.value}`;
    case "r_take_back":
      return "R a: take your played RCU cards back (free)";
    case "r_discard":
      return `R b: discard the top container of ${slotName(a.slot)} (1 chip)`;
    case "r_reload":
      return `R c: move the top container of ${slotName(a.from_slot)} to ${slotName(a.to_slot)} (2 chips)`;
    case "r_buy":
      return `R d: buy a ${a.colour} container onto ${slotName(a.slot)} (3 chips)`;
    case "load":
      return `load it on ${slotName(a.slot)}`;
    case "reload":
      return `reload instead: move the top container of ${slotName(a.from_slot)} to ${slotName(a.to_slot)}`;
    case "return":
      return "return it to the stock";
    default:
      return a.type;
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
      return "takes the played cards back";
    case "r_discard":
      return `discards from ${slotName(a.slot)}`;
    case "r_reload":
      return `moves ${slotName(a.from_slot)} → ${slotName(a.to_slot)}`;
    case "r_buy":
      return `buys ${a.colour} onto ${slotName(a.slot)}`;
    default:
      return "";
  }
}

function cardText(card) {
  return `${cap(card[0])} ${card[1]}`;
}

function describeEvent(e, names, seat) {
  const who = (s) => (s === seat ? `${names[s] ?? `Seat ${s + 1}`} (you)` : names[s] ?? `Seat ${s + 1}`);
  switch (e.type) {
    case "round_start":
      return `Round ${e.round} begins.`;
    case "activate":
      return `Battle ${e.battle}: ${e.cards.map(cardText).join(" and ")} are revealed: ${e.container ? `a ${e.colour} container is activated` : `no ${e.colour} container left in the stock`}.`;
    case "chose":
      return `${who(e.seat)} has chosen.`;
    case "your_choice":
      return `You chose ${describeAction(e.choice)} (secret until everyone has chosen).`;
    case "reveal":
      return `Reveal: ${e.choices.map((c, s) => `${names[s] ?? s} ${c.type === "play" ? `RCU-${c.value}` : `R (${R_LETTER[c.type]})`}`).join(", ")}.`;
    case "r_take_back":
      return `${who(e.seat)} uses R: takes back ${e.cards.length ? sorted(e.cards).join(", ") : "nothing"}.`;
    case "r_discard":
      return `${who(e.seat)} pays 1 chip: discards a ${e.colour} container from ${slotName(e.slot)}.`;
    case "r_reload":
      return `${who(e.seat)} pays 2 chips: moves a ${e.colour} container from ${slotName(e.from_slot)} to ${slotName(e.to_slot)}.`;
    case "r_buy":
      return `${who(e.seat)} pays 3 chips: buys a ${e.colour} container onto ${slotName(e.slot)}.`;
    case "r_buy_cancelled":
      return `${who(e.seat)} cannot buy a ${e.colour} container: none left (nothing paid).`;
    case "chipcard":
      return `${who(e.seat)} gets a chipcard for the tie.`;
    case "chipcard_stock_empty":
      return `${who(e.seat)} tied, but no chipcards are left.`;
    case "battle": {
      const parts = [];
      if (e.neutralized.length) parts.push(`RCU-1 neutralizes ${e.neutralized.map(who).join(", ")}`);
      if (e.tied.length) parts.push(`tie: ${e.tied.map(who).join(", ")}`);
      parts.push(e.winner === null ? "absolute tie: nobody wins" : `${who(e.winner)} wins the battle`);
      return `${parts.join("; ")}.`;
    }
    case "set_aside":
      return `The cards ${e.cards.map(cardText).join(" and ")} are set aside for this round.`;
    case "won_cards":
      return `${who(e.seat)} takes ${e.cards.map(cardText).join(" and ")}.`;
    case "load":
      return `${who(e.seat)} loads the ${e.colour} container on ${slotName(e.slot)}.`;
    case "reload":
      return `${who(e.seat)} reloads a ${e.colour} container from ${slotName(e.from_slot)} to ${slotName(e.to_slot)}.`;
    case "container_returned":
      return `The ${e.colour} container goes back to the stock.`;
    case "round_scored":
      return `Round ${e.round} scored: ${e.scores.map((p, s) => `${names[s] ?? s} ${p.total}`).join(", ")}.`;
    case "game_over":
      return `Game over: ${e.result.winners.map(who).join(" and ")} ${e.result.winners.length > 1 ? "share the victory" : "wins"}.`;
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
    stack.forEach((colour, level) => g.append(crate(colour, x, floor - (level + 1) * (ch + 3), cw, ch, { class: `crate ${colour}${dropped && level === stack.length - 1 ? " drop-in" : ""}`, role: "img", "aria-label": `${colour} container`, ...explainable(EXPLAIN.crate(colour, i)) })));
    if (action) {
      const level = stack.length;
      g.append(crate(view.activated, x, floor - (level + 1) * (ch + 3), cw, ch, { class: "crate ghost" }));
      g.addEventListener("click", () => ctx.act(action));
      g.setAttribute("role", "button");
      g.setAttribute("tabindex", "0");
      g.setAttribute("aria-label", `load the ${view.activated} container on slot ${i + 1}`);
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
  const name = ctx.names[player.seat] ?? `Seat ${player.seat + 1}`;
  const contents = player.ship.map((st, i) => `slot ${i + 1}: ${st.length ? st.join(", ") : "empty"}`).join("; ");
  return svg("svg", { class: "ship", viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: loadHere.size ? "group" : "img", "aria-label": `${name}'s spaceship: ${contents}` }, parts);
}

function ccPile(cards) {
  if (!cards.length) return el("span", { class: "muted small" }, "no container cards yet");
  const by = {};
  for (const [c, v] of cards) (by[c] = by[c] || []).push(v);
  return el(
    "div",
    { class: "cc-pile" },
    COLOURS.filter((c) => by[c]).map((c) =>
      el("span", { class: `cc-group ${c}`, title: `${c} container cards: ${by[c].join(", ")}`, ...explainable(`${EXPLAIN.pile} ${cap(c)}: ${sorted(by[c]).join(", ")}.`) }, el("span", { class: `dot ${c}` }), sorted(by[c]).join(" "), el("small", {}, ` Σ${by[c].reduce((a, b) => a + b, 0)}`)),
    ),
  );
}

function handCards(player) {
  const all = [1, 2, 3, 4, 5, 6, 7];
  return el(
    "div",
    { class: "mini-hand", title: "RCU cards in hand (played cards are greyed out)", role: "img", "aria-label": `RCU cards in hand: ${player.hand.length ? sorted(player.hand).join(", ") : "none"}, and R`, ...explainable(EXPLAIN.hand) },
    all.map((v) => el("span", { class: `mini-card${player.hand.includes(v) ? "" : " played"}`, "aria-hidden": "true" }, v)),
    el("span", { class: "mini-card r" }, "R"),
  );
}

function playerPanel(player, view, ctx) {
  const mine = ctx.seat === player.seat;
  const name = ctx.names[player.seat] ?? `Seat ${player.seat + 1}`;
  let status = "";
  if (view.phase === "choose") status = player.has_chosen ? "has chosen" : "choosing…";
  if (view.phase === "load" && view.winner === player.seat) status = "won: loading…";
  const isWinner = view.last_battle && view.last_battle.winner === player.seat;
  const leads = view.phase === "over" && player.scores.total === Math.max(...view.players.map((p) => p.scores.total));
  return el(
    "section",
    { class: `player${mine ? " me" : ""}${view.to_act.includes(player.seat) ? " to-act" : ""}${leads ? " winner" : ""}`, dataset: { seat: player.seat } },
    el(
      "header",
      {},
      el("h3", {}, name, mine ? el("span", { class: "you" }, " (you)") : null),
      status ? el("span", { class: `pstatus ${player.has_chosen ? "done" : ""}` }, status) : null,
      el("span", { class: "score-pill", title: "total score" }, `${player.scores.total} pts`),
    ),
    ship(player, view, ctx, mine),
    el("div", { class: "player-row" }, chipcards(player.chipcards), handCards(player)),
    el("div", { class: "player-row" }, ccPile(player.cc_pile)),
    isWinner && view.phase !== "over" ? el("div", { class: "small muted" }, "won the last battle") : null,
  );
}

function battleArea(view, names) {
  const parts = [];
  if (view.phase === "over") {
    const best = Math.max(...view.players.map((p) => p.scores.total));
    const leaders = view.players.filter((p) => p.scores.total === best).map((p) => names[p.seat] ?? `Seat ${p.seat + 1}`);
    parts.push(
      el(
        "div",
        { class: "battle-empty" },
        el("p", {}, `All ${view.battles_per_round * 2} battles are fought and both rounds are scored.`),
        el("p", { class: "final-leader" }, `Highest total: ${best} points (${leaders.join(", ")}).`),
        leaders.length > 1 ? el("p", { class: "small" }, "Equal totals: most chipcards wins, then fewest bonus points.") : null,
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
          ? svg("svg", { viewBox: "0 0 100 60", width: 110, height: 66, role: "img", "aria-label": `activated ${view.activated} container`, ...explainable(EXPLAIN.activated(view.activated)) }, crate(view.activated, 4, 8, 92, 46))
          : el("div", { class: "no-container" }, `no ${view.battle_colour} container left`),
        el("div", { class: "small" }, view.activated ? `${cap(view.activated)} container activated` : "cards only"),
      ),
    );
  }
  return el(
    "section",
    { class: "battle panel" },
    el("h3", {}, view.phase === "over" ? "Final position" : `Round ${view.round} · Battle ${view.battle} of ${view.battles_per_round}`),
    el("div", { class: "battle-row" }, parts),
  );
}

function stockBar(view) {
  return el(
    "div",
    { class: "stock-bar" },
    el("span", { title: "container cards left in the drawing stack", ...explainable(EXPLAIN.deck(view.deck_count)) }, `Stack: ${view.deck_count} cards`),
    el("span", { class: "stock" }, "Stock: ", COLOURS.map((c) => el("span", { class: "stock-item", title: `${view.stock[c]} ${c} containers in the common stock`, ...explainable(EXPLAIN.stock(c, view.stock[c])) }, containerIcon(c, 26), ` ${view.stock[c]}`))),
    el("span", { title: "chipcards left in the common stock", ...explainable(EXPLAIN.chipStock(view.chipcard_stock)) }, `Chipcards in stock: ${view.chipcard_stock}`),
    view.set_aside.length ? el("span", { title: "set aside after absolute ties" }, `Set aside: ${view.set_aside.map(cardText).join(", ")}`) : null,
  );
}

function revealArea(view, ctx) {
  const lb = view.last_battle;
  if (!lb) return el("section", { class: "reveal panel" }, el("h3", {}, "Reveal"), el("p", { class: "muted small" }, "Everyone chooses a card in secret; the choices are shown here together."));
  const rows = lb.choices.map((choice, s) => {
    const tags = [];
    if (lb.winner === s) tags.push(el("span", { class: "tag win" }, "wins"));
    if (lb.tied.includes(s)) tags.push(el("span", { class: "tag tie" }, "tie +1 chip"));
    if (lb.neutralized.includes(s)) tags.push(el("span", { class: "tag neutral" }, "neutralized"));
    const isR = choice.type !== "play";
    return el(
      "div",
      { class: `reveal-item${lb.winner === s ? " winner" : ""}`, style: `--i:${s}` },
      el("span", { class: `rcu ${isR ? "r" : ""}` }, shortChoice(choice)),
      el("span", { class: "reveal-name" }, ctx.names[s] ?? `Seat ${s + 1}`, isR ? el("small", {}, ` R ${R_LETTER[choice.type]}: ${rUseLabel(choice)}`) : null),
      ...tags,
    );
  });
  return el(
    "section",
    { class: "reveal panel" },
    el("h3", {}, `Reveal of battle ${lb.battle}${lb.round !== view.round ? ` (round ${lb.round})` : ""}`),
    el("div", { class: "reveal-cards" }, lb.cards.map((c) => containerCard(c, false)), el("span", { class: "small muted" }, lb.winner === null ? "absolute tie: cards set aside" : "")),
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
        "aria-label": inHand ? `play RCU-${v}` : `RCU-${v} already played`,
      },
      el("span", { class: "v" }, v),
      v === 1 ? el("small", {}, "beats 7") : v === 7 ? el("small", {}, "lost to a lone 1") : null,
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
    prompt = el("p", { class: "prompt" }, `Your secret choice: ${describeAction(me.choice)}. It is revealed when everyone has chosen; until then Undo takes it back.`);
  } else if (choosing) {
    prompt = el("p", { class: "prompt mine" }, "Choose a card for this battle (the highest wins; R instead gives you one of its four uses). Keys: Tab to a card, Enter to play it.");
  } else {
    prompt = el("p", { class: "prompt muted" }, "Your hand");
  }
  return el("section", { class: "hand-area panel" }, prompt, ...parts);
}
handArea.rOpen = false;

function rPanel(rActions, ctx, player) {
  const groups = [
    ["r_take_back", "a · Take back your played RCU cards (free)"],
    ["r_discard", "b · Discard a container from the top of a stack (1 chipcard)"],
    ["r_reload", "c · Move a container from the top of a stack to another slot (2 chipcards)"],
    ["r_buy", "d · Buy a container from the stock and load it (3 chipcards)"],
  ];
  return el(
    "div",
    { class: "r-panel" },
    el("p", { class: "small" }, `You have ${player.chipcards} chipcard${player.chipcards === 1 ? "" : "s"}. The R card comes back to your hand whatever you choose.`),
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
                  a.type === "r_take_back" ? `take back ${player.discard.length ? sorted(player.discard).join(", ") : "(nothing played yet)"}` : describeAction(a).replace(/^R [a-d]: /, "").replace(/ \(\d chips?\)$/, ""),
                ),
              ),
            )
          : el("p", { class: "muted small" }, affordable ? "not possible with your ship now" : "not enough chipcards"),
      );
    }),
  );
}

function loadArea(view, ctx) {
  if (view.phase !== "load") return null;
  const name = ctx.names[view.winner] ?? `Seat ${view.winner + 1}`;
  if (ctx.seat !== view.winner || !ctx.legal.length) {
    return el("section", { class: "load-area panel" }, el("p", { class: "prompt" }, `${name} won the battle and decides what to do with the ${view.activated ?? view.battle_colour} container.`));
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
      view.activated ? `You won! Load the ${view.activated} container: click a highlighted slot on your ship` : `You won the cards; no ${view.battle_colour} container was left to load`,
      loads.length ? "" : " (no slot takes it)",
      ".",
    ),
    el(
      "div",
      { class: "action-list" },
      loads.map((a) => el("button", { type: "button", class: "action", dataset: { legal: "load", focus: `load-btn:${a.slot}` }, onclick: () => ctx.act(a) }, containerIcon(view.activated, 22), ` ${describeAction(a)}`)),
      reloads.map((a, k) => el("button", { type: "button", class: "action secondary", dataset: { legal: "reload", focus: `reload:${k}` }, onclick: () => ctx.act(a) }, describeAction(a))),
      ret ? returnButton(ret, loads.length + reloads.length > 0, ctx) : null,
    ),
    el("p", { class: "small muted" }, "This decision is final: it reveals the next two container cards, so it cannot be undone."),
  );
}

/** Returning a won container gives it up: with other choices open, it asks once more. */
function returnButton(ret, others, ctx) {
  if (!others) return el("button", { type: "button", class: "action secondary", dataset: { legal: "return", focus: "return" }, onclick: () => ctx.act(ret) }, "Return the container to the stock");
  if (!loadArea.confirmReturn) {
    return el("button", { type: "button", class: "action secondary", dataset: { focus: "return" }, onclick: () => { loadArea.confirmReturn = true; ctx.rerender("return-yes"); } }, "Return the container to the stock…");
  }
  return el(
    "span",
    { class: "confirm-box", role: "group", "aria-label": "confirm the return" },
    el("span", { class: "small" }, "Give the container back to the stock (no points from it)? "),
    el("button", { type: "button", class: "action danger", dataset: { legal: "return", focus: "return-yes" }, onclick: () => ctx.act(ret) }, "Yes, return it"),
    el("button", { type: "button", class: "action secondary", dataset: { focus: "return" }, onclick: () => { loadArea.confirmReturn = false; ctx.rerender("return"); } }, "No"),
  );
}
loadArea.confirmReturn = false;

/** A column heading, shortened on a phone (the long form stays for screen readers). */
function head(long, short = null) {
  if (!short) return el("th", { scope: "col" }, long);
  return el("th", { scope: "col", "aria-label": long }, el("span", { class: "long" }, long), el("span", { class: "short", "aria-hidden": "true" }, short));
}

function scoreTable(view, ctx) {
  const headRow = el("tr", {}, head("Player"), head("Round 1", "R1"), head("Round 2", "R2"), head("Bonus"), head("Total"), head("Chips"));
  const rows = view.players.map((p) =>
    el(
      "tr",
      { class: p.seat === ctx.seat ? "me" : "" },
      el("td", {}, ctx.names[p.seat] ?? p.seat),
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
      el("summary", {}, `Round ${r + 1} in detail`),
      el(
        "div",
        { class: "table-scroll" },
        el(
        "table",
        { class: "breakdown" },
        el("tr", {}, el("th", {}, ""), COLOURS.map((c) => el("th", {}, el("span", { class: `dot ${c}` }), c)), el("th", {}, "containers"), el("th", {}, "total")),
        round.map((p, s) =>
          el(
            "tr",
            {},
            el("td", {}, ctx.names[s] ?? s),
            p.colours.map((c) => el("td", { title: `${c.standing}: cards worth ${c.cards}` }, c.standing === "none" ? "–" : `${c.points} (${c.standing})`)),
            el("td", {}, p.containers),
            el("td", { class: "total" }, p.total),
          ),
        ),
      ),
      ),
    ),
  );
  return el("section", { class: "scores panel" }, el("h3", {}, "Scores"), el("div", { class: "table-scroll" }, el("table", { class: "score-table" }, el("thead", {}, headRow), el("tbody", {}, rows))), details);
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

function helpPanel() {
  return el(
    "details",
    { class: "panel help-panel", id: "tf22-help" },
    el("summary", {}, "Help: how to play"),
    el("p", {}, "Before each battle two container cards are revealed; their colours decide which container is activated (green beats blue and red, blue beats red and yellow, red beats yellow, yellow beats green; two of a colour: that colour)."),
    el("p", {}, "Everyone chooses a card in secret: a number 1 to 7, or the R card with one of its uses. When all have chosen, the choices are revealed together. Equal numbers tie each other out (each gets a chipcard); a single 1 beats every 7; the highest number left wins both container cards and may load the activated container on their ship, move a container of that colour instead, or return it."),
    el("p", {}, "The R card (it always comes back): a) take your played cards back, free; b) discard a top container, 1 chipcard; c) move a top container to another slot, 2 chipcards; d) buy a container of any colour onto a slot, 3 chipcards."),
    el("p", {}, "Stacks grow yellow, red, blue, green from the bottom, never two of a colour. After each round of 14 battles, per colour: the player with strictly the most containers of it scores their cards of that colour, the others with some score half; every container scores 1. A full four-colour stack scores 3 bonus points at the end. Equal totals: most chipcards, then fewest bonus points."),
    el("p", {}, "Undo takes back your secret choice until everyone has chosen; a load decision is final. Tap any card, container or chip to see what it is. Keys: Tab moves between cards and actions, Enter or Space plays, Escape closes the R card."),
    el("p", {}, el("a", { href: "/static/games/tf22-reload-rules.html", target: "_blank", rel: "noopener", id: "tf22-rules-link" }, "The full rules page")),
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
      { class: `tf22${anim.flip ? " anim-flip" : ""}${anim.reveal ? " anim-reveal" : ""}` },
      stockBar(view),
      el("p", { class: "explain small", id: "tf22-explain", "aria-live": "polite" }, ui.explain ?? "Tap any card, container or chip to see what it is."),
      el("div", { class: "tf22-top" }, battleArea(view, ctx.names), revealArea(view, c)),
      loadArea(view, c),
      me && !ctx.replay && view.phase !== "over" ? handArea(view, c, me) : null,
      el("div", { class: "players" }, players.map((p) => playerPanel(p, view, c))),
      scoreTable(view, c),
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
      el("td", {}, names[seat] ?? seat),
      el("td", {}, d.round_1 ? d.round_1[seat] : ""),
      el("td", {}, d.round_2 ? d.round_2[seat] : ""),
      el("td", {}, d.bonus ? d.bonus[seat] : ""),
      el("td", { class: "total" }, result.scores[seat]),
      el("td", { class: sharedScore.has(seat) ? "tiebreak" : "" }, d.chipcards ? d.chipcards[seat] : ""),
    ),
  );
  const notes = [];
  if (sharedScore.size) {
    notes.push(el("p", { class: "small" }, "Equal totals are broken by the most chipcards, then the fewest bonus points; if still equal, the victory is shared."));
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
        el("thead", {}, el("tr", {}, [["Place", "#"], ["Player"], ["Round 1", "R1"], ["Round 2", "R2"], ["Bonus"], ["Total"], ["Chipcards", "Chips"]].map((h) => head(...h)))),
        el("tbody", {}, rows),
      ),
    ),
    el("p", { class: "muted small" }, `Tie-breaks: ${d.tie_breaks || "total, then most chipcards, then fewest bonus points"}.`),
    notes,
  );
}

export default { render, describeEvent, describeAction, renderResult };

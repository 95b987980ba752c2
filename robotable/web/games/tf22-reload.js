// TF22: RELOAD! table: the battle (two container cards and the activated container), the hand with the
// R uses, the reveal, spaceships (legal slots highlighted while loading), chipcards, scores and the log.
// It draws the view the server sent and offers exactly the legal actions it sent: no rules here.

import { el, svg } from "/static/js/api.js";

const COLOURS = ["yellow", "red", "blue", "green"]; // stacking order, bottom to top (from the view's data)
const FILL = { yellow: "#f4c430", red: "#d9473f", blue: "#3f7fd8", green: "#3ea85a" };
const DARK = { yellow: "#a8820d", red: "#8f2520", blue: "#23508f", green: "#21693a" };
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const R_COST = { r_take_back: 0, r_discard: 1, r_reload: 2, r_buy: 3 };
const R_LETTER = { r_take_back: "a", r_discard: "b", r_reload: "c", r_buy: "d" };

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
    { class: `cc-card ${big ? "big" : "small"}`, viewBox: `0 0 ${w} ${h}`, width: w, height: h, role: "img", "aria-label": `${colour} container card, value ${value}` },
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
    { class: "chips", title: `${n} chipcard${n === 1 ? "" : "s"} (tie currency)` },
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
      return `${who(e.seat)} uses R: takes back ${e.cards.length ? e.cards.join(", ") : "nothing"}.`;
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
    stack.forEach((colour, level) => g.append(crate(colour, x, floor - (level + 1) * (ch + 3), cw, ch)));
    if (action) {
      const level = stack.length;
      g.append(crate(view.activated, x, floor - (level + 1) * (ch + 3), cw, ch, { class: "crate ghost" }));
      g.addEventListener("click", () => ctx.act(action));
      g.setAttribute("role", "button");
      g.setAttribute("tabindex", "0");
      g.setAttribute("aria-label", `load the ${view.activated} container on slot ${i + 1}`);
      g.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") ctx.act(action);
      });
    }
    if (stack.length === 4) g.append(svg("text", { x: x + cw / 2, y: 4 + 10, "text-anchor": "middle", class: "full-stack" }, "★ +3"));
    g.append(svg("text", { x: x + cw / 2, y: H - 6, "text-anchor": "middle", class: "slot-label" }, i + 1));
    parts.push(g);
  });
  return svg("svg", { class: "ship", viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img", "aria-label": `${player.seat} spaceship` }, parts);
}

function ccPile(cards) {
  if (!cards.length) return el("span", { class: "muted small" }, "no container cards yet");
  const by = {};
  for (const [c, v] of cards) (by[c] = by[c] || []).push(v);
  return el(
    "div",
    { class: "cc-pile" },
    COLOURS.filter((c) => by[c]).map((c) =>
      el("span", { class: `cc-group ${c}`, title: `${c} container cards: ${by[c].join(", ")}` }, el("span", { class: `dot ${c}` }), by[c].sort().join(" "), el("small", {}, ` Σ${by[c].reduce((a, b) => a + b, 0)}`)),
    ),
  );
}

function handCards(player) {
  const all = [1, 2, 3, 4, 5, 6, 7];
  return el(
    "div",
    { class: "mini-hand", title: "RCU cards in hand (played cards are greyed out)" },
    all.map((v) => el("span", { class: `mini-card${player.hand.includes(v) ? "" : " played"}` }, v)),
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
          ? svg("svg", { viewBox: "0 0 100 60", width: 110, height: 66, role: "img", "aria-label": `activated ${view.activated} container` }, crate(view.activated, 4, 8, 92, 46))
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
    el("span", { title: "container cards left in the drawing stack" }, `Stack: ${view.deck_count} cards`),
    el("span", { class: "stock" }, "Stock: ", COLOURS.map((c) => el("span", { class: "stock-item", title: `${view.stock[c]} ${c} containers in the common stock` }, containerIcon(c, 26), ` ${view.stock[c]}`))),
    el("span", { title: "chipcards left in the common stock" }, `Chipcards in stock: ${view.chipcard_stock}`),
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
      { class: `reveal-item${lb.winner === s ? " winner" : ""}` },
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
        dataset: action ? { legal: "play", value: v } : { value: v },
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
      dataset: { rcard: "1" },
      onclick: () => {
        handArea.rOpen = !handArea.rOpen;
        ctx.rerender();
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
    prompt = el("p", { class: "prompt" }, `Your secret choice: ${describeAction(me.choice)}. It is revealed when everyone has chosen.`);
  } else if (choosing) {
    prompt = el("p", { class: "prompt mine" }, "Choose a card for this battle (the highest wins; R instead gives you one of its four uses).");
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
              options.map((a) =>
                el(
                  "button",
                  { type: "button", class: "action", dataset: { legal: a.type }, onclick: () => ctx.act(a) },
                  a.type === "r_buy" ? containerIcon(a.colour, 22) : null,
                  a.type === "r_take_back" ? `take back ${player.discard.length ? player.discard.join(", ") : "(nothing played yet)"}` : describeAction(a).replace(/^R [a-d]: /, "").replace(/ \(\d chips?\)$/, ""),
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
      loads.map((a) => el("button", { type: "button", class: "action", dataset: { legal: "load" }, onclick: () => ctx.act(a) }, containerIcon(view.activated, 22), ` ${describeAction(a)}`)),
      reloads.map((a) => el("button", { type: "button", class: "action secondary", dataset: { legal: "reload" }, onclick: () => ctx.act(a) }, describeAction(a))),
      ret ? el("button", { type: "button", class: "action secondary", dataset: { legal: "return" }, onclick: () => ctx.act(ret) }, "Return the container to the stock") : null,
    ),
  );
}

function scoreTable(view, ctx) {
  const head = el("tr", {}, el("th", {}, "Player"), el("th", {}, "Round 1"), el("th", {}, "Round 2"), el("th", {}, "Bonus"), el("th", {}, "Total"), el("th", {}, "Chips"));
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
  );
  return el("section", { class: "scores panel" }, el("h3", {}, "Scores"), el("table", { class: "score-table" }, el("thead", {}, head), el("tbody", {}, rows)), details);
}

function render(root, ctx) {
  const view = ctx.view;
  const rerender = () => render(root, ctx);
  const c = { ...ctx, rerender };
  if (!(view.phase === "choose" && ctx.legal.some((a) => a.type.startsWith("r_")))) handArea.rOpen = false;
  const me = ctx.seat !== null && ctx.seat !== undefined ? view.players[ctx.seat] : null;
  const players = view.players.slice();
  if (me) players.sort((a, b) => (a.seat === me.seat ? -1 : b.seat === me.seat ? 1 : a.seat - b.seat));
  root.replaceChildren(
    el(
      "div",
      { class: "tf22" },
      stockBar(view),
      el("div", { class: "tf22-top" }, battleArea(view, ctx.names), revealArea(view, c)),
      loadArea(view, c),
      me && !ctx.replay && view.phase !== "over" ? handArea(view, c, me) : null,
      el("div", { class: "players" }, players.map((p) => playerPanel(p, view, c))),
      scoreTable(view, c),
    ),
  );
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
      "table",
      { class: "result" },
      el("thead", {}, el("tr", {}, ["Place", "Player", "Round 1", "Round 2", "Bonus", "Total", "Chipcards"].map((h) => el("th", {}, h)))),
      el("tbody", {}, rows),
    ),
    el("p", { class: "muted small" }, `Tie-breaks: ${d.tie_breaks || "total, then most chipcards, then fewest bonus points"}.`),
    notes,
  );
}

export default { render, describeEvent, describeAction, renderResult };

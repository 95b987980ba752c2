// The lobby: create a table (game, players, options, seats), list tables grouped (yours, open to join,
// being played, finished), join, watch, replay. Every text comes from the catalogue (docs/i18n.md).

import { ensureAccount } from "/static/js/account.js";
import { api, currentAccount, el, mySeats, rendererFor, setCurrentAccount, toast } from "/static/js/api.js";
import { clockFields } from "/static/js/clockform.js";
import { clockLabel, waitingForPlayers } from "/static/js/turn.js";
import { gameName, has, levelName, loadAllNamespaces, ratedLevelName, ratingTitle, seatName, t } from "/static/js/i18n.js";
import { loadStanding, standingTag } from "/static/js/people-standing.js";

await loadAllNamespaces(); // every game's name and option labels

const state = { games: [], difficulties: [], editor: null, clock: null };

const $ = (id) => document.getElementById(id);

function game() {
  return state.games.find((g) => g.id === $("game-select").value);
}

/** A level's rating in the chosen game (arena games between the bots), or null. */
function levelRating(d) {
  return (d.ratings || {})[$("game-select").value] || null;
}

function difficultyLabel(d) {
  return d.available ? ratedLevelName(d.difficulty, levelRating(d)) : t("app:lobby.difficulty_unavailable", { difficulty: levelName(d.difficulty), agent: levelName(d.agent) });
}

/** An option's label and description in this language (the game's catalogue), else its name and hint. */
function optionText(g, opt) {
  const key = `${g.id}:options.${opt.name}`;
  return {
    label: has(`${key}.label`) ? t(`${key}.label`) : opt.name,
    description: has(`${key}.description`) ? t(`${key}.description`) : opt.description,
  };
}

function renderPlayers() {
  const g = game();
  const select = $("players-select");
  const previous = Number(select.value) || Math.min(3, g.max_players);
  select.replaceChildren();
  for (let n = g.min_players; n <= g.max_players; n++) {
    select.append(el("option", { value: n, selected: n === Math.min(Math.max(previous, g.min_players), g.max_players) }, n));
  }
  $("game-info").textContent = t("app:lobby.game_info", { name: gameName(g.id, g.name), min: g.min_players, max: g.max_players });
  renderOptions();
  renderSeats();
}

function renderOptions() {
  const g = game();
  const box = $("options-fields");
  box.replaceChildren();
  $("options-box").hidden = g.options.length === 0;
  for (const opt of g.options) {
    let input;
    if (opt.choices) {
      const valueName = (c) => (has(`${g.id}:options.${opt.name}.values.${c}`) ? t(`${g.id}:options.${opt.name}.values.${c}`) : String(c));
      input = el("select", { name: opt.name }, opt.choices.map((c) => el("option", { value: JSON.stringify(c), selected: c === opt.default }, valueName(c))));
    } else if (typeof opt.default === "boolean") {
      input = el("input", { type: "checkbox", name: opt.name, checked: opt.default });
    } else if (typeof opt.default === "number") {
      input = el("input", { type: "number", name: opt.name, value: opt.default, min: opt.minimum, max: opt.maximum });
    } else {
      input = el("input", { type: "text", name: opt.name, value: opt.default ?? "" });
    }
    input.dataset.option = opt.name;
    const text = optionText(g, opt);
    input.setAttribute("aria-describedby", `option-help-${opt.name}`);
    box.append(
      el(
        "label",
        { class: "option", dataset: { optionName: opt.name } },
        el("span", { class: "option-label" }, text.label),
        " ",
        input,
        el("span", { class: "muted small option-help", id: `option-help-${opt.name}` }, text.description),
      ),
    );
  }
  addOptionsEditor(g);
}

// A game's renderer may offer an options editor (Twin Tin Bots: place variant tokens on the map).
async function addOptionsEditor(g) {
  state.editor = null;
  const mod = await rendererFor(g.id);
  if (!mod.optionsEditor || game() !== g) return;
  const holder = el("div", { class: "options-editor", id: "options-editor" });
  $("options-fields").append(holder);
  state.editor = mod.optionsEditor(holder, { api, numPlayers: () => Number($("players-select").value), baseOptions: () => readOptions(false) });
}

function renderSeats() {
  const n = Number($("players-select").value);
  const box = $("seats-fields");
  const old = [...box.querySelectorAll(".seat-row")].map((row) => ({
    kind: row.querySelector("[name=kind]").value,
    difficulty: row.querySelector("[name=difficulty]").value,
    name: row.querySelector("[name=name]").value,
  }));
  box.replaceChildren();
  for (let i = 0; i < n; i++) {
    const prev = old[i] || { kind: i === 0 ? "human" : "bot", difficulty: "heuristic", name: "" };
    const kind = el(
      "select",
      { name: "kind", "aria-label": t("app:lobby.seat_kind", { n: i + 1 }) },
      el("option", { value: "human", selected: prev.kind === "human" }, t("app:lobby.kind_human")),
      el("option", { value: "open", selected: prev.kind === "open" }, t("app:lobby.kind_open")),
      el("option", { value: "bot", selected: prev.kind === "bot" }, t("app:lobby.kind_bot")),
    );
    const difficulty = el(
      "select",
      { name: "difficulty", "aria-label": t("app:lobby.seat_difficulty", { n: i + 1 }) },
      state.difficulties.map((d) => el("option", { value: d.difficulty, selected: d.difficulty === prev.difficulty, title: ratingTitle(levelRating(d)) || undefined }, difficultyLabel(d))),
    );
    const name = el("input", { name: "name", type: "text", maxlength: 40, placeholder: t("app:lobby.player_n", { n: i + 1 }), value: prev.name, "aria-label": t("app:lobby.seat_name", { n: i + 1 }) });
    const row = el("div", { class: "seat-row", dataset: { seat: i } }, el("span", { class: "seat-no" }, t("app:seat.name", { n: i + 1 })), kind, difficulty, name);
    const sync = () => {
      difficulty.hidden = kind.value !== "bot";
      name.placeholder = kind.value === "bot" ? t("app:lobby.bot_n", { n: i + 1 }) : t("app:lobby.player_n", { n: i + 1 });
    };
    kind.addEventListener("change", sync);
    sync();
    box.append(row);
  }
}

function readOptions(withEditor = true) {
  const out = {};
  for (const input of $("options-fields").querySelectorAll("[data-option]")) {
    const opt = game().options.find((o) => o.name === input.dataset.option);
    let value;
    if (input.type === "checkbox") value = input.checked;
    else if (input.tagName === "SELECT") value = JSON.parse(input.value);
    else if (input.type === "number") value = Number(input.value);
    else value = input.value;
    if (JSON.stringify(value) !== JSON.stringify(opt.default)) out[opt.name] = value;
  }
  if (withEditor && state.editor) Object.assign(out, state.editor.read());
  return out;
}

async function createTable(event) {
  event.preventDefault();
  const seats = [...$("seats-fields").querySelectorAll(".seat-row")].map((row) => {
    const kind = row.querySelector("[name=kind]").value;
    const spec = { kind };
    const name = row.querySelector("[name=name]").value.trim();
    if (name) spec.name = name;
    if (kind === "bot") spec.difficulty = row.querySelector("[name=difficulty]").value;
    return spec;
  });
  const body = { game: $("game-select").value, num_players: Number($("players-select").value), options: readOptions(), seats, time_control: state.clock.read(), hotseat: $("hotseat").checked, hints: $("hints").checked };
  const minimum = Number($("min-reputation").value);
  if (minimum) body.min_reputation = minimum; // only players with at least this reputation (docs/server.md)
  try {
    await ensureAccount(t("app:lobby.sign_in_to_create"));
  } catch {
    return;
  }
  $("create-button").disabled = true;
  try {
    const created = await api("/api/tables", { method: "POST", body });
    showCreated(created);
    loadTables();
  } catch (err) {
    toast(t("app:lobby.create_failed", { error: err.message }));
  } finally {
    $("create-button").disabled = false;
  }
}

async function showCreated(created) {
  const box = $("created");
  const id = created.table.id;
  const { account } = await currentAccount();
  const mine = mySeats(created.table, account);
  const first = mine.length ? mine[0] : null;
  const seats = Object.keys(created.invites).map(Number);
  const rows = seats.map((seat) => {
    const url = `${location.origin}${created.invites[seat]}`;
    const input = el("input", { type: "text", readonly: true, value: url, class: "link" });
    return el(
      "div",
      { class: "invite" },
      el("span", {}, t("app:lobby.invite_for", { name: seatName(created.table.seats[seat].name), n: seat + 1 })),
      input,
      el("button", { type: "button", onclick: () => navigator.clipboard?.writeText(url).then(() => toast(t("app:lobby.link_copied"), "info")) }, t("app:common.copy")),
    );
  });
  // replaceChildren writes null as the text "null": only the parts there are (issue 17 item 6)
  const parts = [
    el("h3", {}, t("app:lobby.ready", { id })),
    seats.length ? el("p", { class: "small" }, t("app:lobby.invite_help")) : null,
    created.table.hotseat ? el("p", { class: "small" }, t("app:lobby.hotseat_note")) : null,
    ...rows,
    el(
      "div",
      { class: "actions" },
      el("a", { class: "button primary", id: "go-table", href: first === null ? `/table/${id}` : `/table/${id}?seat=${first}` }, first === null ? t("app:lobby.watch_table") : t("app:lobby.go_table")),
    ),
  ];
  box.replaceChildren(...parts.filter(Boolean));
  box.hidden = false;
  box.scrollIntoView({ behavior: "smooth", block: "nearest" });
}

function seatBadge(seat, game) {
  const cls = seat.kind === "bot" || seat.handed_to_bot ? "bot" : seat.kind;
  let bot = "";
  if (seat.kind === "bot" || seat.handed_to_bot) {
    bot = ` · ${t("app:lobby.bot_badge", { agent: ratedLevelName(seat.agent, seat.level_rating) })}`;
    if (seat.agent !== seat.difficulty) bot += ` (${t("app:lobby.bot_asked", { difficulty: levelName(seat.difficulty) })})`;
  }
  const on = seat.connected ? el("span", { class: "online-dot", title: t("app:lobby.online"), "aria-label": t("app:lobby.online") }, " ●") : null;
  const standing = seat.kind === "human" && !seat.handed_to_bot ? standingTag(seat.account, game) : null; // rating, reputation
  return el("span", { class: `seat-badge ${cls}` }, `${seatName(seat.name)}${bot}`, standing ? [" ", standing] : null, on);
}

async function claim(table, seat) {
  try {
    await ensureAccount(t("app:lobby.sign_in_to_claim"));
  } catch {
    return;
  }
  try {
    await api(`/api/tables/${table.id}/seats/${seat}/claim`, { method: "POST" });
    location.href = `/table/${table.id}?seat=${seat}`;
  } catch (err) {
    toast(t("app:lobby.claim_failed", { error: err.message }));
    loadTables();
  }
}

function tableRow(table, account) {
  const held = mySeats(table, account);
  const actions = [];
  if (held.length && table.status !== "finished") {
    actions.push(el("a", { class: "button primary", href: `/table/${table.id}?seat=${held[0]}` }, t("app:lobby.play")));
  }
  for (const seat of table.seats) {
    if (seat.kind === "open") actions.push(el("button", { type: "button", onclick: () => claim(table, seat.seat) }, t("app:lobby.take_seat", { n: seat.seat + 1 })));
  }
  actions.push(el("a", { class: "button", href: `/table/${table.id}?watch=1` }, table.status === "finished" ? t("app:lobby.final_position") : t("app:lobby.watch")));
  if (table.status === "finished") actions.push(el("a", { class: "button", href: `/replay/${table.id}` }, t("app:lobby.replay")));
  const status = waitingForPlayers(table) ? t("app:lobby.status_open") : { finished: t("app:lobby.status_finished"), expired: t("app:lobby.status_expired") }[table.status] || t("app:lobby.status_move", { n: table.moves });
  return el(
    "div",
    { class: `table-row ${table.status}`, dataset: { table: table.id } },
    el(
      "div",
      { class: "table-title" },
      el("strong", {}, gameName(table.game, table.game_name)),
      el("span", { class: `status ${table.status}` }, status),
      table.clock ? el("span", { class: "muted small" }, clockLabel(table.clock.control)) : null,
      table.hotseat ? el("span", { class: "tag hotseat", title: t("app:lobby.hotseat_title") }, t("app:lobby.hotseat_tag")) : null,
      table.min_reputation ? el("span", { class: "tag min-reputation", title: t("app:lobby.min_reputation_title", { n: table.min_reputation }) }, t("app:lobby.min_reputation_tag", { n: table.min_reputation })) : null,
      el("code", { class: "muted small" }, table.id),
    ),
    el("div", { class: "table-seats" }, table.seats.map((seat) => seatBadge(seat, table.game))),
    el("div", { class: "table-actions" }, actions),
  );
}

// The lobby's filters (docs/server.md, "Lobby filters"): game, open seats, running, finished, mine.
function filterParams() {
  const params = new URLSearchParams([["status", "open"]]);
  if ($("filter-running").checked) params.append("status", "running");
  if ($("show-finished").checked) params.append("status", "finished");
  if ($("filter-game").value) params.set("game", $("filter-game").value);
  if ($("filter-open-seats").checked) params.set("open_seats", "true");
  if ($("filter-mine").checked) params.set("mine", "true");
  return params;
}

/** Which lobby section a table goes in: yours (unfinished), open to join, being played, finished. */
function sectionOf(table, account) {
  if (table.status === "finished" || table.status === "expired") return "finished";
  if (mySeats(table, account).length) return "mine";
  if (table.status === "open" || table.seats.some((s) => s.kind === "open")) return "open";
  return "running";
}

const SECTIONS = ["mine", "open", "running", "finished"];

async function loadTables() {
  try {
    const [tables, who] = await Promise.all([api(`/api/tables?${filterParams()}`), currentAccount()]);
    await loadStanding(tables.flatMap((table) => table.seats.map((s) => s.account))).catch(() => {}); // shown when known
    const list = $("tables-list");
    if (!tables.length) {
      list.replaceChildren(el("p", { class: "muted" }, t("app:lobby.no_tables")));
      return;
    }
    const groups = Object.fromEntries(SECTIONS.map((s) => [s, []]));
    for (const table of tables) groups[sectionOf(table, who.account)].push(table);
    list.replaceChildren(
      ...SECTIONS.filter((s) => groups[s].length).map((s) =>
        el(
          "section",
          { class: `table-group group-${s}`, dataset: { group: s }, "aria-labelledby": `group-${s}` },
          el("h3", { id: `group-${s}`, class: "group-title" }, t(`app:lobby.section_${s}`), " ", el("span", { class: "muted small" }, t("app:lobby.section_count", { count: groups[s].length }))),
          groups[s].map((table) => tableRow(table, who.account)),
        ),
      ),
    );
  } catch (err) {
    const text = err.status === 401 ? t("app:lobby.sign_in_mine") : t("app:lobby.load_failed", { error: err.message });
    $("tables-list").replaceChildren(el("p", { class: err.status === 401 ? "muted" : "error" }, text));
  }
}

/** The welcome for someone who just arrived: shown while signed out. */
async function showWelcome() {
  const { account } = await currentAccount();
  $("welcome").hidden = Boolean(account);
}

/** One click: a guest account if signed out, a table against a bot, and there. */
async function playBotNow() {
  const button = $("play-bot-now");
  button.disabled = true;
  try {
    const { account } = await currentAccount();
    if (!account) setCurrentAccount(await api("/api/account/guest", { method: "POST", body: { display_name: t("app:welcome.guest_name") } }));
    const body = { game: "tf22-reload", num_players: 2, seats: [{ kind: "human" }, { kind: "bot", difficulty: "ismcts:easy" }] };
    const created = await api("/api/tables", { method: "POST", body });
    location.href = `/table/${created.table.id}?seat=0`;
  } catch (err) {
    toast(t("app:lobby.create_failed", { error: err.message }));
    button.disabled = false;
  }
}

/** The new table's choice: only players with a reputation of at least N% (see docs/server.md). */
function minReputationField() {
  const choices = [0, 50, 60, 70, 80, 90].map((n) => el("option", { value: n }, n ? `${n}%` : t("app:lobby.min_reputation_any")));
  return el("label", { class: "small", id: "min-reputation-label" }, el("span", {}, t("app:lobby.min_reputation")), " ", el("select", { id: "min-reputation", name: "min_reputation" }, choices));
}

async function main() {
  $("play-bot-now").addEventListener("click", playBotNow);
  $("welcome-sign-up").addEventListener("click", () => ensureAccount(t("app:welcome.sign_up_why")).catch(() => {}));
  $("play-bot-now").disabled = $("welcome-sign-up").disabled = false; // wired (disabled in the page until now)
  document.addEventListener("account-changed", showWelcome);
  showWelcome();
  try {
    [state.games, state.difficulties] = await Promise.all([api("/api/games"), api("/api/difficulties")]);
  } catch (err) {
    toast(t("app:lobby.no_server", { error: err.message }));
    return;
  }
  const select = $("game-select");
  for (const g of state.games) select.append(el("option", { value: g.id, selected: g.id === "tf22-reload" }, gameName(g.id, g.name)));
  select.addEventListener("change", renderPlayers);
  state.clock = clockFields($("clock-fields"), () => select.value);
  select.addEventListener("change", () => state.clock.refresh());
  $("players-select").addEventListener("change", () => {
    renderSeats();
    if (state.editor) state.editor.refresh();
  });
  $("options-fields").addEventListener("change", (ev) => {
    if (state.editor && ev.target.dataset.option) state.editor.refresh();
  });
  $("hints").closest("label").after(minReputationField());
  $("create-form").addEventListener("submit", createTable);
  $("create-button").disabled = false; // wired: a click before this would have submitted the form natively
  for (const g of state.games) $("filter-game").append(el("option", { value: g.id }, gameName(g.id, g.name)));
  $("table-filters").addEventListener("change", loadTables);
  document.addEventListener("account-changed", loadTables);
  renderPlayers();
  loadTables();
  setInterval(loadTables, 5000);
}

main();

// The lobby: create a table (game, players, options, seats), list tables, join, watch, replay.

import { ensureAccount } from "/static/js/account.js";
import { api, currentAccount, el, mySeats, rendererFor, toast } from "/static/js/api.js";
import { clockFields } from "/static/js/clockform.js";

const state = { games: [], difficulties: [], editor: null, clock: null };

const $ = (id) => document.getElementById(id);

function game() {
  return state.games.find((g) => g.id === $("game-select").value);
}

function difficultyLabel(d) {
  return d.available ? d.difficulty : `${d.difficulty} (not available yet: plays as ${d.agent})`;
}

function renderPlayers() {
  const g = game();
  const select = $("players-select");
  const previous = Number(select.value) || Math.min(3, g.max_players);
  select.replaceChildren();
  for (let n = g.min_players; n <= g.max_players; n++) {
    select.append(el("option", { value: n, selected: n === Math.min(Math.max(previous, g.min_players), g.max_players) }, n));
  }
  $("game-info").textContent = `${g.name}: ${g.min_players}–${g.max_players} players.`;
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
      input = el("select", { name: opt.name }, opt.choices.map((c) => el("option", { value: JSON.stringify(c), selected: c === opt.default }, String(c))));
    } else if (typeof opt.default === "boolean") {
      input = el("input", { type: "checkbox", name: opt.name, checked: opt.default });
    } else if (typeof opt.default === "number") {
      input = el("input", { type: "number", name: opt.name, value: opt.default, min: opt.minimum, max: opt.maximum });
    } else {
      input = el("input", { type: "text", name: opt.name, value: opt.default ?? "" });
    }
    input.dataset.option = opt.name;
    box.append(el("label", { class: "option", title: opt.description }, `${opt.name} `, input, el("span", { class: "muted small" }, ` ${opt.description}`)));
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
      { name: "kind", "aria-label": `seat ${i + 1} kind` },
      el("option", { value: "human", selected: prev.kind === "human" }, "Person"),
      el("option", { value: "open", selected: prev.kind === "open" }, "Open seat"),
      el("option", { value: "bot", selected: prev.kind === "bot" }, "Bot"),
    );
    const difficulty = el(
      "select",
      { name: "difficulty", "aria-label": `seat ${i + 1} difficulty` },
      state.difficulties.map((d) => el("option", { value: d.difficulty, selected: d.difficulty === prev.difficulty }, difficultyLabel(d))),
    );
    const name = el("input", { name: "name", type: "text", maxlength: 40, placeholder: `Player ${i + 1}`, value: prev.name });
    const row = el("div", { class: "seat-row", dataset: { seat: i } }, el("span", { class: "seat-no" }, `Seat ${i + 1}`), kind, difficulty, name);
    const sync = () => {
      difficulty.hidden = kind.value !== "bot";
      name.placeholder = kind.value === "bot" ? `Bot ${i + 1}` : `Player ${i + 1}`;
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
  const body = { game: $("game-select").value, num_players: Number($("players-select").value), options: readOptions(), seats, time_control: state.clock.read(), hotseat: $("hotseat").checked };
  try {
    await ensureAccount("Sign in (or just give a name) to make a table.");
  } catch {
    return;
  }
  $("create-button").disabled = true;
  try {
    const created = await api("/api/tables", { method: "POST", body });
    showCreated(created);
    loadTables();
  } catch (err) {
    toast(`Could not create the table: ${err.message}`);
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
      el("span", {}, `${created.table.seats[seat].name} (seat ${seat + 1})`),
      input,
      el("button", { type: "button", onclick: () => navigator.clipboard?.writeText(url).then(() => toast("Link copied", "info")) }, "Copy"),
    );
  });
  box.replaceChildren(
    el("h3", {}, `Table ${id} is ready`),
    seats.length
      ? el("p", { class: "small" }, "Send each invite link to its player. A link works once, for a week: whoever opens it takes that seat (you cannot play it). Lost one? Make a new one from the table page.")
      : null,
    created.table.hotseat ? el("p", { class: "small" }, "Hotseat: you play every person seat from this device. This table is not rated.") : null,
    ...rows,
    el(
      "div",
      { class: "actions" },
      el("a", { class: "button primary", id: "go-table", href: first === null ? `/table/${id}` : `/table/${id}?seat=${first}` }, first === null ? "Watch the table" : "Go to the table"),
    ),
  );
  box.hidden = false;
  box.scrollIntoView({ behavior: "smooth", block: "nearest" });
}

function seatBadge(seat) {
  const cls = seat.kind === "bot" || seat.handed_to_bot ? "bot" : seat.kind;
  const bot = seat.kind === "bot" || seat.handed_to_bot ? ` · bot ${seat.agent}${seat.agent !== seat.difficulty ? ` (asked: ${seat.difficulty})` : ""}` : "";
  const on = seat.connected ? " ●" : "";
  return el("span", { class: `seat-badge ${cls}` }, `${seat.name}${bot}${on}`);
}

async function claim(table, seat) {
  try {
    await ensureAccount("Sign in (or just give a name) to take a seat.");
  } catch {
    return;
  }
  try {
    await api(`/api/tables/${table.id}/seats/${seat}/claim`, { method: "POST" });
    location.href = `/table/${table.id}?seat=${seat}`;
  } catch (err) {
    toast(`Could not take the seat: ${err.message}`);
    loadTables();
  }
}

function tableRow(table, account) {
  const held = mySeats(table, account);
  const actions = [];
  if (held.length && table.status !== "finished") {
    actions.push(el("a", { class: "button primary", href: `/table/${table.id}?seat=${held[0]}` }, "Play"));
  }
  for (const seat of table.seats) {
    if (seat.kind === "open") actions.push(el("button", { type: "button", onclick: () => claim(table, seat.seat) }, `Take seat ${seat.seat + 1}`));
  }
  actions.push(el("a", { class: "button", href: `/table/${table.id}?watch=1` }, table.status === "finished" ? "Final position" : "Watch"));
  if (table.status === "finished") actions.push(el("a", { class: "button", href: `/replay/${table.id}` }, "Replay"));
  const status = table.status === "finished" ? "finished" : table.status === "open" ? "waiting for players" : `move ${table.moves}`;
  return el(
    "div",
    { class: `table-row ${table.status}`, dataset: { table: table.id } },
    el(
      "div",
      { class: "table-title" },
      el("strong", {}, table.game_name),
      el("span", { class: `status ${table.status}` }, status),
      table.clock ? el("span", { class: "muted small" }, table.clock.control.label) : null,
      table.hotseat ? el("span", { class: "tag hotseat", title: "several seats played on one device" }, "hotseat · unrated") : null,
      el("code", { class: "muted small" }, table.id),
    ),
    el("div", { class: "table-seats" }, table.seats.map(seatBadge)),
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

async function loadTables() {
  try {
    const [tables, who] = await Promise.all([api(`/api/tables?${filterParams()}`), currentAccount()]);
    const list = $("tables-list");
    list.replaceChildren(...(tables.length ? tables.map((t) => tableRow(t, who.account)) : [el("p", { class: "muted" }, "No tables match: create one.")]));
  } catch (err) {
    const text = err.status === 401 ? "Sign in to list your own tables." : `Could not load the tables: ${err.message}`;
    $("tables-list").replaceChildren(el("p", { class: err.status === 401 ? "muted" : "error" }, text));
  }
}

async function main() {
  try {
    [state.games, state.difficulties] = await Promise.all([api("/api/games"), api("/api/difficulties")]);
  } catch (err) {
    toast(`The server does not answer: ${err.message}`);
    return;
  }
  const select = $("game-select");
  for (const g of state.games) select.append(el("option", { value: g.id, selected: g.id === "tf22-reload" }, g.name));
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
  $("create-form").addEventListener("submit", createTable);
  for (const g of state.games) $("filter-game").append(el("option", { value: g.id }, g.name));
  $("table-filters").addEventListener("change", loadTables);
  document.addEventListener("account-changed", loadTables);
  renderPlayers();
  loadTables();
  setInterval(loadTables, 5000);
}

main();

// "My tables": the signed-in account's unfinished tables, those waiting for it first.

import { api, el } from "/static/js/api.js";
import { clockTag, setClock } from "/static/js/turn.js";

const $ = (id) => document.getElementById(id);

function row(table) {
  setClock(table); // each row shows its own seat's clock from its own summary
  const seat = table.my_seats[0];
  const clock = clockTag(seat);
  clock.removeAttribute("data-clock-seat"); // painted once here; the list refreshes every few seconds
  return el(
    "div",
    { class: `table-row ${table.status}${table.your_turn ? " your-turn" : ""}`, dataset: { table: table.id } },
    el(
      "div",
      { class: "table-title" },
      el("strong", {}, table.game_name),
      table.your_turn ? el("span", { class: "tag turn" }, "your move") : el("span", { class: "muted small" }, "waiting for the others"),
      table.clock ? el("span", { class: "muted small" }, table.clock.control.label) : null,
      clock,
    ),
    el("div", { class: "table-seats" }, table.seats.map((s) => el("span", { class: "seat-badge" }, s.name))),
    el("div", { class: "table-actions" }, el("a", { class: `button${table.your_turn ? " primary" : ""}`, href: `/table/${table.id}?seat=${seat}` }, "Play")),
  );
}

async function load() {
  try {
    const tables = await api("/api/my/tables");
    const waiting = tables.filter((t) => t.your_turn).length;
    document.title = waiting ? `(${waiting}) My tables · Robotable` : "My tables · Robotable";
    $("my-tables").replaceChildren(...(tables.length ? tables.map(row) : [el("p", { class: "muted" }, "No unfinished tables: create or join one in the lobby.")]));
  } catch (err) {
    const text = err.status === 401 ? "Sign in (in the lobby) to see your tables." : `Could not load your tables: ${err.message}`;
    $("my-tables").replaceChildren(el("p", { class: err.status === 401 ? "muted" : "error" }, text, " ", el("a", { href: "/" }, "Lobby")));
  }
}

async function main() {
  try {
    const me = await api("/api/account");
    if (me && me.account) {
      const link = $("my-profile");
      link.href = `/profile/${me.account.id}`;
      link.hidden = false;
    }
  } catch {
    // signed out: load() says so
  }
  await load();
  setInterval(load, 5000);
}

main();

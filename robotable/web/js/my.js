// "My tables": the signed-in account's unfinished tables, those waiting for it first.

import { api, el } from "/static/js/api.js";
import { gameName, loadAllNamespaces, seatName, t } from "/static/js/i18n.js";
import { clockLabel, clockTag, repaintClocks } from "/static/js/turn.js";

await loadAllNamespaces(); // the games' names

const $ = (id) => document.getElementById(id);

function row(table) {
  const seat = table.my_seats[0];
  const clock = clockTag(seat, table); // each row ticks its own seat's clock, from its own summary
  return el(
    "div",
    { class: `table-row ${table.status}${table.your_turn ? " your-turn" : ""}`, dataset: { table: table.id } },
    el(
      "div",
      { class: "table-title" },
      el("strong", {}, gameName(table.game, table.game_name)),
      table.your_turn ? el("span", { class: "tag turn" }, t("app:my.your_move")) : el("span", { class: "muted small" }, t("app:my.waiting")),
      table.clock ? el("span", { class: "muted small" }, clockLabel(table.clock.control)) : null,
      clock,
    ),
    el("div", { class: "table-seats" }, table.seats.map((s) => el("span", { class: "seat-badge" }, seatName(s.name)))),
    el("div", { class: "table-actions" }, el("a", { class: `button${table.your_turn ? " primary" : ""}`, href: `/table/${table.id}?seat=${seat}` }, t("app:lobby.play"))),
  );
}

async function load() {
  try {
    const tables = await api("/api/my/tables");
    const waiting = tables.filter((t) => t.your_turn).length;
    document.title = waiting ? t("app:my.title_waiting", { n: waiting }) : t("app:my.title_plain");
    $("my-tables").replaceChildren(...(tables.length ? tables.map(row) : [el("p", { class: "muted" }, t("app:my.none"))]));
  } catch (err) {
    const text = err.status === 401 ? t("app:my.sign_in") : t("app:my.load_failed", { error: err.message });
    $("my-tables").replaceChildren(el("p", { class: err.status === 401 ? "muted" : "error" }, text, " ", el("a", { href: "/" }, t("app:nav.lobby"))));
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
  setInterval(repaintClocks, 1000);
}

main();

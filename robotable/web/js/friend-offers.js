// "My tables": the seats friends offered you, above your tables: take the seat or decline. Refreshed with
// the page and at once when a friend's notice arrives.

import { api, el, toast } from "/static/js/api.js";
import { gameName, loadAllNamespaces, seatName, t } from "/static/js/i18n.js";

await loadAllNamespaces();

const box = document.getElementById("friend-offers");

async function answer(offer, take) {
  const body = { table: offer.table.id, seat: offer.seat };
  try {
    const done = await api(`/api/friends/offers/${take ? "accept" : "decline"}`, { method: "POST", body });
    if (take) location.href = done.link;
    else await load();
  } catch (err) {
    toast(err.message);
    await load();
  }
}

function row(offer) {
  return el(
    "div",
    { class: "table-row your-turn friend-offer-row", dataset: { table: offer.table.id } },
    el("div", { class: "table-title" }, el("strong", {}, gameName(offer.table.game, offer.table.game_name)), el("span", { class: "tag turn" }, t("app:friends.offer_line", { name: offer.from.display_name, n: offer.seat + 1 }))),
    el("div", { class: "table-seats" }, offer.table.seats.map((s) => el("span", { class: "seat-badge" }, seatName(s.name)))),
    el(
      "div",
      { class: "table-actions" },
      el("button", { type: "button", class: "primary", onclick: () => answer(offer, true) }, t("app:friends.take_seat")),
      el("button", { type: "button", onclick: () => answer(offer, false) }, t("app:friends.decline")),
    ),
  );
}

async function load() {
  let offers = [];
  try {
    offers = await api("/api/friends/offers");
  } catch {
    offers = []; // signed out: the tables list says so
  }
  box.replaceChildren(...(offers.length ? [el("h3", {}, t("app:friends.offers")), el("div", { class: "tables-list" }, offers.map(row))] : []));
}

document.addEventListener("friend-notice", () => load());
await load();
setInterval(load, 5000);

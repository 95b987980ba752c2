// The lobby's list of tournaments open for sign-up and being played (the newest few), linking to each
// tournament's page and to /tournaments, where a new one is made.

import { api, el } from "/static/js/api.js";
import { loadAllNamespaces, t } from "/static/js/i18n.js";
import { tournamentRow } from "/static/js/tournament-common.js";

const SHOWN = 5;

await loadAllNamespaces(); // the games' names

try {
  const listed = await api("/api/tournaments?status=signup&status=running");
  const rows = listed.tournaments.slice(0, SHOWN).map(tournamentRow);
  document.getElementById("lobby-tournaments-list").replaceChildren(...(rows.length ? rows : [el("p", { class: "muted small" }, t("app:tournament.none"))]));
} catch (err) {
  document.getElementById("lobby-tournaments-list").replaceChildren(el("p", { class: "muted small" }, t("app:tournament.load_failed", { error: err.message })));
}

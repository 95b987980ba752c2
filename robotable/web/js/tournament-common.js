// What the tournaments page and the lobby's list of tournaments share: a tournament's status and settings
// as text, and its row in a list.

import { el } from "/static/js/api.js";
import { gameName, t } from "/static/js/i18n.js";
import { clockLabel } from "/static/js/turn.js";

/** "sign-up", "round 2 of 3" or "finished". */
export function statusText(tm) {
  if (tm.status === "running") return t("app:tournament.status_running", { round: tm.round, rounds: tm.rounds });
  return t(`app:tournament.status_${tm.status}`);
}

/** The game, format, table size, rounds and clock on one line. */
export function settingsText(tm) {
  return t("app:tournament.settings", {
    game: gameName(tm.game, tm.game),
    format: t(`app:tournament.format_${tm.format}`),
    size: tm.table_size,
    rounds: tm.rounds,
    clock: clockLabel(tm.time_control),
  });
}

/** A tournament's row in a list, linking to its page. */
export function tournamentRow(tm) {
  return el(
    "div",
    { class: "tournament-row", dataset: { tournament: tm.id } },
    el("a", { href: `/tournaments/${encodeURIComponent(tm.id)}` }, tm.name),
    el("span", { class: "muted small" }, settingsText(tm)),
    el("span", { class: "tag neutral" }, statusText(tm)),
    el("span", { class: "muted small" }, t("app:tournament.entrants_count", { n: tm.entrants })),
  );
}

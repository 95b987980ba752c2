// Under a finished table's result: its notes (time-outs, seats handed to bots and taken back) and the
// rating changes it made (rated tables only).

import { api, el } from "/static/js/api.js";
import { ratingText, t } from "/static/js/i18n.js";

/** The notes and rating changes of a finished table, filled in when the server answers. */
export function resultExtras(table) {
  const box = el("div", { class: "result-extras", id: "result-extras" });
  const notes = table.clock ? table.clock.notes : [];
  if (notes.length) {
    box.append(el("ul", { class: "small notes", id: "seat-notes" }, notes.map((n) => el("li", {}, t("app:result.note", { move: n.move, detail: n.detail })))));
  }
  api(`/api/tables/${table.id}/ratings`)
    .then((answer) => {
      if (!answer.changes) return;
      const items = answer.changes.map((c) => {
        const delta = c.after.display_rating - c.before.display_rating; // the 1500-based scale
        return el("li", {}, `${c.label}: ${ratingText(c.after)} (${delta >= 0 ? "+" : ""}${delta})`);
      });
      box.append(el("div", { class: "small" }, el("strong", {}, t("app:result.ratings")), el("a", { href: `/leaderboard/${table.game}` }, t("app:result.leaderboard")), el("ul", { id: "rating-changes" }, items)));
    })
    .catch(() => {});
  return box;
}

// "How the bots think" (bots.html): the page's texts come from the catalogue (app:bots.*, filled by
// i18n.js); this module adds the table of every level's arena rating per game (GET /api/difficulties).

import { api, el } from "/static/js/api.js";
import { gameName, levelName, loadAllNamespaces, ratingText, ratingTitle, t } from "/static/js/i18n.js";

await loadAllNamespaces(); // the games' names

async function main() {
  const box = document.getElementById("ratings-table");
  let games, levels;
  try {
    [games, levels] = await Promise.all([api("/api/games"), api("/api/difficulties")]);
  } catch (err) {
    box.replaceChildren(el("p", { class: "error" }, err.message));
    return;
  }
  if (!levels.some((d) => Object.keys(d.ratings || {}).length)) {
    box.replaceChildren(el("p", { class: "muted" }, t("app:bots.none")));
    return;
  }
  const head = el("tr", {}, el("th", {}, t("app:bots.level")), games.map((g) => el("th", { class: "num" }, gameName(g.id, g.name))));
  const rows = levels.map((d) =>
    el(
      "tr",
      { dataset: { level: d.difficulty } },
      el("td", {}, levelName(d.difficulty)),
      games.map((g) => {
        const r = (d.ratings || {})[g.id];
        return r ? el("td", { class: "num", title: ratingTitle(r), dataset: { game: g.id } }, ratingText(r)) : el("td", { class: "num muted", dataset: { game: g.id } }, t("app:bots.not_rated"));
      }),
    ),
  );
  box.replaceChildren(el("table", { class: "board-table", id: "level-ratings" }, el("thead", {}, head), el("tbody", {}, rows)));
}

main();

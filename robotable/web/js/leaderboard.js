// A game's leaderboard: people and bots (with their level), best first by mu - 3 sigma, shown on the
// 1500-based scale ("?" while provisional).

import { api, el } from "/static/js/api.js";
import { gameName, loadAllNamespaces, ratedLevelName, ratingText, ratingTitle, t } from "/static/js/i18n.js";

await loadAllNamespaces(); // the games' names

const $ = (id) => document.getElementById(id);

async function main() {
  const games = await api("/api/games");
  const parts = location.pathname.split("/").filter(Boolean);
  const game = parts.length > 1 ? decodeURIComponent(parts[1]) : games[0].id;
  $("game-tabs").replaceChildren(...games.map((g) => el("a", { class: `button${g.id === game ? " active" : ""}`, href: `/leaderboard/${g.id}` }, gameName(g.id, g.name))));
  let board;
  try {
    board = await api(`/api/leaderboard/${encodeURIComponent(game)}`);
  } catch (err) {
    $("board").replaceChildren(el("p", { class: "error" }, err.message));
    return;
  }
  const title = t("app:leaderboard.of_game", { game: gameName(game, board.game_name) });
  document.title = t("app:title.suffix", { name: title });
  $("board-title").textContent = title;
  if (!board.entries.length) {
    $("board").replaceChildren(el("p", { class: "muted" }, t("app:leaderboard.nobody")));
    return;
  }
  const rows = board.entries.map((e) =>
    el(
      "tr",
      { class: e.kind === "bot" ? "bot-entry" : "", dataset: { entry: e.entry } },
      el("td", { class: "num" }, e.rank),
      el("td", {}, e.kind === "account" ? el("a", { href: `/profile/${e.account}` }, e.name) : [el("span", { class: "tag bot" }, t("app:leaderboard.bot")), " ", el("span", { class: "bot-level", title: ratingTitle(e.level_rating) || undefined }, ratedLevelName(e.entry, e.level_rating))]),
      el("td", { class: "num", title: `μ − 3σ = ${e.ordinal.toFixed(1)}` }, ratingText(e)),
      el("td", { class: "num" }, e.mu.toFixed(1)),
      el("td", { class: "num" }, e.sigma.toFixed(2)),
      el("td", { class: "num" }, e.games),
      el("td", { class: "num" }, e.wins),
    ),
  );
  const head = ["#", t("app:leaderboard.player"), t("app:leaderboard.rating"), "μ", "σ", t("app:leaderboard.games_col"), t("app:leaderboard.wins")].map((h, i) => el("th", { class: i === 1 ? "" : "num" }, h));
  $("board").replaceChildren(el("table", { class: "board-table", id: "leaderboard" }, el("thead", {}, el("tr", {}, head)), el("tbody", {}, rows)));
}

main();

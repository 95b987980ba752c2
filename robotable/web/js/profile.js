// A profile: games played and won per game, ratings, recent tables with links to their replays.

import { api, el } from "/static/js/api.js";

const $ = (id) => document.getElementById(id);
const accountId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());

function rating(r) {
  if (!r) return "unrated";
  return `${r.ordinal.toFixed(1)} (μ ${r.mu.toFixed(1)}, σ ${r.sigma.toFixed(2)}) · #${r.rank}`;
}

async function main() {
  let profile;
  try {
    profile = await api(`/api/profiles/${encodeURIComponent(accountId)}`);
  } catch (err) {
    $("profile-name").textContent = "No such profile";
    $("profile-info").replaceChildren(el("span", { class: "error" }, err.message));
    $("profile-games").replaceChildren();
    return;
  }
  const name = profile.account.display_name;
  document.title = `${name} · Robotable`;
  $("profile-name").textContent = name;
  $("profile-info").textContent = profile.account.guest ? "Guest account" : "";
  const games = Object.entries(profile.games);
  $("profile-games").replaceChildren(
    games.length
      ? el(
          "table",
          { class: "board-table", id: "games-table" },
          el("thead", {}, el("tr", {}, el("th", {}, "Game"), el("th", { class: "num" }, "Played"), el("th", { class: "num" }, "Won"), el("th", { class: "num" }, "Average place"), el("th", {}, "Rating"))),
          el(
            "tbody",
            {},
            games.map(([game, g]) =>
              el(
                "tr",
                { dataset: { game } },
                el("td", {}, el("a", { href: `/leaderboard/${game}` }, g.game_name)),
                el("td", { class: "num" }, g.played),
                el("td", { class: "num" }, g.won),
                el("td", { class: "num" }, g.average_place ?? "–"),
                el("td", { class: "rating" }, rating(g.rating)),
              ),
            ),
          ),
        )
      : el("p", { class: "muted" }, "No finished games yet."),
  );
  $("profile-recent").replaceChildren(
    profile.recent.length
      ? el(
          "ul",
          { class: "recent" },
          profile.recent.map((t) =>
            el(
              "li",
              { dataset: { table: t.table } },
              `${t.game_name} · ${t.num_players} players · `,
              t.hotseat ? "hotseat · " : t.rated ? "rated · " : "unrated · ",
              t.won ? el("strong", {}, "won") : `place ${t.place ?? "?"}`,
              ` · ${new Date(t.finished_at).toLocaleString()} · `,
              el("a", { href: t.replay }, "replay"),
            ),
          ),
        )
      : el("p", { class: "muted" }, "No finished tables yet."),
  );
}

main();

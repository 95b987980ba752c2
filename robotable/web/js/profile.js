// A profile: games played and won per game, ratings, recent tables with links to their replays.

import { api, currentAccount, el } from "/static/js/api.js";
import { gameName, lang, loadAllNamespaces, ratingText, t } from "/static/js/i18n.js";

await loadAllNamespaces(); // the games' names

const $ = (id) => document.getElementById(id);
const accountId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());

function rating(r) {
  if (!r) return t("app:profile.unrated");
  return `${ratingText(r)} (μ ${r.mu.toFixed(1)}, σ ${r.sigma.toFixed(2)}) · #${r.rank}`;
}

async function main() {
  let profile;
  try {
    profile = await api(`/api/profiles/${encodeURIComponent(accountId)}`);
  } catch (err) {
    $("profile-name").textContent = t("app:profile.none_such");
    $("profile-info").replaceChildren(el("span", { class: "error" }, err.message));
    $("profile-games").replaceChildren();
    return;
  }
  const name = profile.account.display_name;
  document.title = t("app:title.suffix", { name });
  $("profile-name").textContent = name;
  $("profile-info").textContent = profile.account.guest ? t("app:profile.guest") : "";
  const rep = profile.reputation; // the share of games with other people finished (docs/server.md, reputation)
  $("profile-info").after(el("p", { id: "profile-reputation", dataset: { percent: rep.percent } }, el("strong", {}, t("app:profile.reputation", rep)), " ", el("span", { class: "muted small" }, t("app:profile.reputation_detail", rep))));
  const games = Object.entries(profile.games);
  $("profile-games").replaceChildren(
    games.length
      ? el(
          "table",
          { class: "board-table", id: "games-table" },
          el("thead", {}, el("tr", {}, el("th", {}, t("app:profile.game")), el("th", { class: "num" }, t("app:profile.played")), el("th", { class: "num" }, t("app:profile.won")), el("th", { class: "num" }, t("app:profile.average_place")), el("th", {}, t("app:profile.rating")))),
          el(
            "tbody",
            {},
            games.map(([game, g]) =>
              el(
                "tr",
                { dataset: { game } },
                el("td", {}, el("a", { href: `/leaderboard/${game}` }, gameName(game, g.game_name))),
                el("td", { class: "num" }, g.played),
                el("td", { class: "num" }, g.won),
                el("td", { class: "num" }, g.average_place ?? "–"),
                el("td", { class: "rating" }, rating(g.rating)),
              ),
            ),
          ),
        )
      : el("p", { class: "muted" }, t("app:profile.no_games")),
  );
  $("profile-recent").replaceChildren(
    profile.recent.length
      ? el(
          "ul",
          { class: "recent" },
          profile.recent.map((row) =>
            el(
              "li",
              { dataset: { table: row.table } },
              `${gameName(row.game, row.game_name)} · ${t("app:seat.players", { count: row.num_players })} · `,
              `${row.hotseat ? t("app:profile.hotseat") : row.rated ? t("app:profile.rated") : t("app:profile.unrated_table")} · `,
              row.won ? el("strong", {}, t("app:profile.won_tag")) : t("app:profile.place", { n: row.place ?? "?" }),
              ` · ${new Date(row.finished_at).toLocaleString(lang)} · `,
              el("a", { href: row.replay }, t("app:profile.replay")),
            ),
          ),
        )
      : el("p", { class: "muted" }, t("app:profile.no_tables")),
  );
}

/** "Find the better move": on your own profile, positions from your reviewed games (issue 30), each
 * played on its own page (/exercise/{id}) and marked once solved. */
async function exercises() {
  const who = await currentAccount();
  if (!who.account || who.account.id !== accountId) return;
  const list = await api(`/api/exercises?lang=${encodeURIComponent(lang)}`);
  if (!list.length) return;
  const items = list.map((x) => {
    const answer = el("p", { class: "small exercise-answer", hidden: true }, t("app:exercises.answer", { better: x.better_text, loss: `${Math.round(x.loss * 100)}%` }));
    return el(
      "li",
      { class: `exercise${x.solved ? " solved" : ""}`, dataset: { table: x.table, move: x.move, id: x.id, solved: x.solved ? "1" : "0" } },
      el("p", {}, t("app:exercises.position", { game: gameName(x.game), where: x.where, played: x.played_text }), x.solved ? el("strong", { class: "exercise-solved" }, ` ${t("app:exercises.solved")}`) : null),
      el("a", { class: "button exercise-play", href: `/exercise/${encodeURIComponent(x.id)}` }, t("app:exercises.play")),
      " ",
      el("a", { class: "exercise-see", href: `/replay/${encodeURIComponent(x.table)}?step=${x.move}` }, t("app:exercises.see")),
      " ",
      el("button", { type: "button", class: "small", onclick: () => { answer.hidden = false; } }, t("app:exercises.show")),
      answer,
    );
  });
  const solved = list.filter((x) => x.solved).length;
  const section = $("profile-exercises");
  section.replaceChildren(
    el("h3", {}, t("app:exercises.title")),
    el("p", { class: "muted small" }, t("app:exercises.count", { count: list.length }), solved ? ` ${t("app:exercises.solved_count", { count: solved })}` : ""),
    el("ol", { class: "exercises" }, items),
  );
  section.hidden = false;
}

main().then(exercises);

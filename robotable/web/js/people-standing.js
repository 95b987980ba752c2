// Beside people's names in the lobby and on the table page: their rating in the table's game on the
// 1500-based scale and their reputation (the share of games with other people they finished), from
// GET /api/standing (docs/server.md, reputation). Answers are kept for a minute per page.

import { api, el } from "/static/js/api.js";
import { ratingText, t } from "/static/js/i18n.js";

const known = new Map(); // account id -> {reputation, ratings, at}
const KEEP_MS = 60_000;
const BATCH = 100; // the most accounts one request may ask about

/** Fetch the standing of the accounts not known (or known for over a minute); resolves when known. */
export async function loadStanding(ids) {
  const at = Date.now();
  const wanted = [...new Set(ids.filter(Boolean))].filter((id) => !known.has(id) || at - known.get(id).at > KEEP_MS);
  for (let i = 0; i < wanted.length; i += BATCH) {
    const params = new URLSearchParams(wanted.slice(i, i + BATCH).map((id) => ["accounts", id]));
    const answer = await api(`/api/standing?${params}`);
    for (const [id, standing] of Object.entries(answer.accounts)) known.set(id, { ...standing, at });
  }
}

/** The tag shown beside a person's name ("1537? · 80%"), or null while unknown. */
export function standingTag(account, game) {
  const s = account ? known.get(account) : null;
  if (!s) return null;
  const rating = s.ratings[game];
  const rep = s.reputation;
  const values = { rating: rating ? ratingText(rating) : "", reputation: rep.percent, games: rep.games };
  return el(
    "span",
    { class: "tag standing", dataset: { account, reputation: rep.percent }, title: t(rating ? "app:standing.title" : "app:standing.title_unrated", values) },
    t(rating ? "app:standing.badge" : "app:standing.badge_unrated", values),
  );
}

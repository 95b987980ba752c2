// The review panel of a finished table's replay (issue 30; docs/review.md): asks
// GET /api/tables/{id}/review for the seat this browser played (a spectator: every seat, as a spectator
// may see them), shows the progress while the server
// computes it, then a chart of the seat's value over the game (SVG drawn here) with its turning points,
// and its largest losses; a point or a loss shows that position in the replay. A loss also opens its
// two moves (the move played and the search's better one) in the game's own words and, where the game
// has previews (Twin Tin Bots), what each would do drawn by the game's renderer (``renderPreview``).

import { api, el, svg } from "/static/js/api.js";
import { lang, t } from "/static/js/i18n.js";

const POLL_MS = 1500;
const W = 320;
const H = 140;
const PAD = 24;

const percent = (value) => `${Math.round(value * 100)}%`;

/** The chart of one seat's value before each of its decisions, then its outcome; clickable points. */
export function valueChart(seat, moves, goTo) {
  const points = seat.moments.map((m, i) => ({ move: m.index, value: m.before, moment: i }));
  if (seat.final !== null && seat.final !== undefined) points.push({ move: moves, value: seat.final, moment: null });
  const x = (move) => PAD + (move / Math.max(1, moves)) * (W - 2 * PAD);
  const y = (value) => H - PAD - value * (H - 2 * PAD);
  const turning = new Set(seat.turning_points);
  const losses = new Set(seat.largest_losses);
  const grid = [0, 0.5, 1].map((v) => [
    svg("line", { x1: PAD, x2: W - PAD, y1: y(v), y2: y(v), class: "review-grid" }),
    svg("text", { x: 2, y: y(v) + 4, class: "review-axis" }, percent(v)),
  ]);
  const path = points.map((p, i) => `${i ? "L" : "M"}${x(p.move).toFixed(1)},${y(p.value).toFixed(1)}`).join(" ");
  const dots = points.map((p) => {
    const kind = p.moment !== null && turning.has(p.moment) ? "turning" : p.moment !== null && losses.has(p.moment) ? "loss" : "plain";
    const label = t("app:review.point", { move: p.move + 1, value: percent(p.value) });
    return svg(
      "circle",
      { cx: x(p.move), cy: y(p.value), r: kind === "plain" ? 3 : 6, class: `review-point ${kind}`, tabindex: 0, role: "button", "aria-label": label, dataset: { step: p.move }, onclick: () => goTo(p.move) },
      svg("title", {}, label),
    );
  });
  return svg(
    "svg",
    { viewBox: `0 0 ${W} ${H}`, class: "review-chart", id: "review-chart", role: "img", "aria-label": t("app:review.chart_y") },
    ...grid.flat(),
    svg("text", { x: W - PAD, y: H - 4, class: "review-axis", "text-anchor": "end" }, t("app:review.chart_x")),
    svg("path", { d: path, class: "review-line" }),
    ...dots,
  );
}

/** One of the two moves of a loss: its words (the game's own ``describeAction``), its value, and what it
 * would do where the game has previews. */
function moveCard(kind, action, value, ctx) {
  const words = ctx.renderer && ctx.renderer.describeAction ? ctx.renderer.describeAction(action) : el("span", { class: "review-move-words" }, "…"); // (else the server's words, below)
  return el(
    "div",
    { class: `review-move ${kind}`, dataset: { move: kind } },
    el("h5", {}, t(`app:review.move_${kind}`)),
    el("p", { class: `review-move-text ${kind}` }, words, " ", el("span", { class: "small muted" }, t("app:review.value_of", { value: percent(value) }))),
  );
}

/** The position of a loss: the replay moves there (the board as the replay draws it), and the panel
 * shows the move played beside the better move, with their previews where the game has them. */
async function openLoss(panel, seat, moment, sentence, ctx) {
  const id = `${ctx.tableId}.${seat.seat}.${moment.index}`;
  const played = moveCard("played", moment.played, moment.after, ctx);
  const better = moveCard("better", moment.best, moment.before, ctx);
  // the board offers just these two moves, as at the table; playing one points at its card here (and, in
  // games with previews, the renderer previews it from the seat's view)
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const act = (action) => {
    for (const [card, mine] of [[played, moment.played], [better, moment.best]]) card.classList.toggle("chosen", same(action, mine));
  };
  const preview = ctx.previews ? (action) => api(`/api/exercises/${encodeURIComponent(id)}/preview`, { method: "POST", body: { action } }) : null;
  const evaluate = (query) => api(`/api/exercises/${encodeURIComponent(id)}/evaluate`, { method: "POST", body: { query } });
  ctx.goTo(moment.index, { legal: [moment.played, moment.best], act, preview, evaluate });
  const box = el(
    "section",
    { class: "review-position", id: "review-position", dataset: { step: moment.index }, "aria-live": "polite" },
    el("h4", {}, t("app:review.position_title", { move: moment.index + 1 })),
    el("p", { class: "small" }, sentence),
    el("div", { class: "review-moves" }, played, better),
    el(
      "p",
      { class: "small" },
      el("button", { type: "button", class: "linkish", id: "review-after", onclick: () => ctx.goTo(moment.index + 1) }, t("app:review.after_move")),
      " · ",
      el("a", { href: `/exercise/${encodeURIComponent(id)}`, id: "review-exercise" }, t("app:review.try_exercise")),
    ),
  );
  const old = panel.querySelector("#review-position");
  if (old) old.replaceWith(box);
  else panel.querySelector(".review-seat")?.after(box);
  box.scrollIntoView({ block: "nearest" });
  const previews = !!(ctx.renderer && ctx.renderer.renderPreview && ctx.previews);
  const ownWords = !!(ctx.renderer && ctx.renderer.describeAction);
  if (!previews && ownWords) {
    box.dataset.ready = "1";
    return;
  }
  const note = el("p", { class: "small muted" }, t(previews ? "app:review.previewing" : "app:common.loading"));
  box.append(note);
  try {
    const solution = await api(`/api/exercises/${encodeURIComponent(id)}/solution?lang=${encodeURIComponent(lang)}`);
    if (!ownWords) {
      played.querySelector(".review-move-words").textContent = solution.played_text;
      better.querySelector(".review-move-words").textContent = solution.better_text;
    }
    const view = ctx.viewAt(moment.index);
    if (previews && solution.previews && view) {
      played.append(ctx.renderer.renderPreview(view, solution.previews.played, ctx.names, seat.seat));
      better.append(ctx.renderer.renderPreview(view, solution.previews.better, ctx.names, seat.seat));
    }
    note.remove();
  } catch (err) {
    note.textContent = t("app:review.no_preview", { error: err.message });
  }
  box.dataset.ready = "1";
}

function seatPanel(seat, body, names, goTo, ctx = null) {
  const name = names[seat.seat] ?? t("app:seat.name", { n: seat.seat + 1 });
  const losses = seat.largest_losses.map((index, i) => {
    const moment = seat.moments[index];
    const onclick = () => (ctx ? openLoss(ctx.panel, seat, moment, seat.text.largest_losses[i], ctx) : goTo(moment.index));
    return el("li", {}, el("button", { type: "button", class: "linkish review-loss", dataset: { step: moment.index }, onclick }, seat.text.largest_losses[i]));
  });
  const turning = seat.turning_points.map((index, i) => el("li", {}, el("button", { type: "button", class: "linkish review-turn", dataset: { step: seat.moments[index].index }, onclick: () => goTo(seat.moments[index].index) }, seat.text.turning_points[i])));
  return el(
    "div",
    { class: "review-seat", dataset: { seat: seat.seat } },
    el("p", { class: "small" }, t("app:review.seat_summary", { seat: name, decisions: seat.moments.length, loss: percent(seat.mean_loss), outcome: seat.final === null ? t("app:review.not_over") : percent(seat.final) })),
    valueChart(seat, body.moves, goTo),
    el("p", { class: "small muted" }, t("app:review.chart_help")),
    el("h4", {}, t("app:review.largest_losses")),
    losses.length ? el("ol", { class: "review-losses" }, losses) : el("p", { class: "small" }, t("app:review.no_losses", { threshold: "1%" })),
    el("h4", {}, t("app:review.turning_points")),
    el("ol", { class: "review-turns" }, turning),
  );
}

/** Fill ``panel`` with the review of ``seat`` at ``tableId`` (``null``: a spectator's, every seat),
 * polling while it is computed. ``game``
 * (optional): ``{renderer, viewAt(step), previews}`` to open a loss's two moves in the game's own words
 * and previews. */
export async function mountReview(panel, tableId, seat, names, goTo, game = null) {
  const ctx = game ? { ...game, panel, tableId, names, goTo } : null;
  panel.hidden = false;
  const status = el("p", { class: "small", id: "review-status", role: "status" }, t("app:review.asking"));
  panel.replaceChildren(el("h3", {}, t("app:review.panel_title")), status);
  const mine = seat === null || seat === undefined ? "" : `seat=${seat}&`;
  const path = `/api/tables/${encodeURIComponent(tableId)}/review?${mine}lang=${encodeURIComponent(lang)}`;
  for (;;) {
    let body;
    try {
      body = await api(path);
    } catch (err) {
      status.textContent = t("app:review.unavailable", { error: err.message });
      return;
    }
    if (body.status === "done") {
      status.textContent = t("app:review.values");
      if (body.spectator_view) panel.append(el("p", { class: "small muted", id: "review-spectator-note" }, t("app:review.spectator_note")));
      panel.append(...body.seats.map((s) => seatPanel(s, body, names, goTo, ctx)));
      panel.dataset.ready = "1";
      return;
    }
    if (body.status === "failed") {
      status.textContent = t("app:review.failed", { error: body.error || "" });
      return;
    }
    status.replaceChildren(
      t("app:review.progress_count", { done: body.done, total: body.total }),
      el("progress", { max: Math.max(1, body.total), value: body.done, class: "review-progress" }),
    );
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

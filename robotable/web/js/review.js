// The review panel of a finished table's replay (issue 30; docs/review.md): asks
// GET /api/tables/{id}/review for the seat this browser played, shows the progress while the server
// computes it, then a chart of the seat's value over the game (SVG drawn here) with its turning points,
// and its largest losses; a point or a loss shows that position in the replay.

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

function seatPanel(seat, body, names, goTo) {
  const name = names[seat.seat] ?? t("app:seat.name", { n: seat.seat + 1 });
  const losses = seat.largest_losses.map((index, i) => {
    const moment = seat.moments[index];
    return el("li", {}, el("button", { type: "button", class: "linkish review-loss", dataset: { step: moment.index }, onclick: () => goTo(moment.index) }, seat.text.largest_losses[i]));
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

/** Fill ``panel`` with the review of ``seat`` at ``tableId`` (polling while it is computed). */
export async function mountReview(panel, tableId, seat, names, goTo) {
  panel.hidden = false;
  const status = el("p", { class: "small", id: "review-status", role: "status" }, t("app:review.asking"));
  panel.replaceChildren(el("h3", {}, t("app:review.panel_title")), status);
  const path = `/api/tables/${encodeURIComponent(tableId)}/review?seat=${seat}&lang=${encodeURIComponent(lang)}`;
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
      panel.append(...body.seats.map((s) => seatPanel(s, body, names, goTo)));
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

// "Find the better move", played (issue 30; docs/review.md): a position from one of your reviewed games,
// drawn by the game's own renderer with its move controls as at the table, from your seat's view then
// (GET /api/exercises/{id}). Play a move: the server says whether it is the search's better move, or as
// good within a small margin (POST /api/exercises/{id}/answer).

import { api, drawBoard, el, rendererFor } from "/static/js/api.js";
import { gameName, lang, loadNamespaces, seatName, t } from "/static/js/i18n.js";

const $ = (id) => document.getElementById(id);
const exerciseId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const path = `/api/exercises/${encodeURIComponent(exerciseId)}`;
const percent = (value) => `${Math.round(value * 100)}%`;

const page = { data: null, renderer: null, names: [], pending: false, solved: false };

function draw() {
  const d = page.data;
  const ctx = {
    view: d.view,
    legal: page.pending || page.solved ? [] : d.legal,
    seat: d.seat,
    names: page.names,
    act: answer,
    replay: false,
    tableId: `exercise:${d.id}`,
    moves: d.move,
    events: [],
    preview: d.previews ? (action) => api(`${path}/preview`, { method: "POST", body: { action } }) : null,
    evaluate: (query) => api(`${path}/evaluate`, { method: "POST", body: { query } }), // games with evaluations
  };
  document.body.classList.toggle("pending", page.pending);
  drawBoard(page.renderer, $("board"), ctx);
}

/** A move in the game's words: the renderer's, else the server's words for the move played, else "this move". */
function words(action) {
  if (page.renderer.describeAction) return page.renderer.describeAction(action);
  return JSON.stringify(action) === JSON.stringify(page.data.played) ? page.data.played_text : t("app:exercise.this_move");
}

async function answer(action) {
  if (page.pending || page.solved) return;
  page.pending = true;
  draw();
  const result = $("exercise-result");
  try {
    const body = await api(`${path}/answer`, { method: "POST", body: { action } });
    page.solved = body.solved;
    document.body.dataset.verdict = body.verdict;
    const text = t(`app:exercise.verdict_${body.verdict}`, { move: words(action), value: body.value === null ? "?" : percent(body.value), best: percent(body.before) });
    const parts = [el("p", { class: `exercise-verdict ${body.solved ? "solved" : "not-yet"}`, id: "exercise-verdict" }, text)];
    if (body.solved) parts.push(el("p", {}, el("a", { href: "/account", id: "exercise-back" }, t("app:exercise.back"))));
    else parts.push(el("p", {}, el("button", { type: "button", id: "exercise-solution", onclick: showSolution }, t("app:exercises.show"))));
    result.replaceChildren(...parts);
  } catch (err) {
    result.replaceChildren(el("p", { class: "error" }, err.message));
  } finally {
    page.pending = false;
    draw();
  }
}

async function showSolution() {
  const result = $("exercise-result");
  try {
    const s = await api(`${path}/solution?lang=${encodeURIComponent(lang)}`);
    const say = (action, text) => (page.renderer.describeAction ? page.renderer.describeAction(action) : text);
    result.append(el("p", { class: "exercise-answer", id: "exercise-answer" }, t("app:exercise.solution", { better: say(s.better, s.better_text), played: say(s.played, s.played_text), before: percent(s.before), after: percent(s.after) })));
  } catch (err) {
    result.append(el("p", { class: "error" }, err.message));
  }
}

async function main() {
  try {
    page.data = await api(`${path}?lang=${encodeURIComponent(lang)}`);
  } catch (err) {
    $("board").replaceChildren(el("p", { class: "error", id: "exercise-error" }, t("app:exercise.none", { error: err.message })), el("p", {}, el("a", { href: "/" }, t("app:common.back_to_lobby"))));
    return;
  }
  const d = page.data;
  await loadNamespaces([d.game]);
  page.renderer = await rendererFor(d.game);
  page.names = d.names.map((name, i) => (name ? seatName(name) : t("app:seat.name", { n: i + 1 })));
  page.solved = false; // solved before or not, the position can be played again
  const game = gameName(d.game);
  document.title = t("app:exercise.page_title", { game });
  $("exercise-title").textContent = t("app:exercise.heading", { game });
  const info = [
    el("h3", {}, t("app:exercise.title")),
    el("p", { id: "exercise-question" }, t("app:exercise.question", { where: d.where, seat: page.names[d.seat], played: d.played_text })),
    el("p", { class: "small muted" }, t("app:exercise.help", { loss: percent(d.loss) })),
    d.solved ? el("p", { class: "small", id: "exercise-solved-before" }, t("app:exercise.solved_before")) : null,
    el("p", { class: "small" }, el("a", { href: `/replay/${encodeURIComponent(d.table)}?step=${d.move}` }, t("app:exercises.see"))),
  ].filter(Boolean);
  $("exercise-info").replaceChildren(...info);
  document.body.dataset.ready = "1";
  draw();
}

main();

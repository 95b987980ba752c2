// Tutorials (issue 33; docs/server.md, "Tutorials"): short lessons from written positions, one game at a
// time, with no account. /tutorial lists the games; /tutorial/{game}?lesson=ID plays a lesson: the step's
// text (the rulebook's words, from the game's catalogue), the board drawn by the game's own renderer with
// its legal moves, and the move sent to the server, which checks it (POST /api/tutorials/{game}/{lesson}/try)
// and plays the other seats' answers. The page keeps the moves made in the lesson and sends them with each
// request (the server keeps nothing); finished lessons are kept in this browser (localStorage).

import { api, drawBoard, el, rendererFor } from "/static/js/api.js";
import { gameName, loadAllNamespaces, loadNamespaces, t } from "/static/js/i18n.js";

const $ = (id) => document.getElementById(id);
const STORE = "robotable.tutorial.v1";
const parts = location.pathname.split("/").filter(Boolean);
const gameId = parts.length > 1 ? decodeURIComponent(parts[1]) : null;

const page = { list: null, data: null, renderer: null, moves: [], pending: false, feedback: null, showing: false };

// -- progress, kept in this browser -------------------------------------------------------------------

function progress() {
  try {
    const data = JSON.parse(localStorage.getItem(STORE) || "{}");
    return { done: data.done || {}, at: data.at || {} };
  } catch {
    return { done: {}, at: {} };
  }
}

function saveProgress(update) {
  const data = progress();
  update(data);
  try {
    localStorage.setItem(STORE, JSON.stringify(data));
  } catch {
    // private browsing without storage: progress is not kept, the lessons still play
  }
}

const doneLessons = (game) => new Set(progress().done[game] || []);

function markDone(game, lesson) {
  saveProgress((data) => {
    const list = new Set(data.done[game] || []);
    list.add(lesson);
    data.done[game] = [...list];
    delete data.at[game];
  });
}

function keepPlace(game, lesson, moves) {
  saveProgress((data) => {
    data.at[game] = { lesson, moves };
  });
}

// -- the games' list ------------------------------------------------------------------------------------

async function showGames() {
  await loadAllNamespaces();
  const box = $("tutorial-games");
  box.hidden = false;
  let list;
  try {
    list = (await api("/api/tutorials")).tutorials;
  } catch (err) {
    box.replaceChildren(el("p", { class: "error" }, err.message));
    return;
  }
  const cards = list.map((tut) => {
    const done = doneLessons(tut.game);
    const next = tut.lessons.find((x) => !done.has(x.id)) || tut.lessons[0];
    const started = done.size > 0;
    const all = done.size >= tut.lessons.length;
    return el(
      "section",
      { class: "panel tutorial-card", dataset: { game: tut.game } },
      el("img", { src: `/static/img/${tut.game}.svg`, alt: "", width: 120, height: 80 }),
      el("h3", {}, gameName(tut.game)),
      el("p", { class: "small muted" }, t("app:tutorial.count", { count: tut.lessons.length, done: done.size })),
      el(
        "ol",
        { class: "small" },
        tut.lessons.map((x) => el("li", { class: done.has(x.id) ? "done" : "" }, el("a", { href: lessonUrl(tut.game, x.id) }, t(`${tut.game}:tutorial.${x.id}.title`)))),
      ),
      el("p", {}, el("a", { class: "button primary", href: lessonUrl(tut.game, next.id), dataset: { start: tut.game } }, all ? t("app:tutorial.again") : started ? t("app:tutorial.continue") : t("app:tutorial.start"))),
    );
  });
  box.replaceChildren(
    el("h1", {}, t("app:tutorial.title")),
    el("p", {}, t("app:tutorial.about")),
    el("div", { class: "tutorial-cards" }, cards),
    el("p", { class: "small" }, el("a", { href: "/" }, t("app:common.back_to_lobby"))),
  );
  document.body.dataset.ready = "1";
}

const lessonUrl = (game, lesson) => `/tutorial/${encodeURIComponent(game)}?lesson=${encodeURIComponent(lesson)}`;

// -- a lesson -------------------------------------------------------------------------------------------

const base = () => `/api/tutorials/${encodeURIComponent(gameId)}/${encodeURIComponent(page.data.lesson)}`;

function names() {
  return Array.from({ length: page.data.num_players }, (_, i) => (i === page.data.seat ? t("app:tutorial.player") : t("app:tutorial.opponent", { n: i + 1 })));
}

function showBoard(events = []) {
  const d = page.data;
  const ctx = {
    view: d.view,
    legal: page.pending || d.finished ? [] : d.legal,
    seat: d.seat,
    names: names(),
    act,
    replay: false,
    tableId: `tutorial:${gameId}:${d.lesson}`,
    moves: d.moves,
    events,
    preview: d.previews ? (action) => api(`${base()}/preview`, { method: "POST", body: { moves: page.moves, action } }) : null,
    evaluate: (query) => api(`${base()}/evaluate`, { method: "POST", body: { moves: page.moves, query } }),
  };
  document.body.classList.toggle("pending", page.pending);
  document.body.dataset.step = String(d.step);
  document.body.dataset.finished = d.finished ? "1" : "0";
  drawBoard(page.renderer, $("board"), ctx);
}

/** A move in the game's words (the renderer's), for "show me". */
function words(action) {
  return page.renderer.describeAction ? page.renderer.describeAction(action) : JSON.stringify(action);
}

function drawGuide() {
  const d = page.data;
  $("tutorial-where").textContent = t("app:tutorial.lesson_of", { n: d.index + 1, count: d.count, game: gameName(gameId) });
  $("tutorial-lesson-title").textContent = t(d.title);
  $("tutorial-intro").textContent = t(d.intro);
  $("tutorial-guide").classList.toggle("show-intro", d.step === 0);
  // the steps done so far (their texts, ticked), then the step to play now in the box below
  $("tutorial-steps").replaceChildren(...d.steps.slice(0, d.step).map((s) => el("li", { class: "done", dataset: { step: s.id } }, t(s.text))));
  $("tutorial-step-of").textContent = d.finished ? "" : t("app:tutorial.step_of", { n: d.step + 1, count: d.steps.length });
  const feedback = $("tutorial-feedback");
  feedback.replaceChildren(...(page.feedback ? [page.feedback] : []));
  $("tutorial-text").textContent = d.finished ? "" : t(d.steps[d.step].text);
  const show = $("tutorial-show-text");
  show.hidden = !page.showing || d.finished;
  if (page.showing && !d.finished) show.textContent = d.expected.length ? t("app:tutorial.show_me_text", { move: words(d.expected[0]) }) : t("app:tutorial.show_me_none");
  $("tutorial-show").hidden = d.finished;
  const next = $("tutorial-next");
  next.hidden = !d.finished;
  if (d.finished) {
    next.href = d.next ? lessonUrl(gameId, d.next) : "/tutorial";
    next.textContent = d.next ? t("app:tutorial.next_lesson") : t("app:tutorial.all_done_button");
  }
  const done = doneLessons(gameId);
  $("tutorial-lessons").replaceChildren(
    ...page.list.lessons.map((x) =>
      el("li", { class: `${done.has(x.id) ? "done" : ""}${x.id === d.lesson ? " current" : ""}` }, el("a", { href: lessonUrl(gameId, x.id), dataset: { lesson: x.id } }, t(`${gameId}:tutorial.${x.id}.title`))),
    ),
  );
}

/** On a phone (the guide above the board, kept in view), after a move: the board's top just below the
 * guide, where the move shows (Twin Tin Bots' run, TF22's reveal, the production lines). */
function showBoardTop() {
  if (!window.matchMedia("(max-width: 900px)").matches) return;
  const guide = $("tutorial-guide").getBoundingClientRect();
  const top = $("board").getBoundingClientRect().top;
  if (top < guide.bottom || top > window.innerHeight * 0.6) window.scrollBy(0, top - guide.bottom - 8);
}

function feedbackLine(kind, text, id) {
  return el("p", { class: kind, id }, text);
}

async function act(action) {
  if (page.pending || page.data.finished) return;
  page.pending = true;
  showBoard();
  const before = page.data;
  try {
    const answer = await api(`${base()}/try`, { method: "POST", body: { moves: page.moves, action } });
    if (answer.accepted) {
      page.moves = page.moves.concat([action]);
      page.showing = false;
      const step = before.steps[before.step];
      page.data = answer;
      if (answer.finished) {
        markDone(gameId, answer.lesson);
        const left = page.list.lessons.filter((x) => !doneLessons(gameId).has(x.id)).length;
        const last = !answer.next;
        let finished = t("app:tutorial.lesson_done");
        if (!left) finished = t("app:tutorial.all_done", { game: gameName(gameId) });
        else if (last) finished = t("app:tutorial.some_left", { count: left });
        page.feedback = el(
          "div",
          {},
          feedbackLine("done", `✓ ${t(step.done)}`, "tutorial-done"),
          feedbackLine("finished", finished, "tutorial-finished"),
          !left ? el("p", { class: "small" }, el("a", { href: "/", id: "tutorial-play" }, t("app:tutorial.play_now"))) : null,
        );
      } else {
        keepPlace(gameId, answer.lesson, page.moves);
        page.feedback = feedbackLine("done", `✓ ${t(step.done)}`, "tutorial-done");
      }
      page.pending = false;
      drawGuide();
      showBoard(answer.events);
      showBoardTop();
      document.body.dataset.accepted = String(page.moves.length);
    } else {
      page.pending = false;
      page.feedback = feedbackLine("hint", t(answer.hint), "tutorial-hint");
      drawGuide();
      showBoard();
      document.body.dataset.hints = String(Number(document.body.dataset.hints || 0) + 1);
    }
  } catch (err) {
    page.pending = false;
    page.feedback = feedbackLine("error", err.message, "tutorial-error");
    drawGuide();
    showBoard();
  }
}

async function openLesson(lessonId, moves = []) {
  const path = `/api/tutorials/${encodeURIComponent(gameId)}/${encodeURIComponent(lessonId)}`;
  page.data = moves.length ? await api(`${path}/state`, { method: "POST", body: { moves } }) : await api(path);
  page.moves = moves;
  page.feedback = null;
  page.showing = false;
  history.replaceState(null, "", lessonUrl(gameId, lessonId));
  document.title = t("app:tutorial.page_title", { game: gameName(gameId), lesson: t(page.data.title) });
  drawGuide();
  showBoard();
}

async function showLesson() {
  await loadNamespaces([gameId]);
  $("tutorial-main").hidden = false;
  try {
    page.list = await api(`/api/tutorials/${encodeURIComponent(gameId)}`);
  } catch (err) {
    $("board").replaceChildren(el("p", { class: "error", id: "tutorial-load-error" }, err.message), el("p", {}, el("a", { href: "/tutorial" }, t("app:tutorial.all_games"))));
    $("tutorial-guide").hidden = true;
    return;
  }
  page.renderer = await rendererFor(gameId);
  $("tutorial-title").textContent = t("app:tutorial.heading", { game: gameName(gameId) });
  const asked = new URLSearchParams(location.search).get("lesson");
  const done = doneLessons(gameId);
  const known = (id) => page.list.lessons.some((x) => x.id === id);
  const first = page.list.lessons.find((x) => !done.has(x.id)) || page.list.lessons[0];
  const lesson = asked && known(asked) ? asked : first.id;
  const at = progress().at[gameId];
  try {
    if (at && at.lesson === lesson && Array.isArray(at.moves) && at.moves.length) await openLesson(lesson, at.moves);
    else await openLesson(lesson);
  } catch {
    await openLesson(lesson); // a place kept by an older version of the lesson: start it again
  }
  $("tutorial-show").addEventListener("click", () => {
    page.showing = true;
    drawGuide();
  });
  $("tutorial-restart").addEventListener("click", () => {
    saveProgress((data) => delete data.at[gameId]);
    openLesson(page.data.lesson);
  });
  document.body.dataset.ready = "1";
}

if (gameId) showLesson();
else showGames();

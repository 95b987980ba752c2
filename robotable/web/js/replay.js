// The replay viewer: a finished table (as a spectator, or as a seat this browser holds) or an uploaded
// record, step by step. The server sends each step as that seat saw it (views and visible events).

import { api, currentAccount, drawBoard, el, mySeats, rendererFor, toast } from "/static/js/api.js";
import { gameName, loadNamespaces, seatName, t } from "/static/js/i18n.js";
import { mountReview } from "/static/js/review.js";

const $ = (id) => document.getElementById(id);
const parts = location.pathname.split("/").filter(Boolean);
const tableId = parts.length > 1 ? decodeURIComponent(parts[1]) : null;

const rp = { data: null, index: 0, renderer: null, names: [], timer: null, seat: null, uploaded: null, signedIn: false };

function allLog(upto) {
  const out = [];
  for (let i = 1; i <= upto; i++) for (const e of rp.data.steps[i].events) out.push({ move: i, ...e });
  return out;
}

/** Show step ``index``. ``marks`` (the review's loss): ``{legal, act, preview}``, the moves to offer at
 * that position, drawn as at the table (the move played and the better move, nothing else). */
function show(index, marks = null) {
  const steps = rp.data.steps;
  rp.index = Math.max(0, Math.min(index, steps.length - 1));
  const step = steps[rp.index];
  $("slider").value = rp.index;
  $("step-label").textContent = t("app:replay.move_of", { n: rp.index, total: steps.length - 1 });
  document.body.dataset.step = rp.index;
  document.body.dataset.marked = marks ? "1" : "";
  const base = { view: step.view, seat: rp.seat, names: rp.names, moves: rp.index, events: [] };
  const ctx = marks
    ? { ...base, legal: marks.legal, act: marks.act, preview: marks.preview, evaluate: marks.evaluate, replay: false, tableId: `review:${tableId}` }
    : { ...base, legal: [], act: () => {}, replay: true };
  drawBoard(rp.renderer, $("board"), ctx);
  const describe = rp.renderer.describeEvent || ((e) => e.type);
  const log = allLog(rp.index);
  const items = log
    .map((e) => [e, describe(e, rp.names, rp.seat)])
    .filter(([, text]) => text !== null && text !== undefined && text !== "") // a renderer may leave an event out
    .map(([e, text]) => el("li", { class: `ev${e.move === rp.index ? " current" : ""}` }, el("span", { class: "move-no" }, e.move), " ", text));
  const list = $("log");
  list.replaceChildren(el("li", { class: "muted" }, t("app:table.game_starts")), ...items);
  list.scrollTop = list.scrollHeight;
  if (rp.index === steps.length - 1 && rp.data.result && rp.renderer.renderResult) {
    $("board").append(el("section", { class: "panel end-inline" }, el("h3", {}, t("app:replay.result")), rp.renderer.renderResult(rp.data.result, step.view, rp.names)));
  }
}

function togglePlay() {
  if (rp.timer) {
    clearInterval(rp.timer);
    rp.timer = null;
    $("play").textContent = t("app:replay.play");
    return;
  }
  $("play").textContent = t("app:replay.pause");
  rp.timer = setInterval(() => {
    if (rp.index >= rp.data.steps.length - 1) togglePlay();
    else show(rp.index + 1);
  }, 600);
}

async function start(data) {
  rp.data = data;
  await loadNamespaces([data.game]); // an uploaded record names its game only now
  rp.renderer = await rendererFor(data.game);
  rp.names = data.table ? data.table.seats.map((s) => seatName(s.name)) : Array.from({ length: data.num_players }, (_, i) => t("app:seat.name", { n: i + 1 }));
  const game = gameName(data.game, data.game_name);
  $("replay-title").textContent = data.table ? t("app:replay.heading_table", { game, id: data.table.id }) : t("app:replay.heading", { game });
  const who = data.seat === null || data.seat === undefined ? t("app:replay.a_spectator") : rp.names[data.seat];
  $("replay-info").replaceChildren(
    el("h3", {}, game),
    el("p", { class: "small" }, t("app:replay.info", { players: t("app:seat.players", { count: data.num_players }), moves: data.steps.length - 1, who })),
    ...(data.table ? [el("p", {}, el("a", { href: `/table/${data.table.id}?watch=1` }, t("app:replay.final_table")))] : []),
  );
  $("step-controls").hidden = false;
  $("slider").max = data.steps.length - 1;
  show(Number(new URLSearchParams(location.search).get("step")) || 0); // ?step=N: a position to look at
  if (data.table && rp.seat !== null) {
    // a player's own seat: a loss opens its position here, its two moves in the game's words and previews
    const game = { renderer: rp.renderer, viewAt: (step) => rp.data.steps[step]?.view, previews: !!rp.renderer.renderPreview };
    mountReview($("review"), data.table.id, rp.seat, rp.names, show, game);
  } else if (data.table && rp.signedIn) {
    // a spectator: every seat's review as a spectator may see it (made from a spectator's view where seats
    // held cards of their own); a point or a loss moves the replay there
    mountReview($("review"), data.table.id, null, rp.names, show);
  }
}

async function loadTable() {
  try {
    const [summary, who] = await Promise.all([api(`/api/tables/${encodeURIComponent(tableId)}`), currentAccount()]);
    const seats = mySeats(summary, who.account);
    const q = seats.length ? `?seat=${seats[0]}` : "";
    rp.seat = seats.length ? seats[0] : null;
    rp.signedIn = !!who.account;
    await start(await api(`/api/tables/${encodeURIComponent(tableId)}/replay${q}`));
  } catch (err) {
    $("board").replaceChildren(el("p", { class: "error" }, t("app:replay.none", { error: err.message })), el("p", {}, el("a", { href: "/" }, t("app:common.back_to_lobby"))));
  }
}

async function loadUpload() {
  const file = $("record-file").files[0];
  if (!file) return;
  const text = await file.text();
  let record;
  try {
    record = JSON.parse(text); // only to offer its seats: the file itself is sent as is
  } catch (err) {
    toast(t("app:replay.not_json", { error: err.message }));
    return;
  }
  rp.uploaded = text;
  const select = $("record-seat");
  const previous = select.value;
  if (Number.isInteger(record.num_players)) {
    select.replaceChildren(el("option", { value: "" }, t("app:replay.spectator")), ...Array.from({ length: record.num_players }, (_, i) => el("option", { value: i, selected: String(i) === previous }, t("app:replay.seat", { n: i + 1 }))));
  }
  await replayUploaded();
}

async function replayUploaded() {
  if (!rp.uploaded) return;
  const seatValue = $("record-seat").value;
  rp.seat = seatValue === "" ? null : Number(seatValue);
  try {
    const rawBody = `{"record": ${rp.uploaded}, "seat": ${rp.seat === null ? "null" : rp.seat}}`;
    await start(await api("/api/replays", { method: "POST", rawBody }));
  } catch (err) {
    toast(t("app:replay.cannot", { error: err.message }));
  }
}

$("first").addEventListener("click", () => show(0));
$("prev").addEventListener("click", () => show(rp.index - 1));
$("next").addEventListener("click", () => show(rp.index + 1));
$("last").addEventListener("click", () => show(rp.data.steps.length - 1));
$("play").addEventListener("click", togglePlay);
$("slider").addEventListener("input", (e) => show(Number(e.target.value)));
document.addEventListener("keydown", (e) => {
  if (!rp.data || e.target.tagName === "INPUT" && e.target.type !== "range") return;
  if (e.key === "ArrowRight") show(rp.index + 1);
  else if (e.key === "ArrowLeft") show(rp.index - 1);
  else if (e.key === "Home") show(0);
  else if (e.key === "End") show(rp.data.steps.length - 1);
  else if (e.key === " ") {
    e.preventDefault();
    togglePlay();
  }
});

if (tableId) loadTable();
else {
  $("upload").hidden = false;
  $("record-file").addEventListener("change", loadUpload);
  $("record-seat").addEventListener("change", replayUploaded);
}

// Tournaments: /tournaments lists them and makes one; /tournaments/{id} is a tournament's page (sign-up,
// start, its rounds with their tables and results, the standings), read again every few seconds while it
// is being played. Everything is drawn as text.

import { api, currentAccount, el, requestThen, toast } from "/static/js/api.js";
import { gameName, levelName, loadAllNamespaces, seatName, t } from "/static/js/i18n.js";
import { settingsText, statusText, tournamentRow } from "/static/js/tournament-common.js";

await loadAllNamespaces(); // the games' names

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 3000;
const match = location.pathname.match(/^\/tournaments\/([^/]+)$/);
const tournamentId = match ? decodeURIComponent(match[1]) : null;
let timer = null;

const act = (path, method = "POST", body = undefined) => requestThen(load, path, method, body);

// -- the list and the form ------------------------------------------------------------------------------

function option(value, label, selected = false) {
  return el("option", { value, selected }, label);
}

function createForm(gamesList) {
  const clocks = [
    option("default", t("app:tournament.clock_default"), true),
    option("blitz", t("app:tournament.clock_blitz")),
    option("turn-1", t("app:tournament.clock_turn_1")),
    option("turn-2", t("app:tournament.clock_turn_2")),
    option("turn-3", t("app:tournament.clock_turn_3")),
  ];
  const form = el(
    "form",
    { id: "tournament-create", class: "tournament-form" },
    el("label", {}, t("app:tournament.name"), el("input", { id: "t-name", maxlength: "60", required: true, autocomplete: "off" })),
    el("label", {}, t("app:tournament.game"), el("select", { id: "t-game" }, gamesList.map((g) => option(g.id, gameName(g.id, g.name))))),
    el("label", {}, t("app:tournament.table_size"), el("select", { id: "t-size" }, [2, 3, 4, 5, 6].map((n) => option(String(n), String(n), n === 2)))),
    el("label", {}, t("app:tournament.rounds"), el("input", { id: "t-rounds", type: "number", min: "1", max: "20", value: "3", required: true })),
    el("label", {}, t("app:tournament.clock"), el("select", { id: "t-clock" }, clocks)),
    el("label", { class: "small" }, el("input", { type: "checkbox", id: "t-bots" }), " ", t("app:tournament.bots_allowed")),
    el("button", { type: "submit", class: "primary", id: "t-create" }, t("app:tournament.create_button")),
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const clock = $("t-clock").value;
    const body = {
      name: $("t-name").value.trim(),
      game: $("t-game").value,
      table_size: Number($("t-size").value),
      rounds: Number($("t-rounds").value),
      bots_allowed: $("t-bots").checked,
    };
    if (clock === "blitz") body.time_control = { kind: "live", base: 180, increment: 2 };
    else if (clock.startsWith("turn-")) body.time_control = { kind: "turn", days: Number(clock.slice(5)) };
    try {
      const made = await api("/api/tournaments", { method: "POST", body });
      location.assign(`/tournaments/${encodeURIComponent(made.tournament.id)}`);
    } catch (err) {
      toast(err.message);
    }
  });
  return el("section", { class: "panel" }, el("h3", {}, t("app:tournament.create")), form);
}

function listSection(title, id, rows) {
  const body = rows.length ? rows.map(tournamentRow) : [el("p", { class: "muted small" }, t("app:tournament.none"))];
  return el("section", { class: "panel", id }, el("h3", {}, title), body);
}

async function loadList() {
  const [{ account }, listed, gamesList] = await Promise.all([currentAccount(), api("/api/tournaments"), api("/api/games")]);
  const by = (status) => listed.tournaments.filter((tm) => tm.status === status);
  $("tournament-body").replaceChildren(
    account ? createForm(gamesList) : el("p", { class: "panel muted" }, t("app:tournament.sign_in")),
    listSection(t("app:tournament.list_signup"), "tournaments-signup", by("signup")),
    listSection(t("app:tournament.list_running"), "tournaments-running", by("running")),
    listSection(t("app:tournament.list_finished"), "tournaments-finished", by("finished")),
  );
}

// -- one tournament -------------------------------------------------------------------------------------

function actions(data, account, difficulties) {
  const tm = data.tournament;
  const me = data.me;
  const base = `/api/tournaments/${encodeURIComponent(tm.id)}`;
  const out = [];
  if (tm.status === "signup" && account) {
    if (me.entered) {
      out.push(el("span", { class: "tag on" }, t("app:tournament.entered")));
      out.push(el("button", { type: "button", id: "t-withdraw", onclick: () => act(`${base}/entries/${encodeURIComponent(me.entry)}`, "DELETE") }, t("app:tournament.withdraw")));
    } else {
      out.push(el("button", { type: "button", class: "primary", id: "t-enter", onclick: () => act(`${base}/entries`) }, t("app:tournament.enter")));
    }
    if (me.organiser) {
      out.push(el("button", { type: "button", class: "primary", id: "t-start", onclick: () => act(`${base}/start`) }, t("app:tournament.start")));
      if (tm.bots_allowed) {
        const level = el("select", { id: "t-bot-level", "aria-label": t("app:tournament.bot_level") }, difficulties.map((d) => option(d.difficulty, levelName(d.difficulty))));
        out.push(level, el("button", { type: "button", id: "t-add-bot", onclick: () => act(`${base}/bots`, "POST", { difficulty: level.value }) }, t("app:tournament.add_bot")));
      }
    }
  } else if (!account && tm.status === "signup") {
    out.push(el("span", { class: "muted small" }, t("app:tournament.sign_in")));
  }
  if (me.organiser) out.push(el("span", { class: "muted small" }, t("app:tournament.organiser")));
  return out.length ? el("div", { class: "tournament-actions" }, out) : null;
}

function standingsTable(data) {
  const head = el(
    "tr",
    {},
    el("th", { class: "num" }, t("app:tournament.place")),
    el("th", {}, t("app:tournament.player")),
    el("th", { class: "num" }, t("app:tournament.points")),
    el("th", { class: "num" }, t("app:tournament.buchholz")),
    el("th", { class: "num" }, t("app:tournament.rating")),
  );
  const rows = data.standings.map((s) =>
    el(
      "tr",
      { dataset: { entry: s.entry } },
      el("td", { class: "num" }, String(s.place)),
      el("td", {}, seatName(s.name), s.kind === "bot" ? el("span", { class: "muted small" }, ` · ${t("app:tournament.bot")}`) : null),
      el("td", { class: "num" }, formatPoints(s.points)),
      el("td", { class: "num" }, formatPoints(s.buchholz)),
      el("td", { class: "num" }, String(s.rating)),
    ),
  );
  return el("section", { class: "panel", id: "tournament-standings" }, el("h3", {}, t("app:tournament.standings")), el("table", { class: "tournament-standings" }, el("thead", {}, head), el("tbody", {}, rows)));
}

function formatPoints(value) {
  return Number.isInteger(value) ? String(value) : value.toFixed(2).replace(/0$/, "");
}

function roundSection(round, me) {
  const tables = round.tables.map((tb) => {
    const mine = me.entry !== null && tb.seats.some((s) => s.entry === me.entry);
    const playing = mine && tb.outcome === "playing";
    return el(
      "div",
      { class: `tournament-table ${tb.outcome}${mine ? " mine" : ""}`, dataset: { board: String(tb.board), outcome: tb.outcome } },
      el("strong", {}, t("app:tournament.board", { n: tb.board + 1 })),
      el("span", { class: "tag neutral" }, t(`app:tournament.outcome_${tb.outcome}`)),
      tb.table ? el("a", { class: `button small${playing ? " primary" : ""}`, href: `/table/${encodeURIComponent(tb.table)}` }, t(playing ? "app:tournament.play_table" : "app:tournament.open_table")) : null,
      el(
        "div",
        { class: "seats" },
        tb.seats.map((s) =>
          el(
            "span",
            { class: `seat-badge${s.forfeit ? " forfeit" : ""}`, title: s.forfeit ? t("app:tournament.forfeit_mark") : null },
            seatName(s.name),
            s.points === null ? null : ` · ${formatPoints(s.points)}`,
            s.forfeit ? ` (${t("app:tournament.forfeit_mark")})` : null,
          ),
        ),
      ),
    );
  });
  return el("section", { class: "panel tournament-round", dataset: { round: String(round.round) } }, el("h3", {}, t("app:tournament.round", { n: round.round })), tables);
}

async function loadOne() {
  let data;
  try {
    data = await api(`/api/tournaments/${encodeURIComponent(tournamentId)}`);
  } catch (err) {
    $("tournament-body").replaceChildren(el("p", { class: "panel muted" }, t("app:tournament.load_failed", { error: err.message })));
    return;
  }
  const [{ account }, difficulties] = await Promise.all([currentAccount(), data.tournament.bots_allowed ? api("/api/difficulties") : []]);
  const tm = data.tournament;
  document.title = `${tm.name} · ${t("app:tournament.page_title")}`;
  const entrants = data.entrants.length
    ? el("div", { class: "tournament-entrants" }, data.entrants.map((e) => el("span", { class: "seat-badge", dataset: { entry: e.entry } }, seatName(e.name))))
    : el("p", { class: "muted small" }, t("app:tournament.no_entrants"));
  $("tournament-intro").replaceChildren(
    ...[
      el("a", { href: "/tournaments", class: "small" }, t("app:tournament.back")),
      el("h2", { id: "tournament-name" }, tm.name),
      el("p", { class: "muted small" }, settingsText(tm)),
      el("p", {}, el("span", { class: "tag", id: "tournament-status", dataset: { status: tm.status } }, statusText(tm))),
      actions(data, account, difficulties),
      el("p", { class: "muted small" }, t("app:tournament.rules")),
    ].filter(Boolean),
  );
  $("tournament-body").replaceChildren(
    ...[
      data.standings.length && tm.status !== "signup" ? standingsTable(data) : null,
      ...[...data.rounds].reverse().map((round) => roundSection(round, data.me)),
      el("section", { class: "panel", id: "tournament-entrants" }, el("h3", {}, t("app:tournament.entrants"), ` (${data.entrants.length})`), entrants),
    ].filter(Boolean),
  );
  clearTimeout(timer);
  if (tm.status !== "finished") timer = setTimeout(load, REFRESH_MS);
}

async function load() {
  try {
    if (tournamentId) await loadOne();
    else await loadList();
  } catch (err) {
    toast(err.message);
  }
}

await load();

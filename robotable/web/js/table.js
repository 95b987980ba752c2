// A table: one websocket per seat played from this browser (or a spectator), the game's renderer,
// the log, undo, seats (hand an absent player's seat to a bot), the end screen and "play again".
// The page never implements rules: it shows the view and offers exactly the legal actions sent.

import { api, currentAccount, drawBoard, el, mySeats, rendererFor, socketUrl, toast } from "/static/js/api.js";
import { addLine, loadChat, mountChat, setWritable } from "/static/js/chat.js";
import { errorText, gameName, levelName, ratedLevelName, ratingTitle, seatName, t } from "/static/js/i18n.js";
import { inviteFriend } from "/static/js/friend-invite.js";
import { hintControls, hintsAllowed } from "/static/js/hint.js";
import { loadStanding, standingTag } from "/static/js/people-standing.js";
import { resultExtras } from "/static/js/standing.js";
import { clockTag, controlLabel, mayHandOver, setClock, showTurn, startTicker, turnControls, waitingForPlayers } from "/static/js/turn.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);

const page = {
  seat: null, // the seat this page plays, null = spectator
  socket: null,
  current: null, // last snapshot/update message
  inbox: Promise.resolve(), // the socket's messages, handled one after another
  log: [],
  renderer: null,
  pending: false,
  retry: 0,
  endDismissed: false,
  closing: false,
  logFollow: true, // keep the log scrolled to the newest line unless the reader scrolled up
  account: null, // the signed-in account (null: signed out)
  summary: null, // the table's summary before the first snapshot
  levels: [], // the bots' levels (GET /api/difficulties), offered when a seat is handed to a bot
};

// The log follows the newest line until the reader scrolls it up (by wheel, touch, keys or the bar),
// and follows again once they scroll back to the bottom.
{
  const list = document.getElementById("log");
  let userAt = 0;
  for (const kind of ["wheel", "touchmove", "keydown", "pointerdown"]) list.addEventListener(kind, () => (userAt = Date.now()), { passive: true });
  list.addEventListener("scroll", () => {
    if (Date.now() - userAt < 1500) page.logFollow = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  });
  new ResizeObserver(() => {
    if (page.logFollow) list.scrollTop = list.scrollHeight;
  }).observe(list);
}

function heldSeats() {
  return mySeats(page.current ? page.current.table : page.summary, page.account);
}

function names() {
  return page.current ? page.current.table.seats.map((s) => seatName(s.name)) : [];
}

async function pickSeat() {
  page.account = (await currentAccount()).account;
  try {
    page.summary = await api(`/api/tables/${encodeURIComponent(tableId)}`);
  } catch (err) {
    page.summary = null; // the socket says why (no such table)
  }
  if (params.has("watch")) return canonical(null);
  const held = heldSeats();
  // a link's seat is an index from 0 (seat 1 is ?seat=0); anything else in it (an old token) is ignored
  const asked = params.has("seat");
  const wanted = asked && /^\d{1,3}$/.test(params.get("seat")) ? Number(params.get("seat")) : null;
  if (wanted !== null && held.includes(wanted)) return canonical(wanted);
  const fallback = held.length ? held[0] : null;
  if (asked && page.summary) {
    toast(badSeatNote(wanted, fallback), "info");
  }
  return page.summary ? canonical(fallback) : fallback;
}

/** What a link's seat that is not yours leaves this page on (seats counted from 1). */
function badSeatNote(wanted, fallback) {
  const n = wanted === null ? null : wanted + 1;
  if (!page.account) return n === null ? t("app:table.sign_in_that_seat") : t("app:table.sign_in_seat", { n });
  if (fallback === null) return n === null ? t("app:table.that_seat_watch") : t("app:table.not_your_seat", { n });
  const m = fallback + 1;
  return n === null ? t("app:table.that_seat_play", { m }) : t("app:table.not_your_seat_play", { n, m });
}

/** Put the seat this page plays in its URL, and nothing else (a bad link's extras do not stay). */
function canonical(seat) {
  history.replaceState(null, "", `${location.pathname}?${seat === null ? "watch=1" : `seat=${seat}`}`);
  return seat;
}

function connect() {
  if (page.socket) {
    page.closing = true;
    page.socket.close();
  }
  const socket = new WebSocket(socketUrl(tableId, page.seat));
  page.socket = socket;
  page.closing = false;
  setConnection(t("app:table.connecting"), "");
  socket.addEventListener("open", () => {
    page.retry = 0;
    loadChat(); // the lines written while this page was away, then each new one over the socket
  });
  // one message at a time, in the order they came: the first snapshot waits for the game's renderer to
  // load, and an update handled before it would then be overwritten by the older snapshot
  socket.addEventListener("message", (event) => {
    const msg = JSON.parse(event.data);
    page.inbox = page.inbox.then(() => handle(msg)).catch(reportError);
  });
  socket.addEventListener("close", (event) => {
    if (socket !== page.socket || page.closing) return;
    if (event.code >= 4400 && event.code < 4500) {
      setConnection(t("app:table.refused"), "bad"); // refused: the error says why
      return;
    }
    page.retry = Math.min(page.retry + 1, 6);
    setConnection(t("app:table.reconnecting"), "bad");
    setTimeout(connect, 500 * 2 ** page.retry);
  });
}

function setConnection(text, cls) {
  const node = $("connection");
  node.textContent = text;
  node.className = `connection ${cls}`;
}

async function handle(msg) {
  if (msg.type === "snapshot" || msg.type === "update") {
    if (!page.renderer) page.renderer = await rendererFor(msg.table.game);
    if (msg.type === "snapshot") page.log = msg.log;
    else page.log = page.log.concat(msg.events);
    page.current = msg;
    setConnection(page.seat === null ? t("app:table.watching_live") : t("app:table.live"), "ok"); // live once the server sent the table
    setClock(msg.table);
    page.pending = false;
    if (msg.reason === "undo") toast(t("app:table.move_undone"), "info");
    render();
  } else if (msg.type === "chat") {
    addLine(msg.line);
  } else if (msg.type === "table") {
    if (page.current) {
      page.current.table = msg.table;
      setClock(msg.table);
      renderSide();
      renderEnd();
    }
  } else if (msg.type === "error") {
    page.pending = false;
    const text = errorText({ code: msg.code, params: msg.params, detail: msg.message });
    toast(text);
    if (!page.current) setConnection(t("app:table.refused"), "bad");
    if (!page.current) $("board").replaceChildren(el("p", { class: "error" }, text), el("p", {}, el("a", { href: "/" }, t("app:common.back_to_lobby"))));
    if (page.current) render();
  }
}

function act(action) {
  if (page.pending || !page.socket || page.socket.readyState !== WebSocket.OPEN) return;
  page.pending = true;
  document.body.classList.add("pending");
  page.socket.send(JSON.stringify({ type: "move", action, after: page.current.moves }));
}

/** Ask the server what a candidate action would do (games with previews); resolves to {moves, preview}. */
function previewAction(action) {
  return api(`/api/tables/${tableId}/preview`, { method: "POST", body: { seat: page.seat, action } });
}

function undo() {
  if (page.socket && page.socket.readyState === WebSocket.OPEN) page.socket.send(JSON.stringify({ type: "undo" }));
}

function render() {
  const msg = page.current;
  document.body.classList.toggle("pending", page.pending);
  document.body.dataset.moves = msg.moves;
  document.body.dataset.status = msg.table.status;
  const game = gameName(msg.table.game, msg.table.game_name);
  showTurn(myMove(msg), game);
  $("table-title").textContent = t("app:table.title", { game, id: msg.table.id });
  const ctx = {
    view: msg.view,
    legal: page.pending ? [] : msg.legal,
    seat: page.seat,
    names: names(),
    act,
    replay: false,
    tableId,
    moves: msg.moves,
    events: msg.type === "update" ? msg.events : [], // the new events, for the renderer's animations
    preview: page.seat === null ? null : previewAction,
  };
  drawBoard(page.renderer, $("board"), ctx);
  renderSide();
  renderLog();
  renderEnd();
}

/** Whether the game waits for this page's seat (to move, or to answer an offer): a seat that may only
 * act "at any time" (a trade offer, ``optional_actors``) has legal moves but is not waited for. */
function myMove(msg) {
  return page.seat !== null && msg.to_act.includes(page.seat) && msg.legal.length > 0;
}

let standingAsked = ""; // the accounts whose rating and reputation were last asked for

/** Ask for the seated people's rating and reputation once per set of accounts, then draw them. */
function askStanding(table) {
  const ids = table.seats.map((s) => s.account).filter(Boolean);
  if (ids.join(",") === standingAsked) return;
  standingAsked = ids.join(",");
  loadStanding(ids)
    .then(() => page.current && renderSide())
    .catch(() => {});
}

function renderSide() {
  const msg = page.current;
  const table = msg.table;
  // seat switch (hotseat)
  const held = heldSeats();
  const switcher = $("seat-switch");
  const buttons = held.map((s) => {
    const waiting = table.to_act.includes(s) && !table.seats[s].handed_to_bot;
    return el(
      "button",
      { type: "button", class: `seat-tab${s === page.seat ? " active" : ""}${waiting ? " waiting" : ""}`, onclick: () => switchSeat(s), title: waiting ? t("app:table.to_act_title") : "" },
      table.seats[s] ? seatName(table.seats[s].name) : t("app:seat.name", { n: s + 1 }),
      waiting ? " •" : "",
    );
  });
  buttons.push(el("button", { type: "button", class: `seat-tab${page.seat === null ? " active" : ""}`, onclick: () => switchSeat(null) }, t("app:table.spectator")));
  switcher.replaceChildren(...(held.length ? buttons : [el("span", { class: "muted small" }, t("app:table.spectator_small"))]));

  // whose turn
  const waiting = table.to_act.map((s) => seatName(table.seats[s].name));
  const mine = myMove(msg);
  const answering = msg.answering || [];
  const acting = table.to_act.filter((s) => !answering.includes(s)).map((s) => seatName(table.seats[s].name));
  let turnText;
  if (table.status === "finished") turnText = t("app:table.over");
  else if (waitingForPlayers(table) && !mine) turnText = t("app:table.waiting_players");
  else if (mine && answering.includes(page.seat)) turnText = t("app:table.answer_waiting", { names: acting.join(t("app:common.list_sep")) });
  else if (mine) turnText = t("app:table.your_move");
  else if (waiting.length) turnText = t("app:table.waiting_for", { names: waiting.join(t("app:common.list_sep")) });
  else turnText = "";
  const parts = [
    el("div", { class: `turn-text${mine ? " mine" : ""}` }, turnText),
    page.seat === null ? el("div", { class: "muted small" }, t("app:table.watching_note")) : el("div", { class: "muted small" }, t("app:table.you_play", { name: seatName(table.seats[page.seat].name), n: page.seat + 1 })),
    table.clock ? el("div", { class: "muted small", id: "time-control" }, t("app:table.clock", { label: controlLabel() })) : null,
    waitingForPlayers(table) ? el("div", { class: "muted small", id: "waiting-players" }, t("app:table.clocks_wait")) : null,
    page.seat === null ? null : turnControls(),
  ];
  $("turn").replaceChildren(...parts.filter(Boolean)); // (replaceChildren would write a null as "null")

  // controls
  const controls = [];
  if (table.undo_supported && page.seat !== null && table.status !== "finished") {
    controls.push(
      el("button", { type: "button", id: "undo-button", onclick: undo, disabled: !msg.can_undo, title: t("app:table.undo_title") }, t("app:table.undo")),
    );
  }
  if (page.seat !== null && myMove(msg) && hintsAllowed(table)) controls.push(...hintControls(table.id, page.seat, msg.moves, { renderer: page.renderer, view: msg.view, names: names(), preview: previewAction }));
  if (table.status === "finished") {
    controls.push(el("a", { class: "button", href: `/replay/${table.id}` }, t("app:table.replay")));
    if (page.seat !== null) {
      controls.push(el("a", { class: "button", id: "download-record", download: `${table.game}-${table.id}.json`, href: `/api/tables/${table.id}/record` }, t("app:table.download")));
    }
    controls.push(el("button", { type: "button", onclick: () => { page.endDismissed = false; renderEnd(); } }, t("app:table.results")));
  }
  controls.push(el("a", { class: "button", href: `/table/${table.id}?watch=1`, target: "_blank", rel: "noopener" }, t("app:table.spectator_link")));
  controls.push(el("a", { class: "button", href: "/" }, t("app:common.lobby")));
  $("controls").replaceChildren(...controls);

  // seats
  const iSit = held.some((s) => !table.seats[s].handed_to_bot);
  $("seats").replaceChildren(
    ...table.seats.map((s) => {
      const isBot = s.kind === "bot" || s.handed_to_bot;
      const tags = [];
      if (isBot) {
        const asked = { difficulty: levelName(s.difficulty), agent: levelName(s.agent) };
        const rated = ratedLevelName(s.agent, s.level_rating); // "ISMCTS hard, rated 2690": the level's arena rating here
        tags.push(el("span", { class: "tag bot", title: ratingTitle(s.level_rating) || undefined }, t("app:table.bot_tag", { agent: rated })));
        if (s.agent !== s.difficulty) tags.push(el("span", { class: "tag warn", title: t("app:table.bot_unavailable", asked) }, t("app:table.bot_asked", asked)));
      }
      if (s.kind === "open") tags.push(el("span", { class: "tag" }, t("app:table.open_seat")));
      if (!isBot && s.kind === "human") tags.push(el("span", { class: `tag ${s.connected ? "on" : "off"}` }, s.connected ? t("app:table.online") : t("app:table.away")));
      if (!isBot && s.kind === "human" && s.account) {
        const standing = standingTag(s.account, table.game); // rating (1500-based) and reputation
        if (standing) tags.push(standing);
        else askStanding(table);
      }
      if (table.to_act.includes(s.seat)) tags.push(el("span", { class: "tag turn" }, t("app:table.to_act")));
      if (s.kind !== "bot" && !s.handed_to_bot && table.status !== "finished") tags.push(clockTag(s.seat));
      const buttons = [];
      if (iSit && !held.includes(s.seat) && mayHandOver(table, s.seat)) {
        // the level of the bot that takes the seat: by default the strongest that keeps the table moving at its clock
        const chosen = table.clock && table.clock.hand_over_level;
        const level = el(
          "select",
          { class: "small hand-level", id: `hand-level-${s.seat}`, "aria-label": t("app:table.hand_level") },
          page.levels.map((d) => el("option", { value: d.difficulty, selected: d.difficulty === chosen }, ratedLevelName(d.difficulty, (d.ratings || {})[table.game]))),
        );
        buttons.push(level, el("button", { type: "button", class: "small", dataset: { handOver: s.seat }, onclick: () => handToBot(s.seat, level.value || null) }, t("app:table.hand_to_bot")));
      }
      if (held.includes(s.seat) && s.handed_to_bot && table.status !== "finished") {
        buttons.push(el("button", { type: "button", class: "small", onclick: () => reclaim(s.seat) }, t("app:table.take_back")));
      }
      if (s.kind === "human" && !s.account && page.account && table.created_by === page.account.id && table.status !== "finished") {
        tags.push(el("span", { class: "tag" }, t("app:table.invited")));
        buttons.push(el("button", { type: "button", class: "small", onclick: () => newInvite(s.seat) }, t("app:table.new_invite")));
        if (!page.account.guest) {
          const invite = () => inviteFriend(tableId, s.seat);
          buttons.push(el("button", { type: "button", class: "small", id: `invite-friend-${s.seat}`, onclick: invite }, t("app:friends.invite")));
        }
      }
      return el("div", { class: "seat-line" }, el("span", { class: "seat-name" }, `${s.seat + 1}. ${seatName(s.name)}`), ...tags, ...buttons);
    }),
  );
}

function renderLog() {
  const list = $("log");
  const describe = page.renderer.describeEvent || (() => null);
  const items = [el("li", { class: "muted" }, t("app:table.game_starts"))];
  for (const event of page.log) {
    const text = describe(event, names(), page.seat);
    if (text === null || text === undefined || text === "") continue;
    items.push(el("li", { class: `ev ev-${event.type}` }, el("span", { class: "move-no" }, event.move), " ", text));
  }
  list.replaceChildren(...items);
  if (page.logFollow) list.scrollTop = list.scrollHeight;
}

function renderEnd() {
  const msg = page.current;
  const box = $("end-screen");
  if (!msg || !msg.result || page.endDismissed) {
    box.hidden = true;
    return;
  }
  const table = msg.table;
  const content = el("div", { class: "end-card", role: "dialog", "aria-label": t("app:table.game_over") });
  content.append(el("h2", {}, t("app:table.game_over")));
  const winners = msg.result.winners.map((s) => names()[s]);
  content.append(el("p", { class: "winners" }, winners.length > 1 ? t("app:table.shared_victory", { names: winners.join(t("app:common.list_and")) }) : t("app:table.wins", { name: winners[0] })));
  const renderResult = page.renderer.renderResult || defaultResult;
  content.append(renderResult(msg.result, msg.view, names()));
  content.append(resultExtras(table));
  const buttons = [];
  const held = heldSeats();
  if (table.next_table) {
    buttons.push(el("a", { class: "button primary", href: `/table/${table.next_table}${page.seat !== null ? `?seat=${page.seat}` : ""}` }, t("app:table.next_game")));
  } else if (held.length) {
    buttons.push(el("button", { type: "button", class: "primary", id: "play-again", onclick: playAgain }, t("app:table.play_again")));
  }
  buttons.push(el("a", { class: "button", href: `/replay/${table.id}` }, t("app:table.watch_replay")));
  buttons.push(el("button", { type: "button", onclick: () => { page.endDismissed = true; renderEnd(); } }, t("app:table.see_board")));
  buttons.push(el("a", { class: "button", href: "/" }, t("app:common.lobby")));
  content.append(el("div", { class: "actions" }, buttons));
  box.replaceChildren(content);
  box.hidden = false;
}

function defaultResult(result, _view, seatNames) {
  const rows = result.ranks
    .map((rank, seat) => ({ rank, seat }))
    .sort((a, b) => a.rank - b.rank)
    .map(({ rank, seat }) => el("tr", {}, el("td", {}, rank), el("td", {}, seatNames[seat]), el("td", {}, result.scores[seat])));
  return el("table", { class: "result" }, el("thead", {}, el("tr", {}, el("th", {}, t("app:result.place")), el("th", {}, t("app:result.player")), el("th", {}, t("app:result.score")))), el("tbody", {}, rows));
}

async function playAgain() {
  const seat = page.seat !== null ? page.seat : heldSeats()[0];
  try {
    const next = await api(`/api/tables/${tableId}/again`, { method: "POST" });
    location.href = `/table/${next.id}?seat=${seat}`;
  } catch (err) {
    toast(t("app:table.again_failed", { error: err.message }));
  }
}

async function handToBot(target, difficulty) {
  try {
    await api(`/api/tables/${tableId}/seats/${target}/bot`, { method: "POST", body: difficulty ? { difficulty } : {} });
    toast(t("app:table.bot_now"), "info");
  } catch (err) {
    toast(err.message);
  }
}

async function reclaim(seat) {
  try {
    await api(`/api/tables/${tableId}/seats/${seat}/reclaim`, { method: "POST" });
    toast(t("app:table.welcome_back"), "info");
  } catch (err) {
    toast(err.message);
  }
}

async function newInvite(seat) {
  try {
    const answer = await api(`/api/tables/${tableId}/seats/${seat}/invite`, { method: "POST" });
    const url = `${location.origin}${answer.invite}`;
    const box = el("div", { class: "invite" }, el("span", { class: "small" }, t("app:table.invite_for", { n: seat + 1 })), el("input", { type: "text", readonly: true, value: url, class: "link", id: `invite-${seat}` }));
    $("seats").append(box);
    await navigator.clipboard?.writeText(url);
    toast(t("app:table.invite_copied"), "info");
  } catch (err) {
    toast(err.message);
  }
}

function switchSeat(seat) {
  if (seat === page.seat) return;
  page.seat = seat;
  const q = seat === null ? "watch=1" : `seat=${seat}`;
  history.replaceState(null, "", `${location.pathname}?${q}`);
  connect();
}

/** Say so at the top when this server's bots are not running (their worker keeps dying at start). */
async function watchBots() {
  const table = page.current ? page.current.table : page.summary;
  if (!table || !table.seats.some((s) => s.kind === "bot" || s.handed_to_bot) || table.status === "finished") return;
  try {
    const status = await api("/api/bots/status");
    const box = $("bots-down");
    box.hidden = status.running;
    box.textContent = status.running ? "" : t("app:table.bots_down");
  } catch (err) {
    // the check is best effort: a failed request says nothing about the bots
  }
}

document.addEventListener("account-changed", () => location.reload());
api("/api/difficulties")
  .then((levels) => (page.levels = levels.filter((d) => d.available)))
  .catch(() => {}); // without the list the select offers nothing and the server picks the level
pickSeat().then((seat) => {
  watchBots();
  setInterval(watchBots, 15000);
  page.seat = seat;
  mountChat(tableId, page.account);
  setWritable(heldSeats().length > 0);
  connect();
});
startTicker(() => page.current && renderSide()); // a clock ran out or a grace ended: offer the hand-over

// The friends page: ask by username, answer requests, the friends list (online first, with their tables),
// remove and block. Everything is drawn as text.

import { api, el, requestThen, toast } from "/static/js/api.js";
import { gameName, loadAllNamespaces, t } from "/static/js/i18n.js";

await loadAllNamespaces(); // the games' names of friends' tables

const $ = (id) => document.getElementById(id);

const act = (path, method = "POST", body = undefined) => requestThen(load, path, method, body);

function who(a) {
  return el("a", { class: "friend-name", href: `/profile/${encodeURIComponent(a.id)}` }, a.display_name, a.username ? el("span", { class: "muted small" }, ` @${a.username}`) : null);
}

function blockButton(a) {
  return el("button", { type: "button", class: "small", onclick: () => confirm(t("app:friends.block_confirm", { name: a.display_name })) && act("/api/friends/blocks", "POST", { account: a.id }) }, t("app:friends.block"));
}

function friendRow(f) {
  const state = f.online ? el("span", { class: "tag on" }, t("app:friends.online")) : el("span", { class: "tag neutral" }, t("app:friends.offline"));
  const tables = f.tables.map((tb) => el("a", { class: "button small", href: `/table/${tb.id}` }, gameName(tb.game, tb.game), " · ", t("app:friends.watch")));
  return el(
    "div",
    { class: "friend-row", dataset: { account: f.id } },
    who(f),
    state,
    el("button", { type: "button", class: "small", onclick: () => act(`/api/friends/${f.id}`, "DELETE") }, t("app:friends.remove")),
    blockButton(f),
    tables.length ? el("div", { class: "friend-tables" }, tables) : null,
  );
}

function section(title, id, rows) {
  return rows.length ? el("section", { class: "panel", id }, el("h3", {}, title), rows) : null;
}

async function load() {
  let data;
  try {
    data = await api("/api/friends");
  } catch (err) {
    const text = err.status === 401 ? t("app:friends.sign_in") : err.status === 403 ? t("app:friends.need_username") : t("app:friends.load_failed", { error: err.message });
    $("friends").replaceChildren(el("p", { class: "muted" }, text));
    return;
  }
  const incoming = data.incoming.map((a) =>
    el(
      "div",
      { class: "friend-row", dataset: { account: a.id } },
      who(a),
      el("button", { type: "button", class: "small primary", onclick: () => act(`/api/friends/requests/${a.id}/accept`) }, t("app:friends.accept")),
      el("button", { type: "button", class: "small", onclick: () => act(`/api/friends/${a.id}`, "DELETE") }, t("app:friends.decline")),
      blockButton(a),
    ),
  );
  const outgoing = data.outgoing.map((a) => el("div", { class: "friend-row" }, who(a), el("button", { type: "button", class: "small", onclick: () => act(`/api/friends/${a.id}`, "DELETE") }, t("app:friends.cancel"))));
  const blocked = data.blocked.map((a) => el("div", { class: "friend-row" }, who(a), el("button", { type: "button", class: "small", onclick: () => act(`/api/friends/blocks/${a.id}`, "DELETE") }, t("app:friends.unblock"))));
  const list = data.friends.length ? data.friends.map(friendRow) : [el("p", { class: "muted" }, t("app:friends.none"))];
  $("friends").replaceChildren(
    ...[section(t("app:friends.incoming"), "friend-incoming", incoming), el("section", { class: "panel", id: "friend-list" }, el("h3", {}, t("app:friends.list")), list), section(t("app:friends.outgoing"), "friend-outgoing", outgoing), section(t("app:friends.blocked"), "friend-blocked", blocked)].filter(Boolean),
  );
}

$("friend-add").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const answer = await act("/api/friends/requests", "POST", { username: $("friend-username").value.trim() });
  if (answer) {
    $("friend-username").value = "";
    const name = answer.account.display_name;
    toast(answer.status === "friends" ? t("app:friends.now_friends", { name }) : t("app:friends.requested", { name }), "info");
  }
});

$("friend-send").disabled = false; // wired: a click no longer submits the form natively

const notify = $("friend-notify");
notify.checked = "Notification" in window && Notification.permission === "granted";
notify.addEventListener("change", async () => {
  if (notify.checked && "Notification" in window) notify.checked = (await Notification.requestPermission()) === "granted";
});

document.addEventListener("friend-notice", () => load());
await load();
setInterval(load, 15000);

// Table chat: the last lines on load (and after each reconnect), new lines as the table's websocket brings
// them, a box to write (players only), and a mute per other player. Every line is drawn as text
// (textContent through el()), never as HTML.

import { api, el, toast } from "/static/js/api.js";
import { t } from "/static/js/i18n.js";

const chat = { tableId: null, box: null, lines: new Map(), muted: new Map(), account: null, canWrite: false, maxChars: 500 };

/** Draw the chat into #chat for a table; `account` is the signed-in account (or null). */
export function mountChat(tableId, account) {
  chat.tableId = tableId;
  chat.account = account;
  chat.box = document.getElementById("chat");
  if (!chat.box) return;
  const list = el("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite" });
  const input = el("input", { type: "text", id: "chat-input", maxlength: 2000, placeholder: t("app:chat.placeholder"), "aria-label": t("app:chat.aria") });
  const form = el("form", { class: "chat-form", id: "chat-form" }, input, el("button", { type: "submit", id: "chat-send" }, t("app:chat.send")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const text = input.value;
    if (!text.trim()) return;
    input.value = "";
    try {
      const answer = await api(`/api/tables/${encodeURIComponent(tableId)}/chat`, { method: "POST", body: { text } });
      addLine(answer.line);
    } catch (err) {
      if (!input.value) input.value = text; // give it back to edit
      toast(t("app:chat.not_sent", { error: err.message }));
    }
  });
  chat.form = form;
  chat.list = list;
  chat.mutesBox = el("div", { class: "chat-mutes small", id: "chat-mutes" });
  chat.box.replaceChildren(el("h3", {}, t("app:chat.title")), list, form, chat.mutesBox);
  setWritable(false);
}

/** Whether this page may write (it plays a seat at the table). */
export function setWritable(canWrite) {
  chat.canWrite = canWrite;
  if (chat.form) chat.form.hidden = !canWrite;
}

/** Fetch the last lines and the mute list (on connect and reconnect). */
export async function loadChat() {
  if (!chat.box) return;
  try {
    const data = await api(`/api/tables/${encodeURIComponent(chat.tableId)}/chat`);
    chat.maxChars = data.max_chars;
    chat.muted = new Map(data.muted.map((m) => [m.id, m.display_name]));
    for (const line of data.lines) chat.lines.set(line.idx, line);
    draw();
  } catch (err) {
    toast(t("app:chat.load_failed", { error: err.message }));
  }
}

/** A line pushed over the websocket (or answered to our own post). */
export function addLine(line) {
  if (!chat.box || chat.lines.has(line.idx)) return;
  chat.lines.set(line.idx, line);
  draw();
}

async function setMute(accountId, on) {
  try {
    const data = on
      ? await api("/api/account/mutes", { method: "POST", body: { account: accountId } })
      : await api(`/api/account/mutes/${encodeURIComponent(accountId)}`, { method: "DELETE" });
    chat.muted = new Map(data.muted.map((m) => [m.id, m.display_name]));
    draw();
  } catch (err) {
    toast(err.message);
  }
}

/** Who wrote a line: the display name (anyone can take it), linked to the profile, then what no one else
 * can take: the account's unique @username, or "(guest)" and a stable tag of the account. All text nodes. */
function author(line) {
  const who = line.username ? `@${line.username}` : `${t("app:account.guest_suffix").trim()} #${line.tag || ""}`;
  const name = line.account ? el("a", { class: "chat-name", href: `/profile/${encodeURIComponent(line.account)}` }, line.name) : el("span", { class: "chat-name" }, line.name);
  return el("span", { class: "chat-author" }, name, " ", el("span", { class: "chat-who small muted" }, who), ": ");
}

function draw() {
  const mine = chat.account ? chat.account.id : null;
  const items = [...chat.lines.values()]
    .sort((a, b) => a.idx - b.idx)
    .filter((line) => !chat.muted.has(line.account))
    .map((line) => {
      const mute =
        mine && line.account && line.account !== mine
          ? el("button", { type: "button", class: "small link-button chat-mute", title: t("app:chat.hide", { name: line.name }), dataset: { mute: line.account }, onclick: () => setMute(line.account, true) }, t("app:chat.mute"))
          : null;
      return el("li", { class: "chat-line", dataset: { idx: line.idx, account: line.account || "" } }, author(line), el("span", { class: "chat-text" }, line.text), " ", mute);
    });
  const follow = chat.list.scrollHeight - chat.list.scrollTop - chat.list.clientHeight < 40;
  // nothing shown: say whether lines are hidden (from muted players) or there are none at all
  const hidden = chat.lines.size > items.length;
  const empty = el("li", { class: "muted small", id: "chat-empty" }, t(hidden ? "app:chat.all_muted" : "app:chat.none"));
  chat.list.replaceChildren(...(items.length ? items : [empty]));
  if (follow) chat.list.scrollTop = chat.list.scrollHeight;
  chat.mutesBox.replaceChildren(
    ...[...chat.muted].map(([id, name]) => el("button", { type: "button", class: "small", dataset: { unmute: id }, onclick: () => setMute(id, false) }, t("app:chat.unmute", { name }))),
  );
}

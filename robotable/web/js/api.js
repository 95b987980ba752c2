// HTTP and websocket helpers. Who you are is your session cookie (HttpOnly: this code never sees it);
// every change sends the session's CSRF token in the X-CSRF-Token header. No credential is ever put in
// a URL or in localStorage.

import { errorText, t } from "/static/js/i18n.js";

let whoami = null; // the answer of GET /api/account: {account, csrf}

// Seat tokens of older versions lived in localStorage: they are credentials no more, so they go.
try {
  localStorage.removeItem("robotable.tokens");
} catch {
  /* storage may be disabled */
}

/** Who is signed in: {account (null when signed out), csrf}; cached until `refresh`. */
export async function currentAccount(refresh = false) {
  if (!whoami || refresh) {
    const res = await fetch("/api/account", { credentials: "same-origin", headers: { Accept: "application/json" } });
    whoami = res.ok ? await res.json() : { account: null, csrf: null };
  }
  return whoami;
}

/** Remember who signed in (the answer of sign-in, sign-up or guest). */
export function setCurrentAccount(answer) {
  whoami = { account: answer.account, csrf: answer.csrf || null };
  document.dispatchEvent(new CustomEvent("account-changed", { detail: whoami }));
}

/** Call the JSON API; throws an Error whose message is the server's answer in the page's language
 * (t(code, params) when the answer has a catalogue code, else its English "detail"); the error keeps
 * `status`, `detail`, `code` and `params`. */
export async function api(path, { method = "GET", body, rawBody } = {}) {
  // rawBody: JSON text sent as is (records hold 63-bit seeds, which JavaScript numbers would round)
  const text = rawBody !== undefined ? rawBody : body === undefined ? undefined : JSON.stringify(body);
  const headers = text === undefined ? {} : { "Content-Type": "application/json" };
  if (!["GET", "HEAD"].includes(method)) {
    const { csrf } = await currentAccount();
    if (csrf) headers["X-CSRF-Token"] = csrf;
  }
  const res = await fetch(path, { method, headers, body: text, credentials: "same-origin" });
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const detail = data && data.detail ? data.detail : `${res.status} ${res.statusText}`;
    const text = typeof detail === "string" ? detail : JSON.stringify(detail);
    const err = new Error(errorText({ code: data && data.code, params: data && data.params, detail: text }));
    err.status = res.status;
    err.detail = text;
    err.code = data && data.code ? data.code : null;
    err.params = data && data.params ? data.params : {};
    throw err;
  }
  return data;
}

/** The seats the signed-in account plays at a table (from its summary). */
export function mySeats(table, account) {
  if (!account || !table) return [];
  return table.seats.filter((s) => s.account === account.id).map((s) => s.seat);
}

/** The websocket URL of a table for one of your seats (or a spectator); the cookie says who you are. */
export function socketUrl(tableId, seat) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const q = seat === null || seat === undefined ? "" : `?seat=${seat}`;
  return `${proto}//${location.host}/ws/tables/${encodeURIComponent(tableId)}${q}`;
}

/** The per-game renderer module, or the generic one for a game without its own. */
export async function rendererFor(gameId) {
  try {
    return (await import(`/static/games/${gameId}.js`)).default;
  } catch (err) {
    console.info(`no renderer for ${gameId}, using the generic one`, err);
    return (await import("/static/games/generic.js")).default;
  }
}

/** Ask the server (POST unless told), then `after()` (say, reload the page's data): the answer, or null
 * with the error shown as a toast. */
export async function requestThen(after, path, method = "POST", body = undefined) {
  try {
    const answer = await api(path, { method, body });
    await after();
    return answer;
  } catch (err) {
    toast(err.message);
    return null;
  }
}

/** Draw the board with the game's renderer; a renderer error is shown in the board's place (and logged). */
export function drawBoard(renderer, board, ctx) {
  try {
    renderer.render(board, ctx);
  } catch (err) {
    console.error(err);
    board.replaceChildren(el("p", { class: "error" }, t("app:table.cannot_draw", { error: err.message })));
  }
}

/** Create an element: el("div", {class: "x", onclick: f}, child, "text"). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Create an SVG element. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** A short toast message at the bottom of the page. */
export function toast(message, kind = "error") {
  let box = document.getElementById("toasts");
  if (!box) {
    box = el("div", { id: "toasts", "aria-live": "polite" });
    document.body.append(box);
  }
  const item = el("div", { class: `toast ${kind}` }, message);
  box.append(item);
  setTimeout(() => item.remove(), kind === "error" ? 6000 : 3000);
}

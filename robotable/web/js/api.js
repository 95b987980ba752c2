// HTTP and websocket helpers, and the seat tokens this browser holds (localStorage).

const TOKENS_KEY = "robotable.tokens";

/** Call the JSON API; throws an Error whose message is the server's "detail". */
export async function api(path, { method = "GET", body, rawBody } = {}) {
  // rawBody: JSON text sent as is (records hold 63-bit seeds, which JavaScript numbers would round)
  const text = rawBody !== undefined ? rawBody : body === undefined ? undefined : JSON.stringify(body);
  const res = await fetch(path, {
    method,
    headers: text === undefined ? {} : { "Content-Type": "application/json" },
    body: text,
  });
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const detail = data && data.detail ? data.detail : `${res.status} ${res.statusText}`;
    const err = new Error(typeof detail === "string" ? detail : JSON.stringify(detail));
    err.status = res.status;
    throw err;
  }
  return data;
}

function readAll() {
  try {
    return JSON.parse(localStorage.getItem(TOKENS_KEY) || "{}");
  } catch {
    return {};
  }
}

/** Tokens this browser holds for a table: {seat: token}. */
export function tokensFor(tableId) {
  return readAll()[tableId] || {};
}

/** Remember a seat's token. */
export function saveToken(tableId, seat, token) {
  const all = readAll();
  all[tableId] = { ...(all[tableId] || {}), [seat]: token };
  localStorage.setItem(TOKENS_KEY, JSON.stringify(all));
}

/** Copy every token of one table to another ("play again" keeps the same tokens). */
export function copyTokens(fromId, toId) {
  for (const [seat, token] of Object.entries(tokensFor(fromId))) saveToken(toId, seat, token);
}

/** The websocket URL of a table for a seat (or a spectator). */
export function socketUrl(tableId, seat, token) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const q = seat === null || seat === undefined ? "" : `?seat=${seat}&token=${encodeURIComponent(token)}`;
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

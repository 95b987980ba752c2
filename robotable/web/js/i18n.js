// The message catalogue in the browser (docs/i18n.md): i18next (vendored) over the JSON files that
// GET /api/i18n/{lang}/{namespace} serves. Importing this module waits (top-level await) until the `app`
// namespace and the current game's namespace are loaded, so t() is synchronous everywhere:
//
//   import { t, lang, setLanguage, languageSwitch, loadNamespaces } from "/static/js/i18n.js";
//   t("app:turn.seat", { n: 2 }); t("twin-tin-bots:name"); keys without a namespace are in `app`.
//
// The language: the `lang` cookie if set, else the first of navigator.languages there is a catalogue
// for, else English. Texts from t() are plain text: put them in text nodes (el(), textContent), never
// in innerHTML (interpolated values are not escaped).

import i18next from "/static/vendor/i18next/i18next.js";

/** The languages there are catalogues for, each named in itself (add a language here and in i18n/). */
export const LANGUAGES = { en: "English", ja: "日本語" };
const FALLBACK = "en";
const COOKIE = "lang";

function cookieLanguage() {
  const match = document.cookie.match(/(?:^|;\s*)lang=([^;]*)/);
  const code = match ? decodeURIComponent(match[1]) : "";
  return Object.hasOwn(LANGUAGES, code) ? code : null;
}

function browserLanguage() {
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
  for (const tag of wanted) {
    const base = String(tag || "")
      .toLowerCase()
      .split("-")[0];
    if (Object.hasOwn(LANGUAGES, base)) return base;
  }
  return null;
}

/** The language of this page ("en", "ja"). */
export const lang = cookieLanguage() || browserLanguage() || FALLBACK;

const loaded = new Set();

async function fetchCatalogue(code, namespace) {
  const res = await fetch(`/api/i18n/${encodeURIComponent(code)}/${encodeURIComponent(namespace)}`, {
    credentials: "same-origin",
    headers: { Accept: "application/json" },
  });
  if (!res.ok) throw new Error(`no catalogue ${code}/${namespace} (${res.status})`);
  return res.json();
}

/** Load more namespaces (game ids) in the page's language and English; resolves when t() knows them. */
export async function loadNamespaces(namespaces) {
  const wanted = [...new Set(namespaces)].filter((ns) => ns && !loaded.has(ns));
  const codes = [...new Set([lang, FALLBACK])];
  await Promise.all(
    wanted.flatMap((ns) =>
      codes.map(async (code) => {
        try {
          i18next.addResourceBundle(code, ns, await fetchCatalogue(code, ns), true, true);
        } catch (err) {
          console.warn(err.message);
        }
      }),
    ),
  );
  for (const ns of wanted) loaded.add(ns);
}

/** Load every namespace the server has a catalogue for (pages that name every game: lobby, profiles). */
export async function loadAllNamespaces() {
  try {
    const res = await fetch("/api/i18n", { headers: { Accept: "application/json" } });
    if (res.ok) await loadNamespaces((await res.json()).namespaces);
  } catch (err) {
    console.warn("the catalogue list did not load", err);
  }
}

/** The game of the table a /table/ID or /replay/ID page shows, or of <html data-i18n-game>, or null. */
async function currentGame() {
  const named = document.documentElement.dataset.i18nGame;
  if (named) return named;
  const match = location.pathname.match(/^\/(?:table|replay)\/([^/]+)$/);
  if (!match) return null;
  try {
    const res = await fetch(`/api/tables/${match[1]}`, { credentials: "same-origin" });
    return res.ok ? (await res.json()).game : null;
  } catch {
    return null;
  }
}

/** The message `key` ("namespace:dotted.key"; `app` when no namespace) with its {{params}}. */
export function t(key, params) {
  return i18next.t(key, params);
}

/** Whether the catalogue has `key` (in this language or English). */
export function has(key) {
  return i18next.exists(key);
}

/** A game's name in this language (its catalogue's `name`), or `fallback`. */
export function gameName(gameId, fallback = gameId) {
  return has(`${gameId}:name`) ? t(`${gameId}:name`) : fallback;
}

const DEFAULT_NAME = /^(Player|Bot|Open seat) (\d{1,2})$/;

/** A seat's name as people read it: the server's default names ("Player 2", "Bot 3", "Open seat 1") in
 * this language; a name someone chose stays as it is. */
export function seatName(name) {
  const m = DEFAULT_NAME.exec(name || "");
  if (!m || lang === FALLBACK) return name;
  if (m[1] === "Player") return t("app:lobby.player_n", { n: m[2] });
  if (m[1] === "Bot") return t("app:lobby.bot_n", { n: m[2] });
  return t("app:lobby.open_seat_n", { n: m[2] });
}

/** A bot level's name ("ISMCTS hard" for "ismcts:hard"), from the catalogue when it has one. */
export function levelName(difficulty) {
  // a level's spec holds a colon (ismcts:hard) that i18next would read as a namespace separator
  // ("app:difficulty.ismcts:hard" looked up difficulty.ismcts.hard): the namespace is given apart
  const key = `difficulty.${difficulty}`;
  const where = { ns: "app", nsSeparator: false };
  return i18next.exists(key, where) ? i18next.t(key, where) : difficulty;
}

/** A bot level's name with its arena rating in one game ("ISMCTS hard, rated 2690"), as a chess site shows
 * its engine levels; just the name when the level has no rating there (`rating`: a `level_rating` of the
 * API, {rating, mu, sigma, games}, or null). */
export function ratedLevelName(difficulty, rating) {
  return rating ? t("app:difficulty.rated", { level: levelName(difficulty), rating: ratingText(rating) }) : levelName(difficulty);
}

/** A rating as people read it: the 1500-based scale, with a question mark while provisional (1446?);
 * see the rating scale in docs/server.md. */
export function ratingText(rating) {
  return rating ? `${rating.display_rating}${rating.provisional ? "?" : ""}` : "";
}

/** What a level's rating is, for a tooltip: the rating, μ, σ and the games between bots it comes from. */
export function ratingTitle(rating) {
  return rating ? t("app:difficulty.rated_title", { ...rating, rating: ratingText(rating), ordinal: rating.rating }) : "";
}

/** A refusal's params as the text shows them: a message `{key, params, text}` (a part, a colour, a buyer:
 * the server sends names as catalogue keys, docs/i18n.md) in this language, a list of them joined by
 * `app:list.separator`; numbers come already counted as people count them (seats and places from 1). */
export function shownParams(params) {
  const shown = {};
  for (const [name, value] of Object.entries(params || {})) shown[name] = shownValue(value);
  return shown;
}

function shownValue(value) {
  if (Array.isArray(value) && value.every((v) => v && typeof v === "object")) return value.map(shownValue).join(t("app:list.separator"));
  if (value && typeof value === "object" && typeof value.key === "string") {
    return has(value.key) ? t(value.key, shownParams(value.params)) : String(value.text ?? value.key);
  }
  return value;
}

/** The text of a server error answer. A game's refusal (a code in the game's namespace) reads from its
 * catalogue in every language, seats and places counted from 1 and parts, colours, buyers named by their
 * catalogue names (the detail is the engine's, which counts from 0 and names ids). The app's errors: in
 * English their own detail (the server writes English); in another language t(code, params) when the
 * catalogue has the code, else the detail. */
export function errorText(error) {
  const gameCode = error && error.code && !error.code.startsWith("app:") && has(error.code);
  if (gameCode) return t(error.code, shownParams(error.params));
  if (lang === FALLBACK && error && error.detail) return error.detail;
  if (error && error.code && has(error.code)) return t(error.code, shownParams(error.params));
  return (error && (error.detail || error.message)) || t("app:errors.unknown", { status: "?" });
}

/** Choose a language: remembered in the `lang` cookie (a year), then the page reloads in it. */
export function setLanguage(code) {
  if (!Object.hasOwn(LANGUAGES, code)) throw new Error(`no language ${code}`);
  document.cookie = `${COOKIE}=${encodeURIComponent(code)}; path=/; max-age=31536000; samesite=lax`;
  location.reload();
}

/** The header's language switch: a labelled <select> that calls setLanguage. */
export function languageSwitch() {
  const label = document.createElement("label");
  label.className = "language-switch";
  const select = document.createElement("select");
  select.id = "language-switch";
  select.setAttribute("aria-label", t("app:lang.switch"));
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    option.selected = code === lang;
    select.append(option);
  }
  select.addEventListener("change", () => setLanguage(select.value));
  label.append(select);
  return label;
}

/** Fill [data-i18n] elements of `root` (their text) and [data-i18n-attr="attr:key;attr:key"] (attributes). */
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of node.dataset.i18nAttr.split(";")) {
      const at = pair.indexOf(":");
      const [attr, key] = [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
      if (at > 0 && key) node.setAttribute(attr, t(key));
    }
  }
}

await i18next.init({
  lng: lang,
  fallbackLng: FALLBACK,
  supportedLngs: Object.keys(LANGUAGES),
  ns: [],
  defaultNS: "app",
  fallbackNS: false,
  resources: {},
  interpolation: { escapeValue: false },
  returnNull: false,
});
document.documentElement.lang = lang;
/** Put the language switch into the page's header (before the account bar), once. */
export function mountLanguageSwitch() {
  const bar = document.querySelector("header.topbar");
  if (!bar || document.getElementById("language-switch")) return;
  const account = document.getElementById("account-bar");
  if (account) account.before(languageSwitch());
  else bar.append(languageSwitch());
}

const [game] = await Promise.all([currentGame(), loadNamespaces(["app"])]);
if (game) await loadNamespaces([game]);
translatePage();
mountLanguageSwitch();

// The lobby's time control fields: live with the game's default clock (read from its
// data/time_control.json), live with a chosen clock, or turn-based with 1, 2 or 3 days per move.

import { api, el } from "/static/js/api.js";
import { t } from "/static/js/i18n.js";

/** Draw the fields into ``box``; ``gameId()`` names the chosen game. Returns {read, refresh}. */
export function clockFields(box, gameId) {
  const kind = el(
    "select",
    { id: "clock-select", name: "clock", "aria-label": t("app:clock.aria") },
    el("option", { value: "live" }, t("app:clock.live_default")),
    el("option", { value: "custom" }, t("app:clock.live_custom")),
    [1, 2, 3].map((d) => el("option", { value: `turn${d}` }, t("app:clock.turn_days", { count: d }))),
  );
  const minutes = el("input", { type: "number", id: "clock-minutes", min: 1, max: 240, value: 10, "aria-label": t("app:clock.minutes_aria") });
  const increment = el("input", { type: "number", id: "clock-increment", min: 0, max: 600, value: 30, "aria-label": t("app:clock.increment_aria") });
  const custom = el("span", { class: "small" }, minutes, t("app:clock.min_plus"), increment, t("app:clock.s_per_turn"));
  const info = el("span", { class: "muted small", id: "clock-info" });
  box.replaceChildren(el("div", { class: "form-row" }, kind, custom), info);
  const defaults = {};

  async function refresh() {
    const id = gameId();
    if (!(id in defaults)) {
      try {
        defaults[id] = (await api(`/api/games/${encodeURIComponent(id)}/data/time_control`)).live;
      } catch {
        defaults[id] = null; // a game without its own clock: the server's default
      }
    }
    const d = defaults[id];
    custom.hidden = kind.value !== "custom";
    if (kind.value === "live") info.textContent = d ? t("app:clock.live_info", { minutes: Math.round(d.base / 60), increment: d.increment }) : "";
    else if (kind.value === "custom") info.textContent = "";
    else info.textContent = t("app:clock.turn_info");
    info.textContent += ` ${t("app:clock.timeout_info")}`;
  }

  function read() {
    if (kind.value === "live") return { kind: "live" };
    if (kind.value === "custom") return { kind: "live", base: Math.round(Number(minutes.value) * 60), increment: Number(increment.value) };
    return { kind: "turn", days: Number(kind.value.slice(4)) };
  }

  kind.addEventListener("change", refresh);
  refresh();
  return { read, refresh };
}

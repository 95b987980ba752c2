// The lobby's time control fields: live with the game's default clock (read from its
// data/time_control.json), live with a chosen clock, or turn-based with 1, 2 or 3 days per move.

import { api, el } from "/static/js/api.js";

/** Draw the fields into ``box``; ``gameId()`` names the chosen game. Returns {read, refresh}. */
export function clockFields(box, gameId) {
  const kind = el(
    "select",
    { id: "clock-select", name: "clock", "aria-label": "time control" },
    el("option", { value: "live" }, "Live: the game's clock"),
    el("option", { value: "custom" }, "Live: my own clock"),
    [1, 2, 3].map((d) => el("option", { value: `turn${d}` }, `Turn-based: ${d} day${d > 1 ? "s" : ""} per move`)),
  );
  const minutes = el("input", { type: "number", id: "clock-minutes", min: 1, max: 240, value: 10, "aria-label": "minutes on each clock" });
  const increment = el("input", { type: "number", id: "clock-increment", min: 0, max: 600, value: 30, "aria-label": "seconds added per turn" });
  const custom = el("span", { class: "small" }, minutes, " min + ", increment, " s per turn");
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
    if (kind.value === "live") info.textContent = d ? `${Math.round(d.base / 60)} min each, + ${d.increment} s per turn.` : "";
    else if (kind.value === "custom") info.textContent = "";
    else info.textContent = "Each move has this long; players may come and go.";
    info.textContent += " When a clock runs out, the others may hand that seat to a bot.";
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

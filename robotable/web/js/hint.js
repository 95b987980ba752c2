// The "Hint" button of the table page (issue 30; docs/review.md): on unrated tables where hints are
// allowed (the server refuses them anyway elsewhere), the bots' three best choices for the seat to move,
// from POST /api/tables/{id}/hint; where the game has previews (Twin Tin Bots), each choice can show what
// it would do, drawn by the game's renderer (``renderPreview``).

import { api, el } from "/static/js/api.js";
import { lang, t } from "/static/js/i18n.js";

/** Whether the table allows hints (as the server decides: never rated; hotseat, one person against
 * bots, or the creator allowed them). */
export function hintsAllowed(table) {
  if (table.rated || table.status === "finished") return false;
  return table.hotseat || table.hints || table.seats.filter((s) => s.kind === "human").length <= 1;
}

const shown = { key: null, node: null };

/** A choice's "Preview" button (games with previews): what the move would do, under the choice. */
function previewButton(choice, seat, game) {
  const box = el("div", { class: "hint-preview" });
  const button = el("button", { type: "button", class: "small hint-preview-button" }, t("app:hint.preview"));
  button.addEventListener("click", async () => {
    button.disabled = true;
    box.replaceChildren(t("app:hint.previewing"));
    try {
      const answer = await game.preview(choice.action);
      box.replaceChildren(game.renderer.renderPreview(game.view, answer.preview, game.names, seat));
    } catch (err) {
      box.replaceChildren(el("span", { class: "error" }, err.message));
      button.disabled = false;
    }
  });
  return [" ", button, box];
}

/** The hint button and, once asked, the choices for this move (forgotten when the game moves on).
 * ``game`` (optional): ``{renderer, view, names, preview(action)}`` to preview each choice. */
export function hintControls(tableId, seat, moves, game = null) {
  const key = `${tableId}:${seat}:${moves}`;
  if (shown.key !== key) {
    shown.key = key;
    shown.node = el("div", { id: "hint-choices", class: "small", "aria-live": "polite" });
  }
  const previews = !!(game && game.preview && game.renderer && game.renderer.renderPreview);
  const button = el("button", { type: "button", id: "hint-button", title: t("app:hint.title") }, t("app:hint.button"));
  button.addEventListener("click", async () => {
    button.disabled = true;
    shown.node.replaceChildren(t("app:hint.thinking"));
    try {
      const body = await api(`/api/tables/${encodeURIComponent(tableId)}/hint?lang=${encodeURIComponent(lang)}`, { method: "POST", body: { seat } });
      shown.node.replaceChildren(
        el("p", {}, t("app:hint.heading")),
        el("ol", { class: "hint-list" }, body.choices.map((c) => el("li", { class: "hint-choice" }, t("app:hint.choice", { move: c.text, value: `${Math.round(c.value * 100)}%` }), previews ? previewButton(c, seat, game) : null))),
      );
    } catch (err) {
      shown.node.replaceChildren(el("span", { class: "error" }, err.message));
    } finally {
      button.disabled = false;
    }
  });
  return [button, shown.node];
}

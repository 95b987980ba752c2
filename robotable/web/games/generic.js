// The fallback renderer for a game without its own: the view as JSON and each legal action as a button.

import { el } from "/static/js/api.js";
import { t } from "/static/js/i18n.js";

function describeAction(action) {
  const fields = Object.entries(action)
    .filter(([k]) => k !== "type")
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(" ");
  return `${action.type} ${fields}`.trim();
}

function render(root, ctx) {
  const actions = ctx.legal.map((action, i) =>
    el("button", { type: "button", class: "action", dataset: { legal: i }, onclick: () => ctx.act(action) }, describeAction(action)),
  );
  root.replaceChildren(
    el("p", { class: "muted small" }, t("app:table.generic_note")),
    actions.length ? el("div", { class: "panel legal" }, el("h3", {}, t("app:table.generic_moves")), el("div", { class: "action-list" }, actions)) : null,
    el("pre", { class: "view-json" }, JSON.stringify(ctx.view, null, 1)),
  );
}

function describeEvent(event) {
  const { move: _move, type, ...data } = event;
  return `${type} ${JSON.stringify(data)}`;
}

export default { render, describeEvent, describeAction };

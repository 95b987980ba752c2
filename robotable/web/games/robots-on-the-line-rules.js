// The Robots on the Line rules page (robots-on-the-line-rules.html): the table's help, from the message
// catalogue, in the page's language (i18n.js adds the header's language switch).

import { t } from "/static/js/i18n.js";
import { el } from "/static/js/api.js";
import { helpContent } from "/static/games/robots-on-the-line.js";

const title = t("robots-on-the-line:help.title");
document.title = t("app:title.suffix", { name: title });
document.getElementById("rules-title").textContent = title;
document.getElementById("rules").replaceChildren(
  el("p", {}, t("robots-on-the-line:help.keyboard")),
  el("div", { class: "help-body" }, helpContent(null)),
);

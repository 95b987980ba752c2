// Your account: display name, a password (guests can add one and keep their seats), the API token for
// scripts and bots you run (shown once, sent only as "Authorization: Bearer"), e-mail when away (an
// address only you see, off until you turn it on), and signing out.

import { ensureAccount } from "/static/js/account.js";
import { api, currentAccount, el, setCurrentAccount, toast } from "/static/js/api.js";
import { lang, t } from "/static/js/i18n.js";

const main = document.getElementById("account-page");

function form(id, title, fields, button, submit, note) {
  const inputs = fields.map(([label, attrs]) => el("input", attrs));
  const node = el(
    "form",
    { class: "panel account-form", id },
    el("h3", {}, title),
    note ? el("p", { class: "small muted" }, note) : null,
    ...fields.map(([label], i) => el("label", { class: "account-field" }, label, " ", inputs[i])),
    el("button", { type: "submit" }, button),
  );
  node.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await submit(...inputs.map((i) => i.value));
      inputs.forEach((i) => {
        if (i.type === "password") i.value = "";
      });
    } catch (err) {
      toast(err.message);
    }
  });
  return node;
}

async function draw() {
  const who = await currentAccount(true);
  const a = who.account;
  if (!a) {
    main.replaceChildren(el("p", {}, t("app:account_page.not_signed_in")), el("button", { type: "button", class: "primary", onclick: () => ensureAccount().then(draw, () => {}) }, t("app:account.sign_in")));
    return;
  }
  const tokenBox = el("div", { id: "token-box" });
  const tokenPanel = el(
    "section",
    { class: "panel", id: "api-token" },
    el("h3", {}, t("app:account_page.token_title")),
    el("p", { class: "small" }, t("app:account_page.token_help_before"), el("code", {}, "Authorization: Bearer <token>"), t("app:account_page.token_help_after")),
    el("p", { class: "small muted" }, who.has_api_token ? t("app:account_page.has_token") : t("app:account_page.no_token")),
    el("div", { class: "actions" },
      el("button", { type: "button", id: "new-token", onclick: async () => {
        try {
          const answer = await api("/api/account/token", { method: "POST" });
          tokenBox.replaceChildren(el("p", { class: "small" }, t("app:account_page.new_token_value")), el("div", { class: "token-box", id: "token-value" }, answer.token));
        } catch (err) {
          toast(err.message);
        }
      } }, t("app:account_page.new_token")),
      el("button", { type: "button", id: "revoke-token", onclick: async () => {
        try {
          await api("/api/account/token", { method: "DELETE" });
          tokenBox.replaceChildren(el("p", { class: "small" }, t("app:account_page.revoked")));
        } catch (err) {
          toast(err.message);
        }
      } }, t("app:account_page.revoke")),
    ),
    tokenBox,
  );
  const password = a.guest
    ? form("set-password", t("app:account_page.keep_title"), [[t("app:account.username"), { name: "username", maxlength: 24, required: true, autocomplete: "username" }], [t("app:account.new_password"), { name: "password", type: "password", minlength: 8, maxlength: 200, required: true, autocomplete: "new-password" }]], t("app:common.save"), async (username, pw) => {
        await api("/api/account/password", { method: "POST", body: { username, password: pw } });
        toast(t("app:account_page.saved"), "info");
        draw();
      }, t("app:account_page.keep_help"))
    : form("change-password", t("app:account_page.change_title"), [[t("app:account_page.current_password"), { type: "password", required: true, autocomplete: "current-password" }], [t("app:account_page.new_password"), { type: "password", minlength: 8, maxlength: 200, required: true, autocomplete: "new-password" }]], t("app:account_page.change"), async (current, pw) => {
        await api("/api/account/password", { method: "POST", body: { current_password: current, password: pw } });
        toast(t("app:account_page.changed"), "info");
      });
  const mailPanel = await mailSettings();
  const everywhere = el(
    "section",
    { class: "panel", id: "sign-out-everywhere" },
    el("h3", {}, t("app:account_page.everywhere_title")),
    el("p", { class: "small" }, t("app:account_page.everywhere_help")),
    el("div", { class: "actions" },
      el("button", { type: "button", id: "sign-out-everywhere-button", onclick: async () => {
        try {
          await api("/api/account/signout-everywhere", { method: "POST" });
          setCurrentAccount({ account: null, csrf: null });
          location.href = "/";
        } catch (err) {
          toast(err.message);
        }
      } }, t("app:account_page.everywhere")),
    ),
  );
  main.replaceChildren(
    el("section", { class: "panel" }, el("h2", {}, a.display_name), el("p", { class: "small muted" }, a.guest ? t("app:account_page.guest_account") : t("app:account_page.username_is", { name: a.username }), t("app:account_page.since", { date: new Date(a.created_at).toLocaleDateString(lang) }))),
    form("rename", t("app:account_page.display_name"), [[t("app:account_page.name"), { name: "display_name", maxlength: 40, required: true, value: a.display_name }]], t("app:account_page.rename"), async (name) => {
      await api("/api/account/name", { method: "POST", body: { display_name: name } });
      toast(t("app:account_page.renamed"), "info");
      draw();
    }),
    password,
    tokenPanel,
    mailPanel,
    everywhere,
  );
}

// E-mail at turn-based tables (your turn, time running out, a seat offered): GET/PUT /api/account/mail.
async function mailSettings() {
  let settings;
  try {
    settings = await api("/api/account/mail");
  } catch (err) {
    return null;
  }
  const address = el("input", { type: "email", id: "mail-address", maxlength: 254, autocomplete: "email", value: settings.email || "" });
  const notify = el("input", { type: "checkbox", id: "mail-notify" });
  notify.checked = settings.notify;
  const node = el(
    "form",
    { class: "panel account-form", id: "mail-settings" },
    el("h3", {}, t("app:account_page.mail_title")),
    el("p", { class: "small muted" }, t("app:account_page.mail_help")),
    settings.available ? null : el("p", { class: "small", id: "mail-unavailable" }, t("app:account_page.mail_unavailable")),
    el("label", { class: "account-field" }, t("app:account_page.mail_address"), " ", address),
    el("label", { class: "account-field" }, notify, " ", t("app:account_page.mail_notify")),
    el("button", { type: "submit" }, t("app:common.save")),
  );
  node.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const body = { email: address.value.trim() || null, notify: notify.checked };
      await api("/api/account/mail", { method: "PUT", body });
      toast(t("app:account_page.mail_saved"), "info");
    } catch (err) {
      toast(err.message);
    }
  });
  return node;
}

document.addEventListener("account-changed", draw);
draw();

// Your account: display name, a password (guests can add one and keep their seats), the API token for
// scripts and bots you run (shown once, sent only as "Authorization: Bearer"), and signing out.

import { ensureAccount } from "/static/js/account.js";
import { api, currentAccount, el, toast } from "/static/js/api.js";

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
    main.replaceChildren(el("p", {}, "You are not signed in."), el("button", { type: "button", class: "primary", onclick: () => ensureAccount().then(draw, () => {}) }, "Sign in"));
    return;
  }
  const tokenBox = el("div", { id: "token-box" });
  const tokenPanel = el(
    "section",
    { class: "panel", id: "api-token" },
    el("h3", {}, "API token"),
    el("p", { class: "small" }, "For scripts and bots you run: send it in the header ", el("code", {}, "Authorization: Bearer <token>"), ". Never put it in a URL. It is shown once; a new one replaces the old one."),
    el("p", { class: "small muted" }, who.has_api_token ? "You have a token." : "You have no token."),
    el("div", { class: "actions" },
      el("button", { type: "button", id: "new-token", onclick: async () => {
        try {
          const answer = await api("/api/account/token", { method: "POST" });
          tokenBox.replaceChildren(el("p", { class: "small" }, "Your new token (copy it now):"), el("div", { class: "token-box", id: "token-value" }, answer.token));
        } catch (err) {
          toast(err.message);
        }
      } }, "Make a new token"),
      el("button", { type: "button", id: "revoke-token", onclick: async () => {
        try {
          await api("/api/account/token", { method: "DELETE" });
          tokenBox.replaceChildren(el("p", { class: "small" }, "The token no longer works."));
        } catch (err) {
          toast(err.message);
        }
      } }, "Revoke"),
    ),
    tokenBox,
  );
  const password = a.guest
    ? form("set-password", "Keep this account: add a password", [["Username", { name: "username", maxlength: 24, required: true, autocomplete: "username" }], ["Password (8 or more characters)", { name: "password", type: "password", minlength: 8, maxlength: 200, required: true, autocomplete: "new-password" }]], "Save", async (username, pw) => {
        await api("/api/account/password", { method: "POST", body: { username, password: pw } });
        toast("Saved: sign in with it from any device", "info");
        draw();
      }, "You play as a guest. With a username and password you can sign in elsewhere; your seats and tables stay yours.")
    : form("change-password", "Change your password", [["Current password", { type: "password", required: true, autocomplete: "current-password" }], ["New password", { type: "password", minlength: 8, maxlength: 200, required: true, autocomplete: "new-password" }]], "Change", async (current, pw) => {
        await api("/api/account/password", { method: "POST", body: { current_password: current, password: pw } });
        toast("Password changed; your other sessions were signed out", "info");
      });
  main.replaceChildren(
    el("section", { class: "panel" }, el("h2", {}, a.display_name), el("p", { class: "small muted" }, a.guest ? "Guest account" : `Username: ${a.username}`, ` · since ${new Date(a.created_at).toLocaleDateString()}`)),
    form("rename", "Display name", [["Name", { name: "display_name", maxlength: 40, required: true, value: a.display_name }]], "Rename", async (name) => {
      await api("/api/account/name", { method: "POST", body: { display_name: name } });
      toast("Renamed", "info");
      draw();
    }),
    password,
    tokenPanel,
  );
}

document.addEventListener("account-changed", draw);
draw();

// The account bar in the top bar (who you are, your account page, sign out) and the sign-in dialog:
// continue as a guest with a display name, sign in, or sign up. Everything is drawn as text (never HTML).

import { api, currentAccount, el, setCurrentAccount, toast } from "/static/js/api.js";
import { t } from "/static/js/i18n.js";

/** Draw the account bar into #account-bar (if the page has one); it follows sign-in and sign-out. */
export async function mountAccountBar() {
  const bar = document.getElementById("account-bar");
  if (!bar) return;
  const draw = (who) => {
    if (who.account) {
      const a = who.account;
      bar.replaceChildren(
        el("a", { href: "/account", id: "account-name", title: t("app:account.your_account") }, a.display_name, a.guest ? t("app:account.guest_suffix") : ""),
        el("button", { type: "button", class: "small link-button", id: "sign-out", onclick: signOut }, t("app:account.sign_out")),
      );
    } else {
      bar.replaceChildren(el("button", { type: "button", class: "small", id: "sign-in", onclick: () => ensureAccount().catch(() => {}) }, t("app:account.sign_in")));
    }
  };
  draw(await currentAccount());
  document.addEventListener("account-changed", (ev) => draw(ev.detail));
}

async function signOut() {
  try {
    await api("/api/account/signout", { method: "POST" });
  } catch (err) {
    toast(err.message);
  }
  setCurrentAccount({ account: null, csrf: null });
  location.href = "/";
}

/**
 * The signed-in account; when signed out, ask (a dialog) for a guest name or a sign-in first.
 * Rejects if the person closes the dialog.
 */
export async function ensureAccount(why = "") {
  const who = await currentAccount();
  if (who.account) return who.account;
  return new Promise((resolve, reject) => openDialog(why, resolve, reject));
}

function field(label, attrs) {
  const input = el("input", attrs);
  return [el("label", { class: "account-field" }, label, " ", input), input];
}

function openDialog(why, resolve, reject) {
  const shade = el("div", { class: "account-shade", id: "account-dialog" });
  const error = el("p", { class: "error small", role: "alert" });
  const done = (answer) => {
    setCurrentAccount(answer);
    shade.remove();
    resolve(answer.account);
  };
  const fail = (err) => {
    error.textContent = err.message;
  };
  const submit = (form, path, read) =>
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      error.textContent = "";
      try {
        done(await api(path, { method: "POST", body: read() }));
      } catch (err) {
        fail(err);
      }
    });

  const [guestLabel, guestName] = field(t("app:account.your_name"), { name: "display_name", maxlength: 40, required: true, autocomplete: "nickname", id: "guest-name" });
  const guestForm = el("form", { class: "account-form", id: "guest-form" }, el("h3", {}, t("app:account.guest_title")), el("p", { class: "muted small" }, t("app:account.guest_help")), guestLabel, el("button", { type: "submit", class: "primary", id: "guest-go" }, t("app:account.guest_go")));
  submit(guestForm, "/api/account/guest", () => ({ display_name: guestName.value }));

  const [inUserLabel, inUser] = field(t("app:account.username"), { name: "username", maxlength: 40, required: true, autocomplete: "username", id: "signin-username" });
  const [inPassLabel, inPass] = field(t("app:account.password"), { name: "password", type: "password", maxlength: 200, required: true, autocomplete: "current-password", id: "signin-password" });
  const signInForm = el("form", { class: "account-form", id: "signin-form" }, el("h3", {}, t("app:account.sign_in")), inUserLabel, inPassLabel, el("button", { type: "submit", id: "signin-go" }, t("app:account.sign_in")));
  submit(signInForm, "/api/account/signin", () => ({ username: inUser.value, password: inPass.value }));

  const [upUserLabel, upUser] = field(t("app:account.username"), { name: "username", maxlength: 24, required: true, autocomplete: "username", id: "signup-username" });
  const [upPassLabel, upPass] = field(t("app:account.new_password"), { name: "password", type: "password", minlength: 8, maxlength: 200, required: true, autocomplete: "new-password", id: "signup-password" });
  const signUpForm = el("form", { class: "account-form", id: "signup-form" }, el("h3", {}, t("app:account.new_account")), upUserLabel, upPassLabel, el("button", { type: "submit", id: "signup-go" }, t("app:account.sign_up")));
  submit(signUpForm, "/api/account/signup", () => ({ username: upUser.value, password: upPass.value }));

  const close = el(
    "button",
    {
      type: "button",
      class: "small account-close",
      "aria-label": t("app:common.close"),
      onclick: () => {
        shade.remove();
        reject(new Error(t("app:account.not_signed_in")));
      },
    },
    "×",
  );
  const card = el("div", { class: "account-card", role: "dialog", "aria-label": t("app:account.sign_in") }, close, why ? el("p", { class: "small" }, why) : null, el("div", { class: "account-forms" }, guestForm, signInForm, signUpForm), error);
  shade.append(card);
  document.body.append(shade);
  guestName.focus();
}

mountAccountBar();

// The invite page: the one-time code is in this page's own URL only. It is sent back in request bodies,
// and once the seat is taken the page moves to the table (the code is then dead).

import { ensureAccount } from "/static/js/account.js";
import { api, currentAccount, el } from "/static/js/api.js";
import { gameName, lang, seatName, t } from "/static/js/i18n.js";

const code = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const box = document.getElementById("invite");

function problem(message) {
  document.body.dataset.invite = "invalid";
  box.replaceChildren(
    el("h2", {}, t("app:invite.broken")),
    el("p", { class: "error", id: "invite-error" }, message),
    el("p", {}, t("app:invite.nothing_changed"), el("a", { href: "/" }, t("app:invite.go_lobby")), t("app:invite.go_lobby_after")),
  );
}

async function accept() {
  try {
    await ensureAccount(t("app:invite.give_name"));
  } catch {
    return;
  }
  try {
    const answer = await api("/api/invites/accept", { method: "POST", body: { code } });
    location.replace(answer.link); // the invite page leaves the history: its code is used up
  } catch (err) {
    problem(err.message);
  }
}

async function main() {
  let info;
  try {
    info = await api("/api/invites/info", { method: "POST", body: { code } });
  } catch (err) {
    problem(err.message);
    return;
  }
  const table = info.table;
  const { account } = await currentAccount();
  const others = table.seats.filter((s) => s.seat !== info.seat).map((s) => seatName(s.name));
  document.body.dataset.invite = "valid";
  box.replaceChildren(
    el("h2", {}, t("app:invite.invites_you", { who: info.invited_by || t("app:invite.someone"), game: gameName(table.game, table.game_name) })),
    el("p", {}, others.length ? t("app:invite.seat_with", { n: info.seat + 1, total: table.num_players, names: others.join(t("app:common.list_sep")) }) : t("app:invite.seat_of", { n: info.seat + 1, total: table.num_players })),
    table.rated ? el("p", { class: "small muted" }, t("app:invite.rated")) : null,
    info.your_seats.length
      ? el("p", { class: "error" }, t("app:invite.already", { n: info.your_seats[0] + 1 }))
      : el(
          "button",
          { type: "button", class: "primary", id: "accept-invite", onclick: accept },
          account ? t("app:invite.take_as", { n: info.seat + 1, name: account.display_name }) : t("app:invite.take", { n: info.seat + 1 }),
        ),
    el("p", { class: "small muted" }, t("app:invite.works_until", { date: new Date(info.expires_at).toLocaleString(lang) })),
  );
}

main();

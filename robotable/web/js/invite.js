// The invite page: the one-time code is in this page's own URL only. It is sent back in request bodies,
// and once the seat is taken the page moves to the table (the code is then dead).

import { ensureAccount } from "/static/js/account.js";
import { api, currentAccount, el } from "/static/js/api.js";

const code = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const box = document.getElementById("invite");

function problem(message) {
  document.body.dataset.invite = "invalid";
  box.replaceChildren(
    el("h2", {}, "This invite link does not work"),
    el("p", { class: "error", id: "invite-error" }, message),
    el("p", {}, "Nothing was changed. ", el("a", { href: "/" }, "Go to the lobby"), " to watch tables or make your own."),
  );
}

async function accept() {
  try {
    await ensureAccount("Give a name to take your seat (or sign in).");
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
  const others = table.seats.filter((s) => s.seat !== info.seat).map((s) => s.name);
  document.body.dataset.invite = "valid";
  box.replaceChildren(
    el("h2", {}, `${info.invited_by || "Someone"} invites you to play ${table.game_name}`),
    el("p", {}, `Seat ${info.seat + 1} of ${table.num_players}`, others.length ? `, with ${others.join(", ")}` : "", "."),
    table.rated ? el("p", { class: "small muted" }, "This table is rated.") : null,
    info.your_seats.length
      ? el("p", { class: "error" }, `You already play seat ${info.your_seats[0] + 1} at this table: send this link to the person it is for.`)
      : el(
          "button",
          { type: "button", class: "primary", id: "accept-invite", onclick: accept },
          account ? `Take seat ${info.seat + 1} as ${account.display_name}` : `Take seat ${info.seat + 1}`,
        ),
    el("p", { class: "small muted" }, `The link works once, until ${new Date(info.expires_at).toLocaleString()}.`),
  );
}

main();

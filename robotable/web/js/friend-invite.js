// "Invite a friend" at a table: the creator offers a seat nobody has taken to a friend, who gets a notice
// and finds it in "My tables".

import { api, el, toast } from "/static/js/api.js";
import { t } from "/static/js/i18n.js";

/** Open the friend chooser for ``seat`` below the seats (a second click closes it; redrawing the seats keeps it). */
export async function inviteFriend(tableId, seat) {
  const id = `friend-invite-${seat}`;
  const open = document.getElementById(id);
  if (open) {
    open.remove();
    return;
  }
  let friends = [];
  try {
    friends = (await api("/api/friends")).friends;
  } catch (err) {
    toast(err.message);
    return;
  }
  if (!friends.length) {
    toast(t("app:friends.no_friends"), "info");
    return;
  }
  const choice = el(
    "select",
    { class: "small", id: `friend-choice-${seat}`, "aria-label": t("app:friends.choose") },
    friends.map((f) => el("option", { value: f.id }, f.display_name, f.online ? ` · ${t("app:friends.online")}` : "")),
  );
  const send = async () => {
    try {
      const done = await api(`/api/tables/${tableId}/seats/${seat}/offer`, { method: "POST", body: { account: choice.value } });
      toast(t("app:friends.invited", { name: done.friend.display_name, n: seat + 1 }), "info");
      form.remove();
    } catch (err) {
      toast(err.message);
    }
  };
  const form = el("div", { class: "friend-offer", id }, el("span", { class: "small" }, t("app:friends.invite_to", { n: seat + 1 })), choice, el("button", { type: "button", class: "small primary", id: `friend-send-${seat}`, onclick: send }, t("app:friends.send_invite")));
  document.getElementById("seats").after(form);
}

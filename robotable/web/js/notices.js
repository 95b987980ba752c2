// Notices from friends, live: a friend request, a request accepted, a seat offered to you. The page holds
// the friends socket (/ws/friends, the session cookie says who you are) while signed in with a username;
// a notice shows as a message and, when the page is hidden and notifications were allowed, as a browser
// notification. Pages listen for the "friend-notice" event to refresh what they list.

import { currentAccount, toast } from "/static/js/api.js";
import { gameName, t } from "/static/js/i18n.js";

/** The words of a notice, in the page's language. */
export function noticeText(notice) {
  const name = notice.from ? notice.from.display_name : "";
  if (notice.type === "friend_request") return t("app:friends.notice_request", { name });
  if (notice.type === "friend_accepted") return t("app:friends.notice_accepted", { name });
  if (notice.type === "seat_offer") return t("app:friends.notice_offer", { name, n: notice.seat + 1, game: gameName(notice.table.game, notice.table.game) });
  return null;
}

function show(notice) {
  const text = noticeText(notice);
  if (!text) return;
  toast(text, "info");
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    const note = new Notification("Robotable", { body: text, tag: `friends-${notice.type}` });
    note.onclick = () => {
      window.focus();
      location.href = notice.type === "seat_offer" ? "/my" : "/friends";
    };
  }
  document.dispatchEvent(new CustomEvent("friend-notice", { detail: notice }));
}

let socket = null;

function connect(delay) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${proto}//${location.host}/ws/friends`);
  socket.addEventListener("open", () => {
    delay = 1000;
  });
  socket.addEventListener("message", (ev) => {
    let notice = null;
    try {
      notice = JSON.parse(ev.data);
    } catch {
      return;
    }
    if (notice && notice.type !== "error") show(notice);
  });
  socket.addEventListener("close", (ev) => {
    if (ev.code >= 4400 && ev.code < 4500) return; // signed out or refused: do not knock again
    setTimeout(() => connect(Math.min(delay * 2, 30000)), delay);
  });
}

/** Open the friends socket if someone with a username is signed in (once per page). */
export async function mountNotices() {
  if (socket) return;
  const who = await currentAccount();
  if (who.account && !who.account.guest) connect(1000);
}

mountNotices();
document.addEventListener("account-changed", () => mountNotices());

// "Notify me": a seated player asks, by pressing the button, to be told by a push notice when
// it is their turn and no page of their seat is open. Nothing is asked on load: the browser's
// permission prompt comes only from the press. The subscription is posted to the table, which
// keeps it for this seat (games.push); the service worker (push-sw.js) shows the notices.
(function () {
  "use strict";
  var button = document.getElementById("notify-me");
  if (!button || !("serviceWorker" in navigator) || !("PushManager" in window) || !window.Notification) return;
  var status = document.getElementById("notify-status");

  function say(text) { if (status) status.textContent = text; }
  function csrf() {
    var found = document.cookie.split("; ").filter(function (part) { return part.indexOf("csrftoken=") === 0; })[0];
    return found ? decodeURIComponent(found.split("=")[1]) : "";
  }
  function keyBytes(base64url) {
    var base64 = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(base64), function (c) { return c.charCodeAt(0); });
  }
  function post(subscription) {
    return fetch(button.dataset.url, {
      method: "POST", credentials: "same-origin", body: JSON.stringify(subscription.toJSON()),
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
    }).then(function (answer) { if (!answer.ok) throw new Error(String(answer.status)); });
  }

  button.hidden = false;
  if (Notification.permission === "denied") say(button.dataset.textBlocked);
  button.addEventListener("click", function () {
    button.disabled = true;
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") throw new Error("blocked");
      return navigator.serviceWorker.register(button.dataset.worker);
    }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(button.dataset.key) });
    }).then(post).then(function () {
      say(button.dataset.textOn);
    }).catch(function (error) {
      button.disabled = false;
      say(error.message === "blocked" ? button.dataset.textBlocked : button.dataset.textFailed);
    });
  });
})();

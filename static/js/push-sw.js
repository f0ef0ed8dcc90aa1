// The push notices' service worker: shows a notice the site sent (games.push.notices: its
// title, its words in the seat's language, the table's address) and opens the table when it
// is pressed, or brings an open tab of it forward.
self.addEventListener("push", function (event) {
  var notice = event.data ? event.data.json() : null;
  if (!notice) return;
  event.waitUntil(self.registration.showNotification(notice.title, {
    body: notice.body, tag: notice.tag, data: { url: notice.url }, icon: new URL("../favicon-turn.svg", self.location).href,
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = new URL(event.notification.data.url, self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window" }).then(function (tabs) {
    var open = tabs.filter(function (tab) { return tab.url === url; })[0];
    return open ? open.focus() : self.clients.openWindow(url);
  }));
});

// A private link carries its secret in the #fragment, which a browser never sends to a
// server (no access log, no Referer, no language-switcher link repeats it). The page hands
// it over once, posted with the CSRF token, forgets it, and goes where the server sends it.
// One mechanism for both private links: a seat's (the table page, via table.js) and a
// player's identity (the archive's claim page, which marks an element data-claim-fragment).
(function () {
  "use strict";

  window.claimFromFragment = function (key, path) {
    var match = new RegExp("^#" + key + "=([A-Za-z0-9_-]+)$").exec(location.hash);
    if (!match) return false;
    history.replaceState(null, "", location.pathname + location.search);
    var csrf = (/(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie) || [])[1] || "";
    var body = new URLSearchParams({ token: match[1], csrfmiddlewaretoken: csrf });
    var go = function (response) {
      if (response && response.ok && response.redirected) location.replace(response.url);
      else location.reload();
    };
    fetch(path, { method: "POST", body: body, credentials: "same-origin" }).then(go, go);
    return true;
  };

  document.querySelectorAll("[data-claim-fragment]").forEach(function (element) {
    window.claimFromFragment(element.dataset.claimFragment, element.dataset.claimPath);
  });
})();

// Counts down to a moment the server named (the table's claim: `data-countdown-to`, ISO 8601)
// in the element's `[data-countdown]` child, as m:ss, once a second. It looks the elements up
// on every tick, so a state morphed into the page is counted too. When the moment comes the
// server sends the state that offers the claim by itself; this only tells how long to wait.
(function () {
  "use strict";
  function shown(seconds) {
    var whole = Math.max(0, Math.ceil(seconds));
    var minutes = Math.floor(whole / 60), rest = whole % 60;
    return minutes + ":" + (rest < 10 ? "0" : "") + rest;
  }
  // With data-turn-to (a turn clock with a bank), the turn's own time runs out first, then
  // the bank's, shown apart in [data-bank] as a chess clock shows them.
  function tick() {
    document.querySelectorAll("[data-countdown-to]").forEach(function (element) {
      var now = Date.now(), end = Date.parse(element.dataset.countdownTo);
      var turnEnd = element.dataset.turnTo ? Date.parse(element.dataset.turnTo) : end;
      var place = element.querySelector("[data-countdown]"), bank = element.querySelector("[data-bank]");
      if (place) place.textContent = shown((turnEnd - now) / 1000);
      if (bank) bank.textContent = shown((end - Math.max(now, turnEnd)) / 1000);
    });
  }
  window.setInterval(tick, 1000);
  document.addEventListener("DOMContentLoaded", tick);
})();

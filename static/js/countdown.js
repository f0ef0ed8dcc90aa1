// Counts down to a moment the server named (the table's claim: `data-countdown-to`, ISO 8601)
// in the element's `[data-countdown]` child, as m:ss, once a second. It looks the elements up
// on every tick, so a state morphed into the page is counted too. When the moment comes the
// server sends the state that offers the claim by itself; this only tells how long to wait.
(function () {
  "use strict";
  function shown(seconds) {
    var whole = Math.max(0, Math.ceil(seconds));
    var minutes = Math.floor(whole / 60), rest = whole % 60;
    var mss = (rest < 10 ? "0" : "") + rest;
    if (whole >= 86400) return null;  // days away: the server's words ("2 days, 3 hours") stand
    if (whole < 3600) return minutes + ":" + mss;
    // From an hour (a pace of days a turn) h:mm:ss, as games.live.render.time_left writes it.
    var hours = Math.floor(whole / 3600), mins = minutes % 60;
    return hours + ":" + (mins < 10 ? "0" : "") + mins + ":" + mss;
  }
  function show(place, text) {
    if (place && text !== null) place.textContent = text;
  }
  // With data-turn-to (a turn clock with a bank), the turn's own time runs out first, then
  // the bank's, shown apart in [data-bank] as a chess clock shows them.
  function tick() {
    document.querySelectorAll("[data-countdown-to]").forEach(function (element) {
      var now = Date.now(), end = Date.parse(element.dataset.countdownTo);
      var turnEnd = element.dataset.turnTo ? Date.parse(element.dataset.turnTo) : end;
      var place = element.querySelector("[data-countdown]"), bank = element.querySelector("[data-bank]");
      show(place, shown((turnEnd - now) / 1000));
      show(bank, shown((end - Math.max(now, turnEnd)) / 1000));
    });
  }
  window.setInterval(tick, 1000);
  document.addEventListener("DOMContentLoaded", tick);
})();

// Times are written by the server in UTC, with the zone named, so a page without
// scripts is still right. Here each <time datetime> with a time in it is shown again
// in the visitor's own time zone and the page's language, the zone named too; the
// UTC time stays in its title.
(function () {
  "use strict";

  var format = new Intl.DateTimeFormat(document.documentElement.lang || undefined, {
    year: "numeric", month: "numeric", day: "numeric",
    hour: "numeric", minute: "2-digit", timeZoneName: "short",
  });

  document.querySelectorAll("time[datetime*='T']").forEach(function (element) {
    var moment = new Date(element.getAttribute("datetime"));
    if (isNaN(moment.getTime())) return;
    element.title = element.textContent.trim();
    element.textContent = format.format(moment);
  });
})();

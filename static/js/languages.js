// The language switcher keeps the place on the page: a link to the same page in another
// language takes the #anchor along (every language's page has the same ids).
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var link = event.target.closest(".languages a[href]");
    if (!link || !location.hash || link.hash) return;
    link.hash = location.hash;
  });
})();

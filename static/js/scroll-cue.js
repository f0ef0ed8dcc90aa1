// A wide table in a box that scrolls sideways (.table-scroll) says so: data-more names the
// sides with more to see ("left", "right"), and site.css fades those edges.
(function () {
  "use strict";
  function mark(box) {
    var more = [];
    if (box.scrollLeft > 1) more.push("left");
    if (box.scrollLeft + box.clientWidth < box.scrollWidth - 1) more.push("right");
    box.dataset.more = more.join(" ");
  }
  function markAll() { document.querySelectorAll(".table-scroll").forEach(mark); }
  document.addEventListener("scroll", function (event) {
    if (event.target.classList && event.target.classList.contains("table-scroll")) mark(event.target);
  }, true);
  window.addEventListener("resize", markAll);
  document.addEventListener("DOMContentLoaded", markAll);
})();

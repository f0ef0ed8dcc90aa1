// The archive's replay steps with the arrow keys: left for the previous move, right for the
// next (the links htmx swaps in, so they are looked up at each key), unless a field or a
// control that uses the arrows has focus.
(function () {
  "use strict";
  var links = {ArrowLeft: "replay-previous", ArrowRight: "replay-next"};
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.target.closest && event.target.closest("input, textarea, select, [contenteditable], .table-scroll")) return;
    var link = links[event.key] && document.getElementById(links[event.key]);
    if (link) {
      event.preventDefault();
      link.click();
    }
  });
})();

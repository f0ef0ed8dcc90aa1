// An archived hand's replay: the arrow keys step through its moves as its buttons do (htmx
// swaps the replay in place), unless a field or a control that uses the arrows has focus.
(function () {
  "use strict";
  var STEPS = { ArrowLeft: "replay-previous", ArrowRight: "replay-next" };
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.shiftKey || !(event.key in STEPS)) return;
    if (event.target.closest("input, textarea, select, [contenteditable], .table-scroll")) return;
    var step = document.getElementById(STEPS[event.key]);
    if (!step) return;
    event.preventDefault();
    step.click();
  });
})();

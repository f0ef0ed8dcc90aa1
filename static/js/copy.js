// A button with data-copy="#field" copies that field's text (the table's share link, the
// link to continue on another device) and says so with its data-text-copied for a moment.
(function () {
  "use strict";
  var SAID_MS = 2500;
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var field = document.querySelector(button.dataset.copy);
      field.select();
      var label = button.dataset.label || (button.dataset.label = button.textContent);
      var done = function () {
        button.textContent = button.dataset.textCopied;
        window.clearTimeout(button.revert);
        button.revert = window.setTimeout(function () { button.textContent = label; }, SAID_MS);
      };
      if (navigator.clipboard) {
        navigator.clipboard.writeText(field.value).then(done, function () { document.execCommand("copy"); done(); });
      } else {
        document.execCommand("copy");
        done();
      }
    });
  });
})();

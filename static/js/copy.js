// A button with data-copy="#field" copies that field's text (the table's share link, the
// link to continue on another device) and says so with its data-text-copied.
(function () {
  "use strict";
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var field = document.querySelector(button.dataset.copy);
      field.select();
      var done = function () { button.textContent = button.dataset.textCopied; };
      if (navigator.clipboard) {
        navigator.clipboard.writeText(field.value).then(done, function () { document.execCommand("copy"); done(); });
      } else {
        document.execCommand("copy");
        done();
      }
    });
  });
})();

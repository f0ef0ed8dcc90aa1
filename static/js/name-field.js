// A name field (data-max-characters) says a name is too long as it is typed, before the form
// is sent: it counts what a reader sees (grapheme clusters, as the server does in
// games.identity), so "👩‍💻" is one character, and it never cuts what was typed or pasted.
(function () {
  "use strict";
  var segmenter = window.Intl && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;
  function characters(text) {
    return segmenter ? Array.from(segmenter.segment(text)).length : Array.from(text).length;
  }
  function check(field) {
    var over = characters(field.value.trim()) > Number(field.dataset.maxCharacters);
    var was = field.validationMessage === field.dataset.textTooLong;
    field.setCustomValidity(over ? field.dataset.textTooLong : "");
    if (over && !was) field.reportValidity();
  }
  document.querySelectorAll("input[data-max-characters]").forEach(function (field) {
    field.addEventListener("input", function () { check(field); });
    check(field);
  });
})();

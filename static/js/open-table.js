// The open-a-table form: a mode without games (a single hand) has no target, so its choice is
// off while that scoring is picked (a disabled fieldset sends nothing; the server takes 100).
// Each choice says whether it has a target (the engine's ScoringMode.has_target). "Play the
// computer" with no name typed plays at once, under a default name, rather than asking for one.
(function () {
  "use strict";
  document.querySelectorAll("form.open-table").forEach(function (form) {
    var target = form.querySelector(".target-choice");
    function update() {
      var picked = form.querySelector("input[name=scoring]:checked");
      target.disabled = !!picked && picked.dataset.hasTarget === "false";
    }
    form.addEventListener("change", update);
    var computer = form.querySelector("button[name=against_computer]");
    var name = form.querySelector("input[name=name]");
    if (computer && name) {
      computer.addEventListener("click", function () {
        if (!name.value.trim()) name.value = name.dataset.defaultName;
      });
    }
    update();
  });
})();

// The open-a-table form: a mode without games (a single hand) has no target, so its choice is
// off while that scoring is picked (a disabled fieldset sends nothing; the server takes 100).
// Each choice says whether it has a target (the engine's ScoringMode.has_target). "Play the
// computer" with no name typed plays at once, under a default name, rather than asking for one.
// A pace of days a turn turns the turn clock's choice off.
(function () {
  "use strict";
  document.querySelectorAll("form.open-table").forEach(function (form) {
    var target = form.querySelector(".target-choice");
    var clock = form.querySelector(".clock-choice");
    function update() {
      var picked = form.querySelector("input[name=scoring]:checked");
      target.disabled = !!picked && picked.dataset.hasTarget === "false";
      // A turn clock is for real time: at days a turn its choice is off (the server takes none).
      var pace = form.querySelector("input[name=pace]:checked");
      if (clock) clock.disabled = !!pace && pace.value !== "0";
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

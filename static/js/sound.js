// The table's sounds: short tones made on the spot (no sound files) for a turn, a showdown
// and a chat line, and the button that mutes them; muting is remembered in this browser.
// table.js calls HollywoodSound.chime(kind) and does without it if this script is absent.
(function () {
  "use strict";
  var KEY = "hollywood-gin-sound";
  var NOTES = { turn: [660, 880], chat: [990], knock: [440, 330, 550] };
  var audio = null;
  var toggle = document.getElementById("sound-toggle");

  function soundOn() { return localStorage.getItem(KEY) !== "off"; }

  function chime(kind) {
    if (!soundOn() || !window.AudioContext) return;
    try {
      audio = audio || new AudioContext();
      (NOTES[kind] || NOTES.knock).forEach(function (frequency, index) {
        var tone = audio.createOscillator(), gain = audio.createGain(), at = audio.currentTime + index * 0.12;
        tone.frequency.value = frequency;
        gain.gain.setValueAtTime(0.08, at);
        gain.gain.exponentialRampToValueAtTime(0.001, at + 0.11);
        tone.connect(gain).connect(audio.destination);
        tone.start(at);
        tone.stop(at + 0.12);
      });
    } catch (error) { /* no sound is no failure */ }
  }

  function showToggle() {
    toggle.setAttribute("aria-pressed", soundOn() ? "true" : "false");
    toggle.textContent = soundOn() ? toggle.dataset.textOn : toggle.dataset.textOff;
  }

  if (toggle) {
    showToggle();
    toggle.addEventListener("click", function () {
      localStorage.setItem(KEY, soundOn() ? "off" : "on");
      showToggle();
    });
  }

  window.HollywoodSound = { chime: chime };
})();

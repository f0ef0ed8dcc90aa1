// The table page's live part: one WebSocket that receives the seat's view as HTML and
// sends the moves the player clicks. The server is the authority; this only shows and asks.
(function () {
  "use strict";
  var live = document.getElementById("table-live");
  if (!live) return;
  var status = document.getElementById("connection-status");
  var errorLine = document.getElementById("table-error");
  var version = Number(live.dataset.version);
  var sort = localStorage.getItem("hollywood-gin-sort") || "melds";
  var socket = null;
  var attempts = 0;

  function setStatus(state) {
    status.dataset.state = state;
    status.textContent = status.dataset["text" + state.charAt(0).toUpperCase() + state.slice(1)];
    live.classList.toggle("offline", state !== "connected");
  }

  function showError(text) {
    errorLine.textContent = text || "";
    errorLine.hidden = !text;
  }

  function socketUrl() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    return scheme + location.host + live.dataset.wsPath +
      "?lang=" + encodeURIComponent(live.dataset.lang) + "&sort=" + encodeURIComponent(sort);
  }

  function connect() {
    setStatus(attempts ? "disconnected" : "connecting");
    socket = new WebSocket(socketUrl());
    socket.addEventListener("open", function () {
      attempts = 0;
      setStatus("connected");
    });
    socket.addEventListener("message", function (event) {
      var message = JSON.parse(event.data);
      if (message.type === "state") {
        version = message.version;
        live.dataset.version = String(version);
        live.innerHTML = message.html;
        showError("");
      } else if (message.type === "error") {
        showError(message.message);
      }
    });
    socket.addEventListener("close", function (event) {
      setStatus("disconnected");
      if (event.code === 4404) return;  // the table is gone: nothing to come back to
      // Back off up to 10 s, so a restarting server is not hammered.
      var delay = Math.min(10000, 500 * Math.pow(2, attempts));
      attempts += 1;
      window.setTimeout(connect, delay);
    });
  }

  function send(frame) {
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      showError(live.dataset.textOffline);
      return;
    }
    socket.send(JSON.stringify(frame));
  }

  live.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button || button.disabled) return;
    if (button.dataset.move) {
      send({ type: "move", move: button.dataset.move, version: version });
    } else if (button.dataset.action) {
      // No version: both players press "Next hand" / "Rematch" from the same screen.
      send({ type: button.dataset.action });
    } else if (button.dataset.sort) {
      sort = button.dataset.sort;
      localStorage.setItem("hollywood-gin-sort", sort);
      send({ type: "sort", by: sort });
    }
  });

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

  // "Continue on another device": the seat secret rides in the link's #fragment (claim.js).
  if (!window.claimFromFragment("seat", live.dataset.claimPath)) connect();
})();

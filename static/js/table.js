// The table page's live part: one WebSocket that receives the seat's view as HTML and
// sends the moves the player presses. The server is the authority; this only shows and asks.
//
// Each new view (the whole table, or the fragments of it that changed) is morphed into the
// page (idiomorph), so the focused control, the scroll
// position and an open details panel stay; cards travel to their new places (FLIP, unless
// the reader prefers reduced motion). A control acts only once its state has been on
// screen for ARM_MS, and a knock, a resignation or a claim takes a second press. A discard
// too is deliberate: a tap picks a card (it lifts), a second tap on it or on the pile
// discards it, or the card is dragged onto the pile; a tap on another card only picks that.
// The delays and the cookies' age come from the page (data-arm-ms…), set by the server.
(function () {
  "use strict";
  var live = document.getElementById("table-live");
  if (!live) return;
  var ARM_MS = Number(live.dataset.armMs);          // the server's GAMES_MIN_SEEN_SECONDS, and a margin
  var CONFIRM_MS = Number(live.dataset.confirmMs);  // a first press on "Knock" waits this long for the second
  var COOKIE_AGE = Number(live.dataset.cookieAge);
  var page = document.getElementById("table-page");
  var deckToggle = document.getElementById("deck-toggle");
  // The "Chat" link's badge: how many lines came while the chat was out of sight.
  var unseen = { badge: document.getElementById("chat-badge"), count: document.getElementById("chat-unread"),
                 words: document.getElementById("chat-unread-words"), chat: document.getElementById("chat") };
  var picked = null;       // the code of the card picked for a discard, if any
  var roving = null;       // the code of the hand's one tab stop
  var keyed = false;       // the last move came from a key: focus follows into the hand
  var status = document.getElementById("connection-status");
  var errorLine = document.getElementById("table-error");
  var chatLines = document.getElementById("chat-lines");
  var chatForm = document.getElementById("chat-form");
  var favicon = document.getElementById("favicon");
  var baseTitle = document.title;
  var tableCode = live.dataset.wsPath.split("/").filter(Boolean).pop();
  var version = Number(live.dataset.version);
  var armedAt = 0;
  var lastDrag = -Infinity;
  var socket = null;
  var attempts = 0;
  var reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
  // A phone, upright or sideways: table.css docks the turn's buttons at the screen's foot.
  var phone = window.matchMedia("(max-width: 47.99rem), (orientation: landscape) and (max-height: 30rem)");

  // Cookies, not localStorage: the server's first paint of the page uses them too.
  function cookie(name) {
    var found = document.cookie.split("; ").filter(function (part) { return part.indexOf(name + "=") === 0; })[0];
    return found ? found.slice(name.length + 1) : "";
  }
  function setCookie(name, value) {
    // Values are plain words and card codes joined by dots: nothing a cookie must escape.
    document.cookie = name + "=" + value + "; path=/; max-age=" + COOKIE_AGE + "; SameSite=Lax";
  }
  var orderCookie = "hand_order_" + tableCode;
  // This browser, to the server: its tabs watching a table count as one person watching.
  if (!cookie("viewer")) {
    setCookie("viewer", Array.prototype.map.call(window.crypto.getRandomValues(new Uint8Array(12)),
      function (byte) { return (byte + 256).toString(16).slice(1); }).join(""));
  }
  var sort = cookie("hand_sort") || "melds";

  function setStatus(state) {
    status.dataset.state = state;
    status.textContent = status.dataset["text" + state.charAt(0).toUpperCase() + state.slice(1)];
    live.classList.toggle("offline", state !== "connected");
  }

  function showError(text) {
    errorLine.textContent = text || "";
    errorLine.hidden = !text;
  }

  // A press on a state shown less than ARM_MS ago is not played (it was likely aimed at the
  // state before): the player is told, for a moment, instead of meeting silence.
  var SAID_MS = 3000;
  function tooSoon() {
    var text = live.dataset.textTooSoon;
    showError(text);
    window.setTimeout(function () { if (errorLine.textContent === text) showError(""); }, SAID_MS);
  }

  function socketUrl() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    return scheme + location.host + live.dataset.wsPath + "?lang=" + encodeURIComponent(live.dataset.lang) +
      "&sort=" + encodeURIComponent(sort) + "&order=" + encodeURIComponent(cookie(orderCookie));
  }

  // Where every card is now, by its code, for FLIP.
  function cardPlaces() {
    var places = {};
    live.querySelectorAll("#felt [data-card]").forEach(function (card) {
      places[card.dataset.card] = card.getBoundingClientRect();
    });
    var stock = live.querySelector(".pile.stock .card");
    places.stock = stock ? stock.getBoundingClientRect() : null;
    return places;
  }

  function travel(before) {
    if (reducedMotion.matches || !Element.prototype.animate) return;
    live.querySelectorAll("#felt [data-card]").forEach(function (card) {
      var from = before[card.dataset.card] || (card.closest(".my-hand") ? before.stock : null);
      if (!from) return;
      var to = card.getBoundingClientRect();
      var dx = from.left - to.left, dy = from.top - to.top;
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
      card.animate([{ transform: "translate(" + dx + "px, " + dy + "px)" }, { transform: "none" }],
        { duration: 260, easing: "cubic-bezier(.2,.7,.3,1)" });
    });
  }

  function flag(name) {
    var felt = document.getElementById("felt");
    return felt ? felt.dataset[name] === "true" : false;
  }

  function showState(message) {
    var changed = message.version !== version;
    var wasMyTurn = flag("myTurn"), wasWaiting = flag("waiting"), wasShowdown = !!document.getElementById("showdown");
    var wasEnded = !!live.querySelector(".hand-end");
    var hadHand = !!document.getElementById("my-hand");
    var focused = live.contains(document.activeElement) ? document.activeElement : null;
    var before = cardPlaces();
    var confirming = live.querySelector("[data-confirming='true']");
    version = message.version;
    live.dataset.version = String(version);
    if (message.whole) Idiomorph.morph(live, message.html, { morphStyle: "innerHTML" });
    else morphFragments(message.html);
    // A presence update must not undo a first press on "Knock": the same control keeps asking.
    var same = confirming && !changed && document.getElementById(confirming.id);
    if (same && same.dataset.confirm) ask(same);
    if (changed) { arm(); picked = null; }
    dock();
    if (!hadHand && !wasEnded) toFelt();
    showPicked();
    rove();
    keepFocus(focused);
    travel(before);
    makeSortable();
    if (flag("myTurn") && !wasMyTurn) chime("turn");
    if (!wasShowdown && document.getElementById("showdown")) chime("knock");
    var ended = live.querySelector(".hand-end");
    // The hand's end comes into view; the next hand (or the rematch) starts at the top of the felt.
    if (ended && !wasEnded) bringIntoView(ended);
    else if (wasEnded && !ended) bringIntoView(live);
    if (wasWaiting && !flag("waiting")) notice(live.dataset.titleJoined);
    showTitle();
    showError("");
    contributeIfAsked();
  }

  // The next deal waits for this seat's randomness (docs/fairness.md): 32 bytes of the
  // browser's own, sent once for each commitment shown.
  var contributedTo = {};
  function contributeIfAsked() {
    var deal = document.getElementById("table-deal");
    var commitment = deal && deal.dataset.contribute;
    if (!commitment || contributedTo[commitment] || !window.crypto) return;
    var bytes = new Uint8Array(32);
    window.crypto.getRandomValues(bytes);
    var hex = Array.prototype.map.call(bytes, function (byte) { return (byte < 16 ? "0" : "") + byte.toString(16); }).join("");
    if (send({ type: "contribute", contribution: hex })) contributedTo[commitment] = true;
  }

  // A frame that is not whole carries the felt's own attributes (an empty #felt), then only
  // the fragments that changed, each an element with the id of the one it replaces: each is
  // morphed into its own, the rest of the table left as it is. (Where a fragment comes or
  // goes, the server sends the region that holds it, or the whole table, so each has its place.)
  function morphFragments(html) {
    var parsed = document.createElement("template");
    parsed.innerHTML = html;
    Array.prototype.slice.call(parsed.content.children).forEach(function (fragment) {
      var shown = document.getElementById(fragment.id);
      if (!shown || !live.contains(shown)) return;
      if (fragment.id === "felt") copyAttributes(fragment, shown);
      else if (fragment.dataset.append) append(fragment, shown);
      else Idiomorph.morph(shown, fragment, { morphStyle: "outerHTML" });
    });
  }
  // A growing fragment (the hand's moves) comes as its new items alone, after the first N the
  // page shows. Should the page not show N, it asks for the whole table again (a "sort" is
  // answered with it).
  function append(fragment, shown) {
    if (shown.children.length !== Number(fragment.dataset.append)) {
      var order = cookie(orderCookie);
      send({ type: "sort", by: sort, order: order ? order.split(".") : [] });
      return;
    }
    while (fragment.firstElementChild) shown.appendChild(fragment.firstElementChild);
  }
  function copyAttributes(from, to) {
    Array.prototype.slice.call(to.attributes).forEach(function (attribute) {
      if (!from.hasAttribute(attribute.name)) to.removeAttribute(attribute.name);
    });
    Array.prototype.forEach.call(from.attributes, function (attribute) {
      if (to.getAttribute(attribute.name) !== attribute.value) to.setAttribute(attribute.name, attribute.value);
    });
  }

  // Controls act ARM_MS after a new state shows; data-armed says when (tests wait for it).
  var armTimer = null;
  function arm() {
    armedAt = performance.now() + ARM_MS;
    live.dataset.armed = "false";
    window.clearTimeout(armTimer);
    armTimer = window.setTimeout(function () { live.dataset.armed = "true"; }, ARM_MS);
  }

  // Focus stays where it was; if that control is gone (a draw button after the draw, the card
  // just discarded), it moves to the hand's tab stop, else to the first control still there,
  // never to <body> or an invisible container.
  function keepFocus(focused) {
    if (!(focused || keyed) || live.contains(document.activeElement)) return;
    keyed = false;
    var next = live.querySelector("#hand-cards [tabindex='0']") ||
      live.querySelector("#actions button, .next-step button:not([disabled]), .table-end button");
    if (next) next.focus({ preventScroll: true });
  }

  // The dock's height, for the page's room under the felt and the guide's place above the buttons.
  function dock() {
    var actions = document.getElementById("actions"), guide = document.getElementById("guide");
    var docked = phone.matches, bar = docked && actions ? actions.offsetHeight : 0;
    page.classList.toggle("docked", docked);
    page.style.setProperty("--actions-h", bar + "px");
    page.style.setProperty("--dock-h", bar + (docked && guide ? guide.offsetHeight : 0) + "px");
  }

  // A phone shows the felt from its top, the site's header scrolled away: a turn fits the screen.
  // A desktop scrolls only as far as the turn's buttons need, never past the felt's top.
  function toFelt() {
    if (!document.getElementById("my-hand")) return;
    var top = live.getBoundingClientRect().top, actions = document.getElementById("actions");
    if (!phone.matches) top = actions ? Math.min(top, actions.getBoundingClientRect().bottom + 8 - window.innerHeight) : 0;
    if (top > 1 || (phone.matches && top < -1)) window.scrollBy(0, top);
  }

  function bringIntoView(element) {
    var box = element.getBoundingClientRect();
    if (box.top >= 0 && box.top < window.innerHeight * 0.6) return;
    element.scrollIntoView({ block: "start", behavior: reducedMotion.matches ? "auto" : "smooth" });
  }

  // The hand: one tab stop (the picked card, else the last one focused, else the first),
  // the arrows move between its cards.
  function handCards() {
    return Array.prototype.slice.call(live.querySelectorAll("#hand-cards [data-card]"));
  }
  function rove() {
    var cards = handCards();
    if (!cards.length) return;
    var stop = cards.filter(function (card) { return card.dataset.card === (picked || roving); })[0] || cards[0];
    cards.forEach(function (card) { card.tabIndex = card === stop ? 0 : -1; });
  }
  live.addEventListener("keydown", function (event) {
    var card = event.target.closest("#hand-cards [data-card]");
    if (!card) return;
    var steps = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    var cards = handCards(), at = cards.indexOf(card), to = null;
    if (event.key in steps) to = cards[(at + steps[event.key] + cards.length) % cards.length];
    else if (event.key === "Home") to = cards[0];
    else if (event.key === "End") to = cards[cards.length - 1];
    else if (event.key === "Escape") { pick(null); return; }
    if (!to) return;
    event.preventDefault();
    roving = to.dataset.card;
    rove();
    to.focus();
  });
  live.addEventListener("focusin", function (event) {
    var card = event.target.closest("#hand-cards [data-card]");
    if (card) { roving = card.dataset.card; rove(); }
  });

  // Single keys, said on the page (#keys-note) and on each button (aria-keyshortcuts).
  var SHORTCUTS = { d: "#move-stock", p: "#move-pile", k: "#actions .knock" };
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    if (event.target.closest("input, textarea, select, [contenteditable]")) return;
    var selector = SHORTCUTS[event.key.toLowerCase()];
    var button = selector && live.querySelector(selector);
    if (!button) return;
    event.preventDefault();
    keyed = true;
    button.click();
  });

  // Picking a card for a discard: it lifts and says so; a second press discards it.
  function discardable(card) {
    return card && card.dataset.move && card.dataset.move.indexOf("discard ") === 0;
  }
  function pick(code) {
    picked = code;
    showPicked();
  }
  function showPicked() {
    var note = document.getElementById("picked-note");
    var shown = null;
    live.querySelectorAll("#hand-cards [data-card]").forEach(function (card) {
      if (!discardable(card)) return;
      var on = card.dataset.card === picked;
      card.classList.toggle("picked", on);
      card.setAttribute("aria-pressed", on ? "true" : "false");
      if (on) shown = card;
    });
    if (!shown) picked = null;
    var pile = document.getElementById("discard-pile");
    if (pile) pile.classList.toggle("ready", !!shown);
    if (note) note.textContent = shown ? note.dataset.text.replace("{card}", shown.querySelector("b").textContent) : "";  // its corner, "7♥"
  }
  function discard(code) {
    if (performance.now() < armedAt) { tooSoon(); return; }
    var card = document.getElementById("card-" + code);
    if (!discardable(card)) return;
    send({ type: "move", move: card.dataset.move, version: version });
  }

  // The tab says when it is your turn, so a player in another tab notices.
  var noticeText = "";
  function notice(text) {
    if (document.hidden) noticeText = text;
  }
  function showTitle() {
    var turn = flag("myTurn");
    var prefix = turn ? live.dataset.titleTurn : noticeText;
    document.title = prefix ? "● " + prefix + " · " + baseTitle : baseTitle;
    if (favicon) favicon.href = turn || noticeText ? live.dataset.faviconTurn : live.dataset.favicon;
  }
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) { noticeText = ""; showTitle(); }
  });

  // The sound of a turn, a showdown and a chat line: static/js/sound.js (absent: silence).
  function chime(kind) { if (window.HollywoodSound) window.HollywoodSound.chime(kind); }

  // A new line, while the chat is out of sight (a phone: under the felt), lights a badge on the
  // "Chat" link at the top and chimes softly; seeing the chat clears it.
  var unread = 0, chatSeen = true;
  var unreadWords = pluralWords(unseen.words);
  function showUnread() {
    if (!unseen.badge) return;
    unseen.count.textContent = String(unread);
    unseen.words.textContent = unreadWords(unread);
    unseen.badge.hidden = unread === 0;
  }
  // The words for a count ("1 nová", "2 nové", "5 nových"): the server gave them for sample
  // counts (data-forms); each sample's Intl.PluralRules category names the words of the counts in it.
  function pluralWords(element) {
    var rules = new Intl.PluralRules(document.documentElement.lang), forms = {};
    var samples = element ? JSON.parse(element.dataset.forms) : {};
    Object.keys(samples).forEach(function (sample) {
      var category = rules.select(Number(sample));
      if (!(category in forms)) forms[category] = samples[sample];
    });
    return function (count) { return (forms[rules.select(count)] || "").replace("{count}", String(count)); };
  }
  if (unseen.chat && window.IntersectionObserver) {
    new IntersectionObserver(function (entries) {
      chatSeen = entries[entries.length - 1].isIntersecting;
      if (chatSeen) { unread = 0; showUnread(); }
    }).observe(unseen.chat);
  }

  function showChat(message) {
    if (!chatLines || chatLines.querySelector("[data-id='" + message.id + "']")) return;
    if (String(message.seat) !== live.dataset.seat && !chatSeen) {
      unread += 1;
      showUnread();
      chime("chat");
    }
    var line = document.createElement("li");
    line.dataset.seat = String(message.seat);
    line.dataset.id = String(message.id);
    var name = document.createElement("span");
    name.className = "chat-name";
    name.textContent = message.name;
    var text = document.createElement("span");
    text.className = "chat-text";
    text.textContent = message.text;  // text, never HTML
    line.append(name, " ", text);
    chatLines.append(line);
    chatLines.scrollTop = chatLines.scrollHeight;
    if (String(message.seat) === live.dataset.seat) said(message.text);
  }

  // A line typed leaves its field only once the table has it: one the flood limit refuses stays.
  function said(text) {
    var field = chatForm && chatForm.querySelector("input[name=text]");
    if (field && field.value.trim().replace(/\s+/g, " ") === text.replace(/\s+/g, " ")) field.value = "";
  }

  // How long to wait before opening the socket again. Doubling from half a second to 10 s, each
  // wait anywhere between its half and itself, so a restarted server's pages do not all come
  // back at once; a steady 2-4 s while the server says its database is away (4503); 20-40 s
  // once it says this address opened too many sockets (4429: its count is per minute).
  function reconnectDelay(code) {
    var most = code === 4429 ? 40000 : code === 4503 ? 4000 : Math.min(10000, 500 * Math.pow(2, attempts));
    return most / 2 + Math.random() * most / 2;
  }

  function connect() {
    if (!attempts) setStatus("connecting");  // else the close has said why it is away
    socket = new WebSocket(socketUrl());
    socket.addEventListener("open", function () {
      setStatus("connected");
    });
    socket.addEventListener("message", function (event) {
      var message = JSON.parse(event.data);
      // Only a state shows the server whole again: one that opens sockets and closes them
      // (its database away, say) keeps the page backing off.
      if (message.type === "state") { attempts = 0; showState(message); }
      else if (message.type === "chat") showChat(message);
      else if (message.type === "error") showError(message.message);
      // The server tells when its database is away, and when it is back (the state follows).
      else if (message.type === "status") setStatus(message.database ? "connected" : "database");
    });
    socket.addEventListener("close", function (event) {
      setStatus(event.code === 4503 ? "database" : event.code === 4429 ? "limited" : "disconnected");
      if (event.code === 4404) return;  // the table is gone: nothing to come back to
      var delay = reconnectDelay(event.code);
      attempts += 1;
      window.setTimeout(connect, delay);
    });
  }

  function send(frame) {
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      showError(live.dataset.textOffline);
      return false;
    }
    socket.send(JSON.stringify(frame));
    return true;
  }

  // A first press asks for a second: the button says what the second press will do.
  function confirmed(button) {
    if (button.dataset.confirming === "true") return true;
    live.querySelectorAll("[data-confirming='true']").forEach(unconfirm);
    ask(button);
    window.setTimeout(function () { unconfirm(button); }, CONFIRM_MS);
    arm();
    return false;
  }
  function ask(button) {
    button.dataset.confirming = "true";
    button.dataset.label = button.textContent;
    button.textContent = button.dataset.confirm;
  }
  function unconfirm(button) {
    if (button.dataset.confirming !== "true") return;
    button.dataset.confirming = "false";
    button.textContent = button.dataset.label;
  }

  live.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (button && button.dataset.guide) {
      setCookie("guide", "off");
      page.classList.add("guide-off");
      dock();
      return;
    }
    if (!button || !discardable(button)) {
      // A tap on the pile discards the picked card; a tap anywhere else only lets go of it.
      if (picked && event.target.closest("#discard-pile")) { discard(picked); return; }
      if (picked && !(button && button.dataset.sort)) pick(null);
    }
    if (!button || button.disabled) return;
    if (discardable(button) && button.closest("#hand-cards")) {
      // The first press picks, the second discards: a mis-tap costs nothing.
      if (picked !== button.dataset.card) { pick(button.dataset.card); return; }
      if (performance.now() - lastDrag < ARM_MS) return;
      discard(button.dataset.card);
      return;
    }
    if (button.dataset.refusal) { showError(button.dataset.refusal); return; }
    if (button.dataset.sort) { sortBy(button.dataset.sort, []); return; }
    // A move, a knock, a resignation or a claim acts only on a state seen for a moment.
    // "Next hand" and "Rematch" are harmless to repeat: both players press them at once.
    var guarded = button.dataset.move || button.dataset.confirm;
    if (guarded && performance.now() < armedAt) { tooSoon(); return; }
    if (guarded && performance.now() - lastDrag < ARM_MS) return;
    if (button.dataset.confirm && !confirmed(button)) return;
    if (button.dataset.move) {
      send({ type: "move", move: button.dataset.move, version: version });
    } else if (button.dataset.action) {
      // No version: both players press "Next hand" / "Rematch" from the same screen.
      send({ type: button.dataset.action });
    }
  });

  function sortBy(by, order) {
    sort = by;
    setCookie("hand_sort", sort);
    if (by === "custom") setCookie(orderCookie, order.join("."));
    send({ type: "sort", by: sort, order: order });
  }

  // Drag to reorder (mouse and touch); the order is kept in a cookie for this table. A card
  // dragged onto the discard pile is discarded (it goes back to its place until the server
  // answers).
  function makeSortable() {
    var hand = document.getElementById("hand-cards");
    var fan = document.getElementById("pile-fan");
    if (!hand || !window.Sortable) return;
    if (fan && !Sortable.get(fan)) {
      Sortable.create(fan, {
        group: { name: "hand", pull: false, put: function (to, from, dragged) { return discardable(dragged); } },
        sort: false, draggable: ".never", animation: 0,
      });
    }
    hand.querySelectorAll(".group-cards").forEach(function (group) {
      if (Sortable.get(group)) return;  // a morph keeps the element, and its Sortable
      Sortable.create(group, {
        group: "hand", animation: reducedMotion.matches ? 0 : 150, delay: 120, delayOnTouchOnly: true,
        onEnd: function (event) {
          lastDrag = performance.now();
          if (event.to && event.to.id === "pile-fan") {
            event.from.insertBefore(event.item, event.from.children[event.oldIndex] || null);
            discard(event.item.dataset.card);
            return;
          }
          var order = Array.prototype.map.call(hand.querySelectorAll("[data-card]"), function (card) { return card.dataset.card; });
          sortBy("custom", order);
        },
      });
    });
  }

  if (chatForm) {
    chatForm.addEventListener("submit", function (event) {
      event.preventDefault();
      var field = chatForm.querySelector("input[name=text]");
      if (field.value.trim()) send({ type: "chat", text: field.value });
    });
    chatForm.addEventListener("click", function (event) {
      var reaction = event.target.closest("[data-say]");
      if (reaction) send({ type: "chat", text: reaction.dataset.say });
    });
  }

  if (deckToggle) {
    deckToggle.addEventListener("click", function () {
      var four = !page.classList.contains("four-colours");
      page.classList.toggle("four-colours", four);
      deckToggle.setAttribute("aria-pressed", four ? "true" : "false");
      setCookie("deck", four ? "four" : "two");
    });
  }

  makeSortable();
  showPicked();
  rove();
  showTitle();
  dock();
  window.addEventListener("resize", dock);
  if (!location.hash && window.scrollY === 0) toFelt();
  live.dataset.armed = "true";
  // "Continue on another device": the seat secret rides in the link's #fragment (claim.js).
  if (!window.claimFromFragment("seat", live.dataset.claimPath)) connect();
})();

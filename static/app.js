/* bidder: small enhancements. Every page works without this file; the server still
   reads the hand and gives the answer, so the result is the same either way. */
(function () {
  "use strict";

  document.documentElement.classList.replace("no-js", "js");

  var HAND_SIZE = 13;
  var SUIT_LETTERS = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };

  var field = document.getElementById("hand");
  var count = document.getElementById("card-count");
  var picker = document.getElementById("picker");
  if (!field || !count || !picker) {
    return;
  }

  /* The typed cards, each written the assignment's way (e.g. "10H"), for the picker. */
  function tokens() {
    return field.value.split(/[\s,]+/).filter(Boolean).map(function (token) {
      return token.replace(/\uFE0F/g, "").toUpperCase()
        .replace(/^T/, "10")
        .replace(/[♠♥♦♣]$/, function (symbol) { return SUIT_LETTERS[symbol]; });
    });
  }

  /* How many cards are typed: tokens, or ranks in dot notation such as AKQ2.J54.T9.8765. */
  function cardCount() {
    var text = field.value.trim();
    if (text.indexOf(".") !== -1 && !/\s/.test(text)) {
      return text.replace(/10/g, "T").replace(/\./g, "").length;
    }
    return tokens().length;
  }

  function showCount() {
    var typed = cardCount();
    var missing = HAND_SIZE - typed;
    var text = typed + " of " + HAND_SIZE + " cards";
    if (missing > 0) {
      text += " (" + missing + " to go)";
    } else if (missing < 0) {
      text += " (" + -missing + " too many)";
    }
    count.textContent = text;
    count.classList.toggle("complete", missing === 0);
    var held = tokens();
    picker.querySelectorAll("button[data-card]").forEach(function (button) {
      button.setAttribute("aria-pressed", String(held.indexOf(button.dataset.card) !== -1));
    });
  }

  function toggle(card) {
    var held = tokens();
    var kept = held.filter(function (token) { return token !== card; });
    if (kept.length === held.length) {
      kept.push(card);
    }
    field.value = kept.join(" ");
    showCount();
  }

  function element(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes).forEach(function (name) {
      node.setAttribute(name, attributes[name]);
    });
    (children || []).forEach(function (child) {
      node.append(child);
    });
    return node;
  }

  function capitalised(word) {
    return word.charAt(0).toUpperCase() + word.slice(1);
  }

  /* Draw the deck to click, by suit, from the names the server gives (data-cards). */
  function drawPicker() {
    var cards = JSON.parse(picker.dataset.cards);
    cards.suits.forEach(function (suit) {
      var letter = suit[0], symbol = suit[1], word = suit[2];
      var group = element("div", {
        "class": "picker-suit", role: "group", "aria-label": capitalised(word)
      });
      cards.ranks.forEach(function (rank) {
        group.append(element("button", {
          "class": "pick suit-" + letter.toLowerCase(), type: "button",
          "data-card": rank[0] + letter, "aria-pressed": "false"
        }, [
          element("span", { "aria-hidden": "true" },
                  [rank[0], element("span", { "class": "pip" }, [symbol])]),
          element("span", { "class": "visually-hidden" }, [rank[1] + " of " + word])
        ]));
      });
      picker.append(group);
    });
  }

  picker.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-card]");
    if (button) {
      toggle(button.dataset.card);
    }
  });
  field.addEventListener("input", showCount);

  drawPicker();
  count.hidden = false;
  picker.hidden = false;
  showCount();
}());

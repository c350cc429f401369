/* bidder: small enhancements. Every page works without this file; the server still
   reads the hand and gives the answer, so the result is the same either way.
   The ranks, suits and marks come from the page (data-notation, the parser's own
   tables); only the shape of each notation is written here. */
(function () {
  "use strict";


  /* Large type for a projector: the switch works by CSS alone; this keeps it on from
     page to page. */
  function keepLargeType() {
    var box = document.getElementById("large-type");
    if (!box) {
      return;
    }
    try {
      box.checked = window.localStorage.getItem("large-type") === "1";
      box.addEventListener("change", function () {
        window.localStorage.setItem("large-type", box.checked ? "1" : "0");
      });
    } catch (error) {
      /* storage refused (a private window): the switch still works on this page */
    }
  }

  /* A Print button on the printable sets (the page says how to print without it). */
  function showPrintButtons() {
    document.querySelectorAll("button[data-print]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () { window.print(); });
    });
  }

  /* The live count asks the server this long after the last keystroke: a word typed
     letter by letter is asked about once. */
  var ASK_AFTER_MS = 120;

  function escaped(text) {
    return text.replace(/[.*+?^${}()|[\]\\\-]/g, "\\$&");
  }

  /* A reader of hands from the tables the page hands over. */
  function Reader(notation) {
    var suitByMark = {};
    notation.suits.forEach(function (suit) {
      [suit[0], suit[1], suit[2]].forEach(function (mark) {
        suitByMark[mark.toUpperCase()] = suit[0];
      });
    });
    var rankTexts = Object.keys(notation.rank_texts).sort(function (a, b) {
      return b.length - a.length;
    });
    var ranks = "(" + rankTexts.map(escaped).join("|") + ")";
    var symbols = "[" + notation.suits.map(function (suit) { return suit[1]; }).join("") + "]";
    var letters = "[" + notation.suits.map(function (suit) { return suit[0]; }).join("") + "]";
    var words = notation.suits.map(function (suit) { return suit[2]; }).join("|");
    var blank = "[" + escaped(notation.separators) + "]";
    var token = new RegExp("^" + ranks + "(" + letters + "|" + symbols + ")$", "i");
    var groupOfRanks = new RegExp("^" + ranks + "{2,}$", "i");
    var suitBySuitStart = new RegExp("^" + blank + "*(?:" + symbols + "|(?:" + words + "|" +
                                     letters + ")(?=" + blank + "|:|$))", "i");
    var piece = new RegExp("(" + words + ")(?![a-z])|(" + symbols + "|" + letters + ")|" +
                           ranks + "|([" + escaped(notation.voids) + ":])|(" + blank +
                           "+)|(.)", "gi");
    var selector = new RegExp("(?<=" + symbols + ")" + notation.selector, "g");
    var steps = (notation.steps || []).map(function (step) {
      return { when: step[0] ? new RegExp("^(?:" + step[0] + ")$", step[2]) : null,
               drop: new RegExp(step[1], "g" + step[2]) };
    });
    var pbnDeal = notation.deal && new RegExp("^(?:" + notation.deal + ")$");
    var viewer = notation.viewer && new RegExp("^(?:" + notation.viewer + ")$", "i");
    var seats = "NESW";

    /* The parser's cleaning steps (bidder.pasted.STEPS), applied in the same order. */
    function cleaned(text) {
      steps.forEach(function (step) {
        if (!step.when || step.when.test(text)) {
          text = text.replace(step.drop, " ");
        }
      });
      return text;
    }

    /* A viewer's hand ('skj10haqj8dq65ck94') in dot notation, as bidder.pasted does. */
    function viewerHand(text) {
      var lower = text.toLowerCase(), runs = {}, joined = "";
      (lower.match(/[shdc][^shdc]*/g) || []).forEach(function (run) {
        runs[run[0]] = run.slice(1);
        joined += run;
      });
      if (joined !== lower) {
        return text;
      }
      return "shdc".split("").map(function (suit) { return runs[suit] || ""; })
        .join(".").toUpperCase();
    }

    /* The hands of a PBN deal string or a hand-viewer link, each [seat, text]; or null. */
    function deal(text) {
      var hands = [], match = pbnDeal && pbnDeal.exec(text);
      if (match) {
        var first = seats.indexOf(match[1].toUpperCase());
        match[2].split(new RegExp(blank + "+")).forEach(function (part, step) {
          if (part !== "-") {
            hands.push([seats[(first + step) % 4], part]);
          }
        });
        return hands;
      }
      match = viewer && viewer.exec(text);
      if (!match) {
        return null;
      }
      var params = {};
      match[1].split("&").forEach(function (pair) {
        var parts = pair.split("=");
        var value = decodeURIComponent((parts.slice(1).join("=") || "").replace(/\+/g, " "));
        if (value) {
          params[parts[0].toLowerCase()] = value;
        }
      });
      seats.split("").forEach(function (seat) {
        if (params[seat.toLowerCase()]) {
          hands.push([seat, viewerHand(params[seat.toLowerCase()])]);
        }
      });
      return hands.length ? hands : null;
    }

    function card(rank, suit) {
      return notation.rank_texts[rank.toUpperCase()] + suitByMark[suit.toUpperCase()];
    }

    /* Suit by suit, as the parser reads it: a suit given twice, a suit missing or
       empty, a void with ranks and a stray colon are left unread. */
    function suitBySuit(text) {
      var cards = [], unread = [], holdings = {}, suit = null, last = null, match;
      piece.lastIndex = 0;
      while ((match = piece.exec(text)) !== null) {
        var mark = match[1] || match[2];
        if (mark) {
          suit = suitByMark[mark.toUpperCase()];
          if (holdings[suit]) {
            unread.push(mark);
          }
          holdings[suit] = { ranks: 0, voids: 0 };
        } else if (match[3]) {
          cards.push(card(match[3], suit));
          holdings[suit].ranks += 1;
        } else if (match[4] === ":") {
          if (last !== "mark") {
            unread.push(match[4]);
          }
        } else if (match[4]) {
          holdings[suit].voids += 1;
        } else if (match[6]) {
          unread.push(match[6]);
        }
        last = match[5] ? last : (mark ? "mark" : "other");
      }
      notation.suits.forEach(function (each) {
        var holding = holdings[each[0]];
        if (!holding || (holding.voids && (holding.ranks || holding.voids > 1)) ||
            (!holding.ranks && !holding.voids)) {
          unread.push(each[2]);
        }
      });
      return { cards: cards, unread: unread };
    }

    /* Four suits' ranks, highest suit first ('AKQ2', or a void mark for none), as dot
       notation and suit groups give them; beyond four, left unread. */
    function holdings(given) {
      var cards = [], unread = given.slice(notation.suits.length);
      given.slice(0, notation.suits.length).forEach(function (holding, index) {
        if (holding.length === 1 && notation.voids.indexOf(holding) !== -1) {
          return;
        }
        (holding.match(new RegExp(ranks + "|.", "gi")) || []).forEach(function (rank) {
          if (notation.rank_texts[rank.toUpperCase()]) {
            cards.push(card(rank, notation.suits[index][0]));
          } else {
            unread.push(rank);
          }
        });
      });
      return { cards: cards, unread: unread };
    }

    /* Words that are suits' ranks each, as the parser tells them from cards: no word is
       a card and one holds two ranks or more ('AKQ2 K32 432 432'). */
    function areGroups(words) {
      return !words.some(function (word) { return token.test(word); }) &&
        words.some(function (word) { return groupOfRanks.test(word); });
    }

    function tokens(text) {
      var cards = [], unread = [];
      var words = text.split(new RegExp(blank + "+")).filter(Boolean);
      if (areGroups(words)) {
        return words.length === notation.suits.length ? holdings(words)
          : { cards: [], unread: words };
      }
      words.forEach(function (word) {
        var match = token.exec(word);
        if (match) {
          cards.push(card(match[1], match[2]));
        } else {
          unread.push(word);
        }
      });
      return { cards: cards, unread: unread };
    }

    /* The cards in *text*, each a rank label and a suit letter, duplicates kept; and
       the pieces that are not cards (yet): a partial word as someone types is one. */
    this.read = function (text) {
      var hands = text.length <= notation.paste_limit ? deal(text) : null;
      if (hands && hands.length > 1) {
        return { cards: [], unread: [],
                 deal: hands.map(function (hand) { return hand[0]; }) };
      }
      text = hands ? hands[0][1] : cleaned(text);
      text = text.replace(selector, "");
      if (suitBySuitStart.test(text)) {
        return suitBySuit(text);
      }
      if (text.indexOf(".") !== -1 && !new RegExp(blank).test(text.trim())) {
        return holdings(text.trim().split("."));
      }
      return tokens(text);
    };
  }

  /* The cards read, each once, as keys: the deck shows them pressed. */
  function heldOf(read) {
    var held = {};
    read.cards.forEach(function (card) {
      held[card] = true;
    });
    return held;
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

  /* The hand field: a live count that is the server's own verdict on the text (the page
     asks it, data-count, a moment after each change: the words it would answer with),
     and a deck to click that is one stop for the Tab key. */
  function enhanceHandForm() {
    var form = document.getElementById("hand-form");
    var field = document.getElementById("hand");
    var count = document.getElementById("card-count");
    var picker = document.getElementById("picker");
    if (!form || !field || !count || !picker || !window.fetch || !window.AbortController) {
      return;
    }
    var notation = JSON.parse(form.dataset.notation);
    var reader = new Reader(notation);
    var asked = null, waiting = null, pending = null;

    function say(text, complete) {
      count.textContent = text;
      count.classList.toggle("complete", complete);
      count.classList.toggle("doubled", text.indexOf("twice") !== -1);
    }

    /* The server's verdict on the text as it is now, its line ends as the form sends
       them (CR LF); an answer for older text is dropped. Nothing is said of an empty
       field. */
    function askServer() {
      var text = field.value;
      if (text === asked) {
        return;
      }
      asked = text;
      if (pending) {
        pending.abort();
        pending = null;
      }
      if (!text.trim()) {
        say("", false);
        return;
      }
      pending = new AbortController();
      window.fetch(form.dataset.count, {
        method: "POST", credentials: "same-origin", signal: pending.signal,
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ hand: text.replace(/\r\n|\r|\n/g, "\r\n") })
      }).then(function (response) { return response.json(); })
        .then(function (verdict) {
          if (field.value === text) {
            say(verdict.error ? verdict.error.message : verdict.text,
                Boolean(verdict.complete));
          }
        })
        .catch(function () { /* a newer text was sent, or the server is away */ });
    }

    function showCount() {
      var held = heldOf(reader.read(field.value));
      picker.querySelectorAll("button[data-card]").forEach(function (button) {
        button.setAttribute("aria-pressed", String(Boolean(held[button.dataset.card])));
      });
      window.clearTimeout(waiting);
      waiting = window.setTimeout(askServer, ASK_AFTER_MS);
    }

    /* Add or remove a card; the field is rewritten as cards the assignment's way, with
       anything it could not read kept at the end. */
    function toggle(card) {
      var read = reader.read(field.value);
      var cards = read.cards.filter(function (held, index) {
        return read.cards.indexOf(held) === index;
      });
      var kept = cards.filter(function (held) { return held !== card; });
      if (kept.length === cards.length) {
        kept.push(card);
      }
      field.value = kept.concat(read.unread).join(" ");
      showCount();
    }

    function drawPicker() {
      var deck = element("div", {
        "class": "picker-deck", role: "group", "aria-label": "Deck",
        "aria-describedby": "picker-hint"
      });
      notation.suits.forEach(function (suit) {
        var letter = suit[0], symbol = suit[1], word = suit[2];
        var group = element("div", {
          "class": "picker-suit", role: "group", "aria-label": capitalised(word)
        });
        notation.ranks.forEach(function (rank) {
          group.append(element("button", {
            "class": "pick suit-" + letter.toLowerCase(), type: "button", tabindex: "-1",
            "data-card": rank[0] + letter, "aria-pressed": "false"
          }, [
            element("span", { "aria-hidden": "true" },
                    [rank[0], element("span", { "class": "pip" }, [symbol])]),
            element("span", { "class": "visually-hidden" }, [rank[1] + " of " + word])
          ]));
        });
        deck.append(group);
      });
      picker.append(deck);
      deck.querySelector("button").setAttribute("tabindex", "0");
      return deck;
    }

    /* Arrow keys move along a suit and between suits, Home and End to a suit's ends. */
    function rove(deck) {
      var rows = Array.prototype.map.call(deck.querySelectorAll(".picker-suit"),
                                          function (row) {
        return Array.prototype.slice.call(row.querySelectorAll("button"));
      });
      deck.addEventListener("keydown", function (event) {
        var row = rows.findIndex(function (buttons) {
          return buttons.indexOf(event.target) !== -1;
        });
        if (row === -1) {
          return;
        }
        var column = rows[row].indexOf(event.target);
        var last = rows[row].length - 1;
        var moves = {
          ArrowRight: [row, Math.min(column + 1, last)],
          ArrowLeft: [row, Math.max(column - 1, 0)],
          ArrowDown: [Math.min(row + 1, rows.length - 1), column],
          ArrowUp: [Math.max(row - 1, 0), column],
          Home: [row, 0],
          End: [row, last]
        };
        var to = moves[event.key];
        if (!to) {
          return;
        }
        event.preventDefault();
        var next = rows[to[0]][to[1]];
        event.target.setAttribute("tabindex", "-1");
        next.setAttribute("tabindex", "0");
        next.focus();
      });
    }

    /* Enter sends the hand, as in a one-line field; Shift+Enter starts a new line. */
    field.addEventListener("keydown", function (event) {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        form.requestSubmit();
      }
    });
    picker.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-card]");
      if (button) {
        toggle(button.dataset.card);
      }
    });
    field.addEventListener("input", showCount);

    rove(drawPicker());
    count.hidden = false;
    picker.hidden = false;
    showCount();
  }

  /* A live poll's page follows the poll by server-sent events: the count of answers
     changes in place; a new state or round (and, on the instructor's view, which carries
     data-votes, any vote) brings the page's new content, fetched and swapped in without
     reloading. Without this, the page refreshes itself (noscript). */
  function followPoll() {
    var page = document.querySelector("[data-live-events]");
    if (!page || !window.EventSource || !window.fetch) {
      return;
    }
    var fetching = false;
    function swap() {
      fetching = true;
      window.fetch(window.location.href, {credentials: "same-origin"})
        .then(function (response) { return response.text(); })
        .then(function (text) {
          var fresh = new DOMParser().parseFromString(text, "text/html")
            .querySelector("[data-live-events]");
          if (fresh) {
            page.replaceWith(fresh);
            page = fresh;
          }
        })
        .finally(function () { fetching = false; });
    }
    function changed(event) {
      var now = JSON.parse(event.data);
      var count = page.querySelector("[data-live-answered]");
      if (count) {
        count.textContent = String(now.answered);
      }
      if (!fetching && (String(now.round) !== page.dataset.round ||
                        now.state !== page.dataset.state ||
                        (page.dataset.votes !== undefined &&
                         now.votes !== page.dataset.votes))) {
        swap();
      }
    }
    /* A stream the server refused (each device holds only a few) is closed by the
       browser for good: listen again a while later. */
    function listen() {
      var source = new EventSource(page.dataset.liveEvents);
      source.onmessage = changed;
      source.addEventListener("ended", function () { source.close(); });
      source.onerror = function () {
        if (source.readyState === EventSource.CLOSED) {
          window.setTimeout(listen, 15000);
        }
      };
    }
    listen();
  }

  if (typeof document === "undefined") {
    /* Outside a page (the tests run the reader under Node): the reader and the deck's. */
    module.exports = { Reader: Reader, heldOf: heldOf };
    return;
  }
  document.documentElement.classList.replace("no-js", "js");
  keepLargeType();
  showPrintButtons();
  enhanceHandForm();
  followPoll();
}());

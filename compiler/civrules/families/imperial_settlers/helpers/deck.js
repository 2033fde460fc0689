/* The Imperial Settlers family's helper page: wires the form to the rules the compiler emitted.
 * No game fact or rule is written here: the deck rule, the cards and the codes' words are the page's tables. */
(function () {
  "use strict";
  var T = civrules.data("civrules-tables");
  var E = new civrules.Evaluator(T, civrules.data("civrules-rules"));
  var U = civrules.isUnknown;

  var el = civrulesPage.el;
  function words(v) {
    if (v === null || v === undefined) { return "—"; }
    if (U(v)) { return "unknown: " + v.unknown; }
    if (Array.isArray(v)) { return v.length ? v.join(", ") : "—"; }
    return String(v);
  }
  // A value of the data in the words the card sheets print (T.names: a name in the edition's
  // language, a phrase for a value that names none), never its id.
  var N = T.names || {};
  function named(kind, id) { return N[kind] && Object.prototype.hasOwnProperty.call(N[kind], id) ? N[kind][id] : id; }
  function namedAll(kind, v) { return Array.isArray(v) ? v.map(function (id) { return named(kind, id); }) : v; }
  // Goods as the card sheets print them: "2 × Madeira, Pedra + a location discarded".
  function goods(v) {
    if (!Array.isArray(v) || !v.length) { return words(v); }
    var order = [], counts = {};
    v.forEach(function (g) { if (!counts[g]) { order.push(g); counts[g] = 0; } counts[g] += 1; });
    var said = order.filter(function (g) { return g !== "location"; }).map(function (g) {
      return (counts[g] > 1 ? counts[g] + " × " : "") + named("goods", g);
    }).join(", ");
    if (counts.location) { said += (said ? " + " : "") + named("goods", "location") + (counts.location > 1 ? " × " + counts.location : ""); }
    return said;
  }
  // What a card gives (its production, its build bonus): goods, or goods per location of a colour
  // in the empire (the card itself counted) or per Samurai, up to a limit, with goods beside.
  function gives(v) {
    if (v && !Array.isArray(v) && !U(v) && typeof v === "object") {
      var per = v.per === "samurai" ? "Samurai" : named("colours", v.colour) + " location (this one included)";
      return "1 " + named("goods", v.each) + " per " + per + ", at most " + v.at_most + (v.plus.length ? "; and " + goods(v.plus) : "");
    }
    return goods(v);
  }
  function deckName(id) { return id && T.decks[id] ? T.decks[id].name : words(id); }
  // "1 card", "3 cards": a count in words, as the compiler's diagnostics say it, never both forms at once.
  function count(n, one, many) { return n + " " + (n === 1 ? one : many); }

  function cardName(id) { return T.cards[id] ? T.cards[id].name : id; }

  function chosen() {
    var out = {};
    Array.prototype.slice.call(document.querySelectorAll("input[data-copies]")).forEach(function (i) {
      var n = parseInt(i.value, 10);
      if (n > 0) { out[i.getAttribute("data-copies")] = n; }
    });
    return out;
  }

  function detail(p) {
    if (p.code === "F003") { return cardName(p.card) + ": " + p.have + " in the deck, the card has " + p.want; }
    if (p.code === "F004") { return cardName(p.card) + " is a card of the " + deckName(p.deck) + " deck, not " + deckName(p.want); }
    if (p.code === "F001") { return "the deck holds " + count(p.have, "card", "cards") + ", the rule " + p.want; }
    if (p.code === "F002") { return count(p.have, "card", "cards") + " of " + count(p.copies, "copy", "copies") + ", the rule " + count(p.want, "card", "cards"); }
    return "";
  }

  function builder() {
    var faction = document.getElementById("faction-choice").value;
    var show = document.getElementById("show-choice").value;
    var deck = T.factions[faction] ? T.factions[faction].deck : null;
    Array.prototype.slice.call(document.querySelectorAll("#deck-cards tbody tr")).forEach(function (row) {
      row.hidden = show === "own" && row.getAttribute("data-deck") !== deck;
    });
    var picked = chosen();
    var box = document.getElementById("deck-verdict");
    box.textContent = "";
    var rule = T.deck_rule;
    if (!rule) { box.textContent = "This ruleset writes no deck-building rule."; return; }
    var pattern = rule.pattern.map(function (p) { return count(p.cards, "card", "cards") + " of " + count(p.copies, "copy", "copies"); }).join(", ");
    box.appendChild(el("p", {}, ["A faction deck holds " + rule.size + " cards" + (pattern ? ": " + pattern : "") + (rule.rules.length ? " (" + rule.rules.join(", ") + ")" : "") + ". This deck: " + E.call("deck_total", [picked]) + " cards."]));
    var problems = E.call("deck_problems", [faction, picked]);
    if (!problems.length) { box.appendChild(el("p", { "class": "yes", id: "deck-ok" }, ["The deck follows the deck-building rule."])); return; }
    box.appendChild(el("ul", { "class": "rules-said", id: "deck-problems" }, problems.map(function (p) {
      var code = T.codes[p.code] || { name: "", severity: "error", summary: "" };
      return el("li", { "data-code": p.code }, [code.severity + "[" + p.code + "] " + code.name + ": " + code.summary + " — " + detail(p)]);
    })));
  }

  function reference() {
    var q = document.getElementById("search").value.trim().toLowerCase();
    var body = document.querySelector("#card-reference tbody");
    body.textContent = "";
    var notes = civrulesPage.notes("card-reference-notes");  // an unknown effect's reason said once
    T.card_order.forEach(function (id) {
      var c = T.cards[id];
      var kind = named("location_kinds", c.kind), colours = words(namedAll("colours", c.colours)), deck = deckName(c.deck);
      var hay = [id, c.name, c.printed_ids.join(" "), words(c.effect), c.kind, kind, colours, c.deck || "", deck].join(" ").toLowerCase();
      if (q && hay.indexOf(q) < 0) { return; }
      var row = el("tr", { "data-card": id }, [
        el("td", {}, [c.name]), el("td", {}, [words(c.printed_ids)]), el("td", {}, [kind]),
        el("td", {}, [colours]), el("td", { "class": "n" }, [String(c.copies)]), el("td", {}, [deck]),
        el("td", {}, [goods(c.cost)]), el("td", { "class": "gives" }, [gives(c.production)]),
        el("td", { "class": "gives" }, [gives(c.build_bonus) + (c.build_bonus_placed_as === "samurai" ? ", placed at once as Samurai" : "")]), el("td", {}, [U(c.effect) ? notes.mark(c.effect.unknown) : words(c.effect)])
      ]);
      body.appendChild(row);
    });
    notes.place(document.getElementById("card-reference").parentNode);
  }

  civrulesPage.onRender(function () {
    builder();
    reference();
    document.body.setAttribute("data-rendered", "1");
  });
  civrulesPage.start();
})();

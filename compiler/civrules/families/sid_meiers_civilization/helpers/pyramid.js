/* Sid Meier's Civilization's helper page: wires the form to the rules the compiler emitted.
 * No game fact or rule is written here: levels, costs and the pyramid's rule are the page's tables. */
(function () {
  "use strict";
  var T = civrules.data("civrules-tables");
  var E = new civrules.Evaluator(T, civrules.data("civrules-rules"));
  var U = civrules.isUnknown;

  var el = civrulesPage.el;
  function fig(v) {
    if (U(v)) { return el("span", { "class": "unknown", title: v.unknown }, ["unknown: " + v.unknown]); }
    if (v === true) { return el("span", { "class": "yes" }, ["yes"]); }
    if (v === false) { return el("span", { "class": "no" }, ["no"]); }
    return document.createTextNode(v === null || v === undefined ? "—" : String(v));
  }
  var notes = null;  // the technologies table's unknowns, each reason once (civrulesPage.notes)
  function td(v, cls) { var c = el("td", cls ? { "class": cls } : {}); c.appendChild(U(v) && notes ? notes.mark(v.unknown) : fig(v)); return c; }
  function ticked(attr) {
    return Array.prototype.slice.call(document.querySelectorAll("input[" + attr + "]")).filter(function (i) { return i.checked; }).map(function (i) { return i.getAttribute(attr); });
  }
  function count(id) { var n = parseInt(document.getElementById(id).value, 10); return n > 0 ? n : 0; }
  function name(id) { return T.technologies[id] ? T.technologies[id].name : id; }

  civrulesPage.onRender(function () {
    var held = ticked("data-tech"), wonders = ticked("data-wonder");
    var starting = document.getElementById("start-choice").value || null;
    var trade = count("trade"), coins = count("coins");
    /* More trade than the dial holds is no state of the game: the package refuses it (OutOfDomainError). */
    var over = T.dial_max !== null && trade > T.dial_max;
    var refused = document.getElementById("trade-refused");
    refused.hidden = !over;
    refused.textContent = over ? "Not counted: the trade dial holds at most " + T.dial_max + " trade" + (T.dial_rules.length ? " (" + T.dial_rules.join(", ") + ")" : "") + ", not " + trade + "." : "";
    var box = document.getElementById("victory");
    box.textContent = "";
    var needs = E.call("pyramid_needs", [held, starting]);
    if (U(needs)) { box.appendChild(document.createTextNode("The technology victory: ")); box.appendChild(fig(needs)); }
    else if (!needs.length) { box.appendChild(el("span", { "class": "yes", id: "victory-met" }, ["The pyramid meets the technology victory's minimums."])); }
    else { box.appendChild(el("span", { id: "victory-needs" }, ["The technology victory still needs: " + needs.map(function (n) { return n.needs + " of level " + n.level; }).join(", ") + (T.pyramid.inferred ? " (the rule that each row needs one more below is read from the figures)" : "") + "."])); }
    /* Legal placements only: a technology with no legal space now cannot be ticked (unticking is always allowed). */
    Array.prototype.slice.call(document.querySelectorAll("input[data-tech]")).forEach(function (i) {
      i.disabled = !i.checked && E.call("may_place", [held, i.getAttribute("data-tech"), starting]) === false;
    });
    var body = document.querySelector("#technologies tbody");
    body.textContent = "";
    notes = civrulesPage.notes("technologies-notes");
    T.technology_order.forEach(function (id) {
      var t = T.technologies[id];
      var row = el("tr", { "data-tech": id, "class": held.indexOf(id) >= 0 ? "held" : "" });
      row.appendChild(el("td", {}, [t.name]));
      row.appendChild(td(t.level, "n"));
      row.appendChild(td(held.indexOf(id) >= 0 ? "in the pyramid" : E.call("may_place", [held, id, starting]), "may-place"));
      var cost = U(t.level) ? t.level : E.call("research_cost", [t.level, wonders]);
      row.appendChild(td(cost, "n"));
      var after = U(t.level) ? t.level : E.call("trade_after", [t.level, trade, coins, wonders]);
      row.appendChild(td(after === null ? (over ? "more trade than the dial holds" : "not enough trade") : after, "after"));
      var u = t.unlocks;
      var unlocks = u === null ? "not given" : [].concat(u.buildings, u.units, u.governments, u.wonders).join(", ") || "—";
      row.appendChild(el("td", {}, [unlocks]));
      body.appendChild(row);
    });
    notes.place(document.getElementById("technologies").parentNode);
    notes = null;
    document.body.setAttribute("data-rendered", "1");
  });
  civrulesPage.start();
})();

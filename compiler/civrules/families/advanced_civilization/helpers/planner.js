/* The Advanced Civilization family's helper page: wires the form to the rules the compiler emitted.
 * No game fact or rule is written here: every figure comes from the tables and rules of the page. */
(function () {
  "use strict";
  var T = civrules.data("civrules-tables");
  var E = new civrules.Evaluator(T, civrules.data("civrules-rules"));
  var U = civrules.isUnknown;

  var el = civrulesPage.el;
  function cardName(id) { return T.cards[id] ? T.cards[id].name : id; }
  function cite(rules) { return rules && rules.length ? " (" + rules.join(", ") + ")" : ""; }
  /* A figure, or "unknown" marked with its reason. */
  function fig(v) {
    if (U(v)) { return el("span", { "class": "unknown", title: v.unknown }, ["unknown: " + v.unknown]); }
    if (v === true) { return el("span", { "class": "yes" }, ["yes"]); }
    if (v === false) { return el("span", { "class": "no" }, ["no"]); }
    return document.createTextNode(v === null || v === undefined ? "—" : String(v));
  }
  var notes = null;  // the unknowns of the table being written, each reason once (civrulesPage.notes)
  function cellFig(v) { return U(v) && notes ? notes.mark(v.unknown) : fig(v); }
  function td(v, cls) { var c = el("td", cls ? { "class": cls } : {}); c.appendChild(typeof v === "object" && v !== null && v.nodeType ? v : cellFig(v)); return c; }

  function held() {
    return Array.prototype.slice.call(document.querySelectorAll("input[data-card]")).filter(function (i) { return i.checked; }).map(function (i) { return i.getAttribute("data-card"); });
  }
  function hand() {
    var h = {};
    Array.prototype.slice.call(document.querySelectorAll("input[data-good]")).forEach(function (i) {
      var n = parseInt(i.value, 10);
      if (n > 0) { h[i.getAttribute("data-good")] = n; }
    });
    return h;
  }
  function count(id) { var n = parseInt(document.getElementById(id).value, 10); return n > 0 ? n : 0; }

  /* The trade blocks given (the package's set_value players=, redeemed_in=, drawn_in=): null where
   * the ruleset has no trade-block bonus or a field is left empty (both left empty: no bonus is
   * counted; the rest, as the package, refusal() judges). */
  function trade() {
    var p = document.getElementById("players"), r = document.getElementById("redeemed-choice"), d = document.getElementById("drawn-choice");
    var n = p ? parseInt(p.value, 10) : NaN;
    return { players: n > 0 ? n : null, redeemed: r && r.value ? r.value : null, drawn: d && d.value ? d.value : null };
  }

  /* Why the package's set_value would refuse the trade blocks given for this hand (the rule
   * trade_refusal, checked for the form alone, then for each good held): the words of the first
   * refusal, or null. */
  function refusal(goods, tr) {
    var found = null;
    [null].concat(T.commodity_order.filter(function (g) { return goods[g] > 0; })).some(function (g) {
      found = E.call("trade_refusal", [g, g === null ? 0 : goods[g], tr]);
      return found !== null;
    });
    if (!found) { return null; }
    if (found.kind === "players") { return "With " + found.players + " players: this ruleset is for " + found.min + "–" + found.max + " players."; }
    if (found.kind === "block") {
      return "With " + found.players + " players the trade blocks in play are " + found.blocks.join(", ") + ": the block you " + (found.field === "redeemed" ? "redeem in" : "drew your shared goods in") + ", " + found.given + ", is not one of them.";
    }
    if (found.kind === "good") { return "With " + found.players + " players no trade deck holds " + T.commodities[found.good].name + ": a set of it cannot be held."; }
    if (found.kind === "cards") { return "With " + found.players + " players the trade decks hold " + found.max + " cards of " + T.commodities[found.good].name + ", not " + found.n + "."; }
    if (found.kind === "both") { return "Give both the players in the game and the block you redeem in, or neither: the bonus depends on both."; }
    var band = T.block_bonuses.filter(function (b) { return b.min <= found.players && found.players <= b.max; })[0];
    return T.commodities[found.good].name + " is a shared good: give the block its cards were drawn in, which decides its bonus with " + found.players + " players" + cite(band ? band.rules : []) + ".";
  }

  /* The budget of the hand: its words in the box, and the figure (null where the trade blocks given
   * are refused: the reason takes the place of the budget). */
  function budgetOf(h, goods, treasury, tr) {
    var box = document.getElementById("budget");
    box.textContent = "";
    var refused = refusal(goods, tr);
    if (refused) {
      box.appendChild(el("p", { "class": "refused", id: "trade-refused", role: "alert" }, ["Not counted: " + refused]));
      return null;
    }
    var budgetHand = E.call("hand_value", [goods, h, tr]);
    var budget = U(budgetHand) ? budgetHand : budgetHand + treasury;
    box.appendChild(document.createTextNode("Commodity cards worth "));
    box.appendChild(fig(budgetHand));
    box.appendChild(document.createTextNode(T.mining_card && h.indexOf(T.mining_card) >= 0 ? " (" + cardName(T.mining_card) + " applied to the set it raises most)" : ""));
    var bonus = tr.players === null || tr.redeemed === null ? 0 : Object.keys(goods).reduce(function (sum, g) { return sum + E.call("block_bonus", [g, goods[g], tr]); }, 0);
    if (bonus) {
      var band = T.block_bonuses.filter(function (b) { return b.min <= tr.players && tr.players <= b.max; })[0];
      box.appendChild(document.createTextNode(", of which " + bonus + " is the bonus of sets redeemed outside their native trade block" + cite(band ? band.rules : [])));
    }
    box.appendChild(document.createTextNode(" + " + treasury + " treasury tokens = "));
    box.appendChild(fig(budget));
    box.appendChild(document.createTextNode(" to spend."));
    return budget;
  }

  function planner(h, goods, treasury) {
    var tr = trade();
    var budget = budgetOf(h, goods, treasury, tr);
    var body = document.querySelector("#prices tbody");
    body.textContent = "";
    notes = civrulesPage.notes("prices-notes");
    T.card_order.forEach(function (id) {
      var c = T.cards[id], has = h.indexOf(id) >= 0;
      var needs = U(c.prerequisites) ? c.prerequisites : c.prerequisites.map(cardName).join(", ");
      var met = E.call("prerequisites_met", [h, id]);
      var pre = el("span", {}, []);
      if (U(needs)) { pre.appendChild(cellFig(needs)); } else if (!needs) { pre.textContent = "—"; } else { pre.appendChild(document.createTextNode(needs + " ")); pre.appendChild(cellFig(met)); }
      var row = el("tr", { "data-card": id, "class": has ? "held" : "" });
      row.appendChild(el("td", {}, [c.name]));
      row.appendChild(td(U(c.groups) ? c.groups : c.groups.map(function (g) { return T.groups[g] || g; }).join(", ")));
      row.appendChild(td(c.cost, "n"));
      row.appendChild(td(has ? "held" : E.call("credit", [h, id]), "n credit"));
      row.appendChild(td(has ? "held" : E.call("price", [h, id]), "n price"));
      row.appendChild(td(pre));
      row.appendChild(td(has ? "held" : budget === null ? null : E.call("affordable", [h, id, budget]), "affordable"));
      body.appendChild(row);
    });
    notes.place(document.getElementById("prices").parentNode);
    notes = null;
    var best = document.getElementById("best");
    best.textContent = "";
    if (budget === null) { best.textContent = "No purchase planned until the trade blocks above are corrected."; return; }
    var pick = E.call("best_purchase", [h, budget]);
    if (U(pick)) { best.appendChild(fig(pick)); return; }
    if (!pick.length) { best.textContent = "Nothing can be bought with this hand."; return; }
    var total = 0, face = 0;
    pick.forEach(function (id) { total += E.call("price", [h, id]); face += T.cards[id].cost; });
    best.appendChild(el("p", { id: "best-cards" }, ["Buy " + pick.map(cardName).join(", ") + ": face value " + face + ", price " + total + " after credits."]));
    var pay = E.call("payment", [goods, h, treasury, total, tr]);
    if (pay) {
      var sets = pay.goods.map(function (g) { return goods[g] + " × " + T.commodities[g].name; }).join(", ");
      var over = ((T.credit_policy || {}).purchases || {}).overpayment;
      var excess = !pay.excess ? "nothing overpaid." : over && over.value === "lost" ? pay.excess + " overpaid, lost: no change is given" + cite(over.rule ? (typeof over.rule === "string" ? [over.rule] : over.rule) : over.source ? [over.source] : []) + "." : pay.excess + " overpaid; what an overpayment returns is not in the ruleset's data.";
      best.appendChild(el("p", { id: "best-payment" }, ["Pay with " + (sets || "no commodity cards") + " (worth " + pay.value + ") and " + pay.tokens + " treasury tokens; " + excess]));
    }
  }

  function purchaseRules() {
    var box = document.getElementById("purchase-rules");
    if (box.childNodes.length) { return; }
    var p = T.credit_policy || {}, phase = T.purchase_phase;
    var items = [];
    if (phase) { items.push("Buying happens in the phase “" + phase.name + "”" + cite(phase.rules) + (phase.order_text ? ": " + phase.order_text : "")); }
    items.push("Credits combine by the ruleset's credit policy" + cite(typeof p.rule === "string" ? [p.rule] : p.rule) + ": group credits " + (p.group_credits || "as written") + ", two-group cards " + (U(p.two_group_cards) ? "unknown: " + p.two_group_cards.unknown : p.two_group_cards === "highest_group" ? "take only the credits of the one group whose credits held total more, never both (the credits toward them by name add on)" : (p.two_group_cards || "as written")) + ", one card's routes to one target: " + (p.same_target || "not written") + ", across held cards: " + (p.across_owned_cards || "not written") + ".");
    /* A purchase rule as the data states it: yes, no, unknown with its reason, or not written. */
    function said(v) { return v === undefined ? "the ruleset's data does not say" : U(v) ? "unknown: " + v.unknown : v ? "yes" : "no"; }
    items.push("Must every applicable credit be used: " + said(p.credits_must_be_used) + ". A card covered by credits is free: " + said(p.free_when_covered) + ". Overpayment is lost (no change): " + said(p.excess_lost) + ".");
    var bought = p.purchases || {};
    var FACTS = [
      ["several_cards_per_turn", "Several cards in one phase"],
      ["same_turn_credits", "Credits of cards bought in the same phase count"],
      ["treasury_within_price", "No more treasury tokens than the price requires"],
      ["overpayment", "What an overpayment returns"]
    ];
    var assumed = [];
    FACTS.forEach(function (f) {
      var fact = bought[f[0]];
      var li = el("li", { "data-purchase-fact": f[0] }, [f[1] + ": "]);
      if (!fact) { li.appendChild(document.createTextNode("the ruleset's data does not say.")); assumed.push(f[0]); }
      else if (U(fact.value)) { li.appendChild(fig(fact.value)); assumed.push(f[0]); }
      else {
        var v = fact.value === true ? "yes" : fact.value === false ? "no" : fact.value === "lost" ? "nothing: the excess is lost" : String(fact.value);
        li.appendChild(document.createTextNode(v + (fact.text ? " — “" + fact.text + "”" : "") + cite(fact.rule ? (typeof fact.rule === "string" ? [fact.rule] : fact.rule) : fact.source ? [fact.source] : [])));
      }
      items.push(li);
    });
    var says = [];
    if (assumed.indexOf("several_cards_per_turn") >= 0) { says.push("several cards may be bought in one phase"); }
    if (assumed.indexOf("same_turn_credits") >= 0) { says.push("credits of cards bought in the same phase do not count"); }
    if (assumed.indexOf("treasury_within_price") >= 0) { says.push("treasury tokens pay no more than the price left"); }
    items.push("The planner prices each card from the cards held before the phase (prerequisites of cards bought in the same phase are not counted) and pays the purchase together" + (says.length ? "; where the data records no rule it assumes that " + says.join(", that ") : "") + ". Check these against the rules cited.");
    items.push(el("li", { id: "split-sets" }, ["A good pays with all its cards entered, as one set: the set value rule" + cite(T.set_value_rules) + " values the cards of one good turned in together, and the ruleset's data records no rule on turning in only part of a good's cards, so the planner does not split a set to overpay less. To pay with part of a set, enter fewer cards of that good."]));
    (T.block_bonuses || []).forEach(function (b) {
      items.push("With " + b.min + "–" + b.max + " players a set redeemed outside its native trade block gains its face value per card" + cite(b.rules) + (b.shared_goods ? ", shared goods too when drawn in the other block" : ", shared goods not") + ": give the players and the blocks above to count it.");
    });
    if (p.note) { items.push("Note of the ruleset: " + p.note); }
    box.appendChild(el("ul", { "class": "rules-said" }, items.map(function (t) { return typeof t === "string" ? el("li", {}, [t]) : t; })));
  }

  var KIND_WORDS = { card_value: "value of the civilization cards held (the first space of the epoch on the nation's track)", cities: "cities", card_groups: "card groups", cards: "civilization cards", victory_points: "victory points" };

  /* The nation and the A.S.T. level chosen: null where the ruleset has no nation or none is chosen;
   * the first level (the package's default) where the ruleset has one level. */
  function nation() { var n = document.getElementById("nation-choice"); return n && n.value ? n.value : null; }
  function level() { var l = document.getElementById("level-choice"); return l ? l.value : T.ast_levels[0]; }

  function ast(h, cities) {
    var body = document.querySelector("#epochs tbody");
    body.textContent = "";
    notes = civrulesPage.notes("epochs-notes");
    T.epoch_order.forEach(function (id) {
      var ok = E.call("can_enter_epoch", [id, cities, h, nation(), level()]);
      var crit = E.call("epoch_criteria", [id, cities, h, nation(), level()]);
      var lacks = el("span", {}, []);
      if (U(crit)) { lacks.appendChild(cellFig(crit)); }
      else {
        var missing = crit.filter(function (c) { return c.ok !== true; }).map(function (c) {
          var what = c.what === "cards_of_value" ? "cards of value ≥ " + c.min_value + (c.below === null ? "" : " and < " + c.below) : KIND_WORDS[c.what];
          if (U(c.need)) { return what + ": unknown (" + c.need.unknown + ")"; }
          return U(c.have) ? what + ": unknown (" + c.have.unknown + ")" : what + ": " + c.have + " of " + c.need;
        });
        lacks.textContent = missing.length ? missing.join("; ") : "—";
      }
      var row = el("tr", { "data-epoch": id });
      row.appendChild(el("td", {}, [T.epochs[id].name]));
      row.appendChild(td(ok, "may-enter"));
      row.appendChild(td(lacks));
      body.appendChild(row);
    });
    notes.place(document.getElementById("epochs").parentNode);
    notes = null;
  }

  /* What the player who traded the calamity to the primary victim loses: of each effect on secondary
   * victims, nothing where the calamity's data makes him immune (the package's secondary_losses refuses
   * him a share), else what any other player may be chosen to lose; nothing where no effect reaches
   * beyond the primary victim. */
  function trader(id, c, out) {
    var said = el("div", { "class": "result", id: "trader-out" }, []);
    out.appendChild(said);
    if (U(c.tradable)) { said.appendChild(fig(c.tradable)); return; }
    if (c.tradable === false) { said.appendChild(el("p", { "data-trader": "untradable" }, [c.name + " is not tradable: no player trades it to the primary victim" + cite(c.rules) + "."])); return; }
    if (U(c.effects)) { said.appendChild(fig(c.effects)); return; }
    var effects = c.effects.filter(function (e) { return e.side === "secondary"; });
    if (!effects.length) { said.appendChild(el("p", { "data-trader": "nothing" }, ["Loses nothing: every effect of " + c.name + " falls on the primary victim" + cite(c.rules) + "."])); return; }
    effects.forEach(function (e) {
      var immune = E.call("trader_immune", [id, e.id]);
      var p = el("p", { "data-effect": e.id, "data-trader": U(immune) ? "unknown" : immune ? "immune" : "exposed" }, []);
      if (U(immune)) { p.appendChild(document.createTextNode((e.text || e.id) + cite(e.rules) + ": ")); p.appendChild(fig(immune)); }
      else if (immune) {
        var why = (U(c.immunities) ? [] : c.immunities).filter(function (i) { return i.who === "trading_player" && (i.side === null || i.side === "secondary") && (!i.effects.length || i.effects.indexOf(e.id) >= 0); });
        p.appendChild(document.createTextNode("Loses nothing of “" + (e.text || e.id) + "”" + cite(e.rules) + ": " + why.map(function (i) { return (i.text || "the player who traded it is immune") + cite(i.rules); }).join(" ")));
      } else {
        p.appendChild(document.createTextNode("Not immune: like any other player, may lose this — " + (e.text || e.id) + cite(e.rules) + " (choose the secondary role for the amount with your cards)."));
      }
      said.appendChild(p);
    });
  }

  function calamity(h, goods, cities) {
    var id = document.getElementById("calamity-choice").value, role = document.getElementById("role-choice").value;
    var out = document.getElementById("calamity-out");
    out.textContent = "";
    var c = T.calamities[id];
    if (!c) { return; }
    out.appendChild(el("p", { "class": "cite" }, [c.name + cite(c.rules) + (c.combination_text ? " — " + c.combination_text + cite(c.combination_rules) : "")]));
    if (role === "trader") { trader(id, c, out); return; }
    if (U(c.effects)) { out.appendChild(fig(c.effects)); return; }
    var effects = c.effects.filter(function (e) { return e.side === role; });
    if (!effects.length) { out.appendChild(el("p", { "class": "result" }, ["No effect on the " + role + " victim."])); return; }
    effects.forEach(function (e) {
      var box = el("div", { "class": "result", "data-effect": e.id }, []);
      box.appendChild(el("p", {}, [(e.text || e.id) + cite(e.rules)]));
      var r = E.call("calamity_amount", [id, e.id, h, role, goods, nation()]);
      if (U(r)) { box.appendChild(fig(r)); out.appendChild(box); return; }
      var value = E.call("calamity_value", [r]);
      var line = el("p", { "class": "loss" }, []);
      var kind = [r.kind || e.kind, e.unit].filter(function (w) { return w; }).map(function (w) { return w.replace(/_/g, " "); });
      line.appendChild(document.createTextNode("Amount" + (kind.length ? " (" + kind.join(", ") + ")" : "") + ": "));
      if (r.immune) {
        var nat = nation(), by = U(c.immunities) || !nat ? [] : c.immunities.filter(function (i) { return i.who === "nation" && i.nation === nat && (i.side === null || i.side === role) && (!i.effects.length || i.effects.indexOf(e.id) >= 0); });
        line.appendChild(document.createTextNode("0 — immune" + by.map(function (i) { return ": " + (i.text || T.nations[nat]) + cite(i.rules); }).join("")));
      }
      else if (r.unknown) { line.appendChild(fig({ unknown: r.unknown_reason || "the sources do not give this amount" })); }
      else if (value !== null) { line.appendChild(document.createTextNode(String(value))); }
      else {
        var parts = [];
        if (r.per_city !== null) { parts.push(r.per_city + " per city owned"); }
        if (r.all_but !== null) { parts.push("all but " + r.all_but); }
        if (r.limit !== null) { parts.push("your share, at most " + r.limit); }
        var said = (parts.join(", ") || "depends on your units") + (r.change ? ", changed by " + (r.change > 0 ? "+" : "") + r.change : "") + (r.cap !== null ? ", at most " + r.cap : "");
        /* An amount counted in the primary victim's cities, or per city he owns: the package's loss()
         * of the cities typed above, where the player typed them (empty is not 0 cities). */
        var byCities = role === "primary" && (r.per_city !== null || (r.all_but !== null && e.unit === "cities"));
        var loss = byCities && cities !== null ? E.call("calamity_loss", [r, r.per_city !== null ? null : cities, cities]) : null;
        if (loss !== null && !U(loss)) {
          line.appendChild(el("strong", { "data-loss": String(loss) }, [String(loss)]));
          said = " — " + said + ", with the " + cities + " " + (cities === 1 ? "city" : "cities") + " you have in play";
        } else if (byCities) { said += " (type your cities in play above for the number)"; }
        line.appendChild(document.createTextNode(said));
      }
      box.appendChild(line);
      var base = el("p", { "class": "note" }, ["Base " + (r.base === null ? "—" : r.base) + "; cards' change " + (r.change > 0 ? "+" : "") + r.change + (r.set_to !== null ? "; set to " + r.set_to : "") + (r.cap !== null ? "; capped at " + r.cap : "")]);
      box.appendChild(base);
      var mods = U(c.modifiers) ? [] : c.modifiers.filter(function (m) { return r.counted.indexOf(m.card) >= 0 || r.superseded.indexOf(m.card) >= 0 || r.additions.some(function (a) { return a.card === m.card && m.adds; }); });
      mods = mods.filter(function (m) { return m.effects.indexOf(e.id) >= 0 && (m.applies_to === role || m.applies_to === "both"); });
      if (mods.length) {
        box.appendChild(el("ul", { "class": "rules-said" }, mods.map(function (m) {
          var state = r.superseded.indexOf(m.card) >= 0 ? " — superseded by a stronger card" : m.adds ? " — a separate loss" : " — applied";
          return el("li", {}, [cardName(m.card) + ": " + (m.text || m.effect) + cite(m.rules) + state]);
        })));
      }
      out.appendChild(box);
    });
  }

  civrulesPage.onRender(function () {
    var h = held(), goods = hand(), treasury = count("treasury"), cities = count("cities");
    planner(h, goods, treasury);
    purchaseRules();
    calamity(h, goods, document.getElementById("cities").value.trim() === "" ? null : cities);
    ast(h, cities);
    document.body.setAttribute("data-rendered", "1");
  });
  civrulesPage.start();
})();

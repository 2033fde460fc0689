/* civrules helper pages: the one generic evaluator of the rules the compiler emits (do not edit per game).
 *
 * A rule is a JSON expression tree: a number, string, boolean or null is itself; an array is
 * [operator, argument...]. The tables (the ruleset's facts) and the rules are read from the page's
 * JSON blocks (script elements of type application/json); nothing of a game is written here. A fact the sources do
 * not give is {"unknown": why}: arithmetic and comparisons on it give it back, so a figure that
 * depends on one shows as unknown with its reason.
 */
(function () {
  "use strict";

  function isUnknown(x) {
    return x !== null && typeof x === "object" && !Array.isArray(x) && Object.prototype.hasOwnProperty.call(x, "unknown") && Object.keys(x).length === 1;
  }

  function firstUnknown(values) {
    for (var i = 0; i < values.length; i++) { if (isUnknown(values[i])) { return values[i]; } }
    return null;
  }

  function Closure(params, body, env, self) { this.params = params; this.body = body; this.env = env; this.self = self; }

  function Evaluator(tables, rules) { this.tables = tables; this.rules = rules; this.depth = 0; }

  Evaluator.prototype.apply = function (f, args) {
    if (!(f instanceof Closure)) { throw new Error("not a function"); }
    var env = Object.create(f.env);
    for (var i = 0; i < f.params.length; i++) { env[f.params[i]] = args[i] === undefined ? null : args[i]; }
    return f.self.eval(f.body, env);
  };

  Evaluator.prototype.call = function (name, args) {
    var rule = this.rules[name];
    if (!rule) { throw new Error("no rule " + name); }
    var env = Object.create(null);
    for (var i = 0; i < rule.params.length; i++) { env[rule.params[i]] = args[i] === undefined ? null : args[i]; }
    this.depth += 1;
    if (this.depth > 200) { this.depth = 0; throw new Error("rules nest too deep"); }
    try { return this.eval(rule.body, env); } finally { this.depth -= 1; }
  };

  function num(values, f) {
    var u = firstUnknown(values);
    if (u) { return u; }
    return f(values);
  }

  function list(x) { return Array.isArray(x) ? x : []; }

  /* The maximum matching between items and the values each may take (each value used once): the
   * size only. Augmenting paths; items are few. */
  function matching(items, options) {
    var owner = Object.create(null);
    function assign(i, seen) {
      var opts = options[i];
      for (var k = 0; k < opts.length; k++) {
        var v = String(opts[k]);
        if (seen[v]) { continue; }
        seen[v] = true;
        if (owner[v] === undefined || assign(owner[v], seen)) { owner[v] = i; return true; }
      }
      return false;
    }
    var size = 0;
    for (var i = 0; i < items.length; i++) { if (assign(i, Object.create(null))) { size += 1; } }
    return size;
  }

  /* 0/1 knapsack over integer weights: the items (in order) of the highest total value within the
   * capacity; ties go to the smaller total weight, then to the earlier items. */
  function knapsack(items, weights, values, capacity) {
    var n = items.length, cap = Math.max(0, Math.floor(capacity));
    var best = [], i, w;
    for (w = 0; w <= cap; w++) { best.push({ v: 0, w: 0, pick: [] }); }
    for (i = 0; i < n; i++) {
      if (weights[i] > cap) { continue; }
      for (w = cap; w >= weights[i]; w--) {
        var prev = best[w - weights[i]];
        var cand = { v: prev.v + values[i], w: prev.w + weights[i], pick: prev.pick.concat([i]) };
        var cur = best[w];
        if (cand.v > cur.v || (cand.v === cur.v && cand.w < cur.w)) { best[w] = cand; }
      }
    }
    var top = best[0];
    for (w = 1; w <= cap; w++) {
      if (best[w].v > top.v || (best[w].v === top.v && best[w].w < top.w)) { top = best[w]; }
    }
    return top.pick.map(function (k) { return items[k]; });
  }

  /* Numbers, or lists of numbers compared element by element. */
  function compare(a, b) {
    if (Array.isArray(a) && Array.isArray(b)) {
      for (var i = 0; i < Math.min(a.length, b.length); i++) { var c = compare(a[i], b[i]); if (c !== 0) { return c; } }
      return a.length - b.length;
    }
    return a < b ? -1 : a > b ? 1 : 0;
  }

  Evaluator.prototype.eval = function (x, env) {
    if (!Array.isArray(x)) { return x; }
    var op = x[0], self = this, a = x.slice(1);
    function ev(i) { return self.eval(a[i], env); }
    function all() { return a.map(function (_, i) { return ev(i); }); }
    switch (op) {
      case "quote": return a[0];
      case "list": return all();
      case "obj": {
        var o = {};
        for (var i = 0; i + 1 < a.length; i += 2) { o[a[i]] = ev(i + 1); }
        return o;
      }
      case "var": {
        if (!(a[0] in env)) { throw new Error("no variable " + a[0]); }
        return env[a[0]];
      }
      case "table": {
        if (!Object.prototype.hasOwnProperty.call(this.tables, a[0])) { throw new Error("no table " + a[0]); }
        return this.tables[a[0]];
      }
      case "get": {
        var base = ev(0), key = ev(1);
        if (isUnknown(base)) { return base; }
        if (base === null || base === undefined || typeof base !== "object") { return null; }
        if (isUnknown(key)) { return key; }
        return Object.prototype.hasOwnProperty.call(base, key) ? base[key] : null;
      }
      case "let": {
        var scope = Object.create(env), bindings = a[0];
        for (var j = 0; j + 1 < bindings.length; j += 2) { scope[bindings[j]] = this.eval(bindings[j + 1], scope); }
        return this.eval(a[1], scope);
      }
      case "fn": return new Closure(a[0], a[1], env, this);
      case "apply": return this.apply(ev(0), a.slice(1).map(function (_, i) { return ev(i + 1); }));
      case "call": return this.call(a[0], a.slice(1).map(function (_, i) { return ev(i + 1); }));
      case "if": {
        var c = ev(0);
        if (isUnknown(c)) { return c; }
        return c ? ev(1) : ev(2);
      }
      case "and": {
        for (var k = 0; k < a.length; k++) { var va = ev(k); if (isUnknown(va) || !va) { return va; } }
        return true;
      }
      case "or": {
        var lastU = null;
        for (var m = 0; m < a.length; m++) { var vo = ev(m); if (isUnknown(vo)) { lastU = vo; } else if (vo) { return vo; } }
        return lastU === null ? false : lastU;
      }
      case "not": { var vn = ev(0); return isUnknown(vn) ? vn : !vn; }
      case "coalesce": { var vc = ev(0); return vc === null || vc === undefined ? ev(1) : vc; }
      case "is_null": { var vz = ev(0); return vz === null || vz === undefined; }
      case "is_unknown": return isUnknown(ev(0));
      case "unknown_or": { var vu = ev(0); return isUnknown(vu) ? ev(1) : vu; }
      case "add": return num(all(), function (v) { return v.reduce(function (s, t) { return s + t; }, 0); });
      case "sub": return num(all(), function (v) { return v[0] - v[1]; });
      case "mul": return num(all(), function (v) { return v.reduce(function (s, t) { return s * t; }, 1); });
      case "max": return num(all(), function (v) { return Math.max.apply(null, v); });
      case "min": return num(all(), function (v) { return Math.min.apply(null, v); });
      case "eq": return num(all(), function (v) { return v[0] === v[1]; });
      case "ne": return num(all(), function (v) { return v[0] !== v[1]; });
      case "lt": return num(all(), function (v) { return v[0] < v[1]; });
      case "le": return num(all(), function (v) { return v[0] <= v[1]; });
      case "gt": return num(all(), function (v) { return v[0] > v[1]; });
      case "ge": return num(all(), function (v) { return v[0] >= v[1]; });
      case "sum": return num(list(ev(0)), function (v) { return v.reduce(function (s, t) { return s + t; }, 0); });
      case "max_of": { var lm = list(ev(0)); return lm.length ? num(lm, function (v) { return Math.max.apply(null, v); }) : ev(1); }
      case "min_of": { var ln = list(ev(0)); return ln.length ? num(ln, function (v) { return Math.min.apply(null, v); }) : ev(1); }
      case "str": return all().map(String).join("");
      case "len": return list(ev(0)).length;
      case "keys": { var ok = ev(0); return ok && typeof ok === "object" ? Object.keys(ok) : []; }
      case "in": return list(ev(1)).indexOf(ev(0)) >= 0;
      case "index_of": return list(ev(1)).indexOf(ev(0));
      case "unique": {
        var seen = [], out = [];
        list(ev(0)).forEach(function (v) { var s = JSON.stringify(v); if (seen.indexOf(s) < 0) { seen.push(s); out.push(v); } });
        return out;
      }
      case "concat": return [].concat.apply([], list(ev(0)).map(list));
      case "map": { var fm = ev(1); return list(ev(0)).map(function (v) { return self.apply(fm, [v]); }); }
      case "filter": { var ff = ev(1); return list(ev(0)).filter(function (v) { var r = self.apply(ff, [v]); return r === true; }); }
      case "any": { var fa = ev(1); return list(ev(0)).some(function (v) { return self.apply(fa, [v]) === true; }); }
      case "first": { var l0 = list(ev(0)); return l0.length ? l0[0] : null; }
      case "argmax": {
        var fx = ev(1), bestItem = null, bestKey = null;
        list(ev(0)).forEach(function (v) { var key = self.apply(fx, [v]); if (bestKey === null || key > bestKey) { bestKey = key; bestItem = v; } });
        return bestItem;
      }
      case "subsets": {
        var base0 = list(ev(0)), subs = [[]];
        base0.forEach(function (v) { subs = subs.concat(subs.map(function (s) { return s.concat([v]); })); });
        return subs;
      }
      case "obj_from": {
        var fo2 = ev(1), made = {};
        list(ev(0)).forEach(function (k) { made[k] = self.apply(fo2, [k]); });
        return made;
      }
      case "argmin": {
        var fk = ev(1), low = null, lowKey = null;
        list(ev(0)).forEach(function (v) {
          var key = self.apply(fk, [v]);
          if (lowKey === null || compare(key, lowKey) < 0) { lowKey = key; low = v; }
        });
        return low;
      }
      case "all_ok": {
        var crit = list(ev(0));
        for (var z = 0; z < crit.length; z++) {
          var okv = crit[z].ok;
          if (isUnknown(okv)) { return okv; }
          if (!okv) { return false; }
        }
        return true;
      }
      case "range": { var r = [], lo = ev(0), hi = ev(1); for (var q = lo; q <= hi; q++) { r.push(q); } return r; }
      case "matching": {
        var items = list(ev(0)), fo = ev(1);
        return matching(items, items.map(function (v) { return list(self.apply(fo, [v])); }));
      }
      case "knapsack": {
        var ks = list(ev(0)), fw = ev(1), fv = ev(2), capacity = ev(3);
        if (isUnknown(capacity)) { return capacity; }
        var ws = ks.map(function (v) { return self.apply(fw, [v]); });
        var vs = ks.map(function (v) { return self.apply(fv, [v]); });
        var u = firstUnknown(ws.concat(vs));
        if (u) { return u; }
        return knapsack(ks, ws, vs, capacity);
      }
      default: throw new Error("unknown operator " + op);
    }
  };

  window.civrules = {
    isUnknown: isUnknown,
    Evaluator: Evaluator,
    data: function (id) { return JSON.parse(document.getElementById(id).textContent); }
  };
})();

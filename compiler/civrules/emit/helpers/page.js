/* civrules helper pages: the page's state in the URL fragment (shareable, kept on reload), generic.
 *
 * Every form control with a data-state="key" attribute is saved in the fragment as key=value
 * (a checkbox as 1, a number as its digits) and restored from it on load; the family's script
 * registers one render function, called after every change.
 */
(function () {
  "use strict";
  var renderers = [];

  function controls() { return Array.prototype.slice.call(document.querySelectorAll("[data-state]")); }

  function read() {
    var state = Object.create(null);
    var hash = window.location.hash.replace(/^#/, "");
    hash.split("&").forEach(function (pair) {
      if (!pair) { return; }
      var at = pair.indexOf("=");
      var key = decodeURIComponent(at < 0 ? pair : pair.slice(0, at));
      state[key] = at < 0 ? "" : decodeURIComponent(pair.slice(at + 1));
    });
    return state;
  }

  function write() {
    var parts = [];
    controls().forEach(function (el) {
      var key = el.getAttribute("data-state"), value;
      if (el.type === "checkbox") { if (!el.checked) { return; } value = "1"; }
      else { value = el.value; if (value === "" || value === el.getAttribute("data-default")) { return; } }
      parts.push(encodeURIComponent(key) + "=" + encodeURIComponent(value));
    });
    var hash = parts.length ? "#" + parts.join("&") : "";
    if (window.location.hash !== hash) {
      history.replaceState(null, "", hash || window.location.pathname + window.location.search);
    }
  }

  function restore() {
    var state = read();
    controls().forEach(function (el) {
      var key = el.getAttribute("data-state");
      if (el.type === "checkbox") { el.checked = state[key] === "1"; }
      else if (key in state) {
        el.value = state[key];
        if (el.tagName === "SELECT" && el.value !== state[key]) { el.selectedIndex = 0; }
      } else { el.value = el.getAttribute("data-default") || (el.tagName === "SELECT" && el.options.length ? el.options[0].value : ""); }
    });
  }

  function render() { renderers.forEach(function (f) { f(); }); }

  /* The names of the data in another language than the page's English, each with its language
   * (the civrules-languages block the compiler writes, from the data), and a pattern finding them
   * whole, the longest first. */
  var foreign = null, names = null;
  function languages() {
    if (foreign === null) {
      var block = document.getElementById("civrules-languages");
      foreign = block ? JSON.parse(block.textContent) : Object.create(null);
      var all = Object.keys(foreign).sort(function (a, b) { return b.length - a.length || (a < b ? -1 : a > b ? 1 : 0); });
      var quoted = all.map(function (n) { return n.replace(/[\\^$.*+?()[\]{}|\/]/g, "\\$&"); });
      names = all.length ? new RegExp("(?<![\\p{L}\\p{M}\\p{N}_])(?:" + quoted.join("|") + ")(?![\\p{L}\\p{M}\\p{N}_])", "gu") : null;
    }
    return foreign;
  }

  /* Text as nodes, each name in another language in a <span lang>, as the compiler marks the
   * names of the page as written. */
  function marked(text) {
    var known = languages();
    if (names === null) { return document.createTextNode(text); }
    var out = document.createDocumentFragment(), at = 0, found;
    names.lastIndex = 0;
    while ((found = names.exec(text)) !== null) {
      if (found.index > at) { out.appendChild(document.createTextNode(text.slice(at, found.index))); }
      var span = document.createElement("span");
      span.setAttribute("lang", known[found[0]]);
      span.appendChild(document.createTextNode(found[0]));
      out.appendChild(span);
      at = found.index + found[0].length;
    }
    if (at < text.length) { out.appendChild(document.createTextNode(text.slice(at))); }
    return out;
  }

  /* An element with its attributes and children (text or elements): every family's script builds
   * its output with it, as text nodes, never as markup. A name of the data in its text is marked
   * with its language; an option, which holds text only, takes the language itself where its
   * whole text is a name. */
  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    var plain = tag === "option" || tag === "textarea";
    (kids || []).forEach(function (k) {
      if (typeof k !== "string") { e.appendChild(k); return; }
      var own = Object.prototype.hasOwnProperty.call(languages(), k) ? foreign[k] : null;
      if (plain && own && !e.hasAttribute("lang") && (kids || []).length === 1) { e.setAttribute("lang", own); }
      e.appendChild(plain ? document.createTextNode(k) : marked(k));
    });
    return e;
  }

  /* The unknown figures of one table, each reason said once (a table of twenty technologies whose
   * levels one reason leaves unknown said it in eighty cells): a cell reads "unknown (note N)", the
   * reason in its title, and the numbered reasons follow the table (place). */
  function Notes(id) { this.id = id; this.reasons = []; }
  Notes.prototype.mark = function (reason) {
    var n = this.reasons.indexOf(reason);
    if (n < 0) { this.reasons.push(reason); n = this.reasons.length - 1; }
    return el("span", { "class": "unknown", title: reason, "data-note": String(n + 1) }, ["unknown (note " + (n + 1) + ")"]);
  };
  Notes.prototype.place = function (after) {
    var list = document.getElementById(this.id);
    if (!list) {
      list = el("ol", { id: this.id, "class": "notes" }, []);
      after.parentNode.insertBefore(list, after.nextSibling);
    }
    list.textContent = "";
    this.reasons.forEach(function (r) { list.appendChild(el("li", {}, ["unknown: " + r])); });
    list.hidden = !this.reasons.length;
  };

  window.civrulesPage = {
    el: el,
    notes: function (id) { return new Notes(id); },
    onRender: function (f) { renderers.push(f); },
    changed: function () { write(); render(); },
    start: function () {
      restore();
      document.addEventListener("input", function (e) { if (e.target && e.target.hasAttribute && e.target.hasAttribute("data-state")) { write(); render(); } });
      document.addEventListener("change", function (e) { if (e.target && e.target.hasAttribute && e.target.hasAttribute("data-state")) { write(); render(); } });
      window.addEventListener("hashchange", function () { restore(); render(); });
      render();
    }
  };
})();

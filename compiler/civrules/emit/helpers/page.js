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

  /* An element with its attributes and children (text or elements): every family's script builds
   * its output with it, as text nodes, never as markup. */
  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    (kids || []).forEach(function (k) { e.appendChild(typeof k === "string" ? document.createTextNode(k) : k); });
    return e;
  }

  window.civrulesPage = {
    el: el,
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

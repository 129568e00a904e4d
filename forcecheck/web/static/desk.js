// Progressive enhancement: the forms work without this. With it, an uploaded file shows in the
// text box at once, and the list is checked as the player types (the same check as the Check button).
(function () {
  "use strict";
  function el(tag, cls, text) { var e = document.createElement(tag); if (cls) e.className = cls; if (text != null) e.textContent = text; return e; }
  document.querySelectorAll("form.decklist-form").forEach(function (form) {
    var box = form.querySelector("textarea[name=decklist]");
    var file = form.querySelector("input[type=file]");
    var live = form.querySelector(".live");
    var url = form.getAttribute("data-check-url");
    var timer = null, seq = 0;
    function show(deck) {
      live.textContent = "";
      if (deck.error) { live.appendChild(el("div", "finding error", deck.error)); return; }
      var errors = deck.violations.filter(function (v) { return v.severity === "error"; });
      // the words come from the page (data-* attributes), in the page's language
      var said = deck.legal ? form.dataset.legal : errors.length === 1 ? form.dataset.problemsOne
        : form.dataset.problemsMany.replace("{n}", errors.length);
      live.appendChild(el("div", "verdict " + (deck.legal ? "good" : "bad"), said));
      deck.violations.forEach(function (v) {
        live.appendChild(el("div", "finding " + v.severity, (v.line ? form.dataset.line.replace("{n}", v.line) + ": " : "") + v.message));
      });
    }
    function check() {
      var mine = ++seq;
      if (!box.value.trim()) { live.textContent = ""; return; }
      fetch(url, { method: "POST", headers: { "Content-Type": "application/json", "X-Desk-Live": "1" }, body: JSON.stringify({ decklist: box.value }) })
        .then(function (r) { return r.ok ? r.json() : r.json().then(function (b) { return { error: b.detail, violations: [] }; }); })
        .then(function (deck) { if (mine === seq) show(deck); })
        .catch(function () { /* offline: the Check button still works */ });
    }
    box.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(check, 600); });
    if (file) file.addEventListener("change", function () {
      var f = file.files[0];
      if (!f) return;
      f.text().then(function (t) { box.value = t; check(); });
    });
  });
})();

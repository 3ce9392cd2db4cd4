(function () {
  // Filters and search, kept in the URL's query (?doc=&topic=&verdict=&q=) so a reload or a shared
  // link shows the same view; a #claim-id fragment still scrolls to that claim.
  var doc = document.getElementById("f-doc"), topic = document.getElementById("f-topic"),
      verdict = document.getElementById("f-verdict"), text = document.getElementById("f-text"),
      count = document.getElementById("f-count"), bar = document.getElementById("filters"),
      cards = document.querySelectorAll("article.claim"), groups = document.querySelectorAll("details.group");
  var controls = {doc: doc, topic: topic, verdict: verdict, q: text};

  function fromUrl() {
    var params = new URLSearchParams(window.location.search);
    Object.keys(controls).forEach(function (key) {
      var value = params.get(key);
      if (value === null) return;
      var el = controls[key];
      if (el.tagName === "SELECT" && !Array.prototype.some.call(el.options, function (o) { return o.value === value; })) return;
      el.value = value;
    });
  }

  function toUrl() {
    var params = new URLSearchParams();
    Object.keys(controls).forEach(function (key) {
      var value = controls[key].value.trim();
      if (value) params.set(key, value);
    });
    var query = params.toString();
    var url = window.location.pathname + (query ? "?" + query : "") + window.location.hash;
    try { history.replaceState(null, "", url); } catch (e) { /* some file:// setups refuse; the view still works */ }
  }

  function apply() {
    var shown = 0, q = text.value.toLowerCase().trim(), byVerdict = {};
    cards.forEach(function (c) {
      var ok = (!doc.value || c.dataset.doc === doc.value) && (!topic.value || c.dataset.topic === topic.value) &&
               (!verdict.value || c.dataset.verdict === verdict.value) && (!q || c.dataset.text.indexOf(q) >= 0);
      c.classList.toggle("hidden", !ok);
      if (ok) { shown++; byVerdict[c.dataset.verdict] = (byVerdict[c.dataset.verdict] || 0) + 1; }
    });
    // Each group says how many of its claims the filters show, and disappears when none.
    groups.forEach(function (g) {
      var all = g.querySelectorAll("article.claim"), visible = g.querySelectorAll("article.claim:not(.hidden)");
      g.querySelector(".group-count").textContent = visible.length === all.length ?
        "(" + all.length + ")" : "(" + visible.length + " of " + all.length + ")";
      g.classList.toggle("hidden", visible.length === 0);
    });
    var parts = Object.keys(byVerdict).sort().map(function (v) { return byVerdict[v] + " " + v; });
    count.textContent = shown + " of " + cards.length + " claims shown" + (parts.length ? ": " + parts.join(", ") : "");
    measureBar();  // the count's text can change the bar's height
  }

  function changed() { apply(); toUrl(); }

  // Headings land below the sticky filter bar: its height feeds scroll-margin-top.
  function measureBar() { document.documentElement.style.setProperty("--bar", bar.offsetHeight + "px"); }

  // A link to a claim that the filters hide clears the filters, so the link always lands.
  function reveal() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (!target) return;
    var moved = false;
    if (target.classList.contains("hidden")) {
      doc.value = topic.value = verdict.value = text.value = "";
      changed();
      moved = true;
    }
    for (var el = target.parentElement; el; el = el.parentElement) {  // open the groups around it
      if (el.tagName === "DETAILS" && !el.open) { el.open = true; moved = true; }
    }
    if (moved) target.scrollIntoView();
  }

  [doc, topic, verdict].forEach(function (el) { el.addEventListener("change", changed); });
  text.addEventListener("input", changed);
  window.addEventListener("hashchange", reveal);
  window.addEventListener("resize", measureBar);
  fromUrl();
  apply();
  reveal();
})();

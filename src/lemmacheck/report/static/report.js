(function () {
  // Filters and search, kept in the URL's query (?doc=&topic=&verdict=&q=) so a reload or a shared
  // link shows the same view; a #claim-id fragment still scrolls to that claim.
  var doc = document.getElementById("f-doc"), topic = document.getElementById("f-topic"),
      verdict = document.getElementById("f-verdict"), text = document.getElementById("f-text"),
      count = document.getElementById("f-count"), bar = document.getElementById("filters"),
      cards = document.querySelectorAll("article.claim");
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
    var shown = 0, q = text.value.toLowerCase().trim();
    cards.forEach(function (c) {
      var ok = (!doc.value || c.dataset.doc === doc.value) && (!topic.value || c.dataset.topic === topic.value) &&
               (!verdict.value || c.dataset.verdict === verdict.value) && (!q || c.dataset.text.indexOf(q) >= 0);
      c.classList.toggle("hidden", !ok);
      if (ok) shown++;
    });
    count.textContent = shown + " of " + cards.length + " claims shown";
  }

  function changed() { apply(); toUrl(); }

  // Headings land below the sticky filter bar: its height feeds scroll-margin-top.
  function measureBar() { document.documentElement.style.setProperty("--bar", bar.offsetHeight + "px"); }

  // A link to a claim that the filters hide clears the filters, so the link always lands.
  function reveal() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (target && target.classList.contains("hidden")) {
      doc.value = topic.value = verdict.value = text.value = "";
      changed();
      target.scrollIntoView();
    }
  }

  [doc, topic, verdict].forEach(function (el) { el.addEventListener("change", changed); });
  text.addEventListener("input", changed);
  window.addEventListener("hashchange", reveal);
  window.addEventListener("resize", measureBar);
  fromUrl();
  measureBar();
  apply();
  reveal();
})();

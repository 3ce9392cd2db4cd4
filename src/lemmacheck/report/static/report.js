(function () {
  var doc = document.getElementById("f-doc"), topic = document.getElementById("f-topic"),
      verdict = document.getElementById("f-verdict"), text = document.getElementById("f-text"),
      count = document.getElementById("f-count"), cards = document.querySelectorAll("article.claim");
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
  [doc, topic, verdict].forEach(function (el) { el.addEventListener("change", apply); });
  text.addEventListener("input", apply);
  apply();
})();

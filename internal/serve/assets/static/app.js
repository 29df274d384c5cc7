// The live queue: when the server says the journal moved, fetch the
// table body again. The HTML comes from this server, rendered and escaped.
"use strict";
(function () {
  var body = document.getElementById("queue-rows");
  if (!body || !window.EventSource) return;
  var es = new EventSource("/events");
  es.addEventListener("queue", function () {
    // The page number comes from this page's own address.
    fetch("/queue/rows" + window.location.search, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) { body.innerHTML = html; })
      .catch(function () {});
  });
})();

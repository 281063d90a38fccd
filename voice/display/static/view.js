// farbspiel table view: live updates over server-sent events. The page works without
// this script (its HTML carries the state); the script only keeps it current.
(function () {
  "use strict";
  var conn = document.getElementById("conn");
  var main = document.getElementById("view");
  var news = document.getElementById("news");
  if (!conn || !main || !window.EventSource) { return; }
  var deadlines = [];
  function arm() {
    deadlines = [];
    var now = Date.now();
    // a clock marked data-paused stands still (the table paused the game)
    main.querySelectorAll(".count[data-left]:not([data-paused])").forEach(function (el) {
      deadlines.push({ el: el, at: now + 1000 * Number(el.getAttribute("data-left")) });
    });
  }
  function tick() {
    var now = Date.now();
    deadlines.forEach(function (d) {
      var left = Math.max(0, Math.ceil((d.at - now) / 1000));
      if (d.el.textContent !== String(left)) { d.el.textContent = String(left); }
    });
  }
  arm();
  setInterval(tick, 250);
  var source;
  function connect() {
    source = new EventSource(conn.getAttribute("data-events"));
    source.onopen = function () { conn.textContent = conn.getAttribute("data-live"); };
    source.onmessage = function (e) {
      var data;
      try { data = JSON.parse(e.data); } catch (err) { return; }
      main.innerHTML = data.main;
      if (data.title) { document.title = data.title; }
      if (news.textContent !== data.news) { news.textContent = data.news; }
      arm();
    };
    source.onerror = function () {
      conn.textContent = conn.getAttribute("data-offline");
      if (source.readyState === EventSource.CLOSED) { setTimeout(connect, 1000); }
    };
  }
  connect();
})();

// farbspiel table view: live updates over server-sent events. The page works without
// this script (its HTML carries the state); the script only keeps it current, and says so
// in a large banner (announced to screen readers) when it can no longer do that.
(function () {
  "use strict";
  var conn = document.getElementById("conn");
  var main = document.getElementById("view");
  var news = document.getElementById("news");
  var banner = document.getElementById("banner");
  if (!conn || !main || !banner || !window.EventSource) { return; }
  var stallMs = 1000 * Number(banner.getAttribute("data-stall") || 20);
  var lastSign = Date.now();
  var lostTimer = null;
  var deadlines = [];
  function arm() {
    deadlines = [];
    var now = Date.now();
    // a clock marked data-paused stands still (the table paused the game)
    main.querySelectorAll(".count[data-left]:not([data-paused])").forEach(function (el) {
      deadlines.push({ el: el, at: now + 1000 * Number(el.getAttribute("data-left")) });
    });
  }
  function say(key) {
    var text = banner.getAttribute(key);
    if (banner.textContent !== text) { banner.textContent = text; }
    banner.hidden = false;
    conn.textContent = conn.getAttribute("data-offline");
  }
  function sign() {
    // a message or a heartbeat: the page is current again
    lastSign = Date.now();
    if (lostTimer) { clearTimeout(lostTimer); lostTimer = null; }
    if (!banner.hidden) { banner.hidden = true; banner.textContent = ""; }
    conn.textContent = conn.getAttribute("data-live");
  }
  var source;
  function tick() {
    var now = Date.now();
    deadlines.forEach(function (d) {
      var left = Math.max(0, Math.ceil((d.at - now) / 1000));
      if (d.el.textContent !== String(left)) { d.el.textContent = String(left); }
    });
    if (now - lastSign > stallMs) {
      // no sign of life for a while: say so, and try a fresh stream
      if (banner.hidden) { say("data-stalled"); }
      lastSign = now;
      if (source) { source.close(); }
      connect();
    }
  }
  function connect() {
    source = new EventSource(conn.getAttribute("data-events"));
    source.onmessage = function (e) {
      var data;
      try { data = JSON.parse(e.data); } catch (err) { return; }
      sign();
      main.innerHTML = data.main;
      if (data.title) { document.title = data.title; }
      if (news.textContent !== data.news) { news.textContent = data.news; }
      arm();
    };
    source.addEventListener("beat", sign);
    source.onerror = function () {
      conn.textContent = conn.getAttribute("data-offline");
      // a moment's grace (a reconnect is quick), then the banner
      if (!lostTimer) { lostTimer = setTimeout(function () { say("data-lost"); }, 2000); }
      if (source.readyState === EventSource.CLOSED) { setTimeout(connect, 1000); }
    };
  }
  arm();
  setInterval(tick, 250);
  connect();
})();

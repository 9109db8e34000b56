// The Limiter console: the admin API's JSON, drawn with textContent only (keys come from clients),
// and each policy's traffic as an SVG chart drawn here.
// The token is typed by the operator and kept in this tab's sessionStorage, never in the URL.
"use strict";
(function () {
  var TOKEN = "limiter-admin-token";
  var base = location.pathname.replace(/\/(index\.html)?$/, "");
  var statusLine = document.getElementById("status");

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      if (name === "text") { node.textContent = attrs[name]; } else { node.setAttribute(name, attrs[name]); }
    });
    (children || []).forEach(function (child) { if (child) { node.appendChild(child); } });
    return node;
  }

  function say(text, error) {
    statusLine.textContent = text;
    statusLine.className = error ? "error" : "";
  }

  function call(method, path, body) {
    var token = sessionStorage.getItem(TOKEN);
    var init = { method: method, headers: { Authorization: "Bearer " + token }, cache: "no-store" };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch(base + path, init).then(function (response) {
      if (response.status === 204) { return { status: 204, json: {} }; }
      return response.json().then(function (json) { return { status: response.status, json: json }; },
        function () { return { status: response.status, json: {} }; });
    });
  }

  function change(method, path, body, done) {
    return call(method, path, body).then(function (r) {
      if (r.status >= 400) { say(done + " failed (" + r.status + "): " + (r.json.error || ""), true); return; }
      say(done + ": done.");
      return load(true);
    });
  }

  function path(name) { return "/policies/" + encodeURIComponent(name); }

  // A Space-Saving count is an upper bound: the key surely had count - error of them.
  function range(c) { return c.error ? (c.count - c.error) + "–" + c.count : String(c.count); }

  function counts(title, list, kind, total) {
    var max = list.length ? list[0].count : 1;
    var rows = list.map(function (c) {
      var bar = el("span", { "class": "bar " + kind });
      bar.style.width = Math.max(2, Math.round(100 * c.count / max)) + "px"; // CSSOM: the CSP allows it
      return el("tr", { "data-key": c.key }, [
        el("td", { "class": "key", text: c.key }),
        el("td", { "class": "num", text: range(c) }),
        el("td", {}, [bar])
      ]);
    });
    return el("div", { "class": "top " + kind }, [
      el("h4", { text: title + " (" + total + " in all)" }),
      rows.length ? el("table", {}, [el("tr", {}, [el("th", { text: "key" }), el("th", { "class": "num", text: "requests" }),
        el("th", {})])].concat(rows))
        : el("p", { "class": "empty", text: "none yet" })
    ]);
  }

  // Each field is [name, placeholder] for a text box, or [name, label, [choices]] for a choice.
  function form(label, fields, onSubmit) {
    var inputs = fields.map(function (f) {
      if (!f[2]) { return el("input", { name: f[0], placeholder: f[1], "aria-label": f[1] }); }
      return el("select", { name: f[0], "aria-label": f[1] }, f[2].map(function (c) { return el("option", { value: c, text: c }); }));
    });
    var f = el("form", { "class": "inline" }, [el("span", { text: label })].concat(inputs).concat([el("button", { type: "submit", text: "Go" })]));
    f.addEventListener("submit", function (event) {
      event.preventDefault();
      var values = {};
      inputs.forEach(function (i) { values[i.name] = i.value.trim(); });
      onSubmit(values);
    });
    return f;
  }

  // ---- What a policy limits, in words --------------------------------------------------------

  var UNITS = { ns: "ns", us: "µs", ms: "ms", s: "second", m: "minute", h: "hour", d: "day" };

  // A period as configuration writes it ("s", "10s", "1h", "month"), in words: "second", "10 seconds".
  function period(text) {
    var m = /^(\d*)(ns|us|ms|s|m|h|d)$/.exec(text);
    if (!m) { return /^(day|week|month|year)$/.test(text) ? "calendar " + text : text; }
    var unit = UNITS[m[2]];
    if (!m[1] || m[1] === "1") { return unit; }
    return m[1] + (unit.length > 2 ? " " + unit + "s" : " " + unit);
  }

  // A period as the length of a window: "hour", "10-second".
  function span(text) {
    var m = /^(\d+)(s|m|h|d)$/.exec(text);
    return m && m[1] !== "1" ? m[1] + "-" + UNITS[m[2]] : period(text);
  }

  // One limit ("10/s burst=20") under the policy's algorithm, in words.
  function limitInWords(algorithm, text) {
    var m = /^(\d+)\/(\S+)(?: burst=(\d+))?/.exec(text);
    if (!m) { return text; }
    var n = m[1], per = period(m[2]), burst = m[3];
    if (/^(day|week|month|year)$/.test(m[2])) { return n + " per calendar " + m[2]; }
    switch (algorithm) {
      case "concurrency": return n + " in flight at once; a rejection says retry after " + per;
      case "fixed-window": return n + " in each " + span(m[2]) + " window of its own, counted from the window's start";
      case "sliding-window-counter":
      case "sliding-window-log": return n + " in any " + per + ", a sliding window of its own";
      case "leaky-bucket": return n + " per " + per + ", spaced evenly" + (burst ? ", up to " + burst + " queued" : "");
      default: return n + " per " + per + ", refilled steadily" + (burst ? ", bursts up to " + burst : "");
    }
  }

  // What the chip shows: the limits as configured, but "2 in flight" for a concurrency limit.
  function chip(policy) {
    if (policy.algorithm !== "concurrency") { return policy.limits; }
    return policy.limits.split(", ").map(function (l) { return l.split("/")[0] + " in flight"; }).join(", ");
  }

  var MISSING = { "remote-address": "per client address", reject: "rejected", allow: "not limited" };

  // A key source ("header:X-Api-Key") in words.
  function keyInWords(source) {
    var colon = source.indexOf(":"), kind = colon < 0 ? source : source.slice(0, colon), arg = source.slice(colon + 1);
    switch (kind) {
      case "remote-address": return "per client address";
      case "principal": return "per signed-in user (principal)";
      case "constant": return "all requests together";
      case "header": return "per value of header " + arg;
      case "resolver": return "per key of resolver " + arg;
      case "param": return "per value of method parameter " + arg;
      default: return source;
    }
  }

  function keysInWords(policy) {
    if (!policy.keys.length) { return "not applied on this node"; }
    var words = policy.keys.map(keyInWords).join(", or ");
    var fallback = policy.keys.some(function (k) { return k !== "remote-address" && k !== "constant"; });
    return words + (fallback && policy.onMissingKey ? "; without one, " + MISSING[policy.onMissingKey] : "");
  }

  // A number of seconds in words: "1 minute", "90 seconds".
  function seconds(n) {
    var u = n % 3600 === 0 ? [n / 3600, "hour"] : n % 60 === 0 ? [n / 60, "minute"] : [n, "second"];
    return u[0] + " " + u[1] + (u[0] === 1 ? "" : "s");
  }

  function scope(policy) {
    var places = [];
    if (policy.routes.length) { places.push(el("dt", { text: "Routes" }), el("dd", { "class": "routes" }, policy.routes.map(function (r) { return el("code", { text: r }); }))); }
    if (policy.sites.length) { places.push(el("dt", { text: "Methods" }), el("dd", { "class": "sites" }, policy.sites.map(function (r) { return el("code", { text: r }); }))); }
    if (!places.length) { places.push(el("dt", { text: "Applies to" }), el("dd", { "class": "empty", text: "no route nor @Limited method on this node" })); }
    return el("dl", { "class": "scope" }, places.concat([
      el("dt", { text: "Counts" }), el("dd", { "class": "key-source", text: keysInWords(policy) }),
      el("dt", { text: "Limit" }), el("dd", { "class": "window", text: policy.limits.split(", ").map(function (l) {
        return limitInWords(policy.algorithm, l); }).join("; and ") })
    ]));
  }

  // ---- Traffic chart: inline SVG, drawn here (the CSP allows no other source) ----------------

  var SVG = "http://www.w3.org/2000/svg";
  var CHART = { width: 600, height: 130, left: 34, right: 592, top: 8, bottom: 108 };

  function svg(tag, attrs, children) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (name) {
      if (name === "text") { node.textContent = attrs[name]; } else { node.setAttribute(name, attrs[name]); }
    });
    (children || []).forEach(function (child) { node.appendChild(child); });
    return node;
  }

  // The smallest of 1, 2, 5, 10, 20, 50... at least max: the y axis's top.
  function ceiling(max) {
    var step = 1;
    while (true) {
      if (max <= step) { return step; }
      if (max <= 2 * step) { return 2 * step; }
      if (max <= 5 * step) { return 5 * step; }
      step *= 10;
    }
  }

  function sum(list) { return list.reduce(function (a, b) { return a + b; }, 0); }

  function chart(name, traffic) {
    var n = traffic.admitted.length, c = CHART;
    var top = ceiling(Math.max(1, Math.max.apply(null, traffic.admitted.concat(traffic.rejected))));
    function x(i) { return (c.left + (c.right - c.left) * i / (n - 1)).toFixed(1); }
    function y(v) { return (c.bottom - (c.bottom - c.top) * v / top).toFixed(1); }
    function line(kind, values) {
      return svg("polyline", { "class": "series " + kind, "data-series": kind,
        points: values.map(function (v, i) { return x(i) + "," + y(v); }).join(" ") });
    }
    var minutes = Math.round(n * traffic.stepSeconds / 60);
    var admitted = sum(traffic.admitted), rejected = sum(traffic.rejected);
    var grid = (top > 1 ? [0, top / 2, top] : [0, 1]).map(function (v) {
      return svg("g", {}, [svg("line", { "class": "grid", x1: c.left, x2: c.right, y1: y(v), y2: y(v) }),
        svg("text", { "class": "axis", x: c.left - 4, y: Number(y(v)) + 4, "text-anchor": "end", text: String(v) })]);
    });
    var drawing = svg("svg", { "class": "traffic", viewBox: "0 0 " + c.width + " " + c.height, role: "img",
      "data-max": top, "data-top": c.top, "data-bottom": c.bottom, "data-left": c.left, "data-right": c.right },
      [svg("title", { text: name + ": " + admitted + " admitted and " + rejected + " rejected in the last " + minutes + " minutes" })]
        .concat(grid).concat([
          svg("text", { "class": "axis", x: c.left, y: c.height - 6, text: minutes + " min ago" }),
          svg("text", { "class": "axis", x: c.right, y: c.height - 6, "text-anchor": "end", text: "now" }),
          svg("text", { "class": "axis", x: (c.left + c.right) / 2, y: c.height - 6, "text-anchor": "middle", text: "requests per second" }),
          line("admitted", traffic.admitted), line("rejected", traffic.rejected)]));
    return el("figure", { "class": "traffic" }, [drawing, el("figcaption", {}, [
      el("span", { "class": "swatch admitted" }), el("span", { text: admitted + " admitted " }),
      el("span", { "class": "swatch rejected" }), el("span", { text: rejected + " rejected" }),
      el("span", { "class": "meta", text: " in the last " + minutes + " minutes, per second" })])]);
  }

  function trafficBox(name, traffic) {
    return traffic ? chart(name, traffic) : el("p", { "class": "empty", text: "No traffic figures from this node." });
  }

  // Redraws each card's chart in place, so that the forms keep what is typed in them.
  function refreshCharts() {
    if (!sessionStorage.getItem(TOKEN)) { return; }
    document.querySelectorAll("section.policy").forEach(function (section) {
      var name = section.getAttribute("data-policy");
      call("GET", path(name) + "/traffic").then(function (r) {
        var old = section.querySelector("figure.traffic");
        if (r.status === 200 && old) { old.replaceWith(chart(name, r.json)); }
      }).catch(function () { /* the next reload says what is wrong */ });
    });
  }

  function button(text, cls, action) {
    var b = el("button", { type: "button", "class": cls || "", text: text });
    b.addEventListener("click", action);
    return b;
  }

  function policySection(policy, top, overrides, trial, traffic) {
    var name = policy.policy;
    var section = el("section", { "class": "policy", "data-policy": name }, [
      el("h2", {}, [el("span", { text: name }), el("span", { "class": "limits", text: chip(policy) }), el("span", { "class": "meta",
        text: policy.algorithm + " · version " + policy.version + (policy.shared ? " · shared by every node" : " · this node") })]),
      scope(policy),
      trafficBox(name, traffic),
      form("Change limits", [["limits", "e.g. 10/s burst=20"]], function (v) {
        change("PUT", path(name) + "/limits", { limits: v.limits }, "Changing the limits of " + name);
      })
    ]);
    var keyState = el("p", { "class": "key-state", role: "status" });
    section.appendChild(form("Look up a key", [["key", "key, e.g. h:abc"]], function (v) {
      call("GET", path(name) + "/keys/" + encodeURIComponent(v.key)).then(function (r) {
        keyState.className = r.status === 200 ? "key-state" : "key-state error";
        if (r.status !== 200) { keyState.textContent = "Cannot read " + v.key + " (" + r.status + "): " + (r.json.error || ""); return; }
        var s = r.json, o = s.override;
        keyState.setAttribute("data-key", s.key);
        keyState.textContent = s.key + ": " + s.remaining + " left under " + s.limit + ", fresh again in " + s.resetSeconds + " s" +
          (o ? " · " + o.kind + (o.limits ? " " + o.limits : "") + (o.expiresInSeconds === null ? "" : ", " + o.expiresInSeconds + " s left") : "");
      });
    }));
    section.appendChild(keyState);
    section.appendChild(el("h3", { text: "Top keys" }));
    if (top) {
      section.appendChild(el("div", { "class": "columns" }, [
        counts("Most rejections", top.byRejections, "rejections", top.rejections),
        counts("Most requests", top.byRequests, "requests", top.requests)]));
      var exact = top.byRequests.concat(top.byRejections).every(function (c) { return !c.error; });
      section.appendChild(el("p", { "class": "meta", text: "Counted over the last " + top.coveredSeconds + " s: the top-keys window under way (" +
        seconds(top.windowSeconds) + ", limiter.top-keys.window) and the one before. " +
        (exact ? "Every count is exact." : "A range such as 5–8 means at least 5 and at most 8: among many keys, counts are estimates.") }));
    } else {
      section.appendChild(el("p", { "class": "empty", text: "Top keys are off (limiter.top-keys.enabled)." }));
    }
    section.appendChild(el("h3", { text: "Overrides" }));
    var rows = overrides.map(function (o) {
      return el("tr", { "data-key": o.key }, [el("td", { "class": "key", text: o.key }), el("td", { text: o.kind + (o.limits ? " " + o.limits : "") }),
        el("td", { text: o.expiresInSeconds === null ? "until removed" : o.expiresInSeconds + " s left" }),
        el("td", {}, [button("Remove", "", function () { change("DELETE", path(name) + "/overrides/" + encodeURIComponent(o.key), undefined, "Removing the override of " + o.key); })])]);
    });
    section.appendChild(rows.length ? el("table", { "class": "overrides" }, rows) : el("p", { "class": "empty", text: "none" }));
    var override = form("Override a key", [["key", "key, e.g. h:abc"], ["kind", "kind", ["block", "exempt", "limits"]],
      ["limits", "own limits, e.g. 100/m"], ["ttl", "for, e.g. 1h"]], function (v) {
      var body = { kind: v.kind };
      if (v.kind === "limits") { body.limits = v.limits; }
      if (v.ttl) { body.ttl = v.ttl; }
      change("PUT", path(name) + "/overrides/" + encodeURIComponent(v.key), body, "Overriding " + v.key);
    });
    // Only a "limits" override has limits of its own.
    var kind = override.elements.kind, own = override.elements.limits;
    own.disabled = true;
    kind.addEventListener("change", function () { own.disabled = kind.value !== "limits"; });
    section.appendChild(override);
    section.appendChild(el("h3", { text: "Shadow trial" }));
    if (trial) {
      var box = el("div", { "class": "trial " + trial.state, "data-state": trial.state }, [
        el("p", { text: trial.state + ": " + trial.candidate + " instead of " + trial.current + " — " + trial.elapsedSeconds + " s run, " + trial.remainingSeconds + " s left" }),
        el("p", { "class": "would", text: "would reject " + trial.wouldReject + " of " + trial.requests + " requests (the current limits rejected " + trial.rejected + ")" })]);
      if (trial.wouldRejectKeys.length) { box.appendChild(counts("Keys it would reject", trial.wouldRejectKeys, "rejections", trial.wouldReject)); }
      if (trial.state === "running" || trial.state === "ended") {
        if (trial.state === "running") { box.appendChild(button("Apply", "", function () { change("POST", path(name) + "/trial/apply", undefined, "Applying the trial of " + name); })); }
      }
      box.appendChild(button("Discard", "danger", function () { change("DELETE", path(name) + "/trial", undefined, "Discarding the trial of " + name); }));
      section.appendChild(box);
    }
    if (!trial || trial.state !== "running") {
      section.appendChild(form("Try in shadow", [["limits", "candidate, e.g. 5/s"], ["period", "period, e.g. 10m"]], function (v) {
        change("PUT", path(name) + "/trial", { limits: v.limits, period: v.period }, "Starting a trial on " + name);
      }));
    }
    return section;
  }

  function optional(r) { return r.status === 200 ? r.json : null; }

  function load(quiet) {
    if (!sessionStorage.getItem(TOKEN)) { return Promise.resolve(); }
    return call("GET", "/policies").then(function (r) {
      if (r.status !== 200) { failed("The admin API answered " + r.status + ": " + (r.json.error || "") + ". Check the token."); return; }
      return Promise.all(r.json.policies.map(function (p) {
        return Promise.all([call("GET", path(p.policy) + "/top-keys"), call("GET", path(p.policy) + "/overrides"), call("GET", path(p.policy) + "/trial"),
          call("GET", path(p.policy) + "/traffic")])
          .then(function (parts) {
            return policySection(p, optional(parts[0]), (optional(parts[1]) || { overrides: [] }).overrides, optional(parts[2]), optional(parts[3]));
          });
      })).then(function (sections) {
        var main = document.getElementById("policies");
        main.replaceChildren.apply(main, sections);
        if (!quiet) { say(sections.length + " policies, as of " + new Date().toLocaleTimeString() + "."); }
        document.body.setAttribute("data-loaded", "true");
      });
    }).catch(function (e) { failed("Cannot reach the admin API: " + e); });
  }

  function failed(text) {
    say(text, true);
    document.body.setAttribute("data-loaded", "failed");
  }

  document.getElementById("login").addEventListener("submit", function (event) {
    event.preventDefault();
    sessionStorage.setItem(TOKEN, document.getElementById("token").value);
    document.getElementById("token").value = "";
    load(false);
  });
  document.getElementById("logout").addEventListener("click", function () {
    sessionStorage.removeItem(TOKEN);
    document.getElementById("policies").replaceChildren();
    say("Token forgotten.");
  });
  document.getElementById("reload").addEventListener("click", function () { load(false); });
  // Until now a click on "Use token" would have submitted the form as a plain page load.
  document.getElementById("use-token").disabled = false;
  document.body.setAttribute("data-ready", "true");
  load(false);
  setInterval(refreshCharts, 5000);
})();

// The Limiter console: the admin API's JSON, drawn with textContent only (keys come from clients).
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

  function counts(title, list, kind, total) {
    var max = list.length ? list[0].count : 1;
    var rows = list.map(function (c) {
      return el("tr", { "data-key": c.key }, [
        el("td", { "class": "key", text: c.key }),
        el("td", { "class": "num", text: String(c.count) }),
        el("td", { "class": "num", text: c.error ? "±" + c.error : "exact" }),
        el("td", {}, [el("span", { "class": "bar " + kind, style: "width:" + Math.max(2, Math.round(100 * c.count / max)) + "px" })])
      ]);
    });
    return el("div", { "class": "top " + kind }, [
      el("h3", { text: title + " (" + total + " in all)" }),
      rows.length ? el("table", {}, [el("tr", {}, [el("th", { text: "key" }), el("th", { "class": "num", text: "count" }),
        el("th", { "class": "num", text: "error" }), el("th", {})])].concat(rows))
        : el("p", { "class": "empty", text: "none yet" })
    ]);
  }

  function form(label, fields, onSubmit) {
    var inputs = fields.map(function (f) { return el("input", { name: f[0], placeholder: f[1], "aria-label": f[1] }); });
    var f = el("form", { "class": "inline" }, [el("span", { text: label })].concat(inputs).concat([el("button", { type: "submit", text: "Go" })]));
    f.addEventListener("submit", function (event) {
      event.preventDefault();
      var values = {};
      inputs.forEach(function (i) { values[i.name] = i.value.trim(); });
      onSubmit(values);
    });
    return f;
  }

  function button(text, cls, action) {
    var b = el("button", { type: "button", "class": cls || "", text: text });
    b.addEventListener("click", action);
    return b;
  }

  function policySection(policy, top, overrides, trial) {
    var name = policy.policy;
    var section = el("section", { "class": "policy", "data-policy": name }, [
      el("h2", { text: name }),
      el("p", {}, [el("span", { "class": "limits", text: policy.limits }), el("span", { "class": "meta",
        text: "  " + policy.algorithm + " · version " + policy.version + (policy.shared ? " · shared by every node" : " · this node") })]),
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
    if (top) {
      section.appendChild(el("div", { "class": "columns" }, [
        counts("Most rejections", top.byRejections, "rejections", top.rejections),
        counts("Most requests", top.byRequests, "requests", top.requests)]));
      section.appendChild(el("p", { "class": "meta", text: "Over the last " + top.coveredSeconds + " s; a count is at most its error too high." }));
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
    section.appendChild(form("Override a key", [["key", "key, e.g. h:abc"], ["kind", "block|exempt|limits"], ["limits", "limits (for kind limits)"], ["ttl", "ttl, e.g. 1h"]], function (v) {
      var body = { kind: v.kind };
      if (v.limits) { body.limits = v.limits; }
      if (v.ttl) { body.ttl = v.ttl; }
      change("PUT", path(name) + "/overrides/" + encodeURIComponent(v.key), body, "Overriding " + v.key);
    }));
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
        return Promise.all([call("GET", path(p.policy) + "/top-keys"), call("GET", path(p.policy) + "/overrides"), call("GET", path(p.policy) + "/trial")])
          .then(function (parts) { return policySection(p, optional(parts[0]), (optional(parts[1]) || { overrides: [] }).overrides, optional(parts[2])); });
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
})();

// The console's single page, served at `/_emulator/`. The script is a plain string (no build step, no backtick inside
// it) that polls the control endpoints about once a second, at paths relative to the page so a proxy may mount it under
// a prefix. It never asks for keys and masks anything that looks like a credential. emulator/README.md, "Console".

const STYLE = String.raw`
:root {
  --bg: #f6f7f9; --panel: #fff; --line: #d9dde3; --text: #1d2330; --muted: #5b6476; --accent: #2557d6;
  --ok: #17803d; --ok-bg: #e3f5e9; --busy: #8a5a00; --busy-bg: #fff3d6; --bad: #b42318; --bad-bg: #fde8e6;
  --off: #5b6476; --off-bg: #eceef2;
  font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
  color: var(--text); background: var(--bg);
}
* { box-sizing: border-box; }
body { margin: 0; }
header { display: flex; flex-wrap: wrap; align-items: center; gap: 12px; padding: 10px 16px;
  background: #1d2330; color: #fff; }
header h1 { font-size: 17px; margin: 0 12px 0 0; font-weight: 600; }
header .spacer { flex: 1; }
header button, header .file { background: #fff; color: var(--text); }
#health { display: inline-flex; align-items: center; gap: 6px; font-size: 13px; }
#health::before { content: ""; width: 10px; height: 10px; border-radius: 50%; background: #9aa3b2; }
#health[data-health="ok"]::before { background: #3ccf6e; }
#health[data-health="down"]::before { background: #f04438; }
#updated { font-size: 12px; color: #c8cdd8; min-width: 9em; }
#control-status { flex-basis: 100%; margin: 0; font-size: 13px; color: #ffe08a; min-height: 1em; }
#control-status:empty { display: none; }
#banner { margin: 0; padding: 8px 16px; background: var(--bad-bg); color: var(--bad); font-weight: 600; }
main { display: grid; grid-template-columns: 290px minmax(0, 1fr) minmax(300px, 420px); gap: 12px; padding: 12px; }
.column { display: flex; flex-direction: column; gap: 12px; min-width: 0; }
#log-panel { grid-column: 1 / -1; }
section.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; min-width: 0; }
section.panel > h2 { font-size: 14px; margin: 0 0 8px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
h3 { font-size: 13px; margin: 10px 0 4px; color: var(--muted); }
.na { margin: 0 0 8px; padding: 6px 8px; border-radius: 6px; background: var(--off-bg); color: var(--off); font-size: 13px; }
.muted { color: var(--muted); }
.empty { color: var(--muted); font-style: italic; margin: 4px 0; }
button, .file { font: inherit; padding: 4px 10px; border: 1px solid var(--line); border-radius: 6px; background: #fff;
  color: var(--text); cursor: pointer; }
button:hover, .file:hover { border-color: var(--accent); }
button:focus-visible, .file:focus-within, tr[tabindex]:focus-visible, input:focus-visible {
  outline: 2px solid var(--accent); outline-offset: 1px; }
button.danger { color: var(--bad); }
button:disabled { opacity: .5; cursor: not-allowed; }
#record-json:empty { display: none; }
#fault-rules td, #fault-rules th { padding: 3px 4px; }
.file input { position: absolute; width: 1px; height: 1px; opacity: 0; }
.file { position: relative; display: inline-block; }
#accounts { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 4px; }
#accounts button { width: 100%; display: flex; justify-content: space-between; gap: 6px; text-align: left; }
#accounts button[aria-pressed="true"] { border-color: var(--accent); background: #eaf0ff; font-weight: 600; }
#accounts .role { color: var(--muted); font-weight: 400; font-size: 12px; }
.count { display: inline-block; min-width: 1.6em; padding: 0 6px; border-radius: 9px; background: var(--off-bg);
  color: var(--muted); font-size: 12px; text-align: center; font-weight: 400; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
caption { text-align: left; font-weight: 600; padding: 4px 0; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 6px; text-align: left; vertical-align: top; }
th { color: var(--muted); font-weight: 600; background: #fafbfc; }
#resources table { margin-bottom: 12px; }
#resources tbody tr { cursor: pointer; }
#resources tbody tr:hover { background: #f2f5fb; }
#resources tbody tr[aria-selected="true"] { background: #eaf0ff; }
code, pre, .mono { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12px; }
.state { display: inline-block; padding: 0 8px; border-radius: 9px; font-size: 12px; font-weight: 600;
  background: var(--busy-bg); color: var(--busy); }
.state[data-tone="ok"] { background: var(--ok-bg); color: var(--ok); }
.state[data-tone="bad"] { background: var(--bad-bg); color: var(--bad); }
.state[data-tone="off"] { background: var(--off-bg); color: var(--off); }
#record-json { margin: 0; padding: 8px; background: #f7f8fa; border: 1px solid var(--line); border-radius: 6px;
  max-height: 60vh; overflow: auto; white-space: pre-wrap; word-break: break-all; }
#record-title { margin: 0 0 6px; }
.log-tools { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; margin-bottom: 6px; }
.log-scroll { max-height: 320px; overflow: auto; }
#request-log td.path { word-break: break-all; }
td.status[data-class="2"] { color: var(--ok); }
td.status[data-class="4"] { color: var(--busy); }
td.status[data-class="5"], td.status[data-class="x"] { color: var(--bad); font-weight: 600; }
td.fault { color: var(--bad); }
#faults-form label { display: grid; grid-template-columns: 1fr 80px; align-items: center; gap: 6px; margin: 4px 0; }
#faults-form input { width: 80px; font: inherit; padding: 2px 4px; }
#faults-form fieldset { border: 0; padding: 0; margin: 0; }
#faults-form legend { font-weight: 600; margin-bottom: 2px; }
.form-buttons { display: flex; gap: 8px; margin-top: 6px; }
#faults-current { display: grid; grid-template-columns: auto 1fr; gap: 2px 10px; margin: 8px 0 0; font-size: 13px; }
#faults-current dt { color: var(--muted); }
#faults-current dd { margin: 0; font-weight: 600; }
#faults-current dd[data-active="true"] { color: var(--bad); }
#faults-status, #jobs-status { min-height: 1em; margin: 6px 0 0; font-size: 13px; }
#jobs-list { margin: 4px 0 0; padding-left: 18px; font-size: 12px; }
td.owner { font-size: 12px; }
td.owner .state { white-space: nowrap; }
td.owner .owner-name { font-weight: 600; }
td.owner .owner-where { display: block; color: var(--muted); }
td.owner[data-ownership="derived"], td.owner[data-ownership="not-taggable"], td.owner[data-ownership="account"] {
  color: var(--muted); }
#unowned table { margin-bottom: 10px; }
#unowned tbody tr { cursor: pointer; }
#unowned tbody tr:hover { background: #f2f5fb; }
#unowned tbody tr[aria-selected="true"] { background: #eaf0ff; }
#unowned-panel[data-unowned="true"] { border-color: var(--bad); }
#unowned-count[data-unowned="true"] { background: var(--bad-bg); color: var(--bad); }
@media (max-width: 1100px) { main { grid-template-columns: 1fr; } }
`;

/** The script: plain JavaScript for the browser (no backtick, no template substitution inside). */
const SCRIPT = String.raw`
"use strict";
(function () {
  var POLL_MS = 1000;
  var MAX_LOG = 500;
  var SHOWN_LOG = 200;
  /** Field and query-parameter names whose values are never shown. */
  var SECRET = /pass(word|wd)?$|password|secret|psk|presharedkey|apikey|privatekey|token|credential/i;
  var KIND_ORDER = ["vpc", "network", "nic", "instance", "volume", "ipaddress", "firewallrule", "egressrule",
    "portforwardingrule", "loadbalancerrule", "cluster", "snapshot", "snapshotpolicy", "vmsnapshot"];
  var OK_STATES = ["running", "active", "ready", "backedup", "allocated", "connected", "implemented", "uploaded",
    "succeeded", "up"];
  var OFF_STATES = ["stopped", "destroyed", "deleted", "disconnected", "inactive", "disabled", "expunged"];
  var BAD_STATES = ["error", "failed", "alert"];
  var FAULT_FIELDS = ["failRate", "throttleRate", "failAfterRate", "latencyMs"];
  var FALLBACK_ACCOUNTS = [{ name: "demo", role: "user" }, { name: "admin", role: "admin" }];

  var st = {
    live: true,
    accounts: FALLBACK_ACCOUNTS,
    account: accountFromHash() || "demo",
    resources: {},
    owners: {},
    ownersMissing: false,
    resourcesKey: "",
    selected: null,
    log: [],
    logNext: undefined,
    logFilter: "",
    logKey: "",
    faultsDirty: false,
    busy: false,
    timer: undefined
  };

  function $(id) { return document.getElementById(id); }
  function esc(value) {
    return String(value).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  function accountFromHash() {
    var m = /account=([^&]+)/.exec(location.hash);
    return m ? decodeURIComponent(m[1]) : "";
  }

  async function call(method, path, body) {
    var init = { method: method, cache: "no-store", headers: {} };
    if (body !== undefined) {
      init.headers["content-type"] = "application/json";
      init.body = typeof body === "string" ? body : JSON.stringify(body);
    }
    var response = await fetch(path, init);
    var text = await response.text();
    var data;
    try { data = text ? JSON.parse(text) : undefined; } catch (e) { data = text; }
    return { ok: response.ok, status: response.status, data: data, text: text };
  }
  function problem(r) {
    var e = r.data && r.data.listErrorResponse;
    var message = e && e.errorMsg ? e.errorMsg : r.data && typeof r.data.error === "string" ? r.data.error : "";
    return "HTTP " + r.status + (message ? ": " + message : "");
  }
  /** Shows or hides a panel's "not available" note; true when the endpoint exists. */
  function available(name, r) {
    var note = document.querySelector('[data-na-for="' + name + '"]');
    var absent = r.status === 404;
    if (note) note.hidden = !absent;
    return !absent;
  }
  function say(id, text) { var el = $(id); if (el) el.textContent = text; }

  /** A copy of a record with every credential-like value masked. */
  function redact(value, key) {
    if (key && SECRET.test(key) && typeof value === "string" && value !== "") return "\u2022\u2022\u2022\u2022\u2022\u2022 (hidden)";
    if (Array.isArray(value)) return value.map(function (v) { return redact(v); });
    if (value && typeof value === "object") {
      var out = {};
      Object.keys(value).forEach(function (k) { out[k] = redact(value[k], k); });
      return out;
    }
    return value;
  }
  function redactPath(path) {
    return String(path).replace(/([?&])([^=&#]+)=([^&#]*)/g, function (all, sep, name, val) {
      return SECRET.test(decodeURIComponent(name)) && val ? sep + name + "=\u2022\u2022\u2022\u2022\u2022\u2022" : all;
    });
  }
  function stateOf(record) {
    var s = record.state !== undefined && record.state !== "" ? record.state : record.status;
    return s === undefined || s === null ? "" : String(s);
  }
  function tone(state) {
    var s = state.toLowerCase();
    if (OK_STATES.indexOf(s) >= 0) return "ok";
    if (OFF_STATES.indexOf(s) >= 0) return "off";
    if (BAD_STATES.indexOf(s) >= 0) return "bad";
    return "busy";
  }
  function nameOf(record) {
    return record.displayName || record.name || record.ipAddress || record.publicIpAddress || record.key || "";
  }
  function details(record) {
    var keys = ["getcIDR", "cIDR", "cidr", "instancePrivateIp", "ipAddress", "publicIpAddress", "networkName",
      "templateName", "size", "volumeType", "protocol", "startPort", "vpcUuid", "jobId"];
    var parts = [];
    keys.forEach(function (k) {
      var v = record[k];
      if (parts.length < 3 && (typeof v === "string" || typeof v === "number") && v !== "" && !SECRET.test(k)) {
        parts.push(k + ": " + v);
      }
    });
    return parts.join(" \u00b7 ");
  }
  function clock(time) {
    var d = typeof time === "number" || /^\d+$/.test(String(time)) ? new Date(Number(time)) : new Date(time);
    if (isNaN(d.getTime())) return String(time === undefined ? "" : time);
    return d.toLocaleTimeString([], { hour12: false }) + "." + String(d.getMilliseconds()).padStart(3, "0");
  }
  function kindRank(kind) {
    var i = KIND_ORDER.indexOf(kind);
    return i < 0 ? KIND_ORDER.length : i;
  }

  // --- accounts -------------------------------------------------------------------------------
  async function loadAccounts() {
    var r = await call("GET", "accounts");
    if (r.ok && r.data && Array.isArray(r.data.accounts) && r.data.accounts.length) {
      st.accounts = r.data.accounts.map(function (a) { return { name: String(a.name), role: a.role }; });
    } else if (r.status === 404) {
      st.accounts = FALLBACK_ACCOUNTS;
    }
    if (!st.accounts.some(function (a) { return a.name === st.account; })) st.account = st.accounts[0].name;
  }
  function renderAccounts() {
    var html = st.accounts.map(function (a) {
      var n = countRecords(st.resources[a.name]);
      return '<li><button type="button" data-account="' + esc(a.name) + '" aria-pressed="' + (a.name === st.account) + '">' +
        '<span>' + esc(a.name) + (a.role ? ' <span class="role">' + esc(a.role) + "</span>" : "") + "</span>" +
        '<span class="count" title="records">' + (n === undefined ? "\u2013" : n) + "</span></button></li>";
    }).join("");
    var list = $("accounts");
    if (list.innerHTML !== html) list.innerHTML = html;
  }
  function countRecords(collections) {
    if (!collections) return undefined;
    return Object.keys(collections).reduce(function (n, k) { return n + Object.keys(collections[k] || {}).length; }, 0);
  }

  // --- resources ------------------------------------------------------------------------------
  async function loadResources() {
    await Promise.all(st.accounts.map(async function (a) {
      var r = await call("GET", "resources?account=" + encodeURIComponent(a.name));
      if (r.ok && r.data && typeof r.data === "object") st.resources[a.name] = r.data;
    }));
  }
  /** Who owns each record of the account shown (undefined: the emulator has no /_emulator/owners). */
  async function loadOwners() {
    var account = st.account;
    var r = await call("GET", "owners?account=" + encodeURIComponent(account));
    st.ownersMissing = !available("owners", r);
    if (st.ownersMissing) { st.owners = {}; return; }
    if (r.ok && r.data && typeof r.data === "object") st.owners[account] = r.data;
  }
  function refText(ref) {
    if (!ref) return "";
    return ref.kind + " " + (ref.name || ref.uuid) + (ref.missing ? " (gone)" : "");
  }
  /** The Owner cell of a record: its owner tag read, "no owner", the record it belongs to, or "not taggable". */
  function ownerCell(o) {
    if (!o) return '<td class="owner"></td>';
    var kind = o.ownership;
    var attrs = ' data-ownership="' + esc(kind) + '"';
    var html = "";
    if (kind === "owned") {
      var w = o.owner || {};
      attrs += ' title="' + esc(w.value || "") + '"';
      if (!w.readable) {
        attrs += ' data-readable="false"';
        html = '<span class="state" data-tone="busy">not a Pulumi URN</span> <code>' + esc(w.value) + "</code>";
      } else {
        attrs += ' data-stack="' + esc(w.stack) + '" data-project="' + esc(w.project) + '"' +
          (w.name !== undefined ? ' data-name="' + esc(w.name) + '"' : "") + ' data-shortened="' + !!w.shortened + '"';
        html = (w.name !== undefined ? '<span class="owner-name">' + esc(w.name) + "</span>"
          : '<span class="owner-name muted"><em>name not in the shortened URN</em></span>') +
          '<span class="owner-where">stack <span class="owner-stack">' + esc(w.stack) + "</span> \u00b7 project " +
          '<span class="owner-project">' + esc(w.project) + "</span></span>";
      }
    } else if (kind === "unowned") {
      html = '<span class="state" data-tone="bad">no owner</span>';
    } else if (kind === "derived") {
      attrs += ' title="' + esc(o.why || "") + '" data-parent="' + esc(o.parent ? o.parent.uuid : "") + '"';
      html = "belongs to " + esc(refText(o.parent));
    } else if (kind === "not-taggable") {
      html = "not taggable";
    } else if (kind === "account") {
      html = "the account's";
    }
    return '<td class="owner"' + attrs + ">" + html + "</td>";
  }
  function renderUnowned(data, collections) {
    var panel = $("unowned-panel"), box = $("unowned"), count = $("unowned-count");
    if (!data) {
      say("unowned-count", "\u2013");
      count.removeAttribute("data-unowned");
      panel.removeAttribute("data-unowned");
      box.innerHTML = st.ownersMissing ? "" : '<p class="empty">Loading...</p>';
      return;
    }
    var list = Array.isArray(data.unowned) ? data.unowned : [];
    say("unowned-count", String(list.length));
    count.setAttribute("data-unowned", String(list.length > 0));
    panel.setAttribute("data-unowned", String(list.length > 0));
    if (!list.length) {
      box.innerHTML = countRecords(collections) ? '<p class="empty">None: every record of a taggable kind has an owner.</p>'
        : '<p class="empty">No records.</p>';
      return;
    }
    var kinds = [], byKind = {};
    list.forEach(function (u) {
      if (!byKind[u.kind]) { byKind[u.kind] = []; kinds.push(u.kind); }
      byKind[u.kind].push(u);
    });
    box.innerHTML = kinds.map(function (kind) {
      var rows = byKind[kind].map(function (u) {
        var selected = st.selected && st.selected.account === st.account && st.selected.kind === kind && st.selected.uuid === u.uuid;
        return '<tr data-uuid="' + esc(u.uuid) + '" data-kind="' + esc(kind) + '" tabindex="0" aria-selected="' + !!selected + '">' +
          '<td class="name">' + esc(u.name || "") + '</td><td class="uuid"><code>' + esc(u.uuid) + "</code></td>" +
          '<td class="parent" data-parent="' + esc(u.parent ? u.parent.uuid : "") + '">' + esc(refText(u.parent)) + "</td></tr>";
      }).join("");
      return '<table data-unowned-kind="' + esc(kind) + '"><caption><span class="kind">' + esc(kind) + "</span> " +
        '<span class="muted">(' + esc(byKind[kind][0].resourceType || "") + ')</span> <span class="count">' + byKind[kind].length + "</span></caption>" +
        '<thead><tr><th scope="col">Name</th><th scope="col">UUID</th><th scope="col">Parent</th></tr></thead>' +
        "<tbody>" + rows + "</tbody></table>";
    }).join("");
  }
  function renderResources() {
    var collections = st.resources[st.account] || {};
    var owners = st.owners[st.account];
    var ownership = (owners && owners.records) || {};
    var key = st.account + "\n" + JSON.stringify(collections) + "\n" + JSON.stringify(owners) + "\n" + JSON.stringify(st.selected);
    if (key === st.resourcesKey) return;
    st.resourcesKey = key;
    say("resources-account", st.account);
    say("unowned-account", st.account);
    renderUnowned(owners, collections);
    var kinds = Object.keys(collections).filter(function (k) { return Object.keys(collections[k] || {}).length > 0; });
    kinds.sort(function (a, b) { return kindRank(a) - kindRank(b) || a.localeCompare(b); });
    var html = kinds.map(function (kind) {
      var records = Object.keys(collections[kind]).map(function (uuid) { return [uuid, collections[kind][uuid]]; });
      records.sort(function (a, b) { return String(nameOf(a[1])).localeCompare(String(nameOf(b[1]))) || a[0].localeCompare(b[0]); });
      var rows = records.map(function (entry) {
        var uuid = entry[0], record = entry[1] || {};
        var state = stateOf(record);
        var selected = st.selected && st.selected.account === st.account && st.selected.kind === kind && st.selected.uuid === uuid;
        return '<tr data-uuid="' + esc(uuid) + '" data-kind="' + esc(kind) + '" tabindex="0" aria-selected="' + !!selected + '">' +
          '<td class="name">' + esc(nameOf(record)) + "</td>" +
          '<td class="state-cell" data-state="' + esc(state) + '">' + (state ? '<span class="state" data-tone="' + tone(state) + '">' + esc(state) + "</span>" : "") + "</td>" +
          '<td class="uuid"><code>' + esc(uuid) + "</code></td>" +
          '<td class="details">' + esc(details(record)) + "</td>" +
          (owners ? ownerCell((ownership[kind] || {})[uuid]) : "") + "</tr>";
      }).join("");
      return '<table data-kind="' + esc(kind) + '"><caption><span class="kind">' + esc(kind) + '</span> <span class="count">' + records.length + "</span></caption>" +
        '<thead><tr><th scope="col">Name</th><th scope="col">State</th><th scope="col">UUID</th><th scope="col">Details</th>' +
        (owners ? '<th scope="col">Owner</th>' : "") + "</tr></thead>" +
        "<tbody>" + rows + "</tbody></table>";
    }).join("");
    $("resources").innerHTML = html || '<p class="empty">No resources in this account.</p>';
  }
  function renderRecord() {
    var sel = st.selected;
    if (!sel) return;
    var record = ((st.resources[sel.account] || {})[sel.kind] || {})[sel.uuid];
    say("record-title", sel.kind + " " + sel.uuid + " (" + sel.account + ")" + (record ? "" : ": no longer exists"));
    var text = record ? JSON.stringify(redact(record), null, 2) : "";
    var pre = $("record-json");
    if (pre.textContent !== text) pre.textContent = text;
  }
  function select(row) {
    st.selected = { account: st.account, kind: row.getAttribute("data-kind"), uuid: row.getAttribute("data-uuid") };
    renderResources();
    renderRecord();
  }

  // --- request log ----------------------------------------------------------------------------
  async function loadRequests() {
    var q = [];
    if (st.logNext !== undefined) q.push("since=" + encodeURIComponent(st.logNext));
    if (st.logFilter) q.push("operation=" + encodeURIComponent(st.logFilter));
    var filter = st.logFilter;
    var r = await call("GET", "requests" + (q.length ? "?" + q.join("&") : ""));
    if (!available("requests", r) || filter !== st.logFilter) return;
    say("log-status", r.ok ? "" : "Log not read: " + problem(r));
    if (!r.ok || !r.data) return;
    var entries = Array.isArray(r.data.entries) ? r.data.entries : [];
    var seen = {};
    st.log.forEach(function (e) { seen[e.seq] = true; });
    entries.forEach(function (e) { if (!seen[e.seq]) st.log.push(e); });
    if (st.log.length > MAX_LOG) st.log = st.log.slice(st.log.length - MAX_LOG);
    if (r.data.next !== undefined && r.data.next !== null) st.logNext = r.data.next;
    else if (entries.length) st.logNext = entries[entries.length - 1].seq;
  }
  function faultText(f) {
    if (f === undefined || f === null || f === false || f === "") return "";
    if (typeof f !== "object") return String(f === true ? "yes" : f);
    return [f.effect, f.status, f.when, f.rule].filter(function (x) { return x !== undefined && x !== ""; }).join(" ");
  }
  function renderRequests() {
    var shown = st.log.slice(-SHOWN_LOG).reverse();
    var key = st.log.length + ":" + (shown[0] ? shown[0].seq : "");
    if (key === st.logKey) return;
    st.logKey = key;
    var rows = shown.map(function (e) {
      var status = e.status === undefined || e.status === null ? "" : String(e.status);
      var klass = /^[1-5]\d\d$/.test(status) ? status[0] : status ? "x" : "";
      return '<tr data-seq="' + esc(e.seq) + '" data-operation="' + esc(e.operation || "") + '" data-status="' + esc(status) + '">' +
        '<td class="mono">' + esc(e.seq) + "</td><td class=\"mono\">" + esc(clock(e.time)) + "</td>" +
        "<td>" + esc(e.account || "") + "</td><td>" + esc(e.method || "") + "</td>" +
        '<td class="operation">' + esc(e.operation || "") + '</td><td class="path mono">' + esc(redactPath(e.path || "")) + "</td>" +
        '<td class="status" data-class="' + klass + '">' + esc(status) + '</td><td class="fault">' + esc(faultText(e.fault)) + "</td>" +
        '<td class="mono">' + esc(e.durationMs === undefined ? "" : Math.round(Number(e.durationMs))) + "</td></tr>";
    }).join("");
    $("request-log-body").innerHTML = rows || '<tr><td colspan="9" class="empty">No requests yet.</td></tr>';
    say("request-count", st.log.length > SHOWN_LOG ? "newest " + SHOWN_LOG + " of " + st.log.length + " shown" : st.log.length + " shown");
  }
  async function loadStats() {
    var r = await call("GET", "stats");
    if (!r.ok || !r.data) return;
    var s = r.data;
    var byStatus = Object.keys(s.byStatus || {}).sort().map(function (k) { return k + " \u00d7 " + s.byStatus[k]; }).join(", ");
    var ops = Object.keys(s.byOperation || {}).sort().map(function (k) { return '<option value="' + esc(k) + '">'; }).join("");
    if ($("operations").innerHTML !== ops) $("operations").innerHTML = ops;
    say("stats", "API calls: " + (s.total || 0) + " (" + (s.mutating || 0) + " mutating)" + (byStatus ? "; by status: " + byStatus : ""));
  }

  // --- faults ---------------------------------------------------------------------------------
  async function loadFaults() {
    var r = await call("GET", "faults");
    if (!available("faults", r) || !r.ok || !r.data) return;
    renderFaults(r.data);
  }
  function renderFaults(f) {
    var html = FAULT_FIELDS.map(function (k) {
      var v = f[k] === undefined ? 0 : f[k];
      return "<dt>" + esc(k) + '</dt><dd data-field="' + esc(k) + '" data-active="' + (Number(v) > 0) + '">' + esc(v) + "</dd>";
    }).join("");
    var dl = $("faults-current");
    if (dl.innerHTML !== html) dl.innerHTML = html;
    var form = $("faults-form");
    if (!st.faultsDirty && !form.contains(document.activeElement)) {
      FAULT_FIELDS.forEach(function (k) {
        var input = form.elements.namedItem(k);
        if (input) input.value = String(f[k] === undefined ? 0 : f[k]);
      });
    }
    var rules = Array.isArray(f.rules) ? f.rules : [];
    var rows = rules.map(function (rule) {
      var ops = Array.isArray(rule.operation) ? rule.operation.join(", ") : rule.operation || "every operation";
      return '<tr data-rule="' + esc(rule.id) + '"><td>' + esc(rule.id) + "</td><td>" + esc(ops) + "</td><td>" +
        esc([rule.effect, rule.status, rule.when].filter(function (x) { return x !== undefined; }).join(" ")) + "</td><td>" +
        esc(rule.fired === undefined ? "" : rule.fired) + (rule.remaining !== undefined ? " / " + esc(rule.remaining) + " left" : "") +
        '</td><td><button type="button" data-remove-rule="' + esc(rule.id) + '" aria-label="Remove rule ' + esc(rule.id) + '">\u00d7</button></td></tr>';
    }).join("");
    var body = rows || '<tr><td colspan="5" class="empty">No rules.</td></tr>';
    if ($("fault-rules-body").innerHTML !== body) $("fault-rules-body").innerHTML = body;
  }
  async function loadFaultLog() {
    var r = await call("GET", "faults/log");
    if (!r.ok || !r.data) return;
    var entries = Array.isArray(r.data.entries) ? r.data.entries : [];
    var last = entries.slice(-5).reverse().map(function (e) {
      return (e.operation || e.path || "") + " " + faultText(e);
    });
    say("fault-log", entries.length ? entries.length + " fired; last: " + last.join("; ") : "No fault has fired.");
  }
  async function applyFaults(body, message) {
    var r = await call("PUT", "faults", body);
    if (!r.ok) { say("faults-status", "Not applied: " + problem(r)); return; }
    st.faultsDirty = false;
    say("faults-status", message);
    renderFaults(r.data);
  }

  // --- jobs -----------------------------------------------------------------------------------
  async function loadJobs() {
    var r = await call("GET", "jobs");
    var ok = available("jobs", r);
    $("advance").disabled = !ok;
    if (!ok || !r.ok || !r.data) { if (!ok) say("jobs-count", ""); return; }
    var pending = Array.isArray(r.data.pending) ? r.data.pending : [];
    say("jobs-count", pending.length ? pending.length + " pending" : "Nothing pending.");
    var html = pending.slice(0, 20).map(function (p) {
      if (!p || typeof p !== "object") return "<li>" + esc(p) + "</li>";
      var due = Date.parse(p.dueAt);
      var left = isNaN(due) ? "" : " \u00b7 due in " + Math.max(0, (due - Date.now()) / 1000).toFixed(1) + " s";
      var text = String(p.description || JSON.stringify(redact(p)));
      return '<li data-job="' + esc(p.jobId || "") + '"><strong>' + esc(p.kind || "work") + "</strong> " +
        '<span class="muted">' + esc(p.account || "") + esc(left) + "</span><br><code>" +
        esc(text.length > 160 ? text.slice(0, 157) + "..." : text) + "</code></li>";
    }).join("");
    if ($("jobs-list").innerHTML !== html) $("jobs-list").innerHTML = html;
  }

  /** The duration profile in force: an emulator without durations per kind shows nothing. */
  async function loadDurations() {
    var r = await call("GET", "job-durations");
    if (!r.ok || !r.data || typeof r.data !== "object") { say("jobs-durations", ""); return; }
    say("jobs-durations", "Durations: profile " + String(r.data.profile) + ", default " + String(r.data.defaultMs) + " ms.");
  }

  // --- the loop -------------------------------------------------------------------------------
  async function refresh() {
    if (st.busy) return;
    st.busy = true;
    try {
      var health = await call("GET", "health");
      $("health").setAttribute("data-health", health.ok ? "ok" : "down");
      say("health", health.ok ? "emulator up" : "emulator: " + problem(health));
      $("banner").hidden = true;
      await loadAccounts();
      await Promise.all([loadResources(), loadOwners(), loadRequests(), loadStats(), loadFaults(), loadFaultLog(), loadJobs(), loadDurations()]);
      renderAccounts();
      renderResources();
      renderRecord();
      renderRequests();
      say("updated", "updated " + clock(Date.now()).slice(0, 8));
    } catch (err) {
      $("health").setAttribute("data-health", "down");
      say("health", "emulator unreachable");
      $("banner").hidden = false;
    } finally {
      st.busy = false;
    }
  }
  function schedule() {
    clearTimeout(st.timer);
    if (!st.live) return;
    st.timer = setTimeout(async function () { await refresh(); schedule(); }, POLL_MS);
  }

  // --- events ---------------------------------------------------------------------------------
  $("accounts").addEventListener("click", function (event) {
    var button = event.target.closest("button[data-account]");
    if (!button) return;
    st.account = button.getAttribute("data-account");
    history.replaceState(null, "", "#account=" + encodeURIComponent(st.account));
    renderAccounts();
    renderResources();
    loadOwners().then(renderResources);
  });
  ["resources", "unowned"].forEach(function (id) {
    $(id).addEventListener("click", function (event) {
      var row = event.target.closest("tr[data-uuid]");
      if (row) select(row);
    });
    $(id).addEventListener("keydown", function (event) {
      var row = event.target.closest("tr[data-uuid]");
      if (row && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); select(row); }
    });
  });
  $("faults-form").addEventListener("input", function () { st.faultsDirty = true; say("faults-status", "Not applied yet."); });
  $("faults-form").addEventListener("submit", async function (event) {
    event.preventDefault();
    var form = event.target, body = {};
    for (var i = 0; i < FAULT_FIELDS.length; i++) {
      var k = FAULT_FIELDS[i], raw = form.elements.namedItem(k).value.trim();
      if (raw === "") continue;
      var n = Number(raw);
      if (!isFinite(n)) { say("faults-status", k + ": not a number"); return; }
      body[k] = n;
    }
    await applyFaults(body, "Applied.");
  });
  $("faults-off").addEventListener("click", function () {
    applyFaults({ failRate: 0, throttleRate: 0, failAfterRate: 0, latencyMs: 0 }, "Random faults and latency off.");
  });
  $("fault-rules-body").addEventListener("click", async function (event) {
    var button = event.target.closest("button[data-remove-rule]");
    if (!button) return;
    var r = await call("DELETE", "faults/rules/" + encodeURIComponent(button.getAttribute("data-remove-rule")));
    say("faults-status", r.ok ? "Rule removed." : "Not removed: " + problem(r));
    if (r.ok) renderFaults(r.data);
  });
  $("log-filter").addEventListener("change", function (event) {
    st.logFilter = event.target.value.trim();
    st.log = []; st.logNext = undefined; st.logKey = "";
    refresh();
  });
  $("log-clear").addEventListener("click", function () {
    // Hides what was shown so far; the emulator keeps its log.
    st.log = []; st.logKey = "";
    renderRequests();
  });
  $("live").addEventListener("change", function (event) {
    st.live = event.target.checked;
    say("updated", st.live ? "" : "paused");
    if (st.live) refresh().then(schedule); else clearTimeout(st.timer);
  });
  $("reset").addEventListener("click", async function () {
    if (!confirm("Reset the emulator? Every account's resources, the jobs and the pending work are deleted.")) return;
    var r = await call("POST", "reset");
    say("control-status", r.ok ? "Reset: every account is empty." : "Reset failed: " + problem(r));
    st.selected = null;
    say("record-title", "Click a row to see its record.");
    $("record-json").textContent = "";
    await refresh();
  });
  $("snapshot-save").addEventListener("click", async function () {
    var r = await call("GET", "state");
    if (r.status === 404) { say("control-status", "Snapshots not available: this emulator has no GET /_emulator/state."); return; }
    if (!r.ok) { say("control-status", "Snapshot failed: " + problem(r)); return; }
    var stamp = new Date().toISOString().replace(/[:.]/g, "-").slice(0, 19);
    var url = URL.createObjectURL(new Blob([r.text], { type: "application/json" }));
    var a = document.createElement("a");
    a.href = url;
    a.download = "restcloud-emulator-" + stamp + ".json";
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
    say("control-status", "Snapshot saved as " + a.download + ".");
  });
  $("snapshot-file").addEventListener("change", async function (event) {
    var input = event.target, file = input.files && input.files[0];
    if (!file) return;
    var text = await file.text();
    input.value = "";
    try { JSON.parse(text); } catch (e) { say("control-status", "Not loaded: " + file.name + " is not JSON."); return; }
    var r = await call("PUT", "state", text);
    if (r.status === 404) { say("control-status", "Snapshots not available: this emulator has no PUT /_emulator/state."); return; }
    if (!r.ok) { say("control-status", "Not loaded: " + problem(r)); return; }
    var n = r.data && r.data.records;
    say("control-status", "Snapshot " + file.name + " loaded" + (n !== undefined ? ": " + (typeof n === "number" ? n + " records" : JSON.stringify(n)) : "") + ".");
    await refresh();
  });
  $("advance").addEventListener("click", async function () {
    var r = await call("POST", "advance", {});
    if (!available("jobs", r)) return;
    if (!r.ok) { say("jobs-status", "Not advanced: " + problem(r)); return; }
    var done = r.data && r.data.completed, left = r.data && r.data.pending;
    var count = function (x) { return Array.isArray(x) ? x.length : x === undefined ? 0 : x; };
    say("jobs-status", "Completed " + count(done) + "; " + count(left) + " pending.");
    await refresh();
  });

  refresh().then(schedule);
})();
`;

/** The console page: `GET /_emulator/`. */
export const CONSOLE_HTML = String.raw`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>RestCloud emulator console</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<header>
  <h1>RestCloud emulator</h1>
  <span id="health" role="status" data-health="unknown">connecting...</span>
  <span id="updated" aria-live="off"></span>
  <span class="spacer"></span>
  <label><input type="checkbox" id="live" checked> Auto-refresh</label>
  <button type="button" id="snapshot-save">Save snapshot</button>
  <label class="file">Load snapshot<input type="file" id="snapshot-file" accept="application/json,.json"></label>
  <button type="button" id="reset" class="danger">Reset</button>
  <p id="control-status" role="status" aria-live="polite"></p>
</header>
<p id="banner" role="alert" hidden>The emulator does not answer; retrying every second.</p>
<main>
  <div class="column">
    <section class="panel" id="accounts-panel" aria-labelledby="accounts-heading">
      <h2 id="accounts-heading">Accounts</h2>
      <nav aria-label="Accounts"><ul id="accounts"></ul></nav>
    </section>
    <section class="panel" id="faults-panel" aria-labelledby="faults-heading">
      <h2 id="faults-heading">Faults</h2>
      <p class="na" data-na-for="faults" hidden>Not available: this emulator has no /_emulator/faults.</p>
      <form id="faults-form" aria-label="Fault settings">
        <fieldset>
          <legend>Random faults</legend>
          <label>Fail rate (503) <input name="failRate" type="number" min="0" max="1" step="0.01" inputmode="decimal"></label>
          <label>Throttle rate (429) <input name="throttleRate" type="number" min="0" max="1" step="0.01" inputmode="decimal"></label>
          <label>Fail-after rate <input name="failAfterRate" type="number" min="0" max="1" step="0.01" inputmode="decimal"></label>
          <label>Latency (ms) <input name="latencyMs" type="number" min="0" step="1" inputmode="numeric"></label>
        </fieldset>
        <div class="form-buttons">
          <button type="submit" id="faults-apply">Apply</button>
          <button type="button" id="faults-off">All off</button>
        </div>
        <p id="faults-status" role="status" aria-live="polite"></p>
      </form>
      <h3>In effect</h3>
      <dl id="faults-current" aria-label="Fault settings in effect"></dl>
      <h3>Rules</h3>
      <table id="fault-rules" aria-label="Fault rules">
        <thead><tr><th scope="col">Id</th><th scope="col">Operation</th><th scope="col">Effect</th><th scope="col">Fired</th><th scope="col"><span class="muted">Remove</span></th></tr></thead>
        <tbody id="fault-rules-body"></tbody>
      </table>
      <h3>Fired</h3>
      <p id="fault-log" class="muted"></p>
    </section>
  </div>
  <div class="column">
    <section class="panel" id="unowned-panel" aria-labelledby="unowned-heading">
      <h2 id="unowned-heading">Records no stack owns <span id="unowned-count" class="count">&ndash;</span></h2>
      <p class="na" data-na-for="owners" hidden>Not available: this emulator has no /_emulator/owners.</p>
      <p class="muted">Records of account <span id="unowned-account">demo</span>, of a kind the API tags, that carry no <code>pulumi-owner</code> tag.</p>
      <div id="unowned" aria-live="off"><p class="empty">Loading...</p></div>
    </section>
    <section class="panel" id="resources-panel" aria-labelledby="resources-heading">
      <h2 id="resources-heading">Resources of <span id="resources-account">demo</span></h2>
      <div id="resources" aria-live="off"><p class="empty">Loading...</p></div>
    </section>
  </div>
  <div class="column">
    <section class="panel" id="record-panel" aria-labelledby="record-heading">
      <h2 id="record-heading">Record</h2>
      <p id="record-title" class="muted">Click a row to see its record.</p>
      <pre id="record-json" tabindex="0" aria-label="Record JSON"></pre>
    </section>
    <section class="panel" id="jobs-panel" aria-labelledby="jobs-heading">
      <h2 id="jobs-heading">Pending work</h2>
      <p class="na" data-na-for="jobs" hidden>Not available: this emulator has no /_emulator/jobs.</p>
      <p id="jobs-count" class="muted"></p>
      <p id="jobs-durations" class="muted"></p>
      <button type="button" id="advance">Advance: finish pending work now</button>
      <p id="jobs-status" role="status" aria-live="polite"></p>
      <ul id="jobs-list"></ul>
    </section>
  </div>
  <section class="panel" id="log-panel" aria-labelledby="log-heading">
    <h2 id="log-heading">Request log</h2>
    <p class="na" data-na-for="requests" hidden>Not available: this emulator has no /_emulator/requests.</p>
    <div class="log-tools">
      <label>Operation <input id="log-filter" type="search" list="operations" placeholder="e.g. createVpc" size="18"></label>
      <datalist id="operations"></datalist>
      <button type="button" id="log-clear">Clear view</button>
      <span id="request-count" class="muted"></span>
      <span id="stats" class="muted"></span>
      <span id="log-status" role="status"></span>
    </div>
    <div class="log-scroll">
      <table id="request-log">
        <caption class="muted">Newest first</caption>
        <thead><tr><th scope="col">#</th><th scope="col">Time</th><th scope="col">Account</th><th scope="col">Method</th><th scope="col">Operation</th><th scope="col">Path</th><th scope="col">Status</th><th scope="col">Fault</th><th scope="col">ms</th></tr></thead>
        <tbody id="request-log-body"></tbody>
      </table>
    </div>
  </section>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;

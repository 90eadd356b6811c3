// The Hermes console: one page, its views drawn from the console API. Every value from the
// server is put into the page as text (textContent, attributes), never as HTML.
"use strict";

const state = { session: null, pages: [] };

// ---- DOM helpers ---------------------------------------------------------------------------

function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function show(...nodes) {
  const main = document.getElementById("main");
  main.replaceChildren(...nodes);
}

function toast(message, isError) {
  const box = document.getElementById("toast");
  box.textContent = message;
  box.className = isError ? "error-toast" : "";
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 5000);
}

function time(ms) {
  if (ms === null || ms === undefined) return "";
  return new Date(ms).toISOString().replace("T", " ").replace("Z", "");
}

function number(value, digits) {
  if (value === null || value === undefined) return "–";
  return Number(value).toLocaleString("en-US", { maximumFractionDigits: digits === undefined ? 1 : digits });
}

function bytes(value) {
  if (value === null || value === undefined) return "–";
  const units = ["B", "KB", "MB", "GB", "TB"];
  let size = value, unit = 0;
  while (size >= 1024 && unit < units.length - 1) { size /= 1024; unit += 1; }
  return number(size) + " " + units[unit];
}

function table(headers, rows, onRow) {
  const body = el("tbody");
  for (const row of rows) {
    const tr = el("tr", onRow ? { class: "link", onclick: () => onRow(row.item) } : {}, row.cells.map((cell) => el("td", {}, cell)));
    body.append(tr);
  }
  return el("table", {}, el("thead", {}, el("tr", {}, headers.map((h) => el("th", {}, h)))), body);
}

// ---- API -----------------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, code, reason) { super(reason || code || String(status)); this.status = status; this.code = code; }
}

async function api(method, path, body, headers) {
  const options = { method, headers: Object.assign({}, headers || {}), credentials: "same-origin" };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  if (method !== "GET" && state.session) options.headers["X-CSRF-Token"] = state.session.csrf;
  const response = await fetch("/console/api" + path, options);
  const text = await response.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch (error) { json = null; }
  if (response.status === 401 && !path.startsWith("/sign-in") && !path.startsWith("/setup")) {
    state.session = null;
    location.hash = "#/sign-in";
    throw new ApiError(401, "unauthorized", "signed out");
  }
  if (!response.ok) throw new ApiError(response.status, json && json.error, json && json.reason);
  return json;
}

// A query string with every value percent-encoded (a space as %20: the server does not read "+" as a space).
function query(params) {
  const pairs = [];
  for (const [key, value] of Object.entries(params)) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one !== undefined && one !== null && one !== "") pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(one)}`);
    }
  }
  return pairs.length ? "?" + pairs.join("&") : "";
}

// ---- charts (SVG, no library) --------------------------------------------------------------

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, String(value));
  return node;
}

// A chart of one or more series over shared x values: lines, or stacked bars.
function chart(xs, series, options) {
  const width = 900, height = 160, left = 44, bottom = 18, top = 8;
  const root = svg("svg", { class: "chart", viewBox: `0 0 ${width} ${height}`, preserveAspectRatio: "none", role: "img" });
  const bars = options && options.bars;
  let maximum = 0;
  if (bars) {
    for (let i = 0; i < xs.length; i++) maximum = Math.max(maximum, series.reduce((sum, s) => sum + (s.values[i] || 0), 0));
  } else {
    for (const s of series) for (const v of s.values) if (v !== null) maximum = Math.max(maximum, v);
  }
  maximum = maximum || 1;
  const plotWidth = width - left - 4, plotHeight = height - top - bottom;
  const x = (i) => left + (xs.length <= 1 ? 0 : (i * plotWidth) / (xs.length - 1));
  const y = (v) => top + plotHeight - (v / maximum) * plotHeight;
  root.append(svg("line", { class: "axis", x1: left, y1: top + plotHeight, x2: width - 4, y2: top + plotHeight }));
  const label = svg("text", { x: 2, y: top + 8 });
  label.textContent = number(maximum, 0);
  root.append(label);
  for (const index of [0, xs.length - 1]) {
    if (xs[index] === undefined) continue;
    const tick = svg("text", { x: index === 0 ? left : width - 110, y: height - 4 });
    tick.textContent = time(xs[index]).slice(5, 16);
    root.append(tick);
  }
  if (bars) {
    const barWidth = Math.max(1, plotWidth / Math.max(xs.length, 1) - 1);
    for (let i = 0; i < xs.length; i++) {
      let base = 0;
      series.forEach((s, n) => {
        const value = s.values[i] || 0;
        if (!value) return;
        root.append(svg("rect", { class: `series-${n % 6}`, x: left + (i * plotWidth) / xs.length, y: y(base + value), width: barWidth, height: y(base) - y(base + value) }));
        base += value;
      });
    }
  } else {
    series.forEach((s, n) => {
      const points = s.values.map((v, i) => (v === null ? null : `${x(i)},${y(v)}`)).filter(Boolean).join(" ");
      if (points) root.append(svg("polyline", { class: `series-${n % 6}`, points }));
      // A dot on each value, so that a lone value shows too.
      s.values.forEach((v, i) => { if (v !== null) root.append(svg("circle", { class: `dot series-${n % 6}`, cx: x(i), cy: y(v), r: 2.5 })); });
    });
  }
  const legend = el("div", { class: "legend" }, series.map((s, n) => el("span", {}, el("span", { class: `swatch swatch-${n % 6}` }), s.name)));
  return el("div", {}, root, legend);
}

// ---- session -------------------------------------------------------------------------------

async function loadSession() {
  try {
    state.session = await api("GET", "/session");
  } catch (error) {
    state.session = null;
  }
  const signedIn = Boolean(state.session);
  document.getElementById("nav").hidden = !signedIn;
  document.getElementById("sign-out").hidden = !signedIn;
  document.getElementById("who").textContent = signedIn ? `${state.session.user} · ${state.session.role}` : "";
  document.getElementById("nav-users").hidden = !(signedIn && state.session.role === "admin");
}

function canEdit() { return state.session && (state.session.role === "editor" || state.session.role === "admin"); }

async function signInView() {
  const setup = await api("GET", "/setup");
  const message = el("p", { class: "error", id: "sign-in-error" });
  const name = el("input", { id: "name", name: "name", autocomplete: "username", required: true });
  const password = el("input", { id: "password", name: "password", type: "password", autocomplete: setup.needed ? "new-password" : "current-password", required: true });
  const token = el("input", { id: "token", name: "token", type: "password", autocomplete: "off" });
  const form = el("form", { class: "sign-in", id: "sign-in" },
    el("h1", {}, setup.needed ? "Make the first admin" : "Sign in"),
    setup.needed ? el("p", { class: "muted" }, "No console user exists yet. Enter the collector's admin token and choose the first admin's name and password (at least 10 characters).") : null,
    setup.needed ? el("label", {}, "Admin token", token) : null,
    el("label", {}, "User name", name),
    el("label", {}, "Password", password),
    el("button", { class: "primary", type: "submit", id: "sign-in-button" }, setup.needed ? "Create and sign in" : "Sign in"),
    message);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    message.textContent = "";
    try {
      const body = { name: name.value, password: password.value };
      if (setup.needed) body.token = token.value;
      state.session = await api("POST", setup.needed ? "/setup" : "/sign-in", body);
      await loadSession();
      location.hash = "#/overview";
    } catch (error) {
      message.textContent = error.message;
    }
  });
  show(form);
}

// ---- overview ------------------------------------------------------------------------------

async function overviewView() {
  const data = await api("GET", "/overview");
  const namespaces = Object.keys(data.minutes).sort();
  const nowMinute = Math.floor(data.now / 60000);
  const hourXs = [], dayXs = [];
  for (let m = nowMinute - 59; m <= nowMinute; m++) hourXs.push(m);
  for (let q = 0; q < 96; q++) dayXs.push(nowMinute - 1439 + q * 15);
  const hourSeries = [], daySeries = [];
  let lastHour = 0, lastFive = 0, lastDay = 0;
  for (const name of namespaces) {
    const counts = new Map(data.minutes[name].map(([minute, records]) => [minute, records]));
    const hour = hourXs.map((m) => counts.get(m) || 0);
    const day = dayXs.map((start) => { let sum = 0; for (let m = start; m < start + 15; m++) sum += counts.get(m) || 0; return sum; });
    lastHour += hour.reduce((a, b) => a + b, 0);
    lastFive += hour.slice(-5).reduce((a, b) => a + b, 0);
    lastDay += day.reduce((a, b) => a + b, 0);
    hourSeries.push({ name, values: hour });
    daySeries.push({ name, values: day });
  }
  const refusals = Object.entries(data.refusals).sort((a, b) => b[1] - a[1]);
  const rejected = Object.entries(data.rejectedRecords).sort((a, b) => b[1] - a[1]);
  const health = data.deliveryHealth;
  const lostTotal = health.lost.reduce((sum, row) => sum + row.lost, 0);
  show(
    el("h1", {}, "Overview"),
    el("div", { class: "cards" },
      card("Ingest, last 5 min", `${number(lastFive / 5)} /min`),
      card("Records, last hour", number(lastHour, 0)),
      card("Records, last 24 h", number(lastDay, 0)),
      card("Store size", bytes(data.storageBytes)),
      card("Lost on devices, 24 h", number(lostTotal, 0)),
      card("Queued on devices", number(health.queued, 0))),
    el("div", { class: "panel" }, el("h2", {}, "New records per minute, last hour"), chart(hourXs.map((m) => m * 60000), hourSeries, { bars: true })),
    el("div", { class: "panel" }, el("h2", {}, "New records per 15 minutes, last 24 hours"), chart(dayXs.map((m) => m * 60000), daySeries, { bars: true })),
    el("div", { class: "panel", id: "delivery-health" },
      el("h2", {}, "Delivery health reported by the SDKs (24 h)"),
      el("p", { class: "muted" }, `${number(health.reports, 0)} reports from ${number(health.devices, 0)} devices.`),
      health.lost.length ? table(["Reason", "App version", "Records lost"], health.lost.map((row) => ({ cells: [row.reason, row.appVersion, number(row.lost, 0)] })))
        : el("p", { class: "ok" }, "No records lost on devices.")),
    el("div", { class: "panel" },
      el("h2", {}, "Refused requests and rejected records (this collector, since it started)"),
      refusals.length || rejected.length
        ? table(["Kind", "Code", "Count"], refusals.map(([code, count]) => ({ cells: ["request", code, number(count, 0)] }))
          .concat(rejected.map(([code, count]) => ({ cells: ["record", code, number(count, 0)] }))))
        : el("p", { class: "muted" }, "None.")));
}

function card(title, value) {
  return el("div", { class: "card" }, el("div", { class: "muted" }, title), el("div", { class: "value" }, value));
}

// ---- records -------------------------------------------------------------------------------

const recordFilters = ["namespace", "type", "user", "session", "device", "appVersion", "meta", "since", "until"];

function recordRow(record) {
  return {
    item: record,
    cells: [time(record.createTime), record.namespace, record.type, record.user ?? "", record.session ?? "", record.device ?? "", record.appVersion ?? "", record.payloadBytes === null ? "" : bytes(record.payloadBytes)],
  };
}

const recordHeaders = ["Created", "Namespace", "Type", "User", "Session", "Device", "App version", "Payload"];

async function recordsView(params) {
  const filters = {};
  for (const key of recordFilters) filters[key] = params.get(key) || "";
  const inputs = {};
  const form = el("form", { class: "filters", id: "record-filters" },
    recordFilters.map((key) => {
      const placeholder = key === "meta" ? "key=value" : key === "since" || key === "until" ? "YYYY-MM-DD HH:MM" : "";
      inputs[key] = el("input", { name: key, id: `filter-${key}`, value: filters[key], placeholder, size: key === "meta" ? 18 : 12 });
      return el("label", {}, key === "appVersion" ? "app version" : key, inputs[key]);
    }),
    el("button", { class: "primary", type: "submit", id: "apply-filters" }, "Filter"),
    el("button", { type: "button", id: "live-tail", onclick: () => toggleTail() }, "Live tail"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const key of recordFilters) if (inputs[key].value) next.set(key, inputs[key].value);
    location.hash = "#/records" + (next.toString() ? "?" + next : "");
  });
  const apiParams = {};
  for (const key of recordFilters) {
    if (!filters[key]) continue;
    if (key === "since" || key === "until") {
      const parsed = Date.parse(filters[key].replace(" ", "T") + (filters[key].length <= 16 ? ":00Z" : "Z"));
      if (!Number.isNaN(parsed)) apiParams[key] = parsed;
    } else apiParams[key] = filters[key];
  }
  const status = el("p", { class: "muted", id: "records-status" });
  const body = el("tbody", { id: "records-body" });
  const tableNode = el("table", { id: "records-table" }, el("thead", {}, el("tr", {}, recordHeaders.map((h) => el("th", {}, h)))), body);
  const more = el("button", { type: "button", id: "next-page", hidden: true }, "Older records");
  const seen = new Set();
  let cursor = null;
  const open = (record) => { location.hash = `#/record/${record.key}`; };
  const append = (records, atTop) => {
    for (const record of records) {
      if (seen.has(record.key)) continue;
      seen.add(record.key);
      const row = recordRow(record);
      const tr = el("tr", { class: atTop ? "link fresh" : "link", "data-key": record.key, onclick: () => open(record) }, row.cells.map((c) => el("td", {}, c)));
      if (atTop) body.prepend(tr); else body.append(tr);
    }
  };
  const load = async () => {
    const page = await api("GET", "/records" + query(Object.assign({}, apiParams, { cursor })));
    append(page.records, false);
    cursor = page.next;
    more.hidden = !cursor;
    status.textContent = `${seen.size} records shown` + (cursor ? "; more below" : "");
  };
  more.addEventListener("click", () => load().catch((error) => toast(error.message, true)));
  let source = null;
  const toggleTail = () => {
    const button = document.getElementById("live-tail");
    if (source) {
      source.close();
      source = null;
      button.textContent = "Live tail";
      return;
    }
    source = new EventSource("/console/api/tail" + query(apiParams));
    state.pages.push(() => source && source.close());
    source.addEventListener("record", (event) => {
      append([JSON.parse(event.data)], true);
      status.textContent = `${seen.size} records shown; live`;
    });
    button.textContent = "Stop tail";
  };
  show(el("h1", {}, "Records"), el("div", { class: "panel" }, form), el("div", { class: "panel" }, status, tableNode, more));
  await load();
}

async function recordView(createTime, id) {
  const record = await api("GET", `/records/${createTime}/${id}`);
  const payload = record.payloadBytes === null ? el("p", { class: "muted" }, "No payload.")
    : el("div", {},
      el("div", { class: "actions" }, el("a", { href: `/console/api/records/${createTime}/${id}/payload`, id: "download-payload", download: "" }, `Download payload (${bytes(record.payloadBytes)})`)),
      record.payloadText !== null ? el("pre", { id: "payload-text" }, record.payloadText) : el("p", { class: "muted" }, "The payload is not text."));
  show(
    el("h1", {}, `${record.type} · ${record.namespace}`),
    el("div", { class: "panel" }, table(["Field", "Value"], [
      ["Report id", record.reportID], ["Created", time(record.createTime)], ["Received", time(record.receivedAt)],
      ["User", record.user ?? ""], ["Session", record.session ?? ""], ["Device", record.device ?? ""], ["App version", record.appVersion ?? ""], ["Batch", record.batchID ?? ""], ["App key id", record.appKeyID ?? ""],
    ].map((cells) => ({ cells })))),
    el("div", { class: "panel" }, el("h2", {}, "Meta"), el("pre", { id: "record-meta" }, JSON.stringify(record.meta, null, 2))),
    el("div", { class: "panel" }, el("h2", {}, "Payload"), payload));
}

// ---- crashes -------------------------------------------------------------------------------

async function crashesView(params) {
  const days = params.get("days") || "30";
  const data = await api("GET", `/crashes?days=${encodeURIComponent(days)}`);
  const picker = el("select", { id: "days", onchange: (event) => { location.hash = `#/crashes?days=${event.target.value}`; } },
    ["1", "7", "30", "90"].map((d) => el("option", { value: d, selected: d === days }, `last ${d} days`)));
  show(
    el("h1", {}, "Crashes ", picker),
    el("div", { class: "panel", id: "crash-groups" }, data.groups.length
      ? table(["Crash", "Crashes", "Users", "First seen", "Last seen", "App versions"], data.groups.map((group) => ({
        item: group,
        cells: [el("span", {}, el("strong", {}, group.title), group.culprit ? el("div", { class: "muted" }, group.culprit) : null), number(group.count, 0),
          number(group.usersAffected, 0), time(group.firstSeen), time(group.lastSeen), group.appVersions.join(", ")],
      })), (group) => { location.hash = `#/crash/${encodeURIComponent(group.signature)}?days=${days}`; })
      : el("p", { class: "ok" }, "No crashes in this period.")),
    el("p", { class: "muted" }, "Crashes are grouped by their signal and the top frames of the app's own code, a few seconds after they arrive."));
}

// The group's crashes per bucket from the window's start to now, empty buckets included.
function crashChart(data) {
  const counts = new Map(data.buckets.map(([start, count]) => [start, count]));
  const xs = [], values = [];
  for (let start = Math.floor(data.since / data.bucket) * data.bucket; start <= Date.now(); start += data.bucket) {
    xs.push(start);
    values.push(counts.get(start) || 0);
  }
  return chart(xs, [{ name: "crashes", values }], { bars: true });
}

async function crashView(signature, params) {
  const days = params.get("days") || "30";
  const data = await api("GET", `/crashes/${encodeURIComponent(signature)}?days=${encodeURIComponent(days)}`);
  const group = data.group;
  const latest = data.latest;
  show(
    el("h1", {}, group.title),
    el("div", { class: "cards" }, card("Crashes", number(group.count, 0)), card("Users affected", number(group.usersAffected, 0)),
      card("First seen", time(group.firstSeen)), card("Last seen", time(group.lastSeen)), card("App versions", group.appVersions.join(", ") || "–")),
    el("div", { class: "panel", id: "crash-chart" }, el("h2", {}, data.bucket === 3600000 ? "Crashes per hour" : "Crashes per day"),
      crashChart(data)),
    el("div", { class: "panel" }, el("h2", {}, "Latest crash"),
      latest ? el("div", {},
        el("p", {}, el("a", { href: `#/record/${latest.key}` }, `${time(latest.createTime)} · user ${latest.user ?? "–"} · app ${latest.appVersion ?? "–"} · device ${latest.device ?? "–"}`)),
        el("pre", { id: "crash-stack" }, latest.payloadText ?? "(the stack is not text)")) : el("p", { class: "muted" }, "No crash record.")),
    el("p", { class: "muted" }, `Signature ${group.signature}`));
}

// ---- performance ---------------------------------------------------------------------------

async function performanceView(params) {
  const hours = params.get("hours") || "24";
  const data = await api("GET", `/performance?hours=${encodeURIComponent(hours)}`);
  const picker = el("select", { id: "hours", onchange: (event) => { location.hash = `#/performance?hours=${event.target.value}`; } },
    ["1", "6", "24", "72", "168"].map((h) => el("option", { value: h, selected: h === hours }, `last ${h} h`)));
  show(
    el("h1", {}, "Performance ", picker),
    el("p", { class: "muted", id: "breakdown-since" }, `Tables count whole hours, from ${time(data.breakdownSince)}; percentiles within 5 %.`),
    el("div", { class: "panel", id: "launch" }, el("h2", {}, "Launch time (appBoot, ms)"),
      chart(data.buckets, [{ name: "p50", values: data.launch.p50Series }, { name: "p95", values: data.launch.p95Series }]),
      table(["App version", "Launches", "p50 ms", "p95 ms"], data.launch.byVersion.map((row) => ({ cells: [row.appVersion, number(row.count, 0), number(row.p50), number(row.p95)] })))),
    el("div", { class: "panel", id: "hangs" }, el("h2", {}, "Hangs (appLag)"),
      el("div", { class: "cards" }, card("Hangs", number(data.hangs.count, 0)), card("Time hung", `${number(data.hangs.totalMs / 1000)} s`), card("p95 duration", `${number(data.hangs.p95)} ms`)),
      chart(data.buckets, [{ name: "hangs", values: data.hangs.series }], { bars: true })),
    el("div", { class: "panel", id: "network" }, el("h2", {}, "Network (net, netError)"),
      chart(data.buckets, [{ name: "requests", values: data.network.requestSeries }, { name: "errors", values: data.network.errorSeries }]),
      table(["Host", "Path", "Requests", "Error rate", "p50 ms", "p95 ms"], data.network.routes.map((row) => ({
        cells: [row.host, row.path, number(row.requests, 0), `${number(row.errorRate * 100)} %`, number(row.p50), number(row.p95)],
      })))));
}

// ---- namespaces ----------------------------------------------------------------------------

async function namespacesView() {
  const data = await api("GET", "/namespaces");
  show(
    el("h1", {}, `Namespaces (revision ${data.revision})`),
    el("div", { class: "panel" }, table(["Namespace", "Gathering", "Uploading", "Types", "Sample rates"], data.namespaces.map((ns) => ({
      item: ns,
      cells: [ns.name, ns.configuration.isGather ? "on" : "off", ns.configuration.isUpload ? "on" : "off", ns.configuration.monitorList.map((m) => m.type).join(", "),
        ns.configuration.monitorList.map((m) => `${m.type} ${m.sampleRate}`).join(", ")],
    })), (ns) => { location.hash = `#/namespace/${encodeURIComponent(ns.name)}`; })),
    canEdit() ? el("div", { class: "actions" }, el("input", { id: "new-namespace", placeholder: "new namespace name" }),
      el("button", { type: "button", onclick: () => { const name = document.getElementById("new-namespace").value.trim(); if (name) location.hash = `#/namespace/${encodeURIComponent(name)}`; } }, "Create")) : null);
}

const numberFields = ["maxBodyMByte", "periodicTimerSecond", "maxItem", "maxFlowMByte", "expirationDay", "maxCacheCount", "flushCount", "maxMetaKByte"];
const switchFields = ["isGather", "isUpload", "isUpdateClear"];
const itemSwitches = ["onlyWifi", "isRealtime", "isUploadPayload"];

function rangeText(guide) {
  if (!guide || guide.upper === undefined) return "";
  return `${guide.lowerIsOpen ? "(" : "["}${guide.lower}, ${guide.upper}] · default ${guide.default}`;
}

async function namespaceView(name) {
  const data = await api("GET", "/namespaces");
  const existing = data.namespaces.find((ns) => ns.name === name);
  const guides = Object.fromEntries(data.fields.map((f) => [f.name, f]));
  let etag = existing ? existing.etag : "absent";
  const base = existing ? existing.configuration : { isGather: true, isUpload: true, isUpdateClear: false, monitorList: [] };
  const editable = canEdit();
  const inputs = {};
  const rows = [];
  for (const field of switchFields) {
    inputs[field] = el("input", { type: "checkbox", id: `field-${field}`, checked: base[field] ?? guides[field]?.default, disabled: !editable });
    rows.push(el("div", { class: "field-row" }, el("strong", {}, field), inputs[field], el("span", { class: "range" }, guides[field]?.help || "")));
  }
  for (const field of numberFields) {
    inputs[field] = el("input", { type: "number", step: "any", id: `field-${field}`, value: base[field] ?? guides[field]?.default, disabled: !editable });
    rows.push(el("div", { class: "field-row" }, el("strong", {}, field), inputs[field], el("span", { class: "range" }, `${guides[field]?.help || ""} ${rangeText(guides[field])}`)));
  }
  const items = el("tbody", { id: "monitor-items" });
  const addItem = (item) => {
    const cells = {
      type: el("input", { value: item.type || "", class: "item-type", disabled: !editable, size: 14 }),
      sampleRate: el("input", { type: "number", step: "any", value: item.sampleRate ?? 1, class: "item-sampleRate", disabled: !editable, size: 5 }),
    };
    for (const flag of itemSwitches) cells[flag] = el("input", { type: "checkbox", class: `item-${flag}`, checked: item[flag] ?? guides[flag]?.default, disabled: !editable });
    const tr = el("tr", {}, el("td", {}, cells.type), el("td", {}, cells.sampleRate), itemSwitches.map((flag) => el("td", {}, cells[flag])),
      el("td", {}, editable ? el("button", { type: "button", onclick: () => tr.remove() }, "Remove") : null));
    tr.cells_ = cells;
    items.append(tr);
  };
  (base.monitorList || []).forEach(addItem);
  // Overrides for some devices (app versions, device ids, a share of devices), as JSON.
  const overrides = el("textarea", { id: "field-overrides", rows: 6, cols: 80, disabled: !editable, placeholder: '[{"name": "rollout", "percentage": 10, "set": {"maxItem": 50}}]' });
  overrides.value = base.overrides ? JSON.stringify(base.overrides, null, 2) : "";
  const collect = () => {
    const configuration = {};
    for (const field of switchFields) configuration[field] = inputs[field].checked;
    for (const field of numberFields) configuration[field] = Number(inputs[field].value);
    configuration.monitorList = Array.from(items.children).map((tr) => {
      const item = { type: tr.cells_.type.value.trim(), sampleRate: Number(tr.cells_.sampleRate.value) };
      for (const flag of itemSwitches) item[flag] = tr.cells_[flag].checked;
      return item;
    });
    if (existing && existing.configuration.url) configuration.url = existing.configuration.url;
    if (overrides.value.trim()) {
      try { configuration.overrides = JSON.parse(overrides.value); } catch { throw new Error("The overrides are not valid JSON."); }
    }
    return configuration;
  };
  const result = el("div", { id: "editor-result" });
  const preview = async () => {
    const answer = await api("POST", `/namespaces/${encodeURIComponent(name)}/preview`, { configuration: collect() });
    result.replaceChildren(el("h2", {}, "What will be saved"),
      answer.adjustments.length ? el("ul", { class: "error", id: "adjustments" }, answer.adjustments.map((a) => el("li", {}, `${a.field}: ${a.original} is out of range; ${a.adjusted} will be used`))) : el("p", { class: "ok" }, "Every value is in range."),
      el("pre", {}, JSON.stringify(answer.configuration, null, 2)));
  };
  const save = async () => {
    try {
      const answer = await api("PUT", `/namespaces/${encodeURIComponent(name)}`, { configuration: collect(), etag });
      etag = answer.etag;
      result.replaceChildren(el("p", { class: "ok", id: "saved" }, `Saved as revision ${answer.revision}. Running SDKs apply it at their next configuration fetch.`));
      loadHistory();
    } catch (error) {
      if (error.code !== "editConflict") throw error;
      const latest = (await api("GET", "/namespaces")).namespaces.find((ns) => ns.name === name);
      result.replaceChildren(el("div", { id: "conflict" },
        el("p", { class: "error" }, "Someone else saved this namespace since you opened it. Their version and yours differ as shown; reload to start from theirs."),
        diff(latest ? latest.configuration : null, collect()),
        el("button", { type: "button", onclick: () => route() }, "Reload theirs")));
    }
  };
  const history = el("div", { id: "history" });
  const loadHistory = async () => {
    const changes = (await api("GET", `/namespaces/${encodeURIComponent(name)}/history`)).changes;
    history.replaceChildren(changes.length ? table(["When", "Who", "Revision", "What changed", ""], changes.map((change) => ({
      cells: [time(change.changedAt), change.author, String(change.revision), changedFields(change.before, change.after).join(", ") || "(nothing)",
        editable ? el("button", { type: "button", class: "revert", onclick: async (event) => {
          event.stopPropagation();
          try {
            const answer = await api("POST", `/changes/${change.id}/revert`, { etag });
            toast(`Reverted: revision ${answer.revision}`);
            route();
          } catch (error) { toast(error.code === "editConflict" ? "The namespace changed since you opened it; reload first." : error.message, true); }
        } }, "Revert") : ""],
    }))) : el("p", { class: "muted" }, "No changes recorded."));
  };
  show(
    el("h1", {}, `Namespace ${name}`, existing ? "" : " (new)"),
    el("div", { class: "panel", id: "editor" }, rows,
      el("h2", {}, "Monitor list"),
      el("table", {}, el("thead", {}, el("tr", {}, ["Type", "Sample rate", "Wi-Fi only", "Realtime", "Upload payload", ""].map((h) => el("th", {}, h)))), items),
      el("h2", {}, "Overrides"),
      el("p", { class: "muted" }, "Fields set for some devices only: appVersions, deviceIDs, a percentage of devices (the same devices each time), in order, a later one over an earlier one."),
      overrides,
      editable ? el("div", { class: "actions" },
        el("button", { type: "button", onclick: () => addItem({ type: "" }) }, "Add type"),
        el("button", { type: "button", id: "preview", onclick: () => preview().catch((e) => toast(e.message, true)) }, "Preview"),
        el("button", { type: "button", class: "primary", id: "save", onclick: () => save().catch((e) => toast(e.message, true)) }, "Save")) : el("p", { class: "muted" }, "Viewers cannot edit namespaces."),
      result),
    el("div", { class: "panel" }, el("h2", {}, "History"), history));
  await loadHistory();
}

function changedFields(before, after) {
  const keys = new Set([...Object.keys(before || {}), ...Object.keys(after || {})]);
  return Array.from(keys).filter((key) => JSON.stringify((before || {})[key]) !== JSON.stringify((after || {})[key])).sort();
}

function diff(theirs, mine) {
  const keys = changedFields(theirs, mine);
  return table(["Field", "Saved now", "Yours"], keys.map((key) => ({
    cells: [key, el("span", { class: "diff-old" }, JSON.stringify((theirs || {})[key])), el("span", { class: "diff-new" }, JSON.stringify(mine[key]))],
  })));
}

// ---- alerts --------------------------------------------------------------------------------

function describeKind(kind) {
  switch (kind.type) {
    case "newCrashGroup": return "a new crash group";
    case "crashRate": return `more than ${kind.threshold} crashes in ${kind.windowMinutes} min`;
    case "silence": return `no ${kind.namespace} records for ${kind.windowMinutes} min`;
    case "rejections": return `more than ${kind.threshold} refused requests in ${kind.windowMinutes} min`;
    default: return kind.type;
  }
}

async function alertsView() {
  const data = await api("GET", "/alerts");
  const editable = canEdit();
  const name = el("input", { id: "alert-name", placeholder: "rule name", size: 20 });
  const kind = el("select", { id: "alert-kind" },
    [["crashRate", "crashes above a threshold"], ["newCrashGroup", "a new crash group"], ["silence", "a namespace goes silent"], ["rejections", "refused requests above a threshold"]]
      .map(([value, label]) => el("option", { value }, label)));
  const threshold = el("input", { id: "alert-threshold", type: "number", value: "10", size: 6 });
  const minutes = el("input", { id: "alert-minutes", type: "number", value: "5", size: 6 });
  const namespace = el("input", { id: "alert-namespace", placeholder: "namespace", size: 10 });
  const webhook = el("input", { id: "alert-webhook", placeholder: "https://… (optional)", size: 34 });
  const save = async () => {
    const type = kind.value;
    const body = { type };
    if (type === "crashRate" || type === "rejections") Object.assign(body, { threshold: Number(threshold.value), windowMinutes: Number(minutes.value) });
    if (type === "silence") Object.assign(body, { namespace: namespace.value, windowMinutes: Number(minutes.value) });
    await api("POST", "/alerts", { name: name.value, kind: body, enabled: true, webhookURL: webhook.value || null });
    toast("Rule saved");
    route();
  };
  const states = data.states || {};
  const rows = data.rules.map((rule) => {
    const state = states[rule.id];
    const secret = rule.secret === undefined ? el("span", { class: "muted" }, "(editors only)") : el("span", { class: "secret", "data-secret": rule.secret }, "••••••");
    const reveal = rule.secret === undefined ? "" : el("button", { type: "button", onclick: () => { secret.textContent = rule.secret; } }, "Show secret");
    const actions = editable ? el("span", { class: "actions" },
      el("button", { type: "button", class: "send-test", onclick: async () => {
        const outcome = await api("POST", `/alerts/${rule.id}/test`);
        toast(`Test delivery: ${outcome.status}${outcome.responseStatus ? " (HTTP " + outcome.responseStatus + ")" : ""}${outcome.lastError ? " · " + outcome.lastError : ""}`, outcome.status !== "delivered");
      } }, "Send a test"),
      el("button", { type: "button", class: "danger", onclick: async () => { await api("DELETE", `/alerts/${rule.id}`); route(); } }, "Delete")) : "";
    return { cells: [rule.name, describeKind(rule.kind), state ? `${state.status} since ${time(state.since)}` : "not evaluated yet", rule.webhookURL || "(log only)", el("span", {}, secret, " ", reveal), actions] };
  });
  const history = data.history.map((firing) => ({
    cells: [time(firing.payload.time), firing.payload.ruleName, firing.payload.state, String(firing.payload.value), `${firing.delivery.status}${firing.delivery.attempts ? " after " + firing.delivery.attempts + " attempt(s)" : ""}`],
  }));
  show(
    el("h1", {}, "Alerts"),
    editable ? el("div", { class: "panel" }, el("h2", {}, "New rule"),
      el("form", { class: "filters", id: "alert-form", onsubmit: (event) => { event.preventDefault(); save().catch((e) => toast(e.message, true)); } },
        el("label", {}, "name", name), el("label", {}, "when", kind), el("label", {}, "threshold", threshold), el("label", {}, "minutes", minutes),
        el("label", {}, "namespace (silence)", namespace), el("label", {}, "webhook", webhook),
        el("button", { class: "primary", type: "submit", id: "alert-save" }, "Save rule"))) : null,
    el("div", { class: "panel" }, el("h2", {}, "Rules"), el("div", { id: "alert-rules" },
      rows.length ? table(["Name", "Fires on", "State", "Webhook", "Signing secret", ""], rows) : el("p", { class: "muted" }, "No rules yet."))),
    el("div", { class: "panel" }, el("h2", {}, "History"), el("div", { id: "alert-history" },
      history.length ? table(["When", "Rule", "State", "Value", "Delivery"], history) : el("p", { class: "muted" }, "Nothing fired yet."))),
    el("p", { class: "muted" }, "Webhooks get JSON signed with HMAC-SHA256 over the body (X-Hermes-Signature: sha256=…), retried with backoff; every firing is also logged."));
}

// ---- sync ----------------------------------------------------------------------------------

async function syncView() {
  const data = await api("GET", "/sync");
  if (!data.served) {
    show(el("h1", {}, "Sync"), el("p", { class: "muted", id: "sync-off" }, "This collector does not serve record sync (start it with --sync-schema)."));
    return;
  }
  const live = data.types.reduce((sum, t) => sum + t.live, 0);
  show(
    el("h1", {}, "Sync"),
    el("div", { class: "cards" }, card("Revision", number(data.revision, 0)), card("Live records", number(live, 0)), card("Devices", number(data.devices.length, 0))),
    el("div", { class: "panel", id: "sync-types" }, el("h2", {}, "Types"),
      table(["Type", "Live records", "Tombstones"], data.types.map((t) => ({ cells: [t.type, number(t.live, 0), number(t.deleted, 0)] })))),
    el("div", { class: "panel", id: "sync-recent" }, el("h2", {}, "Recent change sets"),
      table(["Received", "Device", "Sequence", "Records", "Outcome"], data.recent.map((o) => ({
        cells: [time(o.receivedAt), o.clientID, String(o.sequence), String(o.entries), o.conflict ? el("span", { class: "error" }, `conflict: ${o.conflict}`) : el("span", { class: "ok" }, `revision ${o.revision}`)],
      })))),
    el("div", { class: "panel", id: "sync-devices" }, el("h2", {}, "Devices"),
      table(["Device", "Last exchange", "Change sets", "Conflicts"], data.devices.map((d) => ({ cells: [d.clientID, time(d.lastExchange), number(d.changeSets, 0), number(d.conflicts, 0)] })))));
}

// ---- users ---------------------------------------------------------------------------------

async function usersView() {
  const data = await api("GET", "/users");
  const name = el("input", { id: "user-name", placeholder: "name" });
  const role = el("select", { id: "user-role" }, ["viewer", "editor", "admin"].map((r) => el("option", { value: r }, r)));
  const password = el("input", { id: "user-password", type: "password", placeholder: "password (10+ characters)", autocomplete: "new-password" });
  show(
    el("h1", {}, "Users"),
    el("div", { class: "panel" }, table(["Name", "Role", "Created", ""], data.users.map((user) => ({
      cells: [user.name, user.role, time(user.createdAt), user.name === state.session.user ? "" : el("button", { type: "button", class: "danger", onclick: async () => {
        await api("DELETE", `/users/${encodeURIComponent(user.name)}`);
        route();
      } }, "Remove")],
    })))),
    el("div", { class: "panel" }, el("h2", {}, "Add or change a user"), el("div", { class: "actions" }, name, role, password,
      el("button", { type: "button", class: "primary", id: "add-user", onclick: async () => {
        try {
          await api("POST", "/users", { name: name.value, role: role.value, password: password.value });
          toast(`Saved ${name.value}`);
          route();
        } catch (error) { toast(error.message, true); }
      } }, "Save"))));
}

// ---- routing -------------------------------------------------------------------------------

const views = {
  "sign-in": () => signInView(),
  overview: () => overviewView(),
  records: (parts, params) => recordsView(params),
  record: (parts) => recordView(parts[1], parts[2]),
  performance: (parts, params) => performanceView(params),
  namespaces: () => namespacesView(),
  namespace: (parts) => namespaceView(decodeURIComponent(parts[1] || "")),
  users: () => usersView(),
  sync: () => syncView(),
  crashes: (parts, params) => crashesView(params),
  crash: (parts, params) => crashView(decodeURIComponent(parts[1] || ""), params),
  alerts: () => alertsView(),
};

function register(name, view) { views[name] = view; }

async function route() {
  for (const stop of state.pages.splice(0)) stop();
  const hash = location.hash.replace(/^#\/?/, "") || "overview";
  const [path, search] = hash.split("?");
  const parts = path.split("/");
  const params = new URLSearchParams(search || "");
  if (!state.session && parts[0] !== "sign-in") {
    await loadSession();
    if (!state.session) { location.hash = "#/sign-in"; return; }
  }
  for (const link of document.querySelectorAll("#nav a")) link.classList.toggle("active", link.dataset.page === parts[0] || link.dataset.page + "s" === parts[0] || link.dataset.page === parts[0] + "s");
  const view = views[parts[0]] || views.overview;
  try {
    await view(parts, params);
  } catch (error) {
    if (error.status !== 401) show(el("h1", {}, "Something went wrong"), el("p", { class: "error" }, error.message));
  }
}

document.addEventListener("DOMContentLoaded", () => {
  document.getElementById("sign-out").addEventListener("click", async () => {
    await api("POST", "/sign-out").catch(() => null);
    state.session = null;
    await loadSession();
    location.hash = "#/sign-in";
  });
  window.addEventListener("hashchange", route);
  loadSession().then(route);
});

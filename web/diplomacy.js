"use strict";
// The Diplomacy page: you play one power against six bots through `kibitz serve`'s Diplomacy
// API (docs/serve.md). The server keeps the game and checks every order; this page draws the
// map (diplomacy_map.js, made by scripts/diplomacy_map.py), turns clicks into orders chosen
// from the server's list of each unit's legal orders, and draws what the last phases did.

const MAP = DIPLOMACY_MAP;
const SVG_NS = "http://www.w3.org/2000/svg";
const $ = id => document.getElementById(id);
const POWER_COLOURS = {
  Austria: "#c8473d", England: "#2d4f9e", France: "#3fa0d8", Germany: "#5a5a5a",
  Italy: "#3a9a4a", Russia: "#8a5bb0", Turkey: "#d9a521",
};

const ui = {
  view: null,
  id: null,
  picked: null,     // the province of the unit being ordered
  aux: null,        // support / convoy: the province of the unit supported or convoyed
  polling: false,
};

function showError(e) {
  $("error").textContent = e ? (e.message || String(e)) : "";
}

function el(parent, tag, attrs = {}, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  parent.appendChild(node);
  return node;
}

// --- orders as text ---------------------------------------------------------------------
// The server writes orders in standard notation ("A PAR S A MAR - BUR", "F MAO - SPA/NC",
// "A PAR R BUR", "A PAR B", "WAIVE"); these are the parts a click has to match.
function province(loc) { return loc.split("/")[0].toLowerCase(); }

function parseOrder(text) {
  const t = text.trim().split(/\s+/);
  if (t[0] === "WAIVE") return {verb: "WAIVE"};
  const o = {unit: t[0], at: province(t[1]), loc: t[1].toLowerCase(), verb: t[2]};
  if (o.verb === "-" || o.verb === "R") {
    o.to = province(t[3]);
    o.toLoc = t[3].toLowerCase();
  } else if (o.verb === "S" || o.verb === "C") {
    o.aux = province(t[4]);
    o.auxLoc = t[4].toLowerCase();
    if (t[5] === "-") {
      o.to = province(t[6]);
      o.toLoc = t[6].toLowerCase();
    }
  }
  return o;
}

// Where a location's unit is drawn: a split coast's own point, else the province's.
function point(loc) {
  loc = loc.toLowerCase();
  if (MAP.coasts[loc]) return MAP.coasts[loc];
  return MAP.provinces[province(loc)].unit;
}

// --- the orders being written -----------------------------------------------------------
function orderRows() {
  return Array.from(document.querySelectorAll("#orders select"));
}

function currentOrders() {
  return orderRows().map(s => s.value).filter(v => v);
}

function mode() {
  return document.querySelector("input[name=mode]:checked").value;
}

function hint(text) { $("hint").textContent = text; }

// The row a click sets: the unit's own row; in winter the first row not yet set (or the
// row that already names this province).
function rowFor(prov) {
  const rows = orderRows();
  if (ui.view.adjust) {
    const same = rows.find(s => s.value && parseOrder(s.value).at === prov);
    return same || rows.find(s => !s.value) || null;
  }
  return rows.find(s => s.dataset.province === prov) || null;
}

function setOrder(prov, text) {
  const row = rowFor(prov);
  if (!row) {
    showError(new Error("no order left to give this winter"));
    return;
  }
  row.value = text;
  showError(null);
  draw();
}

function unitAt(prov) {
  return ui.view.units.find(u => province(u.loc) === prov);
}

function clickProvince(prov) {
  const v = ui.view;
  if (!v || !v.to_order) return;
  if (v.adjust) {
    // Winter: a click on a free home centre builds (an army where one can stand, else a
    // fleet); a click on your unit disbands it.
    const mine = v.adjust.orders.map(parseOrder).filter(o => o.at === prov);
    if (!mine.length) {
      hint(`${prov.toUpperCase()}: nothing to ${v.adjust.count > 0 ? "build" : "disband"} there`);
      return;
    }
    const row = rowFor(prov);
    const cur = row && row.value ? v.adjust.orders.indexOf(row.value) : -1;
    // A second click on the same centre switches to its next build (army, fleet, coasts).
    const options = v.adjust.orders.filter(t => parseOrder(t).at === prov);
    const next = options[(options.indexOf(v.adjust.orders[cur]) + 1) % options.length];
    setOrder(prov, next);
    return;
  }
  const choices = v.choices;
  if (ui.picked === null) {
    if (choices[prov]) {
      ui.picked = prov;
      ui.aux = null;
      hint(`${unitName(prov)}: click where it goes, itself to hold` +
           (mode() !== "move" ? ", or the unit it helps" : ""));
      draw();
    }
    return;
  }
  const from = ui.picked;
  const list = choices[from].map(t => [t, parseOrder(t)]);
  const pick = pred => {
    const hit = list.find(([, o]) => pred(o));
    return hit ? hit[0] : null;
  };
  let order = null;
  if (mode() === "move" || prov === from) {
    order = prov === from ? pick(o => o.verb === "H" || o.verb === "D")
                          : pick(o => (o.verb === "-" || o.verb === "R") && o.to === prov);
  } else if (ui.aux === null) {
    // The first click after the unit: the unit it supports or convoys.
    const verb = mode() === "support" ? "S" : "C";
    if (list.some(([, o]) => o.verb === verb && o.aux === prov)) {
      ui.aux = prov;
      hint(`${unitName(from)} ${verb === "S" ? "supports" : "convoys"} ${prov.toUpperCase()}: ` +
           `click where it goes${verb === "S" ? ", or it again to support it holding" : ""}`);
      draw();
      return;
    }
  } else {
    const verb = mode() === "support" ? "S" : "C";
    order = prov === ui.aux ? pick(o => o.verb === verb && o.aux === ui.aux && !o.to)
                            : pick(o => o.verb === verb && o.aux === ui.aux && o.to === prov);
  }
  if (!order) {
    hint(`${unitName(from)} cannot do that: pick another province, or the unit again`);
    ui.picked = null;
    ui.aux = null;
    draw();
    return;
  }
  ui.picked = null;
  ui.aux = null;
  hint("");
  setOrder(from, order);
}

function unitName(prov) {
  const u = ui.view.phase.endsWith("R")
    ? ui.view.dislodged.find(d => province(d.loc) === prov) : unitAt(prov);
  return u ? `${u.type} ${u.loc.toUpperCase()}` : prov.toUpperCase();
}

// --- drawing ----------------------------------------------------------------------------
// Arrow heads, one per kind of line (a marker cannot take its line's colour everywhere).
const HEADS = {ok: "#1d232a", failed: "#b3261e", mine: "#f6f4ef"};

function arrow(g, a, b, cls, shorten = 11) {
  const dx = b[0] - a[0], dy = b[1] - a[1], len = Math.hypot(dx, dy) || 1;
  const end = [b[0] - dx / len * shorten, b[1] - dy / len * shorten];
  const kind = Object.keys(HEADS).find(k => cls.split(" ").includes(k));
  el(g, "line", {x1: a[0], y1: a[1], x2: end[0], y2: end[1], class: cls,
                 "marker-end": `url(#head-${kind})`});
  return end;
}

function cross(g, p) {
  const s = 6;
  el(g, "path", {d: `M${p[0] - s} ${p[1] - s}L${p[0] + s} ${p[1] + s}M${p[0] + s} ${p[1] - s}L${p[0] - s} ${p[1] + s}`,
                 class: "failed-mark"});
}

// Draws orders (the server's text) as arrows: moves, supports to the middle of the move they
// support, convoys; a failed order ends in a cross when `results`.
function drawOrders(g, orders, results) {
  for (const {order, ok, power} of orders) {
    const o = parseOrder(order);
    if (!o.loc) continue;
    const cls = `order ${results ? (ok ? "ok" : "failed") : "mine"}`;
    const at = point(o.loc);
    let end = null;
    if (o.verb === "-" || o.verb === "R") {
      end = arrow(g, at, point(o.toLoc), cls + " move");
    } else if (o.verb === "S" || o.verb === "C") {
      const aux = point(o.auxLoc);
      const target = o.to ? [(aux[0] + point(o.toLoc)[0]) / 2, (aux[1] + point(o.toLoc)[1]) / 2] : aux;
      end = arrow(g, at, target, cls + (o.verb === "S" ? " support" : " convoy"), o.to ? 2 : 12);
    } else if (o.verb === "H") {
      el(g, "circle", {cx: at[0], cy: at[1], r: 13, class: cls + " hold"});
      end = [at[0] + 9, at[1] - 9];
    } else if (o.verb === "D") {
      end = at;
    }
    if (results && !ok && end) cross(g, end);
    if (power) g.lastChild.setAttribute("data-power", power);
  }
}

function unitToken(g, loc, type, power, extra = "", dx = 0, dy = 0) {
  const [x, y] = point(loc);
  const t = el(g, "g", {class: `unit ${extra}`, "data-loc": loc.toLowerCase(), "data-power": power,
                        transform: `translate(${x + dx} ${y + dy})`});
  if (type === "A") el(t, "circle", {r: 8.5, fill: POWER_COLOURS[power]});
  else el(t, "rect", {x: -9, y: -6.5, width: 18, height: 13, rx: 3, fill: POWER_COLOURS[power]});
  el(t, "text", {y: 4}, type);
  return t;
}

function draw() {
  const svg = $("map");
  svg.textContent = "";
  svg.setAttribute("viewBox", `0 0 ${MAP.width} ${MAP.height}`);
  const defs = el(svg, "defs");
  for (const [kind, colour] of Object.entries(HEADS)) {
    const head = el(defs, "marker", {id: `head-${kind}`, viewBox: "0 0 10 10", refX: 6, refY: 5,
                                     markerWidth: 4, markerHeight: 4, orient: "auto"});
    el(head, "path", {d: "M0 0L10 5L0 10z", fill: colour});
  }
  const v = ui.view;
  const owners = v ? v.owners : {};
  const lands = el(svg, "g", {class: "provinces"});
  for (const [abbr, p] of Object.entries(MAP.provinces)) {
    const owner = owners[abbr];
    const attrs = {d: p.path, class: `province ${p.type}`, "data-province": abbr};
    if (owner && p.type !== "sea") attrs.style = `fill: ${POWER_COLOURS[owner]}55`;
    if (v && (v.choices[abbr] || (v.adjust && v.adjust.orders.some(t => parseOrder(t).at === abbr))))
      attrs.class += " orderable";
    if (ui.picked === abbr || ui.aux === abbr) attrs.class += " picked";
    const path = el(lands, "path", attrs);
    path.addEventListener("click", () => clickProvince(abbr));
  }
  for (const d of MAP.impassable) el(svg, "path", {d, class: "impassable"});
  el(svg, "path", {d: MAP.borders, class: "borders"});
  el(svg, "path", {d: MAP.coastline, class: "coastline"});
  const marks = el(svg, "g", {class: "marks"});
  for (const [abbr, p] of Object.entries(MAP.provinces))
    el(marks, "text", {x: p.label[0], y: p.label[1], class: "abbr"}, abbr.toUpperCase());
  for (const [abbr, [x, y]] of Object.entries(MAP.centres)) {
    const owner = owners[abbr];
    el(marks, "circle", {cx: x, cy: y, r: 4.5, class: "centre", "data-centre": abbr,
                         fill: owner ? POWER_COLOURS[owner] : "#fff"});
  }
  if (!v) return;
  // What the last phases did (before the units, so the tokens stay readable).
  if ($("show-last").checked) {
    const g = el(svg, "g", {class: "results"});
    const moves = v.last.filter(p => p.phase.endsWith("M"));
    const last = moves.length ? moves[moves.length - 1] : null;
    if (last) {
      for (const prov of last.standoffs) {
        const p = MAP.provinces[prov];
        el(g, "path", {d: p.path, class: "standoff", "data-standoff": prov});
      }
      drawOrders(g, last.orders, true);
    }
  }
  const units = el(svg, "g", {class: "units"});
  for (const u of v.units) unitToken(units, u.loc, u.type, u.power);
  // Dislodged units wait beside their province for their retreat.
  for (const d of v.dislodged) unitToken(units, d.loc, d.type, d.power, "dislodged", 10, 10);
  // The orders being written.
  const mine = el(svg, "g", {class: "mine"});
  drawOrders(mine, currentOrders().filter(t => t !== "WAIVE").map(order => ({order})), false);
  svg.setAttribute("data-phase", v.phase);
  svg.setAttribute("data-version", v.version);
}

// --- the panel --------------------------------------------------------------------------
function fillOrders() {
  const v = ui.view;
  const table = $("orders");
  table.textContent = "";
  const addRow = (label, options, prov, value) => {
    const tr = table.insertRow();
    tr.insertCell().textContent = label;
    const sel = document.createElement("select");
    if (prov) sel.dataset.province = prov;
    for (const t of options) {
      const opt = document.createElement("option");
      opt.value = t;
      opt.textContent = t || "(none)";
      sel.appendChild(opt);
    }
    sel.value = value;
    sel.addEventListener("change", draw);
    tr.insertCell().appendChild(sel);
  };
  if (!v.to_order) return;
  if (v.adjust) {
    const n = v.adjust.orders_needed;
    for (let i = 0; i < n; i++)
      addRow(v.adjust.count > 0 ? `build ${i + 1}` : `disband ${i + 1}`, ["", ...v.adjust.orders],
             null, "");
  } else {
    for (const [prov, list] of Object.entries(v.choices)) {
      // Hold (or disband, in a retreat) unless a click says otherwise.
      const stay = list.find(t => / [HD]$/.test(t)) || list[0];
      addRow(unitName(prov), list, prov, stay);
    }
  }
}

function showCentres() {
  const v = ui.view, table = $("centres");
  table.textContent = "";
  const units = {};
  for (const u of v.units) units[u.power] = (units[u.power] || 0) + 1;
  for (const [power, n] of Object.entries(v.centres)) {
    const tr = table.insertRow();
    tr.dataset.power = power;
    const swatch = tr.insertCell();
    swatch.className = "swatch";
    swatch.style.background = POWER_COLOURS[power];
    tr.insertCell().textContent = power + (power === v.power ? " (you)" : "");
    tr.insertCell().textContent = `${n} centres`;
    tr.insertCell().textContent = `${units[power] || 0} units`;
  }
}

function showResults() {
  const v = ui.view, list = $("results");
  list.textContent = "";
  $("last-title").textContent = v.last.length ? "Since your last orders" : "Last phase";
  for (const phase of v.last) {
    const li = document.createElement("li");
    const h = document.createElement("strong");
    h.textContent = phase.phase_name;
    li.appendChild(h);
    const byPower = {};
    for (const o of phase.orders) (byPower[o.power] = byPower[o.power] || []).push(o);
    for (const [power, orders] of Object.entries(byPower)) {
      const div = document.createElement("div");
      div.className = "power-orders";
      div.dataset.power = power;
      div.append(`${power}: `);
      orders.forEach((o, i) => {
        const span = document.createElement("span");
        span.className = o.ok ? "ok" : "failed";
        span.textContent = o.order + (o.ok ? "" : " ✗");
        div.append(span);
        if (i + 1 < orders.length) div.append(", ");
      });
      li.appendChild(div);
    }
    const notes = [];
    if (phase.dislodged && phase.dislodged.length)
      notes.push("dislodged: " + phase.dislodged.map(d => `${d.power} ${d.unit}`).join(", "));
    if (phase.standoffs && phase.standoffs.length)
      notes.push("standoffs: " + phase.standoffs.map(p => p.toUpperCase()).join(", "));
    if (phase.disbanded && phase.disbanded.length)
      notes.push("disbanded: " + phase.disbanded.map(p => p.toUpperCase()).join(", "));
    if (phase.civil_disorder && phase.civil_disorder.length)
      notes.push("removed by civil disorder: " + phase.civil_disorder.map(p => p.toUpperCase()).join(", "));
    for (const n of notes) {
      const div = document.createElement("div");
      div.className = "note-line";
      div.textContent = n;
      li.appendChild(div);
    }
    list.appendChild(li);
  }
}

function showSuggestion() {
  const s = ui.view.suggestion, box = $("suggestion");
  box.textContent = "";
  if (!s) return;
  let text = `Kibitz would order: ${s.orders.join(", ") || "nothing"}`;
  if (s.candidates) {
    text += `\n(${s.iterations} RM+ iterations, ${s.phases_resolved.toLocaleString()} phases ` +
            `resolved; expected ${s.score.toFixed(2)} centres)\nIts candidates and how often it plays each:`;
    for (const c of s.candidates) text += `\n ${(100 * c.p).toFixed(0).padStart(3)}%  ${c.orders.join(", ")}`;
  }
  box.textContent = text;
  const use = document.createElement("button");
  use.type = "button";
  use.id = "use-suggestion";
  use.textContent = "Use these orders";
  use.addEventListener("click", () => {
    for (const t of s.orders) setOrder(parseOrder(t).at || "", t);
  });
  box.appendChild(document.createElement("br"));
  box.appendChild(use);
}

function status() {
  const v = ui.view;
  let s = `${v.phase_name}: you are ${v.power}. `;
  if (v.over) s = `Game over (${v.phase_name}): ${v.result}.`;
  else if (v.busy) s += v.busy + "…";
  else if (v.to_order) {
    if (v.adjust) s += v.adjust.count > 0 ? `Build up to ${v.adjust.orders_needed} (click a home centre).`
                                          : `Disband ${v.adjust.orders_needed} (click a unit).`;
    else if (v.phase.endsWith("R")) s += "Retreat your dislodged units (click one, then where it goes).";
    else s += "Click a unit, then where it goes; then Submit orders.";
  }
  if (v.error) s += ` Error: ${v.error}`;
  $("status").textContent = s;
  for (const b of ["submit", "suggest", "clear", "send-text"]) $(b).disabled = !v.to_order;
}

function show(view) {
  const fresh = !ui.view || ui.view.version !== view.version;
  ui.view = view;
  if (fresh) {
    ui.picked = null;
    ui.aux = null;
    fillOrders();
    showCentres();
    showResults();
    showSuggestion();
    hint("");
  }
  status();
  draw();
  if (view.busy) poll();
}

// Long polling while the bots think: the server answers when the view changes (or after a
// second).
async function poll() {
  if (ui.polling) return;
  ui.polling = true;
  try {
    while (ui.view && ui.view.busy) {
      const v = await api("GET", `/api/diplomacy/${ui.id}?after=${ui.view.version}`);
      ui.polling = false;
      show(v);
      ui.polling = true;
    }
  } catch (e) {
    showError(e);
  } finally {
    ui.polling = false;
  }
}

async function newGame(ev) {
  if (ev) ev.preventDefault();
  showError(null);
  try {
    const v = await api("POST", "/api/diplomacy", {
      power: $("power").value, bots: $("bots").value,
      movetime_ms: Number($("movetime").value), max_year: Number($("max-year").value),
    });
    ui.id = v.id;
    ui.view = null;
    history.replaceState(null, "", `/play/diplomacy#${v.id}`);
    show(v);
  } catch (e) {
    showError(e);
  }
}

async function submit(orders) {
  showError(null);
  try {
    show(await api("POST", `/api/diplomacy/${ui.id}/orders`, {orders}));
  } catch (e) {
    showError(e);
  }
}

$("setup").addEventListener("submit", newGame);
$("submit").addEventListener("click", () => submit(currentOrders()));
$("send-text").addEventListener("click", () =>
  submit($("orders-text").value.split("\n").map(t => t.trim()).filter(t => t)));
$("clear").addEventListener("click", () => { fillOrders(); draw(); });
$("suggest").addEventListener("click", async () => {
  showError(null);
  try {
    show(await api("POST", `/api/diplomacy/${ui.id}/suggest`));
  } catch (e) {
    showError(e);
  }
});
$("record").addEventListener("click", async () => {
  try {
    const r = await api("GET", `/api/diplomacy/${ui.id}/record`);
    $("orders-text").value = r.record;
  } catch (e) {
    showError(e);
  }
});
$("show-last").addEventListener("change", draw);
for (const r of document.querySelectorAll("input[name=mode]"))
  r.addEventListener("change", () => { ui.aux = null; draw(); });

// A game named in the address (a reload) goes on; else a new one.
(async () => {
  const id = location.hash.slice(1);
  if (/^[0-9a-f]{32}$/.test(id)) {
    try {
      ui.id = id;
      show(await api("GET", `/api/diplomacy/${id}`));
      return;
    } catch (e) {
      ui.id = null;
    }
  }
  draw();
  newGame();
})();

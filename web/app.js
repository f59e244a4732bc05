"use strict";
// The play page: one game against its engine through the JSON API of `kibitz serve`
// (docs/serve.md). The server keeps the game; this page draws its view, sends the moves
// clicked, asks the engine to think and polls its reports.

const game = location.pathname.split("/").filter(Boolean).pop();
const board = KibitzBoards[game];
const $ = id => document.getElementById(id);

const ui = {
  view: null,
  seen: 0,           // the last event read
  selected: null,    // chess: the square picked
  lines: [],         // the engine's candidates, drawn on the board
  flipped: false,
  polling: false,
  side: 0,           // the side the engine's last search was for
  viewAt: 0,         // when the view came (performance.now()), for the clocks' ticking
  flagAsked: false,  // a view was asked for when the running clock reached zero
};

// The parameters each page offers (the rest of a game's parameters take their defaults).
const PARAM_CHOICES = {
  gomoku: {rule: ["freestyle", "exact5", "renju", "capture"], size: ["15", "19"]},
  go: {size: ["9", "13", "19"], komi: null},
  chess: {fen: null},
  hearts: {pass: ["left", "right", "across", "none"], seed: null},
};
let hidden = false;  // the game hides information (Hearts): the page plays one seat

function showError(e) {
  $("error").textContent = e ? (e.message || String(e)) : "";
}

// Which sides the engine plays: "0", "1" (the person plays that side), "both" (the person
// plays every move; the engine only when asked).
function engineSide(player) {
  const you = $("you").value;
  return you !== "both" && String(player) !== you;
}

function mayMove() {
  return ui.view && !ui.view.thinking && !engineSide(ui.view.to_move);
}

// The score from the view of the side the engine searched for.
function formatScore(report) {
  const side = board.sides[ui.side];
  if (game === "go") return `${(100 * report.score).toFixed(1)}% for ${side}`;
  if (game === "chess") {
    const s = report.score;
    if (report.decided && Math.abs(s) > 30000)
      return (s > 0 ? "+M" : "-M") + Math.ceil((32000 - Math.abs(s)) / 2) + ` for ${side}`;
    return (s >= 0 ? "+" : "") + (s / 100).toFixed(2) + ` for ${side}`;
  }
  const s = Number.isInteger(report.score) ? String(report.score) : report.score.toFixed(2);
  return s + ` for ${side}` + (report.decided ? " (decided)" : "");
}

function showReport(r) {
  if (!r || !("score" in r)) return;  // another seat's thought: private
  const parts = [`score ${formatScore(r)}`];
  if (r.depth) parts.push(`depth ${r.depth}`);
  if (r.nodes) parts.push(`${r.nodes.toLocaleString()} ${game === "go" ? "playouts" : "nodes"}`);
  parts.push(`${(r.time_ms / 1000).toFixed(1)} s`);
  if (r.how) parts.push(r.how);
  $("engine").textContent = `${r.move || "…"}: ${parts.join(", ")}\n${(r.pv || []).slice(0, 12).join(" ")}`;
  ui.lines = game === "go" ? (r.lines || []).slice(0, 12) : [];
  const table = $("lines");
  table.textContent = "";
  if (game === "hearts") {
    // Why: each card's value over the sampled worlds, the points it expects and their spread.
    for (const l of r.lines || []) {
      const tr = table.insertRow();
      tr.insertCell().textContent = l.move;
      tr.insertCell().textContent = `${l.expected.toFixed(2)} pts`;
      tr.insertCell().textContent = `± ${Math.sqrt(Math.max(0, l.variance)).toFixed(2)}`;
      tr.insertCell().textContent = [...(l.marks || []), l.note || ""].filter(Boolean).join(", ");
    }
    return;
  }
  for (const l of ui.lines) {
    const tr = table.insertRow();
    tr.insertCell().textContent = l.move;
    tr.insertCell().textContent = `${(100 * l.value).toFixed(1)}%`;
    tr.insertCell().textContent = `${l.visits} visits`;
    tr.insertCell().textContent = (l.pv || []).slice(0, 6).join(" ");
  }
}

function heartsStatus(v) {
  const b = v.board, names = board.sides;
  if (v.terminal) {
    const s = b.scores || [];
    return "Hand over: " + names.map((n, i) => `${n} ${s[i]}`).join(", ") + " points";
  }
  const who = names[v.to_move];
  if (v.queued || v.thinking) return `${who}: the engine is deciding…`;
  if (b.phase === "pass") {
    if (v.to_move !== v.viewer) return `${who} picks cards to pass ${b.dir}`;
    return `Pick ${3 - (b.seats[v.viewer].passed || []).length} more to pass ${b.dir}`;
  }
  return `${who} to play` + (v.to_move === v.viewer ? " (you)" : " (the engine)");
}

function statusText(v) {
  if (game === "hearts") return heartsStatus(v);
  const sides = board.sides;
  if (v.clock && v.clock.flagged >= 0)
    return `${sides[1 - v.clock.flagged]} wins: ${sides[v.clock.flagged]}'s time ran out`;
  if (v.terminal) {
    const r = v.returns || [];
    let text = r[0] > r[1] ? `${sides[0]} wins` : r[1] > r[0] ? `${sides[1]} wins` : "Draw";
    if (game === "chess" && v.board.outcome) text += ` (${v.board.outcome})`;
    if (game === "go") {
      const s = v.board.score;
      text += ` (${s > 0 ? "B" : "W"}+${Math.abs(s)} by area, komi ${v.board.komi})`;
    }
    if (game === "gomoku" && v.board.rule === "capture")
      text += ` (captured: black ${v.board.captured[0]}, white ${v.board.captured[1]})`;
    return text;
  }
  const who = sides[v.to_move];
  if (v.queued) return `${who}: waiting for a free engine…`;
  if (v.thinking) return `${who}: the engine is thinking…`;
  let text = `${who} to move` + (engineSide(v.to_move) ? " (the engine)" : " (you)");
  if (game === "chess" && v.board.check) text += ", in check";
  if (game === "go") {
    text += `; captured: black ${v.board.captured[0]}, white ${v.board.captured[1]}`;
    // The area as it stands (dead stones count as alive): a rough count, not a prediction.
    if ($("area").checked) {
      const s = v.board.score;
      text += `; area now ${s > 0 ? "B" : "W"}+${Math.abs(s)}`;
    }
  }
  if (game === "gomoku" && v.board.rule === "capture")
    text += `; captured: black ${v.board.captured[0]}, white ${v.board.captured[1]}`;
  return text;
}

// The clocks: each side's time as the view gave it, the running one ticking down here
// between views (the server keeps the time; a view when it reaches zero says whether the flag
// fell).
function formatClock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
  return (h ? `${h}:${String(m).padStart(2, "0")}` : `${m}`) + `:${String(sec).padStart(2, "0")}`;
}

function tickClocks() {
  const v = ui.view, box = $("clocks");
  box.hidden = !v || !v.clock;
  if (box.hidden) return;
  const c = v.clock;
  for (const side of [0, 1]) {
    let left = c.left_ms[side];
    if (c.running === side) left -= performance.now() - ui.viewAt;
    const span = $(`clock-${side}`);
    span.textContent = `${board.sides[side]} ${formatClock(left)}`;
    span.className = "clock" + (c.running === side ? " running" : "") +
                     (c.flagged === side || left <= 0 ? " flagged" : "");
    span.dataset.ms = String(Math.max(0, Math.round(left)));
    if (c.running === side && left <= 0 && !ui.flagAsked) {
      ui.flagAsked = true;
      api("GET", `/api/sessions/${v.id}`).then(setView).catch(showError);
    }
  }
}
setInterval(tickClocks, 100);

function render() {
  const v = ui.view;
  if (!v) return;
  tickClocks();
  board.draw($("board"), v, {
    flipped: ui.flipped,
    selected: ui.selected,
    lines: ui.lines,
    mayMove,
    play: move => play(move),
    select: sq => { ui.selected = sq; render(); },
    choose: moves => choosePromotion(moves),
    showArea: $("area").checked,
  });
  $("status").textContent = statusText(v);
  const list = $("moves");
  list.textContent = "";
  for (const m of v.moves) {
    const li = document.createElement("li");
    li.textContent = m;
    list.appendChild(li);
  }
  if (document.activeElement !== $("position")) $("position").value = v.text;
  $("think").disabled = v.terminal || v.thinking;
  $("analyse").disabled = v.terminal || v.thinking;
  $("stop").disabled = !v.thinking;
  $("undo").disabled = v.thinking || v.undo === 0;
  $("undo").hidden = hidden;
  $("pass").hidden = game !== "go";
  $("area-box").hidden = game !== "go";
  $("pass").disabled = !mayMove() || v.terminal;
  document.body.dataset.thinking = v.thinking ? "yes" : "no";
  document.body.dataset.terminal = v.terminal ? "yes" : "no";
  document.body.dataset.moves = String(v.moves.length);
}

function choosePromotion(moves) {
  const box = $("promotion");
  box.textContent = "Promote to ";
  for (const m of moves) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = {q: "queen", r: "rook", b: "bishop", n: "knight"}[m[4]] || m;
    b.dataset.move = m;
    b.addEventListener("click", () => { box.hidden = true; play(m); });
    box.appendChild(b);
  }
  box.hidden = false;
}

function setView(v) {
  ui.view = v;
  ui.viewAt = performance.now();
  ui.flagAsked = false;
  render();
}

async function play(move) {
  showError(null);
  ui.selected = null;
  try {
    setView(await api("POST", `/api/sessions/${ui.view.id}/move`, {move}));
    ui.lines = [];
    engineTurn();
  } catch (e) {
    showError(e);
    render();
  }
}

function engineTurn() {
  const v = ui.view;
  if (v && !v.terminal && !v.thinking && engineSide(v.to_move)) think(true);
}

async function think(playIt) {
  showError(null);
  ui.side = ui.view.to_move;
  // On the clock, the engine's move spends its own time (the server's time manager).
  const movetime = ui.view.clock && playIt ? 0 : Number($("movetime").value);
  try {
    setView(await api("POST", `/api/sessions/${ui.view.id}/think`,
                      {movetime_ms: movetime, play: playIt}));
    poll();
  } catch (e) {
    showError(e);
  }
}

// Reads the engine's reports until it answers.
async function poll() {
  if (ui.polling) return;
  ui.polling = true;
  try {
    while (ui.view && ui.view.thinking) {
      const data = await api("GET", `/api/sessions/${ui.view.id}/events?after=${ui.seen}`);
      for (const e of data.events) {
        ui.seen = Math.max(ui.seen, e.seq);
        if (e.type === "info" || e.type === "answer") showReport(e);
        if (e.type === "answer" && e.error) showError(new Error(e.error));
        // Once played, the candidates were for the position before: off the board.
        if (e.type === "answer" && e.played) ui.lines = [];
      }
      setView(data.view);
    }
  } catch (e) {
    showError(e);
  } finally {
    ui.polling = false;
  }
  engineTurn();
}

// A record rather than a position text: PGN tags or move numbers, an SGF tree.
function isRecord(text) {
  const t = text.trim();
  return t.startsWith("[") || t.startsWith("(;") || /^1\.\s*\S/.test(t);
}

async function newGame(position) {
  showError(null);
  const body = {game};
  if (hidden) body.seat = Number($("you").value);
  if (!hidden && $("clock").value) {
    const [base, inc] = $("clock").value.split("+").map(Number);
    body.clock = {base_ms: base, increment_ms: inc};
  }
  if (position !== undefined && isRecord(position)) {
    body.record = position;
  } else if (position !== undefined) {
    body.position = position;
  } else {
    const params = {};
    for (const input of $("params").querySelectorAll("[data-param]"))
      if (input.value.trim() !== "") params[input.dataset.param] = input.value.trim();
    body.params = params;
  }
  try {
    const v = await api("POST", "/api/sessions", body);
    ui.seen = v.events;
    ui.selected = null;
    ui.lines = [];
    ui.flipped = game === "chess" && $("you").value === "1";
    $("engine").textContent = "not thinking";
    $("lines").textContent = "";
    setView(v);
    history.replaceState(null, "", `?id=${v.id}`);
    engineTurn();
  } catch (e) {
    showError(e);
  }
}

async function start() {
  const games = await api("GET", "/api/games");
  const entry = games.find(g => g.name === game);
  if (!entry || !board) {
    $("status").textContent = `No page for '${game}'.`;
    return;
  }
  document.title = `${entry.title} — Kibitz`;
  $("title").textContent = entry.title;
  hidden = entry.hidden;
  const you = $("you");
  board.sides.forEach((s, i) => you.add(new Option(s, String(i))));
  if (!hidden) you.add(new Option("both (analysis)", "both"));
  if (game === "hearts") {
    you.value = "2";
    $("movetime").value = "200";
  }
  $("clock-box").hidden = hidden;
  const choices = PARAM_CHOICES[game] || {};
  for (const p of entry.params) {
    if (!(p.name in choices)) continue;
    const label = document.createElement("label");
    label.textContent = p.name + " ";
    let input;
    if (choices[p.name]) {
      input = document.createElement("select");
      for (const c of choices[p.name]) input.add(new Option(c, c));
      if (game === "go" && p.name === "size") input.value = "9";
    } else {
      input = document.createElement("input");
      input.placeholder = p.help;
    }
    input.dataset.param = p.name;
    input.id = "param-" + p.name;
    label.appendChild(input);
    $("params").appendChild(label);
  }
  $("setup").addEventListener("submit", e => { e.preventDefault(); newGame(); });
  $("think").addEventListener("click", () => think(true));
  $("analyse").addEventListener("click", () => think(false));
  $("stop").addEventListener("click", async () => {
    try { setView(await api("POST", `/api/sessions/${ui.view.id}/stop`)); } catch (e) { showError(e); }
  });
  $("undo").addEventListener("click", async () => {
    const v = ui.view;
    // Against the engine, back to the person's previous turn.
    const plies = $("you").value !== "both" && v.undo >= 2 && !engineSide(v.to_move) ? 2 : 1;
    try { setView(await api("POST", `/api/sessions/${v.id}/undo`, {plies})); } catch (e) { showError(e); }
  });
  $("pass").addEventListener("click", () => play("pass"));
  $("area").addEventListener("change", render);
  $("load").addEventListener("click", () => newGame($("position").value));
  $("record").hidden = !entry.record;
  $("record").addEventListener("click", async () => {
    try {
      const r = await api("GET", `/api/sessions/${ui.view.id}/record`);
      $("position").value = r.record;
      $("position").focus();
    } catch (e) {
      showError(e);
    }
  });
  $("copy").addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText(ui.view.text));
  // A page reloaded on ?id= goes on with its game while the server keeps it.
  const id = new URLSearchParams(location.search).get("id");
  if (id) {
    try {
      const v = await api("GET", `/api/sessions/${id}`);
      ui.seen = v.events;
      setView(v);
      if (v.thinking) poll();
      return;
    } catch (e) {
      showError(e);
    }
  }
  newGame();
}

start();

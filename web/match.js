"use strict";
// The live view of a match (kibitz serve's /match): the events of /api/matches/ID/stream
// (server-sent events) drawn as the tally, Elo, SPRT, the games playing and those finished.

const $ = id => document.getElementById(id);
const DEFAULTS = {
  chess: ["bot=kibitz", "bot=plain"], gomoku: ["bot=pipeline", "bot=alphabeta"],
  go: ["bot=mcts", "bot=random"], hearts: ["bot=search", "bot=rule"],
  diplomacy: ["bot=rm", "bot=heuristic"],
};
const running = new Map();  // game number -> its line
let source = null;

function fmt(x, digits) {
  return x === null || x === undefined ? "∞" : x.toFixed(digits);
}

function showTally(e) {
  const p = (e.pairings || [])[0];
  if (!p) return;
  let text = `${p.player} vs ${p.opponent}: +${p.wins} =${p.draws} -${p.losses}` +
             ` of ${e.finished}/${e.scheduled}`;
  if (p.games > 0) {
    text += `, score ${(100 * p.score).toFixed(1)}%, Elo ${fmt(p.elo, 0)}` +
            ` (${fmt(p.elo_lo, 0)} .. ${fmt(p.elo_hi, 0)})`;
  }
  if (p.measure) text += `; ${p.measure.name}: ${fmt(p.measure.player, 2)} vs ${fmt(p.measure.opponent, 2)}`;
  $("tally").textContent = text;
  $("sprt").textContent = p.sprt ?
    `SPRT: LLR ${fmt(p.sprt.llr, 2)} in (${fmt(p.sprt.lower, 2)}, ${fmt(p.sprt.upper, 2)}): ${p.sprt.decision}` : "";
}

function onEvent(e) {
  if (e.type === "begin") {
    const li = document.createElement("li");
    li.textContent = `game ${e.game}: ${e.players[0]} vs ${e.players[1]}`;
    $("running").appendChild(li);
    running.set(e.game, li);
  } else if (e.type === "end") {
    const li = running.get(e.game);
    if (li) li.remove();
    running.delete(e.game);
    const tr = $("finished").tBodies[0].insertRow(0);
    for (const v of [e.game, e.players[0], e.players[1], e.result, e.reason || e.termination, e.plies])
      tr.insertCell().textContent = v;
  } else if (e.type === "done") {
    document.body.dataset.done = "yes";
    $("stop-match").disabled = true;
    const r = e.report;
    $("sprt").textContent += e.error ? ` Match failed: ${e.error}` :
      ` Match over${r && r.stop_reason ? " (" + r.stop_reason + ")" : ""}.`;
    if (source) source.close();
    loadList();
  }
  if (e.pairings) showTally(e);
  document.body.dataset.finished = String(e.finished ?? document.body.dataset.finished ?? 0);
}

function watch(id, title) {
  $("watch").hidden = false;
  $("match-title").textContent = title || id;
  document.body.dataset.done = "no";
  history.replaceState(null, "", `?id=${id}`);
  source = new EventSource(`/api/matches/${id}/stream`);
  source.onmessage = m => onEvent(JSON.parse(m.data));
  $("stop-match").onclick = () => api("POST", `/api/matches/${id}/stop`).catch(() => {});
}

async function loadList() {
  const list = $("list");
  list.textContent = "";
  for (const m of await api("GET", "/api/matches")) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `/match?id=${m.id}`;
    a.textContent = m.title;
    li.appendChild(a);
    li.appendChild(document.createTextNode(` ${m.finished}/${m.scheduled}${m.running ? ", running" : ""}`));
    list.appendChild(li);
  }
}

async function start() {
  const games = await api("GET", "/api/games");
  const sel = $("m-game");
  for (const g of games) sel.add(new Option(g.title, g.name));
  const fill = () => {
    [$("m-p1").value, $("m-p2").value] = DEFAULTS[sel.value] || ["", ""];
  };
  sel.addEventListener("change", fill);
  fill();
  $("m-start").addEventListener("click", async () => {
    $("m-error").textContent = "";
    const body = {game: sel.value, players: [$("m-p1").value, $("m-p2").value],
                  games: Number($("m-games").value), movetime_ms: Number($("m-movetime").value)};
    if ($("m-sprt").checked) body.sprt = [0, Number($("m-elo1").value)];
    try {
      const m = await api("POST", "/api/matches", body);
      $("finished").tBodies[0].textContent = "";
      $("running").textContent = "";
      running.clear();
      if (source) source.close();
      watch(m.id, m.title);
      loadList();
    } catch (e) {
      $("m-error").textContent = e.message;
    }
  });
  const id = new URLSearchParams(location.search).get("id");
  if (id) watch(id, id);
  loadList();
}

start();

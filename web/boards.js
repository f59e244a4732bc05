"use strict";
// The boards of the play page, drawn in SVG from the server's view of the game (docs/serve.md):
// KibitzBoards[game].draw(svg, view, ui) where ui = {play(move), flipped, lines, selected,
// select(square)}. Every point or square a click can play carries data-move (its move text).

const SVG_NS = "http://www.w3.org/2000/svg";

function el(parent, tag, attrs, text) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  parent.appendChild(e);
  return e;
}

function clear(svg) {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
}

// ---------------------------------------------------------------------------------------
// Chess: the FEN's board; a click picks a piece (its legal targets marked), a second click
// plays; a promotion asks for the piece.

const CHESS_GLYPHS = {k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F"};

function chessSquares(fen) {
  const squares = {};
  const rows = fen.split(" ")[0].split("/");
  rows.forEach((row, i) => {
    let file = 0;
    for (const c of row) {
      if (c >= "1" && c <= "8") {
        file += Number(c);
      } else {
        squares["abcdefgh"[file] + (8 - i)] = c;
        file += 1;
      }
    }
  });
  return squares;
}

const chessBoard = {
  sides: ["White", "Black"],
  draw(svg, view, ui) {
    clear(svg);
    const S = 60;
    svg.setAttribute("viewBox", `0 0 ${8 * S + 24} ${8 * S + 24}`);
    const b = view.board;
    const pieces = chessSquares(b.fen);
    const whiteToMove = b.fen.split(" ")[1] === "w";
    const legal = view.legal;
    const targets = ui.selected ? legal.filter(m => m.startsWith(ui.selected)).map(m => m.slice(2, 4)) : [];
    const last = b.last ? [b.last.slice(0, 2), b.last.slice(2, 4)] : [];
    const g = el(svg, "g", {transform: "translate(20,4)"});
    for (let r = 0; r < 8; r++) {
      for (let f = 0; f < 8; f++) {
        const file = ui.flipped ? 7 - f : f, rank = ui.flipped ? r : 7 - r;
        const sq = "abcdefgh"[file] + (rank + 1);
        const dark = (file + rank) % 2 === 0;
        let cls = "sq " + (dark ? "dark" : "light");
        if (last.includes(sq)) cls += " last";
        if (sq === ui.selected) cls += " picked";
        const piece = pieces[sq];
        if (b.check && piece === (whiteToMove ? "K" : "k")) cls += " check";
        const cell = el(g, "g", {class: "cell", "data-move": sq});
        el(cell, "rect", {x: f * S, y: r * S, width: S, height: S, class: cls});
        if (piece) {
          const white = piece === piece.toUpperCase();
          el(cell, "text", {x: f * S + S / 2, y: r * S + S * 0.8, class: "piece " + (white ? "white" : "black"),
                            "data-piece": piece}, CHESS_GLYPHS[piece.toLowerCase()]);
        }
        if (targets.includes(sq)) el(cell, "circle", {cx: f * S + S / 2, cy: r * S + S / 2, r: piece ? S * 0.45 : S * 0.14, class: "target"});
        cell.addEventListener("click", () => this.click(sq, view, ui));
      }
    }
    for (let i = 0; i < 8; i++) {
      const file = ui.flipped ? 7 - i : i, rank = ui.flipped ? i + 1 : 8 - i;
      el(svg, "text", {x: 20 + i * S + S / 2, y: 8 * S + 20, class: "coord"}, "abcdefgh"[file]);
      el(svg, "text", {x: 8, y: 4 + i * S + S / 2 + 5, class: "coord"}, String(rank));
    }
  },
  click(sq, view, ui) {
    if (view.terminal || view.thinking || !ui.mayMove()) return;
    if (ui.selected) {
      const moves = view.legal.filter(m => m.startsWith(ui.selected + sq));
      if (moves.length === 1) return ui.play(moves[0]);
      if (moves.length > 1) return ui.choose(moves);  // a promotion: which piece
    }
    const own = view.legal.some(m => m.startsWith(sq));
    ui.select(own && sq !== ui.selected ? sq : null);
  },
};

// ---------------------------------------------------------------------------------------
// Gomoku and Go: a grid of points; a click on a point plays it.

const GO_COLUMNS = "ABCDEFGHJKLMNOPQRST";

function gridBoard(opts) {
  return {
    sides: ["Black", "White"],
    draw(svg, view, ui) {
      clear(svg);
      const b = view.board, n = b.size, S = n > 15 ? 30 : 34, M = 30;
      const W = M * 2 + S * (n - 1);
      svg.setAttribute("viewBox", `0 0 ${W} ${W}`);
      el(svg, "rect", {x: 0, y: 0, width: W, height: W, class: "wood"});
      const px = x => M + x * S, py = y => M + (n - 1 - y) * S;
      for (let i = 0; i < n; i++) {
        el(svg, "line", {x1: px(0), y1: py(i), x2: px(n - 1), y2: py(i), class: "grid"});
        el(svg, "line", {x1: px(i), y1: py(0), x2: px(i), y2: py(n - 1), class: "grid"});
        el(svg, "text", {x: px(i), y: W - 8, class: "coord"}, opts.column(i));
        el(svg, "text", {x: 12, y: py(i) + 4, class: "coord"}, String(i + 1));
      }
      for (const [x, y] of opts.stars(n)) el(svg, "circle", {cx: px(x), cy: py(y), r: 3, class: "star"});
      if (opts.territory && (view.terminal || ui.showArea)) {
        b.area.forEach((owner, i) => {
          const x = i % n, y = Math.floor(i / n);
          if (owner >= 0) el(svg, "rect", {x: px(x) - 5, y: py(y) - 5, width: 10, height: 10,
                                           class: "territory " + (owner ? "white" : "black")});
        });
      }
      const taken = new Set(b.stones.map(([x, y]) => x + "," + y));
      for (const [x, y, c] of b.stones) {
        el(svg, "circle", {cx: px(x), cy: py(y), r: S * 0.46, class: "stone " + (c ? "white" : "black"),
                           "data-move": opts.move(x, y, n)});
      }
      if (b.last) el(svg, "circle", {cx: px(b.last[0]), cy: py(b.last[1]), r: S * 0.14, class: "lastmark"});
      for (const [x, y] of b.forbidden || []) {
        const d = S * 0.18;
        el(svg, "path", {d: `M${px(x) - d},${py(y) - d}L${px(x) + d},${py(y) + d}M${px(x) + d},${py(y) - d}L${px(x) - d},${py(y) + d}`,
                         class: "forbidden", "data-forbidden": opts.move(x, y, n)});
      }
      if (b.ko) el(svg, "rect", {x: px(b.ko[0]) - 6, y: py(b.ko[1]) - 6, width: 12, height: 12, class: "ko"});
      // The engine's candidates (Go: win rate and visits, as lz-analyze shows them).
      for (const line of ui.lines || []) {
        const p = opts.point(line.move, n);
        if (!p || taken.has(p[0] + "," + p[1])) continue;
        const g = el(svg, "g", {class: "candidate"});
        el(g, "circle", {cx: px(p[0]), cy: py(p[1]), r: S * 0.45});
        el(g, "text", {x: px(p[0]), y: py(p[1]) - 1, class: "rate"}, Math.round(line.value * 100));
        el(g, "text", {x: px(p[0]), y: py(p[1]) + 10, class: "visits"}, line.visits);
      }
      // The points a click plays, over everything else.
      for (let y = 0; y < n; y++) {
        for (let x = 0; x < n; x++) {
          const move = opts.move(x, y, n);
          const hit = el(svg, "rect", {x: px(x) - S / 2, y: py(y) - S / 2, width: S, height: S, class: "point",
                                       "data-move": move});
          hit.addEventListener("click", () => {
            if (view.terminal || view.thinking || !ui.mayMove() || taken.has(x + "," + y)) return;
            ui.play(move);
          });
        }
      }
    },
  };
}

// ---------------------------------------------------------------------------------------
// Hearts: the page's seat at the bottom with its hand face up (a click plays or passes a
// legal card), the three bots around the table with their cards left, tricks and points, and
// the trick in the middle.

const SUIT_GLYPHS = {C: "\u2663", D: "\u2666", S: "\u2660", H: "\u2665"};
const SEAT_NAMES = ["North", "East", "South", "West"];

function cardFace(parent, x, y, card, cls, attrs) {
  const g = el(parent, "g", Object.assign({class: "card " + (cls || ""), "data-card": card}, attrs || {}));
  el(g, "rect", {x, y, width: 50, height: 72, rx: 5});
  const red = card[1] === "D" || card[1] === "H";
  const rank = card[0] === "T" ? "10" : card[0];
  el(g, "text", {x: x + 6, y: y + 20, class: "rank" + (red ? " red" : "")}, rank);
  el(g, "text", {x: x + 25, y: y + 52, class: "suit" + (red ? " red" : "")}, SUIT_GLYPHS[card[1]]);
  return g;
}

function sortHand(cards) {
  const suitOrder = "CDSH", ranks = "23456789TJQKA";
  return [...cards].sort((a, b) => suitOrder.indexOf(a[1]) - suitOrder.indexOf(b[1]) ||
                                   ranks.indexOf(a[0]) - ranks.indexOf(b[0]));
}

const heartsBoard = {
  sides: SEAT_NAMES,
  draw(svg, view, ui) {
    clear(svg);
    const W = 760, H = 600;
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    el(svg, "rect", {x: 0, y: 0, width: W, height: H, rx: 18, class: "felt"});
    const b = view.board, me = view.viewer < 0 ? 2 : view.viewer;
    // Places around the table from the page's seat: bottom, left, top, right.
    const place = seat => (seat - me + 4) % 4;
    const labels = [[W / 2, H - 12], [110, H / 2 - 80], [W / 2, 28], [W - 110, H / 2 - 80]];
    svg.setAttribute("data-tricks", b.tricks.length);
    b.seats.forEach((s, seat) => {
      const [x, y] = labels[place(seat)];
      const you = seat === view.viewer ? " (you)" : "";
      const turn = seat === b.to_move ? " turn" : "";
      el(svg, "text", {x, y, class: "seat" + turn, "data-seat": seat},
         `${SEAT_NAMES[seat]}${you}: ${s.tricks} tricks, ${s.points} pts`);
      if (place(seat) !== 0) {
        const backs = el(svg, "g", {class: "backs", "data-seat": seat, "data-cards": s.cards});
        for (let i = 0; i < s.cards; i++) {
          const top = place(seat) === 2;
          el(backs, "rect", {x: top ? W / 2 - 100 + i * 12 : x - 18, y: top ? 40 : y + 14 + i * 12,
                             width: 36, height: 52, rx: 4, class: "back"});
        }
      }
    });
    // The page's hand.
    const mine = b.seats[me].hand || [];
    const received = new Set(b.seats[me].received || []);
    // The cards picked to pass have left the hand: shown above it until the exchange.
    if (b.phase === "pass") {
      const picked = b.seats[me].passed || [];
      picked.forEach((card, i) => cardFace(svg, W / 2 - 85 + i * 60, H / 2 - 30, card, "picked"));
    }
    const legal = new Set(view.legal);
    const hand = sortHand(mine);
    const x0 = W / 2 - (hand.length * 38 + 12) / 2;
    hand.forEach((card, i) => {
      const playable = legal.has(card) && ui.mayMove() && !view.terminal;
      const cls = [playable ? "playable" : "", received.has(card) ? "received" : ""].join(" ");
      const lift = playable ? 10 : 0;
      const g = cardFace(svg, x0 + i * 38, H - 118 - lift, card, cls, {"data-move": card});
      if (playable) g.addEventListener("click", () => ui.play(card));
    });
    // The trick on the table, each card before its player; else the last trick, faded.
    const spots = [[W / 2 - 25, H / 2 + 10], [W / 2 - 130, H / 2 - 50], [W / 2 - 25, H / 2 - 110],
                   [W / 2 + 80, H / 2 - 50]];
    let shown = b.trick, last = false;
    if (!shown.length && b.tricks.length) {
      shown = b.tricks[b.tricks.length - 1].cards;
      last = true;
    }
    for (const [seat, card] of shown) {
      const [x, y] = spots[place(seat)];
      cardFace(svg, x, y, card, "table" + (last ? " last" : ""), {"data-trick-seat": seat});
    }
    if (last) {
      const w = b.tricks[b.tricks.length - 1].winner;
      el(svg, "text", {x: W / 2, y: H / 2 + 105, class: "note"}, `${SEAT_NAMES[w]} took the last trick`);
    }
    if (b.phase === "pass") {
      el(svg, "text", {x: W / 2, y: H / 2 + 105, class: "note"},
         `Passing ${b.dir}: ${view.viewer === b.to_move ? "pick three cards" : "the others pick"}`);
    }
  },
};

const KibitzBoards = {
  hearts: heartsBoard,
  chess: chessBoard,
  gomoku: gridBoard({
    column: i => "abcdefghijklmnopqrst"[i],
    move: (x, y) => "abcdefghijklmnopqrst"[x] + (y + 1),
    point: (m) => [m.charCodeAt(0) - 97, Number(m.slice(1)) - 1],
    stars: n => n % 2 ? [[(n - 1) / 2, (n - 1) / 2], [3, 3], [n - 4, 3], [3, n - 4], [n - 4, n - 4]] : [],
  }),
  go: gridBoard({
    column: i => GO_COLUMNS[i],
    move: (x, y) => GO_COLUMNS[x] + (y + 1),
    point: (m) => {
      const x = GO_COLUMNS.indexOf(m[0].toUpperCase());
      return x < 0 ? null : [x, Number(m.slice(1)) - 1];
    },
    stars: n => {
      if (n < 9) return [];
      const e = n >= 13 ? 3 : 2, c = (n - 1) / 2, far = n - 1 - e;
      const pts = [[e, e], [far, e], [e, far], [far, far]];
      if (n % 2) pts.push([c, c]);
      if (n >= 15 && n % 2) pts.push([c, e], [c, far], [e, c], [far, c]);
      return pts;
    },
    territory: true,
  }),
};

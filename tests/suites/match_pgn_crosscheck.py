#!/usr/bin/env python3
"""Checks `kibitz match`'s referee with an independent chess implementation: chesslite.py
from the shared measurement tools. Plays random-bot games (long, with castling, promotions
and en passant) plus a few engine games, then replays every game of the PGN written by the
match with chesslite: every move must be legal, and a game the referee ended by the rules must
end in the position chesslite agrees with (checkmate for 1-0 / 0-1 "mates", no legal move
for stalemate, the 50-move count, a threefold repetition, bare material).
Exits 77 (skipped) when the tools are absent.

Usage: match_pgn_crosscheck.py KIBITZ_BINARY
"""
import os
import re
import subprocess
import sys
import tempfile

from suite_tools import SKIPPED, tools_dir


def games_of(text):
    """(tags dict, SAN list, result) per game; the PGN comes from kibitz's own writer."""
    out = []
    for block in re.split(r"\n\n(?=\[)", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$', block, re.M))
        movetext = block.split("\n\n", 1)[1] if "\n\n" in block else ""
        movetext = re.sub(r"\{[^}]*\}", " ", movetext)
        tokens = movetext.split()
        result = tokens.pop() if tokens else "*"
        sans = [t for t in tokens if not re.match(r"^\d+\.+$", t)]
        out.append((tags, sans, result))
    return out


def insufficient(fen):
    """No mate possible: no pawn, rook or queen, and at most one minor piece or only bishops
    all on squares of one colour (computed here from the FEN, independently of kibitz)."""
    colours = set()
    minors = knights = 0
    for r, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
                continue
            if ch in "QRPqrp":
                return False
            if ch in "NBnb":
                minors += 1
                knights += ch in "Nn"
                colours.add((r + f) % 2)
            f += 1
    return minors <= 1 or (knights == 0 and len(colours) == 1)


def main():
    kibitz = sys.argv[1]
    tools = tools_dir()
    if not os.path.isfile(os.path.join(tools, "chess", "chesslite.py")):
        print(f"skipped: chesslite.py not found under KIBITZ_TOOLS={tools}")
        return SKIPPED
    sys.path.insert(0, os.path.join(tools, "chess"))
    import chesslite  # noqa: E402

    with tempfile.TemporaryDirectory() as tmp:
        pgn = os.path.join(tmp, "games.pgn")
        runs = [
            ["--engine", "name=r1 bot=random", "--engine", "name=r2 bot=random", "--depth", "1",
             "--games", "24", "--max-moves", "300", "--seed", "5"],
            ["--engine", "name=k bot=kibitz option.Hash=1", "--engine", "name=r bot=random",
             "--depth", "2", "--games", "4", "--max-moves", "200"],
        ]
        for args in runs:
            p = subprocess.run([kibitz, "match", "--no-progress", "--pgn", pgn] + args,
                               capture_output=True, text=True, check=False)
            if p.returncode != 0:
                print(f"FAIL kibitz match {' '.join(args)}: {p.stderr.strip()}")
                return 1
        with open(pgn) as f:
            games = games_of(f.read())
    if len(games) != 28:
        print(f"FAIL expected 28 games in the PGN, found {len(games)}")
        return 1
    endings = {}
    for n, (tags, sans, result) in enumerate(games, 1):
        pos = chesslite.Position(tags.get("FEN", chesslite.Position().fen()))
        seen = {}
        for san in sans:
            legal = pos.legal()
            m = pos.parse_san(san.rstrip("+#"))
            if m is None or m not in legal:
                print(f"FAIL game {n}: illegal move {san} in {pos.fen()}")
                return 1
            pos = pos.make(m)
            key = " ".join(pos.fen().split()[:4])
            seen[key] = seen.get(key, 0) + 1
        term = tags.get("Termination", "")
        endings[term] = endings.get(term, 0) + 1
        if term != "normal":
            continue
        legal = pos.legal()
        fen = pos.fen()
        halfmove = int(fen.split()[4])
        if result in ("1-0", "0-1"):
            winner_white = result == "1-0"
            if legal or not pos.in_check() or (fen.split()[1] == "w") == winner_white:
                print(f"FAIL game {n}: {result} by the rules but not checkmate: {fen}")
                return 1
        elif result == "1/2-1/2":
            bare = insufficient(fen)
            stalemate = not legal and not pos.in_check()
            if not (stalemate or halfmove >= 100 or max(seen.values()) >= 3 or bare):
                print(f"FAIL game {n}: drawn by the rules but no rule applies: {fen}")
                return 1
        else:
            print(f"FAIL game {n}: normal termination with result {result}")
            return 1
    print(f"ok: {len(games)} games replayed by chesslite; endings {endings}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

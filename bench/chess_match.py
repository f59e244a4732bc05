#!/usr/bin/env python3
"""chess_match.py -- referee for matches between UCI chess engines (Python 3 stdlib only).

Plays games between UCI engines, with real clocks (--tc) or fixed per-move limits
(--nodes / --movetime / --depth), checks every move against the rules with chesslite
(shared/tools/chess/chesslite.py, loaded at run time), ends games by the rules
(checkmate, stalemate, threefold repetition, 50-move rule, insufficient material) or on
a fault (illegal move, time forfeit, crash / no answer), optionally adjudicates, writes
PGN, and prints W/D/L, score and an Elo estimate with a 95% error bar from engine 1's
point of view.  Used to measure Kibitz against Stockfish at several UCI_Elo levels until
`kibitz match` exists.

Engines are given as one string each: KEY=VALUE words, shell-quoted where needed.
  name=NAME            name in the output and the PGN (default: the program's file name)
  cmd=PROGRAM ARGS...  the command; the words after cmd= that are not KEY=VALUE are its
                       arguments (arg=WORD adds one argument verbatim)
  dir=DIR              working directory of the engine process
  option.NAME=VALUE    sent as `setoption name NAME value VALUE` after uciok
                       ("option.Skill Level=5" with quotes for names with spaces;
                       option.NAME without =VALUE for a button)
  tc=, nodes=, movetime=, depth=   a per-engine limit replacing the global one (time odds)

Clocks: the mover's clock loses the wall time (monotonic) from the moment `go` is written
to the moment its `bestmove` line is read, then gains the increment.  A bestmove later
than the clock plus --grace (default 0 ms) loses on time.  Time losses are counted
separately for each engine, together with illegal moves and crashes.
"""
import argparse
import datetime
import importlib.util
import json
import math
import os
import queue
import random
import re
import shlex
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(HERE)
DEFAULT_TOOLS = os.path.normpath(os.path.join(REPO_ROOT, "..", "shared", "tools"))
START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
MATE_CP = 100000          # a mate score in centipawns (minus the distance)
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")

EXAMPLES = r"""
examples:
  # Kibitz against Stockfish limited to 1800 Elo, 10+0.1, 200 games from 2-move openings
  bench/chess_match.py \
      --engine "name=kibitz cmd=build/release/kibitz uci" \
      --engine "name=sf1800 cmd=/usr/games/stockfish option.UCI_LimitStrength=true option.UCI_Elo=1800 option.Hash=16" \
      --tc 10+0.1 --games 200 --concurrency 2 --seed 1 \
      --openings ../shared/data/chess/openings/2moves_v1.epd --pgn kibitz_sf1800.pgn --json

  # gauntlet: engine 1 plays every other engine, --games N against each
  bench/chess_match.py --gauntlet --games 100 --tc 10+0.1 --openings FILE.pgn --seed 7 \
      --engine "name=kibitz cmd=build/release/kibitz uci" \
      --engine "name=sf1500 cmd=/usr/games/stockfish option.UCI_LimitStrength=true option.UCI_Elo=1500" \
      --engine "name=sf2000 cmd=/usr/games/stockfish option.UCI_LimitStrength=true option.UCI_Elo=2000"

  # fast check at 2000 nodes a move, adjudication on, every move printed
  bench/chess_match.py --nodes 2000 --games 4 --verbose --resign-moves 3 --resign-score 800 \
      --openings ../shared/data/chess/openings/8moves_v3_first5000.pgn --seed 3 \
      --engine "name=a cmd=/usr/games/stockfish" --engine "name=b cmd=/usr/games/stockfish"

  # check a PGN written by this tool (legal moves, results, terminations) and stop
  bench/chess_match.py --verify-pgn games.pgn

time controls: --tc 10+0.1 (seconds + increment), --tc 40/60 (40 moves in 60 s, repeating),
  --tc 1:30+1 (minutes:seconds); or fixed limits --nodes N, --movetime MS, --depth D.
exit status: 0 done, 1 --verify-pgn found errors, 2 bad arguments / engine not found,
  130 interrupted (partial results are still printed and the PGN holds the finished games).
"""

cl = None                 # the chesslite module, see load_chesslite()
OUT_LOCK = threading.Lock()
T_START = time.monotonic()


def say(msg="", err=False):
    with OUT_LOCK:
        stream = sys.stderr if err else sys.stdout
        try:
            stream.write(msg + "\n")
            stream.flush()
        except (BrokenPipeError, ValueError):
            pass


def load_chesslite(tools):
    global cl
    path = os.path.join(tools, "chess", "chesslite.py")
    if not os.path.isfile(path):
        raise SystemExit("chess_match: %s not found; give the shared tools folder with --tools "
                         "or KIBITZ_TOOLS" % path)
    spec = importlib.util.spec_from_file_location("chesslite", path)
    mod = importlib.util.module_from_spec(spec)
    saved, sys.dont_write_bytecode = sys.dont_write_bytecode, True   # no __pycache__ there
    try:
        spec.loader.exec_module(mod)
    finally:
        sys.dont_write_bytecode = saved
    cl = mod
    return mod


# ---------------------------------------------------------------------------------------
# Rules on top of chesslite: repetition keys, insufficient material, game outcome
# ---------------------------------------------------------------------------------------

def ep_capture_possible(pos, legal):
    """True if an en passant capture is legal (only then does the ep square count for
    repetition, as FIDE 9.2 says)."""
    if pos.ep < 0:
        return False
    pawn = "P" if pos.white else "p"
    return any(m[1] == pos.ep and pos.b[m[0]] == pawn for m in legal)


def repetition_key(pos, legal):
    return ("".join(pos.b), pos.white, pos.castling,
            pos.ep if ep_capture_possible(pos, legal) else -1)


def insufficient_material(pos):
    """K v K, K+minor v K, and positions where the only other pieces are bishops all on
    squares of one colour (no sequence of legal moves can mate)."""
    rest = [(s, c) for s, c in enumerate(pos.b) if c not in ".Kk"]
    if not rest:
        return True
    if len(rest) == 1 and rest[0][1] in "NBnb":
        return True
    if all(c in "Bb" for _, c in rest):
        return len({(s % 8 + s // 8) % 2 for s, _ in rest}) == 1
    return False


def check_start_position(fen):
    """Parse a FEN and make sure a game can start from it; returns the Position."""
    pos = cl.Position(fen)
    if pos.b.count("K") != 1 or pos.b.count("k") != 1:
        raise ValueError("needs one king of each colour")
    if any(pos.b[s] in "Pp" for s in list(range(8)) + list(range(56, 64))):
        raise ValueError("pawn on the first or last rank")
    if pos.attacked(pos.king_sq(not pos.white), pos.white):
        raise ValueError("the side not to move is in check")
    legal = pos.legal()
    if not legal:
        raise ValueError("no legal moves (game already over)")
    if insufficient_material(pos):
        raise ValueError("insufficient material")
    return pos


class GameState:
    """A position plus the history the rules need (repetition counts)."""

    def __init__(self, fen=None):
        self.pos = cl.Position(fen or START_FEN)
        self.legal = self.pos.legal()
        self.reps = {}
        self.last_rep = 0
        self.plies = 0
        self._count()

    def _count(self):
        k = repetition_key(self.pos, self.legal)
        self.reps[k] = self.reps.get(k, 0) + 1
        self.last_rep = self.reps[k]

    def find_uci(self, text):
        t = text.strip()
        # promotion letters are lower case in UCI; accept upper case too
        if len(t) == 5:
            t = t[:4] + t[4].lower()
        for m in self.legal:
            if cl.Position.uci(m) == t:
                return m
        return None

    def push(self, m):
        """Play the legal move m; returns its SAN with + / #."""
        san = self.pos.san(m, self.legal, suffix=False)
        self.pos = self.pos.make(m)
        self.legal = self.pos.legal()
        if self.pos.in_check():
            san += "#" if not self.legal else "+"
        self.plies += 1
        self._count()
        return san

    def outcome(self):
        """(result, reason) when the rules end the game here, else None."""
        if not self.legal:
            if self.pos.in_check():
                return ("0-1", "Black mates") if self.pos.white else ("1-0", "White mates")
            return "1/2-1/2", "Draw by stalemate"
        if insufficient_material(self.pos):
            return "1/2-1/2", "Draw by insufficient mating material"
        if self.last_rep >= 3:
            return "1/2-1/2", "Draw by 3-fold repetition"
        if self.pos.hm >= 100:
            return "1/2-1/2", "Draw by fifty moves rule"
        return None


# ---------------------------------------------------------------------------------------
# Time controls, limits, engine specifications
# ---------------------------------------------------------------------------------------

class TimeControl:
    def __init__(self, text):
        m = re.fullmatch(r"\s*(?:(\d+)/)?(\d+(?:\.\d*)?|\d+:\d+(?:\.\d*)?)(?:\+(\d+(?:\.\d*)?))?\s*", text)
        if not m:
            raise ValueError("bad time control %r (want SECONDS+INC, MOVES/SECONDS or M:SS+INC)"
                             % text)
        self.moves = int(m.group(1)) if m.group(1) else 0
        base = m.group(2)
        if ":" in base:
            mm, ss = base.split(":", 1)
            self.base = int(mm) * 60 + float(ss)
        else:
            self.base = float(base)
        self.inc = float(m.group(3)) if m.group(3) else 0.0
        if self.base <= 0:
            raise ValueError("time control %r: the base time must be positive" % text)

    def __str__(self):
        def num(x):
            return ("%.3f" % x).rstrip("0").rstrip(".")
        s = (("%d/" % self.moves) if self.moves else "") + num(self.base)
        return s + ("+" + num(self.inc) if self.inc else "")


class Limit:
    """What an engine gets per move: a clock (tc) and/or nodes / movetime (ms) / depth."""

    def __init__(self, tc=None, nodes=None, movetime=None, depth=None):
        self.tc, self.nodes, self.movetime, self.depth = tc, nodes, movetime, depth

    def empty(self):
        return not (self.tc or self.nodes or self.movetime or self.depth)

    def __str__(self):
        parts = []
        if self.tc:
            parts.append("tc=%s" % self.tc)
        if self.nodes:
            parts.append("nodes=%d" % self.nodes)
        if self.movetime:
            parts.append("movetime=%dms" % self.movetime)
        if self.depth:
            parts.append("depth=%d" % self.depth)
        return " ".join(parts) or "none"

    def pgn_tc(self):
        """Value of the PGN TimeControl tag."""
        return str(self.tc) if self.tc else "-"


class EngineSpec:
    KEY = re.compile(r"^(name|cmd|dir|arg|tc|nodes|movetime|depth)=(.*)$", re.S)

    def __init__(self, text, default_limit):
        self.text = text
        self.name = None
        self.cmd = []
        self.dir = None
        self.options = []             # (name, value or None)
        lim = {}
        try:
            words = shlex.split(text)
        except ValueError as e:
            raise ValueError("engine %r: %s" % (text, e))
        in_cmd = False
        for w in words:
            m = self.KEY.match(w)
            if w.startswith("option."):
                body = w[len("option."):]
                if "=" in body:
                    k, v = body.split("=", 1)
                    self.options.append((k, v))
                else:
                    self.options.append((body, None))
                in_cmd = False
            elif m:
                k, v = m.group(1), m.group(2)
                in_cmd = False
                if k == "name":
                    self.name = v
                elif k == "cmd":
                    if self.cmd:
                        raise ValueError("engine %r: cmd= given twice" % text)
                    self.cmd = [v]
                    in_cmd = True
                elif k == "arg":
                    if not self.cmd:
                        raise ValueError("engine %r: arg= before cmd=" % text)
                    self.cmd.append(v)
                elif k == "dir":
                    self.dir = v
                elif k == "tc":
                    lim["tc"] = TimeControl(v)
                else:
                    try:
                        lim[k] = int(v)
                    except ValueError:
                        raise ValueError("engine %r: %s= wants an integer" % (text, k))
            elif in_cmd:
                self.cmd.append(w)
            else:
                raise ValueError("engine %r: do not understand %r (want KEY=VALUE; "
                                 "the command's arguments follow cmd=)" % (text, w))
        if not self.cmd or not self.cmd[0]:
            raise ValueError("engine %r: cmd= missing" % text)
        prog = self.cmd[0]
        if os.sep in prog and not os.path.isabs(prog) and os.path.exists(prog):
            self.cmd[0] = os.path.abspath(prog)      # relative to our cwd, not to dir=
        if self.dir and not os.path.isdir(self.dir):
            raise ValueError("engine %r: dir %s does not exist" % (text, self.dir))
        self.limit = Limit(**lim) if lim else default_limit
        if self.name is None:
            self.name = os.path.basename(prog)

    def __str__(self):
        s = "%s: %s" % (self.name, " ".join(shlex.quote(c) for c in self.cmd))
        for k, v in self.options:
            s += "  %s=%s" % (k, v) if v is not None else "  %s" % k
        return s


# ---------------------------------------------------------------------------------------
# UCI engine process
# ---------------------------------------------------------------------------------------

class EngineError(Exception):
    pass


class EngineDead(EngineError):
    pass


class EngineTimeout(EngineError):
    pass


class Interrupted(Exception):
    pass


class ConfigError(Exception):
    pass


LIVE = set()
LIVE_LOCK = threading.Lock()


def _kill_group(proc):
    """SIGKILL the engine's process group.  Only called while the engine process has not
    been reaped, so its pid (= its group id, start_new_session) cannot have been reused."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        try:
            proc.kill()
        except OSError:
            pass


def kill_all_engines():
    with LIVE_LOCK:
        engines = list(LIVE)
    for e in engines:
        p = e.proc
        if p is not None and p.returncode is None:
            _kill_group(p)


class InfoTracker:
    """The last `info` of the main line (multipv 1) that had a score."""

    def __init__(self):
        self.depth = None
        self.cp = None            # score in centipawns from the mover's point of view
        self.mate = None
        self.nodes = None

    def feed(self, line):
        t = line.split()
        i, n = 1, len(t)
        depth = score = mate = nodes = None
        multipv = 1
        while i < n:
            k = t[i]
            if k == "string":
                return
            if k == "pv":
                break
            try:
                if k == "depth":
                    depth = int(t[i + 1])
                    i += 2
                elif k == "multipv":
                    multipv = int(t[i + 1])
                    i += 2
                elif k == "nodes":
                    nodes = int(t[i + 1])
                    i += 2
                elif k == "score":
                    if t[i + 1] == "cp":
                        score = int(t[i + 2])
                    elif t[i + 1] == "mate":
                        mate = int(t[i + 2])
                    i += 3
                else:
                    i += 1
            except (IndexError, ValueError):
                i += 1
        if multipv != 1:
            return
        if nodes is not None:
            self.nodes = nodes
        if score is not None or mate is not None:
            self.cp, self.mate = score, mate
            if depth is not None:
                self.depth = depth

    def score_cp(self):
        """Mover's score in centipawns, mates as +-(MATE_CP - distance); None if unknown."""
        if self.mate is not None:
            if self.mate > 0:
                return MATE_CP - self.mate
            return -MATE_CP - self.mate          # mate 0 / -n: being mated
        return self.cp

    def text(self):
        if self.mate is not None:
            s = ("+M%d" % self.mate) if self.mate > 0 else ("-M%d" % -self.mate)
        elif self.cp is not None:
            s = "%+.2f" % (self.cp / 100.0)
        else:
            return ""
        return s + ("/%d" % self.depth if self.depth is not None else "")


class Engine:
    def __init__(self, spec, cfg, tag):
        self.spec = spec
        self.cfg = cfg
        self.tag = tag
        self.proc = None
        self.q = queue.Queue()
        self.dead = False
        self.healthy = False
        self.id_name = None
        self.engine_options = {}      # lower-case name -> (name, type, min, max)
        self._stderr = None

    # -- low level -------------------------------------------------------------------
    def _log(self, arrow, line):
        if self.cfg.debug:
            say("%9.3f %s %s %s" % (time.monotonic() - T_START, self.tag, arrow, line), err=True)

    def _reader(self, stream):
        try:
            for line in stream:
                self.q.put((time.monotonic(), line.rstrip("\r\n")))
        except (OSError, ValueError):
            pass
        self.q.put((time.monotonic(), None))

    def send(self, line):
        self._log(">", line)
        if self.dead or self.proc is None:
            raise EngineDead("engine has exited")
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError):
            self.dead = True
            raise EngineDead("write to engine failed (exited?)")

    def readline(self, deadline, stop=None, what="a reply"):
        """Next line from the engine as (monotonic time it was read, text)."""
        while True:
            if stop is not None and stop.is_set():
                raise Interrupted()
            remaining = deadline - time.monotonic()
            try:
                t, line = self.q.get(timeout=max(0.0, min(remaining, 0.05)))
            except queue.Empty:
                if time.monotonic() >= deadline:
                    raise EngineTimeout("no %s within the time allowed" % what)
                continue
            if line is None:
                self.dead = True
                self.q.put((t, None))      # keep the end marker for later reads
                raise EngineDead("engine exited (end of output)")
            self._log("<", line)
            return t, line

    def drain(self):
        while True:
            try:
                t, line = self.q.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self.dead = True
                self.q.put((t, None))
                raise EngineDead("engine exited (end of output)")
            self._log("<", line)

    # -- protocol --------------------------------------------------------------------
    def start(self, stop=None):
        if self.cfg.engine_stderr:
            self._stderr = open(self.cfg.engine_stderr, "a")
        try:
            self.proc = subprocess.Popen(
                self.spec.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=self._stderr if self._stderr else subprocess.DEVNULL,
                cwd=self.spec.dir, text=True, encoding="utf-8", errors="replace",
                bufsize=1, start_new_session=True)
        except (FileNotFoundError, PermissionError, NotADirectoryError) as e:
            raise ConfigError("engine %s: cannot run %s: %s" % (self.spec.name, self.spec.cmd[0], e))
        with LIVE_LOCK:
            LIVE.add(self)
        threading.Thread(target=self._reader, args=(self.proc.stdout,), daemon=True,
                         name="read-" + self.tag).start()
        deadline = time.monotonic() + self.cfg.startup_timeout
        self.send("uci")
        while True:
            _, line = self.readline(deadline, stop, "uciok")
            s = line.strip()
            if s.startswith("id name "):
                self.id_name = s[8:].strip()
            elif s.startswith("option name "):
                m = re.match(r"option name (.+?) type (\S+)(.*)$", s)
                if m:
                    mn = re.search(r"\bmin (-?\d+)", m.group(3))
                    mx = re.search(r"\bmax (-?\d+)", m.group(3))
                    self.engine_options[m.group(1).lower()] = (
                        m.group(1), m.group(2), int(mn.group(1)) if mn else None,
                        int(mx.group(1)) if mx else None)
            elif s == "uciok":
                break
        for name, value in self.spec.options:
            known = self.engine_options.get(name.lower())
            if known:
                name = known[0]
                if value is not None and known[1] == "spin" and known[2] is not None:
                    try:
                        v = int(value)
                        if not known[2] <= v <= known[3]:
                            self.warn_once("option %s=%s outside the engine's range %d..%d"
                                           % (name, value, known[2], known[3]))
                    except ValueError:
                        self.warn_once("option %s=%s is not an integer" % (name, value))
            elif self.engine_options:
                self.warn_once("option %r is not among the options the engine declares" % name)
            self.send("setoption name %s" % name + ("" if value is None else " value %s" % value))
        self.sync(deadline, stop)
        self.healthy = True

    WARNED = set()

    def warn_once(self, msg):
        key = (self.spec.name, msg)
        if key not in Engine.WARNED:
            Engine.WARNED.add(key)
            say("warning: engine %s: %s" % (self.spec.name, msg), err=True)

    def sync(self, deadline, stop=None):
        self.send("isready")
        while True:
            _, line = self.readline(deadline, stop, "readyok")
            if line.strip() == "readyok":
                return

    def new_game(self, stop=None):
        self.drain()
        self.send("ucinewgame")
        self.sync(time.monotonic() + self.cfg.startup_timeout, stop)

    def go(self, position_cmd, go_cmd, budget, stop):
        """Ask for a move.  Returns (t_go, t_bestmove, move text, InfoTracker).  t_go is
        taken just after `go` is written, t_bestmove when the reader got the line."""
        self.drain()
        self.send(position_cmd)
        self.send(go_cmd)
        t0 = time.monotonic()
        deadline = t0 + budget
        info = InfoTracker()
        while True:
            try:
                t, line = self.readline(deadline, stop, "bestmove")
            except EngineTimeout as e:
                e.t_go = t0
                raise
            if line.startswith("info"):
                info.feed(line)
            elif line.startswith("bestmove"):
                w = line.split()
                return t0, t, (w[1] if len(w) > 1 else ""), info

    def abandon_search(self):
        """After a timeout: `stop`, and wait briefly for the engine to come back."""
        try:
            self.send("stop")
            self.sync(time.monotonic() + self.cfg.stop_wait)
        except EngineError:
            self.healthy = False

    def close(self):
        p = self.proc
        if p is None:
            return
        try:
            if not self.dead:
                self._log(">", "quit")
                p.stdin.write("quit\n")
                p.stdin.flush()
        except (OSError, ValueError):
            pass
        try:
            p.stdin.close()
        except (OSError, ValueError):
            pass
        deadline = time.monotonic() + self.cfg.quit_wait
        if hasattr(os, "waitid"):
            while time.monotonic() < deadline:
                try:
                    # WNOWAIT: look without reaping, so the pid stays ours for killpg
                    r = os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
                except ChildProcessError:
                    break
                if r is not None:
                    break
                time.sleep(0.01)
            if p.returncode is None:
                _kill_group(p)        # also ends whatever the engine itself started
        else:
            try:
                p.wait(timeout=self.cfg.quit_wait)
            except subprocess.TimeoutExpired:
                _kill_group(p)
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        with LIVE_LOCK:
            LIVE.discard(self)
        self.proc = None
        self.dead = True
        self.healthy = False
        if self._stderr:
            self._stderr.close()
            self._stderr = None


# ---------------------------------------------------------------------------------------
# PGN reading (openings, --verify-pgn) and writing
# ---------------------------------------------------------------------------------------

TAG_RE = re.compile(r'^\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]')


def read_pgn(path):
    """Yields (tags dict, movetext string) for each game of a PGN file."""
    tags, text, in_moves = {}, [], False
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            s = line.strip()
            if s.startswith("%"):
                continue
            if s.startswith("["):
                m = TAG_RE.match(s)
                if m:
                    if in_moves:
                        yield tags, "".join(text)
                        tags, text, in_moves = {}, [], False
                    tags[m.group(1)] = re.sub(r"\\(.)", r"\1", m.group(2))
                    continue
            if s:
                in_moves = True
                text.append(line)
            elif in_moves:
                text.append("\n")
    if tags or text:
        yield tags, "".join(text)


def movetext_tokens(text):
    """SAN tokens of the main line and the result token (or None)."""
    main = []
    depth = 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "{":
            j = text.find("}", i)
            i = n if j < 0 else j + 1
            main.append(" ")
            continue
        if c == ";":
            j = text.find("\n", i)
            i = n if j < 0 else j + 1
            main.append(" ")
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            main.append(c)
        else:
            pass
        if c in "()":
            main.append(" ")
        i += 1
    sans, result = [], None
    for tok in "".join(main).split():
        if tok in RESULTS:
            result = tok
            break
        if tok.startswith("$"):
            continue
        tok = re.sub(r"^\d+\.*", "", tok)
        if tok:
            sans.append(tok)
    return sans, result


def pgn_escape(v):
    return str(v).replace("\\", "\\\\").replace('"', '\\"')


def pgn_game_text(rec, cfg):
    tags = [("Event", cfg.event), ("Site", cfg.site), ("Date", rec.date),
            ("Round", str(rec.round)), ("White", rec.white), ("Black", rec.black),
            ("Result", rec.result)]
    if rec.fen:
        tags += [("SetUp", "1"), ("FEN", rec.fen)]
    if rec.white_limit.pgn_tc() == rec.black_limit.pgn_tc():
        tags.append(("TimeControl", rec.white_limit.pgn_tc()))
    else:
        tags += [("WhiteTimeControl", rec.white_limit.pgn_tc()),
                 ("BlackTimeControl", rec.black_limit.pgn_tc())]
    for side, lim in (("White", rec.white_limit), ("Black", rec.black_limit)):
        if not lim.tc:
            tags.append((side + "Limit", str(lim)))
    tags += [("Termination", rec.termination), ("Opening", rec.opening_label)]
    if rec.eco:
        tags.append(("ECO", rec.eco))
    tags += [("PlyCount", str(len(rec.moves))), ("GameDuration", "%.1fs" % rec.duration)]
    out = ['[%s "%s"]' % (k, pgn_escape(v)) for k, v in tags]
    out.append("")
    start = cl.Position(rec.fen or START_FEN)
    white, fm = start.white, start.fm
    toks = []
    need_number = True
    for i, (san, comment) in enumerate(rec.moves):
        # a move number and its move stay on one line
        if white:
            toks.append("%d. %s" % (fm, san))
        elif need_number:
            toks.append("%d... %s" % (fm, san))
        else:
            toks.append(san)
        need_number = False
        notes = []
        if comment and cfg.pgn_comments:
            notes.append(comment)
        if i == rec.book_plies - 1:
            notes.append("end of opening")
        if notes:
            toks.append("{" + "; ".join(notes).replace("}", ")") + "}")
            need_number = True
        if not white:
            fm += 1
        white = not white
    if rec.reason:
        toks.append("{" + rec.reason.replace("}", ")") + "}")
    toks.append(rec.result)
    lines, cur = [], ""
    for t in toks:
        if cur and len(cur) + 1 + len(t) > 79:
            lines.append(cur)
            cur = t
        else:
            cur = cur + " " + t if cur else t
    if cur:
        lines.append(cur)
    return "\n".join(out + lines) + "\n\n"


# ---------------------------------------------------------------------------------------
# Openings
# ---------------------------------------------------------------------------------------

class Opening:
    def __init__(self, label, fen=None, moves=(), eco=None):
        self.label, self.fen, self.moves, self.eco = label, fen, list(moves), eco


class OpeningBook:
    """EPD/FEN lines or PGN games; entries are parsed only when they are used."""

    def __init__(self, path, fmt="auto", plies=0):
        self.path = path
        self.base = os.path.basename(path)
        self.plies = plies
        if fmt == "auto":
            fmt = "pgn" if path.lower().endswith(".pgn") else None
            if fmt is None:
                with open(path, encoding="utf-8", errors="replace") as f:
                    for line in f:
                        if line.strip():
                            fmt = "pgn" if line.lstrip().startswith("[") else "epd"
                            break
                fmt = fmt or "epd"
        self.fmt = fmt
        self.entries = []
        if fmt == "pgn":
            for tags, text in read_pgn(path):
                if text.strip() or "FEN" in tags:
                    self.entries.append((tags, text))
        else:
            with open(path, encoding="utf-8", errors="replace") as f:
                for no, line in enumerate(f, 1):
                    s = line.strip()
                    if s and not s.startswith("#"):
                        self.entries.append((no, s))
        if not self.entries:
            raise ValueError("no openings in %s" % path)

    def __len__(self):
        return len(self.entries)

    def get(self, i):
        if self.fmt == "pgn":
            tags, text = self.entries[i]
            fen = tags.get("FEN") if tags.get("SetUp", "1") == "1" else None
            label = "%s#%d" % (self.base, i + 1)
            if fen:
                check_start_position(fen)
            sans, _ = movetext_tokens(text)
            if self.plies:
                sans = sans[:self.plies]
            st = GameState(fen)
            moves = []
            for san in sans:
                m = st.pos.parse_san(san)
                if m is None:
                    raise ValueError("%s: illegal or ambiguous move %r" % (label, san))
                st.push(m)
                moves.append(m)
                if st.outcome():
                    raise ValueError("%s: the game is over after the opening" % label)
            return Opening(label, fen, moves, tags.get("ECO") or tags.get("Eco"))
        no, line = self.entries[i]
        f = line.split()
        if len(f) < 4:
            raise ValueError("%s:%d: not a FEN/EPD line" % (self.base, no))
        hm, fm = 0, 1
        rest = f[4:]
        if len(rest) >= 2 and rest[0].isdigit() and rest[1].isdigit():
            hm, fm = int(rest[0]), int(rest[1])
            rest = rest[2:]
        ops = " ".join(rest)
        m = re.search(r"\bhmvc\s+(\d+)", ops)
        hm = int(m.group(1)) if m else hm
        m = re.search(r"\bfmvn\s+(\d+)", ops)
        fm = int(m.group(1)) if m else fm
        fen = "%s %d %d" % (" ".join(f[:4]), hm, max(1, fm))
        label = "%s:%d" % (self.base, no)
        m = re.search(r'\bid\s+"([^"]*)"', ops)
        if m:
            label += " " + m.group(1)
        try:
            check_start_position(fen)
        except ValueError as e:
            raise ValueError("%s: %s" % (label, e))
        return Opening(label, fen)


# ---------------------------------------------------------------------------------------
# Playing one game
# ---------------------------------------------------------------------------------------

class GameRecord:
    def __init__(self, job):
        self.job = job
        self.round = job.number
        self.white = job.white.name
        self.black = job.black.name
        self.white_limit = job.white.limit
        self.black_limit = job.black.limit
        self.fen = job.opening.fen
        self.opening_label = job.opening.label
        self.eco = job.opening.eco
        self.book_plies = len(job.opening.moves)
        self.date = datetime.date.today().strftime("%Y.%m.%d")
        self.moves = []               # (san, comment)
        self.result = "*"
        self.termination = "unterminated"
        self.reason = ""
        self.fault = None             # (engine name, "time" | "illegal" | "crash")
        self.duration = 0.0
        self.stats = {}               # engine name -> counters for this game

    def finish(self, result, termination, reason, fault=None):
        self.result, self.termination, self.reason, self.fault = result, termination, reason, fault
        return self


def new_engine_stats():
    return {"games": 0, "time_losses": 0, "illegal_moves": 0, "crashes": 0,
            "moves": 0, "min_clock_left_ms": None, "max_move_time_ms": 0.0}


def play_game(job, white, black, cfg, stop):
    """white, black: started Engine objects (or an EngineError instance if it failed)."""
    rec = GameRecord(job)
    t_game = time.monotonic()
    rec.stats = {job.white.name: new_engine_stats(), job.black.name: new_engine_stats()}

    def side_name(w):
        return "White" if w else "Black"

    def lose(w, termination, reason, kind):
        rec.stats[job.white.name if w else job.black.name][
            {"time": "time_losses", "illegal": "illegal_moves", "crash": "crashes"}[kind]] += 1
        return rec.finish("0-1" if w else "1-0", termination, reason,
                          (job.white.name if w else job.black.name, kind))

    def done(r):
        r.duration = time.monotonic() - t_game
        return r

    # engines that could not be started or prepared lose at once
    bad = [isinstance(white, Exception), isinstance(black, Exception)]
    if bad[0] and bad[1]:
        return done(rec.finish("*", "abandoned", "neither engine could start"))
    if bad[0] or bad[1]:
        w = bad[0]
        err = white if w else black
        return done(lose(w, "abandoned", "%s (%s) fails to start: %s" % (
            side_name(w), (job.white if w else job.black).name, err), "crash"))

    op = job.opening
    st = GameState(op.fen)
    uci_moves = []
    for m in op.moves:
        rec.moves.append((st.push(m), ""))
        uci_moves.append(cl.Position.uci(m))
    prefix = "position fen %s" % op.fen if op.fen else "position startpos"
    engines = {True: white, False: black}
    specs = {True: job.white, False: job.black}
    clocks = {w: (specs[w].limit.tc.base if specs[w].limit.tc else None) for w in (True, False)}
    own_moves = {True: 0, False: 0}
    resign_count = {True: 0, False: 0}     # consecutive plies with White / Black clearly ahead
    draw_count = 0
    engine_plies = 0
    tag = "#%d" % job.number

    while True:
        if stop.is_set():
            return done(rec.finish("*", "unterminated", "match interrupted"))
        w = st.pos.white
        eng, spec = engines[w], specs[w]
        lim = spec.limit
        stats = rec.stats[spec.name]
        parts = ["go"]
        if lim.tc:
            # an opponent without a clock (per-engine limits) is shown the mover's own clock
            wt = clocks[True] if specs[True].limit.tc else clocks[w]
            bt = clocks[False] if specs[False].limit.tc else clocks[w]
            wi = specs[True].limit.tc.inc if specs[True].limit.tc else lim.tc.inc
            bi = specs[False].limit.tc.inc if specs[False].limit.tc else lim.tc.inc
            parts += ["wtime", str(max(0, int(wt * 1000))), "btime", str(max(0, int(bt * 1000))),
                      "winc", str(int(round(wi * 1000))), "binc", str(int(round(bi * 1000)))]
            if lim.tc.moves:
                parts += ["movestogo", str(lim.tc.moves - own_moves[w] % lim.tc.moves)]
            budget = clocks[w] + cfg.grace / 1000.0
        elif lim.movetime:
            budget = lim.movetime / 1000.0 + cfg.move_timeout
        else:
            budget = cfg.move_timeout
        if lim.nodes:
            parts += ["nodes", str(lim.nodes)]
        if lim.depth:
            parts += ["depth", str(lim.depth)]
        if lim.movetime:
            parts += ["movetime", str(lim.movetime)]
        pos_cmd = prefix + (" moves " + " ".join(uci_moves) if uci_moves else "")
        try:
            t0, t1, text, info = eng.go(pos_cmd, " ".join(parts), max(0.0, budget), stop)
        except Interrupted:
            eng.abandon_search()
            return done(rec.finish("*", "unterminated", "match interrupted"))
        except EngineTimeout as e:
            left_ms = (clocks[w] - (time.monotonic() - e.t_go)) * 1000.0 if lim.tc else None
            eng.abandon_search()
            if lim.tc:
                if stats["min_clock_left_ms"] is None or stats["min_clock_left_ms"] > left_ms:
                    stats["min_clock_left_ms"] = left_ms
                reason = "%s loses on time (no bestmove within its %.3f s clock%s)" % (
                    side_name(w), clocks[w], " + %d ms grace" % cfg.grace if cfg.grace else "")
            else:
                reason = "%s loses on time (no bestmove within %.1f s)" % (side_name(w), budget)
            say("%s %s: %s" % (tag, spec.name, reason), err=True)
            return done(lose(w, "time forfeit", reason, "time"))
        except EngineDead as e:
            eng.healthy = False
            reason = "%s's engine disconnects (%s)" % (side_name(w), e)
            say("%s %s: %s" % (tag, spec.name, reason), err=True)
            return done(lose(w, "abandoned", reason, "crash"))
        elapsed = t1 - t0
        stats["moves"] += 1
        stats["max_move_time_ms"] = max(stats["max_move_time_ms"], elapsed * 1000.0)
        clock_note = ""
        if lim.tc:
            left = clocks[w] - elapsed
            if stats["min_clock_left_ms"] is None or left * 1000.0 < stats["min_clock_left_ms"]:
                stats["min_clock_left_ms"] = left * 1000.0
            if left * 1000.0 < -cfg.grace:
                reason = "%s loses on time (%.3f s used, %.3f s on the clock)" % (
                    side_name(w), elapsed, clocks[w])
                say("%s %s: %s" % (tag, spec.name, reason), err=True)
                return done(lose(w, "time forfeit", reason, "time"))
            own_moves[w] += 1
            clocks[w] = left + lim.tc.inc
            if lim.tc.moves and own_moves[w] % lim.tc.moves == 0:
                clocks[w] += lim.tc.base
            clock_note = " clock %.3fs" % clocks[w]
        m = st.find_uci(text)
        if m is None:
            reason = "%s makes an illegal move: %s" % (side_name(w), text or "(none)")
            say("%s %s: %s in %s" % (tag, spec.name, reason, st.pos.fen()), err=True)
            return done(lose(w, "rules infraction", reason, "illegal"))
        move_no = "%d.%s" % (st.pos.fm, "" if w else "..")
        san = st.push(m)
        uci_moves.append(cl.Position.uci(m))
        engine_plies += 1
        comment = (info.text() + " " if info.text() else "") + "%.3fs" % elapsed
        rec.moves.append((san, comment))
        if cfg.verbose:
            say("%s %s %s %s (%s) %s%s" % (tag, spec.name, move_no, san, text, comment, clock_note))
        o = st.outcome()
        if o:
            return done(rec.finish(o[0], "normal", o[1]))
        # adjudication, from the scores both engines report
        sc = info.score_cp()
        white_sc = None if sc is None else (sc if w else -sc)
        if cfg.resign_moves:
            for side in (True, False):
                ahead = white_sc is not None and (
                    white_sc >= cfg.resign_score if side else white_sc <= -cfg.resign_score)
                resign_count[side] = resign_count[side] + 1 if ahead else 0
                if resign_count[side] >= 2 * cfg.resign_moves:
                    return done(rec.finish("1-0" if side else "0-1", "adjudication",
                                           "%s wins by adjudication (both engines agree)"
                                           % side_name(side)))
        if cfg.draw_moves:
            draw_count = draw_count + 1 if (white_sc is not None
                                            and abs(white_sc) <= cfg.draw_score) else 0
            if draw_count >= 2 * cfg.draw_moves and st.plies >= 2 * cfg.draw_after:
                return done(rec.finish("1/2-1/2", "adjudication", "Draw by adjudication"))
        if cfg.max_moves and engine_plies >= 2 * cfg.max_moves:
            return done(rec.finish("1/2-1/2", "adjudication",
                                   "Draw by adjudication: maximum game length"))


# ---------------------------------------------------------------------------------------
# Statistics
# ---------------------------------------------------------------------------------------

def elo_of(s):
    if s <= 0:
        return -math.inf
    if s >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / s - 1.0)


def interval(mean, se):
    """(elo, lo, hi, half-width) of a 95% interval around the mean score (logistic)."""
    e = elo_of(mean)
    lo = elo_of(mean - 1.96 * se)
    hi = elo_of(mean + 1.96 * se)
    half = (hi - lo) / 2.0 if math.isfinite(lo) and math.isfinite(hi) else math.inf
    return e, lo, hi, half


def summarize(scores, pairs):
    """scores: engine 1's game scores (1, 0.5, 0); pairs: list of (s1, s2) of complete
    pairs (same opening, colours reversed)."""
    n = len(scores)
    w = sum(1 for s in scores if s == 1)
    d = sum(1 for s in scores if s == 0.5)
    l_ = n - w - d
    out = {"games": n, "w": w, "d": d, "l": l_}
    if n == 0:
        return out
    mean = sum(scores) / n
    out["score"] = mean
    out["draw_ratio"] = d / n
    var = sum((s - mean) ** 2 for s in scores) / n
    se_tri = math.sqrt(var / n)
    e, lo, hi, half = interval(mean, se_tri)
    out.update(elo=e, elo_lo_tri=lo, elo_hi_tri=hi, err95_tri=half)
    penta = [0, 0, 0, 0, 0]
    for a, b in pairs:
        penta[int(round((a + b) * 2))] += 1
    out["pairs"] = len(pairs)
    out["penta"] = penta          # LL, LD, DD+WL, WD, WW (engine 1's pair totals 0..2)
    if len(pairs) >= 2:
        ps = [(a + b) / 2.0 for a, b in pairs]
        pm = sum(ps) / len(ps)
        pvar = sum((x - pm) ** 2 for x in ps) / len(ps)
        se_p = math.sqrt(pvar / len(ps))
        # the interval is centred on the score of all games; the pair variance sets its width
        _, plo, phi, phalf = interval(mean, se_p)
        out.update(elo_lo_penta=plo, elo_hi_penta=phi, err95_penta=phalf)
    if "err95_penta" in out and 2 * len(pairs) == n:
        out.update(elo_lo=out["elo_lo_penta"], elo_hi=out["elo_hi_penta"],
                   err95=out["err95_penta"], model="pentanomial")
    else:
        out.update(elo_lo=lo, elo_hi=hi, err95=half, model="trinomial")
    out["los"] = (0.5 + 0.5 * math.erf((w - l_) / math.sqrt(2.0 * (w + l_)))) if w + l_ else 0.5
    return out


def fmt_elo(x):
    if x is None:
        return "-"
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return "%+.1f" % x


def json_num(x):
    if isinstance(x, float):
        if math.isnan(x) or math.isinf(x):
            return None
        return round(x, 4)
    return x


# ---------------------------------------------------------------------------------------
# The match
# ---------------------------------------------------------------------------------------

class Job:
    def __init__(self, number, pair, opponent, white, black, opening):
        self.number, self.pair, self.opponent = number, pair, opponent
        self.white, self.black, self.opening = white, black, opening


class Match:
    def __init__(self, cfg, specs):
        self.cfg = cfg
        self.specs = specs
        self.e1 = specs[0]
        self.opponents = specs[1:]
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.records = []
        self.fatal = None
        self.total = 0
        self.finished = 0
        self.aborted = 0
        self.estats = {s.name: new_engine_stats() for s in specs}
        self.pgn = open(cfg.pgn, "w", encoding="utf-8") if cfg.pgn else None

    # -- scheduling --------------------------------------------------------------------
    def openings(self, npairs):
        cfg = self.cfg
        if not cfg.openings:
            return [Opening("startpos")] * npairs
        book = OpeningBook(cfg.openings, cfg.opening_format, cfg.opening_plies)
        order = list(range(len(book)))
        if cfg.opening_order == "random":
            random.Random(cfg.seed).shuffle(order)
        out, k, skipped = [], 0, 0
        if npairs > len(book):
            say("warning: %d pairs but only %d openings; openings repeat" % (npairs, len(book)),
                err=True)
        while len(out) < npairs:
            if skipped >= len(book):
                raise ValueError("no usable opening in %s" % cfg.openings)
            i = order[k % len(order)]
            k += 1
            try:
                out.append(book.get(i))
                skipped = 0
            except ValueError as e:
                skipped += 1
                say("warning: opening skipped: %s" % e, err=True)
        return out

    def jobs(self):
        cfg = self.cfg
        npairs = (cfg.games + 1) // 2
        ops = self.openings(npairs)
        jobs, n = [], 0
        for p in range(npairs):
            for opp in self.opponents:
                for k in (0, 1):
                    if 2 * p + k >= cfg.games:
                        continue
                    n += 1
                    w, b = (self.e1, opp) if k == 0 else (opp, self.e1)
                    jobs.append(Job(n, p, opp, w, b, ops[p]))
        return jobs

    # -- workers -----------------------------------------------------------------------
    def prepare(self, engines, spec, wid, stop):
        """A started engine ready for a new game, or the EngineError why not."""
        cfg = self.cfg
        for attempt in range(2):
            e = engines.get(spec.name)
            if e is not None and (cfg.restart or attempt or not e.healthy or e.dead):
                e.close()
                e = None
            try:
                if e is None:
                    e = Engine(spec, cfg, "w%d:%s" % (wid, spec.name))
                    engines[spec.name] = e
                    e.start(stop)
                e.new_game(stop)
                return e
            except EngineError as err:
                e.healthy = False
                if attempt:
                    return err
        return EngineError("could not start")

    def worker(self, wid, jobq):
        engines = {}
        try:
            while not self.stop.is_set():
                try:
                    job = jobq.get_nowait()
                except queue.Empty:
                    break
                try:
                    we = self.prepare(engines, job.white, wid, self.stop)
                    be = self.prepare(engines, job.black, wid, self.stop)
                    rec = play_game(job, we, be, self.cfg, self.stop)
                except Interrupted:
                    rec = GameRecord(job).finish("*", "unterminated", "match interrupted")
                except ConfigError as e:
                    self.fatal = str(e)
                    self.stop.set()
                    break
                except Exception as e:          # a referee bug must not hang the match
                    import traceback
                    say("error in game %d: %s\n%s" % (job.number, e, traceback.format_exc()),
                        err=True)
                    for eng in engines.values():
                        eng.healthy = False
                    rec = GameRecord(job).finish("*", "unterminated", "referee error: %s" % e)
                for name in (job.white.name, job.black.name):
                    eng = engines.get(name)
                    if eng is not None and eng.dead:
                        eng.close()
                self.record(rec)
        finally:
            for e in engines.values():
                e.close()

    def record(self, rec):
        with self.lock:
            if rec.result == "*":
                self.aborted += 1
                if not self.stop.is_set():
                    say("game %d not counted: %s" % (rec.round, rec.reason))
                return
            self.records.append(rec)
            self.finished += 1
            for name, st in rec.stats.items():
                acc = self.estats[name]
                acc["games"] += 1
                for k in ("time_losses", "illegal_moves", "crashes", "moves"):
                    acc[k] += st[k]
                acc["max_move_time_ms"] = max(acc["max_move_time_ms"], st["max_move_time_ms"])
                if st["min_clock_left_ms"] is not None and (
                        acc["min_clock_left_ms"] is None
                        or st["min_clock_left_ms"] < acc["min_clock_left_ms"]):
                    acc["min_clock_left_ms"] = st["min_clock_left_ms"]
            opp = rec.job.opponent.name
            sc = [self.e1_score(r) for r in self.records if r.job.opponent.name == opp]
            w = sc.count(1.0)
            d = sc.count(0.5)
            plies = len(rec.moves) - rec.book_plies
            say("[%*d/%d] %s - %s  %-7s %s  (%s, %d plies, %.1fs)  %s vs %s: +%d =%d -%d" % (
                len(str(self.total)), rec.round, self.total, rec.white, rec.black, rec.result,
                rec.reason, rec.opening_label, plies, rec.duration,
                self.e1.name, opp, w, d, len(sc) - w - d))
            if self.pgn:
                self.pgn.write(pgn_game_text(rec, self.cfg))
                self.pgn.flush()

    def e1_score(self, rec):
        s = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[rec.result]
        return s if rec.white == self.e1.name else 1.0 - s

    def run(self):
        jobs = self.jobs()
        self.total = len(jobs)
        jobq = queue.Queue()
        for j in jobs:
            jobq.put(j)
        threads = [threading.Thread(target=self.worker, args=(i + 1, jobq), name="game-%d" % (i + 1),
                                    daemon=True)
                   for i in range(max(1, min(self.cfg.concurrency, len(jobs))))]
        for t in threads:
            t.start()
        while any(t.is_alive() for t in threads):
            for t in threads:
                t.join(0.2)
        if self.pgn:
            self.pgn.close()

    # -- report ------------------------------------------------------------------------
    def report(self, interrupted):
        cfg = self.cfg
        rows = []
        groups = [(o.name, [r for r in self.records if r.job.opponent.name == o.name])
                  for o in self.opponents]
        if len(self.opponents) > 1:
            groups.append(("(all)", list(self.records)))
        for name, recs in groups:
            scores = [self.e1_score(r) for r in recs]
            bypair = {}
            for r in recs:
                bypair.setdefault((r.job.opponent.name, r.job.pair), []).append(self.e1_score(r))
            pairs = [tuple(v) for v in bypair.values() if len(v) == 2]
            rows.append((name, summarize(scores, pairs)))
        say("")
        say("Results of %s (engine 1) against %s; %s; 95%% error bars" % (
            self.e1.name, ", ".join(o.name for o in self.opponents),
            "limits: " + ", ".join("%s %s" % (s.name, s.limit) for s in self.specs)
            if any(s.limit is not cfg.limit for s in self.specs) else str(cfg.limit)))
        say("%-14s %5s %5s %5s %5s %7s %8s %8s  %-19s %6s  %s" % (
            "opponent", "games", "W", "D", "L", "score", "Elo", "+-95%", "interval", "LOS",
            "pairs LL LD DD/WL WD WW"))
        for name, s in rows:
            if not s["games"]:
                say("%-14s %5d" % (name, 0))
                continue
            say("%-14s %5d %5d %5d %5d %6.1f%% %8s %8s  %-19s %5.1f%%  %d: %s%s" % (
                name, s["games"], s["w"], s["d"], s["l"], 100 * s["score"], fmt_elo(s["elo"]),
                ("%.1f" % s["err95"]) if math.isfinite(s["err95"]) else "inf",
                "[%s, %s]" % (fmt_elo(s["elo_lo"]), fmt_elo(s["elo_hi"])), 100 * s["los"],
                s["pairs"], " ".join(str(x) for x in s["penta"]),
                "" if s["model"] == "pentanomial" else "  (trinomial)"))
        say("")
        say("%-14s %5s %11s %8s %8s %14s %13s" % ("engine", "games", "time-losses", "illegal",
                                                 "crashes", "min-clock-left", "max-move-time"))
        for spec in self.specs:
            st = self.estats[spec.name]
            say("%-14s %5d %11d %8d %8d %14s %13s" % (
                spec.name, st["games"], st["time_losses"], st["illegal_moves"], st["crashes"],
                "-" if st["min_clock_left_ms"] is None else "%.0f ms" % st["min_clock_left_ms"],
                "%.0f ms" % st["max_move_time_ms"]))
        if self.aborted:
            say("%d game(s) not counted (interrupted or unfinished)" % self.aborted)
        if cfg.json is not None:
            obj = {
                "engine": self.e1.name,
                "limit": str(cfg.limit),
                "seed": cfg.seed,
                "openings": cfg.openings,
                "games_planned": self.total,
                "games_counted": len(self.records),
                "games_not_counted": self.aborted,
                "interrupted": interrupted,
                "opponents": [],
                "engines": {},
            }
            for name, s in rows:
                o = {"name": name}
                o.update({k: (json_num(v) if not isinstance(v, list) else v) for k, v in s.items()})
                obj["opponents"].append(o)
            for spec in self.specs:
                st = self.estats[spec.name]
                obj["engines"][spec.name] = {k: json_num(v) for k, v in st.items()}
                obj["engines"][spec.name]["limit"] = str(spec.limit)
            line = json.dumps(obj, sort_keys=False)
            if cfg.json not in ("", "-"):
                with open(cfg.json, "w") as f:
                    f.write(line + "\n")
            say(line)


# ---------------------------------------------------------------------------------------
# --verify-pgn
# ---------------------------------------------------------------------------------------

def verify_pgn(path):
    errors = 0
    games = plies = 0
    kinds = {}

    def bad(i, msg):
        nonlocal errors
        errors += 1
        say("game %d: %s" % (i, msg))

    for i, (tags, text) in enumerate(read_pgn(path), 1):
        games += 1
        for t in ("Event", "Site", "Date", "Round", "White", "Black", "Result"):
            if t not in tags:
                bad(i, "tag %s missing" % t)
        fen = tags.get("FEN") if tags.get("SetUp") == "1" else None
        try:
            st = GameState(fen)
        except (ValueError, IndexError) as e:
            bad(i, "bad FEN: %s" % e)
            continue
        sans, result = movetext_tokens(text)
        ok = True
        for k, san in enumerate(sans):
            if st.outcome():
                bad(i, "move %d (%s) played after the game was over (%s)" % (k + 1, san, st.outcome()[1]))
                ok = False
                break
            m = st.pos.parse_san(san)
            if m is None:
                bad(i, "move %d: %r is illegal or ambiguous in %s" % (k + 1, san, st.pos.fen()))
                ok = False
                break
            canon = st.pos.san(m, st.legal)
            if canon != san:
                bad(i, "move %d: %r is not canonical SAN (%r)" % (k + 1, san, canon))
            st.push(m)
            plies += 1
        if not ok:
            continue
        if result is None:
            bad(i, "no result token at the end of the movetext")
        elif result != tags.get("Result"):
            bad(i, "result token %s differs from the Result tag %s" % (result, tags.get("Result")))
        if "PlyCount" in tags and tags["PlyCount"] != str(len(sans)):
            bad(i, "PlyCount %s but %d moves" % (tags["PlyCount"], len(sans)))
        term = tags.get("Termination", "")
        o = st.outcome()
        if o and o[0] != result:
            bad(i, "final position: %s, but the result is %s" % (o[1], result))
        if term == "normal" and not o:
            bad(i, "Termination normal but the final position does not end the game")
        if o and term and term != "normal":
            bad(i, "the final position ends the game (%s) but Termination is %s" % (o[1], term))
        kinds[(term or "?", result)] = kinds.get((term or "?", result), 0) + 1
    say("verify-pgn %s: %d games, %d moves replayed, %d error(s)" % (path, games, plies, errors))
    for (term, res), n in sorted(kinds.items()):
        say("  %-18s %-8s %d" % (term, res, n))
    return 1 if errors or not games else 0


# ---------------------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="chess_match.py", description=__doc__, epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_argument_group("engines")
    g.add_argument("--engine", action="append", default=[], metavar="SPEC",
                   help='"name=NAME cmd=PROGRAM ARGS... option.NAME=VALUE ..." (twice or more)')
    g.add_argument("--gauntlet", action="store_true",
                   help="the first engine plays every other engine (--games N against each); "
                        "without it exactly two engines are needed")
    g.add_argument("--restart", action="store_true",
                   help="start fresh engine processes for every game")
    g = ap.add_argument_group("limits")
    g.add_argument("--tc", help="time control SECONDS[+INC], MOVES/SECONDS[+INC], M:SS[+INC]")
    g.add_argument("--nodes", type=int, help="fixed nodes per move (go nodes N)")
    g.add_argument("--movetime", type=int, metavar="MS", help="fixed time per move (go movetime MS)")
    g.add_argument("--depth", type=int, help="fixed depth per move (go depth D)")
    g.add_argument("--grace", type=int, default=0, metavar="MS",
                   help="a bestmove this late after the clock ran out still counts (default 0)")
    g.add_argument("--move-timeout", type=float, default=30.0, metavar="S",
                   help="without a clock: seconds to wait for bestmove (on top of --movetime) "
                        "before the engine loses on time (default 30)")
    g.add_argument("--startup-timeout", type=float, default=20.0, metavar="S",
                   help="seconds allowed for uci/uciok and isready/readyok (default 20)")
    g = ap.add_argument_group("games")
    g.add_argument("--games", type=int, default=2,
                   help="games against each opponent (the match length without --gauntlet), "
                        "in pairs with colours reversed (default 2)")
    g.add_argument("--concurrency", type=int, default=1,
                   help="games played at once, each with its own engine processes (default 1)")
    g.add_argument("--openings", metavar="FILE", help="EPD/FEN lines or PGN games")
    g.add_argument("--opening-format", choices=("auto", "epd", "pgn"), default="auto")
    g.add_argument("--opening-order", choices=("random", "sequential"), default="random",
                   help="random (shuffled with --seed, default) or file order")
    g.add_argument("--opening-plies", type=int, default=0,
                   help="use at most this many plies of each PGN opening")
    g.add_argument("--seed", type=int, help="seed of the opening order (default: random, printed)")
    g = ap.add_argument_group("adjudication")
    g.add_argument("--resign-moves", type=int, default=0, metavar="N",
                   help="win for a side when both engines' scores say it is ahead by "
                        "--resign-score for N moves each (0 = off)")
    g.add_argument("--resign-score", type=int, default=1000, metavar="CP", help="(default 1000)")
    g.add_argument("--draw-moves", type=int, default=0, metavar="N",
                   help="draw when both engines' scores are within --draw-score of 0 for N "
                        "moves each (0 = off) ...")
    g.add_argument("--draw-score", type=int, default=10, metavar="CP", help="(default 10)")
    g.add_argument("--draw-after", type=int, default=40, metavar="M",
                   help="... but not before move M of the game (default 40)")
    g.add_argument("--max-moves", type=int, default=0, metavar="N",
                   help="draw after N moves by each engine (0 = no limit)")
    g = ap.add_argument_group("output")
    g.add_argument("--pgn", metavar="OUT", help="write the finished games to this PGN file")
    g.add_argument("--no-pgn-comments", dest="pgn_comments", action="store_false",
                   help="no {score/depth time} comment after each move")
    g.add_argument("--event", default="Kibitz chess_match")
    g.add_argument("--json", nargs="?", const="-", metavar="FILE",
                   help="print a final JSON line with the results (and write it to FILE)")
    g.add_argument("--verbose", action="store_true", help="print every move")
    g.add_argument("--debug", action="store_true", help="print all UCI traffic to stderr")
    g.add_argument("--engine-stderr", metavar="FILE",
                   help="append the engines' stderr to FILE (default: discarded)")
    g.add_argument("--tools", default=os.environ.get("KIBITZ_TOOLS", DEFAULT_TOOLS),
                   help="shared tools folder with chess/chesslite.py "
                        "(default $KIBITZ_TOOLS or ../shared/tools from the repository root)")
    g.add_argument("--verify-pgn", metavar="FILE",
                   help="replay every game of FILE through chesslite, check results, and exit")
    a = ap.parse_args(argv)

    load_chesslite(a.tools)
    if a.verify_pgn:
        return verify_pgn(a.verify_pgn)

    def fail(msg):
        say("chess_match: " + msg, err=True)
        return 2

    try:
        tc = TimeControl(a.tc) if a.tc else None
    except ValueError as e:
        return fail(str(e))
    for k in ("nodes", "movetime", "depth"):
        if getattr(a, k) is not None and getattr(a, k) <= 0:
            return fail("--%s must be positive" % k)
    a.limit = Limit(tc, a.nodes, a.movetime, a.depth)
    try:
        specs = [EngineSpec(t, a.limit) for t in a.engine]
    except ValueError as e:
        return fail(str(e))
    if len(specs) < 2:
        return fail("give at least two --engine (see --help)")
    if len(specs) > 2 and not a.gauntlet:
        return fail("more than two engines need --gauntlet")
    names = [s.name for s in specs]
    for i, s in enumerate(specs):
        if names.count(s.name) > 1:
            s.name = "%s-%d" % (s.name, i + 1)
    for s in specs:
        if s.limit.empty():
            return fail("engine %s has no limit: give --tc, --nodes, --movetime or --depth" % s.name)
    if a.games < 1 or a.concurrency < 1:
        return fail("--games and --concurrency must be at least 1")
    if a.games % 2:
        say("warning: an odd --games leaves one opening without its colour-reversed game",
            err=True)
    if a.seed is None:
        a.seed = random.SystemRandom().randrange(1 << 31)
    a.site = "?"
    a.quit_wait = 1.0
    a.stop_wait = 1.0
    if a.openings and not os.path.isfile(a.openings):
        return fail("openings file %s not found" % a.openings)
    sys.setswitchinterval(0.001)    # reader threads timestamp bestmove lines promptly

    try:
        m = Match(a, specs)
    except OSError as e:
        return fail("cannot write %s: %s" % (a.pgn, e.strerror or e))
    say("chess_match: %s; %d game(s) against each of %s; concurrency %d; openings %s; seed %d" % (
        a.limit, a.games, ", ".join(s.name for s in specs[1:]), a.concurrency,
        a.openings or "startpos", a.seed))
    for s in specs:
        say("  engine %s%s" % (s, "" if s.limit is a.limit else "  [%s]" % s.limit))

    state = {"interrupts": 0}

    def on_signal(signum, frame):
        state["interrupts"] += 1
        if state["interrupts"] == 1:
            say("\nchess_match: interrupted; stopping the games in progress "
                "(again to quit at once)", err=True)
            m.stop.set()
        else:
            kill_all_engines()
            os._exit(130)

    old = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        try:
            m.run()
        except ValueError as e:         # openings
            m.stop.set()
            return fail(str(e))
        finally:
            kill_all_engines()
        if m.fatal:
            return fail(m.fatal)
        interrupted = state["interrupts"] > 0
        m.report(interrupted)
        return 130 if interrupted else 0
    finally:
        for sig, h in old.items():
            signal.signal(sig, h)


if __name__ == "__main__":
    sys.exit(main())

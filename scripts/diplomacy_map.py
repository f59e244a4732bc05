#!/usr/bin/env python3
"""Draws the standard Diplomacy board as a Voronoi map: web/diplomacy_map.js.

The board's topology comes from data/diplomacy/standard.map.txt; its geometry from our own
hand-written data/diplomacy/map_layout.txt (coordinates placed from general knowledge of
Europe's geography, not traced from any existing map). Every province, and every filler
region that is not a province (Switzerland, land off the board, islands), has seed points;
a region is the union of the Voronoi cells of its seeds, clipped to the board rectangle.
The cells come from clipping the rectangle by the bisector half-plane of every other seed
(O(n^2), fine for a few hundred seeds); each edge remembers the seed whose bisector made
it, so a region's outline is the chain of its cells' edges whose neighbour lies in another
region or is the board's edge.

Layout format: one statement per line, words separated by blanks, '#' starts a comment.
  size        W H              the board, in SVG units
  impassable  NAME...          filler regions (not provinces), drawn grey
  seeds       NAME x y ...     seed points of a province or filler (may repeat: they add up)
  unit        LOC x y          where a unit token is drawn: every province, and every split
                               coast (stp/nc ...)
  centre      PROV x y         the supply-centre marker of each supply centre
  label       PROV x y         where the abbreviation goes (default: 15 below the unit point)

The checks (--check) keep the drawing honest: provinces are drawn adjacent (a common border
of at least MIN_BORDER) exactly when an army or a fleet can move between them; no other
contact longer than a point; every anchor inside its own region and clear of the others;
split-coast points nearest a sea of their coast; every region one piece; the generated file
up to date.

Usage: diplomacy_map.py [--root DIR] [--check] [--svg FILE]
"""
import argparse
import math
import os
import sys

MIN_BORDER = 6.0     # a border this long reads as adjacency
MAX_TOUCH = 0.5      # a contact longer than this between strangers reads as one too
UNIT_MARGIN = 6.0    # a unit or centre point this far inside its region
MARKER_GAP = 14.0    # between any two unit/centre/coast markers
LABEL_GAP = 9.0      # between a label point and any marker
LABEL_OFFSET = 15.0  # default label: this far below the unit point
BOARD = -1           # the label of an edge on the board's rectangle


def fail(msg):
    sys.exit("diplomacy_map: " + msg)


def read_map(path):
    """Provinces {id: (type, centre?)}, coasts {id: [coast...]}, movement pairs {frozenset}."""
    provinces, coasts, moves, fleet_from = {}, {}, set(), {}
    current = None
    with open(path) as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            if words[0] == "province":
                current = words[1]
                provinces[current] = (words[2], words[3] != "-")
            elif words[0] == "coasts":
                coasts[current] = words[1:]
            elif words[0] == "army" or words[0].startswith("fleet"):
                src = current + words[0][5:] if words[0].startswith("fleet/") else current
                for loc in words[1:]:
                    moves.add(frozenset((current, loc.split("/")[0])))
                    if words[0] != "army":
                        fleet_from.setdefault(src, set()).add(loc.split("/")[0])
    return provinces, coasts, moves, fleet_from


def read_layout(path):
    layout = {"size": None, "impassable": [], "seeds": {}, "unit": {}, "centre": {},
              "label": {}}
    order = []  # regions in order of first appearance, for a stable output
    with open(path) as f:
        for n, line in enumerate(f, 1):
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            key, args = words[0], words[1:]
            where = "%s:%d" % (os.path.basename(path), n)
            try:
                if key == "size":
                    layout["size"] = (float(args[0]), float(args[1]))
                elif key == "impassable":
                    layout["impassable"] += args
                elif key == "seeds":
                    nums = [float(a) for a in args[1:]]
                    if not nums or len(nums) % 2:
                        fail("%s: seeds needs x y pairs" % where)
                    if args[0] not in layout["seeds"]:
                        order.append(args[0])
                    layout["seeds"].setdefault(args[0], []).extend(zip(nums[::2], nums[1::2]))
                elif key in ("unit", "centre", "label"):
                    if len(args) != 3:
                        fail("%s: %s needs NAME x y" % (where, key))
                    layout[key][args[0]] = (float(args[1]), float(args[2]))
                else:
                    fail("%s: unknown statement '%s'" % (where, key))
            except ValueError:
                fail("%s: bad number" % where)
    if not layout["size"]:
        fail("the layout has no size")
    layout["order"] = order
    return layout


def clip(poly, labels, a, b, j):
    """The part of the polygon nearer a than b; the new edge is labelled j."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    c = (b[0] * b[0] + b[1] * b[1] - a[0] * a[0] - a[1] * a[1]) / 2
    side = [p[0] * dx + p[1] * dy - c for p in poly]  # <= 0: nearer a
    if max(side) <= 0:
        return poly, labels
    out, out_labels = [], []
    n = len(poly)
    for k in range(n):
        p, q, sp, sq = poly[k], poly[(k + 1) % n], side[k], side[(k + 1) % n]
        if sp <= 0:
            out.append(p)
            out_labels.append(labels[k])
            if sq > 0:  # leaving: the cut runs along the bisector
                t = sp / (sp - sq)
                out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
                out_labels.append(j)
        elif sq <= 0:  # entering: the rest of this edge is kept
            t = sp / (sp - sq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
            out_labels.append(labels[k])
    return out, out_labels


def voronoi(seeds, w, h):
    """Per seed, its cell: (vertices counter-clockwise in SVG terms, edge labels)."""
    cells = []
    for i, a in enumerate(seeds):
        poly = [(0.0, 0.0), (0.0, h), (w, h), (w, 0.0)]
        labels = [BOARD] * 4
        others = sorted((((s[0] - a[0]) ** 2 + (s[1] - a[1]) ** 2), j)
                        for j, s in enumerate(seeds) if j != i)
        for d2, j in others:
            reach = max((p[0] - a[0]) ** 2 + (p[1] - a[1]) ** 2 for p in poly)
            if d2 > 4 * reach:  # this bisector and every later one miss the cell
                break
            if d2 == 0:
                fail("two seeds at %g %g" % a)
            poly, labels = clip(poly, labels, a, seeds[j], j)
        cells.append((poly, labels))
    return cells


class Snap:
    """Merges vertices that several cells computed separately (to 0.01)."""

    def __init__(self):
        self.grid = {}

    def __call__(self, p):
        kx, ky = round(p[0] * 100), round(p[1] * 100)
        for dx in (0, -1, 1):
            for dy in (0, -1, 1):
                q = self.grid.get((kx + dx, ky + dy))
                if q and abs(q[0] - p[0]) < 0.006 and abs(q[1] - p[1]) < 0.006:
                    return q
        q = (kx / 100, ky / 100)
        self.grid[(kx, ky)] = q
        return q


def chain(edges):
    """Directed edges [(a, b)] into loops (closed) of vertices."""
    nxt = {}
    for a, b in edges:
        nxt.setdefault(a, []).append(b)
    loops = []
    for start in list(nxt):
        while nxt.get(start):
            loop, p = [start], nxt[start].pop()
            while p != start:
                loop.append(p)
                if not nxt.get(p):
                    fail("an outline does not close near %g %g" % p)
                p = nxt[p].pop()
            loops.append(loop)
    return loops


def polylines(segments):
    """Undirected segments into as few open or closed polylines as is easy."""
    adj = {}
    for a, b in segments:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    used, lines = set(), []

    def walk(p, q):
        line = [p, q]
        used.add(frozenset((p, q)))
        while len(adj[q]) == 2:
            r = next((r for r in adj[q] if frozenset((q, r)) not in used), None)
            if r is None:
                break
            used.add(frozenset((q, r)))
            line.append(r)
            q = r
        return line

    for p in adj:  # ends and junctions first, then what is left are loops
        if len(adj[p]) != 2:
            for q in adj[p]:
                if frozenset((p, q)) not in used:
                    lines.append(walk(p, q))
    for p in adj:
        for q in adj[p]:
            if frozenset((p, q)) not in used:
                lines.append(walk(p, q))
    return lines


def fmt(v):
    s = "%.1f" % v
    return s[:-2] if s.endswith(".0") else s


def path(loops, closed=True):
    parts = []
    for loop in loops:
        pts = " ".join("%s,%s" % (fmt(p[0]), fmt(p[1])) for p in loop)
        parts.append("M" + pts + ("Z" if closed else ""))
    return "".join(parts)


def seg_dist(p, a, b):
    dx, dy = b[0] - a[0], b[1] - a[1]
    L = dx * dx + dy * dy
    t = 0 if L == 0 else max(0, min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / L))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def build(root):
    provinces, coasts, moves, fleet_from = read_map(
        os.path.join(root, "data/diplomacy/standard.map.txt"))
    lay = read_layout(os.path.join(root, "data/diplomacy/map_layout.txt"))
    w, h = lay["size"]
    problems = []
    fillers = set(lay["impassable"])
    for name in fillers & set(provinces):
        problems.append("%s: a province cannot be impassable" % name)
    for name in lay["seeds"]:
        if name not in provinces and name not in fillers:
            problems.append("seeds for unknown region '%s'" % name)
    for p in sorted(provinces):
        if p not in lay["seeds"]:
            problems.append("%s: no seeds" % p)
        if p not in lay["unit"]:
            problems.append("%s: no unit point" % p)
        if provinces[p][1] and p not in lay["centre"]:
            problems.append("%s: no supply-centre point" % p)
    for f in fillers:
        if f not in lay["seeds"]:
            problems.append("%s: no seeds" % f)
    split = ["%s/%s" % (p, c) for p in sorted(coasts) for c in coasts[p]]
    for loc in split:
        if loc not in lay["unit"]:
            problems.append("%s: no coast point" % loc)
    for key in ("unit", "centre", "label"):
        for loc in lay[key]:
            ok = loc in provinces or (key == "unit" and loc in split)
            if key == "centre" and loc in provinces and not provinces[loc][1]:
                ok = False
            if not ok:
                problems.append("%s %s: not a %s" % (key, loc, "split coast or province"
                                                     if key == "unit" else
                                                     "supply centre" if key == "centre"
                                                     else "province"))
    if problems:
        return None, problems

    # Seeds, their regions, and the cells.
    names = lay["order"]
    seeds, owner = [], []
    for n in names:
        for s in lay["seeds"][n]:
            if not (0 < s[0] < w and 0 < s[1] < h):
                problems.append("%s: seed %g %g off the board" % (n, s[0], s[1]))
            seeds.append(s)
            owner.append(n)
    if problems:
        return None, problems
    cells = voronoi(seeds, w, h)
    snap = Snap()
    edges = {}       # region -> directed outline edges
    contact = {}     # (region, region) -> length of common border, from the first's side
    links = {}       # seed -> seeds of the same region sharing an edge
    for i, (poly, labels) in enumerate(cells):
        r = owner[i]
        pts = [snap(p) for p in poly]
        for k, lab in enumerate(labels):
            a, b = pts[k], pts[(k + 1) % len(pts)]
            if a == b:
                continue
            if lab != BOARD and owner[lab] == r:
                links.setdefault(i, set()).add(lab)
                continue
            edges.setdefault(r, []).append((a, b))
            if lab != BOARD:
                key = (r, owner[lab])
                contact[key] = contact.get(key, 0) + math.hypot(b[0] - a[0], b[1] - a[1])
    loops = {r: chain(e) for r, e in edges.items()}

    # Adjacency both ways.
    real = {m for m in moves if len(m) == 2}
    for pair in sorted(real, key=sorted):
        a, b = sorted(pair)
        if contact.get((a, b), 0) < MIN_BORDER:
            problems.append("%s-%s: adjacent, but their border is %.1f long" %
                            (a, b, contact.get((a, b), 0)))
    for (a, b), length in sorted(contact.items()):
        if a < b and a in provinces and b in provinces and frozenset((a, b)) not in real:
            if length > MAX_TOUCH:
                problems.append("%s-%s: not adjacent, but they touch for %.1f" % (a, b, length))

    # One piece each.
    for r in names:
        members = [i for i in range(len(seeds)) if owner[i] == r]
        seen, todo = {members[0]}, [members[0]]
        while todo:
            for j in links.get(todo.pop(), ()):
                if j not in seen:
                    seen.add(j)
                    todo.append(j)
        if len(seen) != len(members):
            problems.append("%s: in %d pieces" % (r, len(members) - len(seen) + 1))

    # Anchors: inside their region (the nearest seed is theirs), clear of its edge and of
    # each other.
    def region_of(p):
        best = min(range(len(seeds)),
                   key=lambda i: (seeds[i][0] - p[0]) ** 2 + (seeds[i][1] - p[1]) ** 2)
        return owner[best]

    def margin(p, r):
        return min(seg_dist(p, l[k], l[(k + 1) % len(l)]) for l in loops[r]
                   for k in range(len(l)))

    units = {p: lay["unit"][p] for p in provinces}
    labels = {p: lay["label"].get(p, (units[p][0], units[p][1] + LABEL_OFFSET))
              for p in provinces}
    markers = [("unit", p, units[p]) for p in sorted(provinces)]
    markers += [("centre", p, lay["centre"][p]) for p in sorted(provinces) if provinces[p][1]]
    markers += [("coast", loc, lay["unit"][loc]) for loc in split]
    for kind, loc, pt in markers + [("label", p, labels[p]) for p in sorted(provinces)]:
        prov = loc.split("/")[0]
        if region_of(pt) != prov:
            problems.append("%s %s: at %g %g, which is in %s" % (kind, loc, pt[0], pt[1],
                                                                 region_of(pt)))
        elif kind != "label" and margin(pt, prov) < UNIT_MARGIN:
            problems.append("%s %s: %.1f from its province's edge" % (kind, loc,
                                                                      margin(pt, prov)))
    for i, (k1, l1, p1) in enumerate(markers):
        for k2, l2, p2 in markers[i + 1:]:
            d = math.hypot(p1[0] - p2[0], p1[1] - p2[1])
            if d < MARKER_GAP:
                problems.append("%s %s and %s %s: %.1f apart" % (k1, l1, k2, l2, d))
    for p in sorted(provinces):
        for kind, loc, pt in markers:
            d = math.hypot(pt[0] - labels[p][0], pt[1] - labels[p][1])
            if d < LABEL_GAP:
                problems.append("label %s and %s %s: %.1f apart" % (p, kind, loc, d))

    # Split coasts: the nearest sea is one of that coast's (and not only the other's).
    seas = [r for r in provinces if provinces[r][0] == "sea"]
    for loc in split:
        prov, pt = loc.split("/")[0], lay["unit"][loc]
        mine = {s for s in fleet_from.get(loc, ()) if s in seas}
        others = set()
        for c in coasts[prov]:
            if "%s/%s" % (prov, c) != loc:
                others |= {s for s in fleet_from.get("%s/%s" % (prov, c), ()) if s in seas}
        want = (mine - others) or mine
        near = min(seas, key=lambda s: margin(pt, s))
        if near not in want:
            problems.append("coast %s: nearest sea is %s, not %s" % (loc, near,
                                                                     " or ".join(sorted(want))))

    # Borders and coastline, each edge once.
    def is_sea(r):
        return r in provinces and provinces[r][0] == "sea"

    borders, coastline = [], []
    for i, (poly, labs) in enumerate(cells):
        pts = [snap(p) for p in poly]
        for k, lab in enumerate(labs):
            if lab == BOARD or lab < i or owner[lab] == owner[i]:
                continue
            a, b = pts[k], pts[(k + 1) % len(pts)]
            if a != b:
                borders.append((a, b))
                if is_sea(owner[i]) != is_sea(owner[lab]):
                    coastline.append((a, b))

    data = {"w": w, "h": h, "loops": loops, "units": units, "labels": labels,
            "coasts": {loc: lay["unit"][loc] for loc in split},
            "centres": {p: lay["centre"][p] for p in sorted(provinces) if provinces[p][1]},
            "types": {p: provinces[p][0] for p in provinces}, "fillers": sorted(fillers),
            "borders": polylines(borders), "coastline": polylines(coastline),
            "seeds": len(seeds), "names": names}
    return data, problems


def pt(p):
    return "[%s, %s]" % (fmt(p[0]), fmt(p[1]))


def javascript(d):
    out = ["// Generated by scripts/diplomacy_map.py from data/diplomacy/map_layout.txt: "
           "do not edit.",
           "const DIPLOMACY_MAP = {",
           "  width: %s, height: %s," % (fmt(d["w"]), fmt(d["h"])),
           "  provinces: {"]
    for p in sorted(d["types"]):
        out.append('    "%s": {type: "%s", path: "%s", unit: %s, label: %s},' %
                   (p, d["types"][p], path(d["loops"][p]), pt(d["units"][p]),
                    pt(d["labels"][p])))
    out.append("  },")
    out.append("  coasts: {%s}," % ", ".join('"%s": %s' % (k, pt(v))
                                             for k, v in sorted(d["coasts"].items())))
    out.append("  centres: {%s}," % ", ".join('"%s": %s' % (k, pt(v))
                                              for k, v in sorted(d["centres"].items())))
    out.append("  impassable: [%s]," % ", ".join('"%s"' % path(d["loops"][f])
                                                 for f in d["fillers"]))
    out.append('  borders: "%s",' % path(d["borders"], closed=False))
    out.append('  coastline: "%s",' % path(d["coastline"], closed=False))
    out.append("};")
    return "\n".join(out) + "\n"


def svg(d):
    fill = {"sea": "#bcd9ee", "coast": "#efe4c4", "land": "#e6d8b0"}
    out = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %s %s" width="%s" '
           'height="%s" font-family="sans-serif">' % (fmt(d["w"]), fmt(d["h"]),
                                                       fmt(d["w"]), fmt(d["h"]))]
    for p, t in sorted(d["types"].items()):
        out.append('<path d="%s" fill="%s"/>' % (path(d["loops"][p]), fill[t]))
    for f in d["fillers"]:
        out.append('<path d="%s" fill="#b4b4b4"/>' % path(d["loops"][f]))
    out.append('<path d="%s" fill="none" stroke="#666" stroke-width="0.8"/>' %
               path(d["borders"], closed=False))
    out.append('<path d="%s" fill="none" stroke="#345" stroke-width="2"/>' %
               path(d["coastline"], closed=False))
    for p, u in sorted(d["units"].items()):
        out.append('<circle cx="%s" cy="%s" r="8" fill="none" stroke="#a33" '
                   'stroke-width="0.8"/>' % (fmt(u[0]), fmt(u[1])))
    for loc, u in sorted(d["coasts"].items()):
        out.append('<circle cx="%s" cy="%s" r="8" fill="none" stroke="#33a" '
                   'stroke-width="0.8"/>' % (fmt(u[0]), fmt(u[1])))
    for p, c in sorted(d["centres"].items()):
        out.append('<circle cx="%s" cy="%s" r="4" fill="#222"/>' % (fmt(c[0]), fmt(c[1])))
    for p, l in sorted(d["labels"].items()):
        out.append('<text x="%s" y="%s" font-size="10" text-anchor="middle" '
                   'dominant-baseline="central">%s</text>' % (fmt(l[0]), fmt(l[1]), p))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), help="the repository (default: this script's)")
    ap.add_argument("--check", action="store_true",
                    help="check the layout and that web/diplomacy_map.js is up to date")
    ap.add_argument("--svg", metavar="FILE", help="also write a standalone preview SVG")
    args = ap.parse_args()
    data, problems = build(args.root)
    if data and args.svg:
        with open(args.svg, "w") as f:
            f.write(svg(data))
    target = os.path.join(args.root, "web/diplomacy_map.js")
    js = javascript(data) if data else None
    if args.check:
        try:
            with open(target) as f:
                if js is not None and f.read() != js:
                    problems.append("web/diplomacy_map.js is out of date: run "
                                    "scripts/diplomacy_map.py")
        except FileNotFoundError:
            problems.append("web/diplomacy_map.js is missing: run scripts/diplomacy_map.py")
    for p in problems:
        print(p)
    if problems and (args.check or not data):
        return 1
    if not args.check:
        with open(target, "w") as f:
            f.write(js)
    print("diplomacy map: %d provinces, %d seeds, %d bytes, %s" %
          (len(data["types"]), data["seeds"], len(js.encode()),
           "all checks pass" if not problems else "%d problems" % len(problems)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

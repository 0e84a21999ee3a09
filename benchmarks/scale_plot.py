#!/usr/bin/env python3
"""Draws the results of benchmarks/scale.sh as an SVG: two log-log panels, lint time against the number of
manifests (with the bare JVM's start as a line), and memory against manifests linted or documents open.

Usage: scale_plot.py RESULTS.tsv OUT.svg
"""
import math
import sys

W, H = 860, 470
PANEL_W, PANEL_H = 330, 280
TOP = 50
LEFTS = (70, 500)
COLOURS = {"wall": "#1f77b4", "cpu": "#ff7f0e", "jvm": "#7f7f7f", "lint": "#1f77b4", "lsp": "#d62728",
           "hwm": "#ff9896", "heap": "#2ca02c"}


def read(path):
    meta, lint, lsp, baseline = {}, [], [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            cells = line.rstrip("\n").split("\t")
            if cells[0] == "meta":
                meta[cells[1]] = cells[2]
            elif cells[0] == "lint" and cells[1] == "baseline":
                baseline = {"wall": float(cells[3]) / 1000, "rss": float(cells[5]) / 1024}
            elif cells[0] == "lint":
                lint.append({"n": int(cells[1]), "wall": float(cells[3]) / 1000, "cpu": float(cells[4]) / 1000,
                             "rss": float(cells[5]) / 1024})
            elif cells[0] == "lsp":
                lsp.append({"n": int(cells[1]), "hwm": float(cells[5]), "settled": float(cells[7]),
                            "heap": float(cells[9])})
    return meta, lint, lsp, baseline


def ticks(lo, hi):
    """Log-axis ticks from the last at or under lo to the first at or over hi: decades over a wide span,
    1-2-5 steps over a narrow one."""
    steps = (1,) if hi / lo > 100 else (1, 2, 5)
    vals = [m * 10 ** e for e in range(math.floor(math.log10(lo)) - 1, math.ceil(math.log10(hi)) + 2) for m in steps]
    start = max(v for v in vals if v <= lo)
    end = min(v for v in vals if v >= hi)
    return [v for v in vals if start <= v <= end]


def label(v):
    return f"{v:,.0f}" if v >= 1 else f"{v:g}"


class Panel:
    def __init__(self, out, left, title, xs, ys, x_title, y_title):
        self.out, self.left = out, left
        self.xt = ticks(min(xs), max(xs))
        self.yt = ticks(min(ys), max(ys))
        self.x0, self.x1 = math.log10(self.xt[0]), math.log10(self.xt[-1])
        self.y0, self.y1 = math.log10(self.yt[0]), math.log10(self.yt[-1])
        out.append(f'<text x="{left + PANEL_W / 2}" y="{TOP - 18}" text-anchor="middle" font-weight="bold">{title}</text>')
        out.append(f'<rect x="{left}" y="{TOP}" width="{PANEL_W}" height="{PANEL_H}" fill="none" stroke="#333"/>')
        for t in self.xt:
            x = self.x(t)
            out.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{TOP + PANEL_H}" stroke="#ddd"/>')
            out.append(f'<text x="{x:.1f}" y="{TOP + PANEL_H + 16}" text-anchor="middle">{label(t)}</text>')
        for t in self.yt:
            y = self.y(t)
            out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + PANEL_W}" y2="{y:.1f}" stroke="#ddd"/>')
            out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{label(t)}</text>')
        out.append(f'<text x="{left + PANEL_W / 2}" y="{TOP + PANEL_H + 36}" text-anchor="middle">{x_title}</text>')
        cy = TOP + PANEL_H / 2
        out.append(f'<text x="{left - 48}" y="{cy}" text-anchor="middle" transform="rotate(-90 {left - 48} {cy})">'
                   f'{y_title}</text>')
        self.legend = 0

    def x(self, v):
        return self.left + (math.log10(v) - self.x0) / (self.x1 - self.x0) * PANEL_W

    def y(self, v):
        return TOP + PANEL_H - (math.log10(v) - self.y0) / (self.y1 - self.y0) * PANEL_H

    def series(self, points, colour, name, dashed=False):
        path = " ".join(f"{self.x(a):.1f},{self.y(b):.1f}" for a, b in points)
        dash = ' stroke-dasharray="6 4"' if dashed else ""
        self.out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>')
        if not dashed:
            for a, b in points:
                self.out.append(f'<circle cx="{self.x(a):.1f}" cy="{self.y(b):.1f}" r="3" fill="{colour}"/>')
        # Legends go under the panel, where no point can be.
        ly = TOP + PANEL_H + 58 + 15 * self.legend
        self.legend += 1
        lx = self.left
        self.out.append(f'<line x1="{lx}" y1="{ly - 4}" x2="{lx + 20}" y2="{ly - 4}" stroke="{colour}" '
                        f'stroke-width="2"{dash}/>')
        self.out.append(f'<text x="{lx + 26}" y="{ly}">{name}</text>')


def main(results, svg):
    meta, lint, lsp, baseline = read(results)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
           'font-family="sans-serif" font-size="11">', f'<rect width="{W}" height="{H}" fill="white"/>']
    ns = [r["n"] for r in lint]
    times = [r["wall"] for r in lint] + [r["cpu"] for r in lint] + [baseline["wall"]]
    p = Panel(out, LEFTS[0], "./hooklens lint DIR: time", ns, times, "manifests in the folder", "seconds")
    p.series([(r["n"], r["wall"]) for r in lint], COLOURS["wall"], "wall time")
    p.series([(r["n"], r["cpu"]) for r in lint], COLOURS["cpu"], "CPU time")
    p.series([(ns[0], baseline["wall"]), (ns[-1], baseline["wall"])], COLOURS["jvm"], "bare JVM start (wall)", True)

    xs = ns + [r["n"] for r in lsp]
    mbs = [r["rss"] for r in lint] + [v for r in lsp for v in (r["hwm"], r["settled"], r["heap"])]
    p = Panel(out, LEFTS[1], "Memory", xs, mbs, "manifests linted / documents open", "MB")
    p.series([(r["n"], r["rss"]) for r in lint], COLOURS["lint"], "lint: peak RSS")
    if lsp:
        p.series([(r["n"], r["hwm"]) for r in lsp], COLOURS["hwm"], "language server: peak RSS")
        p.series([(r["n"], r["settled"]) for r in lsp], COLOURS["lsp"], "language server: RSS after GC")
        p.series([(r["n"], r["heap"]) for r in lsp], COLOURS["heap"], "language server: heap after GC")
    feet = [f'{meta.get("date", "")}, commit {meta.get("commit", "")}, {meta.get("processors", "?")} processors',
            f'load average {meta.get("lint load", "")} (lint)']
    if "lsp load" in meta:
        feet[1] += f', {meta["lsp load"]} (language server)'
    for i, foot in enumerate(feet):
        out.append(f'<text x="{W / 2}" y="{H - 24 + 14 * i}" text-anchor="middle" fill="#555">{foot}</text>')
    out.append("</svg>")
    with open(svg, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])

"""A small line-plot writer for the examples and benchmarks: panels of curves written to a PNG.

Only the standard library (zlib for the PNG's compressed stream) and numpy: the examples run in
the same environment as the tests, without a plotting package. Text uses a built-in 5x7 bitmap
font (capitals, digits and a few signs; small letters are drawn as capitals).

    fig = Figure(800, 600, rows=2)
    p = fig.panel(0, title="knee", xlabel="t (s)", ylabel="N m")
    p.line(t, y, color=BLUE, width=3, label="applied")
    p.line(t, y2, color=RED, dash=6, label="recovered")
    fig.save("plot.png")
"""

import math
import struct
import zlib

import numpy as np

BLACK, GREY, LIGHT = (0, 0, 0), (120, 120, 120), (225, 225, 225)
BLUE, RED, GREEN, ORANGE, PURPLE, CYAN, BROWN = (
    (31, 90, 180), (210, 40, 40), (40, 150, 60), (240, 140, 0), (130, 60, 170), (0, 160, 170),
    (140, 90, 40))
PALETTE = (BLUE, RED, GREEN, ORANGE, PURPLE, CYAN, BROWN)

# 5x7 glyphs, one integer per row, bit 4 = leftmost column
_FONT = {
    " ": (0, 0, 0, 0, 0, 0, 0),
    "0": (14, 17, 19, 21, 25, 17, 14), "1": (4, 12, 4, 4, 4, 4, 14),
    "2": (14, 17, 1, 2, 4, 8, 31), "3": (31, 2, 4, 2, 1, 17, 14),
    "4": (2, 6, 10, 18, 31, 2, 2), "5": (31, 16, 30, 1, 1, 17, 14),
    "6": (6, 8, 16, 30, 17, 17, 14), "7": (31, 1, 2, 4, 8, 8, 8),
    "8": (14, 17, 17, 14, 17, 17, 14), "9": (14, 17, 17, 15, 1, 2, 12),
    "A": (14, 17, 17, 31, 17, 17, 17), "B": (30, 17, 17, 30, 17, 17, 30),
    "C": (14, 17, 16, 16, 16, 17, 14), "D": (28, 18, 17, 17, 17, 18, 28),
    "E": (31, 16, 16, 30, 16, 16, 31), "F": (31, 16, 16, 30, 16, 16, 16),
    "G": (14, 17, 16, 23, 17, 17, 15), "H": (17, 17, 17, 31, 17, 17, 17),
    "I": (14, 4, 4, 4, 4, 4, 14), "J": (7, 2, 2, 2, 2, 18, 12),
    "K": (17, 18, 20, 24, 20, 18, 17), "L": (16, 16, 16, 16, 16, 16, 31),
    "M": (17, 27, 21, 21, 17, 17, 17), "N": (17, 17, 25, 21, 19, 17, 17),
    "O": (14, 17, 17, 17, 17, 17, 14), "P": (30, 17, 17, 30, 16, 16, 16),
    "Q": (14, 17, 17, 17, 21, 18, 13), "R": (30, 17, 17, 30, 20, 18, 17),
    "S": (15, 16, 16, 14, 1, 1, 30), "T": (31, 4, 4, 4, 4, 4, 4),
    "U": (17, 17, 17, 17, 17, 17, 14), "V": (17, 17, 17, 17, 17, 10, 4),
    "W": (17, 17, 17, 21, 21, 21, 10), "X": (17, 17, 10, 4, 10, 17, 17),
    "Y": (17, 17, 10, 4, 4, 4, 4), "Z": (31, 1, 2, 4, 8, 16, 31),
    ".": (0, 0, 0, 0, 0, 12, 12), ",": (0, 0, 0, 0, 12, 4, 8), ":": (0, 12, 12, 0, 12, 12, 0),
    "-": (0, 0, 0, 31, 0, 0, 0), "+": (0, 4, 4, 31, 4, 4, 0), "=": (0, 0, 31, 0, 31, 0, 0),
    "(": (2, 4, 8, 8, 8, 4, 2), ")": (8, 4, 2, 2, 2, 4, 8), "/": (1, 1, 2, 4, 8, 16, 16),
    "_": (0, 0, 0, 0, 0, 0, 31), "%": (24, 25, 2, 4, 8, 19, 3), "*": (0, 4, 21, 14, 21, 4, 0),
    "<": (2, 4, 8, 16, 8, 4, 2), ">": (8, 4, 2, 1, 2, 4, 8), "[": (14, 8, 8, 8, 8, 8, 14),
    "]": (14, 2, 2, 2, 2, 2, 14), "'": (4, 4, 8, 0, 0, 0, 0), "^": (4, 10, 17, 0, 0, 0, 0),
}


class Canvas:
    """An RGB image with pixels, lines, rectangles and text."""

    def __init__(self, width, height, background=(255, 255, 255)):
        self.w, self.h = int(width), int(height)
        self.img = np.empty((self.h, self.w, 3), np.uint8)
        self.img[:] = background

    def dot(self, x, y, color, r=0):
        x, y = int(round(x)), int(round(y))
        self.img[max(y - r, 0):max(y + r + 1, 0), max(x - r, 0):max(x + r + 1, 0)] = color

    def rect(self, x0, y0, x1, y1, color):
        self.img[max(int(y0), 0):max(int(y1), 0), max(int(x0), 0):max(int(x1), 0)] = color

    def line(self, x0, y0, x1, y1, color, width=1, dash=0, phase=0.0):
        """A straight segment, `width` pixels thick; dashed when dash > 0 (on and off runs of
        `dash` pixels, counted from `phase`). Returns the phase at the far end."""
        n = int(max(abs(x1 - x0), abs(y1 - y0))) + 1
        r = (width - 1) // 2
        seg = math.hypot(x1 - x0, y1 - y0) / max(n - 1, 1)
        for i in range(n):
            s = i / max(n - 1, 1)
            if not dash or int((phase + i * seg) / dash) % 2 == 0:
                self.dot(x0 + s * (x1 - x0), y0 + s * (y1 - y0), color, r)
        return phase + seg * (n - 1)

    def text(self, x, y, s, color=BLACK, scale=1, anchor="left", vertical=False):
        """Text with its top-left corner at (x, y) (anchor 'left'), its top centre ('center') or
        its top-right corner ('right'); vertical text reads bottom to top."""
        adv = 6 * scale
        length = len(s) * adv - scale
        off = {"left": 0, "center": -length // 2, "right": -length}[anchor]
        for k, ch in enumerate(str(s)):
            glyph = _FONT.get(ch.upper(), _FONT["*"])
            for row, bits in enumerate(glyph):
                for col in range(5):
                    if bits >> (4 - col) & 1:
                        u, v = off + k * adv + col * scale, row * scale
                        if vertical:
                            self.rect(x + v, y - u - scale, x + v + scale, y - u, color)
                        else:
                            self.rect(x + u, y + v, x + u + scale, y + v + scale, color)

    def save(self, path):
        raw = b"".join(b"\x00" + self.img[r].tobytes() for r in range(self.h))

        def chunk(tag, body):
            return (struct.pack(">I", len(body)) + tag + body
                    + struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF))
        png = (b"\x89PNG\r\n\x1a\n"
               + chunk(b"IHDR", struct.pack(">IIBBBBB", self.w, self.h, 8, 2, 0, 0, 0))
               + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))
        with open(path, "wb") as f:
            f.write(png)


def _ticks(lo, hi, n=5):
    """Round tick values covering [lo, hi], about n of them."""
    if not hi > lo:
        hi = lo + 1.0
    raw = (hi - lo) / n
    mag = 10.0 ** math.floor(math.log10(raw))
    step = min((s * mag for s in (1, 2, 2.5, 5, 10) if s * mag >= raw), default=10 * mag)
    first = math.ceil(lo / step - 1e-9) * step
    return [first + i * step for i in range(int((hi - first) / step + 1e-9) + 1)]


def _fmt(v):
    if v == 0:
        return "0"
    if abs(v) >= 1e4 or abs(v) < 1e-3:
        return f"{v:.0e}".replace("e+0", "e").replace("e-0", "e-")
    return f"{v:.6g}"


class Panel:
    """One set of axes: curves are collected, then drawn by Figure.save."""

    def __init__(self, title="", xlabel="", ylabel="", logy=False):
        self.title, self.xlabel, self.ylabel, self.logy = title, xlabel, ylabel, logy
        self.curves = []

    def line(self, x, y, color=BLUE, width=2, dash=0, marker=0, label=None):
        x, y = np.asarray(x, float), np.asarray(y, float)
        self.curves.append((x, y, color, width, dash, marker, label))

    def _draw(self, c, x0, y0, x1, y1):
        ml, mr, mt, mb = 70, 12, 22, 36  # margins: tick labels, title, x label
        px0, px1, py0, py1 = x0 + ml, x1 - mr, y0 + mt, y1 - mb
        c.text((px0 + px1) // 2, y0 + 4, self.title, scale=2 if len(self.title) < 40 else 1,
               anchor="center")
        xs = np.concatenate([cv[0] for cv in self.curves]) if self.curves else np.zeros(1)
        ys = np.concatenate([cv[1] for cv in self.curves]) if self.curves else np.zeros(1)
        ok = np.isfinite(ys) & np.isfinite(xs)
        if self.logy:
            ok &= ys > 0
        xs, ys = xs[ok], ys[ok]
        if self.logy:
            ys = np.log10(ys)
        xlo, xhi = (xs.min(), xs.max()) if xs.size else (0.0, 1.0)
        ylo, yhi = (ys.min(), ys.max()) if ys.size else (0.0, 1.0)
        if self.logy:
            ylo, yhi = math.floor(ylo), math.ceil(yhi)
        pad = 0.05 * (yhi - ylo) if yhi > ylo else 1.0
        if not self.logy:
            ylo, yhi = ylo - pad, yhi + pad
        if xhi <= xlo:
            xhi = xlo + 1.0
        if yhi <= ylo:
            yhi = ylo + 1.0

        def X(v):
            return px0 + (v - xlo) / (xhi - xlo) * (px1 - px0)

        def Y(v):
            return py1 - (v - ylo) / (yhi - ylo) * (py1 - py0)
        if self.logy:  # decades, and 2 and 5 between them when there are few decades
            steps = (1, 2, 5) if yhi - ylo <= 3 else (1,)
            yt = [math.log10(k) + e for e in range(int(ylo), int(yhi) + 1) for k in steps
                  if math.log10(k) + e <= yhi + 1e-9]
        else:
            yt = _ticks(ylo, yhi)
        for v in yt:
            c.line(px0, Y(v), px1, Y(v), LIGHT)
            label = _fmt(float(f"{10 ** v:.3g}")) if self.logy else _fmt(v)
            c.text(px0 - 6, int(Y(v)) - 3, label, anchor="right")
        for v in _ticks(xlo, xhi, 6):
            c.line(X(v), py1, X(v), py1 + 4, BLACK)
            c.text(int(X(v)), py1 + 7, _fmt(v), anchor="center")
        c.rect(px0, py0, px1 + 1, py0 + 1, BLACK)
        c.rect(px0, py1, px1 + 1, py1 + 1, BLACK)
        c.rect(px0, py0, px0 + 1, py1 + 1, BLACK)
        c.rect(px1, py0, px1 + 1, py1 + 1, BLACK)
        c.text((px0 + px1) // 2, py1 + 20, self.xlabel, anchor="center")
        c.text(x0 + 4, (py0 + py1) // 2, self.ylabel, anchor="center", vertical=True)
        for k, (x, y, color, width, dash, marker, label) in enumerate(self.curves):
            ok = np.isfinite(x) & np.isfinite(y) & ((y > 0) if self.logy else True)
            xv, yv = x[ok], (np.log10(y[ok]) if self.logy else y[ok])
            phase = 0.0
            for i in range(len(xv) - 1):
                phase = c.line(X(xv[i]), Y(yv[i]), X(xv[i + 1]), Y(yv[i + 1]), color, width, dash,
                               phase)
            if marker:
                for xi, yi in zip(xv, yv):
                    c.dot(X(xi), Y(yi), color, marker)
            if label:  # legend, top-left, one line per curve, on a white box
                ly = py0 + 6 + 12 * k
                c.rect(px0 + 4, ly - 3, px0 + 40 + 6 * len(label), ly + 10, (255, 255, 255))
                c.line(px0 + 8, ly + 3, px0 + 30, ly + 3, color, max(width, 2), dash)
                c.text(px0 + 36, ly, label)


class Figure:
    """Panels on a grid of rows x cols, saved as one PNG."""

    def __init__(self, width=900, height=700, rows=1, cols=1, title=""):
        self.w, self.h, self.rows, self.cols, self.title = width, height, rows, cols, title
        self.panels = {}

    def panel(self, i, **kw):
        self.panels[i] = Panel(**kw)
        return self.panels[i]

    def save(self, path):
        c = Canvas(self.w, self.h)
        top = 26 if self.title else 0
        if self.title:
            c.text(self.w // 2, 6, self.title, scale=2, anchor="center")
        pw, ph = self.w // self.cols, (self.h - top) // self.rows
        for i, p in self.panels.items():
            r, k = divmod(i, self.cols)
            p._draw(c, k * pw, top + r * ph, (k + 1) * pw, top + (r + 1) * ph)
        c.save(path)

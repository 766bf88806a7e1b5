"""Colours that stay distinct for every storage (or reader) on screen, and a swatch that also
carries the storage's number, so "same colour, same memory" holds past any palette's length.

The first colours are the house's seven; each next one is the candidate farthest (in CIE Lab,
where distance follows what eyes tell apart) from every colour chosen before, and a colour
already handed out is never repeated."""

from __future__ import annotations

from functools import cache

import numpy as np
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPixmap

HOUSE_COLOURS = ("#3d5a80", "#ee6c4d", "#2a9d8f", "#8d5fd3", "#e9a23b", "#c0392b", "#5c7c2f")
# Candidates after the house's colours: dark enough for white text, saturated enough to tell.
_HUES = range(0, 360, 6)
_LEVELS = ((0.62, 0.40), (0.55, 0.28), (0.50, 0.52), (0.35, 0.36))  # (saturation, lightness)
GOLDEN_ANGLE = 137.50776405


def _lab(colour: QColor) -> tuple[float, float, float]:
    """CIE L*a*b* of an sRGB colour (D65): distances there follow what eyes tell apart."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in colour.getRgbF()[:3])
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def colour_distance(a: QColor, b: QColor) -> float:
    return sum((p - q) ** 2 for p, q in zip(_lab(a), _lab(b), strict=True)) ** 0.5


@cache
def _farthest_first() -> tuple[str, ...]:
    """Every candidate, each next one the farthest from the house's colours and all before it."""
    colours = [QColor.fromHslF(h / 360, s, lt) for s, lt in _LEVELS for h in _HUES]
    names = [c.name() for c in colours]
    labs = np.array([_lab(c) for c in colours])
    house = np.array([_lab(QColor(c)) for c in HOUSE_COLOURS])
    nearest = ((labs[:, None, :] - house[None, :, :]) ** 2).sum(-1).min(axis=1)
    order = []
    for _ in names:
        best = int(nearest.argmax())
        if nearest[best] < 0:  # all taken
            break
        order.append(names[best])
        nearest = np.minimum(nearest, ((labs - labs[best]) ** 2).sum(-1))
        nearest[best] = -1.0  # taken
    return tuple(dict.fromkeys(n for n in order if n not in HOUSE_COLOURS))


@cache
def _palette(count: int) -> tuple[str, ...]:
    """The house's colours, then the candidates farthest first; past them, golden-angle hues —
    never a colour twice."""
    chosen = list(dict.fromkeys((*HOUSE_COLOURS, *_farthest_first())))[:count]
    step = 0
    while len(chosen) < count:
        name = QColor.fromHslF(((step * GOLDEN_ANGLE) % 360) / 360, 0.6, 0.45).name()
        step += 1
        if name not in chosen:
            chosen.append(name)
    return tuple(chosen)


def distinct_colour(position: int) -> QColor:
    """The colour of the position-th storage (0-based): never the same as an earlier one."""
    size = max(16, 1 << (position + 1).bit_length())  # grow the cached palette in doublings
    return QColor(_palette(size)[position])


@cache
def numbered_swatch(position: int, size: int = 18) -> QIcon:
    """A square of the position-th colour with the storage's number (position + 1) on it."""
    colour = distinct_colour(position)
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setBrush(colour)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.drawRoundedRect(QRect(0, 0, size, size), 3, 3)
    font = QFont()
    font.setPixelSize(size - 7 if position < 9 else size - 9)
    font.setBold(True)
    painter.setFont(font)
    painter.setPen(QColor("white") if colour.lightness() < 150 else QColor("#1f2a44"))
    painter.drawText(QRect(0, 0, size, size), Qt.AlignmentFlag.AlignCenter, str(position + 1))
    painter.end()
    return QIcon(pixmap)

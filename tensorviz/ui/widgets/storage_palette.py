"""Colours that stay distinct for every storage (or reader) on screen, and a swatch that also
carries the storage's number, so "same colour, same memory" holds past any palette's length.

The first colours are the theme's categorical series (ui/widgets/theme.py: deep colours on the
light theme, lighter ones on the dark); each next one is the candidate farthest (in CIE Lab,
where distance follows what eyes tell apart) from every colour chosen before, and a colour
already handed out is never repeated. Colours are read when painting, so a theme change shows
at the next paint."""

from __future__ import annotations

from functools import cache

import numpy as np
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPixmap

from tensorviz.ui.widgets import theme as themes

# Candidates after the theme's series, as (saturation, lightness): saturated enough to tell
# apart, and on the light theme dark enough for white text, on the dark one light enough for
# dark text.
_HUES = range(0, 360, 6)
_LEVELS = {
    "light": ((0.62, 0.40), (0.55, 0.28), (0.50, 0.52), (0.35, 0.36)),
    "dark": ((0.62, 0.62), (0.55, 0.74), (0.50, 0.52), (0.35, 0.66)),
}
_BEYOND_LIGHTNESS = {"light": 0.45, "dark": 0.65}  # golden-angle hues past every candidate
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
def _farthest_first(theme_key: str) -> tuple[str, ...]:
    """Every candidate, each next one the farthest from the theme's series and all before it."""
    series = themes.THEMES[theme_key].series
    colours = [QColor.fromHslF(h / 360, s, lt) for s, lt in _LEVELS[theme_key] for h in _HUES]
    names = [c.name() for c in colours]
    labs = np.array([_lab(c) for c in colours])
    house = np.array([_lab(QColor(c)) for c in series])
    nearest = ((labs[:, None, :] - house[None, :, :]) ** 2).sum(-1).min(axis=1)
    order = []
    for _ in names:
        best = int(nearest.argmax())
        if nearest[best] < 0:  # all taken
            break
        order.append(names[best])
        nearest = np.minimum(nearest, ((labs - labs[best]) ** 2).sum(-1))
        nearest[best] = -1.0  # taken
    return tuple(dict.fromkeys(n for n in order if n not in series))


@cache
def _palette(count: int, theme_key: str) -> tuple[str, ...]:
    """The theme's series, then the candidates farthest first; past them, golden-angle hues —
    never a colour twice."""
    series = themes.THEMES[theme_key].series
    chosen = list(dict.fromkeys((*series, *_farthest_first(theme_key))))[:count]
    lightness = _BEYOND_LIGHTNESS[theme_key]
    step = 0
    while len(chosen) < count:
        name = QColor.fromHslF(((step * GOLDEN_ANGLE) % 360) / 360, 0.6, lightness).name()
        step += 1
        if name not in chosen:
            chosen.append(name)
    return tuple(chosen)


def distinct_colour(position: int) -> QColor:
    """The colour of the position-th storage (0-based) in the theme in force: never the same
    as an earlier one."""
    size = max(16, 1 << (position + 1).bit_length())  # grow the cached palette in doublings
    return QColor(_palette(size, themes.current_theme().key)[position])


def text_colour_on(background: QColor) -> QColor:
    """Dark ink or white, whichever reads better on `background`."""
    ink, paper = themes.LIGHT.colour("ink"), themes.LIGHT.colour("window")
    on_ink = themes.contrast_ratio(ink, background)
    return ink if on_ink >= themes.contrast_ratio(paper, background) else paper


def numbered_swatch(position: int, size: int | None = None) -> QIcon:
    """A square of the position-th colour with the storage's number (position + 1) on it;
    `size` in pixels (None: 18 at the zoom in force)."""
    pixels = themes.scaled(18) if size is None else size
    return _swatch(position, pixels, themes.current_theme().key)


@cache
def _swatch(position: int, size: int, theme_key: str) -> QIcon:
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
    painter.setPen(text_colour_on(colour))
    painter.drawText(QRect(0, 0, size, size), Qt.AlignmentFlag.AlignCenter, str(position + 1))
    painter.end()
    return QIcon(pixmap)

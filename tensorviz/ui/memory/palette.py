"""Colours and the zoom window shared by the grid and the strips.

A storage cell's colour comes from its index (light = start of storage, dark = end), so the grid
and the strip use the same colour for the same memory: a transpose shows as a turned gradient.
Every colour is read from the theme in force when painting (ui/widgets/theme.py), never kept."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QColor

from tensorviz.ui.widgets.storage_palette import distinct_colour
from tensorviz.ui.widgets.theme import LIGHT, colour, contrast_ratio, current_theme

# Words on a storage-coloured cell, in either theme: the light theme's ink or white, whichever
# reads at 4.5:1 (WCAG AA); black when neither does (black or white always reaches 4.58:1).
_DARK_TEXT, _LIGHT_TEXT, _BLACK = LIGHT.colour("ink"), QColor(Qt.GlobalColor.white), QColor(0, 0, 0)
READABLE = 4.5


# What View → Theme and View → Zoom send every widget (a new palette, font, stylesheet): widgets
# that paint by hand or keep colours in rich text restyle on these.
_APPEARANCE_EVENTS = (QEvent.Type.PaletteChange, QEvent.Type.FontChange, QEvent.Type.StyleChange)


def is_appearance_change(event: QEvent) -> bool:
    return event.type() in _APPEARANCE_EVENTS


def hover_colour() -> QColor:
    return colour("memory_hover")


def selected_colour() -> QColor:
    return colour("memory_selected")


def walk_colour() -> QColor:
    return colour("memory_walk")


def grid_line_colour() -> QColor:
    """The thin line between cells: the canvas, a little transparent."""
    line = colour("canvas")
    line.setAlpha(170)
    return line


def member_colour(position: int) -> QColor:
    """A reader's lane colour: distinct for every reader on screen (never repeats)."""
    return distinct_colour(position + 1)  # the house's first colour is the storage gradient's


@lru_cache(maxsize=4)
def _lut(start: str, end: str) -> np.ndarray:
    low, high = QColor(start), QColor(end)
    light = np.array([low.red(), low.green(), low.blue()])
    dark = np.array([high.red(), high.green(), high.blue()])
    t = np.linspace(0.0, 1.0, 256)[:, None]
    return (light * (1 - t) + dark * t).astype(np.uint8)


def storage_lut() -> np.ndarray:
    """256 RGB rows from the theme's storage_start to its storage_end."""
    theme = current_theme()
    return _lut(theme.colours["storage_start"], theme.colours["storage_end"])


def storage_rgb(indices: np.ndarray, cells: int) -> np.ndarray:
    """uint8 RGB for storage indices 0..cells-1 (same array shape plus a last axis of 3)."""
    scale = 255.0 / max(cells - 1, 1)
    return storage_lut()[np.clip((indices * scale).astype(np.int64), 0, 255)]


def storage_colour(index: int, cells: int) -> QColor:
    r, g, b = storage_rgb(np.array([index]), cells)[0]
    return QColor(int(r), int(g), int(b))


def text_colour_on(background: QColor) -> QColor:
    """Dark ink or white on a cell, whichever reads at 4.5:1 (black when neither does)."""
    return QColor(_text_colour_on(background.rgb()))


@lru_cache(maxsize=1024)
def _text_colour_on(rgb: int) -> int:
    background = QColor.fromRgb(rgb)
    for candidate in (_DARK_TEXT, _LIGHT_TEXT):
        if contrast_ratio(candidate, background) >= READABLE:
            return candidate.rgb()
    return _BLACK.rgb()


@dataclass
class ZoomWindow:
    """The visible part of the content as fractions [x0, x1] × [y0, y1] of its full extent."""

    x0: float = 0.0
    x1: float = 1.0
    y0: float = 0.0
    y1: float = 1.0

    def reset(self) -> None:
        self.x0, self.x1, self.y0, self.y1 = 0.0, 1.0, 0.0, 1.0

    def zoom(self, factor: float, fx: float, fy: float, vertical: bool = True) -> None:
        """Zoom by `factor` (>1 zooms in) about the point at fractions (fx, fy) of the view."""
        self.x0, self.x1 = _zoom_axis(self.x0, self.x1, factor, fx)
        if vertical:
            self.y0, self.y1 = _zoom_axis(self.y0, self.y1, factor, fy)

    def pan(self, dx: float, dy: float) -> None:
        """Move the window by fractions of the full extent, staying inside it."""
        shift_x = min(max(dx, -self.x0), 1.0 - self.x1)
        shift_y = min(max(dy, -self.y0), 1.0 - self.y1)
        self.x0, self.x1 = self.x0 + shift_x, self.x1 + shift_x
        self.y0, self.y1 = self.y0 + shift_y, self.y1 + shift_y

    @property
    def is_zoomed(self) -> bool:
        return (self.x0, self.x1, self.y0, self.y1) != (0.0, 1.0, 0.0, 1.0)


def _zoom_axis(lo: float, hi: float, factor: float, at: float) -> tuple[float, float]:
    centre = lo + (hi - lo) * at
    span = min(1.0, max((hi - lo) / factor, 1e-7))
    lo = min(max(centre - span * at, 0.0), 1.0 - span)
    return lo, lo + span

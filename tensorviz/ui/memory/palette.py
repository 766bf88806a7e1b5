"""Colours and the zoom window shared by the grid and the strips.

A storage cell's colour comes from its index (light = start of storage, dark = end), so the grid
and the strip use the same colour for the same memory: a transpose shows as a turned gradient."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtGui import QColor

from tensorviz.ui.widgets.storage_palette import distinct_colour

HOVER = QColor("#ee6c4d")
SELECTED = QColor("#d62828")
WALK = QColor("#f4d35e")
INK = QColor("#1f2a44")
MUTED = QColor("#6b7280")
GRID_LINE = QColor(255, 255, 255, 170)
_LIGHT, _DARK = np.array([224, 236, 246]), np.array([31, 78, 121])


def member_colour(position: int) -> QColor:
    """A reader's lane colour: distinct for every reader on screen (never repeats)."""
    return distinct_colour(position + 1)  # the house's first colour is the storage gradient's


def _lut() -> np.ndarray:
    t = np.linspace(0.0, 1.0, 256)[:, None]
    return (_LIGHT * (1 - t) + _DARK * t).astype(np.uint8)


STORAGE_LUT = _lut()


def storage_rgb(indices: np.ndarray, cells: int) -> np.ndarray:
    """uint8 RGB for storage indices 0..cells-1 (same array shape plus a last axis of 3)."""
    scale = 255.0 / max(cells - 1, 1)
    return STORAGE_LUT[np.clip((indices * scale).astype(np.int64), 0, 255)]


def storage_colour(index: int, cells: int) -> QColor:
    r, g, b = storage_rgb(np.array([index]), cells)[0]
    return QColor(int(r), int(g), int(b))


def text_colour_on(background: QColor) -> QColor:
    return INK if background.lightness() > 140 else QColor("white")


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

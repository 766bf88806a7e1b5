"""The layers × steps heatmap of gradient norms: one ImageItem, log colour, a colour bar.

Rows are parameter tensors (dotted names, in the model's order, top to bottom), columns the
run's steps reduced to at most a few thousand (core/watch/heatmap_bins.py: the largest norm of
each block of steps). 2,000 rows stay readable: the left axis names every k-th row so labels
never overlap, and the line under the map names the row, steps and value under the mouse. A
click selects a row (its update ratio and histograms are drawn beside); `focus` marks a step
and row (a diagnosis clicked) and brings them into view.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QGraphicsRectItem, QLabel, QSizePolicy, QVBoxLayout, QWidget

from tensorviz.core.watch.heatmap_bins import log_image, row_label_stride
from tensorviz.core.watch.run_updates import FollowedRank
from tensorviz.ui.watch.run_plots import plain_numbers
from tensorviz.ui.widgets.appearance_following import FollowsAppearanceLater
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import colour, current_zoom

COLOUR_MAP = "viridis"  # the same in both themes; NaN (no gradient) stays the background
LABEL_CHARACTERS = 28  # longer dotted names are elided in the middle on the axis


def elided(name: str, characters: int = LABEL_CHARACTERS) -> str:
    if len(name) <= characters:
        return name
    half = (characters - 1) // 2
    return f"{name[:half]}…{name[-(characters - 1 - half) :]}"


class RowNameAxis(pg.AxisItem):
    """The rows' dotted names, every k-th one when there are more than fit."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.names: list[str] = []

    def tickValues(self, min_value, max_value, size):  # noqa: N802 (pyqtgraph override)
        if not self.names:
            return []
        min_value, max_value = sorted((min_value, max_value))  # (the rows run downwards)
        first = max(0, int(np.floor(min_value)))
        last = min(len(self.names) - 1, int(np.ceil(max_value)))
        if last < first:
            return []
        shown = last - first + 1
        stride = row_label_stride(shown, size, 14 * current_zoom())
        start = -(-first // stride) * stride
        return [(float(stride), [r + 0.5 for r in range(start, last + 1, stride)])]

    def tickStrings(self, values, scale, spacing):  # noqa: N802 (pyqtgraph override)
        rows = [int(v) for v in values]
        return [elided(self.names[r]) if 0 <= r < len(self.names) else "" for r in rows]


class GradientHeatmap(Retranslating, FollowsAppearanceLater, QWidget):
    layer_selected = Signal(str)  # a row clicked: its dotted name

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rank: FollowedRank | None = None
        self.names: list[str] = []
        self.levels = (0.0, 1.0)
        self.whole_run = True  # the view follows the growing run until zoomed
        self._shown = None  # what the image shows: (rank, steps, rows)
        self.view = pg.GraphicsLayoutWidget()
        self.axis = RowNameAxis("left")
        self.plot = self.view.addPlot(axisItems={"left": self.axis})
        self.plot.hideButtons()
        self.plot.setMenuEnabled(False)
        self.plot.invertY(True)
        self.image = pg.ImageItem(axisOrder="row-major")
        self.colour_map = pg.colormap.get(COLOUR_MAP)
        self.image.setColorMap(self.colour_map)
        self.plot.addItem(self.image)
        self.colour_bar = pg.ColorBarItem(
            colorMap=self.colour_map, interactive=False, colorMapMenu=False, width=14
        )
        self.colour_bar.setImageItem(self.image, insert_in=self.plot)
        self.step_line = pg.InfiniteLine(angle=90, movable=False)
        self.row_box = QGraphicsRectItem()
        for item in (self.step_line, self.row_box):
            item.hide()
            self.plot.addItem(item)
        self.hover = QLabel()
        self.hover.setObjectName("hint")
        self.hover.setTextFormat(Qt.TextFormat.PlainText)
        self.hover.setWordWrap(True)
        self.hover.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.hover)
        self.plot.vb.sigRangeChangedManually.connect(self._on_range_changed_by_user)
        self.plot.vb.setMouseEnabled(x=True, y=True)
        self.view.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self.view.scene().sigMouseClicked.connect(self._on_mouse_clicked)
        self._built = True
        self.restyle()

    # --- data --------------------------------------------------------------------------------

    def show_rank(self, rank: FollowedRank | None) -> None:
        """Draw `rank`'s gradient norms (again: called on every throttled redraw)."""
        bins = rank.grad_bins if rank is not None else None
        key = (id(rank), bins.steps, bins.rows) if bins is not None else None
        if rank is self.rank and key == self._shown and key is not None:
            return
        self.rank, self._shown = rank, key
        if bins is None or bins.columns == 0 or bins.rows == 0:
            self.image.clear()
            self.names = self.axis.names = []
            return
        logs, self.levels = log_image(bins.values.T)  # rows × columns
        names = list(rank.param_names[: bins.rows])
        if names != self.names:
            self.names = self.axis.names = names
            self._fit_axis()
        self.image.setImage(logs, autoLevels=False, levels=self.levels)
        self.colour_bar.setLevels(self.levels)
        self.image.setRect(QRectF(0.5, 0, bins.columns * bins.width, bins.rows))
        if self.whole_run:  # (not zoomed by the user or to a diagnosis)
            self._show_range(0.5, bins.steps + 0.5, 0, bins.rows)
        self.axis.picture = None  # the names may have changed
        self.axis.update()

    def value_at(self, x: float, y: float) -> tuple[str, int, int, float] | None:
        """(name, first step, last step, gradient norm) of the cell at plot coordinates."""
        rank = self.rank
        if rank is None or not self.names:
            return None
        bins = rank.grad_bins
        row, column = int(np.floor(y)), int(np.floor((x - 0.5) / bins.width))
        if not (0 <= row < len(self.names) and 0 <= column < bins.columns):
            return None
        first, end = bins.step_range(column)
        steps = rank.steps
        if end <= first or end > len(steps):
            return None
        return (
            self.names[row],
            int(steps[first]),
            int(steps[end - 1]),
            float(bins.values[column, row]),
        )

    def focus(self, row: int, name: str) -> bool:
        """Mark the step of rank row `row` (from 0) and the parameter `name`, and bring them
        into view; False when the heatmap has no such parameter."""
        if name not in self.names or self.rank is None:
            return False
        index = self.names.index(name)
        x = row + 1
        self.step_line.setValue(x)
        self.step_line.show()
        steps = max(1, self.rank.rows)
        self.row_box.setRect(QRectF(0.5, index, steps, 1))
        self.row_box.show()
        span = max(20, steps // 5)
        rows = len(self.names)
        y0, y1 = (max(0, index - 30), min(rows, index + 30)) if rows > 60 else (0, rows)
        self.whole_run = False
        self._show_range(max(0.5, x - span / 2), min(steps + 0.5, x + span / 2), y0, y1)
        return True

    def show_whole_run(self) -> None:
        self.whole_run = True
        bins = self.rank.grad_bins if self.rank is not None else None
        if bins is not None and bins.steps:
            self._show_range(0.5, bins.steps + 0.5, 0, bins.rows)

    def _show_range(self, x0: float, x1: float, y0: float, y1: float) -> None:
        self.plot.vb.setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0)

    def _on_range_changed_by_user(self, *_args) -> None:
        self.whole_run = False

    # --- mouse ----------------------------------------------------------------------------------

    def _cell_under(self, scene_position):
        if not self.plot.sceneBoundingRect().contains(scene_position):
            return None
        point = self.plot.vb.mapSceneToView(scene_position)
        return self.value_at(point.x(), point.y())

    def describe(self, cell) -> str:
        name, first, last, value = cell
        steps = self.tr("step %1").replace("%1", str(first))
        if last != first:
            steps = (
                self.tr("steps %1–%2 (largest)").replace("%1", str(first)).replace("%2", str(last))
            )
        norm = self.tr("no gradient") if np.isnan(value) else f"‖grad‖ = {value:.3g}"
        return f"{name} · {steps} · {norm}"

    def _on_mouse_moved(self, scene_position) -> None:
        cell = self._cell_under(scene_position)
        text = self.describe(cell) if cell else self._hint()
        self.hover.setText(text)
        self.view.setToolTip(text if cell else "")

    def _on_mouse_clicked(self, event) -> None:
        cell = self._cell_under(event.scenePos())
        if cell is not None:
            self.layer_selected.emit(cell[0])

    def _hint(self) -> str:
        return self.tr("Point at a cell: its parameter, step and ‖grad‖ · click a row: its "
                       "update ratio and histograms (Ctrl+click adds a ratio line)")  # fmt: skip

    # --- theme and language -----------------------------------------------------------------------

    def restyle(self) -> None:
        if not getattr(self, "_built", False):
            return
        self.view.setBackground(colour("plot_background"))
        ink = colour("plot_foreground").name()
        ticks = QFont()
        ticks.setPointSizeF(8 * current_zoom())
        for side in ("left", "bottom"):
            axis = self.plot.getAxis(side)
            plain_numbers(axis)
            axis.setPen(ink)
            axis.setTextPen(ink)
            axis.setStyle(tickFont=ticks)
        self._fit_axis()
        self.colour_bar.axis.setPen(ink)
        self.colour_bar.axis.setTextPen(ink)
        self.colour_bar.axis.setStyle(tickFont=ticks)
        marker = pg.mkPen(colour("accent"), width=2)
        self.step_line.setPen(marker)
        self.row_box.setPen(marker)
        self.retranslate()

    def _fit_axis(self) -> None:
        """The names' axis as wide as the longest (elided) name shown, no wider."""
        ticks = QFont()
        ticks.setPointSizeF(8 * current_zoom())
        metrics = QFontMetrics(ticks)
        widest = max((metrics.horizontalAdvance(elided(n)) for n in self.names), default=40)
        self.axis.setWidth(widest + 12)

    def retranslate(self) -> None:
        if not getattr(self, "_built", False):
            return
        size = {"font-size": f"{9 * current_zoom():g}pt"}
        ink = colour("plot_foreground").name()
        self.plot.setLabel("bottom", self.tr("step"), color=ink, **size)
        self.colour_bar.setLabel("right", self.tr("log₁₀ ‖grad‖"), color=ink, **size)
        self.hover.setText(self._hint())

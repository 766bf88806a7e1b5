"""Relative change ‖Δ‖/‖A‖ per layer as horizontal bars, in the model's order from top to
bottom, so a person sees at a glance where the model moved. Clicking a bar names its layer.
Colours are the theme's and the labels follow the zoom: both are redone after a change of theme
or zoom (FollowsAppearanceLater)."""

from __future__ import annotations

import math

import numpy
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QApplication

from tensorviz.core.diff.summaries import LayerChange, common_prefix, percent
from tensorviz.ui.files.placeholders import filled
from tensorviz.ui.widgets.appearance_following import FollowsAppearanceLater
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import colour, current_theme, scaled

MAX_LABEL = 28  # characters of a layer name beside its bar


def _label(name: str) -> str:
    return name if len(name) <= MAX_LABEL else "…" + name[-(MAX_LABEL - 1) :]


class ChangeChart(FollowsAppearanceLater, Retranslating, pg.PlotWidget):
    layer_clicked = Signal(str)
    _title: str | None = None  # the axis title in full (shown cut to the width); a class
    # attribute because PlotWidget resizes itself while it is being built

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.layers: list[LayerChange] = []
        self.names: list[str] = []
        self.heights = numpy.zeros(0)  # percent per layer, as drawn (∞ drawn at the widest bar)
        plot = self.getPlotItem()
        plot.hideButtons()
        plot.setMenuEnabled(False)
        plot.invertY(True)  # the first layer at the top
        plot.showGrid(x=True, y=False, alpha=0.25)
        self.bars = pg.BarGraphItem(x0=[], y=[], height=0.7, width=[], brushes=[])
        plot.addItem(self.bars)
        self.scene().sigMouseClicked.connect(self._on_clicked)
        self.restyle()

    def retranslate(self) -> None:
        self._draw()

    def restyle(self) -> None:
        """Background, axes and labels in the theme's colours at the zoom in force."""
        ink = colour("plot_foreground")
        self.setBackground(colour("plot_background"))
        font = QFont(QApplication.font())
        for side in ("left", "bottom"):
            axis = self.getPlotItem().getAxis(side)
            axis.setPen(ink)
            axis.setTextPen(ink)
            axis.setStyle(tickFont=font)
        self._draw()

    def set_layers(self, layers: list[LayerChange]) -> None:
        self.layers = list(layers)
        self._draw()

    def _draw(self) -> None:
        layers = self.layers
        self.names = [layer.name for layer in layers]
        figures = [layer.relative for layer in layers]
        finite = [f * 100 for f in figures if f is not None and math.isfinite(f)]
        widest = max(finite, default=0.0) or 1.0
        bar, none, infinite = current_theme().series[0], colour("faint"), colour("error_text")
        heights, brushes = [], []
        for figure in figures:
            if figure is None:  # nothing compared (only on one side)
                heights.append(0.0)
                brushes.append(none)
            elif math.isinf(figure):
                heights.append(widest)
                brushes.append(infinite)
            else:
                heights.append(figure * 100)
                brushes.append(bar if figure > 0 else none)
        self.heights = numpy.array(heights, dtype=float)
        rows = numpy.arange(len(layers), dtype=float)
        if layers:  # (pyqtgraph cannot take empty pen lists)
            self.bars.setOpts(x0=numpy.zeros(len(layers)), y=rows, width=self.heights,
                              brushes=[pg.mkBrush(b) for b in brushes],
                              pens=[None] * len(layers))  # fmt: skip
        prefix = common_prefix(self.names)  # "model.transformer." said once, in the title
        labels = [_label(name[len(prefix) :]) for name in self.names]
        axis = self.getPlotItem().getAxis("left")
        axis.setTicks([list(enumerate(labels))])
        metrics = QFontMetrics(QApplication.font())
        widest_label = max((metrics.horizontalAdvance(label) for label in labels), default=0)
        axis.setWidth(min(scaled(220), widest_label + scaled(12)))
        if prefix:
            title = filled(self.tr("‖Δ‖/‖A‖ per layer of %1 (%)"), prefix.rstrip("."))
        else:
            title = self.tr("‖Δ‖/‖A‖ per layer (%)")
        self._title = title
        self._place_title()
        listed = list(zip(self.names, figures, strict=True))[:40]
        lines = [title, *(f"{name}: {percent(figure)}" for name, figure in listed)]
        self.setToolTip("\n".join(lines))
        self.getPlotItem().setXRange(0, widest * 1.05, padding=0)
        self.getPlotItem().setYRange(-0.6, max(len(layers), 1) - 0.4, padding=0)

    def _place_title(self) -> None:
        """The axis title, cut with … to the chart's width (whole in the tooltip): a narrow
        chart at a large zoom must not clip it mid-word."""
        metrics = QFontMetrics(QApplication.font())
        room = max(self.width() - scaled(24), scaled(60))
        shown = metrics.elidedText(self._title, Qt.TextElideMode.ElideMiddle, room)
        size = f"{QApplication.font().pointSizeF():g}pt"
        self.getPlotItem().setLabel("bottom", shown, color=colour("plot_foreground").name(),
                                    **{"font-size": size})  # fmt: skip

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        if self._title is not None:
            self._place_title()

    def _on_clicked(self, event) -> None:
        point = self.getPlotItem().vb.mapSceneToView(event.scenePos())
        row = round(point.y())
        if 0 <= row < len(self.names) and self.sceneBoundingRect().contains(event.scenePos()):
            self.layer_clicked.emit(self.names[row])

"""Relative change ‖Δ‖/‖A‖ per layer as horizontal bars, in the model's order from top to
bottom, so a person sees at a glance where the model moved. Clicking a bar names its layer."""

from __future__ import annotations

import math

import numpy
import pyqtgraph as pg
from PySide6.QtCore import Signal

from tensorviz.core.diff.summaries import LayerChange, common_prefix, percent

INK, BLUE, GREY, RED = "#1f2a44", "#3d5a80", "#c7ced9", "#b91c1c"
MAX_LABEL = 28  # characters of a layer name beside its bar
TITLE = "‖Δ‖/‖A‖ per layer (%)"


def _label(name: str) -> str:
    return name if len(name) <= MAX_LABEL else "…" + name[-(MAX_LABEL - 1) :]


class ChangeChart(pg.PlotWidget):
    layer_clicked = Signal(str)

    def __init__(self, parent=None) -> None:
        super().__init__(parent, background="w")
        self.names: list[str] = []
        self.heights = numpy.zeros(0)  # percent per layer, as drawn (∞ drawn at the widest bar)
        plot = self.getPlotItem()
        plot.hideButtons()
        plot.setMenuEnabled(False)
        plot.invertY(True)  # the first layer at the top
        plot.setLabel("bottom", TITLE, color=INK)
        plot.showGrid(x=True, y=False, alpha=0.25)
        for side in ("left", "bottom"):
            plot.getAxis(side).setPen(INK)
            plot.getAxis(side).setTextPen(INK)
        self.bars = pg.BarGraphItem(x0=[], y=[], height=0.7, width=[], brushes=[])
        plot.addItem(self.bars)
        self.scene().sigMouseClicked.connect(self._on_clicked)

    def set_layers(self, layers: list[LayerChange]) -> None:
        self.names = [layer.name for layer in layers]
        figures = [layer.relative for layer in layers]
        finite = [f * 100 for f in figures if f is not None and math.isfinite(f)]
        widest = max(finite, default=0.0) or 1.0
        heights, brushes = [], []
        for figure in figures:
            if figure is None:  # nothing compared (only on one side)
                heights.append(0.0)
                brushes.append(GREY)
            elif math.isinf(figure):
                heights.append(widest)
                brushes.append(RED)
            else:
                heights.append(figure * 100)
                brushes.append(BLUE if figure > 0 else GREY)
        self.heights = numpy.array(heights, dtype=float)
        rows = numpy.arange(len(layers), dtype=float)
        brushes = [pg.mkBrush(colour) for colour in brushes]
        self.bars.setOpts(x0=numpy.zeros(len(layers)), y=rows, width=self.heights,
                          brushes=brushes, pens=[None] * len(layers))  # fmt: skip
        prefix = common_prefix(self.names)  # "model.transformer." said once, in the title
        labels = [_label(name[len(prefix) :]) for name in self.names]
        axis = self.getPlotItem().getAxis("left")
        axis.setTicks([list(enumerate(labels))])
        axis.setWidth(min(220, 8 + 7 * max((len(label) for label in labels), default=4)))
        title = f"‖Δ‖/‖A‖ per layer of {prefix.rstrip('.')} (%)" if prefix else TITLE
        self.getPlotItem().setLabel("bottom", title, color=INK)
        listed = list(zip(self.names, figures, strict=True))[:40]
        self.setToolTip("\n".join(f"{name}: {percent(figure)}" for name, figure in listed))
        self.getPlotItem().setXRange(0, widest * 1.05, padding=0)
        self.getPlotItem().setYRange(-0.6, max(len(layers), 1) - 0.4, padding=0)

    def _on_clicked(self, event) -> None:
        point = self.getPlotItem().vb.mapSceneToView(event.scenePos())
        row = round(point.y())
        if 0 <= row < len(self.names) and self.sceneBoundingRect().contains(event.scenePos()):
            self.layer_clicked.emit(self.names[row])

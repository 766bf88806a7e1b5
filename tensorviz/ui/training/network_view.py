"""The network as TensorFlow Playground draws it: a column of tiles per layer, each tile what that
neuron outputs over the input plane (a heatmap; for 1-D tasks a band with its curve), and the
weights as lines between the tiles — blue positive, orange negative, wider for larger |w|.

The tiles are one mosaic image and the weights ten curves (two signs × five widths), all made
once per experiment and fed finished arrays from the worker's PictureFrame.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QVBoxLayout, QWidget

from tensorviz.core.training.network_choices import FEATURES
from tensorviz.core.training.network_picture import EDGE_LEVELS
from tensorviz.core.training.playground_report import PlaygroundInfo
from tensorviz.ui.training.network_frames import BLUE, ORANGE, PictureFrame
from tensorviz.ui.training.playground_plots import elastic_title
from tensorviz.ui.training.training_plots import INK

SHORT_NAMES = {"relu": "ReLU", "tanh": "tanh", "sigmoid": "sigm", "gelu": "GELU", "none": "lin"}
EDGE_WIDTHS = (0.4, 0.9, 1.6, 2.5, 3.6)[:EDGE_LEVELS]  # one pen width per strength level


class NetworkView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plot = pg.PlotWidget(background="w")
        item = self.plot.getPlotItem()
        item.hideButtons()
        item.setMenuEnabled(False)
        item.hideAxis("left")
        item.hideAxis("bottom")
        item.vb.setAspectLocked(True)
        elastic_title(self.plot, "Every neuron over the input plane, and the weights")
        self.edges: dict[tuple[int, int], pg.PlotCurveItem] = {}
        for sign, rgb in ((0, ORANGE), (1, BLUE)):
            for level, width in enumerate(EDGE_WIDTHS):
                alpha = 90 + 30 * level
                pen = pg.mkPen((*(int(c) for c in rgb), alpha), width=width)
                curve = pg.PlotCurveItem(pen=pen, connect="pairs", antialias=True)
                curve.setZValue(0)
                self.plot.addItem(curve)
                self.edges[(sign, level)] = curve
        self.tiles = pg.ImageItem(axisOrder="row-major")
        self.tiles.setZValue(1)
        self.plot.addItem(self.tiles)
        self.borders = pg.PlotCurveItem(pen=pg.mkPen("#d1d5db", width=1), connect="pairs")
        self.borders.setZValue(2)
        self.plot.addItem(self.borders)
        self.tile_curves = pg.PlotCurveItem(pen=pg.mkPen(INK, width=1.2), connect="finite")
        self.tile_curves.setZValue(3)
        self.plot.addItem(self.tile_curves)
        self.labels: list[pg.TextItem] = []
        self.info: PlaygroundInfo | None = None
        self._tiles_placed = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot)

    def set_experiment(self, info: PlaygroundInfo) -> None:
        """New tiles, borders and labels for this network's shape (once per experiment)."""
        self.info = info
        layout = info.layout
        for label in self.labels:
            self.plot.removeItem(label)
        self.labels = []
        t = layout.tile
        corners = []
        for origins in layout.origins:
            for x, y in origins:
                box = [(x, y), (x + t, y), (x + t, y), (x + t, y + t)]
                box += [(x + t, y + t), (x, y + t), (x, y + t), (x, y)]
                corners += box
        corners = np.array(corners, dtype=np.float64)
        self.borders.setData(corners[:, 0], corners[:, 1])
        config = info.config
        headings = ["in"]
        for units, activation in zip(config.hidden_layers, config.activations, strict=True):
            headings.append(f"{units}\n{SHORT_NAMES[activation]}")
        headings.append("out")
        for origins, heading in zip(layout.origins, headings, strict=True):
            self._label(heading, origins[0, 0] + t / 2, layout.height + t * 0.25, (0.5, 1.0))
        for (x, y), name in zip(layout.origins[0], config.features, strict=True):
            self._label(FEATURES[name].label, x - t * 0.12, y + t / 2, (1.0, 0.5))
        self._tiles_placed = False  # setRect needs the image: placed with the first frame
        self.tile_curves.setData([], [])
        for curve in self.edges.values():
            curve.setData([], [])
        margin = t * 0.9
        self.plot.setRange(
            xRange=(-margin, layout.width + margin / 3),
            yRange=(-t * 0.2, layout.height + t * 0.9),
            padding=0,
        )

    def _label(self, text: str, x: float, y: float, anchor) -> None:
        label = pg.TextItem(text, color=INK, anchor=anchor)
        label.setPos(x, y)
        self.plot.addItem(label)
        self.labels.append(label)

    def show_frame(self, frame: PictureFrame) -> None:
        self.tiles.setImage(frame.tiles, autoLevels=False)
        if not self._tiles_placed:
            self.tiles.setRect(QRectF(0, 0, self.info.layout.width, self.info.layout.height))
            self._tiles_placed = True
        for key, curve in self.edges.items():
            pairs = frame.edges.get(key)
            if pairs is None or not len(pairs):
                curve.setData([], [])
            else:
                curve.setData(pairs[:, 0], pairs[:, 1])
        if frame.tile_curves is not None:
            self.tile_curves.setData(frame.tile_curves[:, 0], frame.tile_curves[:, 1])

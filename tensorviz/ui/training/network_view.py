"""The network as TensorFlow Playground draws it: a column of tiles per layer, each tile what that
neuron outputs over the input plane (a heatmap; for 1-D tasks a band with its curve), and the
weights as lines between the tiles — blue positive, orange negative, wider for larger |w|.

The worker paints tiles and weights into one image (network_painting); the view shows it, with
the layer headings and feature names made once per experiment.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QGraphicsItem, QVBoxLayout, QWidget

from tensorviz.core.training.network_choices import ACTIVATIONS, FEATURES
from tensorviz.core.training.network_picture import tile_at
from tensorviz.core.training.playground_report import PlaygroundInfo
from tensorviz.core.translation import _
from tensorviz.ui.training.network_frames import PictureFrame
from tensorviz.ui.training.playground_plots import elastic_title
from tensorviz.ui.training.training_plots import ink
from tensorviz.ui.widgets.appearance_following import FollowsAppearanceLater
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import colour, current_zoom

SHORT_NAMES = {"relu": "ReLU", "tanh": "tanh", "sigmoid": "sigm", "gelu": "GELU", "none": "lin"}


class NetworkView(Retranslating, FollowsAppearanceLater, QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plot = pg.PlotWidget()
        item = self.plot.getPlotItem()
        item.hideButtons()
        item.setMenuEnabled(False)
        item.hideAxis("left")
        item.hideAxis("bottom")
        item.vb.setAspectLocked(True)
        self.picture = pg.ImageItem(axisOrder="row-major")
        self.plot.addItem(self.picture)
        self.labels: list[pg.TextItem] = []
        self.info: PlaygroundInfo | None = None
        self._placed = False
        self.plot.scene().sigMouseMoved.connect(self._on_mouse_moved)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot)
        self.retranslate()

    def restyle(self) -> None:
        if hasattr(self, "picture"):
            self.plot.setBackground(colour("plot_background"))
            self.retranslate()

    def retranslate(self) -> None:
        """The title and the layer headings (the colours of the theme in force)."""
        if not hasattr(self, "picture"):
            return
        elastic_title(self.plot, self.tr("Every neuron over the input plane, and the weights"))
        if self.info is not None:
            self._place_labels()

    def set_experiment(self, info: PlaygroundInfo) -> None:
        """Labels and the view's range for this network's shape (once per experiment)."""
        self.info = info
        self._place_labels()
        self._placed = False  # setRect needs the image: placed with the first frame

    def _place_labels(self) -> None:
        """The layer headings and the feature names, made once per experiment (and again in
        another language or theme)."""
        for label in self.labels:
            self.plot.removeItem(label)
        self.labels = []
        layout, config = self.info.layout, self.info.config
        t = layout.tile
        headings = [self.tr("in")]
        for units, activation in zip(config.hidden_layers, config.activations, strict=True):
            headings.append(f"{units}\n{SHORT_NAMES[activation]}")
        headings.append(self.tr("out"))
        for origins, heading in zip(layout.origins, headings, strict=True):
            self._label(heading, origins[0, 0] + t / 2, layout.height + t * 0.25, (0.5, 1.0))
        for (x, y), name in zip(layout.origins[0], config.features, strict=True):
            self._label(FEATURES[name].label, x - t * 0.12, y + t / 2, (1.0, 0.5))
        # Room for the two-line headings and the feature names, which grow with the zoom.
        zoom = current_zoom()
        margin = t * 0.9 * zoom
        self.plot.setRange(
            xRange=(-margin, layout.width + margin / 3),
            yRange=(-t * 0.2, layout.height + t * 1.5 * zoom),
            padding=0,
        )

    def _label(self, text: str, x: float, y: float, anchor) -> None:
        label = pg.TextItem(text, color=ink(), anchor=anchor)
        label.setPos(x, y)
        label.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.plot.addItem(label)
        self.labels.append(label)

    def describe_tile(self, column: int, index: int) -> str:
        """What the tile at (column, index) shows, in a sentence."""
        config = self.info.config
        columns = self.info.layout.columns
        if column == 0:
            text = self.tr("input feature %1, over the plane")
            return text.replace("%1", FEATURES[config.features[index]].label)
        if column == len(columns) - 1:
            if columns[-1] == 1:
                return self.tr("the output: the network's answer over the plane")
            text = self.tr("output %1 (class %1): the network's answer over the plane")
            return text.replace("%1", str(index))
        activation = _(ACTIVATIONS[config.activations[column - 1]][0])
        text = self.tr(
            "layer %1, neuron %2: %3 of its weighted sum, over the plane (orange negative, "
            "blue positive)"
        )
        return (
            text.replace("%1", str(column)).replace("%2", str(index + 1)).replace("%3", activation)
        )

    def _on_mouse_moved(self, position) -> None:
        if self.info is None:
            return
        point = self.plot.getPlotItem().vb.mapSceneToView(position)
        hit = tile_at(self.info.layout, point.x(), point.y())
        self.plot.setToolTip(self.describe_tile(*hit) if hit else "")

    def show_frame(self, frame: PictureFrame) -> None:
        self.picture.setImage(frame.network, autoLevels=False)
        if not self._placed:
            self.picture.setRect(QRectF(0, 0, self.info.layout.width, self.info.layout.height))
            self._placed = True

"""The playground's live plots: the decision boundary (or the fitted function) over the data, the
train and test loss per epoch, and the gradient norm of each layer. Every item is created once
and fed with setData; titles never change while training (a new title re-lays out the plot)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtWidgets import QGraphicsItem, QLabel, QSizePolicy, QVBoxLayout, QWidget

from tensorviz.core.training.network_picture import grid_points
from tensorviz.core.training.network_pictures import BOUNDARY_GRID
from tensorviz.core.training.playground_report import PlaygroundInfo, gradient_verdict
from tensorviz.core.training.playground_trainer import NetworkRecord
from tensorviz.ui.training.network_frames import BLUE as BLUE_RGB
from tensorviz.ui.training.network_frames import ORANGE as ORANGE_RGB
from tensorviz.ui.training.network_frames import PictureFrame
from tensorviz.ui.training.training_plots import (
    LossAxis,
    SeriesBuffer,
    _key,
    _long_curve,
    _plot,
    _set_title,
    faint,
    ink,
    style_plot,
)
from tensorviz.ui.widgets.appearance_following import FollowsAppearanceLater
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import colour

CLASS_COLOURS = (tuple(int(c) for c in ORANGE_RGB), tuple(int(c) for c in BLUE_RGB))
# The tiles' blue and orange (TensorFlow Playground's), readable on both themes' backgrounds.
TRAIN_COLOUR, TEST_COLOUR = "#0877bd", "#f59322"
SMALLEST_NORM = 1e-30  # a zero gradient norm is drawn here on the log axis


def elastic_title(plot: pg.PlotWidget, text: str) -> None:
    """The plot's title, which never widens the plot: pyqtgraph makes a title's width the
    plot's minimum, and on a narrow window that pushes the plot out of its view."""
    _set_title(plot, text)
    label = plot.getPlotItem().titleLabel
    label.setMinimumWidth(0)
    height = label._sizeHint[Qt.SizeHint.MinimumSize][1]
    label._sizeHint[Qt.SizeHint.MinimumSize] = (0, height)
    label.updateGeometry()


def follow_values(plot: pg.PlotWidget, values: np.ndarray, log: bool) -> None:
    """Keep the y range around the finite, positive-if-log values, changing it only when they
    leave it or fill less than a quarter of it: pyqtgraph's own auto range repaints the plot a
    second time after every update, and a new range regenerates the axis."""
    finite = values[np.isfinite(values)]
    if log:
        finite = np.log10(finite[finite > 0])
    if not len(finite):
        return
    low, high = float(finite.min()), float(finite.max())
    if log:
        low, high = np.floor(low), np.ceil(high) + (np.ceil(high) == np.floor(low))
    else:
        low, high = min(low, 0.0), high if high > low else low + 1.0
    (current_low, current_high) = plot.getPlotItem().vb.viewRange()[1]
    inside = current_low <= low and high <= current_high
    if not inside or (high - low) < 0.25 * (current_high - current_low):
        plot.setYRange(low, high, padding=0.05)


def _framed(plot: pg.PlotWidget, below: QWidget | None = None) -> QWidget:
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(2)
    layout.addWidget(plot, 1)
    if below is not None:
        layout.addWidget(below)
    return box


def _background() -> str:
    return colour("plot_background").name()


class BoundaryView(Retranslating, FollowsAppearanceLater, QWidget):
    """2-D tasks: P(class 1) over the plane behind the points (● training, ○ test). 1-D tasks:
    the points and the function the network computes."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.info: PlaygroundInfo | None = None
        self.plot = _plot("x", "y")
        item = self.plot.getPlotItem()
        item.vb.disableAutoRange()
        self.image = pg.ImageItem(axisOrder="row-major")
        self.image.setZValue(-10)
        self.plot.addItem(self.image)
        self.train_points = pg.ScatterPlotItem(size=6)
        self.test_points = pg.ScatterPlotItem(size=6)
        self.curve = self.plot.plot([], [])
        for points in (self.train_points, self.test_points):
            # Static between experiments: Qt keeps their pixels, so a new boundary frame never
            # makes pyqtgraph draw 500 points again (only a zoom or a resize does).
            points.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
            self.plot.addItem(points)
        self._x_grid = np.empty(0)
        self._image_rect: QRectF | None = None
        QVBoxLayout(self).setContentsMargins(0, 0, 0, 0)
        self.layout().addWidget(self.plot)
        self.restyle()

    def restyle(self) -> None:
        if not hasattr(self, "curve"):
            return
        style_plot(self.plot, "x", "y")
        self.curve.setPen(pg.mkPen(ink(), width=2.5))
        background = _background()  # outlines and hollow circles in the background's colour
        self.train_points.setPen(pg.mkPen(background, width=0.8))
        self.test_points.setBrush(pg.mkBrush(background))
        self.retranslate()

    def retranslate(self) -> None:
        if not hasattr(self, "curve"):
            return
        if self.info is None:
            elastic_title(self.plot, self.tr("Decision boundary"))
            return
        train, test = self.tr("train"), self.tr("test")
        keys = f"{_key(ink(), '●', train)} {_key(ink(), '○', test)}"
        if self.info.dims == 2:
            elastic_title(self.plot, self.tr("P(class 1) · %1").replace("%1", keys))
        else:
            elastic_title(self.plot, self.tr("The fitted function · %1").replace("%1", keys))

    def set_experiment(self, info: PlaygroundInfo) -> None:
        self.info = info
        background = _background()
        x0, x1, y0, y1 = info.plane
        train, test = info.points[info.train], info.points[info.test]
        two_d = info.dims == 2
        self.image.setVisible(two_d)
        self.curve.setVisible(not two_d)
        self.plot.getPlotItem().vb.setAspectLocked(two_d)
        if two_d:
            labels = info.targets.astype(int)
            self._image_rect = QRectF(x0, y0, x1 - x0, y1 - y0)  # placed with the first frame
            self.train_points.setData(
                train[:, 0],
                train[:, 1],
                pen=pg.mkPen(background, width=0.8),
                brush=[pg.mkBrush(*CLASS_COLOURS[c]) for c in labels[info.train]],
            )
            self.test_points.setData(
                test[:, 0],
                test[:, 1],
                pen=[pg.mkPen(CLASS_COLOURS[c], width=1.6) for c in labels[info.test]],
                brush=pg.mkBrush(background),
            )
        else:
            values = info.targets.reshape(-1)
            self._x_grid = grid_points(info.plane, BOUNDARY_GRID, 1).numpy()[:, 0]
            self.train_points.setData(
                train[:, 0],
                values[info.train],
                pen=pg.mkPen(background, width=0.8),
                brush=pg.mkBrush(TRAIN_COLOUR),
            )
            self.test_points.setData(
                test[:, 0],
                values[info.test],
                pen=pg.mkPen(TEST_COLOUR, width=1.6),
                brush=pg.mkBrush(background),
            )
            self.curve.setData([], [])
        self.retranslate()
        self.plot.setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0.02)

    def show_frame(self, frame: PictureFrame) -> None:
        if frame.boundary is not None:
            self.image.setImage(frame.boundary, autoLevels=False)
            if self._image_rect is not None:  # setRect needs the image's size
                self.image.setRect(self._image_rect)
                self._image_rect = None
        elif frame.curve is not None:
            finite = np.isfinite(frame.curve).all()
            self.curve.setData(*((self._x_grid, frame.curve) if finite else ([], [])))


class LossPlot(Retranslating, FollowsAppearanceLater, QWidget):
    """The training loss (each epoch's mini-batches) and the test loss (after the epoch)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plot = _plot(axis=LossAxis("left"))
        self.plot.getAxis("left").enableAutoSIPrefix(False)
        self.records = SeriesBuffer(3)  # epoch, loss, test loss
        self.log = False
        self.train = _long_curve(self.plot, pg.mkPen(TRAIN_COLOUR, width=1.8))
        self.test = _long_curve(self.plot, pg.mkPen(TEST_COLOUR, width=1.8))
        QVBoxLayout(self).setContentsMargins(0, 0, 0, 0)
        self.layout().addWidget(self.plot)
        self.retranslate()

    def restyle(self) -> None:
        if hasattr(self, "train"):
            self.retranslate()

    def retranslate(self) -> None:
        style_plot(self.plot, self.tr("epoch"), self.tr("loss"))
        train, test = self.tr("train"), self.tr("test")
        keys = f"{_key(TRAIN_COLOUR, '—', train)} {_key(TEST_COLOUR, '—', test)}"
        _set_title(self.plot, self.tr("Loss · %1").replace("%1", keys))

    def set_experiment(self, info: PlaygroundInfo) -> None:
        self.records.clear()
        self.plot.getPlotItem().vb.disableAutoRange()
        self.plot.setXRange(0, info.config.epochs, padding=0.02)
        self.plot.setYRange(0, 1)
        self._redraw()

    def add_records(self, records: list[NetworkRecord]) -> None:
        rows = [(r.epoch, r.loss, np.nan if r.test_loss is None else r.test_loss) for r in records]
        self.records.extend(np.array(rows, dtype=np.float64))
        self._redraw()

    def set_log_scale(self, on: bool) -> None:
        self.log = on
        self.plot.getPlotItem().setLogMode(y=on)
        self.plot.setYRange(0, 1)  # the next update fits the range to the data again
        self._redraw()

    def _redraw(self) -> None:
        epochs = self.records.column(0)
        with np.errstate(all="ignore"):  # a diverged loss is not drawn (pyqtgraph never sees inf)
            train = np.where(np.isfinite(self.records.column(1)), self.records.column(1), np.nan)
            test = np.where(np.isfinite(self.records.column(2)), self.records.column(2), np.nan)
        self.train.setData(epochs, train)
        self.test.setData(epochs, test)
        if len(epochs):
            follow_values(self.plot, np.concatenate([train, test]), self.log)


class GradientPlot(Retranslating, FollowsAppearanceLater, QWidget):
    """‖∂L/∂W‖ of each Linear layer on a log axis: now, and at epoch 1 (dashed); below it the
    verdict (vanishing, exploding, healthy)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plot = _plot(axis=LossAxis("left"))
        self.plot.getPlotItem().setLogMode(y=True)
        self.plot.getPlotItem().vb.disableAutoRange()
        self.plot.getAxis("left").enableAutoSIPrefix(False)
        self.first = self.plot.plot([], [])
        self.now = self.plot.plot([], [], symbol="o", symbolSize=7)
        self.verdict = QLabel("")
        self.verdict.setWordWrap(True)
        self.verdict.setObjectName("hint")
        self.verdict.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.verdict.setFixedHeight(2 * self.verdict.fontMetrics().lineSpacing() + 4)
        QVBoxLayout(self).setContentsMargins(0, 0, 0, 0)
        self.layout().addWidget(_framed(self.plot, self.verdict))
        self.kind = ""
        self._norms: tuple | None = None
        self.restyle()

    def restyle(self) -> None:
        if not hasattr(self, "kind"):
            return
        self.first.setPen(pg.mkPen(faint(), width=1.5, style=Qt.PenStyle.DashLine))
        self.now.setPen(pg.mkPen(ink(), width=2))
        self.now.setSymbolBrush(ink())
        self.verdict.setFixedHeight(2 * self.verdict.fontMetrics().lineSpacing() + 4)
        self.retranslate()

    def retranslate(self) -> None:
        if not hasattr(self, "kind"):
            return
        style_plot(self.plot, self.tr("layer"), self.tr("‖grad W‖ (log)"))
        epoch_1 = self.tr("epoch 1")
        now = self.tr("now")
        _set_title(self.plot, f"{_key(ink(), '●', now)} {_key(faint(), '- -', epoch_1)}")
        if self._norms is None:
            self.verdict.setText(self.tr("Gradients appear after the first backward pass."))
        else:
            self._show_verdict(self._norms)

    def set_experiment(self, info: PlaygroundInfo) -> None:
        layers = len(info.config.hidden_layers) + 1
        self.plot.setXRange(0.7, layers + 0.3, padding=0)
        self.plot.getAxis("bottom").setTicks([[(i, str(i)) for i in range(1, layers + 1)]])
        self.first.setData([], [])
        self.now.setData([], [])
        self._norms = None
        self.verdict.setText(self.tr("Gradients appear after the first backward pass."))
        self.kind = ""

    def show_norms(self, norms: tuple[float, ...], first: tuple[float, ...] | None) -> None:
        layers = np.arange(1, len(norms) + 1)
        for curve, values in ((self.now, norms), (self.first, first)):
            if values is None:
                continue
            shown = np.array(values, dtype=np.float64)
            if not np.isfinite(shown).all():
                curve.setData([], [])
                continue
            curve.setData(layers, np.maximum(shown, SMALLEST_NORM))
        both = [v for v in (norms, first) if v is not None]
        follow_values(self.plot, np.maximum(np.concatenate(both), SMALLEST_NORM), log=True)
        self._show_verdict(norms)

    def _show_verdict(self, norms: tuple[float, ...]) -> None:
        """core's verdict (in the language in force), red for a problem, green when healthy."""
        self._norms = norms
        self.kind, headline, explanation = gradient_verdict(norms)
        if headline:
            role = "ok_text" if self.kind == "healthy" else "error_text"
            self.verdict.setText(f"<span style='color:{colour(role).name()}'>{headline}</span>")
            self.verdict.setToolTip(f"{headline}. {explanation}")

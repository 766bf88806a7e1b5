"""The four live plots of the Training area: loss per epoch, the data with the fitted line, the
loss surface over (w, b) with the path the parameters took, and w and b over time.

Every curve is created once and fed with setData when a batch of records arrives (the worker sends
at most ~30 batches a second). Long series keep every point and are drawn with peak downsampling
and clip-to-view (ARCHITECTURE rule 5); the parametric path is drawn with a stride instead.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QGridLayout, QWidget

from tensorviz.core.training.report import ExperimentInfo, extend_ema
from tensorviz.core.training.trainer import StepRecord
from tensorviz.ui.widgets.appearance_following import FollowsAppearanceLater
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import colour, current_theme, current_zoom

PATH_POINTS = 4000  # the (w, b) path is drawn with at most this many points
SCATTER_POINTS = 5000  # the data plot shows an even sample of at most this many points
EMA_ALPHA = 0.05


class SeriesBuffer:
    """A growable float64 column store: appends are amortised O(1), views are free."""

    def __init__(self, columns: int) -> None:
        self._data = np.empty((1024, columns))
        self.size = 0

    def extend(self, rows: np.ndarray) -> None:
        needed = self.size + len(rows)
        if needed > len(self._data):
            grown = np.empty((max(needed, 2 * len(self._data)), self._data.shape[1]))
            grown[: self.size] = self._data[: self.size]
            self._data = grown
        self._data[self.size : needed] = rows
        self.size = needed

    def column(self, index: int) -> np.ndarray:
        return self._data[: self.size, index]

    def clear(self) -> None:
        self.size = 0


class LossAxis(pg.AxisItem):
    """On a log scale, ticks at 1, 2 and 5 × 10^k only (pyqtgraph labels every minor tick of a
    short log range, and the labels overlap)."""

    def tickValues(self, min_value, max_value, size):  # noqa: N802 — pyqtgraph override
        if not self.logMode:
            return super().tickValues(min_value, max_value, size)
        if not (np.isfinite(min_value) and np.isfinite(max_value)):
            return []
        decades = range(int(np.floor(min_value)), int(np.ceil(max_value)) + 1)
        every = max(1, int(np.ceil(len(decades) / 6)))  # at most ~6 labels: 10^0, 10^5, …
        major = [float(k) for k in decades if min_value <= k <= max_value and k % every == 0]
        if every > 1:
            return [(float(every), major)]
        minor = [
            k + np.log10(m)
            for k in decades
            for m in (2, 5)
            if min_value <= k + np.log10(m) <= max_value
        ]
        return [(1.0, major), (None, minor)]


def ink() -> str:
    """The plots' text and axis colour in the theme in force (no grid lines: they make every
    axis repaint with each frame)."""
    return colour("plot_foreground").name()


def series(index: int) -> str:
    """Curve colours, told apart by hue: 0 blue, 1 orange, 2 green (the theme's series)."""
    return current_theme().series[index]


def faint() -> str:
    return colour("faint").name()


def _key(colour: str, mark: str, name: str) -> str:
    """A legend entry written into a plot's title (a legend box inside the plot covers data)."""
    return f"<span style='color:{colour}'><b>{mark}</b> {name}</span>"


def _set_title(plot: pg.PlotWidget, title: str) -> None:
    size = f"{10 * current_zoom():g}pt"  # the titles follow the zoom
    plot.getPlotItem().setTitle(f"<span style='color:{ink()}; font-size:{size}'>{title}</span>")


def style_plot(plot: pg.PlotWidget, x_label: str, y_label: str) -> None:
    """Background, axes and axis labels in the theme in force (again on a theme change)."""
    plot.setBackground(colour("plot_background"))
    item = plot.getPlotItem()
    size = {"font-size": f"{9 * current_zoom():g}pt"}  # labels and ticks follow the zoom
    item.setLabel("bottom", x_label, color=ink(), **size)
    item.setLabel("left", y_label, color=ink(), **size)
    ticks = QFont()
    ticks.setPointSizeF(8 * current_zoom())
    for side in ("left", "bottom"):
        axis = plot.getAxis(side)
        axis.setPen(ink())
        axis.setTextPen(ink())
        axis.setStyle(tickFont=ticks)


def _plot(x_label: str = "", y_label: str = "", axis=None) -> pg.PlotWidget:
    plot = pg.PlotWidget(axisItems={"left": axis} if axis else None)
    item = plot.getPlotItem()
    item.hideButtons()
    item.setMenuEnabled(False)
    style_plot(plot, x_label, y_label)
    plot.setMinimumSize(160, 120)
    return plot


def _long_curve(plot: pg.PlotWidget, pen=None, name: str | None = None) -> pg.PlotDataItem:
    curve = plot.plot([], [], pen=pen, name=name, connect="finite")
    curve.setDownsampling(auto=True, method="peak")
    curve.setClipToView(True)
    return curve


def _hline(plot: pg.PlotWidget) -> pg.InfiniteLine:
    """A horizontal line (its pen is set by the plot's restyle)."""
    line = pg.InfiniteLine(angle=0)
    line.hide()
    plot.addItem(line)
    return line


class TrainingPlots(Retranslating, FollowsAppearanceLater, QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.records = SeriesBuffer(4)  # epoch, loss, w, b
        self.info: ExperimentInfo | None = None
        self._ema: list[float] = []
        self.smoothing = False

        self.loss_plot = _plot(axis=LossAxis("left"))
        self.loss_raw = _long_curve(self.loss_plot, None, "loss")
        self.loss_smooth = _long_curve(self.loss_plot, None)
        self.loss_smooth.hide()

        self.data_plot = _plot()
        self.data_plot.getPlotItem().vb.disableAutoRange()  # a diverging line must not zoom out
        self.scatter = pg.ScatterPlotItem(size=5, pen=None)
        self.data_plot.addItem(self.scatter)
        self.true_line = self.data_plot.plot([], [], name="true")
        self.fit_line = self.data_plot.plot([], [], name="w·x + b")

        self.surface_plot = _plot()
        self.surface_plot.getPlotItem().vb.disableAutoRange()
        self.surface_image = pg.ImageItem(axisOrder="col-major")
        self.surface_image.setColorMap(pg.colormap.get("viridis"))
        self.surface_plot.addItem(self.surface_image)
        # On the viridis image (the same in both themes): white paths, a yellow star.
        self.contours = [pg.IsocurveItem(pen=pg.mkPen(255, 255, 255, 90)) for _ in range(7)]
        for contour in self.contours:
            contour.setParentItem(self.surface_image)
        self.path = self.surface_plot.plot([], [], pen=pg.mkPen("w", width=2))
        self.least_marker = pg.ScatterPlotItem(
            size=14, symbol="star", brush=pg.mkBrush("#ffd166"), pen=pg.mkPen("#1f2a44")
        )
        self.start_marker = pg.ScatterPlotItem(size=9, pen=pg.mkPen("w"))
        self.current_marker = pg.ScatterPlotItem(size=11, pen="w")
        for marker in (self.least_marker, self.start_marker, self.current_marker):
            self.surface_plot.addItem(marker)

        self.param_plot = _plot()
        self.w_curve = _long_curve(self.param_plot, None, "w")
        self.b_curve = _long_curve(self.param_plot, None, "b")
        self.true_w_line, self.true_b_line = _hline(self.param_plot), _hline(self.param_plot)
        self.ls_w_line = _hline(self.param_plot)
        self.ls_b_line = _hline(self.param_plot)
        self._built = True
        self.restyle()

        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setSpacing(6)
        grid.addWidget(self.loss_plot, 0, 0)
        grid.addWidget(self.data_plot, 0, 1)
        grid.addWidget(self.surface_plot, 1, 0)
        grid.addWidget(self.param_plot, 1, 1)

    # --- theme and language ----------------------------------------------------------------------

    def restyle(self) -> None:
        """Every pen and background in the theme in force (items are made once, restyled here)."""
        if not getattr(self, "_built", False):
            return
        blue, orange, green = series(0), series(1), series(2)
        dash, dot = Qt.PenStyle.DashLine, Qt.PenStyle.DotLine
        self.loss_raw.setPen(pg.mkPen(blue, width=1.5))
        self.loss_smooth.setPen(pg.mkPen(orange, width=2))
        scatter = QColor(blue)
        scatter.setAlpha(120)
        self.scatter.setBrush(pg.mkBrush(scatter))
        self.true_line.setPen(pg.mkPen(green, width=1.5, style=dash))
        self.fit_line.setPen(pg.mkPen(orange, width=2.5))
        self.start_marker.setBrush(pg.mkBrush(faint()))
        self.current_marker.setBrush(pg.mkBrush(orange))
        self.w_curve.setPen(pg.mkPen(orange, width=2))
        self.b_curve.setPen(pg.mkPen(blue, width=2))
        for line in (self.true_w_line, self.true_b_line):
            line.setPen(pg.mkPen(green, width=1, style=dash))
        for line in (self.ls_w_line, self.ls_b_line):
            line.setPen(pg.mkPen(ink(), width=1, style=dot))
        self.retranslate()

    def retranslate(self) -> None:
        """Titles and axis labels in the language (and the theme's colours) in force."""
        if not getattr(self, "_built", False):
            return
        style_plot(self.loss_plot, self.tr("epoch"), self.tr("loss"))
        style_plot(self.data_plot, "x", "y")
        style_plot(self.surface_plot, "w", "b")
        style_plot(self.param_plot, self.tr("epoch"), self.tr("value"))
        _set_title(self.surface_plot, self.tr("Loss over (w, b) with the path · ★ least squares"))
        self._loss_title()
        self._legend_titles()

    def _loss_title(self) -> None:
        title = self.tr("Loss per epoch (MSE)")
        if self.smoothing:
            ema = self.tr("EMA (α = %1)").replace("%1", str(EMA_ALPHA))
            loss = self.tr("loss")
            title = f"{_key(series(0), '—', loss)} · {_key(series(1), '—', ema)}"
        _set_title(self.loss_plot, title)

    def _legend_titles(self) -> None:
        """The data and parameter plots' titles, which name what the experiment has."""
        info = self.info
        true = self.tr("true")
        keys = [_key(series(1), "—", "w·x + b")]
        if info is not None and info.true_w is not None:
            keys.append(_key(series(2), "- -", true))
        if info is not None and len(info.x) > SCATTER_POINTS:
            shown = self.tr("%1 of %2 points").replace("%1", f"{self._shown_points:,}")
            keys.append(shown.replace("%2", f"{len(info.x):,}"))
        if info is None:
            _set_title(self.data_plot, self.tr("Data and the fitted line"))
        else:
            _set_title(self.data_plot, self.tr("Data · %1").replace("%1", " · ".join(keys)))
        if info is None:
            _set_title(self.param_plot, self.tr("w and b over time"))
            return
        curves = f"{_key(series(1), '—', 'w')} {_key(series(0), '—', 'b')}"
        lines = [_key(series(2), "- -", true)] if info.true_w is not None else []
        lines.append(_key(ink(), "···", self.tr("lstsq")))
        title = self.tr("%1 over time · %2").replace("%1", curves)
        _set_title(self.param_plot, title.replace("%2", " ".join(lines)))

    # --- model → view ----------------------------------------------------------------------------

    def set_experiment(self, info: ExperimentInfo) -> None:
        self.info = info
        self.records.clear()
        self._ema = []
        shown = np.unique(np.linspace(0, len(info.x) - 1, SCATTER_POINTS).astype(np.int64))
        self._shown_points = len(shown)
        self.scatter.setData(info.x[shown], info.y[shown])
        self._legend_titles()
        span = self._x_span()
        if info.true_w is not None:
            self.true_line.setData(span, info.true_w * span + info.true_b)
        else:
            self.true_line.setData([], [])
        surface = info.surface
        levels = np.log10(surface.loss + 1e-6)
        self.surface_image.setImage(levels, autoLevels=True)
        w0, w1 = float(surface.w_values[0]), float(surface.w_values[-1])
        b0, b1 = float(surface.b_values[0]), float(surface.b_values[-1])
        self.surface_image.setRect(QRectF(w0, b0, w1 - w0, b1 - b0))
        inner = np.linspace(levels.min(), levels.max(), len(self.contours) + 2)[1:-1]
        for contour, level in zip(self.contours, inner, strict=True):
            contour.setData(levels, level)  # in image pixels; the image's rect maps them
        self.surface_plot.setRange(xRange=(w0, w1), yRange=(b0, b1), padding=0)
        for plot in (self.loss_plot, self.param_plot):  # a fixed epoch axis is never re-laid out
            plot.getPlotItem().vb.enableAutoRange(x=False, y=True)
            plot.setXRange(0, info.config.epochs, padding=0.02)
        x_low, x_high = span
        x_pad = 0.05 * (x_high - x_low)
        y_pad = 0.05 * float(np.ptp(info.y) or 1.0)
        self.data_plot.setRange(
            xRange=(x_low - x_pad, x_high + x_pad),
            yRange=(float(info.y.min()) - y_pad, float(info.y.max()) + y_pad),
            padding=0,
        )
        ls_w, ls_b = info.least_squares
        self.least_marker.setData([ls_w], [ls_b])
        self.start_marker.setData([info.initial[0]], [info.initial[1]])
        for line, value in (
            (self.true_w_line, info.true_w),
            (self.true_b_line, info.true_b),
            (self.ls_w_line, ls_w),
            (self.ls_b_line, ls_b),
        ):
            shown = value is not None and bool(np.isfinite(value))  # pyqtgraph never sees NaN
            line.setVisible(shown)
            if shown:
                line.setValue(value)
        self._redraw()

    def add_records(self, records: list[StepRecord]) -> None:
        rows = np.array([(r.epoch, r.loss, r.w, r.b) for r in records], dtype=np.float64)
        self.records.extend(rows)
        last = self._ema[-1] if self._ema else None
        self._ema.extend(extend_ema(last, rows[:, 1], EMA_ALPHA))
        self._redraw()

    def set_log_scale(self, on: bool) -> None:
        self.loss_plot.getPlotItem().setLogMode(y=on)

    def set_smoothing(self, on: bool) -> None:
        self.smoothing = on
        self.loss_smooth.setVisible(on)
        self._loss_title()

    def _redraw(self) -> None:
        epochs, loss = self.records.column(0), self.records.column(1)
        w, b = self.records.column(2), self.records.column(3)
        self.loss_raw.setData(epochs, loss)
        self.loss_smooth.setData(epochs, np.asarray(self._ema))
        self.w_curve.setData(epochs, w)
        self.b_curve.setData(epochs, b)
        if self.info is None:
            return
        current = (w[-1], b[-1]) if self.records.size else self.info.initial
        stride = max(1, self.records.size // PATH_POINTS)
        path_w = np.concatenate([[self.info.initial[0]], w[::stride], w[-1:]])
        path_b = np.concatenate([[self.info.initial[1]], b[::stride], b[-1:]])
        surface = self.info.surface
        far = (np.abs(path_w - surface.w_values.mean()) > 50 * np.ptp(surface.w_values)) | (
            np.abs(path_b - surface.b_values.mean()) > 50 * np.ptp(surface.b_values)
        )
        if far.any():  # a diverged path: Qt cannot draw a segment out to 1e18; stop it there
            path_w, path_b = np.where(far, np.nan, path_w), np.where(far, np.nan, path_b)
        self.path.setData(path_w, path_b, connect="finite")
        finite = bool(np.isfinite(current).all())
        self.current_marker.setData(*(([current[0]], [current[1]]) if finite else ([], [])))
        x = self._x_span()
        with np.errstate(all="ignore"):
            line = current[0] * x + current[1]
        if finite and np.isfinite(line).all():
            self.fit_line.setData(x, line)
        else:  # a diverged line is not drawn (and no NaN reaches pyqtgraph)
            self.fit_line.setData([], [])

    def _x_span(self) -> np.ndarray:
        """The x range lines are drawn over; ±1 around a constant x, so a line shows."""
        low, high = float(self.info.x.min()), float(self.info.x.max())
        if high - low <= 1e-12 * max(1.0, abs(low)):
            low, high = low - 1.0, high + 1.0
        return np.array([low, high])

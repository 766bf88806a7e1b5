"""The charts beside the value table: a histogram of the tensor's finite values and a heatmap of
the shown slice, drawn with pyqtgraph in the theme in force and at the zoom in force (created
once, restyled on every change of theme or zoom)."""

from __future__ import annotations

import numpy
import pyqtgraph as pg
from PySide6.QtGui import QColor, QFont, QFontMetrics
from PySide6.QtWidgets import QApplication, QTabWidget, QWidget

from tensorviz.ui.widgets.appearance_following import on_appearance_changed
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import colour, current_theme, scaled

HEATMAP_MAX_SIDE = 2048  # more pixels than a screen shows; bounds the work for any slice
COLOUR_BAR_WIDTH, COLOUR_BAR_AXIS = 16, 45  # px at 100 %
HISTOGRAM_FILL_ALPHA = 110  # the bars: the line's colour, see-through on either background


def heatmap_values(values: numpy.ndarray) -> tuple[numpy.ndarray, tuple[float, float]]:
    """A real image for ImageItem (|x| for complex, NaN for non-finite) and its colour levels.
    Slices larger than HEATMAP_MAX_SIDE are sampled with a step (a view, no copy) first."""
    if values.ndim == 2:
        steps = [max(1, -(-side // HEATMAP_MAX_SIDE)) for side in values.shape]
        values = values[:: steps[0], :: steps[1]]
    if values.dtype.kind == "c":
        values = numpy.abs(values)
    elif values.dtype.kind in "biu":
        values = values.astype(numpy.float32)
    finite = numpy.isfinite(values)
    if not finite.all():
        values = numpy.where(finite, values, numpy.nan).astype(numpy.float32)
    if not finite.any():
        return values, (0.0, 1.0)
    low, high = float(numpy.nanmin(values)), float(numpy.nanmax(values))
    return values, (low, high if high > low else low + 1.0)


def _plot_widget() -> pg.PlotWidget:
    plot = pg.PlotWidget()
    plot.getPlotItem().hideButtons()
    return plot


class ValueCharts(Retranslating, QTabWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._magnitudes = False  # the histogram's x axis is |x| (complex values)
        self.histogram_plot = _plot_widget()
        self.histogram_curve = self.histogram_plot.plot(stepMode="center", fillLevel=0,
                                                        fillOutline=True)  # fmt: skip
        self.heatmap_plot = _plot_widget()
        self.heatmap_plot.invertY(True)  # row 0 at the top, as in the table
        self.heatmap_image = pg.ImageItem(axisOrder="row-major", autoDownsample=True)
        self.heatmap_plot.addItem(self.heatmap_image)
        self.colour_bar = pg.ColorBarItem(colorMap="viridis", interactive=False)
        self.colour_bar.setImageItem(self.heatmap_image, insert_in=self.heatmap_plot.getPlotItem())
        self.addTab(self.histogram_plot, "")
        self.addTab(self.heatmap_plot, "")
        on_appearance_changed(self.restyle)
        self.restyle()

    def retranslate(self) -> None:
        self.setTabText(0, self.tr("Histogram"))
        self.setTabText(1, self.tr("Heatmap"))
        self._label_axes()

    def set_magnitudes(self, magnitudes: bool) -> None:
        """The histogram counts |x| (complex values) rather than the values themselves."""
        self._magnitudes = magnitudes
        self._label_axes()

    def restyle(self) -> None:
        """Colours of the theme in force, sizes of the zoom in force."""
        ink = colour("plot_foreground")
        font = QFont(QApplication.font())
        for plot in (self.histogram_plot, self.heatmap_plot):
            plot.setBackground(colour("plot_background"))
            for side in ("left", "bottom"):
                self._style_axis(plot.getAxis(side), ink, font)
            # pyqtgraph sizes the bottom axis from the last drawn ticks and 0.8 of the label:
            # at 200 % the label would be cut off, so room for both lines of text is set here.
            plot.getAxis("bottom").setHeight(int(QFontMetrics(font).height() * 2.4) + scaled(6))
        for side in ("left", "right", "top", "bottom"):
            self._style_axis(self.colour_bar.getAxis(side), ink, font)
        self.colour_bar.layout.setColumnFixedWidth(1, scaled(COLOUR_BAR_WIDTH))
        self.colour_bar.axis.setWidth(scaled(COLOUR_BAR_AXIS))
        line = QColor(current_theme().series[0])
        fill = QColor(line)
        fill.setAlpha(HISTOGRAM_FILL_ALPHA)
        self.histogram_curve.setPen(pg.mkPen(line, width=max(1, scaled(1))))
        self.histogram_curve.setBrush(pg.mkBrush(fill))
        self.retranslate()  # the axis labels take the new colour and size

    @staticmethod
    def _style_axis(axis: pg.AxisItem, ink: QColor, font: QFont) -> None:
        axis.setPen(ink)
        axis.setTextPen(ink)
        axis.setStyle(tickFont=font)

    def _label_axes(self) -> None:
        style = {"color": colour("plot_foreground").name(), "font-size": f"{self._points()}pt"}
        value = "|x|" if self._magnitudes else self.tr("value")
        self.histogram_plot.setLabel("left", self.tr("count"), **style)
        self.histogram_plot.setLabel("bottom", value, **style)
        self.heatmap_plot.setLabel("left", self.tr("row"), **style)
        self.heatmap_plot.setLabel("bottom", self.tr("column"), **style)

    @staticmethod
    def _points() -> float:
        return round(QApplication.font().pointSizeF(), 1)

    def show_histogram(self, counts: numpy.ndarray, edges: numpy.ndarray) -> None:
        if len(counts) == 0:
            self.histogram_curve.setData([0.0], [])  # stepMode needs one more x than y
        else:
            self.histogram_curve.setData(edges, counts)

    def show_heatmap(self, values: numpy.ndarray) -> None:
        if values.size == 0:
            self.heatmap_image.clear()
            return
        image, levels = heatmap_values(values)
        self.heatmap_image.setImage(image, autoLevels=False)
        rows, columns = values.shape if values.ndim == 2 else image.shape
        self.heatmap_image.setRect(-0.5, -0.5, columns, rows)  # cell (i, j) centred on (j, i)
        self.colour_bar.setLevels(levels)
        self.heatmap_plot.getPlotItem().autoRange()

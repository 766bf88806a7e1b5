"""The Runs area's line plots: the loss (or a scalar the loop logged), one curve per rank and
the compared run's curve over it; and the update-to-data ratio of the selected parameters with
the 1e-3 guide. Curves are made once and fed with setData; long series are drawn with peak
downsampling and clip-to-view (ARCHITECTURE rule 5), so a million steps stay fluid."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from tensorviz.core.watch.run_updates import FollowedRank
from tensorviz.ui.widgets.appearance_following import FollowsAppearanceLater
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import colour, current_theme, current_zoom

RATIO_GUIDE = 1e-3  # the update-to-data ratio a healthy layer sits near (makemore)
MAX_RATIO_LINES = 6


def _ink() -> str:
    return colour("plot_foreground").name()


def long_curve(plot: pg.PlotWidget, **options) -> pg.PlotDataItem:
    curve = plot.plot([], [], connect="finite", **options)
    curve.setDownsampling(auto=True, method="peak")
    curve.setClipToView(True)
    return curve


def plain_numbers(axis: pg.AxisItem) -> None:
    """Tick labels as the values are: pyqtgraph's SI prefix writes a ratio of 1e-5 as "10" with
    "(x1e-06)" in the label, which reads as the ratio itself (and its off switch keeps the scale
    it last computed, so the scale is reset here too)."""
    axis.autoSIPrefix = False
    axis.autoSIPrefixScale = 1.0
    axis.labelUnitPrefix = ""


class TitledPlot(QWidget):
    """A plot under a title that wraps: pyqtgraph's own title makes the plot as wide as its
    text, which at 200 % pushed the plots past the window's edge."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel()
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.title.setWordWrap(True)
        self.title.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.plot = pg.PlotWidget()
        self.plot.getPlotItem().hideButtons()
        self.plot.getPlotItem().setMenuEnabled(False)
        self.plot.setMinimumSize(110, 90)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.title)
        layout.addWidget(self.plot, 1)


def styled(box: TitledPlot, title: str, x_label: str, y_label: str) -> None:
    """Background, title and axes in the theme and zoom in force; nothing is done when they are
    as the last call left them (an axis label set re-lays the plot out: 3 ms each, on every
    live redraw otherwise)."""
    key = (title, x_label, y_label, current_theme().key, current_zoom())
    if getattr(box, "_styled_as", None) == key:
        return
    box._styled_as = key
    plot = box.plot
    plot.setBackground(colour("plot_background"))
    item = plot.getPlotItem()
    size = {"font-size": f"{9 * current_zoom():g}pt"}
    item.setLabel("bottom", x_label, color=_ink(), **size)
    item.setLabel("left", y_label, color=_ink(), **size)
    box.title.setText(f"<span style='color:{_ink()}'>{title}</span>")
    ticks = QFont()
    ticks.setPointSizeF(8 * current_zoom())
    for side in ("left", "bottom"):
        axis = plot.getAxis(side)
        plain_numbers(axis)
        axis.setPen(_ink())
        axis.setTextPen(_ink())
        axis.setStyle(tickFont=ticks)


def new_plot() -> TitledPlot:
    return TitledPlot()


def key(colour_name: str, text: str) -> str:
    return f"<span style='color:{colour_name}'><b>—</b> {text}</span>"


class LossPlot(Retranslating, FollowsAppearanceLater, QWidget):
    """The loss (or the scalar `series` names) of every rank, and a compared run's."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.box = new_plot()
        self.plot = self.box.plot
        self.series = "loss"
        self.curves: dict[int, pg.PlotDataItem] = {}
        self.compare_curve = long_curve(self.plot)
        self.compare_name = ""
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.box)
        self._built = True
        self.restyle()

    def values_of(self, rank: FollowedRank) -> np.ndarray:
        return rank.loss if self.series == "loss" else rank.scalar(self.series)

    def show_ranks(self, ranks: list[FollowedRank]) -> None:
        key = (self.series, tuple((id(r), r.rows) for r in ranks))
        if key == getattr(self, "_shown", None):
            return
        self._shown = key
        for rank in ranks:
            if rank.rank not in self.curves:
                self.curves[rank.rank] = long_curve(self.plot)
                self._pen_curves()
            x = np.arange(1, rank.rows + 1, dtype=np.float64)
            self.curves[rank.rank].setData(x, self.values_of(rank))
        self._title(len(ranks))

    def show_compared(self, rank: FollowedRank | None, name: str = "") -> None:
        self.compare_name = name if rank is not None else ""
        if rank is None:
            self.compare_curve.setData([], [])
        else:
            x = np.arange(1, rank.rows + 1, dtype=np.float64)
            self.compare_curve.setData(x, self.values_of(rank))
        self._title(len(self.curves))

    def clear(self) -> None:
        self._shown = None
        for curve in self.curves.values():
            self.plot.removeItem(curve)
        self.curves.clear()
        self.show_compared(None)

    def _pen_curves(self) -> None:
        palette = current_theme().series
        for index, curve in enumerate(self.curves.values()):
            curve.setPen(pg.mkPen(palette[index % len(palette)], width=1.5))
        self.compare_curve.setPen(pg.mkPen(colour("faint"), width=1.5, style=Qt.PenStyle.DashLine))

    def _title(self, ranks: int) -> None:
        name = self.tr("loss") if self.series == "loss" else self.series
        title = self.tr("Loss per step") if self.series == "loss" else self.tr("%1 per step")
        palette = current_theme().series
        keys = []
        if ranks > 1:
            keys = [key(palette[i % len(palette)], self.tr("rank %1").replace("%1", str(r)))
                    for i, r in enumerate(self.curves)]  # fmt: skip
        if self.compare_name:
            keys.append(key(colour("faint").name(), self.compare_name))
        title = title.replace("%1", name)
        if keys:
            title = f"{title} · {' '.join(keys)}"
        styled(self.box, title, self.tr("step"), name)

    def restyle(self) -> None:
        if getattr(self, "_built", False):
            self._pen_curves()
            self._title(len(self.curves))

    def retranslate(self) -> None:
        if getattr(self, "_built", False):
            self._title(len(self.curves))


class RatioPlot(Retranslating, FollowsAppearanceLater, QWidget):
    """‖Δw‖/‖w‖ of the selected parameters at the sampled steps, log y, the 1e-3 guide."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.box = new_plot()
        self.plot = self.box.plot
        self.plot.setLogMode(False, True)
        self.lines = [long_curve(self.plot) for _ in range(MAX_RATIO_LINES)]
        self.guide = pg.InfiniteLine(pos=np.log10(RATIO_GUIDE), angle=0, movable=False)
        self.plot.addItem(self.guide)
        self.names: list[str] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.box)
        self._built = True
        self.restyle()

    def show_ratios(self, rank: FollowedRank | None, names: list[str]) -> None:
        key = (id(rank), tuple(names), rank.ratio_shape if rank is not None else None)
        if key == getattr(self, "_shown", None):
            return
        self._shown = key
        self.names = [n for n in names if rank is not None and n in rank.param_names]
        self.names = self.names[:MAX_RATIO_LINES]
        x, values = rank.update_ratios() if rank is not None else (np.zeros(0), None)
        for index, line in enumerate(self.lines):
            if index < len(self.names) and values is not None:
                column = values[:, rank.param_names.index(self.names[index])].astype(np.float64)
                column[~(column > 0)] = np.nan  # (log axis: no zeros)
                line.setData(x.astype(np.float64), column)
                line.show()
            else:
                line.setData([], [])
                line.hide()
        self._title()

    def _title(self) -> None:
        palette = current_theme().series
        keys = " ".join(key(palette[i % len(palette)], n) for i, n in enumerate(self.names))
        title = self.tr("Update ratio ‖Δw‖/‖w‖ · guide 1e-3")
        if not self.names:
            hint = self.tr("click a row of the heatmap")
            title = f"{title} · {hint}"
        styled(self.box, f"{title} {keys}", self.tr("step"), self.tr("ratio"))

    def restyle(self) -> None:
        if not getattr(self, "_built", False):
            return
        palette = current_theme().series
        for index, line in enumerate(self.lines):
            line.setPen(pg.mkPen(palette[index % len(palette)], width=1.5))
        self.guide.setPen(pg.mkPen(colour("faint"), width=1.5, style=Qt.PenStyle.DashLine))
        self._title()

    def retranslate(self) -> None:
        if getattr(self, "_built", False):
            self._title()

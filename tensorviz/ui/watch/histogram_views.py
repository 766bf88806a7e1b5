"""The selected layer's histograms over time: its module's activations and its gradient, each
an image of values (up) × recorded steps (across), from the background's colour (no values
there) to the ink (most of them); core/watch/histogram_image.py re-bins every step onto one
value grid."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QHBoxLayout, QWidget

from tensorviz.core.watch.histogram_image import histogram_image
from tensorviz.core.watch.run_updates import FollowedRank
from tensorviz.ui.watch.run_plots import new_plot, styled
from tensorviz.ui.widgets.appearance_following import FollowsAppearanceLater
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import colour, current_theme


def colour_map() -> pg.ColorMap:
    """No values: the plot's background, so a histogram's empty range is no colour at all;
    more values: the theme's first series colour, then its ink (both themes)."""
    stops = [colour("plot_background"), current_theme().series[0], colour("plot_foreground")]
    return pg.ColorMap([0.0, 0.5, 1.0], [c if isinstance(c, str) else c.name() for c in stops])


class HistogramViews(Retranslating, FollowsAppearanceLater, QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plots = {"activation": new_plot(), "grad": new_plot()}
        self.images = {}
        self.shown: dict[str, bool] = {}
        self.name = ""
        self.module = self.module_text = ""
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        for kind, plot in self.plots.items():
            image = pg.ImageItem(axisOrder="row-major")
            plot.plot.addItem(image)
            self.images[kind] = image
            self.shown[kind] = False
            layout.addWidget(plot)
        self._built = True
        self.restyle()

    def show_layer(self, rank: FollowedRank | None, name: str) -> None:
        key = (id(rank), name, len(rank.histograms) if rank is not None else 0)
        if key == getattr(self, "_shown", None):
            return
        self._shown = key
        self.name = name
        self.module = rank.param_modules.get(name, "") if rank is not None else ""
        kind = rank.module_types.get(self.module, "") if rank is not None else ""
        self.module_text = f"{self.module} ({kind})" if kind else self.module
        for kind, subject in (("activation", self.module), ("grad", name)):
            found = histogram_image(rank.histograms, kind, subject) if rank and subject else None
            image = self.images[kind]
            self.shown[kind] = found is not None
            if found is None:
                image.clear()
                continue
            levels = (0, float(found.fractions.max()) or 1.0)
            image.setImage(found.fractions.T, autoLevels=False, levels=levels)
            first, last = float(found.steps[0]), float(found.steps[-1])
            every = (last - first) / max(1, len(found.steps) - 1) or 1.0
            image.setRect(QRectF(first - every / 2, found.low, last - first + every,
                                 found.high - found.low))  # fmt: skip
            self.plots[kind].plot.autoRange(padding=0)
        self.retranslate()

    def restyle(self) -> None:
        if not getattr(self, "_built", False):
            return
        for image in self.images.values():
            image.setColorMap(colour_map())
        self.retranslate()

    def retranslate(self) -> None:
        if not getattr(self, "_built", False):
            return
        missing = self.tr("no histograms yet")
        titles = {
            "activation": self.tr("Output of %1").replace("%1", self.module_text or "—"),
            "grad": self.tr("Gradient of %1").replace("%1", self.name or "—"),
        }
        for kind, plot in self.plots.items():
            title = titles[kind]
            if self.name and not self.shown[kind]:
                title = f"{title} · {missing}"
            styled(plot, title, self.tr("step"), self.tr("value"))

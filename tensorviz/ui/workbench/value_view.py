"""The values of one tensor: a summary line, a lazy table of a 2-D slice, a histogram, a heatmap.

Statistics of a big tensor are computed in a QThreadPool (ARCHITECTURE rule 4); the worker sends
back only a TensorSummary and numpy arrays, tagged with a generation number so that the result
for a tensor the user has already left is dropped.
"""

from __future__ import annotations

import numpy
import pyqtgraph as pg
import torch
from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, Signal
from PySide6.QtGui import QCloseEvent, QFontDatabase
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSpinBox,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from tensorviz.core.tensors.summary import (
    TensorSummary,
    default_table_dims,
    dtype_name,
    heading,
    histogram,
    no_values_note,
    summarize,
)
from tensorviz.ui.widgets.layout_clearing import clear_layout
from tensorviz.ui.widgets.scrolling import scrolling
from tensorviz.ui.workbench.value_table_model import TensorTableModel

BACKGROUND_THRESHOLD = 1_000_000  # elements; smaller tensors are summarised at once
HISTOGRAM_BINS = 64
INK, BLUE, SKY = "#1f2a44", "#3d5a80", "#98c1d9"


class _StatisticsRelay(QObject):
    """Carries a worker's plain results to the GUI thread (queued across threads)."""

    summary_computed = Signal(int, object)  # generation, TensorSummary
    histogram_computed = Signal(int, object, object)  # generation, counts, edges
    failed = Signal(int, str)


class _StatisticsJob(QRunnable):
    def __init__(self, tensor: torch.Tensor, generation: int, relay: _StatisticsRelay) -> None:
        super().__init__()
        self._tensor, self._generation, self._relay = tensor, generation, relay

    def run(self) -> None:
        try:
            self._relay.summary_computed.emit(self._generation, summarize(self._tensor))
            counts, edges = histogram(self._tensor, HISTOGRAM_BINS)
        except Exception as error:  # noqa: BLE001 — shown to the user, never crashes the pool
            self._relay.failed.emit(self._generation, f"{type(error).__name__}: {error}")
            return
        self._relay.histogram_computed.emit(self._generation, counts, edges)


def _plot_widget() -> pg.PlotWidget:
    plot = pg.PlotWidget(background="w")
    plot.getPlotItem().hideButtons()
    for side in ("left", "bottom"):
        plot.getAxis(side).setPen(INK)
        plot.getAxis(side).setTextPen(INK)
    return plot


HEATMAP_MAX_SIDE = 2048  # more pixels than a screen shows; bounds the work for any slice


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


class ValueView(QWidget):
    statistics_ready = Signal(object)  # TensorSummary of the tensor shown now

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._tensor: torch.Tensor | None = None
        self._name = ""
        self._fixed: dict[int, int] = {}
        self._row_dim: int | None = None
        self._col_dim: int | None = None
        self._generation = 0
        self._heatmap_stale = False
        self.summary: TensorSummary | None = None
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)  # one tensor at a time; stale jobs are cleared first
        self._relay = _StatisticsRelay(self)
        self._relay.summary_computed.connect(self._on_summary_computed)
        self._relay.histogram_computed.connect(self._on_histogram_computed)
        self._relay.failed.connect(self._on_statistics_failed)

        fixed_font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.summary_label = QLabel("No tensor")
        self.summary_label.setFont(fixed_font)
        self.summary_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary_label.setWordWrap(True)

        self.row_dim_combo = QComboBox()
        self.col_dim_combo = QComboBox()
        self.row_dim_combo.currentIndexChanged.connect(self._on_row_dim_changed)
        self.col_dim_combo.currentIndexChanged.connect(self._on_col_dim_changed)
        self.index_spin_boxes: dict[int, QSpinBox] = {}
        self._index_layout = QHBoxLayout()
        self._index_layout.setSpacing(12)
        self.dim_controls = QWidget()
        controls = QHBoxLayout(self.dim_controls)
        controls.setContentsMargins(0, 0, 0, 0)
        for text, combo in (("rows", self.row_dim_combo), ("columns", self.col_dim_combo)):
            controls.addWidget(QLabel(text))
            controls.addWidget(combo)
            controls.addSpacing(8)
        controls.addLayout(self._index_layout)
        controls.addStretch(1)

        self.model = TensorTableModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setFont(fixed_font)
        self.table.setWordWrap(False)
        metrics = self.table.fontMetrics()
        row_height = metrics.height() + 6
        column_width = metrics.horizontalAdvance("-1.234e+05") + 14  # widest "%.4g" text
        for header, size in ((self.table.verticalHeader(), row_height),
                             (self.table.horizontalHeader(), column_width)):  # fmt: skip
            # Fixed sizes: Qt then never measures 4096 sections' contents.
            header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
            header.setMinimumSectionSize(min(size, 20))
            header.setDefaultSectionSize(size)

        self.histogram_plot = _plot_widget()
        self.histogram_plot.setLabel("left", "count", color=INK)
        self.histogram_plot.setLabel("bottom", "value", color=INK)
        self.histogram_curve = self.histogram_plot.plot(
            stepMode="center", fillLevel=0, fillOutline=True, pen=pg.mkPen(BLUE), brush=SKY
        )
        self.heatmap_plot = _plot_widget()
        self.heatmap_plot.invertY(True)  # row 0 at the top, as in the table
        self.heatmap_plot.setLabel("left", "row", color=INK)
        self.heatmap_plot.setLabel("bottom", "column", color=INK)
        self.heatmap_image = pg.ImageItem(axisOrder="row-major", autoDownsample=True)
        self.heatmap_plot.addItem(self.heatmap_image)
        self.colour_bar = pg.ColorBarItem(colorMap="viridis", interactive=False, pen=INK, width=16)
        self.colour_bar.setImageItem(self.heatmap_image, insert_in=self.heatmap_plot.getPlotItem())
        self.charts = QTabWidget()
        self.charts.addTab(self.histogram_plot, "Histogram")
        self.charts.addTab(self.heatmap_plot, "Heatmap")
        self.charts.currentChanged.connect(self._on_chart_tab_changed)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.table)
        splitter.addWidget(self.charts)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([600, 400])
        # Many dims must not widen the window: the controls scroll sideways when space is short.
        controls_scroll = scrolling(self.dim_controls, Qt.Orientation.Horizontal)
        scrollbar = controls_scroll.horizontalScrollBar().sizeHint().height()
        controls_scroll.setFixedHeight(self.dim_controls.sizeHint().height() + scrollbar + 2)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary_label)
        layout.addWidget(controls_scroll)
        layout.addWidget(splitter, 1)
        self.set_tensor(None)

    # -- the tensor ----------------------------------------------------------------------------

    def set_tensor(self, tensor: torch.Tensor | None, name: str = "") -> None:
        self._generation += 1
        self._pool.clear()  # jobs for earlier tensors that have not started are not needed
        note = no_values_note(tensor) if tensor is not None else None
        if note is not None:  # e.g. a meta tensor: nothing to tabulate, plot or summarise
            tensor = None
        self._tensor = None if tensor is None else tensor.detach()
        self._name = name
        self._fixed = {}
        self.summary = None
        self._fill_dim_combos()
        self._update_slice()
        self._show_histogram(numpy.zeros(0), numpy.zeros(0))
        if note is not None:
            self.summary_label.setText(f"{name} = {note}" if name else note)
        elif self._tensor is None:
            self.summary_label.setText("No tensor")
        elif self._tensor.numel() > BACKGROUND_THRESHOLD:
            tensor = self._tensor
            head = heading(tuple(tensor.shape), dtype_name(tensor.dtype), str(tensor.device))
            self.summary_label.setText(f"{self._prefix()}{head} — computing statistics…")
            self._pool.start(_StatisticsJob(self._tensor, self._generation, self._relay))
        else:
            counts, edges = histogram(self._tensor, HISTOGRAM_BINS)
            self._on_summary_computed(self._generation, summarize(self._tensor))
            self._on_histogram_computed(self._generation, counts, edges)

    def shutdown(self) -> None:
        """Drop pending statistics and join the worker; safe to call more than once."""
        self._generation += 1
        self._pool.clear()
        self._pool.waitForDone()

    def is_computing(self) -> bool:
        """True while a worker is still summarising some tensor."""
        return self._pool.activeThreadCount() > 0

    def closeEvent(self, event: QCloseEvent) -> None:
        self.shutdown()
        super().closeEvent(event)

    def _prefix(self) -> str:
        return f"{self._name} = " if self._name else ""

    # -- statistics arriving -------------------------------------------------------------------

    def _on_summary_computed(self, generation: int, summary: TensorSummary) -> None:
        if generation != self._generation:
            return  # the user has moved on to another tensor
        self.summary = summary
        self.summary_label.setText(self._prefix() + summary.text())
        x = "|x|" if summary.is_complex else "value"
        self.histogram_plot.setLabel("bottom", x, color=INK)
        self.statistics_ready.emit(summary)

    def _on_histogram_computed(self, generation: int, counts, edges) -> None:
        if generation == self._generation:
            self._show_histogram(counts, edges)

    def _on_statistics_failed(self, generation: int, message: str) -> None:
        if generation == self._generation:
            self.summary_label.setText(f"{self._prefix()}statistics failed: {message}")

    def _show_histogram(self, counts: numpy.ndarray, edges: numpy.ndarray) -> None:
        if len(counts) == 0:
            self.histogram_curve.setData([0.0], [])  # stepMode needs one more x than y
        else:
            self.histogram_curve.setData(edges, counts)

    # -- which slice is shown ------------------------------------------------------------------

    def _fill_dim_combos(self) -> None:
        ndim = 0 if self._tensor is None else self._tensor.dim()
        self._row_dim, self._col_dim = default_table_dims(ndim)
        labels = [f"dim {dim} (size {self._tensor.shape[dim]})" for dim in range(ndim)]
        for combo in (self.row_dim_combo, self.col_dim_combo):
            combo.blockSignals(True)
            combo.clear()
            combo.addItems(labels)
            combo.blockSignals(False)
        self._show_dims_in_combos()
        self.dim_controls.setVisible(ndim >= 2)
        self._rebuild_index_spin_boxes()

    def _show_dims_in_combos(self) -> None:
        for combo, dim in (
            (self.row_dim_combo, self._row_dim),
            (self.col_dim_combo, self._col_dim),
        ):
            combo.blockSignals(True)
            combo.setCurrentIndex(-1 if dim is None else dim)
            combo.blockSignals(False)

    def shown_dims(self) -> tuple[int | None, int | None]:
        """(row dim, column dim) of the slice in the table; None where the tensor lacks one."""
        return self._row_dim, self._col_dim

    def _rebuild_index_spin_boxes(self) -> None:
        clear_layout(self._index_layout)
        self.index_spin_boxes = {}
        if self._tensor is None or self._tensor.dim() < 3:
            return
        for dim in range(self._tensor.dim()):
            if dim in self.shown_dims():
                continue
            size = self._tensor.shape[dim]
            spin_box = QSpinBox()
            spin_box.setRange(0, max(size - 1, 0))
            spin_box.setEnabled(size > 1)
            spin_box.setValue(self._fixed.get(dim, 0))
            spin_box.setToolTip(f"which index of dim {dim} the table and heatmap show")
            spin_box.valueChanged.connect(
                lambda index, dim=dim: self._on_fixed_index_changed(dim, index)
            )
            self._index_layout.addWidget(QLabel(f"dim {dim} (size {size})"))
            self._index_layout.addWidget(spin_box)
            self.index_spin_boxes[dim] = spin_box

    def _on_row_dim_changed(self, row_dim: int) -> None:
        if row_dim == self._col_dim:  # taking the columns' dim swaps rows and columns
            self._col_dim = self._row_dim
        self._row_dim = row_dim
        self._on_shown_dims_changed()

    def _on_col_dim_changed(self, col_dim: int) -> None:
        if col_dim == self._row_dim:
            self._row_dim = self._col_dim
        self._col_dim = col_dim
        self._on_shown_dims_changed()

    def _on_shown_dims_changed(self) -> None:
        self._show_dims_in_combos()
        self._rebuild_index_spin_boxes()
        self._update_slice()

    def _on_fixed_index_changed(self, dim: int, index: int) -> None:
        self._fixed[dim] = index
        self._update_slice()

    def _update_slice(self) -> None:
        row_dim, col_dim = self.shown_dims()
        self.model.set_tensor(self._tensor, row_dim, col_dim, self._fixed, self._name or "x")
        self._heatmap_stale = True
        if self.charts.currentWidget() is self.heatmap_plot:
            self._refresh_heatmap()

    def _on_chart_tab_changed(self, _index: int) -> None:
        if self.charts.currentWidget() is self.heatmap_plot and self._heatmap_stale:
            self._refresh_heatmap()

    def _refresh_heatmap(self) -> None:
        # Built only while its tab is shown: a 4096 x 4096 image is not free to prepare.
        self._heatmap_stale = False
        values = self.model.values()
        if values.size == 0:
            self.heatmap_image.clear()
            return
        image, levels = heatmap_values(values)
        self.heatmap_image.setImage(image, autoLevels=False)
        rows, columns = values.shape if values.ndim == 2 else image.shape
        self.heatmap_image.setRect(-0.5, -0.5, columns, rows)  # cell (i, j) centred on (j, i)
        self.colour_bar.setLevels(levels)
        self.heatmap_plot.getPlotItem().autoRange()

"""The values of one tensor: a summary line, a lazy table of a 2-D slice, a histogram, a heatmap.

Statistics of a big tensor are computed in a QThreadPool (ARCHITECTURE rule 4); the worker sends
back only a TensorSummary and numpy arrays, tagged with a generation number so that the result
for a tensor the user has already left is dropped. The summary line is said again in the new
language on a switch; the table's font, rows and columns follow the zoom.
"""

from __future__ import annotations

import numpy
import torch
from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, Signal
from PySide6.QtGui import QCloseEvent, QFont, QFontDatabase
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSpinBox,
    QSplitter,
    QTableView,
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
from tensorviz.ui.widgets.appearance_following import on_appearance_changed
from tensorviz.ui.widgets.layout_clearing import clear_layout
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.scrolling import scrolling
from tensorviz.ui.widgets.theme import scaled
from tensorviz.ui.workbench.text_arguments import arg
from tensorviz.ui.workbench.value_charts import (  # noqa: F401 — heatmap_values is read from here
    HEATMAP_MAX_SIDE,
    ValueCharts,
    heatmap_values,
)
from tensorviz.ui.workbench.value_table_model import TensorTableModel

BACKGROUND_THRESHOLD = 1_000_000  # elements; smaller tensors are summarised at once
HISTOGRAM_BINS = 64
TABLE_MIN_HEIGHT = 170  # px at 100 %: the table and the charts below the summary, growing
TABLE_MIN_HEIGHT_CAP = 220  # with the zoom only this far: at 200 % on an 800-px screen the forms
# and the card above need the rest (the splitter still gives the charts more when dragged)


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


class ValueView(Retranslating, QWidget):
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

        self._summary_state: tuple = ("none",)  # what the summary line says (see _render_summary)
        self.summary_label = QLabel()
        self.summary_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary_label.setWordWrap(True)

        self.row_dim_combo = QComboBox()
        self.col_dim_combo = QComboBox()
        for combo in (self.row_dim_combo, self.col_dim_combo):  # as wide as "dim 2 (size 32)"
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.row_dim_combo.currentIndexChanged.connect(self._on_row_dim_changed)
        self.col_dim_combo.currentIndexChanged.connect(self._on_col_dim_changed)
        self.index_spin_boxes: dict[int, QSpinBox] = {}
        self._index_layout = QHBoxLayout()
        self._index_layout.setSpacing(12)
        self.dim_controls = QWidget()
        controls = QHBoxLayout(self.dim_controls)
        controls.setContentsMargins(0, 0, 0, 0)
        self.rows_label, self.columns_label = QLabel(), QLabel()
        for label, combo in ((self.rows_label, self.row_dim_combo),
                             (self.columns_label, self.col_dim_combo)):  # fmt: skip
            controls.addWidget(label)
            controls.addWidget(combo)
            controls.addSpacing(8)
        controls.addLayout(self._index_layout)
        controls.addStretch(1)

        self.model = TensorTableModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setWordWrap(False)
        for header in (self.table.verticalHeader(), self.table.horizontalHeader()):
            # Fixed sizes: Qt then never measures 4096 sections' contents.
            header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)

        self.charts = ValueCharts()
        self.histogram_plot, self.histogram_curve = (
            self.charts.histogram_plot,
            self.charts.histogram_curve,
        )
        self.heatmap_plot, self.heatmap_image = self.charts.heatmap_plot, self.charts.heatmap_image
        self.charts.currentChanged.connect(self._on_chart_tab_changed)

        splitter = self.splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.table)
        splitter.addWidget(self.charts)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([600, 400])
        # Many dims must not widen the window: the controls scroll sideways when space is short.
        self.controls_scroll = scrolling(self.dim_controls, Qt.Orientation.Horizontal)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.controls_scroll)
        layout.addWidget(splitter, 1)
        on_appearance_changed(self._on_appearance_changed)
        self._on_appearance_changed()
        self.set_tensor(None)
        self.retranslate()

    def retranslate(self) -> None:
        self.rows_label.setText(self.tr("rows"))
        self.columns_label.setText(self.tr("columns"))
        self._label_dim_combos()
        self._rebuild_index_spin_boxes()
        self._render_summary()

    def _on_appearance_changed(self) -> None:
        """The monospaced table and summary as large as the zoomed text, rows and columns too."""
        fixed = QFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        fixed.setPointSizeF(QApplication.font().pointSizeF())
        self.summary_label.setFont(fixed)
        self.table.setFont(fixed)
        metrics = self.table.fontMetrics()
        row_height = metrics.height() + 6
        column_width = metrics.horizontalAdvance("-1.234e+05") + 14  # widest "%.4g" text
        for header, size in ((self.table.verticalHeader(), row_height),
                             (self.table.horizontalHeader(), column_width)):  # fmt: skip
            header.setMinimumSectionSize(min(size, 20))
            header.setDefaultSectionSize(size)
        self.splitter.setMinimumHeight(min(scaled(TABLE_MIN_HEIGHT), TABLE_MIN_HEIGHT_CAP))
        scrollbar = self.controls_scroll.horizontalScrollBar().sizeHint().height()
        self.controls_scroll.setFixedHeight(self.dim_controls.sizeHint().height() + scrollbar + 2)

    # -- the tensor ----------------------------------------------------------------------------

    def set_tensor(self, tensor: torch.Tensor | None, name: str = "") -> None:
        self._generation += 1
        self._pool.clear()  # jobs for earlier tensors that have not started are not needed
        original = tensor
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
            self._show_summary("no values", original)
        elif self._tensor is None:
            self._show_summary("none")
        elif self._tensor.numel() > BACKGROUND_THRESHOLD:
            self._show_summary("computing")
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

    def _show_summary(self, *state) -> None:
        self._summary_state = state
        self._render_summary()

    def _render_summary(self) -> None:
        """The summary line from what it says, in the language in force (also after a switch)."""
        kind, *details = self._summary_state
        if kind == "no values":  # a meta tensor: core says why, in the language in force
            note = no_values_note(details[0]) or ""
            text = f"{self._name} = {note}" if self._name else note
        elif kind == "computing" and self._tensor is not None:
            tensor = self._tensor
            head = heading(tuple(tensor.shape), dtype_name(tensor.dtype), str(tensor.device))
            text = arg(self.tr("%1%2 — computing statistics…"), self._prefix(), head)
        elif kind == "summary":
            text = self._prefix() + details[0].text()
        elif kind == "failed":
            text = arg(self.tr("%1statistics failed: %2"), self._prefix(), details[0])
        else:
            text = self.tr("No tensor")
        self.summary_label.setText(text)
        self._fit_summary()

    def _fit_summary(self) -> None:
        """As tall as its wrapped lines: a splitter reads only the minimum size, never the height
        for a width, and a two-line summary at 200 % would push the charts off the bottom."""
        width = self.summary_label.width()
        self.summary_label.setMinimumHeight(max(0, self.summary_label.heightForWidth(width)))

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        self._fit_summary()

    # -- statistics arriving -------------------------------------------------------------------

    def _on_summary_computed(self, generation: int, summary: TensorSummary) -> None:
        if generation != self._generation:
            return  # the user has moved on to another tensor
        self.summary = summary
        self._show_summary("summary", summary)
        self.charts.set_magnitudes(summary.is_complex)
        self.statistics_ready.emit(summary)

    def _on_histogram_computed(self, generation: int, counts, edges) -> None:
        if generation == self._generation:
            self._show_histogram(counts, edges)

    def _on_statistics_failed(self, generation: int, message: str) -> None:
        if generation == self._generation:
            self._show_summary("failed", message)

    def _show_histogram(self, counts: numpy.ndarray, edges: numpy.ndarray) -> None:
        self.charts.show_histogram(counts, edges)

    # -- which slice is shown ------------------------------------------------------------------

    def _fill_dim_combos(self) -> None:
        ndim = 0 if self._tensor is None else self._tensor.dim()
        self._row_dim, self._col_dim = default_table_dims(ndim)
        for combo in (self.row_dim_combo, self.col_dim_combo):
            combo.blockSignals(True)
            combo.clear()
            combo.addItems([""] * ndim)
            combo.blockSignals(False)
        self._label_dim_combos()
        self._show_dims_in_combos()
        self.dim_controls.setVisible(ndim >= 2)
        self._rebuild_index_spin_boxes()

    def _dim_label(self, dim: int) -> str:
        return arg(self.tr("dim %1 (size %2)"), dim, self._tensor.shape[dim])

    def _label_dim_combos(self) -> None:
        for combo in (self.row_dim_combo, self.col_dim_combo):
            for dim in range(combo.count()):
                combo.setItemText(dim, self._dim_label(dim))

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
            spin_box.setToolTip(
                arg(self.tr("which index of dim %1 the table and heatmap show"), dim)
            )
            spin_box.valueChanged.connect(
                lambda index, dim=dim: self._on_fixed_index_changed(dim, index)
            )
            self._index_layout.addWidget(QLabel(self._dim_label(dim)))
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
        self.charts.show_heatmap(self.model.values())

"""One pair side by side: the values of A, of B and of A − B for the same 2-D slice, scrolling
together, and a heatmap of the difference (a diverging map centred on zero). Both tensors are
read by a worker; the difference is computed for the shown slice only, in float64. The map is
blue–white–red in the light theme and blue–black–red in the dark one (zero never glares)."""

from __future__ import annotations

from html import escape

import numpy
import pyqtgraph as pg
import torch
from PySide6.QtCore import Qt, QThreadPool
from PySide6.QtGui import QCloseEvent, QFontDatabase
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from tensorviz.core.diff.comparison import TensorPair
from tensorviz.core.diff.report import change_text, pair_name, status_text
from tensorviz.core.tensors.summary import default_table_dims, slice_2d
from tensorviz.ui.diff.compare_jobs import CompareRelay, PairReadJob
from tensorviz.ui.files.placeholders import filled
from tensorviz.ui.widgets.appearance_following import FollowsAppearanceLater
from tensorviz.ui.widgets.layout_clearing import clear_layout
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import colour, current_theme, scaled
from tensorviz.ui.workbench.value_table_model import TensorTableModel
from tensorviz.ui.workbench.value_view import heatmap_values

DIVERGING_MAPS = {"light": "CET-D1", "dark": "CET-D4"}  # centre: near white / near black


def slice_difference(a: torch.Tensor, b: torch.Tensor, dims, fixed) -> torch.Tensor:
    """A − B of one slice, in float64 (complex128 for complex); B is read in A's shape."""
    wide = torch.complex128 if a.is_complex() or b.is_complex() else torch.float64
    b = b.reshape(a.shape)
    return slice_2d(a, *dims, fixed).to(wide) - slice_2d(b, *dims, fixed).to(wide)


class PairValuesDialog(FollowsAppearanceLater, Retranslating, QDialog):
    def __init__(self, pair: TensorPair, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.pair = pair
        self.a: torch.Tensor | None = None
        self.b: torch.Tensor | None = None
        self._dims: tuple[int | None, int | None] = (None, None)
        self._fixed: dict[int, int] = {}
        self._generation = 0
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._relay = CompareRelay(self)
        self._relay.pair_read.connect(self._on_pair_read)
        self._relay.pair_failed.connect(self._on_pair_failed)
        self._status: str | None = None  # None: still reading; else what the reading said
        self._fit_to_screen()
        self._build()
        self.restyle()
        self.retranslate()
        self._pool.start(PairReadJob(pair, self._generation, self._relay))

    def retranslate(self) -> None:
        name = pair_name(self.pair)
        self.setWindowTitle(filled(self.tr("Values of %1"), name))
        change = change_text(self.pair) or self.tr("no value changed")
        self.heading.setText(f"<b>{escape(name)}</b> — {escape(status_text(self.pair))}<br>"
                             f"{escape(change)}")  # fmt: skip
        self.rows_label.setText(self.tr("rows"))
        self.columns_label.setText(self.tr("columns"))
        self.status.setText(self._status_text())
        if self.a is not None:
            self._fill_combos()

    def _fit_to_screen(self) -> None:
        """1100 × 700 at 100 %, larger with the zoom, never larger than the screen."""
        room = self.screen().availableGeometry() if self.screen() is not None else None
        width, height = scaled(1100), scaled(700)
        if room is not None:
            width, height = min(width, room.width()), min(height, room.height())
        self.resize(width, height)

    def restyle(self) -> None:
        """The heatmap in the theme's colours; cells and columns at the zoom in force."""
        self.heatmap.setBackground(colour("plot_background"))
        self.heatmap.setTitle("A − B", color=colour("plot_foreground").name())
        ink = colour("plot_foreground")
        for axis in (*(self.heatmap.getPlotItem().getAxis(s) for s in ("left", "bottom")),
                     self.colour_bar.axis):  # fmt: skip
            axis.setPen(ink)
            axis.setTextPen(ink)
        self.colour_bar.setColorMap(pg.colormap.get(DIVERGING_MAPS[current_theme().key]))
        fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        fixed.setPointSizeF(self.font().pointSizeF())
        for table in self.tables:
            table.setFont(fixed)
            table.horizontalHeader().setDefaultSectionSize(scaled(84))
            table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + scaled(6))

    def _build(self) -> None:
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.heading.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status = QLabel()
        self.row_combo, self.col_combo = QComboBox(), QComboBox()
        self.row_combo.activated.connect(lambda d: self._on_dims_changed(d, self._dims[1]))
        self.col_combo.activated.connect(lambda d: self._on_dims_changed(self._dims[0], d))
        self._fixed_layout = QHBoxLayout()
        self.dim_controls = QWidget()
        controls = QHBoxLayout(self.dim_controls)
        controls.setContentsMargins(0, 0, 0, 0)
        self.rows_label, self.columns_label = QLabel(), QLabel()
        for label, combo in ((self.rows_label, self.row_combo),
                             (self.columns_label, self.col_combo)):  # fmt: skip
            combo.setMinimumContentsLength(14)
            combo.setProperty("translated_items", True)
            controls.addWidget(label)
            controls.addWidget(combo)
        controls.addLayout(self._fixed_layout)
        controls.addStretch(1)
        self.dim_controls.hide()  # shown for tensors of two dims or more

        self.models = [TensorTableModel(self) for _unused in range(3)]
        self.tables = []
        grid = QGridLayout()
        # the heading names the pair; each caption says its side, the key is in its tooltip
        # (two long keys side by side would not fit at a large zoom)
        titles = ("A", "B", "A − B")
        tips = (f"A: {self.pair.a.key}", f"B: {self.pair.b.key}", "A − B")
        for column, (title, model) in enumerate(zip(titles, self.models, strict=True)):
            table = QTableView()
            table.setModel(model)
            self.tables.append(table)
            caption = QLabel(f"<b>{title}</b>")
            caption.setToolTip(tips[column])
            caption.setProperty("verbatim", True)  # the keys, as the files have them
            grid.addWidget(caption, 0, column)
            grid.addWidget(table, 1, column)
        for table in self.tables[1:]:  # the three scroll together
            for bar in ("verticalScrollBar", "horizontalScrollBar"):
                getattr(self.tables[0], bar)().valueChanged.connect(getattr(table, bar)().setValue)
                getattr(table, bar)().valueChanged.connect(getattr(self.tables[0], bar)().setValue)
        tables = QWidget()
        tables.setLayout(grid)

        self.heatmap = pg.PlotWidget()
        self.heatmap.getPlotItem().hideButtons()
        self.heatmap.invertY(True)
        self.image = pg.ImageItem(axisOrder="row-major", autoDownsample=True)
        self.heatmap.addItem(self.image)
        self.colour_bar = pg.ColorBarItem(colorMap="CET-D1", interactive=False, width=16)
        self.colour_bar.setImageItem(self.image, insert_in=self.heatmap.getPlotItem())
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(tables)
        splitter.addWidget(self.heatmap)
        splitter.setSizes([760, 340])
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.status)
        layout.addWidget(self.dim_controls)
        layout.addWidget(splitter, 1)

    # --- values arriving ----------------------------------------------------------------------

    def _on_pair_read(self, generation: int, a, b) -> None:
        if generation != self._generation:
            return
        self.a, self.b = a, b
        self._status = ""
        self.status.setText(self._status_text())
        self._dims = default_table_dims(a.dim())
        self._fixed = {}
        self._fill_combos()
        self._show_slice()

    def _on_pair_failed(self, generation: int, message: str) -> None:
        if generation == self._generation:
            self._status = message
            self.status.setText(message)

    def _status_text(self) -> str:
        if self._status is None:
            return self.tr("Reading both tensors from their files…")
        if self._status or self.a is None:
            return self._status  # the reading failed: its sentence
        a, b = self.a, self.b
        if a.numel() != b.numel():
            return self.tr("element counts differ: A − B is not defined")
        if a.shape != b.shape:
            shown = self.tr("B %1 is shown in A's shape %2 (row-major)")
            return filled(shown, list(b.shape), list(a.shape))
        return self.tr("Both tensors read.")

    # --- the slice ----------------------------------------------------------------------------

    def _fill_combos(self) -> None:
        labels = [
            filled(self.tr("dim %1 (size %2)"), d, size) for d, size in enumerate(self.a.shape)
        ]
        for combo, dim in ((self.row_combo, self._dims[0]), (self.col_combo, self._dims[1])):
            combo.clear()
            combo.addItems(labels)
            combo.setCurrentIndex(-1 if dim is None else dim)
        self.dim_controls.setVisible(self.a.dim() >= 2)
        clear_layout(self._fixed_layout)
        for dim, size in enumerate(self.a.shape):
            if dim in self._dims:
                continue
            spin = QSpinBox()
            spin.setRange(0, max(size - 1, 0))
            spin.setValue(self._fixed.get(dim, 0))
            spin.valueChanged.connect(lambda index, dim=dim: self._on_fixed_changed(dim, index))
            self._fixed_layout.addWidget(QLabel(filled(self.tr("dim %1"), dim)))
            self._fixed_layout.addWidget(spin)

    def _on_dims_changed(self, rows: int, columns: int | None) -> None:
        old_rows, old_columns = self._dims
        if rows == columns:  # taking the other's dim swaps the two
            if rows == old_columns:
                columns = old_rows
            else:
                rows = old_columns
        self._dims = (rows, columns)
        self._fill_combos()
        self._show_slice()

    def _on_fixed_changed(self, dim: int, index: int) -> None:
        self._fixed[dim] = index
        self._show_slice()

    def _show_slice(self) -> None:
        rows, columns = self._dims
        self.models[0].set_tensor(self.a, rows, columns, self._fixed, "A")
        comparable = self.a.numel() == self.b.numel()
        if comparable:
            self.models[1].set_tensor(self.b.reshape(self.a.shape), rows, columns, self._fixed, "B")
        else:
            self.models[1].set_tensor(self.b, name="B")
        if not comparable:
            self.models[2].set_tensor(None)
            self.image.clear()
            return
        difference = slice_difference(self.a, self.b, self._dims, self._fixed)
        shown = (
            (0, 1)
            if difference.dim() == 2
            else (0, None)
            if difference.dim() == 1
            else (None, None)
        )
        self.models[2].set_tensor(difference, *shown, name="A − B")
        self._show_heatmap(self.models[2].values())

    def _show_heatmap(self, values: numpy.ndarray) -> None:
        if values.size == 0:
            self.image.clear()
            return
        image, (low, high) = heatmap_values(values)
        reach = max(abs(low), abs(high)) or 1.0  # symmetric: zero is the map's middle
        self.image.setImage(image, autoLevels=False)
        self.image.setRect(-0.5, -0.5, values.shape[1], values.shape[0])  # cells, not samples
        self.colour_bar.setLevels((-reach, reach))
        self.heatmap.getPlotItem().autoRange()

    # --- closing ------------------------------------------------------------------------------

    def shutdown(self) -> None:
        self._generation += 1
        self._pool.clear()
        self._pool.waitForDone()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.shutdown()
        super().closeEvent(event)

    def done(self, result: int) -> None:
        self.shutdown()
        super().done(result)

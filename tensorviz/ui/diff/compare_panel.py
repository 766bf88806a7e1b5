"""The Compare area: two checkpoints (or two entries of one) side by side — the overall verdict
and a summary line per subtree, a table of every tensor grouped by layer and sorted by relative
change, a bar chart of the change per layer, and a pair's values on double-click.

The comparison runs in a worker with progress and cancel; the panel only shows core's result.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from pathlib import Path

from PySide6.QtCore import Qt, QThreadPool, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from tensorviz.core.diff.comparison import Comparison
from tensorviz.core.diff.report import overall_line
from tensorviz.core.diff.summaries import layer_changes, summary_lines
from tensorviz.core.files.inspection import FileInspection
from tensorviz.ui.diff.change_chart import ChangeChart
from tensorviz.ui.diff.compare_dialog import CompareDialog
from tensorviz.ui.diff.compare_jobs import CompareJob, CompareRelay, CompareRequest, SideRequest
from tensorviz.ui.diff.comparison_table_model import (
    FILTERS,
    RELATIVE_COLUMN,
    ComparisonTableModel,
)
from tensorviz.ui.diff.pair_values_view import PairValuesDialog
from tensorviz.ui.widgets.scrolling import scrolling
from tensorviz.ui.widgets.shortcut_buttons import shortcut_button


def _sideways(widget: QWidget) -> QWidget:
    scroll = scrolling(widget, Qt.Orientation.Horizontal)
    bar_height = scroll.horizontalScrollBar().sizeHint().height()
    scroll.setFixedHeight(widget.sizeHint().height() + bar_height + 2)
    return scroll


HINT = (
    "Compare two checkpoints tensor by tensor: File → Compare… (Ctrl+Shift+D); or in the Files "
    "area right-click a file → Compare with…, or select two entries → Compare. Nothing in the "
    "files runs: they are read by the Files area's safe reader."
)


class ComparePanel(QWidget):
    status_message = Signal(str)
    comparison_finished = Signal(object)  # Comparison (maybe cancelled or stopped)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.request: CompareRequest | None = None
        self.comparison: Comparison | None = None
        self.pair_dialog: PairValuesDialog | None = None
        self.compare_dialog: CompareDialog | None = None
        self.open_paths: Callable[[], list[str]] = list  # files open in the Files area
        self.inspection_of: Callable[[str], FileInspection | None] = lambda _path: None
        self._job: CompareJob | None = None
        self._generation = 0
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._relay = CompareRelay(self)
        self._relay.progressed.connect(self._on_progressed)
        self._relay.compared.connect(self._on_compared)
        self._relay.failed.connect(self._on_failed)
        self._build()
        self._update_actions()

    # --- construction -------------------------------------------------------------------------

    def _build(self) -> None:
        self.choose_button = QPushButton("Compare…")  # File → Compare… (Ctrl+Shift+D) too
        self.choose_button.setToolTip("Choose the two checkpoints (File → Compare…, Ctrl+Shift+D)")
        self.choose_button.clicked.connect(lambda _=False: self.open_compare_dialog())
        self.swap_button = self._button("Swap A ⇄ B", "Ctrl+Shift+X", self.swap)
        self.again_button = self._button("Compare again", "F5", self.compare_again)
        self.cancel_button = self._button("Cancel", "Escape", self.cancel)
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(180)
        self.progress.setMaximumHeight(16)
        self.progress.hide()
        self.progress_label = QLabel()
        self.progress_label.setStyleSheet("color: #4b5563")
        bar_widget = QWidget()
        bar = QHBoxLayout(bar_widget)
        bar.setContentsMargins(0, 0, 0, 0)
        for widget in (self.choose_button, self.swap_button, self.again_button, self.progress,
                       self.cancel_button):  # fmt: skip
            bar.addWidget(widget)
        bar.addWidget(self.progress_label, 1)

        self.sides_label = QLabel(HINT)
        self.sides_label.setWordWrap(True)
        self.summary_label = QLabel()
        self.summary_label.setWordWrap(True)
        self.summary_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.filter_group = QButtonGroup(self)
        self.filter_group.setExclusive(True)
        self.filter_buttons: dict[str, QToolButton] = {}
        filters_widget = QWidget()
        filters = QHBoxLayout(filters_widget)
        filters.setContentsMargins(0, 0, 0, 0)
        filters.addWidget(QLabel("Show"))
        for name, (label, _which) in FILTERS.items():
            button = QToolButton()
            button.setText(label)
            button.setCheckable(True)
            button.setChecked(name == "all")
            button.clicked.connect(lambda _=False, n=name: self.set_filter(n))
            self.filter_group.addButton(button)
            self.filter_buttons[name] = button
            button.setVisible(name != "not_compared")  # shown when some pair was not compared
            filters.addWidget(button)
        self.group_box = QCheckBox("Group by layer")
        self.group_box.setChecked(True)
        self.group_box.toggled.connect(self._on_grouping_changed)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Filter keys… (Ctrl+F)")
        self.search.setClearButtonEnabled(True)
        self.search.setMinimumWidth(200)
        self.search.textChanged.connect(self._on_search_changed)
        find = QAction(self)
        find.setShortcut(QKeySequence.StandardKey.Find)
        find.triggered.connect(lambda: self.search.setFocus())
        self.addAction(find)
        filters.addSpacing(12)
        filters.addWidget(self.group_box)
        filters.addStretch(1)
        filters.addWidget(self.search)

        self.model = ComparisonTableModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setSortingEnabled(True)
        self.table.horizontalHeader().setSortIndicator(
            RELATIVE_COLUMN, Qt.SortOrder.DescendingOrder
        )
        self.table.verticalHeader().hide()
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for column, width in enumerate((250, 96, 104, 104, 72, 72, 72, 80, 120)):
            header.resizeSection(column, width)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.table.doubleClicked.connect(lambda index: self.open_pair(index.row()))
        self.table.activated.connect(lambda index: self.open_pair(index.row()))
        self.model.modelReset.connect(self._span_headers)

        self.chart = ChangeChart()
        self.chart.setMinimumWidth(160)
        self.chart.hide()  # until there is something to chart
        self.chart.layer_clicked.connect(self.show_layer)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.table)
        splitter.addWidget(self.chart)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([900, 280])

        layout = QVBoxLayout(self)
        layout.addWidget(_sideways(bar_widget))  # a narrow window scrolls them, never clips
        layout.addWidget(self.sides_label)
        layout.addWidget(self.summary_label)
        layout.addWidget(_sideways(filters_widget))
        layout.addWidget(splitter, 1)

    def _button(self, text: str, shortcut: str, slot) -> QPushButton:
        return shortcut_button(self, text, shortcut, slot)

    # --- starting -----------------------------------------------------------------------------

    def open_compare_dialog(self) -> CompareDialog:
        paths = self.open_paths()
        self.compare_dialog = CompareDialog(paths, self)
        if self.request is not None:
            self.compare_dialog.set_paths(self.request.a.path, self.request.b.path)
        self.compare_dialog.chosen.connect(self.compare_paths)
        self.compare_dialog.open()
        return self.compare_dialog

    def compare_paths(self, path_a: str, path_b: str) -> None:
        """Two whole files; one already open in the Files area is not read again."""
        sides = [SideRequest(p, self.inspection_of(p)) for p in (path_a, path_b)]
        self.compare(CompareRequest(*sides))

    def compare(self, request: CompareRequest) -> None:
        self._stop()
        self.request = request
        self._generation += 1
        self._job = CompareJob(request, self._generation, self._relay)
        self.progress.setRange(0, 0)
        self.progress_label.setText("Opening…")
        self.sides_label.setText(self._sides_text(request))
        self._pool.start(self._job)
        self._update_actions()

    def compare_again(self) -> None:
        """The same two sides; whole files are read afresh from disk (one may have been
        re-saved), entries from the Files area's open file (a change on disk is reported)."""
        request = self.request
        if request is None:
            return
        if request.a.node is None and request.b.node is None:
            request = CompareRequest(SideRequest(request.a.path), SideRequest(request.b.path))
        self.compare(request)

    def swap(self) -> None:
        if self.request is not None:
            self.compare(self.request.swapped())

    def _sides_text(self, request: CompareRequest) -> str:
        def side(which: str, s: SideRequest) -> str:
            name = Path(s.path).name + (" (an entry)" if s.node is not None else "")
            return f"<b>{which}</b> {escape(name)}"

        return f"{side('A', request.a)} &nbsp;→&nbsp; {side('B', request.b)}"

    # --- the worker's reports -----------------------------------------------------------------

    def _on_progressed(self, generation: int, done: int, total: int, what: str) -> None:
        if generation != self._generation:
            return
        self.progress.setRange(0, total)
        self.progress.setValue(done)
        self.progress_label.setText(f"{done} of {total}: {what}" if total else what)

    def _on_compared(self, generation: int, comparison: Comparison) -> None:
        if generation != self._generation:
            return
        self._job = None
        self.show_comparison(comparison)
        self.status_message.emit(overall_line(comparison))
        self._update_actions()
        self.comparison_finished.emit(comparison)

    def _on_failed(self, generation: int, message: str) -> None:
        if generation != self._generation:
            return
        self._job = None
        self.progress_label.setText("")
        self.summary_label.setText(f"<span style='color:#b91c1c'>{escape(message)}</span>")
        self.status_message.emit(message)
        self._update_actions()

    def show_comparison(self, comparison: Comparison) -> None:
        self.comparison = comparison
        a, b = comparison.side_a, comparison.side_b
        self.sides_label.setText(
            f"<b>A</b> {escape(a.label)} <span style='color:#6b7280'>({escape(a.format_label)})"
            f"</span> &nbsp;→&nbsp; <b>B</b> {escape(b.label)} <span style='color:#6b7280'>"
            f"({escape(b.format_label)})</span>"
        )
        lines = [f"<b>{escape(overall_line(comparison))}</b>"]
        lines += [escape(line) for line in summary_lines(comparison)[:8]]
        lines += [f"value {escape(v.key)}: {escape(v.a or '(absent)')} → "
                  f"{escape(v.b or '(absent)')}" for v in comparison.values[:6]]  # fmt: skip
        lines += [f"tied weights: {escape(change.text())}" for change in comparison.sharing]
        self.summary_label.setText("<br>".join(lines))
        self.summary_label.setToolTip("\n".join(summary_lines(comparison)))
        self.progress_label.setText("")
        self.model.set_comparison(comparison)
        for name, button in self.filter_buttons.items():
            count = self.model.count(name)
            button.setText(f"{FILTERS[name][0]} ({count})")
            button.setVisible(name != "not_compared" or count > 0)
        self.chart.set_layers(layer_changes(comparison))
        self.chart.show()

    # --- looking ------------------------------------------------------------------------------

    def set_filter(self, name: str) -> None:
        self.filter_buttons[name].setChecked(True)
        self.model.set_filter(name)

    def _on_grouping_changed(self, grouped: bool) -> None:
        self.model.set_grouped(grouped)

    def _on_search_changed(self, text: str) -> None:
        self.model.set_text_filter(text)

    def _span_headers(self) -> None:
        self.table.clearSpans()
        for row in self.model.header_rows():
            self.table.setSpan(row, 0, 1, self.model.columnCount())

    def show_layer(self, name: str) -> None:
        """Scroll the table to a layer (a bar of the chart was clicked)."""
        row = self.model.row_of_layer(name)
        if row is None and self.model.count("all"):  # hidden by a filter: show everything
            self.search.clear()
            self.set_filter("all")
            row = self.model.row_of_layer(name)
        if row is not None:
            index = self.model.index(row, 0)
            self.table.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtTop)
            self.table.selectRow(row)

    def open_pair(self, row: int) -> PairValuesDialog | None:
        """A, B and A − B side by side, for a pair whose values can be read."""
        pair = self.model.pair(row)
        if pair is None:
            return None
        if pair.a is None or pair.b is None:
            self.status_message.emit(f"{pair.key} is only in {'A' if pair.b is None else 'B'}.")
            return None
        if not (pair.a.info.plain and pair.b.info.plain):
            problem = pair.a.info.problem or pair.b.info.problem
            self.status_message.emit(f"No values to show for {pair.key}: {problem}.")
            return None
        if self.pair_dialog is not None:
            self.pair_dialog.close()
        self.pair_dialog = PairValuesDialog(pair, self)
        self.pair_dialog.show()
        return self.pair_dialog

    # --- stopping -----------------------------------------------------------------------------

    def cancel(self) -> None:
        """Stop the comparison: what was compared so far is shown, marked as cancelled."""
        if self._job is not None:
            self._job.cancelled.set()
            self.progress_label.setText("Cancelling…")

    def _stop(self) -> None:
        if self._job is not None:
            self._job.cancelled.set()
            self._generation += 1  # its report is dropped
            self._job = None

    def is_busy(self) -> bool:
        return self._job is not None or self._pool.activeThreadCount() > 0

    def _update_actions(self) -> None:
        busy = self._job is not None
        self.progress.setVisible(busy)
        self.cancel_button.setEnabled(busy)
        self.swap_button.setEnabled(self.request is not None)
        self.again_button.setEnabled(self.request is not None and not busy)

    def shutdown(self) -> None:
        """Stop the worker and join it; safe to call more than once."""
        self._stop()
        self._pool.clear()
        self._pool.waitForDone()
        if self.pair_dialog is not None:
            self.pair_dialog.shutdown()

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
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from tensorviz.core.diff.comparison import Comparison
from tensorviz.core.diff.report import overall_line, value_lines
from tensorviz.core.diff.summaries import layer_changes, summary_lines
from tensorviz.core.files.inspection import FileInspection
from tensorviz.core.translation import current_language
from tensorviz.ui.diff.change_chart import ChangeChart
from tensorviz.ui.diff.compare_dialog import CompareDialog
from tensorviz.ui.diff.compare_jobs import CompareJob, CompareRelay, CompareRequest, SideRequest
from tensorviz.ui.diff.compare_running import CompareRunning
from tensorviz.ui.diff.comparison_filters import ComparisonFilters
from tensorviz.ui.diff.comparison_table_model import (
    COLUMN_WIDTHS,
    RELATIVE_COLUMN,
    ComparisonTableModel,
)
from tensorviz.ui.diff.pair_values_view import PairValuesDialog
from tensorviz.ui.files.placeholders import filled
from tensorviz.ui.widgets.appearance_following import FollowsAppearanceLater
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.scrolling import scrolling
from tensorviz.ui.widgets.shortcut_buttons import retitle_shortcut_button, shortcut_button
from tensorviz.ui.widgets.theme import colour, scaled


def _sideways(widget: QWidget) -> QWidget:
    scroll = scrolling(widget, Qt.Orientation.Horizontal)
    _fit_sideways(scroll, widget)
    return scroll


def _fit_sideways(scroll, widget: QWidget) -> None:
    """As tall as its row and a scroll bar (again after a change of zoom or language)."""
    bar_height = scroll.horizontalScrollBar().sizeHint().height()
    scroll.setFixedHeight(widget.sizeHint().height() + bar_height + 2)


class ComparePanel(CompareRunning, FollowsAppearanceLater, Retranslating, QWidget):
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
        self._error: str | None = None  # why the last comparison asked for could not start
        self._shown_request: CompareRequest | None = None  # the request `comparison` answers
        self._words_language = current_language()  # the language of the pairs' notes
        self._build()
        self._update_actions()
        self.restyle()
        self.retranslate()

    # --- construction -------------------------------------------------------------------------

    def _build(self) -> None:
        self.choose_button = QPushButton()  # File → Compare… (Ctrl+Shift+D) too
        self.choose_button.clicked.connect(lambda _=False: self.open_compare_dialog())
        self.swap_button = shortcut_button(self, "", "Ctrl+Shift+X", self.swap)
        self.again_button = shortcut_button(self, "", "F5", self.compare_again)
        self.cancel_button = shortcut_button(self, "", "Escape", self.cancel)
        self.progress = QProgressBar()
        self.progress.hide()
        self.progress_label = QLabel()
        self.progress_label.setObjectName("hint")
        bar_widget = QWidget()
        bar = QHBoxLayout(bar_widget)
        bar.setContentsMargins(0, 0, 0, 0)
        for widget in (self.choose_button, self.swap_button, self.again_button, self.progress,
                       self.cancel_button):  # fmt: skip
            bar.addWidget(widget)
        bar.addWidget(self.progress_label, 1)

        self.sides_label = QLabel()
        self.sides_label.setWordWrap(True)
        self.sides_label.setProperty("verbatim", True)  # the two files' names and formats
        self.summary_label = QLabel()
        self.summary_label.setWordWrap(True)
        self.summary_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.filters = ComparisonFilters()
        self.filters.filter_chosen.connect(self.set_filter)
        self.filters.grouping_changed.connect(self._on_grouping_changed)
        self.filters.text_changed.connect(self._on_search_changed)
        self.filter_buttons = self.filters.buttons
        self.group_box, self.search = self.filters.group_box, self.filters.search
        find = QAction(self)
        find.setShortcut(QKeySequence.StandardKey.Find)
        find.triggered.connect(lambda: self.search.setFocus())
        self.addAction(find)

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
        self.table.doubleClicked.connect(lambda index: self.open_pair(index.row()))
        self.table.activated.connect(lambda index: self.open_pair(index.row()))
        self.model.modelReset.connect(self._span_headers)

        self.chart = ChangeChart()
        self.chart.hide()  # until there is something to chart
        self.chart.layer_clicked.connect(self.show_layer)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.table)
        splitter.addWidget(self.chart)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([900, 280])

        self._rows = [(_sideways(bar_widget), bar_widget), (_sideways(self.filters), self.filters)]
        layout = QVBoxLayout(self)
        layout.addWidget(self._rows[0][0])  # a narrow window scrolls them, never clips
        layout.addWidget(self.sides_label)
        layout.addWidget(self.summary_label)
        layout.addWidget(self._rows[1][0])
        layout.addWidget(splitter, 1)

    def retranslate(self) -> None:
        self.choose_button.setText(self.tr("Compare…"))
        self.choose_button.setToolTip(
            self.tr("Choose the two checkpoints (File → Compare…, Ctrl+Shift+D)")
        )
        for button, text in ((self.swap_button, self.tr("Swap A ⇄ B")),
                             (self.again_button, self.tr("Compare again")),
                             (self.cancel_button, self.tr("Cancel"))):  # fmt: skip
            retitle_shortcut_button(button, text)
        self.model.retranslate()
        self._show_texts()
        self._fit_rows()
        if self._words_language != current_language():
            self._words_language = current_language()
            self._reword_comparison()

    def restyle(self) -> None:
        """Sizes set by hand at the zoom in force; colours written into the texts."""
        self.progress.setMaximumWidth(scaled(180))
        self.progress.setMaximumHeight(scaled(16))
        header = self.table.horizontalHeader()
        for column, width in enumerate(COLUMN_WIDTHS):
            header.resizeSection(column, scaled(width))
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + scaled(8))
        self.chart.setMinimumWidth(scaled(160))
        self._show_texts()
        self._fit_rows()

    def _fit_rows(self) -> None:
        for scroll, row in self._rows:
            _fit_sideways(scroll, row)

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

    def _reword_comparison(self) -> None:
        """A pair's notes are core's words made while comparing: compare again in the new
        language (the table keeps the words before until the new result is in)."""
        if self.comparison is not None and self._job is None:
            self.compare_again()

    def swap(self) -> None:
        if self.request is not None:
            self.compare(self.request.swapped())

    def _sides_text(self, request: CompareRequest) -> str:
        def side(which: str, s: SideRequest) -> str:
            name = Path(s.path).name
            if s.node is not None:
                name = filled(self.tr("%1 (an entry)"), name)
            return f"<b>{which}</b> {escape(name)}"

        return f"{side('A', request.a)} &nbsp;→&nbsp; {side('B', request.b)}"

    def _show_texts(self) -> None:
        """The sides, the verdict and the summary, in the language and colours in force."""
        muted, red = colour("muted").name(), colour("error_text").name()
        if self.request is None:
            self.sides_label.setProperty("verbatim", False)
            self.sides_label.setText(self._hint())
            return
        self.sides_label.setProperty("verbatim", True)  # the files' names, as they are
        comparison = self.comparison
        if comparison is not None and self._shown_request is self.request and not self._error:
            a, b = comparison.side_a, comparison.side_b
            self.sides_label.setText(
                f"<b>A</b> {escape(a.label)} <span style='color:{muted}'>"
                f"({escape(a.format_label)})</span> &nbsp;→&nbsp; <b>B</b> {escape(b.label)} "
                f"<span style='color:{muted}'>({escape(b.format_label)})</span>"
            )
        else:  # being compared, or it could not be: the two asked for
            self.sides_label.setText(self._sides_text(self.request))
        if self._error:  # the table and the chart keep the comparison before
            self.summary_label.setText(f"<span style='color:{red}'>{escape(self._error)}</span>")
        elif comparison is not None:
            lines = [f"<b>{escape(overall_line(comparison))}</b>"]
            lines += [escape(line) for line in summary_lines(comparison)[:8]]
            lines += [escape(line) for line in value_lines(comparison, most=6)]
            self.summary_label.setText("<br>".join(lines))
            self.summary_label.setToolTip("\n".join(summary_lines(comparison)))
        if comparison is not None:
            self.filters.set_counts(self.model.counts())
            self.chart.set_layers(layer_changes(comparison))

    def _hint(self) -> str:
        return self.tr(
            "Compare two checkpoints tensor by tensor: File → Compare… (Ctrl+Shift+D); or in the "
            "Files area right-click a file → Compare with…, or select two entries → Compare. "
            "Nothing in the files runs: they are read by the Files area's safe reader."
        )

    # --- showing ------------------------------------------------------------------------------

    def show_comparison(self, comparison: Comparison) -> None:
        self.comparison, self._shown_request = comparison, self.request
        self.progress_label.setText("")
        self.model.set_comparison(comparison)
        self._show_texts()
        self.chart.show()

    # --- looking ------------------------------------------------------------------------------

    def set_filter(self, name: str) -> None:
        self.filters.choose(name)
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
            only = self.tr("%1 is only in A.") if pair.b is None else self.tr("%1 is only in B.")
            self.status_message.emit(filled(only, pair.key))
            return None
        if not (pair.a.info.plain and pair.b.info.plain):
            problem = pair.a.info.problem or pair.b.info.problem
            self.status_message.emit(filled(self.tr("No values to show for %1: %2."), pair.key,
                                            problem))  # fmt: skip
            return None
        if self.pair_dialog is not None:
            self.pair_dialog.close()
        self.pair_dialog = PairValuesDialog(pair, self)
        self.pair_dialog.show()
        return self.pair_dialog

    # --- buttons ------------------------------------------------------------------------------

    def _update_actions(self) -> None:
        busy = self._job is not None
        self.progress.setVisible(busy)
        self.cancel_button.setEnabled(busy)
        self.swap_button.setEnabled(self.request is not None)
        self.again_button.setEnabled(self.request is not None and not busy)

"""What the last run added or updated (or, for a run that raised, what existed before the
error): name, shape, dtype, the autograd state torch reports (requires_grad, is_leaf, grad_fn,
.grad), line, and one click to the Autograd graph (tensors with a grad_fn), the Workbench or
the Memory layout. A run that captured nothing empties the list and says why.

torch's attribute names (requires_grad, is_leaf, grad_fn, .grad, dtype) head their columns as
code writes them; the other words follow the language and are written again when it changes,
rows included (each row keeps the CapturedRow it shows)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from tensorviz.core.script.results import CapturedRow, RunSummary
from tensorviz.core.tensors.identity import dtype_name, grad_text
from tensorviz.core.tensors.workspace import Workspace, WorkspaceEvent
from tensorviz.ui.widgets.retranslating import Retranslating

# .grad last: its values are long, so it takes the width the others leave (see __init__)
COLUMNS = ("name", "shape", "dtype", "requires_grad", "is_leaf", "grad_fn", "line", "", ".grad")
LINE_COLUMN, MARK_COLUMN = COLUMNS.index("line"), COLUMNS.index("")
GRAD_COLUMN = COLUMNS.index(".grad")
ROW_ROLE = Qt.ItemDataRole.UserRole + 1  # the CapturedRow an item shows
FRESH_MARKS = ("added", "before error")  # rows the run made (undoing the run removes them all)


def _mark(row: CapturedRow) -> str:
    return "before error" if row.before_error else row.status


class CapturedList(Retranslating, QWidget):
    graph_requested = Signal(str)
    workbench_requested = Signal(str)
    layout_requested = Signal(str)
    line_requested = Signal(int)

    def __init__(self, workspace: Workspace, parent=None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self._summary: RunSummary | None = None
        self._reason: Callable[[], str] | None = None  # why the list is empty (run, stop, undo)
        self.title = title = QLabel()
        title.setObjectName("sectionTitle")
        self.tree = QTreeWidget()
        self.tree.setObjectName("capturedList")
        self.tree.setColumnCount(len(COLUMNS))
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        header = self.tree.header()
        # Every column fits its contents first; .grad (values: long), the last, takes the width
        # left and ends in "…", its whole text in the cell's tooltip. Narrower than the other
        # columns together, the list scrolls sideways: a name or a shape is never cut.
        header.setStretchLastSection(True)
        for column in range(len(COLUMNS) - 1):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.tree.currentItemChanged.connect(self._on_current_changed)
        self.tree.itemDoubleClicked.connect(self._on_double_clicked)
        self.graph_button = QPushButton()
        self.workbench_button = QPushButton()
        self.layout_button = QPushButton()
        self.graph_button.clicked.connect(lambda: self._emit(self.graph_requested))
        self.workbench_button.clicked.connect(lambda: self._emit(self.workbench_requested))
        self.layout_button.clicked.connect(lambda: self._emit(self.layout_requested))
        self.notes = QLabel()
        self.notes.setObjectName("hint")
        self.notes.setWordWrap(True)
        self.notes.hide()
        buttons = QHBoxLayout()
        for button in (self.graph_button, self.workbench_button, self.layout_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(title)
        layout.addWidget(self.tree, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.notes)
        self._unsubscribe = workspace.subscribe(self._on_workspace_changed)
        self.retranslate()

    # --- words -----------------------------------------------------------------------------------

    def retranslate(self) -> None:
        headers = {"name": self.tr("Name"), "shape": self.tr("Shape"), "line": self.tr("Line")}
        self.tree.setHeaderLabels([headers.get(column, column) for column in COLUMNS])
        tips = {
            "requires_grad": self.tr(
                "tensor.requires_grad: autograd records what is computed from it"
            ),
            "is_leaf": self.tr(
                "tensor.is_leaf: made by you, not by an operation autograd recorded"
            ),
            "grad_fn": self.tr("tensor.grad_fn: the backward node that made it (None for a leaf)"),
            ".grad": self.tr(
                "tensor.grad: filled in by backward() on leaves (non-leaves: only retain_grad())"
            ),
        }
        for column, name in enumerate(COLUMNS):
            self.tree.headerItem().setToolTip(column, tips.get(name, ""))
        self.graph_button.setText(self.tr("Graph"))
        self.workbench_button.setText(self.tr("Workbench"))
        self.workbench_button.setToolTip(
            self.tr("Open the Workbench on this tensor: identity and values")
        )
        self.layout_button.setText(self.tr("Layout"))
        self.layout_button.setToolTip(self.tr("Open the Memory layout: how it reads storage"))
        self._show_title_and_notes()
        for i in range(self.tree.topLevelItemCount()):
            self._word_item(self.tree.topLevelItem(i))
        self.refresh_autograd_columns()
        self._update_buttons()

    def _title_text(self) -> str:
        failed = self._summary.failed_line if self._summary is not None else 0
        if failed:
            return self.tr("Captured before the error on line %1").replace("%1", str(failed))
        return self.tr("Captured")

    def _show_title_and_notes(self) -> None:
        self.title.setText(self._title_text())
        if self._reason is not None:
            notes = self._reason()
        else:
            notes = "\n".join(self._summary.notes) if self._summary is not None else ""
        self.notes.setText(notes)
        self.notes.setVisible(bool(notes))

    def _mark_text(self, mark: str) -> str:
        return {
            "added": self.tr("new"),
            "updated": self.tr("updated"),
            "before error": self.tr("before error"),
        }.get(mark, self.tr("written"))

    def _word_item(self, item: QTreeWidgetItem) -> None:
        """The words of one row (its mark and tooltip) in the language in force."""
        row: CapturedRow = item.data(0, ROW_ROLE)
        if row.line:
            tip = self.tr("%1 — from script, line %2").replace("%1", row.path)
            tip = tip.replace("%2", str(row.line))
        elif row.status == "changed in place":
            tip = self.tr("changed in place")
        else:
            tip = self.tr("%1 — from script").replace("%1", row.path)
        if row.before_error and self._summary is not None:
            tip = self.tr("%1 — as it was before the error on line %2").replace("%1", tip)
            tip = tip.replace("%2", str(self._summary.failed_line))
        for column in range(len(COLUMNS)):
            if column != GRAD_COLUMN:  # .grad's tooltip is its whole value
                item.setToolTip(column, tip)
        item.setText(MARK_COLUMN, self._mark_text(_mark(row)))

    # --- what the run left -----------------------------------------------------------------------

    def show_summary(self, summary: RunSummary) -> None:
        self.tree.clear()
        self._summary, self._reason = summary, None
        for row in summary.rows:
            item = QTreeWidgetItem(self._cells(row))
            item.setData(0, Qt.ItemDataRole.UserRole, row.name)
            item.setData(0, ROW_ROLE, row)
            item.setData(LINE_COLUMN, Qt.ItemDataRole.UserRole, row.line)
            item.setData(MARK_COLUMN, Qt.ItemDataRole.UserRole, _mark(row))
            self._word_item(item)
            self.tree.addTopLevelItem(item)
        self.refresh_autograd_columns()  # (.grad's text and its tooltip)
        self._show_title_and_notes()
        if self.tree.topLevelItemCount():
            self.tree.setCurrentItem(self.tree.topLevelItem(0))
        self._update_buttons()

    def show_nothing(self, reason: Callable[[], str]) -> None:
        """A run that left nothing to explore (stopped, syntax error): no stale rows. `reason`
        words it in the language in force (it is asked again when the language changes)."""
        self.tree.clear()
        self._summary, self._reason = None, reason
        self._show_title_and_notes()
        self._update_buttons()

    def _cells(self, row) -> list[str]:
        tensor = self.workspace.tensor(row.name)
        grad_fn = type(tensor.grad_fn).__name__ if tensor.grad_fn is not None else ""
        cells = {
            "name": row.name,
            "shape": "[" + ", ".join(map(str, tensor.shape)) + "]",
            "dtype": dtype_name(tensor.dtype),
            "requires_grad": str(tensor.requires_grad),
            "is_leaf": str(tensor.is_leaf),
            "grad_fn": grad_fn,
            ".grad": grad_text(tensor) if tensor.requires_grad else "",
            "line": str(row.line) if row.line else "",
            "": "",  # the mark: words, set by _word_item
        }
        return [cells[column] for column in COLUMNS]

    def showEvent(self, event) -> None:  # a backward elsewhere may have filled .grad meanwhile
        super().showEvent(event)
        self.refresh_autograd_columns()

    def refresh_autograd_columns(self) -> None:
        """.grad changes under a backward (the Autograd area, a later run): read it again."""
        for i in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(i)
            name = item.data(0, Qt.ItemDataRole.UserRole)
            if name in self.workspace:
                tensor = self.workspace.tensor(name)
                grad = grad_text(tensor) if tensor.requires_grad else ""
                item.setText(GRAD_COLUMN, grad)
                item.setToolTip(GRAD_COLUMN, grad)

    def names(self) -> list[str]:
        return [
            self.tree.topLevelItem(i).data(0, Qt.ItemDataRole.UserRole)
            for i in range(self.tree.topLevelItemCount())
        ]

    def select(self, name: str) -> None:
        for i in range(self.tree.topLevelItemCount()):
            if self.tree.topLevelItem(i).data(0, Qt.ItemDataRole.UserRole) == name:
                self.tree.setCurrentItem(self.tree.topLevelItem(i))

    def selected(self) -> str | None:
        item = self.tree.currentItem()
        name = item.data(0, Qt.ItemDataRole.UserRole) if item is not None else None
        return name if name in self.workspace else None

    def _emit(self, signal) -> None:
        if name := self.selected():
            signal.emit(name)

    def _on_current_changed(self, _current, _previous) -> None:
        self._update_buttons()

    def _on_double_clicked(self, item: QTreeWidgetItem, _column: int) -> None:
        line = item.data(LINE_COLUMN, Qt.ItemDataRole.UserRole)
        if line:
            self.line_requested.emit(int(line))

    def _update_buttons(self) -> None:
        name = self.selected()
        has_graph = name is not None and self.workspace.tensor(name).grad_fn is not None
        self.graph_button.setEnabled(has_graph)
        self.graph_button.setToolTip(
            self.tr("Open the Autograd graph of this tensor")
            if has_graph
            else self.tr(
                "Only a tensor made by an operation on tensors that require grad has a graph"
            )
        )
        self.workbench_button.setEnabled(name is not None)
        self.layout_button.setEnabled(name is not None)

    def _on_workspace_changed(self, event: WorkspaceEvent) -> None:
        if event.kind in ("removed", "renamed"):
            items = [self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount())]
            fresh = [
                i for i in items if i.data(MARK_COLUMN, Qt.ItemDataRole.UserRole) in FRESH_MARKS
            ]
            if fresh and all(
                i.data(0, Qt.ItemDataRole.UserRole) not in self.workspace for i in fresh
            ):
                # the run was undone: its list no longer describes anything
                self.show_nothing(lambda: self.tr("The run was undone."))
            for i in reversed(range(self.tree.topLevelItemCount())):
                item = self.tree.topLevelItem(i)
                if item.data(0, Qt.ItemDataRole.UserRole) not in self.workspace:
                    self.tree.takeTopLevelItem(i)
        elif event.kind == "changed":
            self.refresh_autograd_columns()
        self._update_buttons()

    def shutdown(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

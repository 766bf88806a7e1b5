"""What the last run added or updated (or, for a run that raised, what existed before the
error): name, shape, dtype, the autograd state torch reports (requires_grad, is_leaf, grad_fn,
.grad), line, and one click to the Autograd graph (tensors with a grad_fn), the Workbench or
the Memory layout. A run that captured nothing empties the list and says why."""

from __future__ import annotations

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

from tensorviz.core.script.results import RunSummary
from tensorviz.core.tensors.identity import dtype_name, grad_text
from tensorviz.core.tensors.workspace import Workspace, WorkspaceEvent

COLUMNS = ("Name", "Shape", "dtype", "requires_grad", "is_leaf", "grad_fn", ".grad", "Line", "")
LINE_COLUMN, MARK_COLUMN = COLUMNS.index("Line"), COLUMNS.index("")
COLUMN_TIPS = {
    "requires_grad": "tensor.requires_grad: autograd records what is computed from it",
    "is_leaf": "tensor.is_leaf: made by you, not by an operation autograd recorded",
    "grad_fn": "tensor.grad_fn: the backward node that made it (None for a leaf)",
    ".grad": "tensor.grad: filled in by backward() on leaves (non-leaves: only retain_grad())",
}


class CapturedList(QWidget):
    graph_requested = Signal(str)
    workbench_requested = Signal(str)
    layout_requested = Signal(str)
    line_requested = Signal(int)

    def __init__(self, workspace: Workspace, parent=None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.title = title = QLabel("Captured")
        title.setObjectName("sectionTitle")
        self.tree = QTreeWidget()
        self.tree.setObjectName("capturedList")
        self.tree.setColumnCount(len(COLUMNS))
        self.tree.setHeaderLabels(COLUMNS)
        for column, name in enumerate(COLUMNS):
            if name in COLUMN_TIPS:
                self.tree.headerItem().setToolTip(column, COLUMN_TIPS[name])
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        header = self.tree.header()
        header.setStretchLastSection(True)  # the columns fit their contents; scroll sideways
        for column in range(len(COLUMNS) - 1):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.currentItemChanged.connect(self._on_current_changed)
        self.tree.itemDoubleClicked.connect(self._on_double_clicked)
        self.graph_button = QPushButton("Graph")
        self.graph_button.setToolTip("Open the Autograd graph of this tensor")
        self.workbench_button = QPushButton("Workbench")
        self.workbench_button.setToolTip("Open the Workbench on this tensor: identity and values")
        self.layout_button = QPushButton("Layout")
        self.layout_button.setToolTip("Open the Memory layout: how it reads storage")
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
        self._update_buttons()

    def show_summary(self, summary: RunSummary) -> None:
        self.tree.clear()
        failed = summary.failed_line
        self.title.setText(f"Captured before the error on line {failed}" if failed else "Captured")
        for row in summary.rows:
            item = QTreeWidgetItem(self._cells(row))
            item.setData(0, Qt.ItemDataRole.UserRole, row.name)
            item.setData(LINE_COLUMN, Qt.ItemDataRole.UserRole, row.line)
            tip = f"{row.path} — from script, line {row.line}" if row.line else row.status
            if row.before_error:
                tip += f" — as it was before the error on line {failed}"
            for column in range(len(COLUMNS)):
                item.setToolTip(column, tip)
            self.tree.addTopLevelItem(item)
        self.notes.setText("\n".join(summary.notes))
        self.notes.setVisible(bool(summary.notes))
        if self.tree.topLevelItemCount():
            self.tree.setCurrentItem(self.tree.topLevelItem(0))
        self._update_buttons()

    def show_nothing(self, title: str, reason: str) -> None:
        """A run that left nothing to explore (stopped, syntax error): no stale rows."""
        self.tree.clear()
        self.title.setText(title)
        self.notes.setText(reason)
        self.notes.show()
        self._update_buttons()

    def _cells(self, row) -> list[str]:
        tensor = self.workspace.tensor(row.name)
        grad_fn = type(tensor.grad_fn).__name__ if tensor.grad_fn is not None else ""
        mark = "before error" if row.before_error else ""
        mark = mark or {"added": "new", "updated": "updated"}.get(row.status, "written")
        return [
            row.name,
            "[" + ", ".join(map(str, tensor.shape)) + "]",
            dtype_name(tensor.dtype),
            str(tensor.requires_grad),
            str(tensor.is_leaf),
            grad_fn,
            grad_text(tensor) if tensor.requires_grad else "",
            str(row.line) if row.line else "",
            mark,
        ]

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
                item.setText(
                    COLUMNS.index(".grad"), grad_text(tensor) if tensor.requires_grad else ""
                )

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
            "Open the Autograd graph of this tensor"
            if has_graph
            else "Only a tensor made by an operation on tensors that require grad has a graph"
        )
        self.workbench_button.setEnabled(name is not None)
        self.layout_button.setEnabled(name is not None)

    def _on_workspace_changed(self, event: WorkspaceEvent) -> None:
        if event.kind in ("removed", "renamed"):
            new = [self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount())]
            new = [item for item in new if item.text(MARK_COLUMN) in ("new", "before error")]
            if new and all(i.data(0, Qt.ItemDataRole.UserRole) not in self.workspace for i in new):
                self.tree.clear()  # the run was undone: its list no longer describes anything
                self.notes.setText("The run was undone.")
                self.notes.show()
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

"""What the last run added or updated: name, shape, dtype, line, and one click to the Autograd
graph (tensors with a grad_fn), the Workbench or the Memory layout."""

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
from tensorviz.core.tensors.identity import dtype_name
from tensorviz.core.tensors.workspace import Workspace, WorkspaceEvent

COLUMNS = ("Name", "Shape", "dtype", "Line", "")


class CapturedList(QWidget):
    graph_requested = Signal(str)
    workbench_requested = Signal(str)
    layout_requested = Signal(str)
    line_requested = Signal(int)

    def __init__(self, workspace: Workspace, parent=None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        title = QLabel("Captured")
        title.setObjectName("sectionTitle")
        self.tree = QTreeWidget()
        self.tree.setObjectName("capturedList")
        self.tree.setColumnCount(len(COLUMNS))
        self.tree.setHeaderLabels(COLUMNS)
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in range(1, len(COLUMNS)):
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
        for row in summary.rows:
            tensor = self.workspace.tensor(row.name)
            shape = "[" + ", ".join(map(str, tensor.shape)) + "]"
            line = str(row.line) if row.line else ""
            mark = {"added": "new", "updated": "updated"}.get(row.status, "written")
            item = QTreeWidgetItem([row.name, shape, dtype_name(tensor.dtype), line, mark])
            item.setData(0, Qt.ItemDataRole.UserRole, row.name)
            item.setData(3, Qt.ItemDataRole.UserRole, row.line)
            tip = f"{row.path} — from script, line {row.line}" if row.line else row.status
            for column in range(len(COLUMNS)):
                item.setToolTip(column, tip)
            if tensor.grad_fn is not None:
                item.setToolTip(0, f"{tip}\ngrad_fn: {type(tensor.grad_fn).__name__}")
            self.tree.addTopLevelItem(item)
        self.notes.setText("\n".join(summary.notes))
        self.notes.setVisible(bool(summary.notes))
        if self.tree.topLevelItemCount():
            self.tree.setCurrentItem(self.tree.topLevelItem(0))
        self._update_buttons()

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
        line = item.data(3, Qt.ItemDataRole.UserRole)
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
            new = [item for item in new if item.text(4) == "new"]
            if new and all(i.data(0, Qt.ItemDataRole.UserRole) not in self.workspace for i in new):
                self.tree.clear()  # the run was undone: its list no longer describes anything
                self.notes.setText("The run was undone.")
                self.notes.show()
            for i in reversed(range(self.tree.topLevelItemCount())):
                item = self.tree.topLevelItem(i)
                if item.data(0, Qt.ItemDataRole.UserRole) not in self.workspace:
                    self.tree.takeTopLevelItem(i)
        self._update_buttons()

    def shutdown(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

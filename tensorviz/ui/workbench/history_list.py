"""How the selected tensor was made: its lineage in the workspace, oldest step first, as the code
lines that made each step. Clicking a step asks for that tensor to be selected."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from tensorviz.core.tensors.workspace import Workspace


class HistoryList(QWidget):
    step_clicked = Signal(str)  # the workspace name of the step

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel("History")
        self.title.setObjectName("sectionTitle")
        self.steps = QListWidget()
        self.steps.setObjectName("historyList")
        self.steps.setToolTip("How the selected tensor was made; click a step to select it")
        self.steps.setMaximumHeight(150)
        self.steps.itemClicked.connect(
            lambda item: self.step_clicked.emit(item.data(Qt.ItemDataRole.UserRole))
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.steps)

    def clear(self) -> None:
        self.title.setText("History")
        self.steps.clear()

    def show_lineage(self, workspace: Workspace, name: str) -> None:
        self.steps.clear()
        self.title.setText(f"History of {name}")
        for step in workspace.lineage(name):
            provenance = workspace.entry(step).provenance
            item = QListWidgetItem(provenance.statement(step).splitlines()[-1])
            item.setData(Qt.ItemDataRole.UserRole, step)
            item.setToolTip(provenance.code)
            self.steps.addItem(item)
        self.steps.setCurrentRow(self.steps.count() - 1)

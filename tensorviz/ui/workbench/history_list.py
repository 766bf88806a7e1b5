"""How the selected tensor was made: its lineage in the workspace, oldest step first, as the code
lines that made each step. Clicking a step asks for that tensor to be selected."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from tensorviz.core.tensors.workspace import Workspace
from tensorviz.ui.widgets.appearance_following import on_appearance_changed
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import scaled
from tensorviz.ui.workbench.text_arguments import arg

STEPS_HEIGHT = 150  # px at 100 %: about six steps, the rest scroll


class HistoryList(Retranslating, QWidget):
    step_clicked = Signal(str)  # the workspace name of the step

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._name: str | None = None  # whose history is shown
        self.title = QLabel()
        self.title.setObjectName("sectionTitle")
        self.steps = QListWidget()
        self.steps.setObjectName("historyList")
        self.steps.itemClicked.connect(
            lambda item: self.step_clicked.emit(item.data(Qt.ItemDataRole.UserRole))
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.steps)
        on_appearance_changed(self._on_appearance_changed)
        self._on_appearance_changed()
        self.retranslate()

    def retranslate(self) -> None:
        self.steps.setToolTip(
            self.tr("How the selected tensor was made; click a step to select it")
        )
        if self._name is None:
            self.title.setText(self.tr("History"))
        else:
            self.title.setText(arg(self.tr("History of %1"), self._name))

    def _on_appearance_changed(self) -> None:
        self.steps.setMaximumHeight(scaled(STEPS_HEIGHT))

    def clear(self) -> None:
        self._name = None
        self.retranslate()
        self.steps.clear()

    def show_lineage(self, workspace: Workspace, name: str) -> None:
        self.steps.clear()
        self._name = name
        self.retranslate()
        for step in workspace.lineage(name):
            provenance = workspace.entry(step).provenance
            item = QListWidgetItem(provenance.statement(step).splitlines()[-1])
            item.setData(Qt.ItemDataRole.UserRole, step)
            item.setToolTip(provenance.code)
            self.steps.addItem(item)
        self.steps.setCurrentRow(self.steps.count() - 1)

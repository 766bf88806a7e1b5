"""The Workbench's left column: the workspace's tensors (colour = storage), the history of the
selected one, and the buttons that rename, duplicate, delete, undo and redo."""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QLabel, QListView, QPushButton, QVBoxLayout, QWidget

from tensorviz.ui.workbench.history_list import HistoryList
from tensorviz.ui.workbench.workspace_list import WorkspaceListModel


class WorkspaceColumn(QWidget):
    def __init__(self, list_model: WorkspaceListModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.list_view = QListView()
        self.list_view.setModel(list_model)
        self.list_view.setObjectName("workspaceList")
        self.list_view.setUniformItemSizes(True)
        self.rename_button = QPushButton("Rename")
        self.duplicate_button = QPushButton("Duplicate")
        self.delete_button = QPushButton("Delete")
        self.undo_button = QPushButton("Undo")
        self.redo_button = QPushButton("Redo")
        buttons = QGridLayout()
        buttons.addWidget(self.rename_button, 0, 0)
        buttons.addWidget(self.duplicate_button, 0, 1)
        buttons.addWidget(self.delete_button, 0, 2)
        buttons.addWidget(self.undo_button, 1, 0)
        buttons.addWidget(self.redo_button, 1, 1)
        title = QLabel("Workspace")
        title.setObjectName("sectionTitle")
        hint = QLabel("Colour and number mark a storage: the same number, the same memory.")
        hint.setObjectName("hint")
        hint.setWordWrap(True)
        self.history = HistoryList()
        layout = QVBoxLayout(self)
        layout.addWidget(title)
        layout.addWidget(self.list_view, 1)
        layout.addWidget(hint)
        layout.addWidget(self.history)
        layout.addLayout(buttons)

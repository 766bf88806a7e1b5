"""The Workbench's left column: the workspace's tensors (colour = storage), the history of the
selected one, and the buttons that rename, duplicate, delete, undo and redo."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QGridLayout, QLabel, QListView, QPushButton, QVBoxLayout, QWidget

from tensorviz.ui.widgets.appearance_following import on_appearance_changed
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import scaled
from tensorviz.ui.workbench.history_list import HistoryList
from tensorviz.ui.workbench.workspace_list import SWATCH_SIZE, WorkspaceListModel


class WorkspaceColumn(Retranslating, QWidget):
    def __init__(self, list_model: WorkspaceListModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.list_model = list_model
        self.list_view = QListView()
        self.list_view.setModel(list_model)
        self.list_view.setObjectName("workspaceList")
        self.list_view.setUniformItemSizes(True)
        self.rename_button = QPushButton()
        self.duplicate_button = QPushButton()
        self.delete_button = QPushButton()
        self.undo_button = QPushButton()
        self.redo_button = QPushButton()
        buttons = QGridLayout()
        buttons.addWidget(self.rename_button, 0, 0)
        buttons.addWidget(self.duplicate_button, 0, 1)
        buttons.addWidget(self.delete_button, 0, 2)
        buttons.addWidget(self.undo_button, 1, 0)
        buttons.addWidget(self.redo_button, 1, 1)
        self.title = QLabel()
        self.title.setObjectName("sectionTitle")
        self.hint = QLabel()
        self.hint.setObjectName("hint")
        self.hint.setWordWrap(True)
        self.history = HistoryList()
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.list_view, 1)
        layout.addWidget(self.hint)
        layout.addWidget(self.history)
        layout.addLayout(buttons)
        on_appearance_changed(self._on_appearance_changed)
        self._on_appearance_changed()
        self.retranslate()

    def retranslate(self) -> None:
        self.title.setText(self.tr("Workspace"))
        self.hint.setText(
            self.tr("Colour and number mark a storage: the same number, the same memory.")
        )
        self.rename_button.setText(self.tr("Rename"))
        self.rename_button.setToolTip(self.tr("Give the selected tensor a new name (F2)"))
        self.duplicate_button.setText(self.tr("Duplicate"))
        self.duplicate_button.setToolTip(
            self.tr("A clone of the selected tensor, with its own storage (Ctrl+D)")
        )
        self.delete_button.setText(self.tr("Delete"))
        self.delete_button.setToolTip(
            self.tr("Remove the selected tensor (Del; Undo brings it back)")
        )
        self.undo_button.setText(self.tr("Undo"))
        self.redo_button.setText(self.tr("Redo"))
        self.list_model.refresh()  # its rows' words (✎ changed in place, storage n)

    def _on_appearance_changed(self) -> None:
        """Swatches as large as the zoomed text, in the palette of the theme now in force."""
        side = scaled(SWATCH_SIZE)
        self.list_view.setIconSize(QSize(side, side))
        self.list_model.refresh()

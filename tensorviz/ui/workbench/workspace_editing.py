"""The Workbench's edits of the workspace itself: rename, duplicate and delete the selected
tensor, undo and redo, and the buttons that offer them (WorkbenchPanel mixes this in)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QInputDialog

from tensorviz.core.tensors.workbench_actions import input_problem
from tensorviz.core.tensors.workspace import WorkspaceError
from tensorviz.ui.workbench.text_arguments import arg


class WorkspaceEditing:
    """Needs the panel's workspace, selected, select, buttons, error_panel, status_message and
    _show_problem. Its texts are the panel's (named context: a mixin's self.tr would look them
    up under another class's name)."""

    def _workspace_call(self, call, done: str) -> bool:
        try:
            call()
        except WorkspaceError as error:
            self._show_problem(input_problem(str(error)).explained)
            return False
        self.error_panel.clear()
        self.status_message.emit(done)
        return True

    def rename_selected(self) -> None:
        if not self.selected:
            return
        old = self.selected
        new, ok = QInputDialog.getText(
            self,
            QCoreApplication.translate("WorkbenchPanel", "Rename tensor"),
            arg(QCoreApplication.translate("WorkbenchPanel", "New name for %1:"), old),
            text=old,
        )
        new = new.strip()
        if ok and new and new != old:
            renamed = self._workspace_call(
                lambda: self.workspace.rename(old, new),
                arg(QCoreApplication.translate("WorkbenchPanel", "Renamed %1 to %2"), old, new),
            )
            if renamed:
                self.select(new)

    def duplicate_selected(self) -> None:
        if self.selected:
            source = self.selected
            self._workspace_call(
                lambda: self.select(self.workspace.duplicate(source)),
                arg(
                    QCoreApplication.translate(
                        "WorkbenchPanel", "Duplicated %1 (a clone with its own storage)"
                    ),
                    source,
                ),
            )

    def delete_selected(self) -> None:
        if self.selected:
            name = self.selected
            self._workspace_call(
                lambda: self.workspace.delete(name),
                arg(
                    QCoreApplication.translate(
                        "WorkbenchPanel", "Deleted %1 — Undo (Ctrl+Z) brings it back"
                    ),
                    name,
                ),
            )

    def undo(self) -> None:
        if not self.workspace.can_undo():
            self.status_message.emit(
                QCoreApplication.translate("WorkbenchPanel", "Nothing to undo")
            )
            return
        description = self.workspace.undo_description()
        self._workspace_call(
            self.workspace.undo,
            arg(QCoreApplication.translate("WorkbenchPanel", "Undid %1"), description),
        )
        self._update_buttons()  # the step went to redo after the workspace's events

    def redo(self) -> None:
        if not self.workspace.can_redo():
            self.status_message.emit(
                QCoreApplication.translate("WorkbenchPanel", "Nothing to redo")
            )
            return
        description = self.workspace.redo_description()
        self._workspace_call(
            self.workspace.redo,
            arg(QCoreApplication.translate("WorkbenchPanel", "Redid %1"), description),
        )
        self._update_buttons()

    def _update_buttons(self) -> None:
        has = bool(self.selected)
        for button in (self.rename_button, self.duplicate_button, self.delete_button):
            button.setEnabled(has)
        self.undo_button.setEnabled(self.workspace.can_undo())
        description = self.workspace.undo_description()
        self.undo_button.setToolTip(
            arg(QCoreApplication.translate("WorkbenchPanel", "Undo %1 (Ctrl+Z)"), description)
            if description
            else "Ctrl+Z"
        )
        self.redo_button.setEnabled(self.workspace.can_redo())
        again = self.workspace.redo_description()
        self.redo_button.setToolTip(
            arg(
                QCoreApplication.translate("WorkbenchPanel", "Redo %1 (Ctrl+Shift+Z, Ctrl+Y)"),
                again,
            )
            if again
            else "Ctrl+Shift+Z, Ctrl+Y"
        )

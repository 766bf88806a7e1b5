"""The list of workspace tensors: a model over core's Workspace, kept in step by its events."""

from __future__ import annotations

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt

from tensorviz.core.tensors.identity import dtype_name, storage_numbers
from tensorviz.core.tensors.workspace import Workspace, WorkspaceEvent
from tensorviz.ui.widgets.storage_palette import distinct_colour, numbered_swatch
from tensorviz.ui.widgets.theme import scaled
from tensorviz.ui.workbench.text_arguments import arg

SWATCH_SIZE = 18  # px at 100 %


class WorkspaceListModel(QAbstractListModel):
    NameRole = Qt.ItemDataRole.UserRole + 1
    StorageRole = Qt.ItemDataRole.UserRole + 2  # the storage's number: same number, same memory

    def __init__(self, workspace: Workspace, parent=None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self._names: list[str] = workspace.names()
        self._numbers = storage_numbers(workspace.tensors())  # one colour and number a storage
        self._unsubscribe = workspace.subscribe(self._on_workspace_changed)

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008 — Qt's signature
        return 0 if parent.isValid() else len(self._names)

    def data(self, index: QModelIndex | QPersistentModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self._names):
            return None
        name = self._names[index.row()]
        entry = self.workspace.entry(name)
        tensor = entry.tensor
        if role == Qt.ItemDataRole.DisplayRole:
            shape = ", ".join(map(str, tensor.shape))
            dtype = dtype_name(tensor.dtype)
            if entry.version:
                return arg(self.tr("%1   [%2] %3   ✎ changed in place"), name, shape, dtype)
            return f"{name}   [{shape}] {dtype}"
        if role == self.NameRole:
            return name
        if role == Qt.ItemDataRole.ToolTipRole:
            sharing = [n for n in self.workspace.sharing(name) if n != name]
            number = str(self._numbers[name])
            storage = (
                arg(self.tr("storage %1, shared with %2"), number, ", ".join(sharing))
                if sharing
                else arg(self.tr("storage %1, its own"), number)
            )
            return f"{entry.provenance.code or entry.provenance.op}\n{storage}"
        if role == Qt.ItemDataRole.DecorationRole:
            return numbered_swatch(self._numbers[name] - 1, scaled(SWATCH_SIZE))
        if role == self.StorageRole:
            return self._numbers[name]
        return None

    def storage_colour(self, name: str):
        """The colour of `name`'s storage (its swatch's)."""
        return distinct_colour(self._numbers[name] - 1)

    def refresh(self) -> None:
        """Every row read again: a new theme's palette, a new zoom's swatch, a new language."""
        if self._names:
            self.dataChanged.emit(self.index(0), self.index(len(self._names) - 1))

    def name_at(self, row: int) -> str | None:
        return self._names[row] if 0 <= row < len(self._names) else None

    def row_of(self, name: str) -> int:
        return self._names.index(name) if name in self._names else -1

    def _on_workspace_changed(self, event: WorkspaceEvent) -> None:
        # Small lists: a reset keeps the model exact (renames, undo re-inserts, new storages).
        self.beginResetModel()
        self._names = self.workspace.names()
        self._numbers = storage_numbers(self.workspace.tensors())
        self.endResetModel()

    def close(self) -> None:
        self._unsubscribe()

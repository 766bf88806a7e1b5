"""The list of workspace tensors: a model over core's Workspace, kept in step by its events."""

from __future__ import annotations

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from tensorviz.core.tensors.identity import dtype_name, storage_key
from tensorviz.core.tensors.workspace import Workspace, WorkspaceEvent

# One colour per shared storage, so views of the same memory read as a family.
STORAGE_COLOURS = ("#3d5a80", "#ee6c4d", "#2a9d8f", "#8d5fd3", "#e9a23b", "#c0392b", "#5c7c2f")


class WorkspaceListModel(QAbstractListModel):
    NameRole = Qt.ItemDataRole.UserRole + 1

    def __init__(self, workspace: Workspace, parent=None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self._names: list[str] = workspace.names()
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
            changed = "   ✎ changed in place" if entry.version else ""
            return f"{name}   [{shape}] {dtype}{changed}"
        if role == self.NameRole:
            return name
        if role == Qt.ItemDataRole.ToolTipRole:
            sharing = [n for n in self.workspace.sharing(name) if n != name]
            shared = f"\nshares storage with {', '.join(sharing)}" if sharing else ""
            return f"{entry.provenance.code or entry.provenance.op}{shared}"
        if role == Qt.ItemDataRole.DecorationRole:
            return QColor(self._storage_colour(name))
        return None

    def name_at(self, row: int) -> str | None:
        return self._names[row] if 0 <= row < len(self._names) else None

    def row_of(self, name: str) -> int:
        return self._names.index(name) if name in self._names else -1

    def _storage_colour(self, name: str) -> str:
        keys = []
        for n in self._names:
            key = storage_key(self.workspace.tensor(n))
            if key not in keys:
                keys.append(key)
        return STORAGE_COLOURS[
            keys.index(storage_key(self.workspace.tensor(name))) % len(STORAGE_COLOURS)
        ]

    def _on_workspace_changed(self, event: WorkspaceEvent) -> None:
        # Small lists: a reset keeps the model exact (renames, undo re-inserts, new storages).
        self.beginResetModel()
        self._names = self.workspace.names()
        self.endResetModel()

    def close(self) -> None:
        self._unsubscribe()

"""The contents of one opened file as a lazy QAbstractItemModel over core's Node tree.

Qt asks only for the rows it shows; there is one Node per saved entry (never per element).
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont

from tensorviz.core.files.inspection import FileInspection, Node
from tensorviz.core.files.text import format_bytes, node_summary, sharing_text

COLUMNS = ("Name", "Contents", "Bytes", "Sharing", "Statistics")
SHARED_BRUSH = QBrush(QColor("#fff4d6"))
WASTE_BRUSH = QBrush(QColor("#fde8e8"))
NodeRole = Qt.ItemDataRole.UserRole + 1

Index = QModelIndex | QPersistentModelIndex


class FileTreeModel(QAbstractItemModel):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.inspection: FileInspection | None = None
        self._root: Node | None = None
        self._statistics: dict[tuple, str] = {}
        self._by_access: dict[tuple, Node] = {}
        self._bold = QFont()
        self._bold.setBold(True)

    def set_inspection(self, inspection: FileInspection | None) -> None:
        self.beginResetModel()
        self.inspection = inspection
        self._root = inspection.root if inspection is not None else None
        self._statistics = {}
        self._by_access = {n.access: n for n in inspection.entries} if inspection else {}
        self.endResetModel()

    def set_statistics(self, access: tuple, text: str) -> None:
        """Show one tensor's statistics (computed by a worker) in the last column."""
        self._statistics[access] = text
        index = self.index_of_access(access)
        if index is not None:
            self.dataChanged.emit(index, index, [Qt.ItemDataRole.DisplayRole])

    def statistics_text(self, access: tuple) -> str | None:
        return self._statistics.get(access)

    # --- structure --------------------------------------------------------------------------

    def node(self, index: Index) -> Node | None:
        if not index.isValid():
            return None
        return index.internalPointer()

    def _children(self, parent: Index) -> list[Node]:
        if self._root is None:
            return []
        node = self.node(parent)
        return [self._root] if node is None else node.children

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        children = self._children(parent)
        if 0 <= row < len(children) and 0 <= column < len(COLUMNS):
            return self.createIndex(row, column, children[row])
        return QModelIndex()

    def parent(self, index: Index | None = None):  # type: ignore[override]
        if index is None:  # parent() with no index is QObject's
            return QObject.parent(self)
        node = self.node(index)
        if node is None or node.parent is None:
            return QModelIndex()
        return self.createIndex(node.parent.row, 0, node.parent)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 — Qt's signature
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self._children(parent))

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return len(COLUMNS)

    def index_of_access(self, access: tuple) -> QModelIndex | None:
        node = self._by_access.get(access)
        if node is None or node.parent is None:
            return None
        return self.createIndex(node.row, len(COLUMNS) - 1, node)

    def index_of_node(self, node: Node) -> QModelIndex:
        if node.parent is None:
            return self.index(0, 0)
        return self.createIndex(node.row, 0, node)

    # --- data -------------------------------------------------------------------------------

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole):
        node = self.node(index)
        if node is None:
            return None
        column = index.column()
        if role == NodeRole:
            return node
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return self._text(node, column)
        plain_storage = node.tensor is not None and node.tensor.storage_id is not None
        if role == Qt.ItemDataRole.BackgroundRole and plain_storage:
            group = self.inspection.storages[node.tensor.storage_id]
            if len(group.members) > 1:
                return SHARED_BRUSH
            if group.wasted_bytes > 0:
                return WASTE_BRUSH
        if role == Qt.ItemDataRole.FontRole and column == 0 and node.kind != "tensor":
            return self._bold if node.children else None
        if role == Qt.ItemDataRole.TextAlignmentRole and column == 2:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _text(self, node: Node, column: int) -> str:
        if column == 0:
            return node.name
        if column == 1:
            return node_summary(node)
        if column == 2:
            return "" if node.kind == "value" else format_bytes(node.total_bytes)
        if column == 3:
            return sharing_text(node, self.inspection)
        return self._statistics.get(node.access, "") if node.kind == "tensor" else ""

    def headerData(self, section: int, orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

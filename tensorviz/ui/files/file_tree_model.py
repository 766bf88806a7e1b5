"""The contents of one opened file as a lazy QAbstractItemModel over core's Node tree.

Qt asks only for the rows it shows; there is one Node per saved entry (never per element).
"""

from __future__ import annotations

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractItemModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSize,
    Qt,
)
from PySide6.QtGui import QBrush, QFont
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeView

from tensorviz.core.files.inspection import FileInspection, Node
from tensorviz.core.files.quoting import quoted
from tensorviz.core.files.text import NO_BYTES, format_bytes, node_summary, sharing_text
from tensorviz.core.files.tree import expanded_by_default
from tensorviz.ui.files.file_tree_style import kind_colour, kind_icon, kind_word
from tensorviz.ui.files.placeholders import filled
from tensorviz.ui.widgets.theme import colour, scaled

COLUMNS = (
    QT_TRANSLATE_NOOP("FileTreeModel", "Name"),
    QT_TRANSLATE_NOOP("FileTreeModel", "Contents"),
    QT_TRANSLATE_NOOP("FileTreeModel", "Bytes"),
    QT_TRANSLATE_NOOP("FileTreeModel", "Sharing / file"),
    QT_TRANSLATE_NOOP("FileTreeModel", "Statistics"),
)

translate = QCoreApplication.translate  # lupdate reads translate("Context", "text") calls
COLUMN_WIDTHS = (170, 130, 70, 230)  # at 100 %; the last column stretches
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

    def retranslate(self) -> None:
        """The headers and every row's words again, in the language now in force."""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(COLUMNS) - 1)
        self.layoutAboutToBeChanged.emit()
        self.layoutChanged.emit()

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
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(node, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(node, column)
        if role == Qt.ItemDataRole.DecorationRole and column == 0:
            return kind_icon(node.kind)
        if role == Qt.ItemDataRole.ForegroundRole and column in (0, 1):
            ink = kind_colour(node.kind)
            return QBrush(ink) if ink is not None else None
        plain_storage = node.tensor is not None and node.tensor.storage_id is not None
        if role == Qt.ItemDataRole.BackgroundRole and plain_storage:
            group = self.inspection.storages[node.tensor.storage_id]
            if len(group.members) > 1:
                return QBrush(colour("shared_background"))
            if group.wasted_bytes > 0:
                return QBrush(colour("waste_background"))
        if role == Qt.ItemDataRole.FontRole and column == 0 and node.kind != "tensor":
            return self._bold if node.children else None
        if role == Qt.ItemDataRole.TextAlignmentRole and column == 2:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _tooltip(self, node: Node, column: int) -> str:
        text = self._text(node, column)
        if column == 0:
            what = kind_word(node.kind) + (f" {node.class_name}" if node.class_name else "")
            tip = filled(translate("FileTreeModel", "%1: %2"), text, what)
            return f"{tip} — {node.danger}" if node.danger else tip
        return text

    def _text(self, node: Node, column: int) -> str:
        if column == 0:
            return quoted(node.name, 200, quote=False)
        if column == 1:
            return node_summary(node)
        if column == 2:
            return "" if node.kind in NO_BYTES else format_bytes(node.total_bytes)
        if column == 3:
            share = sharing_text(node, self.inspection)
            if not node.source:
                return share
            if share:
                return filled(translate("FileTreeModel", "%1; in %2"), share, node.source)
            return filled(translate("FileTreeModel", "in %1"), node.source)
        return self._statistics.get(node.access, "") if node.kind == "tensor" else ""

    def headerData(self, section: int, orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return translate("FileTreeModel", COLUMNS[section])
        return None


def file_tree_view(model: FileTreeModel) -> QTreeView:
    """The tree view the Files area shows the model in: rows of one height, several selectable."""
    tree = QTreeView()
    tree.setModel(model)
    tree.setUniformRowHeights(True)
    tree.setAlternatingRowColors(True)
    tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    header = tree.header()
    header.setStretchLastSection(True)
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    fit_to_zoom(tree)
    return tree


def fit_to_zoom(tree: QTreeView) -> None:
    """Badges and the starting column widths at the zoom in force (rows follow the font)."""
    tree.setIconSize(QSize(scaled(16), scaled(16)))
    for column, width in enumerate(COLUMN_WIDTHS):
        tree.header().resizeSection(column, scaled(width))


def expand_and_fit(tree: QTreeView, model: FileTreeModel) -> None:
    """Expand what core says starts expanded (long counters stay folded), then fit the Name,
    Contents and Sharing columns to what they show."""
    for node in expanded_by_default(model.inspection.root):
        tree.expand(model.index_of_node(node))
    header, width = tree.header(), tree.width()
    for column, least, share in ((0, 150, 0.4), (1, 130, 0.3)):
        wanted = tree.sizeHintForColumn(column) + scaled(24)
        header.resizeSection(column, max(scaled(least), min(wanted, int(width * share))))
    wanted = tree.sizeHintForColumn(3) + scaled(12)
    header.resizeSection(3, max(scaled(160), min(wanted, scaled(380))))

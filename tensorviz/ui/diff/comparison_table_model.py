"""The rows of a comparison: one per tensor pair (or tensor on one side only), under a header row
per layer that carries the layer's summary; sorted by relative change, largest first, and
filtered by status and by a part of the key. The model only arranges core's results."""

from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QBrush, QFont

from tensorviz.core.diff.comparison import Comparison, TensorPair
from tensorviz.core.diff.report import (
    appeared_texts,
    change_text,
    figure,
    pair_name,
    status_text,
    stored_in,
    weights_first,
)
from tensorviz.core.diff.summaries import LayerChange, layer_changes, layer_summary, percent
from tensorviz.core.files.text import joined
from tensorviz.ui.files.placeholders import filled
from tensorviz.ui.widgets.theme import colour

AnyIndex = QModelIndex | QPersistentModelIndex
COLUMNS = (
    QT_TRANSLATE_NOOP("ComparisonTableModel", "Key"),
    QT_TRANSLATE_NOOP("ComparisonTableModel", "Status"),
    "A",
    "B",
    "‖Δ‖/‖A‖",
    QT_TRANSLATE_NOOP("ComparisonTableModel", "max |Δ|"),
    QT_TRANSLATE_NOOP("ComparisonTableModel", "mean |Δ|"),
    QT_TRANSLATE_NOOP("ComparisonTableModel", "cosine"),
    QT_TRANSLATE_NOOP("ComparisonTableModel", "changed elements"),
    QT_TRANSLATE_NOOP("ComparisonTableModel", "what changed"),
)
COLUMN_WIDTHS = (250, 96, 104, 104, 72, 72, 72, 80, 120)  # at 100 %; the last one stretches
RELATIVE_COLUMN = 4
NUMBER_ALIGNMENT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
FILTERS = {  # name → (label, which pairs)
    "all": (QT_TRANSLATE_NOOP("ComparisonTableModel", "All"), lambda p: True),
    "changed": (
        QT_TRANSLATE_NOOP("ComparisonTableModel", "Changed"),
        lambda p: p.status == "changed",
    ),
    "unchanged": (
        QT_TRANSLATE_NOOP("ComparisonTableModel", "Unchanged"),
        lambda p: p.status == "unchanged",
    ),
    "only_a": (
        QT_TRANSLATE_NOOP("ComparisonTableModel", "Only in A"),
        lambda p: p.status == "only_a",
    ),
    "only_b": (
        QT_TRANSLATE_NOOP("ComparisonTableModel", "Only in B"),
        lambda p: p.status == "only_b",
    ),
    "renamed": (
        QT_TRANSLATE_NOOP("ComparisonTableModel", "Renamed"),
        lambda p: p.counts_as_rename,
    ),
    "not_compared": (
        QT_TRANSLATE_NOOP("ComparisonTableModel", "Not compared"),
        lambda p: p.status == "not_compared",
    ),
}
# a status's colour role: amber changed, red only in A, green only in B, grey not compared
STATUS_COLOURS = {"changed": "warning_text", "only_a": "error_text", "only_b": "ok_text",
                  "not_compared": "muted"}  # fmt: skip


@dataclass(frozen=True)
class _Row:
    layer: LayerChange
    pair: TensorPair | None = None  # None: the layer's header row


def _info_text(entry) -> str:
    return "—" if entry is None else entry.info.text()


def _below(name: str, layer: str) -> str:
    """'transformer.h.3.attn.weight' under its layer 'transformer.h.3': 'attn.weight'."""
    return name[len(layer) + 1 :] if name.startswith(layer + ".") else name


def _numeric(column: int) -> bool:
    return RELATIVE_COLUMN <= column <= 8


def _sort_value(pair: TensorPair, column: int):
    """What a column sorts by (numbers descending put the largest change first)."""
    values = pair.values
    numbers = {
        RELATIVE_COLUMN: pair.relative_change,
        5: values and values.max_abs,
        6: values and values.mean_abs,
        7: None if values is None or values.cosine is None else -values.cosine,
        8: values and values.changed,
    }
    if column in numbers:
        number = numbers[column]
        return -math.inf if number is None or math.isnan(number) else number
    return pair_name(pair) if column == 0 else status_text(pair)


class ComparisonTableModel(QAbstractTableModel):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.comparison: Comparison | None = None
        self._layers: list[LayerChange] = []
        self._rows: list[_Row] = []
        self._filter = "all"
        self._text = ""
        self._grouped = True
        self._sort_column = RELATIVE_COLUMN
        self._descending = True

    # --- what is shown ------------------------------------------------------------------------

    def set_comparison(self, comparison: Comparison | None) -> None:
        self.comparison = comparison
        self._layers = [] if comparison is None else layer_changes(comparison)
        self._arrange()

    def set_filter(self, name: str) -> None:
        self._filter = name
        self._arrange()

    def set_text_filter(self, text: str) -> None:
        self._text = text.strip().lower()
        self._arrange()

    def set_grouped(self, grouped: bool) -> None:
        self._grouped = grouped
        self._arrange()

    def sort(self, column: int, order=Qt.SortOrder.DescendingOrder) -> None:
        self._sort_column = column
        self._descending = order == Qt.SortOrder.DescendingOrder
        self._arrange()

    def retranslate(self) -> None:
        """Headers and cells again, in the language now in force."""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(COLUMNS) - 1)
        if self._rows:
            last = self.index(len(self._rows) - 1, len(COLUMNS) - 1)
            self.dataChanged.emit(self.index(0, 0), last)

    def counts(self) -> dict[str, int]:
        return {name: self.count(name) for name in FILTERS}

    def count(self, name: str) -> int:
        """How many pairs a filter lets through (shown beside its button)."""
        if self.comparison is None:
            return 0
        return sum(FILTERS[name][1](p) for p in self.comparison.pairs)

    def pair(self, row: int) -> TensorPair | None:
        return self._rows[row].pair if 0 <= row < len(self._rows) else None

    def header_rows(self) -> list[int]:
        """The rows that are layer headers (the view spans them over every column)."""
        return [i for i, row in enumerate(self._rows) if row.pair is None]

    def row_of_layer(self, name: str) -> int | None:
        return next((i for i, r in enumerate(self._rows) if r.layer.name == name), None)

    def _keeps(self, pair: TensorPair) -> bool:
        if not FILTERS[self._filter][1](pair):
            return False
        return not self._text or self._text in pair_name(pair).lower()

    def _ordered(self, pairs: list[TensorPair]) -> list[TensorPair]:
        """By the sort column, weights before an optimizer's state in either direction."""
        column = self._sort_column
        reverse = self._descending if _numeric(column) else not self._descending
        ordered = sorted(pairs, key=lambda p: _sort_value(p, column), reverse=reverse)
        return sorted(ordered, key=weights_first)  # stable: the column's order within each

    def _arrange(self) -> None:
        self.beginResetModel()
        self._rows = []
        if self._grouped:
            groups = [(layer, self._ordered([p for p in layer.pairs if self._keeps(p)]))
                      for layer in self._layers]  # fmt: skip
            groups = [(layer, pairs) for layer, pairs in groups if pairs]
            if _numeric(self._sort_column):  # the layer whose top row is largest first
                column = self._sort_column
                groups.sort(key=lambda g: _sort_value(g[1][0], column), reverse=self._descending)
            groups.sort(key=lambda g: weights_first(g[1][0]))  # weights, then optimizer state
            for layer, pairs in groups:
                self._rows.append(_Row(layer))
                self._rows += [_Row(layer, pair) for pair in pairs]
        else:
            by_pair = {id(p): layer for layer in self._layers for p in layer.pairs}
            pairs = [p for layer in self._layers for p in layer.pairs if self._keeps(p)]
            self._rows = [_Row(by_pair[id(p)], p) for p in self._ordered(pairs)]
        self.endResetModel()

    # --- QAbstractTableModel ------------------------------------------------------------------

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 — Qt's signature
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return QCoreApplication.translate("ComparisonTableModel", COLUMNS[section])
        return None

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row = self._rows[index.row()]
        if row.pair is None:
            return self._header_data(row.layer, index.column(), role)
        return self._pair_data(row, index.column(), role)

    def _header_data(self, layer: LayerChange, column: int, role: int):
        if role == Qt.ItemDataRole.DisplayRole and column == 0:
            relative = layer.relative
            text = layer_summary(layer.name, layer.pairs)
            if relative is None:
                return text
            whole = QCoreApplication.translate("ComparisonTableModel", "%1 · layer ‖Δ‖/‖A‖ %2")
            return filled(whole, text, percent(relative))
        if role == Qt.ItemDataRole.FontRole:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.BackgroundRole:
            return QBrush(colour("surface_alt"))
        return None

    def _pair_data(self, row: _Row, column: int, role: int):
        pair = row.pair
        if role == Qt.ItemDataRole.DisplayRole and column == 0 and self._grouped:
            return "    " + _below(pair_name(pair), row.layer.name)  # the header names the layer
        if role == Qt.ItemDataRole.DisplayRole:
            return self._cell(pair, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            lines = [pair_name(pair), status_text(pair), stored_in(pair), change_text(pair),
                     *pair.notes]  # fmt: skip
            return "\n".join(line for line in lines if line)
        if role == Qt.ItemDataRole.ForegroundRole and column in (0, 1):
            role_name = STATUS_COLOURS.get(pair.status)
            return QBrush(colour(role_name)) if role_name else None
        if role == Qt.ItemDataRole.TextAlignmentRole and 4 <= column <= 8:
            return NUMBER_ALIGNMENT
        return None

    def _cell(self, pair: TensorPair, column: int) -> str:
        values = pair.values
        if column == 0:
            return pair_name(pair)
        if column == 1:
            return status_text(pair)
        if column in (2, 3):
            return _info_text(pair.a if column == 2 else pair.b)
        if column == 9:
            words = pair.facts_changed() + (appeared_texts(values) if values is not None else [])
            return joined(words + pair.notes[:1])
        if values is None:
            return ""
        if column == RELATIVE_COLUMN:
            return percent(values.relative)
        if column == 7:
            return "—" if values.cosine is None else f"{values.cosine:.6f}"
        if column == 8:
            return f"{values.changed:,} ({percent(values.changed_fraction)})"
        return figure(values.max_abs if column == 5 else values.mean_abs)

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

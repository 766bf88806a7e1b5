"""The Compare area's filter bar: which pairs to show (all, changed, only in A, … with how many
each), grouped by layer or not, and a part of the key to look for."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QToolButton,
    QWidget,
)

from tensorviz.ui.diff.comparison_table_model import FILTERS
from tensorviz.ui.files.placeholders import filled
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import scaled


class ComparisonFilters(Retranslating, QWidget):
    filter_chosen = Signal(str)  # a name of FILTERS
    grouping_changed = Signal(bool)
    text_changed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.counts: dict[str, int] | None = None  # None: nothing compared yet
        self.group = QButtonGroup(self)
        self.group.setExclusive(True)
        self.buttons: dict[str, QToolButton] = {}
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.show_label = QLabel()
        layout.addWidget(self.show_label)
        for name in FILTERS:
            button = QToolButton()
            button.setCheckable(True)
            button.setChecked(name == "all")
            button.clicked.connect(lambda _=False, n=name: self.filter_chosen.emit(n))
            self.group.addButton(button)
            self.buttons[name] = button
            button.setVisible(name != "not_compared")  # shown when some pair was not compared
            layout.addWidget(button)
        self.group_box = QCheckBox()
        self.group_box.setChecked(True)
        self.group_box.toggled.connect(self.grouping_changed)
        self.search = QLineEdit()
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self.text_changed)
        layout.addSpacing(12)
        layout.addWidget(self.group_box)
        layout.addStretch(1)
        layout.addWidget(self.search)
        self.restyle()
        self.retranslate()

    def retranslate(self) -> None:
        self.show_label.setText(self.tr("Show"))
        self.group_box.setText(self.tr("Group by layer"))
        self.search.setPlaceholderText(self.tr("Filter keys… (Ctrl+F)"))
        for name, button in self.buttons.items():
            label = QCoreApplication.translate("ComparisonTableModel", FILTERS[name][0])
            if self.counts is not None:
                label = filled(self.tr("%1 (%2)"), label, self.counts[name])
            button.setText(label)

    def restyle(self) -> None:
        self.search.setMinimumWidth(scaled(200))

    def set_counts(self, counts: dict[str, int]) -> None:
        """How many pairs each filter lets through (the 'not compared' one shows only if any)."""
        self.counts = counts
        for name, button in self.buttons.items():
            button.setVisible(name != "not_compared" or counts[name] > 0)
        self.retranslate()

    def choose(self, name: str) -> None:
        self.buttons[name].setChecked(True)

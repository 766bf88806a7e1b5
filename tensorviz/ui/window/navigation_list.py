"""The list of areas down the left of the window: icons with titles, or icons alone when the
window is narrow, so the areas keep the width they need on small screens."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QWidget

WIDE, COMPACT = 176, 58  # px
COMPACT_BELOW = 1100  # window width under which only the icons are shown
TITLE_ROLE = Qt.ItemDataRole.UserRole + 1


class NavigationList(QListWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("navigation")
        self.setIconSize(QSize(28, 28))
        self.setFixedWidth(WIDE)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.compact = False

    def add_area(self, icon: QIcon, key: str, title: str, tagline: str) -> None:
        item = QListWidgetItem(icon, title)
        item.setData(Qt.ItemDataRole.UserRole, key)
        item.setData(TITLE_ROLE, title)
        item.setToolTip(f"{title} — {tagline}")
        self.addItem(item)

    def titles(self) -> list[str]:
        return [self.item(row).data(TITLE_ROLE) for row in range(self.count())]

    def fit_window_width(self, window_width: int) -> None:
        compact = window_width < COMPACT_BELOW
        if compact == self.compact:
            return
        self.compact = compact
        self.setFixedWidth(COMPACT if compact else WIDE)
        for row in range(self.count()):
            item = self.item(row)
            item.setText("" if compact else item.data(TITLE_ROLE))

"""The list of areas down the left of the window: icons with titles, or icons alone when the
window is too narrow for both the titles and an area, so the areas keep the width they need on
small screens and at a projector's zoom.

Its width follows its titles in the font in force (Chinese titles are shorter, 200 % zoom
doubles them) and makes room for a scroll bar when the items are taller than the window."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QStyle, QWidget

from tensorviz.ui.widgets.theme import scaled

ICON = 28  # px at 100 %
ITEM_PADDING = 8 + 8 + 3 + 6  # px at 100 %: the stylesheet's left/right padding, mark, spacing
TRAILING = 14  # px at 100 %: room after the longest title
COMPACT = 58  # px at 100 %: an icon with its padding
MIN_AREA_WIDTH = 880  # px at 100 %: below this much room beside the titles, icons only
TITLE_ROLE = Qt.ItemDataRole.UserRole + 1


class NavigationList(QListWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("navigation")
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.compact = False
        self._window_width = 0
        self.setIconSize(QSize(scaled(ICON), scaled(ICON)))
        self.setFixedWidth(self.wide_width())

    def add_area(self, icon: QIcon, key: str, title: str, tagline: str) -> None:
        item = QListWidgetItem(icon, "")
        item.setData(Qt.ItemDataRole.UserRole, key)
        self.addItem(item)
        self.set_texts(self.count() - 1, title, tagline)

    def set_texts(self, row: int, title: str, tagline: str) -> None:
        """The row's title and tooltip in the language in force (on a language change too)."""
        item = self.item(row)
        item.setData(TITLE_ROLE, title)
        item.setText("" if self.compact else title)
        item.setToolTip(f"{title} — {tagline}")
        self.refit()

    def titles(self) -> list[str]:
        return [self.item(row).data(TITLE_ROLE) for row in range(self.count())]

    def wide_width(self) -> int:
        """Icon, padding and the longest title, in the list's font (the stylesheet's, zoomed)."""
        self.ensurePolished()
        metrics = self.fontMetrics()
        longest = max((metrics.horizontalAdvance(t) for t in self.titles() if t), default=0)
        return scaled(ICON + ITEM_PADDING + TRAILING) + longest

    def fit_window_width(self, window_width: int) -> None:
        self._window_width = window_width
        self.refit()

    def refit(self) -> None:
        """Titles or icons only, and the width for them: after a resize, a zoom, a language."""
        self.setIconSize(QSize(scaled(ICON), scaled(ICON)))
        wide = self.wide_width()
        compact = bool(self._window_width) and self._window_width < wide + scaled(MIN_AREA_WIDTH)
        if compact != self.compact:
            self.compact = compact
            for row in range(self.count()):
                item = self.item(row)
                item.setText("" if compact else item.data(TITLE_ROLE))
        width = scaled(COMPACT) if compact else wide
        self.setFixedWidth(width + self._scroll_bar_room())

    def _scroll_bar_room(self) -> int:
        """A vertical scroll bar takes its width from the items: add it when the list needs it."""
        rows = sum(self.sizeHintForRow(row) for row in range(self.count()))
        if self.count() and rows + scaled(8) > self.viewport().height() > 0:
            return self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, self)
        return 0

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if event.size().height() != event.oldSize().height():
            self.refit()

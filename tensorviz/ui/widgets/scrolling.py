"""A frameless scroll area around a widget, the way every area wraps content that may not fit."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QScrollArea, QWidget


def scrolling(widget: QWidget, direction: Qt.Orientation | None = None) -> QScrollArea:
    """A frameless, resizable scroll area around `widget`; with `direction`, it scrolls only that
    way (the other scroll bar is never shown)."""
    scroll = QScrollArea()
    scroll.setWidget(widget)
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QScrollArea.Shape.NoFrame)
    off = Qt.ScrollBarPolicy.ScrollBarAlwaysOff
    if direction == Qt.Orientation.Vertical:
        scroll.setHorizontalScrollBarPolicy(off)
    elif direction == Qt.Orientation.Horizontal:
        scroll.setVerticalScrollBarPolicy(off)
    return scroll


class _WithinView(QObject):
    """Keeps a widget of a scroll area's content no wider than the area's visible part."""

    def __init__(self, scroll: QScrollArea, widget: QWidget) -> None:
        super().__init__(scroll)
        self.widget = widget
        scroll.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.Resize:
            self.widget.setMaximumWidth(max(1, watched.width()))
        return False


def keep_within_view(scroll: QScrollArea, widget: QWidget) -> None:
    """`widget`, one part of `scroll`'s content, is laid out no wider than what the area shows,
    while the rest of the content may be wider and scroll sideways: an error card above a wide
    table wraps its sentences in the visible column instead of running off its right edge (at
    200 % zoom its Copy and ✕ buttons were out of sight)."""
    _WithinView(scroll, widget)

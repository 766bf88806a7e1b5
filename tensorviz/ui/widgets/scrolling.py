"""A frameless scroll area around a widget, the way every area wraps content that may not fit."""

from __future__ import annotations

from PySide6.QtCore import Qt
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

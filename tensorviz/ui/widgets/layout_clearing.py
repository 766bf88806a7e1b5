"""Emptying a Qt layout whose widgets are rebuilt (grids of labels, rows of buttons)."""

from __future__ import annotations

from PySide6.QtWidgets import QLayout


def clear_layout(layout: QLayout) -> None:
    """Remove every item; widgets are hidden at once (deleteLater only frees them when the event
    loop next runs, and until then the old and new texts would be painted over each other)."""
    while layout.count():
        item = layout.takeAt(0)
        widget = item.widget()
        if widget is not None:
            widget.hide()
            widget.deleteLater()
        elif item.layout() is not None:
            clear_layout(item.layout())

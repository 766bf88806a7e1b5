"""The Workbench's widgets restyle when View → Theme or View → Zoom changes.

The window's Appearance (ui/window/appearance.py) is found by its object name rather than
imported: ui/window composes the areas, so an area importing it would close an import circle.
The window makes it before it builds any area; a Workbench shown without a window (a test of one
panel) has none, and nothing changes its theme or zoom."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject

APPEARANCE_NAME = "tensorviz_appearance"  # Appearance.shared()'s object name


def on_appearance_changed(slot: Callable[[], None]) -> bool:
    """Call `slot` after every change of theme or zoom; False when there is no Appearance."""
    app = QCoreApplication.instance()
    appearance = app.findChild(QObject, APPEARANCE_NAME) if app is not None else None
    if appearance is None:
        return False
    appearance.changed.connect(slot)
    return True

"""A push button with its keyboard shortcut, active while focus is inside the owning panel (so
two areas can give Esc or F5 their own meaning), and named in the button's tooltip."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QPushButton, QWidget


def shortcut_button(owner: QWidget, text: str, shortcut: str, slot) -> QPushButton:
    button = QPushButton(text)
    action = QAction(text, owner)
    action.setShortcut(QKeySequence(shortcut))
    action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    action.triggered.connect(lambda _=False: button.isEnabled() and slot())
    owner.addAction(action)
    button.setToolTip(f"{text} ({QKeySequence(shortcut).toString()})")
    button.clicked.connect(lambda _=False: slot())
    return button

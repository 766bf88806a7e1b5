"""A push button with its keyboard shortcut, active while focus is inside the owning panel (so
two areas can give Esc or F5 their own meaning), and named in the button's tooltip."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QPushButton, QWidget


def shortcut_button(owner: QWidget, text: str, shortcut: str, slot) -> QPushButton:
    button = QPushButton()
    action = QAction(owner)
    action.setShortcut(QKeySequence(shortcut))
    action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    action.triggered.connect(lambda _=False: button.isEnabled() and slot())
    owner.addAction(action)
    button.shortcut_action = action  # (retitle_shortcut_button renames both)
    button.clicked.connect(lambda _=False: slot())
    retitle_shortcut_button(button, text)
    return button


def retitle_shortcut_button(button: QPushButton, text: str) -> None:
    """The button's text (e.g. in another language) and its tooltip, which names the shortcut
    as the platform writes it."""
    action = button.shortcut_action
    button.setText(text)
    action.setText(text)
    keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
    button.setToolTip(f"{text} ({keys})")

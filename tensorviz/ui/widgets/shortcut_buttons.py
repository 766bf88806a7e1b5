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
    button.shortcut_action = action
    button.clicked.connect(lambda _=False: slot())
    set_shortcut_button_text(button, text)
    return button


def set_shortcut_button_text(button: QPushButton, text: str) -> None:
    """The button's words (again, in another language): on the button, its action and its tooltip
    (the shortcut is named the way Qt names it in the language in force)."""
    action = button.shortcut_action
    button.setText(text)
    action.setText(text)
    shortcut = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
    button.setToolTip(f"{text} ({shortcut})")

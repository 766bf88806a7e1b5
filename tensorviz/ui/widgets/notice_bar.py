"""A dismissable strip across the top of the window for messages that must not block
(a missing file on the command line, a recent file that has gone). The messages come in the
language they were made in; the strip's own words follow View → Language."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QWidget

from tensorviz.ui.widgets.retranslating import Retranslating


class NoticeBar(Retranslating, QFrame):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("noticeBar")
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.PlainText)  # (paths and torch's words as they are)
        self.close_button = QToolButton()
        self.close_button.setText("✕")
        self.close_button.setAutoRaise(True)
        self.close_button.clicked.connect(self.dismiss)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 6, 6, 6)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.close_button)
        self.retranslate()
        self.hide()

    def retranslate(self) -> None:
        self.close_button.setToolTip(self.tr("Dismiss"))

    def show_messages(self, messages: list[str]) -> None:
        self.label.setText("\n".join(messages))
        self.show()

    def dismiss(self) -> None:
        self.label.clear()
        self.hide()

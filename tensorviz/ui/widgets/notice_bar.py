"""A dismissable strip across the top of the window for messages that must not block
(a missing file on the command line, a recent file that has gone)."""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QWidget


class NoticeBar(QFrame):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("noticeBar")
        self.label = QLabel()
        self.label.setWordWrap(True)
        close = QToolButton()
        close.setText("✕")
        close.setToolTip("Dismiss")
        close.setAutoRaise(True)
        close.clicked.connect(self.dismiss)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 6, 6, 6)
        layout.addWidget(self.label, 1)
        layout.addWidget(close)
        self.hide()

    def show_messages(self, messages: list[str]) -> None:
        self.label.setText("\n".join(messages))
        self.show()

    def dismiss(self) -> None:
        self.label.clear()
        self.hide()

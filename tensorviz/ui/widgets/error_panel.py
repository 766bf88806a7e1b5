"""Shows an ExplainedError: torch's own words, then why, then the fix a teacher would give."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from tensorviz.core.explain.errors import ExplainedError


class ErrorPanel(QFrame):
    def __init__(
        self, parent: QWidget | None = None, footer: str = "Nothing in the workspace was changed."
    ) -> None:
        super().__init__(parent)
        self.setObjectName("errorPanel")
        self.footer = footer
        self.explained: ExplainedError | None = None
        self.title = QLabel()
        self.title.setObjectName("errorTitle")
        self.title.setWordWrap(True)
        self.body = QLabel()
        self.body.setWordWrap(True)
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        copy = QToolButton()
        copy.setText("Copy")
        copy.setToolTip("Copy the message and its explanation")
        copy.clicked.connect(self._on_copy_clicked)
        close = QToolButton()
        close.setText("✕")
        close.setToolTip("Dismiss")
        close.clicked.connect(self.clear)
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(copy)
        top.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.body)
        self.hide()

    def show_error(self, explained: ExplainedError) -> None:
        self.explained = explained
        self.title.setText(explained.title)
        parts = []
        if explained.torch_message:
            parts.append(
                "<p><b>torch says</b><br><span style='font-family:monospace; color:#b42318'>"
                f"{escape(explained.torch_message).replace(chr(10), '<br>')}</span></p>"
            )
        parts.append(f"<p><b>Why</b><br>{escape(explained.explanation)}</p>")
        parts.append(f"<p><b>Fix</b><br>{escape(explained.fix)}</p>")
        if self.footer:
            parts.append(f"<p style='color:#6b7280'>{escape(self.footer)}</p>")
        self.body.setText("".join(parts))
        self.show()

    def clear(self) -> None:
        self.explained = None
        self.hide()

    def _on_copy_clicked(self) -> None:
        if self.explained is not None:
            QGuiApplication.clipboard().setText(self.explained.text())

"""Shows an ExplainedError: torch's own words (verbatim, never translated; NumPy's or pandas' for
their errors, headed with whose they are), then why, then the fix a teacher would give — the
explanation in the language it was made in (core builds it when the error happens), the headings
in the language in force, the colours of the theme in force."""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from tensorviz.core.explain.errors import ExplainedError
from tensorviz.ui.widgets.retranslating import Retranslating


def _paragraphs(text: str) -> str:
    return escape(text).replace("\n", "<br>")


class ErrorPanel(Retranslating, QFrame):
    def __init__(
        self, parent: QWidget | None = None, footer: str | Callable[[], str] | None = None
    ) -> None:
        """`footer`: the line under the fix — None: "Nothing in the workspace was changed."; "":
        none; a callable: asked on every language change (`lambda: self.tr("...")`)."""
        super().__init__(parent)
        self.setObjectName("errorPanel")
        self.footer = footer
        self.explained: ExplainedError | None = None
        self.title = QLabel()
        self.title.setObjectName("errorTitle")
        self.title.setWordWrap(True)
        self.torch_heading = QLabel()
        self.torch_message = QLabel()  # torch's own words: shown as torch wrote them
        self.torch_message.setObjectName("torchMessage")
        self.torch_message.setProperty("verbatim", True)
        self.torch_message.setWordWrap(True)
        self.torch_message.setTextFormat(Qt.TextFormat.PlainText)
        self.body = QLabel()
        self.body.setWordWrap(True)
        self.footer_label = QLabel()
        self.footer_label.setObjectName("errorFooter")
        self.footer_label.setWordWrap(True)
        for label in (self.torch_message, self.body):
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.copy_button = QToolButton()
        self.copy_button.clicked.connect(self._on_copy_clicked)
        self.close_button = QToolButton()
        self.close_button.setText("✕")
        self.close_button.clicked.connect(self.clear)
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.copy_button)
        top.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.torch_heading)
        layout.addWidget(self.torch_message)
        layout.addWidget(self.body)
        layout.addWidget(self.footer_label)
        self.retranslate()
        self.hide()

    def retranslate(self) -> None:
        self.copy_button.setText(self.tr("Copy"))
        self.copy_button.setToolTip(self.tr("Copy the message and its explanation"))
        self.close_button.setToolTip(self.tr("Dismiss"))
        self._render()

    def show_error(self, explained: ExplainedError) -> None:
        self.explained = explained
        self._render()
        self.show()

    def _render(self) -> None:
        explained = self.explained
        if explained is None:
            return
        self.title.setText(explained.title)
        has_message = bool(explained.torch_message)
        if explained.said_by == "torch":
            says = self.tr("torch says")
        else:  # NumPy's, pandas', the user's own: whose words they are
            says = self.tr("%1 says").replace("%1", explained.speaker)
        self.torch_heading.setText(f"<b>{escape(says)}</b>")
        self.torch_heading.setVisible(has_message)
        self.torch_message.setVisible(has_message)
        self.torch_message.setText(explained.torch_message or "")
        why, fix = escape(self.tr("Why")), escape(self.tr("Fix"))
        body = f"<p><b>{why}</b><br>{_paragraphs(explained.explanation)}</p>"
        if explained.fix:  # an error nobody's rule knows has none
            body += f"<p><b>{fix}</b><br>{_paragraphs(explained.fix)}</p>"
        self.body.setText(body)
        footer = self.footer() if callable(self.footer) else self.footer
        if footer is None:
            footer = self.tr("Nothing in the workspace was changed.")
        self.footer_label.setText(footer)
        self.footer_label.setVisible(bool(footer))

    def clear(self) -> None:
        self.explained = None
        self.hide()

    def _on_copy_clicked(self) -> None:
        if self.explained is not None:
            QGuiApplication.clipboard().setText(self.explained.text())

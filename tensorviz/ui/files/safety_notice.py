"""What torch's own loaders would do with the file shown: in red, the calls a plain torch.load
would make (tensorviz made none); otherwise what weights_only=True refuses, with a button that
copies the `torch.serialization.safe_globals([...])` lines that load the file in the user's code.
The words come from core (FileInspection.safety_sentences), the same as the CLI prints, made
again when the language changes; the frame's colours are the theme's (app.qss, by severity)."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QWidget,
)

from tensorviz.core.files.inspection import FileInspection
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import colour


class SafetyNotice(Retranslating, QFrame):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("safetyNotice")
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)  # no taller
        self.inspection: FileInspection | None = None
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.scroll = QScrollArea()  # a long list of refused globals scrolls, the tree keeps room
        self.scroll.setWidget(self.text)
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.viewport().setAutoFillBackground(False)  # the frame's colour shows through
        self.scroll.viewport().installEventFilter(self)
        self.text.setAutoFillBackground(False)
        self.copy_button = QPushButton()
        self.copy_button.clicked.connect(self._on_copy_clicked)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.addWidget(self.scroll, 1)
        layout.addWidget(self.copy_button, 0, Qt.AlignmentFlag.AlignTop)
        self.code: str | None = None
        self.hide()
        self.retranslate()

    def retranslate(self) -> None:
        self.copy_button.setText(self.tr("Copy loading code"))
        self.copy_button.setToolTip(
            self.tr("Copy the torch.serialization.safe_globals lines that load this file")
        )
        self.show_inspection(self.inspection)

    def restyle(self) -> None:
        """The red of the heading is the theme's (the frame follows app.qss by itself)."""
        self.show_inspection(self.inspection)

    def show_inspection(self, inspection: FileInspection | None) -> None:
        self.inspection = inspection
        sentences = inspection.safety_sentences(with_code=False) if inspection else []
        if not sentences:
            self.text.clear()  # no stale words of another file (or language) left behind
            self.code = None
            self.hide()
            return
        runs = bool(inspection.calls)
        self.setProperty("severity", "calls" if runs else "refused")
        self.style().unpolish(self)
        self.style().polish(self)
        self.code = inspection.safety.safe_globals_code(inspection.path)
        self.copy_button.setVisible(self.code is not None)
        lines = [escape(sentence) for sentence in sentences]
        red = colour("error_text").name()
        heading = escape(self.tr("Calls listed in red were never made."))
        head = f"<b style='color:{red}'>{heading}</b> " if runs else ""
        self.text.setText(head + "<br>".join(lines))
        self.show()
        self._fit_height()

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt override)
        if watched is self.scroll.viewport() and event.type() == QEvent.Type.Resize:
            self._fit_height()  # the text's height follows the width it is given
        return super().eventFilter(watched, event)

    def _fit_height(self) -> None:
        """As tall as its text, at most four lines at the zoom in force (then it scrolls)."""
        most = 4 * self.text.fontMetrics().lineSpacing() + 4
        needed = self.text.heightForWidth(max(self.scroll.viewport().width(), 1))
        self.scroll.setFixedHeight(min(max(needed, self.text.fontMetrics().lineSpacing()), most))

    def _on_copy_clicked(self) -> None:
        if self.code:
            QGuiApplication.clipboard().setText(self.code)

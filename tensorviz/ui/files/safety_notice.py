"""What torch's own loaders would do with the file shown: in red, the calls a plain torch.load
would make (tensorviz made none); otherwise what weights_only=True refuses, with a button that
copies the `torch.serialization.safe_globals([...])` lines that load the file in the user's code.
The words come from core (FileInspection.safety_sentences), the same as the CLI prints."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from tensorviz.core.files.inspection import FileInspection

CALLS_STYLE = "QFrame#safetyNotice { background: #fef2f2; border: 1px solid #fca5a5; }"
REFUSED_STYLE = "QFrame#safetyNotice { background: #fffbeb; border: 1px solid #fcd34d; }"


class SafetyNotice(QFrame):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("safetyNotice")
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.copy_button = QPushButton(self.tr("Copy loading code"))
        self.copy_button.setToolTip(
            self.tr("Copy the torch.serialization.safe_globals lines that load this file")
        )
        self.copy_button.clicked.connect(self._on_copy_clicked)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.copy_button, 0, Qt.AlignmentFlag.AlignTop)
        self.code: str | None = None
        self.hide()

    def show_inspection(self, inspection: FileInspection | None) -> None:
        sentences = inspection.safety_sentences(with_code=False) if inspection else []
        if not sentences:
            self.hide()
            return
        runs = bool(inspection.calls)
        self.setStyleSheet(CALLS_STYLE if runs else REFUSED_STYLE)
        self.code = inspection.safety.safe_globals_code(inspection.path)
        self.copy_button.setVisible(self.code is not None)
        lines = [escape(sentence) for sentence in sentences]
        head = (
            f"<b style='color:#b91c1c'>{self.tr('Calls listed in red were never made.')}</b> "
            if runs
            else ""
        )
        self.text.setText(head + "<br>".join(lines))
        self.show()

    def _on_copy_clicked(self) -> None:
        if self.code:
            QGuiApplication.clipboard().setText(self.code)

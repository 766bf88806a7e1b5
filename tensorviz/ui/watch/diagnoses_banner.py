"""The diagnoses of a run as a banner over the heatmap: one line each, its title (the figures
and the remedy in its tooltip); a click shows the figures and the remedy under the lines and
jumps the heatmap to that step and layer. The texts come from core/watch/diagnoses.py, in the
language in force there."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from tensorviz.ui.widgets.layout_clearing import clear_layout
from tensorviz.ui.widgets.retranslating import Retranslating

SHOWN = 4  # at most this many lines; the rest are counted


def diagnosis_line(diagnosis) -> str:
    return getattr(diagnosis, "title", "") or getattr(diagnosis, "kind", "")


def explanation(diagnosis) -> str:
    """The figures and the remedy, for the tooltip and the line under the chosen diagnosis."""
    remedy = (getattr(diagnosis, "remedy", "") or "").strip()
    detail = (getattr(diagnosis, "detail", "") or "").strip()
    return "\n".join(t for t in (detail, remedy) if t)


class DiagnosesBanner(Retranslating, QFrame):
    diagnosis_chosen = Signal(object)  # a Diagnosis (kind, step, row, names, title, ...)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("noticeBar")
        self.diagnoses: list = []
        self.buttons: list[QPushButton] = []
        self.more = QLabel()
        self.chosen = QLabel()
        self.lines = QVBoxLayout(self)
        self.lines.setContentsMargins(8, 4, 8, 4)
        self.lines.setSpacing(2)
        self.hide()

    def show_diagnoses(self, diagnoses: list) -> None:
        if [diagnosis_line(d) for d in diagnoses] == [diagnosis_line(d) for d in self.diagnoses]:
            self.diagnoses = list(diagnoses)
            return
        self.diagnoses = list(diagnoses)
        clear_layout(self.lines)
        self.buttons = []
        for diagnosis in self.diagnoses[:SHOWN]:
            button = QPushButton(diagnosis_line(diagnosis))
            button.setFlat(True)
            button.setCursor(Qt.CursorShape.PointingHandCursor)
            button.setStyleSheet("text-align: left; padding: 1px 2px; font-weight: bold;")
            button.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
            button.setToolTip(explanation(diagnosis))
            button.clicked.connect(lambda _=False, d=diagnosis: self._on_clicked(d))
            self.lines.addWidget(button)
            self.buttons.append(button)
        self.more = QLabel()
        self.more.setObjectName("hint")
        self.lines.addWidget(self.more)
        self.chosen = QLabel()
        self.chosen.setWordWrap(True)
        self.chosen.setTextFormat(Qt.TextFormat.PlainText)
        self.chosen.hide()
        self.lines.addWidget(self.chosen)
        self.retranslate()
        self.setVisible(bool(self.diagnoses))

    def _on_clicked(self, diagnosis) -> None:
        self.chosen.setText(explanation(diagnosis))
        self.chosen.setVisible(bool(self.chosen.text()))
        self.diagnosis_chosen.emit(diagnosis)

    def retranslate(self) -> None:
        hidden = len(self.diagnoses) - SHOWN
        self.more.setVisible(hidden > 0)
        if hidden > 0:
            self.more.setText(self.tr("and %n more", "", hidden))
        for button in self.buttons:
            button.setAccessibleDescription(self.tr("Show this step and layer in the heatmap"))

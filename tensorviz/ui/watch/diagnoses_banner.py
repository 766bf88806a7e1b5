"""The diagnoses of a run as a banner over the heatmap: one line each (its title and what was
found), the remedy in the tooltip; a click jumps the heatmap to that step and layer. The texts
come from core/watch/diagnoses.py in the language in force there."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QLabel, QPushButton, QVBoxLayout, QWidget

from tensorviz.ui.widgets.layout_clearing import clear_layout
from tensorviz.ui.widgets.retranslating import Retranslating

SHOWN = 4  # at most this many lines; the rest are counted


def diagnosis_line(diagnosis) -> str:
    detail = (getattr(diagnosis, "detail", "") or "").strip().splitlines()
    title = getattr(diagnosis, "title", "") or getattr(diagnosis, "kind", "")
    return f"{title} — {detail[0]}" if detail else title


class DiagnosesBanner(Retranslating, QFrame):
    diagnosis_chosen = Signal(object)  # a Diagnosis (kind, step, row, names, title, ...)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("noticeBar")
        self.diagnoses: list = []
        self.buttons: list[QPushButton] = []
        self.more = QLabel()
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
            button.setStyleSheet("text-align: left; padding: 1px 2px;")
            remedy = (getattr(diagnosis, "remedy", "") or "").strip()
            detail = (getattr(diagnosis, "detail", "") or "").strip()
            button.setToolTip("\n\n".join(t for t in (detail, remedy) if t))
            button.clicked.connect(lambda _=False, d=diagnosis: self.diagnosis_chosen.emit(d))
            self.lines.addWidget(button)
            self.buttons.append(button)
        self.more = QLabel()
        self.more.setObjectName("hint")
        self.lines.addWidget(self.more)
        self.retranslate()
        self.setVisible(bool(self.diagnoses))

    def retranslate(self) -> None:
        hidden = len(self.diagnoses) - SHOWN
        self.more.setVisible(hidden > 0)
        if hidden > 0:
            self.more.setText(self.tr("and %n more", "", hidden))
        for button in self.buttons:
            button.setAccessibleDescription(self.tr("Show this step and layer in the heatmap"))

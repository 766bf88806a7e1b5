"""The diagnoses of a run as a banner over the heatmap: one line each, its title (the figures
and the remedy in its tooltip); a click shows the figures and the remedy under the lines and
jumps the heatmap to that step and layer. The texts come from core/watch/diagnoses.py, in the
language in force there."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout, QWidget

from tensorviz.ui.widgets.layout_clearing import clear_layout
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import colour

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
        self.links: list[QLabel] = []
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
        self.links = []
        for index, diagnosis in enumerate(self.diagnoses[:SHOWN]):
            # A link in a label that wraps (a button's text is cut at 200 % zoom).
            style = f"color:{colour('text').name()}; text-decoration:none"
            title = escape(diagnosis_line(diagnosis))
            link = QLabel(f"<a href='{index}' style='{style}'><b>{title}</b></a>")
            link.setTextFormat(Qt.TextFormat.RichText)
            link.setWordWrap(True)
            link.setCursor(Qt.CursorShape.PointingHandCursor)
            link.setToolTip(explanation(diagnosis))
            link.linkActivated.connect(lambda _href, d=diagnosis: self._on_clicked(d))
            self.lines.addWidget(link)
            self.links.append(link)
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

    def choose(self, index: int) -> None:
        """What a click on the index-th line does."""
        self._on_clicked(self.diagnoses[index])

    def _on_clicked(self, diagnosis) -> None:
        self.chosen.setText(explanation(diagnosis))
        self.chosen.setVisible(bool(self.chosen.text()))
        self.diagnosis_chosen.emit(diagnosis)

    def retranslate(self) -> None:
        hidden = len(self.diagnoses) - SHOWN
        self.more.setVisible(hidden > 0)
        if hidden > 0:
            self.more.setText(self.tr("and %n more", "", hidden))
        for link in self.links:
            link.setAccessibleDescription(self.tr("Show this step and layer in the heatmap"))

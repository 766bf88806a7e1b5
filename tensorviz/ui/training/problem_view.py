"""A stopped run explained (ErrorPanel: torch's words or the divergence, why, the fix) with one
button per remedy, which applies it (lower lr, normalise x, clip gradients, use no_grad)."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from tensorviz.core.explain.errors import ExplainedError
from tensorviz.core.training.trainer import Remedy
from tensorviz.ui.widgets.error_panel import ErrorPanel
from tensorviz.ui.widgets.layout_clearing import clear_layout
from tensorviz.ui.widgets.retranslating import Retranslating


class ProblemView(Retranslating, QScrollArea):
    """Scrolls when a small window cannot show all of it, so the plots below keep their room."""

    remedy_chosen = Signal(str)  # Remedy.key

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.error_panel = ErrorPanel(footer="")  # the run's own state is shown beside it
        self.buttons: dict[str, QPushButton] = {}
        self._apply_label: QLabel | None = None
        self._bar = QGridLayout()
        inner = QWidget()
        layout = QVBoxLayout(inner)
        layout.setContentsMargins(0, 0, 0, 4)
        layout.addWidget(self.error_panel)
        layout.addLayout(self._bar)
        layout.addStretch(1)  # extra height stays below the buttons, never between them
        self.setWidget(inner)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setMinimumHeight(6 * self.fontMetrics().lineSpacing())
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self.hide()

    def sizeHint(self) -> QSize:  # noqa: N802 — Qt override: all of it, when there is room
        inner = self.widget()
        hint = inner.sizeHint()
        height = inner.heightForWidth(self.viewport().width()) if self.isVisible() else -1
        return QSize(hint.width(), (height if height > 0 else hint.height()) + 2)

    def resizeEvent(self, event) -> None:  # noqa: N802 — Qt override
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.updateGeometry()  # wrapped text needs another height at another width

    def show_problem(self, explained: ExplainedError, remedies: tuple[Remedy, ...]) -> None:
        self.error_panel.show_error(explained)
        self._clear_buttons()
        if remedies:
            self._apply_label = QLabel()
            self._bar.addWidget(self._apply_label, 0, 0, 1, 2)
            self.retranslate()
        for number, remedy in enumerate(remedies):  # two a row, so a narrow window still fits
            button = QPushButton(remedy.label)
            button.setToolTip(remedy.explanation)
            button.clicked.connect(lambda _=False, key=remedy.key: self.remedy_chosen.emit(key))
            self._bar.addWidget(button, 1 + number // 2, number % 2)
            self.buttons[remedy.key] = button
        self._bar.setColumnStretch(2, 1)
        self.show()

    def retranslate(self) -> None:
        if self._apply_label is not None:
            self._apply_label.setText(self.tr("Apply and train again:"))

    def clear(self) -> None:
        self.error_panel.clear()
        self._clear_buttons()
        self.hide()

    def _clear_buttons(self) -> None:
        clear_layout(self._bar)
        self.buttons = {}
        self._apply_label = None

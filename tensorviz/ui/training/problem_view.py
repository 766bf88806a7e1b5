"""A stopped run explained (ErrorPanel: torch's words or the divergence, why, the fix) with one
button per remedy, which applies it (lower lr, normalise x, clip gradients, use no_grad)."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from tensorviz.core.error_explanations import ExplainedError
from tensorviz.core.training import Remedy
from tensorviz.ui.error_panel import ErrorPanel
from tensorviz.ui.layout_clearing import clear_layout


class ProblemView(QFrame):
    remedy_chosen = Signal(str)  # Remedy.key

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.error_panel = ErrorPanel(footer="")  # the run's own state is shown beside it
        self.buttons: dict[str, QPushButton] = {}
        self._bar = QGridLayout()  # two buttons a row, so a narrow window still fits
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 4)
        layout.addWidget(self.error_panel)
        layout.addLayout(self._bar)
        self.hide()

    def show_problem(self, explained: ExplainedError, remedies: tuple[Remedy, ...]) -> None:
        self.error_panel.show_error(explained)
        self._clear_buttons()
        if remedies:
            self._bar.addWidget(QLabel("Apply and train again:"), 0, 0)
        for number, remedy in enumerate(remedies, start=1):
            button = QPushButton(remedy.label)
            button.setToolTip(remedy.explanation)
            button.clicked.connect(lambda _=False, key=remedy.key: self.remedy_chosen.emit(key))
            self._bar.addWidget(button, number // 3, number % 3)
            self.buttons[remedy.key] = button
        self._bar.setColumnStretch(3, 1)
        self.show()

    def clear(self) -> None:
        self.error_panel.clear()
        self._clear_buttons()
        self.hide()

    def _clear_buttons(self) -> None:
        clear_layout(self._bar)
        self.buttons = {}

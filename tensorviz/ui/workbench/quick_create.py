"""One click to the common creations: a shape and a button per factory (zeros, ones, rand,
randn). The row asks core for the same creation the Create form would (one request signal,
the same handler), so a quick tensor has the same code line, provenance and checks."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QToolButton, QWidget

from tensorviz.core.tensors.creation import CREATIONS_BY_NAME, QUICK_CREATIONS, CreationOptions


class QuickCreateRow(QWidget):
    create_requested = Signal(str, dict, object, str)  # kind, params, CreationOptions, name

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.shape = QLineEdit(CREATIONS_BY_NAME[QUICK_CREATIONS[0]].params[0].default)
        self.shape.setToolTip("The shape of the new tensor, e.g. 2, 3 or 64, 3, 32, 32")
        self.shape.setMaximumWidth(110)
        self.shape.setMinimumWidth(56)
        self.buttons: dict[str, QToolButton] = {}
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        label = QLabel("New")
        label.setObjectName("hint")
        layout.addWidget(label)
        layout.addWidget(self.shape)
        for kind in QUICK_CREATIONS:
            button = QToolButton()  # as wide as its word: the row fits a narrow form column
            button.setText(kind)
            button.setToolTip(f"torch.{kind}({self.shape.text()}) in one click")
            button.clicked.connect(lambda _checked=False, k=kind: self._on_button_clicked(k))
            self.buttons[kind] = button
            layout.addWidget(button)
        layout.addStretch(1)
        self.shape.textChanged.connect(self._on_shape_changed)

    def _on_shape_changed(self, text: str) -> None:
        for kind, button in self.buttons.items():
            button.setToolTip(f"torch.{kind}({text.strip()}) in one click")

    def _on_button_clicked(self, kind: str) -> None:
        self.create_requested.emit(kind, {"shape": self.shape.text()}, CreationOptions(), "")

    def set_enabled(self, enabled: bool) -> None:
        for button in self.buttons.values():
            button.setEnabled(enabled)

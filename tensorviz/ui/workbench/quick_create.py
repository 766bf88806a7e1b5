"""One click to the common creations: a shape and a button per factory (zeros, ones, rand,
randn). The row asks core for the same creation the Create form would (one request signal,
the same handler), so a quick tensor has the same code line, provenance and checks."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QToolButton, QWidget

from tensorviz.core.tensors.creation import CREATIONS_BY_NAME, QUICK_CREATIONS, CreationOptions
from tensorviz.ui.widgets.appearance_following import on_appearance_changed
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.widgets.theme import scaled
from tensorviz.ui.workbench.text_arguments import arg

SHAPE_WIDTH = (56, 110)  # px at 100 %: the shape field's narrowest and widest


class QuickCreateRow(Retranslating, QWidget):
    create_requested = Signal(str, dict, object, str)  # kind, params, CreationOptions, name

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.shape = QLineEdit(CREATIONS_BY_NAME[QUICK_CREATIONS[0]].params[0].default)
        self.buttons: dict[str, QToolButton] = {}
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        self.label = QLabel()
        self.label.setObjectName("hint")
        layout.addWidget(self.label)
        layout.addWidget(self.shape)
        for kind in QUICK_CREATIONS:
            button = QToolButton()  # as wide as its word: the row fits a narrow form column
            button.setText(kind)  # torch's function name, the same in every language
            button.setProperty("verbatim", True)
            button.clicked.connect(lambda _checked=False, k=kind: self._on_button_clicked(k))
            self.buttons[kind] = button
            layout.addWidget(button)
        layout.addStretch(1)
        self.shape.textChanged.connect(self._on_shape_changed)
        on_appearance_changed(self._on_appearance_changed)
        self._on_appearance_changed()
        self.retranslate()

    def retranslate(self) -> None:
        self.label.setText(self.tr("New"))
        self.shape.setToolTip(self.tr("The shape of the new tensor, e.g. 2, 3 or 64, 3, 32, 32"))
        self._on_shape_changed(self.shape.text())

    def _on_appearance_changed(self) -> None:
        self.shape.setMinimumWidth(scaled(SHAPE_WIDTH[0]))
        self.shape.setMaximumWidth(scaled(SHAPE_WIDTH[1]))

    def _on_shape_changed(self, text: str) -> None:
        for kind, button in self.buttons.items():
            button.setToolTip(arg(self.tr("%1 in one click"), f"torch.{kind}({text.strip()})"))

    def _on_button_clicked(self, kind: str) -> None:
        self.create_requested.emit(kind, {"shape": self.shape.text()}, CreationOptions(), "")

    def set_enabled(self, enabled: bool) -> None:
        for button in self.buttons.values():
            button.setEnabled(enabled)

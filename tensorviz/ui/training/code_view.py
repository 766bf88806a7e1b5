"""The code the playground run is: the standalone script (Copy as PyTorch, Export script…) and
the nn.Sequential as torch prints it, with the buttons that open the model's graphs."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)


def _code_box() -> QPlainTextEdit:
    box = QPlainTextEdit()
    box.setReadOnly(True)
    box.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    box.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
    return box


class ScriptView(QWidget):
    """The run as a script that plain `python` runs to the same result."""

    copy_requested = Signal()
    export_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.copy_button = QPushButton("Copy as PyTorch")
        self.copy_button.setToolTip("Copy the script to the clipboard (Ctrl+Shift+C)")
        self.export_button = QPushButton("Save .py…")
        self.export_button.setToolTip("Save the script as a .py file")
        self.note = QLabel("python script.py reproduces this run bit for bit")
        self.note.setObjectName("hint")
        self.note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.note.setToolTip(self.note.text())
        self.text = _code_box()
        self.copy_button.clicked.connect(self.copy_requested)
        self.export_button.clicked.connect(self.export_requested)
        buttons = QHBoxLayout()
        buttons.addWidget(self.copy_button)
        buttons.addWidget(self.export_button)
        buttons.addWidget(self.note, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(buttons)
        layout.addWidget(self.text, 1)

    def show_script(self, script: str, problem: str) -> None:
        self.text.setPlainText(script or f"# No script: {problem}")
        for button in (self.copy_button, self.export_button):
            button.setEnabled(bool(script))


class ModelView(QWidget):
    """repr(model), and one click to the model's autograd graph (or its architecture)."""

    graph_requested = Signal()
    architecture_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.graph_button = QPushButton("Autograd graph")
        self.graph_button.setToolTip(
            "The loss of the current model on the training samples, as the graph autograd "
            "builds, in the Autograd graph area"
        )
        self.architecture_button = QPushButton("Architecture")
        self.architecture_button.setToolTip("The model's layers in the architecture view")
        self.architecture_button.hide()  # shown once an area can take the model
        self.text = _code_box()
        self.graph_button.clicked.connect(self.graph_requested)
        self.architecture_button.clicked.connect(self.architecture_requested)
        buttons = QHBoxLayout()
        buttons.addWidget(self.graph_button)
        buttons.addWidget(self.architecture_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(buttons)
        layout.addWidget(self.text, 1)

    def show_model(self, text: str, parameters: int) -> None:
        self.text.setPlainText(f"model = {text}\n\n# {parameters:,} parameters")

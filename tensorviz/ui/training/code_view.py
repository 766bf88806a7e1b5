"""The code the playground run is: the standalone script (Copy as PyTorch, Export script…) and
the nn.Sequential as torch prints it, with the buttons that open the model's graphs."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from tensorviz.ui.training.step_labels import mono_font
from tensorviz.ui.widgets.retranslating import Retranslating


def _code_box() -> QPlainTextEdit:
    """Read-only code in the fixed-width font (its size follows the zoom)."""
    box = QPlainTextEdit()
    box.setReadOnly(True)
    box.setFont(mono_font())
    box.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
    return box


class ScriptView(Retranslating, QWidget):
    """The run as a script that plain `python` runs to the same result."""

    copy_requested = Signal()
    export_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.copy_button = QPushButton()
        self.export_button = QPushButton()
        self.note = QLabel()
        self.note.setObjectName("hint")
        self.note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.text = _code_box()
        self._script, self._problem = "", ""
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
        self.retranslate()

    def retranslate(self) -> None:
        self.copy_button.setText(self.tr("Copy as PyTorch"))
        self.copy_button.setToolTip(self.tr("Copy the script to the clipboard (Ctrl+Shift+C)"))
        self.export_button.setText(self.tr("Save .py…"))
        self.export_button.setToolTip(self.tr("Save the script as a .py file"))
        self.note.setText(self.tr("python script.py reproduces this run bit for bit"))
        self.note.setToolTip(self.note.text())
        if not self._script and self._problem:
            self.show_script(self._script, self._problem)

    def show_script(self, script: str, problem: str) -> None:
        self._script, self._problem = script, problem
        self.text.setPlainText(script or "# " + self.tr("No script: %1").replace("%1", problem))
        for button in (self.copy_button, self.export_button):
            button.setEnabled(bool(script))


class ModelView(Retranslating, QWidget):
    """repr(model), and one click to the model's autograd graph (or its architecture)."""

    graph_requested = Signal()
    architecture_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.graph_button = QPushButton()
        self.architecture_button = QPushButton()
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
        self._model: tuple[str, int] | None = None
        self.retranslate()

    def retranslate(self) -> None:
        self.graph_button.setText(self.tr("Autograd graph"))
        self.graph_button.setToolTip(
            self.tr(
                "The loss of the current model on the training samples, as the graph autograd "
                "builds, in the Autograd graph area"
            )
        )
        self.architecture_button.setText(self.tr("Architecture"))
        self.architecture_button.setToolTip(self.tr("The model's layers in the architecture view"))
        if self._model is not None:
            self.show_model(*self._model)

    def show_model(self, text: str, parameters: int) -> None:
        self._model = (text, parameters)
        count = QCoreApplication.translate("ModelView", "%Ln parameters", "", parameters)
        self.text.setPlainText(f"model = {text}\n\n# {count}")

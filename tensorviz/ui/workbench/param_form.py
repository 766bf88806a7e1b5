"""A form built from ParamSpecs: one editor per parameter, read back as the text the user typed.

Validation is core's job (op_params); the form only offers the right editor for each kind and
lists workspace tensors where a tensor is expected.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QLineEdit, QWidget

from tensorviz.core.tensors.op_params import DTYPES, TENSOR_KINDS, ParamSpec


class ParamForm(QWidget):
    submitted = Signal()  # Return pressed in a text field

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.layout_ = QFormLayout(self)
        self.layout_.setContentsMargins(0, 0, 0, 0)
        self.layout_.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.editors: dict[str, QWidget] = {}
        self.specs: tuple[ParamSpec, ...] = ()
        self.tensor_choices: dict[str, list[str]] = {}  # parameter kind → names it may offer
        self.devices: list[str] = ["cpu"]

    def set_specs(self, specs: tuple[ParamSpec, ...], doc: str = "") -> None:
        while self.layout_.rowCount():
            self.layout_.removeRow(0)
        self.editors = {}
        self.specs = specs
        if doc:
            note = QLabel(doc)
            note.setObjectName("opDoc")
            note.setWordWrap(True)
            self.layout_.addRow(note)
        for spec in specs:
            editor = self._editor_for(spec)
            editor.setToolTip(spec.help or spec.name)
            self.editors[spec.name] = editor
            self.layout_.addRow(spec.name, editor)
        if not specs:
            self.layout_.addRow(QLabel("No parameters."))

    def set_tensor_choices(self, choices: dict[str, list[str]]) -> None:
        """The workspace names each tensor parameter offers (core's op_params.tensor_choices)."""
        self.tensor_choices = choices
        for spec in self.specs:
            editor = self.editors[spec.name]
            if spec.kind in TENSOR_KINDS and isinstance(editor, QComboBox):
                names = choices.get(spec.kind, [])
                current = editor.currentText()
                editor.clear()
                editor.addItems(names)
                if current in names:
                    editor.setCurrentText(current)
                if spec.kind == "index_tensor" and not names:
                    editor.setPlaceholderText("no int64 tensor yet")

    def values(self) -> dict[str, str]:
        out = {}
        for name, editor in self.editors.items():
            out[name] = editor.currentText() if isinstance(editor, QComboBox) else editor.text()
        return out

    def set_values(self, values: dict[str, str]) -> None:
        for name, text in values.items():
            editor = self.editors.get(name)
            if isinstance(editor, QComboBox):
                editor.setCurrentText(text)
            elif isinstance(editor, QLineEdit):
                editor.setText(text)

    def _editor_for(self, spec: ParamSpec) -> QWidget:
        if spec.kind in ("bool", "dtype", "device", "choice", *TENSOR_KINDS):
            combo = QComboBox()
            combo.addItems(
                {
                    "bool": ["False", "True"],
                    "dtype": list(DTYPES),
                    "device": self.devices,
                    "choice": list(spec.choices),
                    "tensor": self.tensor_choices.get("tensor", []),
                    "index_tensor": self.tensor_choices.get("index_tensor", []),
                }[spec.kind]
            )
            if spec.default and spec.kind not in TENSOR_KINDS:
                combo.setCurrentText(spec.default)
            return combo
        field = QLineEdit()
        field.setPlaceholderText(spec.default or spec.help)
        if spec.default and spec.kind not in ("tensors",):
            field.setText(spec.default)
        field.returnPressed.connect(self.submitted)
        return field

"""A form built from ParamSpecs: one editor per parameter, read back as the text the user typed.

Validation is core's job (op_params); the form only offers the right editor for each kind and
lists workspace tensors where a tensor is expected. Labels, help and choices are core's words
(form_words) in the language in force; a switch of language relabels the form in place, so what
the user typed stays.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QLineEdit, QWidget

from tensorviz.core.tensors.form_words import choice_label, in_language, parameter_label
from tensorviz.core.tensors.op_params import DTYPES, TENSOR_KINDS, ParamSpec
from tensorviz.ui.widgets.retranslating import Retranslating


class ParamForm(Retranslating, QWidget):
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
        self._doc = ""  # the operation's explanation, as core marks it (translated when shown)
        self.doc_label: QLabel | None = None
        self.empty_label: QLabel | None = None

    def set_specs(self, specs: tuple[ParamSpec, ...], doc: str = "") -> None:
        """One editor per spec; `doc` is the marked English text (form_words.in_language)."""
        while self.layout_.rowCount():
            self.layout_.removeRow(0)
        self.editors = {}
        self.specs = specs
        self._doc = doc
        self.doc_label = self.empty_label = None
        if doc:
            self.doc_label = QLabel()
            self.doc_label.setObjectName("opDoc")
            self.doc_label.setWordWrap(True)
            self.layout_.addRow(self.doc_label)
        for spec in specs:
            editor = self._editor_for(spec)
            self.editors[spec.name] = editor
            self.layout_.addRow(QLabel(), editor)
        if not specs:
            self.empty_label = QLabel()
            self.layout_.addRow(self.empty_label)
        self.retranslate()

    def retranslate(self) -> None:
        if self.doc_label is not None:
            self.doc_label.setText(in_language(self._doc))
        if self.empty_label is not None:
            self.empty_label.setText(self.tr("No parameters."))
        for spec in self.specs:
            editor = self.editors[spec.name]
            label = self.layout_.labelForField(editor)
            if isinstance(label, QLabel):
                label.setText(parameter_label(spec.name))
            editor.setToolTip(in_language(spec.help) or parameter_label(spec.name))
            if isinstance(editor, QLineEdit):
                editor.setPlaceholderText(spec.default or in_language(spec.help))
            elif spec.kind == "choice":
                for i in range(editor.count()):
                    editor.setItemText(i, choice_label(editor.itemData(i)))
            elif spec.kind == "index_tensor":
                editor.setPlaceholderText(self.tr("no int64 tensor yet"))

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

    def values(self) -> dict[str, str]:
        """What was typed or chosen; a choice gives its value, never its translated label."""
        out = {}
        for name, editor in self.editors.items():
            if isinstance(editor, QComboBox):
                data = editor.currentData()
                out[name] = data if isinstance(data, str) else editor.currentText()
            else:
                out[name] = editor.text()
        return out

    def set_values(self, values: dict[str, str]) -> None:
        for name, text in values.items():
            editor = self.editors.get(name)
            if isinstance(editor, QComboBox):
                index = editor.findData(text)
                if index >= 0:
                    editor.setCurrentIndex(index)
                else:
                    editor.setCurrentText(text)
            elif isinstance(editor, QLineEdit):
                editor.setText(text)

    def _editor_for(self, spec: ParamSpec) -> QWidget:
        if spec.kind in ("bool", "dtype", "device", *TENSOR_KINDS):
            combo = QComboBox()
            combo.addItems(
                {
                    "bool": ["False", "True"],
                    "dtype": list(DTYPES),
                    "device": self.devices,
                    "tensor": self.tensor_choices.get("tensor", []),
                    "index_tensor": self.tensor_choices.get("index_tensor", []),
                }[spec.kind]
            )
            if spec.default and spec.kind not in TENSOR_KINDS:
                combo.setCurrentText(spec.default)
            return combo
        if spec.kind == "choice":  # the label in the user's language, the value for core
            combo = QComboBox()
            for choice in spec.choices:
                combo.addItem(choice_label(choice), choice)
            if spec.default:
                combo.setCurrentIndex(max(0, combo.findData(spec.default)))
            return combo
        field = QLineEdit()
        if spec.default and spec.kind not in ("tensors",):
            field.setText(spec.default)
        field.returnPressed.connect(self.submitted)
        return field

"""The two forms of the Workbench: Create a tensor, and Apply an operation to one.

Forms collect text and emit a request; WorkbenchPanel passes it to core (workbench_actions).
torch's own names (zeros, transpose, dim) are listed as they are; group headings, presets and
the forms' own labels are in the language in force and relabelled in place on a switch.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from tensorviz.core.tensors.creation import CREATIONS, CREATIONS_BY_NAME, CreationOptions
from tensorviz.core.tensors.form_words import creation_label, group_label, parameter_label
from tensorviz.core.tensors.op_params import DTYPES
from tensorviz.core.tensors.operation_specs import CATEGORIES, OPERATIONS, OPERATIONS_BY_NAME
from tensorviz.ui.widgets.retranslating import Retranslating
from tensorviz.ui.workbench.param_form import ParamForm
from tensorviz.ui.workbench.text_arguments import arg

GROUP_ROLE = Qt.ItemDataRole.UserRole + 1  # a heading row's group, as core names it


def grouped_combo(items: list[tuple[str, str]], label: Callable[[str], str] = str) -> QComboBox:
    """A combo box of (group, name) pairs with a disabled header per group; each name is shown
    as `label(name)` and kept as the item's data."""
    combo = QComboBox()
    combo.setMaxVisibleItems(30)
    # Long preset names must not widen the whole window; the popup still shows them in full.
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(14)
    group = None
    for item_group, name in items:
        if item_group != group:
            group = item_group
            combo.addItem(f"— {group_label(group)} —")
            combo.setItemData(combo.count() - 1, group, GROUP_ROLE)
            combo.model().item(combo.count() - 1).setEnabled(False)
        combo.addItem(label(name), name)
    return combo


def relabel_grouped_combo(combo: QComboBox, label: Callable[[str], str] = str) -> None:
    """The headings and names of a grouped_combo again, in the language in force."""
    for i in range(combo.count()):
        group = combo.itemData(i, GROUP_ROLE)
        if group is not None:
            combo.setItemText(i, f"— {group_label(group)} —")
        elif (name := combo.itemData(i)) is not None:
            combo.setItemText(i, label(name))


def select_data(combo: QComboBox, value: str) -> None:
    index = combo.findData(value)
    if index >= 0:
        combo.setCurrentIndex(index)


class _ActionForm(Retranslating, QWidget):
    """Kind picker + parameters + result name + a button; Ctrl+Enter or Return submits. (Its
    texts name their context: self.tr here would look them up under the subclass's name.)"""

    def __init__(self, items, label: Callable[[str], str] = str, parent=None) -> None:
        super().__init__(parent)
        self._label = label
        self.kind = grouped_combo(items, label)
        self.params = ParamForm()
        self.result_name = QLineEdit()
        self.button = QPushButton()
        self.button.setDefault(True)
        self.button.clicked.connect(self.submit)
        self.params.submitted.connect(self.submit)
        self.result_name.returnPressed.connect(self.submit)
        for keys in ("Ctrl+Return", "Ctrl+Enter"):
            QShortcut(
                QKeySequence(keys),
                self,
                self.submit,
                context=Qt.ShortcutContext.WidgetWithChildrenShortcut,
            )
        self.kind.currentIndexChanged.connect(self._on_kind_changed)
        self.form = QFormLayout()
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.bottom = QFormLayout()
        self.bottom.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.bottom.addRow(QLabel(), self.result_name)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.button)
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addWidget(self.params)
        layout.addLayout(self.bottom)
        layout.addLayout(buttons)
        layout.addStretch(1)

    def retranslate(self) -> None:
        relabel_grouped_combo(self.kind, self._label)
        self._set_label(
            self.bottom, self.result_name, QCoreApplication.translate("ActionForm", "name")
        )
        self.result_name.setPlaceholderText(QCoreApplication.translate("ActionForm", "automatic"))
        self.result_name.setToolTip(
            QCoreApplication.translate("ActionForm", "Name of the new tensor (a Python identifier)")
        )

    @staticmethod
    def _set_label(form: QFormLayout, field: QWidget, text: str) -> None:
        label = form.labelForField(field)
        if isinstance(label, QLabel):
            label.setText(text)

    def current_kind(self) -> str:
        return self.kind.currentData() or ""

    def set_tensor_choices(self, choices: dict[str, list[str]]) -> None:
        self.params.set_tensor_choices(choices)

    def set_devices(self, devices: list[str]) -> None:
        self.params.devices = devices
        self._on_kind_changed(0)  # rebuild editors that list devices

    def submit(self) -> None:
        raise NotImplementedError

    def _on_kind_changed(self, _index: int) -> None:
        raise NotImplementedError


class CreateForm(_ActionForm):
    create_requested = Signal(str, dict, object, str)  # kind, params, CreationOptions, name

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__([(s.group, s.name) for s in CREATIONS], creation_label, parent)
        self.dtype = QComboBox()
        self.dtype.addItem("", None)  # "auto (torch infers)", in the language in force
        for name in DTYPES:
            self.dtype.addItem(name, name)
        self.device = QComboBox()
        self.device.addItem("cpu")
        self.requires_grad = QCheckBox("requires_grad")  # torch's own name: code
        self.seed = QLineEdit()
        self.form.addRow(QLabel(), self.kind)
        self.bottom.insertRow(0, QLabel(), self.dtype)
        self.bottom.insertRow(1, QLabel(), self.device)
        self.bottom.insertRow(2, "", self.requires_grad)
        self.bottom.insertRow(3, QLabel(), self.seed)
        select_data(self.kind, "arange")
        self._on_kind_changed(0)
        self.retranslate()

    def retranslate(self) -> None:
        super().retranslate()
        self.button.setText(self.tr("Create"))
        self._set_label(self.form, self.kind, self.tr("create"))
        self._set_label(self.bottom, self.dtype, parameter_label("dtype"))
        self._set_label(self.bottom, self.device, parameter_label("device"))
        self._set_label(self.bottom, self.seed, self.tr("seed"))
        self.dtype.setItemText(0, self.tr("auto (torch infers)"))
        self.requires_grad.setToolTip(
            self.tr("Autograd records every operation on it, and backward() fills its .grad")
        )
        self.seed.setPlaceholderText(self.tr("none (fresh random values)"))
        self.seed.setToolTip(
            self.tr("torch.manual_seed(seed) before random creation, for reproducibility")
        )

    def set_devices(self, devices: list[str]) -> None:
        super().set_devices(devices)
        self.device.clear()
        self.device.addItems(devices)

    def _on_kind_changed(self, _index: int) -> None:
        spec = CREATIONS_BY_NAME.get(self.current_kind())
        if spec is None:
            return
        self.params.set_specs(spec.params, spec.doc)
        self.params.set_tensor_choices(self.params.tensor_choices)
        for widget in (self.dtype, self.device, self.requires_grad):
            widget.setEnabled(spec.uses_options)
        self.seed.setEnabled(spec.random)

    def _seed(self) -> int | None:
        """The typed seed; raises ValueError for anything but a whole number."""
        text = self.seed.text().strip()
        return int(text) if text else None

    def options(self) -> CreationOptions:
        return CreationOptions(
            dtype=DTYPES.get(self.dtype.currentData() or ""),
            device=self.device.currentText() or "cpu",
            requires_grad=self.requires_grad.isChecked(),
            seed=None if self.seed_problem() else self._seed(),
        )

    def seed_problem(self) -> str | None:
        try:
            seed = self._seed()
        except ValueError:
            return arg(self.tr("seed must be a whole number, got '%1'."), self.seed.text().strip())
        if seed is not None and not 0 <= seed < 2**32:  # NumPy's range, so both libraries agree
            return arg(self.tr("seed must be between 0 and 4294967295, got %1."), seed)
        return None

    def submit(self) -> None:
        self.create_requested.emit(
            self.current_kind(),
            self.params.values(),
            self.options(),
            self.result_name.text().strip(),
        )


class OperateForm(_ActionForm):
    apply_requested = Signal(str, str, dict, str)  # op, input name, params, result name

    def __init__(self, parent: QWidget | None = None) -> None:
        items = [(c, op.name) for c in CATEGORIES for op in OPERATIONS if op.category == c]
        super().__init__(items, parent=parent)
        self.input = QComboBox()
        self.input.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.form.addRow(QLabel(), self.input)
        self.form.addRow(QLabel(), self.kind)
        select_data(self.kind, "transpose")
        self._on_kind_changed(0)
        self.retranslate()

    def retranslate(self) -> None:
        super().retranslate()
        self.button.setText(self.tr("Apply"))
        self._set_label(self.form, self.input, self.tr("input"))
        self._set_label(self.form, self.kind, self.tr("operation"))
        self.input.setToolTip(self.tr("The tensor the operation reads (the selected tensor)"))

    def set_tensor_choices(self, choices: dict[str, list[str]]) -> None:
        super().set_tensor_choices(choices)
        names = choices.get("tensor", [])
        current = self.input.currentText()
        self.input.blockSignals(True)
        self.input.clear()
        self.input.addItems(names)
        self.input.setCurrentText(current if current in names else (names[0] if names else ""))
        self.input.blockSignals(False)

    def set_input(self, name: str) -> None:
        self.input.setCurrentText(name)

    def _on_kind_changed(self, _index: int) -> None:
        op = OPERATIONS_BY_NAME.get(self.current_kind())
        if op is None:
            return
        self.params.set_specs(op.params, op.doc_id)
        self.params.set_tensor_choices(self.params.tensor_choices)
        self.input.setEnabled(op.takes_input)

    def submit(self) -> None:
        self.apply_requested.emit(
            self.current_kind(),
            self.input.currentText(),
            self.params.values(),
            self.result_name.text().strip(),
        )

"""The network you shape: the input features, and the hidden layers — add or remove one (1 to 8),
each with its width (1 to 64 units) and its activation. Edits the network fields of a
TrainingConfig; computes nothing."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from tensorviz.core.training.network_choices import (
    ACTIVATIONS,
    FEATURES,
    MAX_HIDDEN_LAYERS,
    MAX_UNITS,
)
from tensorviz.core.translation import _
from tensorviz.ui.widgets.retranslating import Retranslating


def _fill_activations(combo: QComboBox, first: int = 0) -> None:
    """The activations' names from item `first` on (core's labels, through gettext)."""
    for index, (label, _name) in enumerate(ACTIVATIONS.values(), start=first):
        combo.setItemText(index, _(label))


class LayerRow(Retranslating, QWidget):
    """One hidden layer: its units, its activation and a remove button."""

    def __init__(self, number: int, units: int, activation: str) -> None:
        super().__init__()
        self.label = QLabel()
        self.set_number(number)
        self.units = QSpinBox()
        self.units.setRange(1, MAX_UNITS)
        self.units.setValue(units)
        self.units.setKeyboardTracking(False)
        self.activation = QComboBox()
        self.activation.setProperty("translated_items", True)
        for key in ACTIVATIONS:
            self.activation.addItem("", key)
        self.activation.setCurrentIndex(self.activation.findData(activation))
        self.activation.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.activation.setMinimumContentsLength(4)
        self.remove = QToolButton()
        self.remove.setText("−")
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.label)
        row.addWidget(self.units, 1)
        row.addWidget(self.activation, 1)
        row.addWidget(self.remove)
        self.retranslate()

    def retranslate(self) -> None:
        self.units.setToolTip(
            self.tr("nn.Linear(…, units): 1 to %1 neurons").replace("%1", str(MAX_UNITS))
        )
        _fill_activations(self.activation)
        self.activation.setToolTip(self.tr("the nn module after this layer's nn.Linear"))
        self.remove.setToolTip(self.tr("Remove this layer"))
        self.set_number(self.number)

    def set_number(self, number: int) -> None:
        self.number = number
        self.label.setText(f"{number}")
        self.label.setToolTip(self.tr("Hidden layer %1").replace("%1", str(number)))


class NetworkEditor(Retranslating, QGroupBox):
    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.feature_boxes: dict[str, QCheckBox] = {}
        features = QGridLayout()
        features.setContentsMargins(0, 0, 0, 0)
        for index, (key, feature) in enumerate(FEATURES.items()):
            box = QCheckBox(feature.label)
            box.toggled.connect(self._on_edited)
            features.addWidget(box, index // 3, index % 3)
            self.feature_boxes[key] = box
        self.rows: list[LayerRow] = []
        self._rows_box = QVBoxLayout()
        self._rows_box.setContentsMargins(0, 0, 0, 0)
        self._rows_box.setSpacing(3)
        self.add_button = QPushButton()
        self.add_button.clicked.connect(self.add_layer)
        self.all_activations = QComboBox()
        self.all_activations.setProperty("translated_items", True)
        self.all_activations.addItem("", "")
        for key in ACTIVATIONS:
            self.all_activations.addItem("", key)
        self.all_activations.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.all_activations.setMinimumContentsLength(6)
        self.all_activations.activated.connect(self._on_all_activations_chosen)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.all_activations, 1)
        self.inputs = QLabel()
        self.inputs.setObjectName("hint")
        self.layers = QLabel()
        self.layers.setObjectName("hint")
        layout = QVBoxLayout(self)
        layout.addWidget(self.inputs)
        layout.addLayout(features)
        layout.addWidget(self.layers)
        layout.addLayout(self._rows_box)
        layout.addLayout(buttons)
        self._updating = False
        self._dims = 2
        self.retranslate()

    def retranslate(self) -> None:
        self.setTitle(self.tr("Network"))
        for key, box in self.feature_boxes.items():
            tip = self.tr("an input column: %1 (a = x, b = y)")
            box.setToolTip(tip.replace("%1", FEATURES[key].code))
        self.add_button.setText(self.tr("+ Add layer"))
        self.add_button.setToolTip(
            self.tr("Add a hidden layer (at most %1)").replace("%1", str(MAX_HIDDEN_LAYERS))
        )
        self.all_activations.setItemText(0, self.tr("Set all to…"))
        _fill_activations(self.all_activations, first=1)
        self.all_activations.setToolTip(self.tr("one activation for every hidden layer"))
        self.inputs.setText(self.tr("Inputs"))
        self.layers.setText(self.tr("Hidden layers: units, activation"))

    # --- the model -------------------------------------------------------------------------------

    def hidden_layers(self) -> tuple[int, ...]:
        return tuple(row.units.value() for row in self.rows)

    def activations(self) -> tuple[str, ...]:
        return tuple(row.activation.currentData() for row in self.rows)

    def features(self) -> tuple[str, ...]:
        return tuple(key for key, box in self.feature_boxes.items() if box.isChecked())

    def set_network(self, layers, activations, features, dims: int) -> None:
        """Show a network without emitting changed."""
        self._updating = True
        try:
            self._dims = dims
            for key, box in self.feature_boxes.items():
                box.setChecked(key in features)
                box.setEnabled(FEATURES[key].dims <= dims)
            while len(self.rows) > len(layers):
                self._drop_row(self.rows[-1])
            for index, (units, activation) in enumerate(zip(layers, activations, strict=True)):
                if index < len(self.rows):
                    row = self.rows[index]
                    row.units.setValue(units)
                    row.activation.setCurrentIndex(row.activation.findData(activation))
                else:
                    self._append_row(units, activation)
        finally:
            self._updating = False
        self._sync()

    # --- gestures --------------------------------------------------------------------------------

    def add_layer(self) -> None:
        """A new last hidden layer, shaped like the current last one."""
        if len(self.rows) >= MAX_HIDDEN_LAYERS:
            return
        last = self.rows[-1] if self.rows else None
        units = last.units.value() if last else 4
        activation = last.activation.currentData() if last else "tanh"
        self._append_row(units, activation)
        self._on_edited()

    def remove_layer(self, row: LayerRow) -> None:
        if len(self.rows) > 1:
            self._drop_row(row)
            self._on_edited()

    def _append_row(self, units: int, activation: str) -> None:
        row = LayerRow(len(self.rows) + 1, units, activation)
        row.units.valueChanged.connect(self._on_edited)
        row.activation.currentIndexChanged.connect(self._on_edited)
        row.remove.clicked.connect(lambda _checked=False, r=row: self.remove_layer(r))
        self.rows.append(row)
        self._rows_box.addWidget(row)

    def _drop_row(self, row: LayerRow) -> None:
        self.rows.remove(row)
        self._rows_box.removeWidget(row)
        row.deleteLater()
        for number, kept in enumerate(self.rows, start=1):
            kept.set_number(number)

    def _on_all_activations_chosen(self, index: int) -> None:
        key = self.all_activations.itemData(index)
        self.all_activations.setCurrentIndex(0)
        if not key:
            return
        self._updating = True
        try:
            for row in self.rows:
                row.activation.setCurrentIndex(row.activation.findData(key))
        finally:
            self._updating = False
        self._on_edited()

    def _sync(self) -> None:
        self.add_button.setEnabled(len(self.rows) < MAX_HIDDEN_LAYERS)
        for row in self.rows:
            row.remove.setEnabled(len(self.rows) > 1)

    def _on_edited(self, *_args) -> None:
        self._sync()
        if not self._updating:
            self.changed.emit()

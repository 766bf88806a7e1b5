"""The settings of one training run, edited as a TrainingConfig (the form computes nothing)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from tensorviz.core.training.data import TrainingConfig

OPTIMIZERS = (
    ("manual", "manual (no_grad)"),
    ("sgd", "optim.SGD"),
    ("adam", "optim.Adam"),
)


def _double(low: float, high: float, decimals: int, step: float, tip: str) -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setRange(low, high)
    box.setDecimals(decimals)
    box.setSingleStep(step)
    box.setToolTip(tip)
    box.setKeyboardTracking(False)
    return box


def _integer(low: int, high: int, tip: str) -> QSpinBox:
    box = QSpinBox()
    box.setRange(low, high)
    box.setToolTip(tip)
    box.setKeyboardTracking(False)
    return box


class TrainingConfigForm(QWidget):
    config_changed = Signal(object)  # TrainingConfig

    def __init__(self, devices: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._data_path: str | None = None
        self._updating = False
        self.lr = _double(0.00001, 10.0, 5, 0.001, "learning rate: the size of each step")
        self.epochs = _integer(1, 1_000_000, "how many passes over the data")
        self.optimizer = QComboBox()
        for key, label in OPTIMIZERS:
            self.optimizer.addItem(label, key)
        self.optimizer.setToolTip(
            "manual: with torch.no_grad(): w -= lr * w.grad, then w.grad.zero_()\n"
            "optim.SGD / optim.Adam: optimizer.zero_grad(), loss.backward(), optimizer.step()"
        )
        self.momentum = _double(0.0, 0.99, 2, 0.1, "SGD momentum (0: plain gradient descent)")
        self.weight_decay = _double(0.0, 1.0, 4, 0.001, "L2 penalty added by the optimizer")
        self.batch_size = _integer(0, 1_000_000, "samples per update; full batch: all of them")
        self.batch_size.setSpecialValueText("full batch")
        self.device = QComboBox()
        self.device.addItems(devices)
        self.device.setToolTip("data and parameters are moved there with .to(device)")
        self.seed = _integer(0, 2**31 - 1, "np.random.seed and torch.manual_seed")
        self.n = _integer(2, 1_000_000, "number of samples")
        self.noise = _double(0.0, 100.0, 2, 0.5, "standard deviation of the noise added to y")
        self.normalise = QCheckBox("Normalise x")
        self.normalise.setToolTip("standardise x to mean 0, std 1 before training")
        self.data_label = QLabel()
        self.data_label.setObjectName("hint")
        self.data_label.setWordWrap(True)
        self.load_button = QPushButton("Load x, y…")
        self.load_button.setToolTip("a two-column CSV, or a .pt with {'x': x, 'y': y}")
        self.generated_button = QPushButton("Generated")
        self.generated_button.setToolTip("back to y = 2.5·x + 1.8 + noise")
        self.forget_zero_grad = QCheckBox("Forget zero_grad")
        self.forget_zero_grad.setToolTip(
            "skip w.grad.zero_(): .grad adds up every step's gradient, so updates keep the "
            "momentum of all past steps and the loss swings instead of settling"
        )
        self.no_grad_pitfall = QCheckBox("Forget no_grad()")
        self.no_grad_pitfall.setToolTip(
            "update without torch.no_grad(): w -= lr * w.grad while autograd records, and torch "
            "refuses the in-place change of a leaf"
        )
        self.clip = QCheckBox("Clip ‖grad‖ to")
        self.clip.setToolTip("torch.nn.utils.clip_grad_norm_([w, b], max_norm) before each update")
        self.clip_norm = _double(0.001, 1000.0, 3, 0.5, "max_norm for clip_grad_norm_")
        self._build_layout()
        self.set_config(TrainingConfig())
        for box in (self.lr, self.momentum, self.weight_decay, self.noise, self.clip_norm):
            box.valueChanged.connect(self._on_value_changed)
        for box in (self.epochs, self.batch_size, self.seed, self.n):
            box.valueChanged.connect(self._on_value_changed)
        for combo in (self.optimizer, self.device):
            combo.currentIndexChanged.connect(self._on_value_changed)
        for check in (self.normalise, self.forget_zero_grad, self.no_grad_pitfall, self.clip):
            check.toggled.connect(self._on_value_changed)
        self.load_button.clicked.connect(self._on_load_clicked)
        self.generated_button.clicked.connect(self._on_generated_clicked)

    def _build_layout(self) -> None:
        run = QFormLayout()
        run.addRow("Learning rate", self.lr)
        run.addRow("Epochs", self.epochs)
        run.addRow("Update", self.optimizer)
        run.addRow("Momentum", self.momentum)
        run.addRow("Weight decay", self.weight_decay)
        run.addRow("Batch size", self.batch_size)
        run.addRow("Device", self.device)
        run.addRow(self.normalise)
        data = QFormLayout()
        data.addRow("Seed", self.seed)
        data.addRow("Samples n", self.n)
        data.addRow("Noise", self.noise)
        buttons = QHBoxLayout()
        buttons.addWidget(self.load_button)
        buttons.addWidget(self.generated_button)
        data.addRow(buttons)
        data.addRow(self.data_label)
        clip = QHBoxLayout()
        clip.addWidget(self.clip)
        clip.addWidget(self.clip_norm, 1)
        pitfalls = QVBoxLayout()
        pitfalls.addWidget(self.forget_zero_grad)
        pitfalls.addWidget(self.no_grad_pitfall)
        pitfalls.addLayout(clip)
        for form in (run, data):
            form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        boxes = (self.lr, self.epochs, self.momentum, self.weight_decay, self.batch_size)
        boxes += (self.seed, self.n, self.noise, self.clip_norm)
        for box in boxes:  # narrower than their hints: "0.01000" and "full batch" still show
            box.setMinimumWidth(box.fontMetrics().horizontalAdvance("0.000001") + 26)
        for combo in (self.optimizer, self.device):
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            combo.setMinimumContentsLength(8)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for title, inner in (
            ("Training", run),
            ("Data", data),
            ("Pitfalls and remedies", pitfalls),
        ):
            group = QGroupBox(title)
            group.setLayout(inner)
            layout.addWidget(group)

    # --- the model -------------------------------------------------------------------------------

    def config(self) -> TrainingConfig:
        style = self.optimizer.currentData()
        return TrainingConfig(
            seed=self.seed.value(),
            n=self.n.value(),
            noise=self.noise.value(),
            lr=self.lr.value(),
            epochs=self.epochs.value(),
            batch_size=self.batch_size.value() or None,
            update_style=style,
            momentum=self.momentum.value() if style == "sgd" else 0.0,
            weight_decay=self.weight_decay.value() if style != "manual" else 0.0,
            device=self.device.currentText(),
            normalise_x=self.normalise.isChecked(),
            forget_zero_grad=self.forget_zero_grad.isChecked(),
            update_without_no_grad=self.no_grad_pitfall.isChecked() and style == "manual",
            clip_grad_norm=self.clip_norm.value() if self.clip.isChecked() else None,
            data_path=self._data_path,
        )

    def set_config(self, config: TrainingConfig) -> None:
        """Show `config` without emitting config_changed."""
        self._updating = True
        try:
            self.lr.setValue(config.lr)
            self.epochs.setValue(config.epochs)
            self.optimizer.setCurrentIndex(self.optimizer.findData(config.update_style))
            self.momentum.setValue(config.momentum)
            self.weight_decay.setValue(config.weight_decay)
            self.batch_size.setValue(config.batch_size or 0)
            if self.device.findText(config.device) >= 0:
                self.device.setCurrentText(config.device)
            self.seed.setValue(config.seed)
            self.n.setValue(config.n)
            self.noise.setValue(config.noise)
            self.normalise.setChecked(config.normalise_x)
            self.forget_zero_grad.setChecked(config.forget_zero_grad)
            self.no_grad_pitfall.setChecked(config.update_without_no_grad)
            self.clip.setChecked(config.clip_grad_norm is not None)
            if config.clip_grad_norm is not None:
                self.clip_norm.setValue(config.clip_grad_norm)
            self._data_path = config.data_path
        finally:
            self._updating = False
        self._sync_enabled()

    def _sync_enabled(self) -> None:
        style = self.optimizer.currentData()
        self.momentum.setEnabled(style == "sgd")
        self.weight_decay.setEnabled(style != "manual")
        self.no_grad_pitfall.setEnabled(style == "manual")
        self.clip_norm.setEnabled(self.clip.isChecked())
        generated = self._data_path is None
        for box in (self.n, self.noise):
            box.setEnabled(generated)
        self.generated_button.setEnabled(not generated)
        self.data_label.setText(
            "x = rand(n, 1)·10\ny = 2.5·x + 1.8 + noise·randn(n, 1)"
            if generated
            else f"Your data: {Path(self._data_path).name}"
        )

    def _on_value_changed(self, *_args) -> None:
        self._sync_enabled()
        if not self._updating:
            self.config_changed.emit(self.config())

    def set_data_path(self, path: str | None) -> None:
        self._data_path = path
        self._on_value_changed()

    def _on_load_clicked(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Load x, y", str(Path.home()), "x, y data (*.csv *.txt *.pt *.pth)"
        )
        if path:
            self.set_data_path(path)

    def _on_generated_clicked(self) -> None:
        self.set_data_path(None)

"""The settings of one training run, edited as a TrainingConfig (the form computes nothing)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Signal
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
from tensorviz.ui.widgets.appearance_following import FollowsAppearanceLater
from tensorviz.ui.widgets.retranslating import Retranslating

OPTIMIZERS = (
    ("manual", QT_TRANSLATE_NOOP("TrainingConfigForm", "manual (no_grad)")),
    ("sgd", "optim.SGD"),
    ("adam", "optim.Adam"),
)


def _double(low: float, high: float, decimals: int, step: float) -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setRange(low, high)
    box.setDecimals(decimals)
    box.setSingleStep(step)
    box.setKeyboardTracking(False)
    return box


def _integer(low: int, high: int) -> QSpinBox:
    box = QSpinBox()
    box.setRange(low, high)
    box.setKeyboardTracking(False)
    return box


def fit_boxes(boxes, combos, contents: int) -> None:
    """Spin boxes narrower than their hints ("0.01000" and "full batch" still show), combos as
    wide as `contents` characters."""
    for box in boxes:
        box.setMinimumWidth(box.fontMetrics().horizontalAdvance("0.000001") + 26)
    for combo in combos:
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(contents)


def ask_data_path(parent: QWidget) -> str | None:
    """The user's x, y file, chosen in a dialog (None if cancelled)."""
    path, _filter = QFileDialog.getOpenFileName(
        parent,
        QCoreApplication.translate("TrainingConfigForm", "Load x, y"),
        str(Path.home()),
        QCoreApplication.translate("TrainingConfigForm", "x, y data (*.csv *.txt *.pt *.pth)"),
    )
    return path or None


def your_data(path: str) -> str:
    return QCoreApplication.translate("TrainingConfigForm", "Your data: %1").replace(
        "%1", Path(path).name
    )


class TrainingConfigForm(Retranslating, FollowsAppearanceLater, QWidget):
    config_changed = Signal(object)  # TrainingConfig

    def __init__(self, devices: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._data_path: str | None = None
        self._updating = False
        self.lr = _double(0.00001, 10.0, 5, 0.001)
        self.epochs = _integer(1, 1_000_000)
        self.optimizer = QComboBox()
        self.optimizer.setProperty("translated_items", True)
        for key, _label in OPTIMIZERS:
            self.optimizer.addItem("", key)
        self.momentum = _double(0.0, 0.99, 2, 0.1)
        self.weight_decay = _double(0.0, 1.0, 4, 0.001)
        self.batch_size = _integer(0, 1_000_000)
        self.device = QComboBox()
        self.device.addItems(devices)
        self.seed = _integer(0, 2**31 - 1)
        self.n = _integer(2, 1_000_000)
        self.noise = _double(0.0, 100.0, 2, 0.5)
        self.normalise = QCheckBox()
        self.data_label = QLabel()
        self.data_label.setObjectName("hint")
        self.data_label.setWordWrap(True)
        self.load_button = QPushButton()
        self.generated_button = QPushButton()
        self.forget_zero_grad = QCheckBox()
        self.no_grad_pitfall = QCheckBox()
        self.clip = QCheckBox()
        self.clip_norm = _double(0.001, 1000.0, 3, 0.5)
        self.row_labels: dict[str, QLabel] = {}
        self.groups: list[QGroupBox] = []
        self._build_layout()
        self.retranslate()
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

    def retranslate(self) -> None:
        for key, text in {
            "lr": self.tr("Learning rate"),
            "epochs": self.tr("Epochs"),
            "optimizer": self.tr("Update"),
            "momentum": self.tr("Momentum"),
            "weight_decay": self.tr("Weight decay"),
            "batch_size": self.tr("Batch size"),
            "device": self.tr("Device"),
            "seed": self.tr("Seed"),
            "n": self.tr("Samples n"),
            "noise": self.tr("Noise"),
        }.items():
            self.row_labels[key].setText(text)
        for group, title in zip(
            self.groups,
            (self.tr("Training"), self.tr("Data"), self.tr("Pitfalls and remedies")),
            strict=True,
        ):
            group.setTitle(title)
        self.lr.setToolTip(self.tr("learning rate: the size of each step"))
        self.epochs.setToolTip(self.tr("how many passes over the data"))
        for index, (_key, label) in enumerate(OPTIMIZERS):
            self.optimizer.setItemText(
                index, QCoreApplication.translate("TrainingConfigForm", label)
            )
        self.optimizer.setToolTip(
            self.tr(
                "manual: with torch.no_grad(): w -= lr * w.grad, then w.grad.zero_()\n"
                "optim.SGD / optim.Adam: optimizer.zero_grad(), loss.backward(), optimizer.step()"
            )
        )
        self.momentum.setToolTip(self.tr("SGD momentum (0: plain gradient descent)"))
        self.weight_decay.setToolTip(self.tr("L2 penalty added by the optimizer"))
        self.batch_size.setToolTip(self.tr("samples per update; full batch: all of them"))
        self.batch_size.setSpecialValueText(self.tr("full batch"))
        self.device.setToolTip(self.tr("data and parameters are moved there with .to(device)"))
        self.seed.setToolTip(self.tr("np.random.seed and torch.manual_seed"))
        self.n.setToolTip(self.tr("number of samples"))
        self.noise.setToolTip(self.tr("standard deviation of the noise added to y"))
        self.normalise.setText(self.tr("Normalise x"))
        self.normalise.setToolTip(self.tr("standardise x to mean 0, std 1 before training"))
        self.load_button.setText(self.tr("Load x, y…"))
        self.load_button.setToolTip(self.tr("a two-column CSV, or a .pt with {'x': x, 'y': y}"))
        self.generated_button.setText(self.tr("Generated"))
        self.generated_button.setToolTip(self.tr("back to y = 2.5·x + 1.8 + noise"))
        self.forget_zero_grad.setText(self.tr("Forget zero_grad"))
        self.forget_zero_grad.setToolTip(
            self.tr(
                "skip w.grad.zero_(): .grad adds up every step's gradient, so updates keep the "
                "momentum of all past steps and the loss swings instead of settling"
            )
        )
        self.no_grad_pitfall.setText(self.tr("Forget no_grad()"))
        self.no_grad_pitfall.setToolTip(
            self.tr(
                "update without torch.no_grad(): w -= lr * w.grad while autograd records, and "
                "torch refuses the in-place change of a leaf"
            )
        )
        self.clip.setText(self.tr("Clip ‖grad‖ to"))
        self.clip.setToolTip(
            self.tr("torch.nn.utils.clip_grad_norm_([w, b], max_norm) before each update")
        )
        self.clip_norm.setToolTip(self.tr("max_norm for clip_grad_norm_"))
        self._sync_enabled()

    def _row(self, form: QFormLayout, key: str, field: QWidget) -> None:
        label = QLabel()
        self.row_labels[key] = label
        form.addRow(label, field)

    def _build_layout(self) -> None:
        run = QFormLayout()
        for key in ("lr", "epochs", "optimizer", "momentum", "weight_decay", "batch_size"):
            self._row(run, key, getattr(self, key))
        self._row(run, "device", self.device)
        run.addRow(self.normalise)
        data = QFormLayout()
        for key in ("seed", "n", "noise"):
            self._row(data, key, getattr(self, key))
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
        self._boxes = boxes
        self._fit()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for inner in (run, data, pitfalls):
            group = QGroupBox()
            group.setLayout(inner)
            layout.addWidget(group)
            self.groups.append(group)

    def restyle(self) -> None:  # the font follows the zoom
        if hasattr(self, "_boxes"):
            self._fit()

    def _fit(self) -> None:
        fit_boxes(self._boxes, (self.optimizer, self.device), 8)

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
            self.tr("x = rand(n, 1)·10\ny = 2.5·x + 1.8 + noise·randn(n, 1)")
            if generated
            else your_data(self._data_path)
        )

    def _on_value_changed(self, *_args) -> None:
        self._sync_enabled()
        if not self._updating:
            self.config_changed.emit(self.config())

    def set_data_path(self, path: str | None) -> None:
        self._data_path = path
        self._on_value_changed()

    def _on_load_clicked(self) -> None:
        path = ask_data_path(self)
        if path:
            self.set_data_path(path)

    def _on_generated_clicked(self) -> None:
        self.set_data_path(None)

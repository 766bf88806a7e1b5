"""The settings of one playground run — the task's data, the network, the training — edited as a
TrainingConfig (the form computes nothing; the task itself is chosen above, by the area)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from tensorviz.core.training.data import TrainingConfig
from tensorviz.core.training.network_choices import (
    LOSSES,
    TASKS,
    changes_for_task,
    task_defaults,
)
from tensorviz.core.translation import _
from tensorviz.ui.training.config_form import (
    _double,
    _integer,
    ask_data_path,
    fit_boxes,
    your_data,
)
from tensorviz.ui.training.network_editor import NetworkEditor
from tensorviz.ui.widgets.appearance_following import FollowsAppearanceLater
from tensorviz.ui.widgets.retranslating import Retranslating

OPTIMIZERS = (("adam", "optim.Adam"), ("sgd", "optim.SGD"))
FIRST_TASK = "circles"
__all__ = ["ask_data_path", "PlaygroundForm"]  # ask_data_path: the area asks for a file too


class PlaygroundForm(Retranslating, FollowsAppearanceLater, QWidget):
    config_changed = Signal(object)  # TrainingConfig

    def __init__(
        self, devices: list[str], initial: TrainingConfig | None = None, parent=None
    ) -> None:
        super().__init__(parent)
        self._config = initial or TrainingConfig(**task_defaults(FIRST_TASK))
        self._updating = False
        self.seed = _integer(0, 2**31 - 1)
        self.n = _integer(4, 100_000)
        self.noise = _double(0.0, 10.0, 2, 0.05)
        self.test_fraction = _double(0.0, 0.9, 2, 0.05)
        self.task_label = QLabel()
        self.task_label.setObjectName("hint")
        self.task_label.setWordWrap(True)
        self.load_button = QPushButton()
        self.load_button.clicked.connect(self._on_load_clicked)
        self.normalise = QCheckBox()
        self.network = NetworkEditor()
        self.loss = QComboBox()
        self.loss.setProperty("translated_items", True)
        for key, (_label, name) in LOSSES.items():
            self.loss.addItem("", key)
            self.loss.setItemData(
                self.loss.count() - 1, f"nn.{name}()", Qt.ItemDataRole.ToolTipRole
            )
        self.optimizer = QComboBox()
        for key, label in OPTIMIZERS:
            self.optimizer.addItem(label, key)
        self.lr = _double(0.00001, 10.0, 5, 0.01)
        self.momentum = _double(0.0, 0.99, 2, 0.1)
        self.weight_decay = _double(0.0, 1.0, 4, 0.001)
        self.l2 = _double(0.0, 1.0, 4, 0.001)
        self.dropout = _double(0.0, 0.9, 2, 0.05)
        self.batch_size = _integer(0, 100_000)
        self.epochs = _integer(1, 1_000_000)
        self.device = QComboBox()
        self.device.addItems(devices)
        self.clip = QCheckBox()
        self.clip_norm = _double(0.001, 1000.0, 3, 0.5)
        self.forget_zero_grad = QCheckBox()
        self.row_labels: dict[str, QLabel] = {}
        self.groups: list[QGroupBox] = []
        self._build_layout()
        self.retranslate()
        self.set_config(self._config)
        for box in (self.noise, self.test_fraction, self.lr, self.momentum, self.weight_decay):
            box.valueChanged.connect(self._on_value_changed)
        for box in (self.l2, self.dropout, self.clip_norm, self.seed, self.n, self.batch_size):
            box.valueChanged.connect(self._on_value_changed)
        self.epochs.valueChanged.connect(self._on_value_changed)
        for combo in (self.loss, self.optimizer, self.device):
            combo.currentIndexChanged.connect(self._on_value_changed)
        for check in (self.normalise, self.clip, self.forget_zero_grad):
            check.toggled.connect(self._on_value_changed)
        self.network.changed.connect(self._on_value_changed)

    def retranslate(self) -> None:
        for key, text in {
            "seed": self.tr("Seed"),
            "n": self.tr("Samples n"),
            "noise": self.tr("Noise"),
            "test_fraction": self.tr("Test fraction"),
            "loss": self.tr("Loss"),
            "optimizer": self.tr("Optimizer"),
            "lr": self.tr("Learning rate"),
            "momentum": self.tr("Momentum"),
            "weight_decay": self.tr("Weight decay"),
            "l2": self.tr("L2"),
            "dropout": self.tr("Dropout"),
            "batch_size": self.tr("Batch size"),
            "epochs": self.tr("Epochs"),
            "device": self.tr("Device"),
        }.items():
            self.row_labels[key].setText(text)
        for group, title in zip(self.groups, (self.tr("Data"), self.tr("Training")), strict=True):
            group.setTitle(title)
        self.seed.setToolTip(self.tr("np.random.default_rng(seed) and torch.manual_seed"))
        self.n.setToolTip(self.tr("number of samples"))
        self.noise.setToolTip(self.tr("std of the Gaussian jitter added to the data"))
        self.test_fraction.setToolTip(self.tr("share of the samples held out for testing"))
        self.load_button.setText(self.tr("Load x, y…"))
        self.load_button.setToolTip(self.tr("a two-column CSV, or a .pt with {'x': x, 'y': y}"))
        self.normalise.setText(self.tr("Normalise x"))
        self.normalise.setToolTip(self.tr("standardise your x to mean 0, std 1 before training"))
        for index, (label, _name) in enumerate(LOSSES.values()):
            self.loss.setItemText(index, _(label))  # the loss names are core's (gettext)
        self.lr.setToolTip(self.tr("learning rate: the size of each step"))
        self.momentum.setToolTip(self.tr("SGD momentum (0: plain gradient descent)"))
        self.weight_decay.setToolTip(self.tr("the optimizer's weight decay"))
        self.l2.setToolTip(self.tr("l2 · Σ ‖W‖² added to the loss (weights only)"))
        self.dropout.setToolTip(self.tr("nn.Dropout(p) after each hidden layer"))
        self.batch_size.setToolTip(self.tr("samples per update; full batch: all of them"))
        self.batch_size.setSpecialValueText(self.tr("full batch"))
        self.epochs.setToolTip(self.tr("how many passes over the training samples"))
        self.device.setToolTip(self.tr("the model and the data are moved there with .to(device)"))
        self.clip.setText(self.tr("Clip ‖grad‖ to"))
        self.clip.setToolTip(
            self.tr("torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)")
        )
        self.clip_norm.setToolTip(self.tr("max_norm for clip_grad_norm_"))
        self.forget_zero_grad.setText(self.tr("Forget zero_grad"))
        self.forget_zero_grad.setToolTip(
            self.tr("skip optimizer.zero_grad(): .grad keeps accumulating")
        )
        self._sync_enabled()

    def _row(self, form: QFormLayout, key: str) -> None:
        label = QLabel()
        self.row_labels[key] = label
        form.addRow(label, getattr(self, key))

    def _build_layout(self) -> None:
        data = QFormLayout()
        data.addRow(self.task_label)
        for key in ("seed", "n", "noise", "test_fraction"):
            self._row(data, key)
        own = QHBoxLayout()
        own.addWidget(self.load_button)
        own.addWidget(self.normalise)
        data.addRow(own)
        run = QFormLayout()
        for key in ("loss", "optimizer", "lr", "momentum", "weight_decay", "l2", "dropout"):
            self._row(run, key)
        for key in ("batch_size", "epochs", "device"):
            self._row(run, key)
        clip = QHBoxLayout()
        clip.addWidget(self.clip)
        clip.addWidget(self.clip_norm, 1)
        run.addRow(clip)
        run.addRow(self.forget_zero_grad)
        for form in (data, run):
            form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        boxes = (self.seed, self.n, self.noise, self.test_fraction, self.lr, self.momentum)
        boxes += (self.weight_decay, self.l2, self.dropout, self.batch_size, self.epochs)
        self._boxes = (*boxes, self.clip_norm)
        self._fit()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for index, inner in enumerate((data, run)):
            group = QGroupBox()
            group.setLayout(inner)
            layout.addWidget(group)
            self.groups.append(group)
            if index == 0:
                layout.addWidget(self.network)

    def restyle(self) -> None:  # the font follows the zoom
        if hasattr(self, "_boxes"):
            self._fit()

    def _fit(self) -> None:
        fit_boxes(self._boxes, (self.loss, self.optimizer, self.device), 6)

    # --- the model -------------------------------------------------------------------------------

    @property
    def task(self) -> str:
        return self._config.task

    def config(self) -> TrainingConfig:
        file_task = self._config.task == "file"
        style = self.optimizer.currentData()
        return self._config.with_changes(
            seed=self.seed.value(),
            n=self.n.value(),
            noise=self.noise.value(),
            test_fraction=self.test_fraction.value(),
            normalise_x=self.normalise.isChecked() and file_task,
            hidden_layers=self.network.hidden_layers(),
            activations=self.network.activations(),
            features=self.network.features(),
            loss=self.loss.currentData(),
            update_style=style,
            lr=self.lr.value(),
            momentum=self.momentum.value() if style == "sgd" else 0.0,
            weight_decay=self.weight_decay.value(),
            l2=self.l2.value(),
            dropout=self.dropout.value(),
            batch_size=self.batch_size.value() or None,
            epochs=self.epochs.value(),
            device=self.device.currentText(),
            clip_grad_norm=self.clip_norm.value() if self.clip.isChecked() else None,
            forget_zero_grad=self.forget_zero_grad.isChecked(),
        )

    def set_config(self, config: TrainingConfig) -> None:
        """Show `config` (a playground task) without emitting config_changed."""
        self._config = config
        self._updating = True
        try:
            for box, value in (
                (self.seed, config.seed),
                (self.n, config.n),
                (self.noise, config.noise),
                (self.test_fraction, config.test_fraction),
                (self.lr, config.lr),
                (self.momentum, config.momentum),
                (self.weight_decay, config.weight_decay),
                (self.l2, config.l2),
                (self.dropout, config.dropout),
                (self.batch_size, config.batch_size or 0),
                (self.epochs, config.epochs),
            ):
                box.setValue(value)
            self.normalise.setChecked(config.normalise_x)
            self.loss.setCurrentIndex(max(0, self.loss.findData(config.loss)))
            self.optimizer.setCurrentIndex(max(0, self.optimizer.findData(config.update_style)))
            if self.device.findText(config.device) >= 0:
                self.device.setCurrentText(config.device)
            self.clip.setChecked(config.clip_grad_norm is not None)
            if config.clip_grad_norm is not None:
                self.clip_norm.setValue(config.clip_grad_norm)
            self.forget_zero_grad.setChecked(config.forget_zero_grad)
            dims = TASKS[config.task].dims
            self.network.set_network(
                config.hidden_layers, config.activations, config.features, dims
            )
        finally:
            self._updating = False
        self._sync_enabled()

    def set_task(self, task: str, data_path: str | None = None) -> None:
        """Switch to another task (its data; the network and training settings stay);
        data_path: the user's file, for the 'file' task."""
        if task == self.task and data_path in (None, self._config.data_path):
            return
        config = self.config()
        changes = changes_for_task(config, task)
        if data_path is not None:
            changes["data_path"] = data_path
        self.set_config(config.with_changes(**changes))
        self.config_changed.emit(self.config())

    def set_data_path(self, path: str | None) -> None:
        self._config = self._config.with_changes(data_path=path)
        self._on_value_changed()

    def _sync_enabled(self) -> None:
        task = TASKS[self._config.task]
        file_task = task.key == "file"
        for box in (self.n, self.noise):
            box.setEnabled(not file_task)
        self.load_button.setVisible(file_task)
        self.normalise.setVisible(file_task)
        self.momentum.setEnabled(self.optimizer.currentData() == "sgd")
        self.clip_norm.setEnabled(self.clip.isChecked())
        classification = task.kind == "classification"
        for index in range(self.loss.count()):  # a regression learns with MSE only
            item = self.loss.model().item(index)
            item.setEnabled(classification or self.loss.itemData(index) == "mse")
        if file_task:
            path = self._config.data_path
            text = your_data(path) if path else self.tr("Load a CSV or .pt of x, y")
        else:
            text = task.shown_description
        self.task_label.setText(text)

    def _on_value_changed(self, *_args) -> None:
        self._sync_enabled()
        if not self._updating:
            self.config_changed.emit(self.config())

    def _on_load_clicked(self) -> None:
        path = ask_data_path(self)
        if path:
            self.set_data_path(path)

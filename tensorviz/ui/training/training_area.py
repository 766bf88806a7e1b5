"""The Training area: a task chooser above two panels — the tutorial's linear regression (the
default, TrainingPanel) and the network playground (PlaygroundPanel, built on first use) for
every other task. The area forwards its panels' signals to the window."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from tensorviz.core.training.data import TrainingConfig
from tensorviz.core.training.network_choices import TASKS, task_defaults
from tensorviz.ui.training.config_form import ask_data_path
from tensorviz.ui.training.playground_panel import PlaygroundPanel
from tensorviz.ui.training.training_panel import TrainingPanel
from tensorviz.ui.widgets.retranslating import Retranslating


class TrainingArea(Retranslating, QWidget):
    status_message = Signal(str)
    loss_graph_built = Signal(dict)  # the regression's loss graph (TrainingPanel)
    network_graph_built = Signal(dict, str)  # the playground model's loss graph, loss class name
    architecture_requested = Signal(object, object)  # nn.Sequential, example input
    task_changed = Signal(str)

    def __init__(self, devices: list[str] | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.devices = devices or ["cpu"]
        self.task = QComboBox()
        self.task.setProperty("translated_items", True)
        kinds = []
        for key, task in TASKS.items():
            if kinds and task.kind != kinds[-1]:
                self.task.insertSeparator(self.task.count())
            kinds.append(task.kind)
            self.task.addItem(task.label, key)
        self.description = QLabel()
        self.description.setObjectName("hint")
        self.regression = TrainingPanel(self.devices)
        self.regression.status_message.connect(self.status_message)
        self.regression.loss_graph_built.connect(self.loss_graph_built)
        self.playground: PlaygroundPanel | None = None
        self._architecture_available = False
        self.stack = QStackedWidget()
        self.stack.addWidget(self.regression)
        header = QHBoxLayout()
        header.setContentsMargins(6, 6, 6, 0)
        header.setSpacing(8)
        self.title = QLabel()
        self.title.setObjectName("sectionTitle")
        header.addWidget(self.title)
        header.addWidget(self.task)
        header.addWidget(self.description, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(header)
        layout.addWidget(self.stack, 1)
        self._shown_task = "linear"
        self.retranslate()
        self.task.currentIndexChanged.connect(self._on_task_chosen)

    def retranslate(self) -> None:
        self.title.setText(self.tr("Task"))
        self.task.setToolTip(
            self.tr("The tutorial's linear regression (w, b), or a task for a network you shape")
        )
        for index in range(self.task.count()):
            key = self.task.itemData(index)
            if key in TASKS:  # (separators have no task)
                self.task.setItemText(index, TASKS[key].shown_label)  # core's names (gettext)
        self._show_description(self._shown_task)

    # --- the model -------------------------------------------------------------------------------

    @property
    def current(self) -> TrainingPanel | PlaygroundPanel:
        """The panel of the task shown."""
        return self.stack.currentWidget()

    def config(self) -> TrainingConfig:
        """The shown task's configuration (what a session saves)."""
        return self.current.form.config()

    def set_config(self, config: TrainingConfig) -> None:
        """Show the task of `config` with its settings, and start a new experiment with them."""
        config.validate()
        self._select(config.task)
        if config.task == "linear":
            self.regression.form.set_config(config)
            self.regression.reset()
            self.stack.setCurrentWidget(self.regression)
        else:
            self._playground(config).set_config(config)
            self.stack.setCurrentWidget(self.playground)
        self._show_description(config.task)

    def show_task(self, task: str, data_path: str | None = None) -> None:
        """Switch to `task`: the regression, or the playground on that task's data. The 'file'
        task asks for the user's file first (data_path: given instead); cancelled, nothing
        changes."""
        if task not in TASKS:
            raise ValueError(self.tr("unknown task %1").replace("%1", repr(task)))
        if task == "file" and data_path is None:
            data_path = ask_data_path(self)
            if data_path is None:
                self._select(self.config().task)  # cancelled: the chooser shows what is shown
                return
        self._select(task)
        if task == "linear":
            self.stack.setCurrentWidget(self.regression)
        else:
            fresh = self.playground is None
            start = TrainingConfig(**task_defaults(task)).with_changes(data_path=data_path)
            panel = self._playground(start)
            if not fresh:
                panel.form.set_task(task, data_path)
            self.stack.setCurrentWidget(panel)
        self._show_description(task)
        self.task_changed.emit(task)

    def set_architecture_available(self, available: bool) -> None:
        """An architecture view listens to architecture_requested: show its button."""
        self._architecture_available = available
        if self.playground is not None:
            self.playground.set_architecture_available(available)

    def shutdown(self) -> bool:
        """Join every worker thread (the window is closing)."""
        joined = self.regression.shutdown()
        if self.playground is not None:
            joined = self.playground.shutdown() and joined
        return joined

    # --- internals -------------------------------------------------------------------------------

    def _playground(self, config: TrainingConfig) -> PlaygroundPanel:
        if self.playground is None:
            self.playground = PlaygroundPanel(self.devices, initial=config)
            self.playground.status_message.connect(self.status_message)
            self.playground.state_changed.connect(self._on_playground_state_changed)
            self.playground.network_graph_built.connect(self.network_graph_built)
            self.playground.architecture_requested.connect(self.architecture_requested)
            self.playground.set_architecture_available(self._architecture_available)
            self.stack.addWidget(self.playground)
        return self.playground

    def _on_playground_state_changed(self, _state: str) -> None:
        """A refused setting puts the kept experiment back, maybe of another task: follow it."""
        if self.current is self.playground:
            task = self.playground.form.task
            self._select(task)
            self._show_description(task)

    def _select(self, task: str) -> None:
        self.task.blockSignals(True)
        self.task.setCurrentIndex(self.task.findData(task))
        self.task.blockSignals(False)

    def _show_description(self, task: str) -> None:
        self._shown_task = task
        self.description.setText(TASKS[task].shown_description)

    def _on_task_chosen(self, index: int) -> None:
        self.show_task(self.task.itemData(index))

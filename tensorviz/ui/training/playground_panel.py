"""The training playground: a real nn.Sequential you shape, trained live on a task beside the
tutorial's regression — the decision boundary, every neuron's tile, the weights, the losses, the
gradients of each layer, the step's phases, and the script that is this very run.

The state machine and the training thread are RunPanel's; the pictures are made in a second
thread from the training thread's snapshots and arrive as finished PictureFrames (the boundary,
the painted network), at most 12 a second, each drawn by setImage on items made once per
experiment.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, Signal
from PySide6.QtGui import QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import QLabel, QSizePolicy, QTabWidget, QWidget

from tensorviz.core.atomic_files import write_text_atomically
from tensorviz.core.explain.errors import ExplainedError
from tensorviz.core.training.data import TrainingConfig
from tensorviz.core.training.network_choices import LOSSES
from tensorviz.core.training.playground_graph import current_model, network_loss_graph
from tensorviz.core.training.playground_report import (
    PlaygroundInfo,
    explain_network_divergence,
    save_network_parameters,
    write_network_history_csv,
)
from tensorviz.core.training.playground_trainer import NetworkRecord, network_phase_codes
from tensorviz.core.training.remedies import apply_remedy
from tensorviz.core.training.script_export import script_file_name
from tensorviz.ui.training.code_view import ModelView, ScriptView
from tensorviz.ui.training.network_frames import PictureFrame
from tensorviz.ui.training.network_view import NetworkView
from tensorviz.ui.training.phase_view import PhaseView
from tensorviz.ui.training.picture_worker import PictureWorker
from tensorviz.ui.training.playground_form import PlaygroundForm
from tensorviz.ui.training.playground_layout import lay_out_playground
from tensorviz.ui.training.playground_plots import BoundaryView, GradientPlot, LossPlot
from tensorviz.ui.training.playground_worker import PlaygroundWorker
from tensorviz.ui.training.problem_view import ProblemView
from tensorviz.ui.training.run_panel import RunPanel
from tensorviz.ui.training.training_worker import TrainingThread
from tensorviz.ui.training.transport_bar import TransportBar
from tensorviz.ui.widgets.appearance_following import FollowsAppearanceLater

# The transport bar translates these (context "TransportBar").
EXPORTS = (
    ("copy", QT_TRANSLATE_NOOP("TransportBar", "Copy as PyTorch")),
    ("script", QT_TRANSLATE_NOOP("TransportBar", "Script as .py…")),
    ("csv", QT_TRANSLATE_NOOP("TransportBar", "Loss history as CSV…")),
    ("png", QT_TRANSLATE_NOOP("TransportBar", "Pictures as PNG…")),
    ("pt", QT_TRANSLATE_NOOP("TransportBar", "Parameters (state_dict) as .pt…")),
)
GRAPH_BUTTON = (
    QT_TRANSLATE_NOOP("TransportBar", "Autograd graph"),
    QT_TRANSLATE_NOOP(
        "TransportBar",
        "Open the autograd graph of the current model's loss in the Autograd graph area",
    ),
)
RESET_TIP = QT_TRANSLATE_NOOP("TransportBar", "Start again from the seeded initial weights (R)")


class PlaygroundPanel(FollowsAppearanceLater, RunPanel):
    # The loss of the current model as fresh tensors (name → tensor: parameters, x, y, output,
    # loss) and the loss's nn class name, for the Autograd graph area.
    network_graph_built = Signal(dict, str)
    # A CPU nn.Sequential with the current parameters and an example input: the hook for an
    # architecture view (the button shows once set_architecture_available(True) is called).
    architecture_requested = Signal(object, object)
    frame_drawn = Signal(int)  # the epoch of the pictures just drawn
    _pictures_handled = Signal()
    _pictures_requested = Signal()  # the theme changed: paint the network and boundary again

    def __init__(
        self,
        devices: list[str] | None = None,
        parent: QWidget | None = None,
        initial: TrainingConfig | None = None,
    ) -> None:
        """initial: the first experiment's configuration (a playground task; default: circles
        with the task's defaults)."""
        super().__init__(parent)
        self.history: list[NetworkRecord] = []
        self.info: PlaygroundInfo | None = None
        self.frame: PictureFrame | None = None
        self.frames_drawn = 0
        self.form = PlaygroundForm(devices or ["cpu"], initial)
        self.bar = TransportBar(exports=EXPORTS, graph_button=GRAPH_BUTTON, reset_tip=RESET_TIP)
        self.bar.smoothing.hide()
        self.problem_view = ProblemView()
        self.network_view = NetworkView()
        self.boundary = BoundaryView()
        self.loss_plot = LossPlot()
        self.gradient_plot = GradientPlot()
        self.phase_view = PhaseView()
        self.script_view = ScriptView()
        self.model_view = ModelView()
        self.tabs = QTabWidget()
        for view in (self.phase_view, self.script_view, self.model_view):
            self.tabs.addTab(view, "")
        self.summary = QLabel("")
        self.summary.setObjectName("sectionTitle")
        self.summary.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self._connect_transport()
        self.bar.log_scale.toggled.connect(self.loss_plot.set_log_scale)
        self.bar.export_requested.connect(self._on_export_requested)
        self.bar.loss_graph_requested.connect(self.show_network_graph)
        self.model_view.graph_requested.connect(self.show_network_graph)
        self.model_view.architecture_requested.connect(self.show_architecture)
        self.script_view.copy_requested.connect(self.copy_script)
        self.script_view.export_requested.connect(lambda: self._on_export_requested("script"))
        lay_out_playground(self)
        self._retranslate_views()
        self._build_shortcuts()
        copy = QShortcut(QKeySequence("Ctrl+Shift+C"), self)
        copy.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        copy.activated.connect(self.copy_script)
        worker = PlaygroundWorker()
        self.picture_worker = PictureWorker()
        self.picture_thread = TrainingThread(self.picture_worker, self)
        self.picture_thread.thread.setObjectName("tensorviz-pictures")
        worker.snapshot_ready.connect(self.picture_worker.make)
        self.picture_worker.pictures_ready.connect(self._on_pictures_ready)
        self._pictures_handled.connect(worker.acknowledge_pictures)
        self._pictures_requested.connect(worker.redraw_pictures)
        self._start_worker(worker)

    # --- the model and its graphs ----------------------------------------------------------------

    def set_config(self, config: TrainingConfig) -> None:
        """Show a playground configuration and start a new experiment with it."""
        self.form.set_config(config)
        self.reset()

    def shutdown(self) -> bool:
        """Join the training thread and the pictures' thread (the window is closing)."""
        joined = super().shutdown()
        return self.picture_thread.shutdown() and joined

    def set_architecture_available(self, available: bool) -> None:
        self.model_view.architecture_button.setVisible(available)

    def _current_state(self) -> dict | None:
        if self.info is None or self.frame is None:
            self.status_message.emit(self.tr("The experiment is still being prepared"))
            return None
        return self.frame.state

    def show_network_graph(self) -> None:
        """The loss of the model as it is now, rebuilt on the CPU as a real autograd graph."""
        state = self._current_state()
        if state is not None:
            tensors = network_loss_graph(self.info, state)
            self.network_graph_built.emit(tensors, LOSSES[self.info.config.loss][1])

    def show_architecture(self) -> None:
        state = self._current_state()
        if state is not None:
            self.architecture_requested.emit(*current_model(self.info, state))

    def copy_script(self) -> None:
        if self.info is None or not self.info.script:
            why = self.info.script_problem if self.info else self.tr("preparing")
            self.status_message.emit(self.tr("No script yet: %1").replace("%1", why))
            return
        QGuiApplication.clipboard().setText(self.info.script)
        self.status_message.emit(self.tr("Copied the run as a PyTorch script"))

    # --- exports ---------------------------------------------------------------------------------

    def export_script(self, path: str) -> None:
        write_text_atomically(path, self.info.script)

    def export_csv(self, path: str) -> None:
        write_network_history_csv(path, self.history)

    def export_png(self, path: str) -> None:
        self._save_png(self.pictures, path)

    def export_parameters(self, path: str) -> None:
        save_network_parameters(path, self.info.config, self.frame.state)

    def _on_export_requested(self, kind: str) -> None:
        if kind == "copy":
            self.copy_script()
            return
        if self.info is None or self.frame is None:
            self.status_message.emit(self.tr("The experiment is still being prepared"))
            return
        if kind == "script" and not self.info.script:
            no_script = self.tr("No script: %1")
            self.status_message.emit(no_script.replace("%1", self.info.script_problem))
            return
        if kind == "csv" and not self.history:
            self.status_message.emit(
                self.tr("Nothing to export yet: train at least one epoch first")
            )
            return
        title, suggested, file_filter, write = {
            "script": (
                self.tr("Export script"),
                script_file_name(self.info.config),
                self.tr("Python (*.py)"),
                self.export_script,
            ),
            "csv": (
                self.tr("Export loss history"),
                "playground.csv",
                self.tr("CSV (*.csv)"),
                self.export_csv,
            ),
            "png": (
                self.tr("Export pictures"),
                "playground.png",
                self.tr("PNG image (*.png)"),
                self.export_png,
            ),
            "pt": (
                self.tr("Export parameters"),
                "playground.pt",
                self.tr("PyTorch file (*.pt)"),
                self.export_parameters,
            ),
        }[kind]
        self._export_with_dialog(title, suggested, file_filter, write)

    # --- worker results --------------------------------------------------------------------------

    def restyle(self) -> None:
        """The pictures' colours pass through the theme's background: have them made again."""
        if self.info is not None and hasattr(self, "worker"):
            self._pictures_requested.emit()

    def _on_pictures_ready(self, generation: int, frame: PictureFrame) -> None:
        if generation == self.generation:
            self.frame = frame
            self.network_view.show_frame(frame)
            self.boundary.show_frame(frame)
            self.frames_drawn += 1
            self.frame_drawn.emit(frame.epoch)
        self._pictures_handled.emit()  # backpressure: the worker may make the next frame

    # --- hooks -----------------------------------------------------------------------------------

    def _phase_codes(self, config: TrainingConfig) -> dict[str, str]:
        return network_phase_codes(config)

    def _clear_views(self) -> None:
        self.frame = None
        self.summary.setText("")

    def _show_experiment(self, info: PlaygroundInfo) -> None:
        self.network_view.set_experiment(info)
        self.boundary.set_experiment(info)
        self.loss_plot.set_experiment(info)
        self.gradient_plot.set_experiment(info)
        self.script_view.show_script(info.script, info.script_problem)
        parameters = sum(v.size for v in info.pictures.state.values())
        self.model_view.show_model(info.model_text, parameters)
        self._show_summary(None)

    def _show_records(self, records: list[NetworkRecord]) -> None:
        self.loss_plot.add_records(records)
        last = records[-1]
        self.gradient_plot.show_norms(last.grad_norms, self.history[0].grad_norms)
        self._show_summary(last)

    def _show_summary(self, last: NetworkRecord | None) -> None:
        """The experiment's samples before the first epoch, then the last epoch's losses."""
        if last is None:
            if self.info is not None:
                text = self.tr("%1 · %2 training, %3 test samples").replace("%1", self.info.source)
                text = text.replace("%2", str(len(self.info.train)))
                self.summary.setText(text.replace("%3", str(len(self.info.test))))
            return
        text = self.tr("epoch %1 · train loss %2").replace("%1", str(last.epoch))
        text = text.replace("%2", f"{last.loss:.4g}")
        if last.test_loss is not None:
            text += self.tr(" · test loss %1").replace("%1", f"{last.test_loss:.4g}")
        if last.test_accuracy is not None:
            text += self.tr(" · test accuracy %1").replace("%1", f"{last.test_accuracy:.1%}")
        self.summary.setText(text)

    def _retranslate_views(self) -> None:
        for index, title in enumerate((self.tr("Step"), self.tr("Code"), self.tr("Model"))):
            self.tabs.setTabText(index, title)
        if self.summary.text():
            self._show_summary(self.history[-1] if self.history else None)

    def _finished_message(self, last: NetworkRecord) -> str:
        text = self.tr("Training finished: loss %1").replace("%1", f"{last.loss:.4f}")
        if last.test_accuracy is not None:
            text += self.tr(", test accuracy %1").replace("%1", f"{last.test_accuracy:.1%}")
        return text

    def _explain_divergence(self, divergence, last) -> ExplainedError:
        return explain_network_divergence(divergence, last)

    def _remedied_config(self, key: str) -> TrainingConfig:
        return apply_remedy(self.form.config(), self.remedies[key])

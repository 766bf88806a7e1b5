"""The Training area: gradient descent on the reference linear regression, live and step by step.

States: ready (a fresh or reset experiment) → running ⇄ paused → finished, or stopped (diverged,
or torch refused the update). The loop runs in a TrainingWorker thread; every result arrives
tagged with a generation, and results of an experiment that has since been reset are dropped.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QFileDialog,
    QWidget,
)

from tensorviz.core.atomic_files import write_atomically
from tensorviz.core.explain.errors import ExplainedError
from tensorviz.core.training.data import TrainingConfig
from tensorviz.core.training.report import (
    USE_NO_GRAD,
    ExperimentInfo,
    explain_divergence,
    explain_setup_problem,
    save_parameters,
    tutorial_table,
    write_history_csv,
)
from tensorviz.core.training.trainer import (
    PhaseRecord,
    Remedy,
    StepRecord,
    apply_remedy,
    loss_graph,
    phase_codes,
)
from tensorviz.ui.training.config_form import TrainingConfigForm
from tensorviz.ui.training.panel_layout import lay_out_panel
from tensorviz.ui.training.problem_view import ProblemView
from tensorviz.ui.training.step_view import GradientView, PhaseView, ResultsView
from tensorviz.ui.training.training_plots import TrainingPlots
from tensorviz.ui.training.training_worker import TrainingThread, TrainingWorker
from tensorviz.ui.training.transport_bar import TransportBar

READY, RUNNING, PAUSED, FINISHED, STOPPED, LOADING = (
    "ready",
    "running",
    "paused",
    "finished",
    "stopped",
    "loading",
)


class TrainingPanel(QWidget):
    status_message = Signal(str)
    state_changed = Signal(str)
    loss_graph_built = Signal(dict)  # name → tensor: w, b, x, y, y_pred, loss at the current step
    # Requests to the worker (queued into its thread).
    _reset_requested = Signal(int, object)
    _play_requested = Signal()
    _pause_requested = Signal()
    _epoch_step_requested = Signal()
    _phase_step_requested = Signal()
    _speed_requested = Signal(int)
    _records_handled = Signal()

    def __init__(self, devices: list[str] | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = LOADING
        self.generation = 0
        self.history: list[StepRecord] = []
        self.info: ExperimentInfo | None = None
        self.last_phase: PhaseRecord | None = None
        self.batch_progress: tuple[int, int, int] | None = None  # epoch, batches done, per epoch
        self.remedies: dict[str, Remedy] = {}  # the remedies on offer, by key
        self._play_when_ready = False
        self.form = TrainingConfigForm(devices or ["cpu"])
        self.plots = TrainingPlots()
        self.phase_view = PhaseView()
        self.gradient_view = GradientView()
        self.results_view = ResultsView()
        self.problem_view = ProblemView()
        self._build_controls()
        self._build_layout()
        self._build_shortcuts()
        self.worker = TrainingWorker()
        self._connect_worker()
        self.thread = TrainingThread(self.worker, self)
        self.form.config_changed.connect(self._on_config_changed)
        self.reset()

    # --- construction ----------------------------------------------------------------------------

    def _build_controls(self) -> None:
        self.bar = TransportBar()
        self.play_button, self.progress = self.bar.play_button, self.bar.progress
        self.bar.play_button.clicked.connect(self.toggle_play)
        self.bar.epoch_button.clicked.connect(self.step_epoch)
        self.bar.phase_button.clicked.connect(self.step_phase)
        self.bar.reset_button.clicked.connect(self.reset)
        self.bar.speed.valueChanged.connect(self._speed_requested)
        self.bar.log_scale.toggled.connect(self.plots.set_log_scale)
        self.bar.smoothing.toggled.connect(self.plots.set_smoothing)
        self.bar.export_requested.connect(self._on_export_requested)
        self.bar.loss_graph_requested.connect(self.show_loss_graph)
        self.problem_view.remedy_chosen.connect(self.apply_remedy)

    def _build_layout(self) -> None:
        lay_out_panel(self)

    def _build_shortcuts(self) -> None:
        keys = {
            "Space": self.toggle_play,
            "Right": self.step_epoch,
            "N": self.step_phase,
            "R": self.reset,
        }
        for key, slot in keys.items():
            shortcut = QShortcut(QKeySequence(key), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)

    def _connect_worker(self) -> None:
        worker = self.worker
        self._reset_requested.connect(worker.reset)
        self._play_requested.connect(worker.play)
        self._pause_requested.connect(worker.pause)
        self._epoch_step_requested.connect(worker.step_epoch)
        self._phase_step_requested.connect(worker.step_phase)
        self._speed_requested.connect(worker.set_speed)
        self._records_handled.connect(worker.acknowledge)
        worker.experiment_ready.connect(self._on_experiment_ready)
        worker.records_ready.connect(self._on_records_ready)
        worker.phase_done.connect(self._on_phase_done)
        worker.progress_made.connect(self._on_progress_made)
        worker.finished.connect(self._on_finished)
        worker.stopped.connect(self._on_stopped)
        worker.failed.connect(self._on_failed)

    # --- gestures --------------------------------------------------------------------------------

    def toggle_play(self) -> None:
        self.pause() if self.state == RUNNING else self.play()

    def play(self) -> None:
        if self.state in (READY, PAUSED):
            self._set_state(RUNNING)
            self._play_requested.emit()

    def pause(self) -> None:
        if self.state == RUNNING:
            self._set_state(PAUSED)
            self._pause_requested.emit()

    def step_epoch(self) -> None:
        if self.state in (READY, PAUSED):
            self.phase_view.clear_highlight()
            self._set_state(PAUSED)
            self._epoch_step_requested.emit()

    def step_phase(self) -> None:
        if self.state in (READY, PAUSED):
            self._set_state(PAUSED)
            self._phase_step_requested.emit()

    def reset(self) -> None:
        self.generation += 1
        self.worker.interrupt()  # thread-safe: the loop stops at its next phase, not its epoch end
        self.history = []
        self.last_phase = None
        self.batch_progress = None
        self.remedies = {}
        self.problem_view.clear()
        self.phase_view.clear_highlight()
        self.gradient_view.show_record(None)
        self._set_state(LOADING)
        config = self.form.config()
        self.phase_view.set_codes(phase_codes(config))
        self._reset_requested.emit(self.generation, config)

    def apply_remedy(self, key: str) -> None:
        """Change the configuration as the remedy says, reset and play again."""
        config = self.form.config()
        if key == USE_NO_GRAD.key:
            config = config.with_changes(update_without_no_grad=False)
        else:
            config = apply_remedy(config, self.remedies.get(key, key))
        self.form.set_config(config)
        self._play_when_ready = True
        self.status_message.emit(f"Applied: {self.problem_view.buttons[key].text()}")
        self.reset()

    def show_loss_graph(self) -> None:
        """Rebuild the loss at the current w, b (or the initial ones) as a real autograd graph."""
        info = getattr(self, "info", None)
        if info is None:
            self.status_message.emit("The experiment is still being prepared")
            return
        w, b = (self.history[-1].w, self.history[-1].b) if self.history else info.initial
        self.loss_graph_built.emit(loss_graph(info.config, w, b))

    def shutdown(self) -> bool:
        """Stop the loop at its next phase and join the worker thread (the window is closing);
        the wait is bounded, and a thread that outlives it is reported."""
        self.generation += 1  # anything still queued is stale now
        joined = self.thread.shutdown()
        if not joined:
            self.status_message.emit("The training thread did not stop in time; it is left to end")
        return joined

    # --- exports ---------------------------------------------------------------------------------

    def export_csv(self, path: str) -> None:
        write_history_csv(path, self.history)

    def export_png(self, path: str) -> None:
        pixmap = self.plots.grab()

        def write(temporary: str) -> None:
            if not pixmap.save(temporary, "PNG"):
                raise OSError(f"could not write {path}")

        write_atomically(path, write)

    def export_parameters(self, path: str) -> None:
        if self.history:
            save_parameters(path, self.history[-1], self.info.config)

    def _on_export_requested(self, kind: str) -> None:
        title, file_filter, write = {
            "csv": ("Export loss history", "CSV (*.csv)", self.export_csv),
            "png": ("Export plots", "PNG image (*.png)", self.export_png),
            "pt": ("Export parameters", "PyTorch file (*.pt)", self.export_parameters),
        }[kind]
        if kind != "png" and not self.history:
            self.status_message.emit("Nothing to export yet: train at least one epoch first")
            return
        path, _ = QFileDialog.getSaveFileName(self, title, f"training.{kind}", file_filter)
        if not path:
            return
        try:
            write(path)
        except OSError as error:
            self.status_message.emit(f"Could not save {path}: {error}")
            return
        self.status_message.emit(f"Saved {path}")

    # --- worker results --------------------------------------------------------------------------

    def _on_experiment_ready(self, generation: int, info: ExperimentInfo) -> None:
        if generation != self.generation:
            return
        self.info = info
        self.plots.set_experiment(info)
        self.results_view.set_experiment(info)
        self._set_state(READY)
        if self._play_when_ready:
            self._play_when_ready = False
            self.play()

    def _on_records_ready(self, generation: int, records: list) -> None:
        if generation == self.generation and records:
            self.history.extend(records)
            if self.batch_progress and self.batch_progress[0] <= records[-1].epoch:
                self.batch_progress = None
            self.plots.add_records(records)
            last = records[-1]
            self.gradient_view.show_record(last)
            self.results_view.show_record(last, final=last.epoch >= self.info.config.epochs)
            self.results_view.add_tutorial_lines(tutorial_table(records, self.info.config.epochs))
            self._show_progress()
        self._records_handled.emit()  # backpressure: now the worker may send the next batch

    def _on_progress_made(self, generation: int, epoch: int, done: int, total: int) -> None:
        if generation == self.generation and self.state != LOADING:
            self.batch_progress = (epoch, done, total)
            self._show_progress()

    def _on_phase_done(self, generation: int, record: PhaseRecord) -> None:
        if generation == self.generation:
            self.last_phase = record
            self.phase_view.show_phase(record)

    def _on_finished(self, generation: int) -> None:
        if generation != self.generation:
            return
        self._set_state(FINISHED)
        if self.history:
            last = self.history[-1]
            self.results_view.show_record(last, final=True)
            self.status_message.emit(
                f"Training finished: w = {last.w:.4f}, b = {last.b:.4f}, loss {last.loss:.4f}"
            )

    def _on_stopped(self, generation: int, divergence, error) -> None:
        if generation != self.generation:
            return
        self._set_state(STOPPED)
        if divergence is not None:
            self.remedies = {remedy.key: remedy for remedy in divergence.remedies}
            last = self.history[-1] if self.history else None
            self._show_problem(explain_divergence(divergence, last), divergence.remedies)
            self.status_message.emit(divergence.message())
        elif error is not None:
            self._show_problem(error, (USE_NO_GRAD,))
            self.status_message.emit(f"torch refused the update: {error.torch_message}")

    def _on_failed(self, generation: int, message: str, kept: str) -> None:
        """The new settings could not be used. If an experiment was running before, the worker
        kept it and re-sends its history after this: show it again, as it was."""
        if generation != self.generation:
            return
        if kept and self.info is not None:
            self.form.set_config(self.info.config)  # the settings of the experiment kept
            self.phase_view.set_codes(phase_codes(self.info.config))
            self.plots.set_experiment(self.info)
            self.results_view.set_experiment(self.info)
            self._set_state(kept)
            detail = "The previous experiment is unchanged."
        else:
            self._set_state(STOPPED)
            detail = "There is no experiment to train until the settings can be used."
        problem = explain_setup_problem(message, detail)
        self._show_problem(problem, ())
        self.status_message.emit(f"Not applied: {message}")

    def _show_problem(self, explained: ExplainedError, remedies: tuple[Remedy, ...]) -> None:
        self.problem_view.show_problem(explained, remedies)

    # --- view state ------------------------------------------------------------------------------

    def _on_config_changed(self, _config: TrainingConfig) -> None:
        self.reset()

    def _set_state(self, state: str) -> None:
        self.state = state
        idle = state in (READY, PAUSED)
        self.bar.show_state(state == RUNNING, idle, state != LOADING)
        self._show_progress()
        self.state_changed.emit(state)

    def _show_progress(self) -> None:
        """Epoch first, state last: on a narrow window the label is cut from the right (the
        full text is its tooltip). Within a long epoch: the mini-batch it has reached."""
        total = self.info.config.epochs if self.info else 0
        state = {LOADING: "preparing…"}.get(self.state, self.state)
        done = self.history[-1].epoch if self.history else 0
        text = f"epoch {done} / {total}"
        if self.batch_progress and self.state != LOADING:
            epoch, batch, per_epoch = self.batch_progress
            text += f" · batch {batch:,} / {per_epoch:,} of epoch {epoch}"
        if self.history:
            last = self.history[-1]
            text += f" · loss {last.loss:.5g} · {last.elapsed:.2f} s · {state}"
        elif self.info and self.state != LOADING:
            text += f" · {state} · {self.info.source}"
        else:
            text = state
        self.progress.setText(text)
        self.progress.setToolTip(text)

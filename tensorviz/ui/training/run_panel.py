"""What the Training area's panels share: the run's state machine and its worker thread.

States: ready (a fresh or reset experiment) → running ⇄ paused → finished, or stopped (diverged,
or torch refused a step). The loop runs in a TrainingWorker thread; every result arrives tagged
with a generation, and results of an experiment that has since been reset are dropped.

A panel (the linear regression's TrainingPanel, the network playground's PlaygroundPanel) builds
its views, `form`, `bar`, `phase_view` and `problem_view`, then calls `_start_worker`, and fills
in the hooks below that present its own experiment and records.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QFileDialog, QWidget

from tensorviz.core.atomic_files import write_atomically
from tensorviz.core.explain.errors import ExplainedError
from tensorviz.core.training.data import TrainingConfig
from tensorviz.core.training.remedies import Remedy
from tensorviz.core.training.report import explain_setup_problem
from tensorviz.ui.training.training_worker import TrainingThread, TrainingWorker
from tensorviz.ui.widgets.retranslating import Retranslating

READY, RUNNING, PAUSED, FINISHED, STOPPED, LOADING = (
    "ready",
    "running",
    "paused",
    "finished",
    "stopped",
    "loading",
)
# What the progress line calls each state (context "RunPanel").
STATE_NAMES = {
    READY: QT_TRANSLATE_NOOP("RunPanel", "ready"),
    RUNNING: QT_TRANSLATE_NOOP("RunPanel", "running"),
    PAUSED: QT_TRANSLATE_NOOP("RunPanel", "paused"),
    FINISHED: QT_TRANSLATE_NOOP("RunPanel", "finished"),
    STOPPED: QT_TRANSLATE_NOOP("RunPanel", "stopped"),
    LOADING: QT_TRANSLATE_NOOP("RunPanel", "preparing…"),
}


def translated(text: str) -> str:
    """A text marked QT_TRANSLATE_NOOP("RunPanel", ...), in the language in force."""
    return QCoreApplication.translate("RunPanel", text)


class RunPanel(Retranslating, QWidget):
    status_message = Signal(str)
    state_changed = Signal(str)
    # Requests to the worker (queued into its thread).
    _reset_requested = Signal(int, object)
    _play_requested = Signal()
    _pause_requested = Signal()
    _epoch_step_requested = Signal()
    _phase_step_requested = Signal()
    _speed_requested = Signal(int)
    _records_handled = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = LOADING
        self.generation = 0
        self.history: list = []
        self.info = None
        self.last_phase = None
        self.batch_progress: tuple[int, int, int] | None = None  # epoch, batches done, per epoch
        self.remedies: dict[str, Remedy] = {}  # the remedies on offer, by key
        self._play_when_ready = False

    # --- hooks for the panel ---------------------------------------------------------------------

    def _phase_codes(self, config: TrainingConfig) -> dict[str, str]:
        raise NotImplementedError

    def _clear_views(self) -> None:
        """A reset: forget what the views show of the last step."""

    def _show_experiment(self, info) -> None:
        raise NotImplementedError

    def _show_records(self, records: list) -> None:
        raise NotImplementedError

    def _show_finished(self, last) -> None:
        """Every epoch has run; `last` is the final record."""

    def _finished_message(self, last) -> str:
        return QCoreApplication.translate("RunPanel", "Training finished: loss %1").replace(
            "%1", f"{last.loss:.4f}"
        )

    def _explain_divergence(self, divergence, last) -> ExplainedError:
        raise NotImplementedError

    def _error_remedies(self) -> tuple[Remedy, ...]:
        """The remedies offered when torch refused a step."""
        return ()

    # What the status line says torch refused (%1: torch's message).
    _refused_step = QT_TRANSLATE_NOOP("RunPanel", "torch refused the step: %1")

    def _remedied_config(self, key: str) -> TrainingConfig:
        """The form's configuration with the remedy `key` applied."""
        raise NotImplementedError

    def _retranslate_views(self) -> None:
        """The language changed: redo the texts the panel made itself (summaries, readouts)."""

    def retranslate(self) -> None:
        self._show_progress()
        self._retranslate_views()

    # --- construction ----------------------------------------------------------------------------

    def _connect_transport(self) -> None:
        bar = self.bar
        self.play_button, self.progress = bar.play_button, bar.progress
        bar.play_button.clicked.connect(self.toggle_play)
        bar.epoch_button.clicked.connect(self.step_epoch)
        bar.phase_button.clicked.connect(self.step_phase)
        bar.reset_button.clicked.connect(self.reset)
        bar.speed.valueChanged.connect(self._speed_requested)
        self.problem_view.remedy_chosen.connect(self.apply_remedy)

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

    def _start_worker(self, worker: TrainingWorker) -> None:
        """Connect the worker, start its thread and prepare the first experiment."""
        self.worker = worker
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
        self.thread = TrainingThread(worker, self)
        self.form.config_changed.connect(self._on_config_changed)
        self.reset()

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
        self._clear_views()
        self._set_state(LOADING)
        config = self.form.config()
        self.phase_view.set_codes(self._phase_codes(config))
        self._reset_requested.emit(self.generation, config)

    def apply_remedy(self, key: str) -> None:
        """Change the configuration as the remedy says, reset and play again."""
        self.form.set_config(self._remedied_config(key))
        self._play_when_ready = True
        applied = QCoreApplication.translate("RunPanel", "Applied: %1")
        self.status_message.emit(applied.replace("%1", self.problem_view.buttons[key].text()))
        self.reset()

    def shutdown(self) -> bool:
        """Stop the loop at its next phase and join the worker thread (the window is closing);
        the wait is bounded, and a thread that outlives it is reported."""
        self.generation += 1  # anything still queued is stale now
        joined = self.thread.shutdown()
        if not joined:
            self.status_message.emit(
                QCoreApplication.translate(
                    "RunPanel", "The training thread did not stop in time; it is left to end"
                )
            )
        return joined

    # --- exports ---------------------------------------------------------------------------------

    def _save_png(self, widget: QWidget, path: str) -> None:
        """The widget as it is drawn now, as a PNG written atomically."""
        pixmap = widget.grab()

        def write(temporary: str) -> None:
            if not pixmap.save(temporary, "PNG"):
                raise OSError(
                    QCoreApplication.translate("RunPanel", "could not write %1").replace("%1", path)
                )

        write_atomically(path, write)

    def _export_with_dialog(self, title: str, suggested: str, file_filter: str, write) -> None:
        """Ask where, write there with write(path), and say how it went on the status line."""
        path, _filter = QFileDialog.getSaveFileName(self, title, suggested, file_filter)
        if not path:
            return
        try:
            write(path)
        except OSError as error:
            failed = QCoreApplication.translate("RunPanel", "Could not save %1: %2")
            self.status_message.emit(failed.replace("%1", path).replace("%2", str(error)))
            return
        self.status_message.emit(
            QCoreApplication.translate("RunPanel", "Saved %1").replace("%1", path)
        )

    # --- worker results --------------------------------------------------------------------------

    def _on_experiment_ready(self, generation: int, info) -> None:
        if generation != self.generation:
            return
        self.info = info
        self._show_experiment(info)
        self._set_state(READY)
        if self._play_when_ready:
            self._play_when_ready = False
            self.play()

    def _on_records_ready(self, generation: int, records: list) -> None:
        if generation == self.generation and records:
            self.history.extend(records)
            if self.batch_progress and self.batch_progress[0] <= records[-1].epoch:
                self.batch_progress = None
            self._show_records(records)
            self._show_progress()
        self._records_handled.emit()  # backpressure: now the worker may send the next batch

    def _on_progress_made(self, generation: int, epoch: int, done: int, total: int) -> None:
        if generation == self.generation and self.state != LOADING:
            self.batch_progress = (epoch, done, total)
            self._show_progress()

    def _on_phase_done(self, generation: int, record) -> None:
        if generation == self.generation:
            self.last_phase = record
            self.phase_view.show_phase(record)

    def _on_finished(self, generation: int) -> None:
        if generation != self.generation:
            return
        self._set_state(FINISHED)
        if self.history:
            self._show_finished(self.history[-1])
            self.status_message.emit(self._finished_message(self.history[-1]))

    def _on_stopped(self, generation: int, divergence, error) -> None:
        if generation != self.generation:
            return
        self._set_state(STOPPED)
        if divergence is not None:
            self.remedies = {remedy.key: remedy for remedy in divergence.remedies}
            last = self.history[-1] if self.history else None
            self.problem_view.show_problem(
                self._explain_divergence(divergence, last), divergence.remedies
            )
            self.status_message.emit(divergence.message())
        elif error is not None:
            self.problem_view.show_problem(error, self._error_remedies())
            refused = translated(self._refused_step)
            self.status_message.emit(refused.replace("%1", error.torch_message))

    def _on_failed(self, generation: int, message: str, kept: str, kept_info) -> None:
        """The new settings could not be used. If an experiment was running before, the worker
        kept it (kept_info) and re-sends its history after this: show it again, as it was."""
        if generation != self.generation:
            return
        if kept and kept_info is not None:
            self.info = kept_info
            self.form.set_config(self.info.config)  # the settings of the experiment kept
            self.phase_view.set_codes(self._phase_codes(self.info.config))
            self._show_experiment(self.info)
            self._set_state(kept)
            detail = QCoreApplication.translate("RunPanel", "The previous experiment is unchanged.")
        else:
            self._set_state(STOPPED)
            detail = QCoreApplication.translate(
                "RunPanel", "There is no experiment to train until the settings can be used."
            )
        self.problem_view.show_problem(explain_setup_problem(message, detail), ())
        not_applied = QCoreApplication.translate("RunPanel", "Not applied: %1")
        self.status_message.emit(not_applied.replace("%1", message))

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
        state = translated(STATE_NAMES[self.state])
        done = self.history[-1].epoch if self.history else 0
        text = QCoreApplication.translate("TransportBar", "epoch %1 / %2")
        text = text.replace("%1", str(done)).replace("%2", str(total))
        if self.batch_progress and self.state != LOADING:
            epoch, batch, per_epoch = self.batch_progress
            text += (
                QCoreApplication.translate("RunPanel", " · batch %1 / %2 of epoch %3")
                .replace("%1", f"{batch:,}")
                .replace("%2", f"{per_epoch:,}")
                .replace("%3", str(epoch))
            )
        if self.history:
            last = self.history[-1]
            text += (
                QCoreApplication.translate("RunPanel", " · loss %1 · %2 s · %3")
                .replace("%1", f"{last.loss:.5g}")
                .replace("%2", f"{last.elapsed:.2f}")
                .replace("%3", state)
            )
        elif self.info and self.state != LOADING:
            text += f" · {state} · {self.info.source}"
        else:
            text = state
        self.progress.setText(text)
        self.progress.setToolTip(text)

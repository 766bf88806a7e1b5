"""The training loop off the GUI thread (ARCHITECTURE rule 4).

A TrainingWorker lives in its own QThread and owns the core Trainer; the panel drives it only
through queued signals and receives plain records (StepRecord, PhaseRecord, ExperimentInfo) tagged
with the generation they belong to, so results of an experiment the user has already reset are
dropped. Playing is a QTimer in the worker's thread: each tick runs epochs for a short slice (or one
epoch / one phase in slow motion), so pause and reset requests are handled between slices.
Records are sent at most every THROTTLE_S seconds, in batches.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QCoreApplication, QObject, Qt, QThread, QTimer, Signal, Slot

from tensorviz.core.training import Trainer
from tensorviz.core.training_data import TrainingConfig, TrainingConfigError
from tensorviz.core.training_report import describe_experiment

THROTTLE_S = 1 / 25  # at most 25 batches of records a second
FULL_SPEED_THROTTLE_S = 0.2  # at full speed the GUI thread must leave the GIL to the loop
SLICE_S = 0.012  # epochs run per timer tick at full speed, so control requests stay prompt
# (label, milliseconds between steps, advance by phase?) from slow motion to full speed.
SPEEDS = (
    ("phases, slowly", 500, True),
    ("1 epoch/s", 1000, False),
    ("5 epochs/s", 200, False),
    ("20 epochs/s", 50, False),
    ("100 epochs/s", 10, False),
    ("full speed", 0, False),
)
FULL_SPEED = len(SPEEDS) - 1


class TrainingWorker(QObject):
    experiment_ready = Signal(int, object)  # generation, ExperimentInfo
    records_ready = Signal(int, list)  # generation, [StepRecord, ...]
    phase_done = Signal(int, object)  # generation, PhaseRecord
    stopped = Signal(int, object, object)  # generation, Divergence | None, ExplainedError | None
    finished = Signal(int)  # generation: every epoch has run
    failed = Signal(int, str)  # generation, a one-line problem (bad data file, device)

    def __init__(self) -> None:
        super().__init__()
        self.trainer: Trainer | None = None
        self.generation = 0
        self._sent = 0
        self._last_send = 0.0
        self._speed = FULL_SPEED
        self._timer: QTimer | None = None
        self._in_flight = False  # a batch is on its way and the GUI has not yet handled it

    @Slot()
    def setup(self) -> None:
        """Runs in the worker thread once it has started: the timer must belong to it."""
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._on_tick)
        self._apply_speed()

    @Slot()
    def teardown(self) -> None:
        """Runs in the worker thread as it finishes (direct connection to QThread.finished)."""
        if self._timer is not None:
            self._timer.stop()

    @Slot(int, object)
    def reset(self, generation: int, config: TrainingConfig) -> None:
        self._pause_timer()
        self.generation, self._sent, self.trainer = generation, 0, None
        self._in_flight = False
        try:
            self.trainer = Trainer(config)
            info = describe_experiment(self.trainer)
        except (TrainingConfigError, RuntimeError) as error:
            self.failed.emit(generation, str(error).splitlines()[0])
            return
        self.experiment_ready.emit(generation, info)

    @Slot()
    def acknowledge(self) -> None:
        """The GUI has drawn the last batch: backpressure, so a slow GUI never builds a queue."""
        self._in_flight = False

    @Slot(int)
    def set_speed(self, level: int) -> None:
        self._speed = level
        self._apply_speed()

    @Slot()
    def play(self) -> None:
        if self.trainer is not None and not self.trainer.finished and self._timer is not None:
            self._last_send = time.perf_counter()  # the first batch waits one throttle period
            self._timer.start()

    @Slot()
    def pause(self) -> None:
        self._pause_timer()
        self._flush(force=True)

    @Slot()
    def step_epoch(self) -> None:
        if self.trainer is not None:
            self.trainer.step_epoch()
            self._after_step()

    @Slot()
    def step_phase(self) -> None:
        if self.trainer is None:
            return
        phase = self.trainer.step_phase()
        if phase is not None:
            self.phase_done.emit(self.generation, phase)
        self._after_step()

    # --- internals -------------------------------------------------------------------------------

    def _apply_speed(self) -> None:
        if self._timer is not None:
            self._timer.setInterval(SPEEDS[self._speed][1])

    def _pause_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()

    def _on_tick(self) -> None:
        trainer = self.trainer
        if trainer is None or trainer.finished:
            self._pause_timer()
            return
        _, _, by_phase = SPEEDS[self._speed]
        if by_phase:
            self.step_phase()
            return
        if self._speed == FULL_SPEED:
            deadline = time.perf_counter() + SLICE_S
            while not trainer.finished and time.perf_counter() < deadline:
                trainer.step_epoch()
        else:
            trainer.step_epoch()
        # Every step is shown when steps are slower than the throttle; faster ones are batched.
        self._after_step(force=SPEEDS[self._speed][1] >= THROTTLE_S * 1000)

    def _after_step(self, force: bool = True) -> None:
        trainer = self.trainer
        done = trainer is not None and trainer.finished
        self._flush(force=force or done)
        if done:
            self._pause_timer()
            if trainer.stopped:
                self.stopped.emit(self.generation, trainer.divergence, trainer.error)
            else:
                self.finished.emit(self.generation)

    def _flush(self, force: bool) -> None:
        if self.trainer is None:
            return
        now = time.perf_counter()
        history = self.trainer.history
        throttle = FULL_SPEED_THROTTLE_S if self._speed == FULL_SPEED else THROTTLE_S
        ready = not self._in_flight and now - self._last_send >= throttle
        if len(history) > self._sent and (force or ready):
            self._in_flight = True
            self.records_ready.emit(self.generation, history[self._sent :])
            self._sent = len(history)
            self._last_send = now


class TrainingThread(QObject):
    """Owns the worker's QThread: started at once, stopped and joined by shutdown()."""

    def __init__(self, worker: TrainingWorker, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.worker = worker
        self.thread = QThread()
        self.thread.setObjectName("tensorviz-training")
        worker.moveToThread(self.thread)
        self.thread.started.connect(worker.setup)
        self.thread.finished.connect(worker.teardown, Qt.ConnectionType.DirectConnection)
        self.thread.start()
        if app := QCoreApplication.instance():  # a last resort if nobody called shutdown()
            app.aboutToQuit.connect(self.shutdown)

    def shutdown(self) -> None:
        if self.thread.isRunning():
            self.thread.quit()
            self.thread.wait()

    def is_running(self) -> bool:
        return self.thread.isRunning()

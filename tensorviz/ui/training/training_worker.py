"""The training loop off the GUI thread (ARCHITECTURE rule 4).

A TrainingWorker lives in its own QThread and owns the core Trainer; the panel drives it through
queued signals and receives plain records (StepRecord, PhaseRecord, ExperimentInfo) tagged with
the generation they belong to, so results of an experiment the user has already reset are dropped.

No slot runs for long: work is done in slices of SLICE_S, and an epoch that does not fit in one
slice (a million mini-batches of one sample) continues in a later event of the worker's loop, with
its progress (batch i / N) reported on the way, so queued requests are handled between slices.
Reset and close do not even wait for that: interrupt() and close() set thread-safe flags, called
directly from the GUI thread, which the trainer checks before every phase. Records are sent at
most every THROTTLE_S seconds, in batches, and only once the GUI has drawn the previous batch.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QCoreApplication,
    QObject,
    Qt,
    QThread,
    QTimer,
    Signal,
    Slot,
)

from tensorviz.core.training.data import TrainingConfig, TrainingConfigError
from tensorviz.core.training.report import describe_experiment
from tensorviz.core.training.trainer import Trainer

THROTTLE_S = 1 / 25  # at most 25 batches of records a second
FULL_SPEED_THROTTLE_S = 0.2  # at full speed the GUI thread must leave the GIL to the loop
PROGRESS_S = 0.1  # progress within a long epoch, at most 10 times a second
SLICE_S = 0.012  # work per event of the worker's loop, so control requests stay prompt
JOIN_TIMEOUT_MS = 3000  # how long closing waits for the worker thread before reporting it
# (label, milliseconds between steps, advance by phase?) from slow motion to full speed.
# The labels are translated where shown (context "TrainingWorker").
SPEEDS = (
    (QT_TRANSLATE_NOOP("TrainingWorker", "phases, slowly"), 500, True),
    (QT_TRANSLATE_NOOP("TrainingWorker", "1 epoch/s"), 1000, False),
    (QT_TRANSLATE_NOOP("TrainingWorker", "5 epochs/s"), 200, False),
    (QT_TRANSLATE_NOOP("TrainingWorker", "20 epochs/s"), 50, False),
    (QT_TRANSLATE_NOOP("TrainingWorker", "100 epochs/s"), 10, False),
    (QT_TRANSLATE_NOOP("TrainingWorker", "full speed"), 0, False),
)
FULL_SPEED = len(SPEEDS) - 1
KEPT_STATES = ("ready", "paused", "finished", "stopped")

log = logging.getLogger(__name__)


def prepare_regression(config: TrainingConfig) -> tuple[Trainer, object]:
    """The linear regression's trainer and the ExperimentInfo the panel draws first."""
    trainer = Trainer(config)
    return trainer, describe_experiment(trainer)


def one_line(error: BaseException) -> str:
    """An exception as the single sentence the panel shows."""
    if isinstance(error, TrainingConfigError):
        return str(error)
    first = (str(error).strip().splitlines() or [""])[0]
    return f"{type(error).__name__}: {first}" if first else type(error).__name__


class TrainingWorker(QObject):
    experiment_ready = Signal(int, object)  # generation, ExperimentInfo
    records_ready = Signal(int, list)  # generation, [StepRecord, ...]
    phase_done = Signal(int, object)  # generation, PhaseRecord
    progress_made = Signal(int, int, int, int)  # generation, epoch, batches done, batches/epoch
    stopped = Signal(int, object, object)  # generation, Divergence | None, ExplainedError | None
    finished = Signal(int)  # generation: every epoch has run
    # generation, a one-line problem (bad data file, device), the state of the previous
    # experiment, which is kept (one of KEPT_STATES; '' when there was none), and that
    # experiment's info (None when there was none: the panel may never have seen it, when the
    # reset that made it was itself overtaken). A kept experiment's whole history follows,
    # re-sent under the new generation.
    failed = Signal(int, str, str, object)

    def __init__(self, prepare: Callable[[TrainingConfig], tuple] = prepare_regression) -> None:
        """prepare(config) → (trainer, info): the trainer this worker drives (a PhasedLoop) and
        what the panel shows of the new experiment before its first step."""
        super().__init__()
        self._prepare = prepare
        self.trainer: Trainer | None = None
        self.info = None  # what experiment_ready said of self.trainer
        self.generation = 0
        self._sent = 0
        self._last_send = 0.0
        self._last_progress = 0.0
        self._speed = FULL_SPEED
        self._timer: QTimer | None = None
        self._in_flight = False  # a batch is on its way and the GUI has not yet handled it
        self._target = 0  # run epochs until this many are complete (Step epoch, slow play)
        self._chain = 0  # the current run of continuation events; a new number cancels the old
        self._continuing = False
        self._interrupted = threading.Event()  # set by the GUI thread: a reset is on its way
        self._closing = threading.Event()  # set by the GUI thread: the window is closing

    # --- called directly from the GUI thread (thread-safe: they only set flags) -----------------

    def interrupt(self) -> None:
        """Stop the work in progress at the next phase; the reset queued after it clears this."""
        self._interrupted.set()

    def close(self) -> None:
        """Stop the work in progress at the next phase and start nothing new."""
        self._closing.set()

    # --- slots (run in the worker's thread) ------------------------------------------------------

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
        self._halt()
        self._interrupted.clear()
        if self._closing.is_set():
            return
        try:
            trainer, info = self._prepare(config)
        except Exception as error:  # noqa: BLE001 — errors are data: one sentence, state kept
            self._keep_previous(generation, one_line(error))
            return
        self.generation, self._sent, self.trainer, self.info = generation, 0, trainer, info
        self._in_flight, self._target = False, 0
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
        self._halt()  # an epoch in progress stays part-way; the next step or play continues it
        self._flush(force=True)

    @Slot()
    def step_epoch(self) -> None:
        if self.trainer is not None:
            self._target = max(self._target, self.trainer.epoch) + 1
            if not self._continuing:
                self._continue_epochs(self._chain)

    @Slot()
    def step_phase(self) -> None:
        if self.trainer is None or self._continuing or self._stop_requested():
            return
        phase = self.trainer.step_phase()
        if phase is not None:
            self.phase_done.emit(self.generation, phase)
        self._after_step()

    # --- internals -------------------------------------------------------------------------------

    def _stop_requested(self) -> bool:
        return self._interrupted.is_set() or self._closing.is_set()

    def _halt(self) -> None:
        """Stop the timer and any continuation of an epoch."""
        if self._timer is not None:
            self._timer.stop()
        self._chain += 1
        self._continuing = False

    def _keep_previous(self, generation: int, message: str) -> None:
        """A new experiment could not be made: keep the previous one, under the new generation,
        and send its history again so the panel can show it as it was."""
        trainer = self.trainer
        if trainer is None:
            self.failed.emit(generation, message, "", None)
            return
        self.generation, self._sent, self._in_flight = generation, 0, False
        if trainer.stopped:
            state = "stopped"
        elif trainer.finished:
            state = "finished"
        else:
            state = "paused" if trainer.started else "ready"
        self.failed.emit(generation, message, state, self.info)
        self._flush(force=True)

    def _apply_speed(self) -> None:
        if self._timer is not None:
            self._timer.setInterval(SPEEDS[self._speed][1])

    def _run_slice(self, until_epoch: int | None) -> None:
        """Run phases for SLICE_S at most (until `until_epoch` epochs are complete, if given),
        stopping at once if a reset or close is requested."""
        trainer = self.trainer
        deadline = time.perf_counter() + SLICE_S

        def should_stop() -> bool:
            return self._stop_requested() or time.perf_counter() > deadline

        while not trainer.finished and not should_stop():
            if until_epoch is not None and trainer.epoch >= until_epoch:
                break
            trainer.step_epoch(should_stop)

    def _continue_epochs(self, chain: int) -> None:
        """Run toward self._target one slice at a time; each slice is one event of the worker's
        loop, so pause, reset and close requests are handled in between."""
        trainer = self.trainer
        if chain != self._chain or trainer is None or self._stop_requested():
            return
        self._continuing = True
        self._run_slice(self._target)
        if trainer.epoch < self._target and not trainer.finished:
            if self._stop_requested():
                self._continuing = False
                return
            self._report_progress()
            QTimer.singleShot(0, self, lambda: self._continue_epochs(chain))
            return
        self._continuing = False
        self._after_step(force=SPEEDS[self._speed][1] >= THROTTLE_S * 1000 or not self._ticking())

    def _ticking(self) -> bool:
        return self._timer is not None and self._timer.isActive()

    def _on_tick(self) -> None:
        trainer = self.trainer
        if trainer is None or trainer.finished:
            self._halt()
            return
        if self._continuing or self._stop_requested():
            return  # an epoch longer than one tick is still on its way
        _, interval, by_phase = SPEEDS[self._speed]
        if by_phase:
            self.step_phase()
            return
        if self._speed != FULL_SPEED:
            self._target = trainer.epoch + 1
            self._continue_epochs(self._chain)
            return
        self._run_slice(None)
        self._report_progress()
        self._after_step(force=False)

    def _report_progress(self) -> None:
        """batch i / N of the epoch in progress, throttled (only when an epoch is part-way)."""
        trainer = self.trainer
        done, total = trainer.batch_progress
        now = time.perf_counter()
        if 0 < done < total and now - self._last_progress >= PROGRESS_S:
            self._last_progress = now
            self.progress_made.emit(self.generation, trainer.epoch + 1, done, total)

    def _after_step(self, force: bool = True) -> None:
        trainer = self.trainer
        done = trainer is not None and trainer.finished
        self._flush(force=force or done)
        if done:
            self._halt()
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


_UNJOINED: list = []  # threads that outlived shutdown's wait (never expected: reported if so)


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

    def shutdown(self, timeout_ms: int = JOIN_TIMEOUT_MS) -> bool:
        """Stop the worker at its next phase and join its thread, waiting at most timeout_ms.
        Returns False (and logs it) if the thread is still running then; it is kept referenced
        so that Qt does not destroy a running thread."""
        if not self.thread.isRunning():
            return True
        self.worker.close()
        self.thread.quit()
        if self.thread.wait(timeout_ms):
            return True
        _UNJOINED.append(self)
        log.warning("the training thread did not stop within %d ms", timeout_ms)
        return False

    def is_running(self) -> bool:
        return self.thread.isRunning()

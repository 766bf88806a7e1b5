"""The playground's training loop off the GUI thread: a TrainingWorker that drives a
PlaygroundTrainer and, besides the epoch records, hands out Snapshots of the network (its
parameters as NumPy copies) at most every PICTURES_S and only once the GUI has drawn the previous
frame (backpressure). A PictureWorker, in a thread of its own, turns them into pictures."""

from __future__ import annotations

import time

from PySide6.QtCore import Signal, Slot

from tensorviz.core.training.data import TrainingConfig
from tensorviz.core.training.network_pictures import state_arrays
from tensorviz.core.training.playground_report import PlaygroundInfo, describe_playground
from tensorviz.core.training.playground_trainer import PlaygroundTrainer
from tensorviz.ui.training.picture_worker import Snapshot
from tensorviz.ui.training.training_worker import TrainingWorker

PICTURES_S = 1 / 12  # pictures at most 12 times a second (the goal is at least 10)


def prepare_playground(config: TrainingConfig) -> tuple[PlaygroundTrainer, PlaygroundInfo]:
    trainer = PlaygroundTrainer(config)
    return trainer, describe_playground(trainer)


class PlaygroundWorker(TrainingWorker):
    snapshot_ready = Signal(object)  # Snapshot, for the PictureWorker

    def __init__(self) -> None:
        super().__init__(prepare_playground)
        self._pictures_in_flight = False
        self._last_pictures = 0.0
        self.snapshots_sent = 0

    @Slot(int, object)
    def reset(self, generation: int, config: TrainingConfig) -> None:
        before = self.trainer
        super().reset(generation, config)
        if self.trainer is not before and self.generation == generation:
            self._pictures_in_flight = False
            self._send_pictures(force=True)

    @Slot()
    def acknowledge_pictures(self) -> None:
        """The GUI has drawn the last frame."""
        self._pictures_in_flight = False

    @Slot()
    def redraw_pictures(self) -> None:
        """The theme changed: the pictures again, in its colours (even while paused)."""
        self._send_pictures(force=True)

    def _flush(self, force: bool) -> None:
        super()._flush(force)
        self._send_pictures(force)

    def _send_pictures(self, force: bool) -> None:
        trainer = self.trainer
        if trainer is None or self.info is None or self._stop_requested():
            return
        now = time.perf_counter()
        if not force and (self._pictures_in_flight or now - self._last_pictures < PICTURES_S):
            return
        snapshot = Snapshot(
            self.generation,
            self.info,
            trainer.epoch,
            trainer.last_grad_norms(),
            state_arrays(trainer.model),
        )
        self._pictures_in_flight = True
        self._last_pictures = now
        self.snapshots_sent += 1
        self.snapshot_ready.emit(snapshot)

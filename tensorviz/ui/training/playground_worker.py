"""The playground's training loop off the GUI thread: a TrainingWorker that drives a
PlaygroundTrainer and, besides the epoch records, sends the live pictures — the boundary over a
100 × 100 grid, every neuron's tile, the weights — computed and coloured in its own thread, at
most every PICTURES_S and only once the GUI has drawn the previous frame (backpressure)."""

from __future__ import annotations

import time

from PySide6.QtCore import Signal, Slot

from tensorviz.core.training.data import TrainingConfig
from tensorviz.core.training.playground_report import PlaygroundInfo, describe_playground
from tensorviz.core.training.playground_trainer import PlaygroundTrainer
from tensorviz.ui.training.network_frames import FrameMaker
from tensorviz.ui.training.training_worker import TrainingWorker

PICTURES_S = 1 / 15  # pictures at most 15 times a second (the goal is at least 10)


def prepare_playground(config: TrainingConfig) -> tuple[PlaygroundTrainer, PlaygroundInfo]:
    trainer = PlaygroundTrainer(config)
    return trainer, describe_playground(trainer)


class PlaygroundWorker(TrainingWorker):
    pictures_ready = Signal(int, object)  # generation, PictureFrame

    def __init__(self) -> None:
        super().__init__(self._prepare_with_frames)
        self._frames: FrameMaker | None = None
        self._next_frames: FrameMaker | None = None
        self._pictures_in_flight = False
        self._last_pictures = 0.0
        self.frames_sent = 0

    @Slot(int, object)
    def reset(self, generation: int, config: TrainingConfig) -> None:
        before = self.trainer
        super().reset(generation, config)
        if self.trainer is not before and self.generation == generation:
            self._frames = self._next_frames
            self._pictures_in_flight = False
            self._send_pictures(force=True)

    def _prepare_with_frames(self, config: TrainingConfig) -> tuple:
        trainer, info = prepare_playground(config)
        self._next_frames = FrameMaker(info)
        return trainer, info

    @Slot()
    def acknowledge_pictures(self) -> None:
        """The GUI has drawn the last frame."""
        self._pictures_in_flight = False

    def _flush(self, force: bool) -> None:
        super()._flush(force)
        self._send_pictures(force)

    def _send_pictures(self, force: bool) -> None:
        if self.trainer is None or self._frames is None or self._stop_requested():
            return
        now = time.perf_counter()
        if not force and (self._pictures_in_flight or now - self._last_pictures < PICTURES_S):
            return
        frame = self._frames.make(self.trainer.pictures())
        self._pictures_in_flight = True
        self._last_pictures = now
        self.frames_sent += 1
        self.pictures_ready.emit(self.generation, frame)

"""The playground's pictures made in a thread of their own: the training thread only copies the
parameters (a Snapshot) at most every PICTURES_S; this worker loads them into a CPU copy of the
network, computes the boundary, the neuron tiles and the weights (network_pictures), colours
and paints them (network_frames) and sends the finished PictureFrame to the GUI. Training never
waits for a picture, and on two cores the pictures and the loop run side by side."""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np
import torch
from PySide6.QtCore import QObject, Signal, Slot

from tensorviz.core.training.network_pictures import Picturer
from tensorviz.core.training.playground_report import PlaygroundInfo, rebuilt_model
from tensorviz.ui.training.network_frames import FrameMaker


@dataclass(frozen=True)
class Snapshot:
    """The network at one moment, as plain data: what a frame is made from."""

    generation: int
    info: PlaygroundInfo  # the experiment (the same object for every snapshot of it)
    epoch: int
    grad_norms: tuple[float, ...]
    state: dict[str, np.ndarray]


class PictureWorker(QObject):
    pictures_ready = Signal(int, object)  # generation, PictureFrame

    def __init__(self) -> None:
        super().__init__()
        self._info: PlaygroundInfo | None = None
        self._model: torch.nn.Sequential | None = None
        self._picturer: Picturer | None = None
        self._frames: FrameMaker | None = None
        self._closing = threading.Event()
        self.frames_made = 0

    def close(self) -> None:
        """Called from the GUI thread: make no more frames."""
        self._closing.set()

    @Slot()
    def setup(self) -> None:
        """Runs once its thread has started (TrainingThread's protocol); nothing to prepare."""

    @Slot()
    def teardown(self) -> None:
        """Runs as its thread finishes; nothing to release."""

    @Slot(object)
    def make(self, snapshot: Snapshot) -> None:
        if self._closing.is_set():
            return
        info = snapshot.info
        if info is not self._info:  # a new experiment: its network, grids and static tiles
            self._model = rebuilt_model(info.config, snapshot.state)
            self._picturer = Picturer(info.config, info.plane, info.layout, info.dims)
            self._frames = FrameMaker(info)
            self._info = info
        else:
            weights = {k: torch.from_numpy(v) for k, v in snapshot.state.items()}
            self._model.load_state_dict(weights)
        pictures = self._picturer.pictures(
            self._model, snapshot.epoch, snapshot.grad_norms, snapshot.state
        )
        frame = self._frames.make(pictures)
        self.frames_made += 1
        self.pictures_ready.emit(snapshot.generation, frame)
